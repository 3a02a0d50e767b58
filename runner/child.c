/* child.c — a child process with limits: fork + execve, output capture, a wall-clock deadline, reaping at exit;
 * how it ended; the kernel child's environment, result channel and result line. */
#define _GNU_SOURCE
#include "child.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "sandbox.h"
#include "harness/kcost_driver.h"

extern char **environ;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int kc_child_which(const char *name, char *out, size_t n)
{
	struct stat st;
	if (strchr(name, '/')) {
		if ((size_t)snprintf(out, n, "%s", name) >= n)
			return -1;
		return stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0 ? 0 : -1;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;; p++) {
		const char *end = strchr(p, ':');
		int len = end ? (int)(end - p) : (int)strlen(p);
		/* an empty PATH entry means the current directory */
		int w = len ? snprintf(out, n, "%.*s/%s", len, p, name) : snprintf(out, n, "./%s", name);
		if (w > 0 && (size_t)w < n && stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
			return 0;
		if (!end)
			return -1;
		p = end;
	}
}

/* The environment with env_add replacing same-named variables. The array is malloc'd; the strings are borrowed. */
static char **environment_with(const char *const *env_add)
{
	size_t n_env = 0, n_add = 0;
	while (environ && environ[n_env])
		n_env++;
	while (env_add && env_add[n_add])
		n_add++;
	char **env = malloc(sizeof *env * (n_env + n_add + 1));
	if (!env)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n_env; i++) {
		int replaced = 0;
		for (size_t j = 0; j < n_add && !replaced; j++) {
			size_t name_len = strcspn(env_add[j], "=");
			replaced = !strncmp(environ[i], env_add[j], name_len) && environ[i][name_len] == '=';
		}
		if (!replaced)
			env[k++] = environ[i];
	}
	for (size_t j = 0; j < n_add; j++)
		env[k++] = (char *)env_add[j];
	env[k] = NULL;
	return env;
}

struct child_setup {
	const char *path, *cwd;
	char *const *argv, *const *envp;
	const struct kc_child_limits *lim;
	int out_w, err_w, status_w, result_w; /* result_w: -1 without a result channel */
	pid_t parent;                         /* kcost */
};

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = {soft, hard};
	setrlimit(resource, &rl);
}

/* In the child, between fork and exec: only async-signal-safe calls. Never returns. */
static void child_exec(const struct child_setup *c)
{
	kc_cleanup_in_child();
	setpgid(0, 0);
	/* killed with kcost, however kcost ends (even SIGKILL, which no handler sees); kcost may have ended already */
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != c->parent)
		_exit(127);
	int in = open("/dev/null", O_RDONLY);
	if (in >= 0)
		dup2(in, 0);
	dup2(c->out_w, 1);
	dup2(c->err_w, 2);
	if (c->result_w >= 0)
		fcntl(c->result_w, F_SETFD, 0); /* the one pipe the harness inherits */
	if (c->lim && c->lim->cpu_seconds > 0) {
		rlim_t s = (rlim_t)ceil(c->lim->cpu_seconds);
		set_limit(RLIMIT_CPU, s, s + 1);
	}
	if (c->lim && c->lim->address_space > 0)
		set_limit(RLIMIT_AS, (rlim_t)c->lim->address_space, (rlim_t)c->lim->address_space);
	/* a failure to enter the sandbox is told apart from one to exec by its sign */
	if (c->lim && c->lim->sandbox_dir && kc_sandbox_enter(c->lim->sandbox_dir) < 0) {
		int e = -errno;
		if (write(c->status_w, &e, sizeof e) < 0) {
			/* as below */
		}
		_exit(127);
	}
	if (!c->cwd || chdir(c->cwd) == 0)
		execve(c->path, c->argv, c->envp);
	int e = errno;
	if (write(c->status_w, &e, sizeof e) < 0) {
		/* nothing more can be done: the parent sees exit status 127 */
	}
	_exit(127);
}

