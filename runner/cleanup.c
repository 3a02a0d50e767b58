/* cleanup.c — kill a run's children and remove its temporary directory (and the paths kept for removal) on
 * SIGINT/SIGTERM/SIGHUP, and kill the children at exit. */
#define _GNU_SOURCE
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const int handled[] = {SIGINT, SIGTERM, SIGHUP};
#define N_HANDLED ((int)(sizeof handled / sizeof handled[0]))

static struct kc_cleanup_pid *tracked;
static char tmpdir[PATH_MAX];                     /* "" : nothing to remove */
static char kept[KC_CLEANUP_MAX_PATHS][PATH_MAX]; /* kc_cleanup_add_path's; "" : a free slot */
static struct sigaction previous[N_HANDLED];
static sigset_t held_mask; /* the mask before the outermost kc_cleanup_hold */
static int hold_depth;
static int installed, in_run, exit_hook, subreaper;

/* --- processes, with system calls only (all of it runs in the signal handler too) ------------------------------ */

/* The decimal digits of a non-negative v at the end of buf (size n); returns where they start. */
static char *digits(char *buf, size_t n, long v)
{
	char *p = buf + n - 1;
	*p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) > 0 && p > buf);
	return p;
}

/* The parent of pid, from /proc/PID/stat ("pid (comm) state ppid ...", comm may hold ") "); -1 if unknown. */
static int parent_of(int pid)
{
	char num[24], path[48] = "/proc/", buf[512];
	strcat(strcat(path, digits(num, sizeof num, pid)), "/stat");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	if (!p || strlen(p) < 5)
		return -1;
	long ppid = 0;
	for (p += 4; *p >= '0' && *p <= '9'; p++)
		ppid = ppid * 10 + (*p - '0');
	return (int)ppid;
}

/* Is pid a descendant of kcost (a kernel, its children, whatever they forked)? */
static int is_descendant(int pid)
{
	int self = (int)getpid();
	for (int p = parent_of(pid), k = 0; p > 1 && k < 64; p = parent_of(p), k++)
		if (p == self)
			return 1;
	return 0;
}

static int is_tracked(int pid)
{
	for (struct kc_cleanup_pid *t = tracked; t; t = t->next)
		if (t->pid == pid)
			return 1;
	return 0;
}

/* Kill and reap kcost's children that no job tracks: as the subreaper, kcost inherits whatever a kernel left
 * behind outside its process group (a grandchild that called setsid) once its parent dies. Repeated, as killing
 * one orphans its own children. */
static void kill_strays(void)
{
	char buf[2048];
	int self = (int)getpid();
	for (int round = 0; subreaper && round < 8; round++) {
		int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), found = 0;
		ssize_t n;
		while (fd >= 0 && (n = getdents64(fd, buf, sizeof buf)) > 0)
			for (ssize_t off = 0; off < n;) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);
				off += d->d_reclen;
				long pid = 0;
				for (const char *c = d->d_name; *c >= '0' && *c <= '9'; c++)
					pid = pid * 10 + (*c - '0');
				if (pid <= 0 || pid == self || is_tracked((int)pid) || parent_of((int)pid) != self)
					continue;
				kill((pid_t)pid, SIGKILL);
				waitpid((pid_t)pid, NULL, 0);
				found++;
			}
		if (fd >= 0)
			close(fd);
		if (!found)
			return;
	}
}

static void kill_tracked(int wait)
{
	for (struct kc_cleanup_pid *t = tracked; t; t = t->next) {
		kill(-t->pid, SIGKILL);
		kill(t->pid, SIGKILL);
		if (wait)
			waitpid(t->pid, NULL, 0);
	}
	kill_strays();
}

void kc_cleanup_reap_strays(void)
{
	kill_strays();
}

/* Only async-signal-safe calls: kill, waitpid, open/read/getdents64/unlinkat, sigaction, raise. A signal a
 * kernel sent (to its parent, to every process of the user) is ignored: it is the kernel's fault, not the
 * user's wish, and the run goes on; one from anywhere else (the terminal, CI cancelling the job) ends it. */
static void on_signal(int sig, siginfo_t *si, void *context)
{
	(void)context;
	if (si && (si->si_code == SI_USER || si->si_code == SI_QUEUE) && si->si_pid > 0 && si->si_pid != getpid() &&
	    is_descendant(si->si_pid))
		return;
	kill_tracked(1);
	if (tmpdir[0])
		kc_cleanup_remove_tree(tmpdir);
	for (int k = 0; k < KC_CLEANUP_MAX_PATHS; k++)
		if (kept[k][0])
			kc_cleanup_remove_tree(kept[k]);
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

/* The handlers, installed while a run or a kept path needs them (kcost's own, saved, are restored after). */
static void install(void)
{
	if (installed)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask); /* one cleanup at a time */
	for (int i = 0; i < N_HANDLED; i++)
		sigaction(handled[i], &sa, &previous[i]);
	installed = 1;
}

static void uninstall_unless_needed(void)
{
	int needed = in_run;
	for (int k = 0; k < KC_CLEANUP_MAX_PATHS; k++)
		needed |= kept[k][0] != '\0';
	if (!installed || needed)
		return;
	for (int i = 0; i < N_HANDLED; i++)
		sigaction(handled[i], &previous[i], NULL);
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

int kc_cleanup_begin(const char *dir)
{
	if (dir && strlen(dir) >= sizeof tmpdir)
		return -1;
	sigset_t old;
	block(&old); /* the handlers may be installed already (a kept path): none reads half a name */
	strcpy(tmpdir, dir ? dir : "");
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!exit_hook)
		exit_hook = atexit(at_exit) == 0;
	install();
	in_run = 1;
	/* orphans of kernels become kcost's children, to be killed (Linux 3.4+; elsewhere they escape) */
	subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
	return 0;
}

void kc_cleanup_end(void)
{
	if (!in_run)
		return;
	tmpdir[0] = '\0';
	in_run = 0;
	uninstall_unless_needed();
	if (subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	subreaper = 0;
}

void kc_cleanup_hold(void)
{
	sigset_t old;
	block(&old);
	if (hold_depth++ == 0)
		held_mask = old;
}

void kc_cleanup_release(void)
{
	if (hold_depth > 0 && --hold_depth == 0)
		sigprocmask(SIG_SETMASK, &held_mask, NULL);
}

int kc_cleanup_add_path(const char *path)
{
	if (strlen(path) >= PATH_MAX)
		return -1;
	sigset_t old;
	block(&old);
	int k = 0;
	while (k < KC_CLEANUP_MAX_PATHS && kept[k][0])
		k++;
	if (k < KC_CLEANUP_MAX_PATHS) {
		strcpy(kept[k], path);
		install();
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return k < KC_CLEANUP_MAX_PATHS ? 0 : -1;
}

void kc_cleanup_forget_path(const char *path)
{
	sigset_t old;
	block(&old);
	for (int k = 0; k < KC_CLEANUP_MAX_PATHS; k++)
		if (!strcmp(kept[k], path))
			kept[k][0] = '\0';
	uninstall_unless_needed();
	sigprocmask(SIG_SETMASK, &old, NULL);
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
	if (fd < 0 && errno == EACCES && fchmodat(dirfd, name, 0700, 0) == 0) /* a kernel's chmod 000 */
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	fchmod(fd, 0700); /* entries of a read-only directory cannot be removed */
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
