/* sandbox.c — --sandbox: namespaces and a read-only filesystem for kernel children (see sandbox.h). */
#define _GNU_SOURCE
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The steps of entering, for the probe's message; step_name[step]. */
enum { S_UNSHARE = 1, S_SETGROUPS, S_UIDMAP, S_GIDMAP, S_PRIVATE, S_BIND, S_READONLY, S_WRITABLE, S_N };
static const char *const step_name[S_N] = {
    "?",
    "unshare of the mount, network and IPC namespaces",
    "writing /proc/self/setgroups",
    "writing /proc/self/uid_map",
    "writing /proc/self/gid_map",
    "making the mounts private",
    "bind-mounting the temporary directory",
    "making the filesystem read-only",
    "keeping the temporary directory writable",
};

/* Decimal digits of v into p (no snprintf between fork and exec); the end. */
static char *put_uint(char *p, unsigned long v)
{
	char d[24];
	int n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < (int)sizeof d);
	while (n)
		*p++ = d[--n];
	return p;
}

static int write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t w = write(fd, text, len);
	int e = errno;
	close(fd);
	errno = e;
	return w == (ssize_t)len ? 0 : -1;
}

/* "ID ID 1": the one id of the user mapped to itself, so files in the temporary directory keep their owner. */
static int map_id(const char *path, unsigned long id)
{
	char line[64], *p = line;
	p = put_uint(p, id);
	*p++ = ' ';
	p = put_uint(p, id);
	*p++ = ' ';
	*p++ = '1';
	return write_file(path, line, (size_t)(p - line));
}

static int set_mount_attr(const char *path, unsigned long long set, unsigned long long clr)
{
	struct mount_attr attr = {.attr_set = set, .attr_clr = clr};
	return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr);
}

static int enter(const char *writable, int *step)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC;
	if (uid != 0)
		flags |= CLONE_NEWUSER; /* what lets a user without CAP_SYS_ADMIN create the others */
	*step = S_UNSHARE;
	if (unshare(flags) < 0)
		return -1;
	if (uid != 0) {
		*step = S_SETGROUPS;
		if (write_file("/proc/self/setgroups", "deny", 4) < 0 && errno != ENOENT)
			return -1;
		*step = S_UIDMAP;
		if (map_id("/proc/self/uid_map", uid) < 0)
			return -1;
		*step = S_GIDMAP;
		if (map_id("/proc/self/gid_map", gid) < 0)
			return -1;
	}
	/* nothing done here may reach the mounts of the machine */
	*step = S_PRIVATE;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	*step = S_BIND;
	if (mount(writable, writable, NULL, MS_BIND | MS_REC, NULL) < 0)
		return -1;
	*step = S_READONLY;
	if (set_mount_attr("/", MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0) < 0)
		return -1;
	*step = S_WRITABLE;
	if (set_mount_attr(writable, 0, MOUNT_ATTR_RDONLY) < 0)
		return -1;
	return 0;
}

int kc_sandbox_enter(const char *writable)
{
	int step;
	return enter(writable, &step);
}

/* The probe child's answer: the step that failed (or a check: 100 the writable directory was not, 101 its
 * parent was) and errno. */
struct probe_answer {
	int step, err;
};

enum { P_NOT_WRITABLE = 100, P_NOT_READ_ONLY = 101 };

static void probe_child(const char *writable, const char *inside, const char *outside, int w)
{
	struct probe_answer ans = {0, 0};
	int fd;
	if (enter(writable, &ans.step) < 0) {
		ans.err = errno;
	} else if ((fd = open(inside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0) {
		ans = (struct probe_answer){P_NOT_WRITABLE, errno};
	} else {
		close(fd);
		unlink(inside);
		ans.step = 0;
		if ((fd = open(outside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0) {
			close(fd);
			unlink(outside);
			ans = (struct probe_answer){P_NOT_READ_ONLY, 0};
		}
	}
	ssize_t ignored = write(w, &ans, sizeof ans);
	(void)ignored;
	_exit(0);
}

int kc_sandbox_probe(const char *writable, char *why, size_t n)
{
	char inside[PATH_MAX], outside[PATH_MAX];
	const char *slash = strrchr(writable, '/');
	int len = slash ? (int)(slash - writable) : 0;
	if ((size_t)snprintf(inside, sizeof inside, "%s/.kcost-sandbox-probe", writable) >= sizeof inside ||
	    (size_t)snprintf(outside, sizeof outside, "%.*s/.kcost-sandbox-probe-%ld", len, slash ? writable : ".",
	                     (long)getpid()) >= sizeof outside) {
		snprintf(why, n, "the temporary directory's path is too long");
		return -1;
	}
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		snprintf(why, n, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		probe_child(writable, inside, outside, p[1]);
	}
	int fork_errno = errno;
	close(p[1]);
	struct probe_answer ans = {-1, 0};
	if (pid > 0) {
		ssize_t got;
		do
			got = read(p[0], &ans, sizeof ans);
		while (got < 0 && errno == EINTR);
		if (got != (ssize_t)sizeof ans)
			ans = (struct probe_answer){-1, 0};
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
		}
	}
	close(p[0]);
	if (pid < 0)
		snprintf(why, n, "fork: %s", strerror(fork_errno));
	else if (ans.step == P_NOT_WRITABLE)
		snprintf(why, n, "the temporary directory was not writable inside it: %s", strerror(ans.err));
	else if (ans.step == P_NOT_READ_ONLY)
		snprintf(why, n, "the filesystem stayed writable inside it");
	else if (ans.step > 0 && ans.step < S_N)
		snprintf(why, n, "%s: %s", step_name[ans.step], strerror(ans.err));
	else if (ans.step != 0)
		snprintf(why, n, "the probe ended without an answer");
	return ans.step == 0 ? 0 : -1;
}