static void close_capture(struct kc_child_capture *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Read what is available on one pipe (non-blocking); 2 when it read something, 1 when nothing was there, 0 at end
 * of file. */
static int capture_read(struct kc_child_capture *c)
{
	char chunk[65536];
	ssize_t got = read(c->fd, chunk, sizeof chunk);
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (got == 0)
		return 0;
	size_t keep = c->len + (size_t)got > c->limit ? c->limit - c->len : (size_t)got;
	c->dropped |= keep < (size_t)got;
	if (keep && c->len + keep + 1 > c->cap) {
		size_t cap = c->cap ? c->cap : 4096;
		while (cap < c->len + keep + 1)
			cap *= 2;
		char *d = realloc(c->data, cap);
		if (!d) {
			c->dropped = 1; /* drop the chunk; keep reading so the child never blocks */
			return 2;
		}
		c->data = d;
		c->cap = cap;
	}
	if (keep) {
		memcpy(c->data + c->len, chunk, keep);
		c->len += keep;
		c->data[c->len] = '\0';
	}
	return 2;
}

/* After the child's exit: what its pipes still hold, up to 64 reads (4 MiB) each, as a process that escaped the
 * group may keep writing; then the pipe is closed. */
static void drain_capture(struct kc_child_capture *c)
{
	for (int k = 0; c->fd >= 0 && k < 64 && capture_read(c) == 2; k++)
		continue;
	close_capture(c);
}

static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

static void close_pipe(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0)
			close(p[i]);
}

/* The exec-failure pipe: the child writes errno to it when execve fails; it closes on a successful exec. */
static int exec_errno(int status_r)
{
	int e = 0;
	ssize_t got;
	do
		got = read(status_r, &e, sizeof e);
	while (got < 0 && errno == EINTR);
	return got == (ssize_t)sizeof e ? e : 0;
}

static int start_failed(char *msg, size_t msgsz, const char *what, const char *prog, int e)
{
	snprintf(msg, msgsz, "%s %s: %s", what, prog, strerror(e));
	return -1;
}

/* The executable argv[0] names, relative to cwd when it is a relative path with a '/'; -1 with *e set. Paths
 * are at most PATH_MAX bytes: execve refuses longer ones (ENAMETOOLONG) anyway. */
static int resolve(const char *prog, const char *cwd, char *path, size_t n, int *e)
{
	char rel[PATH_MAX];
	*e = ENAMETOOLONG;
	if (cwd && prog[0] != '/' && strchr(prog, '/')) {
		if ((size_t)snprintf(rel, sizeof rel, "%s/%s", cwd, prog) >= sizeof rel)
			return -1;
		prog = rel;
	}
	if (strchr(prog, '/') && strlen(prog) >= n)
		return -1;
	*e = ENOENT;
	return kc_child_which(prog, path, n);
}

/* envp for a child: kcost's environment with env_add replacing same-named variables, or exactly env (env_only),
 * and KCOST_RESULT_FD=result_fd when result_fd >= 0 (its text in fd_var). malloc'd; the strings are borrowed. */
