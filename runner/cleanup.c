/* cleanup.c — kill a run's children and remove its temporary directory on SIGINT/SIGTERM/SIGHUP and at exit. */
#define _GNU_SOURCE
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const int handled[] = {SIGINT, SIGTERM, SIGHUP};
#define N_HANDLED ((int)(sizeof handled / sizeof handled[0]))

static struct kc_cleanup_pid *tracked;
static char tmpdir[PATH_MAX]; /* "" : nothing to remove */
static struct sigaction previous[N_HANDLED];
static sigset_t held_mask; /* the mask before kc_cleanup_hold */
static int installed, exit_hook;

static void kill_tracked(int wait)
{
	for (struct kc_cleanup_pid *t = tracked; t; t = t->next) {
		kill(-t->pid, SIGKILL);
		kill(t->pid, SIGKILL);
		if (wait)
			waitpid(t->pid, NULL, 0);
	}
}

/* Only async-signal-safe calls: kill, waitpid, the removal's system calls, sigaction, raise. */
static void on_signal(int sig)
{
	kill_tracked(1);
	if (tmpdir[0])
		kc_cleanup_remove_tree(tmpdir);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void at_exit(void)
{
	kill_tracked(0);
}

int kc_cleanup_begin(const char *dir)
{
	if (dir && strlen(dir) >= sizeof tmpdir)
		return -1;
	strcpy(tmpdir, dir ? dir : "");
	if (!exit_hook)
		exit_hook = atexit(at_exit) == 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask); /* one cleanup at a time */
	for (int i = 0; i < N_HANDLED; i++)
		sigaction(handled[i], &sa, &previous[i]);
	installed = 1;
	return 0;
}

void kc_cleanup_end(void)
{
	if (!installed)
		return;
	for (int i = 0; i < N_HANDLED; i++)
		sigaction(handled[i], &previous[i], NULL);
	tmpdir[0] = '\0';
	installed = 0;
}

static void block(sigset_t *old)
{
	sigset_t s;
	sigemptyset(&s);
	for (int i = 0; i < N_HANDLED; i++)
		sigaddset(&s, handled[i]);
	sigprocmask(SIG_BLOCK, &s, old);
}

void kc_cleanup_hold(void)
{
	block(&held_mask);
}

void kc_cleanup_release(void)
{
	sigprocmask(SIG_SETMASK, &held_mask, NULL);
}

void kc_cleanup_track(struct kc_cleanup_pid *t, int pid)
{
	sigset_t old;
	block(&old);
	*t = (struct kc_cleanup_pid){pid, NULL, tracked};
	if (tracked)
		tracked->prev = t;
	tracked = t;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void kc_cleanup_untrack(struct kc_cleanup_pid *t)
{
	sigset_t old;
	block(&old);
	if (t->prev)
		t->prev->next = t->next;
	else if (tracked == t)
		tracked = t->next;
	if (t->next)
		t->next->prev = t->prev;
	t->prev = t->next = NULL;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void kc_cleanup_in_child(void)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (int i = 0; installed && i < N_HANDLED; i++)
		sigaction(handled[i], &dfl, NULL);
	sigprocmask(SIG_SETMASK, &held_mask, NULL);
}

/* Remove the entries of the open directory fd: passes until one finds nothing left (removing entries while
 * reading a directory may skip some). */
static int remove_entries(int fd, int depth);

static int remove_at(int dirfd, const char *name, int depth)
{
	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if ((errno != EISDIR && errno != EPERM) || depth >= 64)
		return -1;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = remove_entries(fd, depth + 1);
	close(fd);
	return unlinkat(dirfd, name, AT_REMOVEDIR) == 0 && rc == 0 ? 0 : -1;
}

static int remove_entries(int fd, int depth)
{
	char buf[2048];
	for (int pass = 0; pass < 16; pass++) {
		int left = 0, failed = 0;
		lseek(fd, 0, SEEK_SET);
		ssize_t n;
		while ((n = getdents64(fd, buf, sizeof buf)) > 0)
			for (ssize_t off = 0; off < n;) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);
				off += d->d_reclen;
				if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
					continue;
				left = 1;
				failed |= remove_at(fd, d->d_name, depth) < 0;
			}
		if (!left)
			return 0;
		if (failed)
			return -1;
	}
	return -1;
}

int kc_cleanup_remove_tree(const char *path)
{
	return remove_at(AT_FDCWD, path, 0);
}