static char **child_environment(const char *const *env, int env_only, int result_fd, char *fd_var, size_t n)
{
	char **envp = env_only ? NULL : environment_with(env);
	size_t k = 0;
	if (env_only) {
		while (env && env[k])
			k++;
		envp = malloc(sizeof *envp * (k + 2));
		for (size_t i = 0; envp && i < k; i++)
			envp[i] = (char *)env[i];
	} else {
		while (envp && envp[k])
			k++;
		char **grown = envp ? realloc(envp, sizeof *envp * (k + 2)) : NULL;
		if (!grown)
			free(envp);
		envp = grown;
	}
	if (!envp)
		return NULL;
	envp[k] = NULL;
	if (result_fd >= 0) {
		snprintf(fd_var, n, "KCOST_RESULT_FD=%d", result_fd);
		envp[k++] = fd_var, envp[k] = NULL;
	}
	return envp;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Pipes of a job: stdout, stderr, the exec-failure status, the result channel (kernels only); -1 when closed. */
struct job_pipes {
	int out[2], err[2], status[2], result[2];
};

static void close_pipes(struct job_pipes *p)
{
	close_pipe(p->out), close_pipe(p->err), close_pipe(p->status), close_pipe(p->result);
}

static int open_pipes(struct job_pipes *p, int with_result)
{
	*p = (struct job_pipes){{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
	if (pipe2(p->out, O_CLOEXEC) < 0 || pipe2(p->err, O_CLOEXEC) < 0 || pipe2(p->status, O_CLOEXEC) < 0 ||
	    (with_result && pipe2(p->result, O_CLOEXEC) < 0))
		return -1;
	/* kcost's ends only: reading never blocks, so a finished child is reaped whoever else holds its pipes */
	fcntl(p->out[0], F_SETFL, O_NONBLOCK);
	fcntl(p->err[0], F_SETFL, O_NONBLOCK);
	if (with_result)
		fcntl(p->result[0], F_SETFL, O_NONBLOCK);
	return 0;
}

/* Fork and exec c in its own process group, tracked for cleanup from before a signal could miss it; the child's
 * pipe ends are closed here. The pid, or -1 with errno. */
static pid_t spawn(const struct child_setup *c, struct job_pipes *pp, struct kc_cleanup_pid *tracked)
{
	kc_cleanup_hold();
	pid_t pid = fork();
	if (pid == 0)
		child_exec(c);
	int fork_errno = errno;
	close_fd(&pp->out[1]), close_fd(&pp->err[1]), close_fd(&pp->status[1]), close_fd(&pp->result[1]);
	if (pid > 0) {
		setpgid(pid, pid); /* also done by the child: whichever runs first */
		kc_cleanup_track(tracked, pid);
	}
	kc_cleanup_release();
	errno = fork_errno;
	return pid;
}

/* The parent's side of a started job: its pidfd, and its pipes captured up to their caps. */
static void adopt(struct kc_child_job *j, pid_t pid, const struct job_pipes *pp, int kernel)
{
	j->pid = pid;
	j->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (j->pidfd >= 0)
		fcntl(j->pidfd, F_SETFD, FD_CLOEXEC);
	j->running = 1;
	j->kernel = kernel;
	j->cap[0] =
	    (struct kc_child_capture){pp->out[0], NULL, 0, 0, kernel ? KC_CHILD_KERNEL_CAP : KC_CHILD_OUT_CAP, 0};
	j->cap[1] =
	    (struct kc_child_capture){pp->err[0], NULL, 0, 0, kernel ? KC_CHILD_KERNEL_CAP : KC_CHILD_ERR_CAP, 0};
	j->cap[2] = (struct kc_child_capture){pp->result[0], NULL, 0, 0, KC_CHILD_RESULT_CAP, 0};
	j->deadline = j->lim.wall_seconds > 0 ? j->start + j->lim.wall_seconds : 0;
}

static int start(struct kc_child_job *j, const char *const *argv, const char *cwd, const char *const *env, int kernel,
                 const struct kc_child_limits *lim, char *msg, size_t msgsz)
{
	memset(j, 0, sizeof *j);
	j->cap[0].fd = j->cap[1].fd = j->cap[2].fd = j->pidfd = -1;
	char path[PATH_MAX], fd_var[32];
	int resolve_errno;
	if (resolve(argv[0], cwd, path, sizeof path, &resolve_errno) < 0)
		return start_failed(msg, msgsz, "could not run", argv[0], resolve_errno);
	struct job_pipes pp;
	errno = 0;
	char **envp =
	    open_pipes(&pp, kernel) < 0 ? NULL : child_environment(env, kernel, pp.result[1], fd_var, sizeof fd_var);
	if (!envp) {
		int e = errno ? errno : ENOMEM;
		close_pipes(&pp);
		return start_failed(msg, msgsz, "could not start", argv[0], e);
	}
	if (lim)
		j->lim = *lim;
	j->start = now();
	struct child_setup c = {path,      cwd,       (char *const *)argv, envp,         lim,
	                        pp.out[1], pp.err[1], pp.status[1],        pp.result[1], getpid()};
	pid_t pid = spawn(&c, &pp, &j->tracked);
	int fork_errno = errno;
	free(envp);
	if (pid < 0) {
		close_pipes(&pp);
		return start_failed(msg, msgsz, "could not start", argv[0], fork_errno);
	}
	int e = exec_errno(pp.status[0]);
	close(pp.status[0]);
	adopt(j, pid, &pp, kernel);
	if (!e)
		return 0;
	kc_child_wait_any(j, 1); /* reap the child that could not exec (status 127) */
	if (e < 0)
		return start_failed(msg, msgsz, "could not enter the sandbox to run", argv[0], -e);
	return start_failed(msg, msgsz, "could not run", argv[0], e);
}

int kc_child_start(struct kc_child_job *j, const char *const *argv, const char *cwd, const char *const *env_add,
                   const struct kc_child_limits *lim, char *msg, size_t msgsz)
{
	return start(j, argv, cwd, env_add, 0, lim, msg, msgsz);
}

int kc_child_start_kernel(struct kc_child_job *j, const char *const *argv, const char *cwd, const char *const *env,
                          const struct kc_child_limits *lim, char *msg, size_t msgsz)
{
	return start(j, argv, cwd, env, 1, lim, msg, msgsz);
}

/* Enforce a job's deadline: kill its process group once; it is then reaped as it dies. */
static void check_deadline(struct kc_child_job *j, double t)
{
	if (!j->deadline || t < j->deadline || j->result.timed_out)
		return;
	kill_group(j->pid);
	j->result.timed_out = 1;
}

static char *capture_text(struct kc_child_capture *c)
{
	return c->data ? c->data : strdup("");
}

/* Reap a job whose child has exited, whoever still holds its pipes (a grandchild that kept stdout open): 1 when
 * it has finished. What is left of its process group is killed, and what its pipes still hold is read. */
static int try_reap(struct kc_child_job *j)
{
	int st = 0;
	pid_t w = waitpid(j->pid, &st, WNOHANG);
	if (w == 0 || (w < 0 && errno == EINTR))
		return 0;
	if (w < 0)
		st = 127 << 8;  /* reaped elsewhere: report it as having failed to run */
	kill(-j->pid, SIGKILL); /* grandchildren left in the group */
	kc_cleanup_untrack(&j->tracked);
	kc_cleanup_reap_strays(); /* and those that left it */
	for (int k = 0; k < 3; k++)
		drain_capture(&j->cap[k]);
	if (j->pidfd >= 0)
		close(j->pidfd);
	j->pidfd = -1;
	struct kc_child_result *r = &j->result;
	r->exited = WIFEXITED(st);
	r->exit_code = r->exited ? WEXITSTATUS(st) : 0;
	r->signaled = WIFSIGNALED(st);
	r->signal = r->signaled ? WTERMSIG(st) : 0;
	r->seconds = now() - j->start;
	r->out = capture_text(&j->cap[0]);
	r->out_len = j->cap[0].len;
	r->out_truncated = j->cap[0].dropped;
	r->err = capture_text(&j->cap[1]);
	r->err_len = j->cap[1].len;
	r->result = j->kernel ? capture_text(&j->cap[2]) : NULL;
	r->result_len = j->cap[2].len;
	r->result_truncated = j->cap[2].dropped;
	j->running = 0;
	return 1;
}

/* Milliseconds poll may sleep: until the nearest deadline; at most 20 ms while a job has no pidfd to wake poll at
 * its exit (kernels before Linux 5.3). */
static int poll_timeout(const struct kc_child_job *jobs, int n, double t)
{
	double wait = -1;
	for (int i = 0; i < n; i++) {
		const struct kc_child_job *j = &jobs[i];
		if (!j->running)
			continue;
		double left = !j->deadline || j->result.timed_out ? -1 : j->deadline - t;
		if (j->pidfd < 0)
			left = left < 0 || left > 0.02 ? 0.02 : left;
		if (left >= 0 && (wait < 0 || left < wait))
			wait = left;
	}
	return wait < 0 ? -1 : (int)(wait * 1000) + 1;
}

/* Room in the poll table per job: its three pipes and its pidfd. */
#define FDS_PER_JOB 4

/* One pass over the running jobs: enforce deadlines, reap one that has exited (its index), else list the open
 * pipes and pidfds in p/owner (owner NULL for a pidfd) and return -1; *any says whether a job is running. */
static int collect(struct kc_child_job *jobs, int n, double t, struct pollfd *p, struct kc_child_capture **owner,
                   int *n_fds, int *any)
{
	*n_fds = 0, *any = 0;
	for (int i = 0; i < n; i++) {
		if (!jobs[i].running)
			continue;
		*any = 1;
		check_deadline(&jobs[i], t);
		if (try_reap(&jobs[i]))
			return i;
		for (int k = 0; k < 3; k++)
			if (jobs[i].cap[k].fd >= 0)
				owner[*n_fds] = &jobs[i].cap[k],
				p[(*n_fds)++] = (struct pollfd){jobs[i].cap[k].fd, POLLIN, 0};
		if (jobs[i].pidfd >= 0)
			owner[*n_fds] = NULL, p[(*n_fds)++] = (struct pollfd){jobs[i].pidfd, POLLIN, 0};
	}
	return -1;
}

int kc_child_wait_any(struct kc_child_job *jobs, int n)
{
	/* on the stack for the usual few jobs, else on the heap (every pipe must be polled, or a child blocks on a
	 * full pipe until its deadline) */
	struct pollfd stack_p[16], *p = stack_p;
	struct kc_child_capture *stack_owner[16], **owner = stack_owner;
	size_t room = FDS_PER_JOB * (size_t)n;
	if (room > sizeof stack_p / sizeof stack_p[0]) {
		p = malloc(room * sizeof *p);
		owner = malloc(room * sizeof *owner);
	}
	int done = -1;
	for (;;) {
		int n_fds, any;
		if (!p || !owner) { /* out of memory: the children keep running under their deadlines; try again */
			free(p), free(owner);
			usleep(1000);
			p = malloc(room * sizeof *p);
			owner = malloc(room * sizeof *owner);
			continue;
		}
		double t = now();
		if ((done = collect(jobs, n, t, p, owner, &n_fds, &any)) >= 0 || !any)
			break;
		if (poll(p, (nfds_t)n_fds, poll_timeout(jobs, n, t)) <= 0)
			continue;
		for (int k = 0; k < n_fds; k++)
			if (owner[k] && (p[k].revents & (POLLIN | POLLHUP | POLLERR)) && !capture_read(owner[k]))
				close_capture(owner[k]);
	}
	if (p != stack_p)
		free(p), free(owner);
	return done;
}

int kc_child_run(const char *const *argv, const char *cwd, const char *const *env_add,
                 const struct kc_child_limits *lim, struct kc_child_result *r, char *msg, size_t msgsz)
{
	struct kc_child_job j;
	int rc = kc_child_start(&j, argv, cwd, env_add, lim, msg, msgsz);
	while (rc == 0 && j.running)
		kc_child_wait_any(&j, 1);
	*r = j.result;
	return rc;
}

void kc_child_result_release(struct kc_child_result *r)
{
	free(r->out);
	free(r->err);
	free(r->result);
	r->out = r->err = r->result = NULL;
}

const char *kc_child_signal_name(int sig)
{
	static const struct {
		int sig;
		const char *name;
	} names[] = {
	    {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},
	    {SIGABRT, "SIGABRT"}, {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
	    {SIGXFSZ, "SIGXFSZ"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},   {SIGPIPE, "SIGPIPE"},
	    {SIGINT, "SIGINT"},   {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGALRM, "SIGALRM"},
	};
	static char other[32];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].sig == sig)
			return names[i].name;
	snprintf(other, sizeof other, "signal %d", sig);
	return other;
}

/* Lowercase descriptions, as a compiler-style message wants them. */
static const char *signal_meaning(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "segmentation fault";
	case SIGBUS:
		return "bus error";
	case SIGFPE:
		return "arithmetic exception";
	case SIGILL:
		return "illegal instruction";
	case SIGABRT:
		return "aborted";
	case SIGKILL:
		return "killed";
	case SIGTERM:
		return "terminated";
	case SIGTRAP:
		return "trace trap";
	case SIGSYS:
		return "bad system call";
	case SIGPIPE:
		return "broken pipe";
	default:
		return "signal";
	}
}

const char *kc_child_describe(int exited, int exit_code, int signaled, int sig, int timed_out, double wall_limit,
                              double cpu_limit, char *buf, size_t n)
{
	if (timed_out)
		snprintf(buf, n, "timed out after %g s", wall_limit);
	else if (signaled && sig == SIGXCPU)
		snprintf(buf, n, "exceeded the CPU-time limit of %g s", ceil(cpu_limit));
	else if (signaled && sig == SIGKILL)
		snprintf(buf, n, "was killed with SIGKILL (out of memory?)");
	else if (signaled)
		snprintf(buf, n, "crashed with %s (%s)", kc_child_signal_name(sig), signal_meaning(sig));
	else if (exited && exit_code != 0)
		snprintf(buf, n, "exited with status %d", exit_code);
	else
		return NULL;
	return buf;
}

const char *kc_child_result_describe(const struct kc_child_result *r, const struct kc_child_limits *lim, char *buf,
                                     size_t n)
{
	return kc_child_describe(r->exited, r->exit_code, r->signaled, r->signal, r->timed_out,
	                         lim ? lim->wall_seconds : 0, lim ? lim->cpu_seconds : 0, buf, n);
}

static int shell_safe(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+-@%", *s))
			return 0;
	return 1;
}

char *kc_child_command_string(const char *const *argv)
{
	size_t cap = 1;
	for (int i = 0; argv[i]; i++)
		cap += 4 * strlen(argv[i]) + 3; /* worst case: every character a quote, written as '\'' */
	char *s = malloc(cap), *w = s;
	if (!s)
		return NULL;
	for (int i = 0; argv[i]; i++) {
		if (i)
			*w++ = ' ';
		if (shell_safe(argv[i])) {
			w = stpcpy(w, argv[i]);
			continue;
		}
		*w++ = '\'';
		for (const char *c = argv[i]; *c; c++)
			w = *c == '\'' ? stpcpy(w, "'\\''") : (*w = *c, w + 1);
		*w++ = '\'';
	}
	*w = '\0';
	return s;
}

void kc_child_show_command(const char *dir, const char *const *argv)
{
	char *cmd = kc_child_command_string(argv);
	fprintf(stderr, "kcost: (cd %s && %s)\n", dir, cmd ? cmd : argv[0]);
	free(cmd);
}

/* --- the harness child --------------------------------------------------------------------------------------- */

long long kc_child_default_memory_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	long long half = pages > 0 && page > 0 ? (long long)pages / 2 * page : 0;
	return half > (2LL << 30) ? half : 2LL << 30;
}

const char *kc_child_format_bytes(long long bytes, char *buf, size_t n)
{
	if (bytes >= 1LL << 30)
		snprintf(buf, n, "%.1f GiB", (double)bytes / (double)(1LL << 30));
	else
		snprintf(buf, n, "%.0f MiB", (double)bytes / (double)(1LL << 20));
	return buf;
}

void kc_child_first_error_line(const char *text, char *out, size_t n)
{
	static const char *const marks[] = {"error", "undefined reference", "cannot find"};
	const char *pick = NULL;
	for (const char *p = text; p && *p && !pick; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t len = strcspn(p, "\n");
		for (size_t i = 0; i < sizeof marks / sizeof marks[0] && !pick; i++) {
			const char *e = strstr(p, marks[i]);
			if (e && (size_t)(e - p) < len)
				pick = p;
		}
	}
	for (const char *p = text; p && *p && !pick; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strcspn(p, "\n") > strspn(p, " \t"))
			pick = p;
	if (!pick)
		pick = "";
	int len = (int)strcspn(pick, "\n");
	if ((size_t)len < n || n < 4)
		snprintf(out, n, "%.*s", len, pick);
	else
		snprintf(out, n, "%.*s...", (int)n - 4, pick);
}

/* text quoted for a message: at most n - 3 bytes of it between double quotes, control characters, DEL, '"', '\\'
 * and every non-ASCII byte (bidi controls among them) written as \xNN, cut with "..." at the bound. */
static void quote_output(const char *text, size_t limit, char *out, size_t n)
{
	size_t w = 0;
	if (n < 8)
		return;
	out[w++] = '"';
	for (size_t i = 0; text[i] && i < limit && w + 6 < n; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			out[w++] = (char)c;
		else
			w += (size_t)snprintf(out + w, n - w, "\\x%02x", c);
	}
	if (strlen(text) > limit || w + 6 >= n)
		w += (size_t)snprintf(out + w, n - w, "...");
	out[w++] = '"';
	out[w] = '\0';
}

const char *kc_child_failure(const struct kc_child_result *r, const struct kc_child_limits *lim, char *buf, size_t n)
{
	const char *bytes = r->result ? strstr(r->result, "\"error\":\"alloc\",\"bytes\":") : NULL;
	if (r->exited && r->exit_code == KCOST_EXIT_ALLOC && bytes) {
		unsigned long long b = strtoull(bytes + strlen("\"error\":\"alloc\",\"bytes\":"), NULL, 10);
		char size[32];
		if (lim && lim->address_space > 0)
			snprintf(buf, n, "exceeded the memory limit of %s (could not allocate %llu bytes)",
			         kc_child_format_bytes(lim->address_space, size, sizeof size), b);
		else
			snprintf(buf, n, "could not allocate %llu bytes", b);
		return buf;
	}
	if (!kc_child_result_describe(r, lim, buf, n))
		return NULL;
	if (r->exited && r->err && *r->err) {
		char line[512], quoted[KC_CHILD_QUOTE_MAX * 4 + 8];
		kc_child_first_error_line(r->err, line, sizeof line);
		quote_output(line, KC_CHILD_QUOTE_MAX, quoted, sizeof quoted);
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, "%s%s", KC_CHILD_STDERR_MARK, quoted);
	}
	return buf;
}

/* A field of a result line: a number in [lo, hi], or with strings_ok one of the strings "inf", "-inf", "nan"
 * the driver writes for non-finite values. */
static int field_ok(const cJSON *j, const char *name, double lo, double hi, int strings_ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);
	if (cJSON_IsNumber(v))
		return isfinite(v->valuedouble) && v->valuedouble >= lo && v->valuedouble <= hi;
	return strings_ok && cJSON_IsString(v) &&
	       (!strcmp(v->valuestring, "inf") || !strcmp(v->valuestring, "-inf") || !strcmp(v->valuestring, "nan"));
}

static int string_ok(const cJSON *j, const char *name, size_t max)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);
	return cJSON_IsString(v) && strlen(v->valuestring) <= max;
}

/* The samples of a time line: 1 to 10000 finite durations >= 0 (the driver's bounds), at most an hour each. */
static int samples_ok(const cJSON *j)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "samples"), *v;
	int n = cJSON_GetArraySize(s);
	if (!cJSON_IsArray(s) || n < 1 || n > 10000)
		return 0;
	cJSON_ArrayForEach(v, s) if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 ||
	                             v->valuedouble > 3600) return 0;
	return 1;
}

/* The libm sweeps of a time line, when it has them: an object of at most 16 arrays (KCOST_MAX_SWEPT), each of at
 * most 10000 seconds per call, at least 0 (a sweep within one tick of a coarse clock) and below one. */
static int libm_ok(const cJSON *j)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(j, "libm"), *fn, *v;
	if (!l)
		return 1;
	if (!cJSON_IsObject(l) || cJSON_GetArraySize(l) > 16)
		return 0;
	cJSON_ArrayForEach(fn, l)
	{
		if (!cJSON_IsArray(fn) || cJSON_GetArraySize(fn) > 10000)
			return 0;
		cJSON_ArrayForEach(v,
		                   fn) if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1)) return 0;
	}
	return 1;
}

/* Why the fields of a result line of mode do not have the types and ranges the driver writes, or NULL. */
static const char *result_fields_why(const cJSON *j, const char *mode)
{
	const double big = 1e18;
	if (cJSON_GetObjectItemCaseSensitive(j, "error"))
		return !strcmp(mode, "count") && string_ok(j, "why", 512) ? NULL : "an unexpected error line";
	if (!strcmp(mode, "time"))
		return samples_ok(j) && libm_ok(j) && field_ok(j, "setup_seconds", 0, big, 0) &&
		               field_ok(j, "warmup_seconds", 0, big, 0) &&
		               field_ok(j, "checksum", -HUGE_VAL, HUGE_VAL, 1)
		           ? NULL
		           : "bad timing fields";
	if (!strcmp(mode, "check")) {
		const cJSON *ok = cJSON_GetObjectItemCaseSensitive(j, "ok");
		int fine = cJSON_IsBool(ok) && field_ok(j, "compared", 0, big, 0) &&
		           field_ok(j, "mismatches", 0, big, 0) && field_ok(j, "max_rel_err", 0, HUGE_VAL, 1) &&
		           field_ok(j, "worst_rel_err", 0, HUGE_VAL, 1) &&
		           (!cJSON_GetObjectItemCaseSensitive(j, "worst") || string_ok(j, "worst", 300));
		return fine ? NULL : "bad check fields";
	}
	if (!strcmp(mode, "count"))
		return field_ok(j, "ll_misses", 0, big, 0) && field_ok(j, "l1d_read_misses", -1, big, 0) &&
		               (!cJSON_GetObjectItemCaseSensitive(j, "instructions") ||
		                field_ok(j, "instructions", -1, big, 0))
		           ? NULL
		           : "bad counter fields";
	return NULL; /* once, none: the tag only */
}

cJSON *kc_child_parse_result(const char *text, const char *function, const char *mode, const char **why)
{
	size_t len = text ? strcspn(text, "\n") : 0;
	if (!text || !*text)
		*why = "the harness exited without reporting a result";
	else if (text[len] != '\n')
		*why = "the harness's result line is incomplete";
	else if (text[len + 1])
		*why = "the harness's result channel held more than one line (the kernel wrote to it?)";
	if (!text || text[len] != '\n' || text[len + 1])
		return NULL;
	cJSON *j = cJSON_ParseWithLength(text, len);
	const cJSON *f = j ? cJSON_GetObjectItemCaseSensitive(j, "function") : NULL;
	const cJSON *m = j ? cJSON_GetObjectItemCaseSensitive(j, "mode") : NULL;
	if (!cJSON_IsObject(j))
		*why = "the harness's result line is not a JSON object";
	else if (!cJSON_IsString(f) || !cJSON_IsString(m) || strcmp(f->valuestring, function) ||
	         strcmp(m->valuestring, mode))
		*why = "the harness's result line is for another function or mode";
	else if ((*why = result_fields_why(j, mode)) == NULL)
		return j;
	cJSON_Delete(j);
	return NULL;
}

cJSON *kc_child_run_harness(struct kc_arena *a, const char *dir, const char *const *argv, const char *const *env,
                            const struct kc_child_limits *lim, const char **why)
{
	struct kc_child_job job;
	char msg[KC_CHILD_MSG_SIZE];
	cJSON *j = NULL;
	int rc = kc_child_start_kernel(&job, argv, dir, env, lim, msg, sizeof msg);
	while (rc == 0 && job.running)
		kc_child_wait_any(&job, 1);
	struct kc_child_result *res = &job.result;
	if (rc < 0)
		*why = kc_arena_strdup(a, msg);
	else if (kc_child_failure(res, lim, msg, sizeof msg))
		*why = kc_arena_strdup(a, msg);
	else if (res->result_truncated)
		*why = "the harness's result was longer than kcost reads";
	else if (!(j = kc_child_parse_result(res->result, argv[1], argv[2], why)))
		*why = kc_arena_strdup(a, *why);
	kc_child_result_release(res);
	return j;
}

/* The variables a kernel child keeps from kcost's environment: what locates programs and libraries, the locale,
 * the threading libraries' settings, valgrind's. Everything else (tokens, credentials, HOME) stays out. */
static int kernel_may_see(const char *var)
{
	static const char *const exact[] = {"PATH", "LANG", "LANGUAGE", "LD_LIBRARY_PATH", "VALGRIND_LIB", "TZ"};
	static const char *const prefix[] = {"LC_", "OMP_", "OPENBLAS_", "GOMP_", "KMP_"};
	size_t name = strcspn(var, "=");
	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
		if (strlen(exact[i]) == name && !strncmp(var, exact[i], name))
			return 1;
	for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
		if (!strncmp(var, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

const char **kc_child_kernel_env(struct kc_arena *a, const char *const *set)
{
	size_t n_env = 0, n_set = 0, k = 0;
	while (environ && environ[n_env])
		n_env++;
	while (set && set[n_set])
		n_set++;
	const char **env = KC_NEW_N(a, const char *, n_env + n_set + 1);
	for (size_t i = 0; i < n_env; i++) {
		int replaced = 0;
		for (size_t s = 0; s < n_set && !replaced; s++) {
			size_t len = strcspn(set[s], "=");
			replaced = !strncmp(environ[i], set[s], len) && environ[i][len] == '=';
		}
		if (!replaced && kernel_may_see(environ[i]))
			env[k++] = kc_arena_strdup(a, environ[i]);
	}
	for (size_t s = 0; s < n_set; s++)
		env[k++] = set[s];
	env[k] = NULL;
	return env;
}

double kc_child_json_number(const cJSON *j, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);
	if (cJSON_IsNumber(v))
		return v->valuedouble;
	if (cJSON_IsString(v))
		return strtod(v->valuestring, NULL);
	return 0;
}
