/* child.c — a child process with limits: fork + execve, output capture, a wall-clock deadline; how it ended;
 * the harness child's limits and result line. */
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
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
	int out_w, err_w, status_w;
};

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = {soft, hard};
	setrlimit(resource, &rl);
}

/* In the child, between fork and exec: only async-signal-safe calls. Never returns. */
static void child_exec(const struct child_setup *c)
{
	setpgid(0, 0);
	int in = open("/dev/null", O_RDONLY);
	if (in >= 0)
		dup2(in, 0);
	dup2(c->out_w, 1);
	dup2(c->err_w, 2);
	if (c->lim && c->lim->cpu_seconds > 0) {
		rlim_t s = (rlim_t)ceil(c->lim->cpu_seconds);
		set_limit(RLIMIT_CPU, s, s + 1);
	}
	if (c->lim && c->lim->address_space > 0)
		set_limit(RLIMIT_AS, (rlim_t)c->lim->address_space, (rlim_t)c->lim->address_space);
	if (!c->cwd || chdir(c->cwd) == 0)
		execve(c->path, c->argv, c->envp);
	int e = errno;
	if (write(c->status_w, &e, sizeof e) < 0) {
		/* nothing more can be done: the parent sees exit status 127 */
	}
	_exit(127);
}

/* Read what is available on one pipe; 1 while it stays open, 0 at end of file. */
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
			return 1;
		}
		c->data = d;
		c->cap = cap;
	}
	if (keep) {
		memcpy(c->data + c->len, chunk, keep);
		c->len += keep;
		c->data[c->len] = '\0';
	}
	return 1;
}

static void close_capture(struct kc_child_capture *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
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

int kc_child_start(struct kc_child_job *j, const char *const *argv, const char *cwd, const char *const *env_add,
                   const struct kc_child_limits *lim, char *msg, size_t msgsz)
{
	memset(j, 0, sizeof *j);
	j->cap[0].fd = j->cap[1].fd = -1;
	char path[PATH_MAX];
	int resolve_errno;
	if (resolve(argv[0], cwd, path, sizeof path, &resolve_errno) < 0)
		return start_failed(msg, msgsz, "could not run", argv[0], resolve_errno);
	int out[2] = {-1, -1}, err[2] = {-1, -1}, status[2] = {-1, -1};
	char **envp = environment_with(env_add);
	if (!envp || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 || pipe2(status, O_CLOEXEC) < 0) {
		int e = errno ? errno : ENOMEM;
		close_pipe(out), close_pipe(err), close_pipe(status), free(envp);
		return start_failed(msg, msgsz, "could not start", argv[0], e);
	}
	if (lim)
		j->lim = *lim;
	j->start = now();
	struct child_setup c = {path, cwd, (char *const *)argv, envp, lim, out[1], err[1], status[1]};
	pid_t pid = fork();
	if (pid == 0)
		child_exec(&c);
	int fork_errno = errno;
	free(envp);
	close(out[1]), close(err[1]), close(status[1]);
	if (pid < 0) {
		close(out[0]), close(err[0]), close(status[0]);
		return start_failed(msg, msgsz, "could not start", argv[0], fork_errno);
	}
	setpgid(pid, pid); /* also done by the child: whichever runs first */
	int e = exec_errno(status[0]);
	close(status[0]);
	j->pid = pid;
	j->running = 1;
	j->cap[0] = (struct kc_child_capture){out[0], NULL, 0, 0, KC_CHILD_OUT_CAP, 0};
	j->cap[1] = (struct kc_child_capture){err[0], NULL, 0, 0, KC_CHILD_ERR_CAP, 0};
	j->deadline = j->lim.wall_seconds > 0 ? j->start + j->lim.wall_seconds : 0;
	if (!e)
		return 0;
	kc_child_wait_any(j, 1); /* reap the child that could not exec (status 127) */
	return start_failed(msg, msgsz, "could not run", argv[0], e);
}

/* Enforce a job's deadline: kill its process group once; stop waiting for its pipes 2 s after the kill (a
 * process outside the group may hold them). */
static void check_deadline(struct kc_child_job *j, double t)
{
	if (!j->deadline || t < j->deadline)
		return;
	if (!j->result.timed_out) {
		kill_group(j->pid);
		j->result.timed_out = 1;
	} else if (t >= j->deadline + 2) {
		close_capture(&j->cap[0]);
		close_capture(&j->cap[1]);
	}
}

/* Reap a job whose pipes are closed; 1 when it has finished. */
static int try_reap(struct kc_child_job *j)
{
	int st = 0;
	pid_t w = waitpid(j->pid, &st, WNOHANG);
	if (w == 0 || (w < 0 && errno == EINTR))
		return 0;
	if (w < 0)
		st = 127 << 8;  /* reaped elsewhere: report it as having failed to run */
	kill(-j->pid, SIGKILL); /* grandchildren left in the group */
	struct kc_child_result *r = &j->result;
	r->exited = WIFEXITED(st);
	r->exit_code = r->exited ? WEXITSTATUS(st) : 0;
	r->signaled = WIFSIGNALED(st);
	r->signal = r->signaled ? WTERMSIG(st) : 0;
	r->seconds = now() - j->start;
	r->out = j->cap[0].data ? j->cap[0].data : strdup("");
	r->out_len = j->cap[0].len;
	r->out_truncated = j->cap[0].dropped;
	r->err = j->cap[1].data ? j->cap[1].data : strdup("");
	r->err_len = j->cap[1].len;
	j->running = 0;
	return 1;
}

/* Milliseconds poll may sleep: until the nearest deadline, and briefly when a job waits to be reaped. */
static int poll_timeout(const struct kc_child_job *jobs, int n, double t)
{
	double wait = -1;
	for (int i = 0; i < n; i++) {
		const struct kc_child_job *j = &jobs[i];
		if (!j->running)
			continue;
		double left = !j->deadline ? -1 : j->deadline + (j->result.timed_out ? 2 : 0) - t;
		if (j->cap[0].fd < 0 && j->cap[1].fd < 0)
			left = left < 0 || left > 0.005 ? 0.005 : left;
		if (left >= 0 && (wait < 0 || left < wait))
			wait = left;
	}
	return wait < 0 ? -1 : (int)(wait * 1000) + 1;
}

/* One pass over the running jobs: enforce deadlines, reap one whose pipes are closed (its index), else list
 * the open pipes in p/owner (room for 2 per job) and return -1; *any says whether a job is running. */
static int collect(struct kc_child_job *jobs, int n, double t, struct pollfd *p, struct kc_child_capture **owner,
                   int *n_fds, int *any)
{
	*n_fds = 0, *any = 0;
	for (int i = 0; i < n; i++) {
		if (!jobs[i].running)
			continue;
		*any = 1;
		check_deadline(&jobs[i], t);
		if (jobs[i].cap[0].fd < 0 && jobs[i].cap[1].fd < 0 && try_reap(&jobs[i]))
			return i;
		for (int k = 0; k < 2; k++)
			if (jobs[i].cap[k].fd >= 0)
				owner[*n_fds] = &jobs[i].cap[k],
				p[(*n_fds)++] = (struct pollfd){jobs[i].cap[k].fd, POLLIN, 0};
	}
	return -1;
}

int kc_child_wait_any(struct kc_child_job *jobs, int n)
{
	/* two pipes per job: on the stack for the usual few jobs, else on the heap (every pipe must be polled, or a
	 * child blocks on a full pipe until its deadline) */
	struct pollfd stack_p[16], *p = stack_p;
	struct kc_child_capture *stack_owner[16], **owner = stack_owner;
	if (2 * (size_t)n > sizeof stack_p / sizeof stack_p[0]) {
		p = malloc(2 * (size_t)n * sizeof *p);
		owner = malloc(2 * (size_t)n * sizeof *owner);
	}
	int done = -1;
	for (;;) {
		int n_fds, any;
		if (!p || !owner) { /* out of memory: the children keep running under their deadlines; try again */
			free(p), free(owner);
			usleep(1000);
			p = malloc(2 * (size_t)n * sizeof *p);
			owner = malloc(2 * (size_t)n * sizeof *owner);
			continue;
		}
		double t = now();
		if ((done = collect(jobs, n, t, p, owner, &n_fds, &any)) >= 0 || !any)
			break;
		if (poll(p, (nfds_t)n_fds, poll_timeout(jobs, n, t)) <= 0)
			continue;
		for (int k = 0; k < n_fds; k++)
			if ((p[k].revents & (POLLIN | POLLHUP | POLLERR)) && !capture_read(owner[k]))
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
	r->out = r->err = NULL;
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

long long kc_child_address_space(long long buffer_bytes, long long heap_bytes)
{
	const long long cap = 1LL << 62;
	if (buffer_bytes < 0 || heap_bytes < 0 || buffer_bytes > cap / 4 || heap_bytes > cap / 4)
		return cap;
	return 3 * buffer_bytes + heap_bytes + (2LL << 30);
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

const char *kc_child_failure(const struct kc_child_result *r, const struct kc_child_limits *lim, char *buf, size_t n)
{
	const char *bytes = r->out ? strstr(r->out, "\"error\":\"alloc\",\"bytes\":") : NULL;
	if (r->exited && r->exit_code == KCOST_EXIT_ALLOC && bytes) {
		unsigned long long b = strtoull(bytes + strlen("\"error\":\"alloc\",\"bytes\":"), NULL, 10);
		if (lim && lim->address_space > 0)
			snprintf(buf, n, "could not allocate %llu bytes (address-space limit %.1f GiB)", b,
			         (double)lim->address_space / (double)(1LL << 30));
		else
			snprintf(buf, n, "could not allocate %llu bytes", b);
		return buf;
	}
	if (!kc_child_result_describe(r, lim, buf, n))
		return NULL;
	if (r->exited && r->err && *r->err) {
		char line[512];
		kc_child_first_error_line(r->err, line, sizeof line);
		size_t len = strlen(buf);
		snprintf(buf + len, n - len, ": %s", line);
	}
	return buf;
}

/* The harness's JSON line: the last stdout line that starts with '{'. */
static cJSON *result_line(const char *out)
{
	const char *last = NULL;
	for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (*p == '{')
			last = p;
	if (!last)
		return NULL;
	char *line = strndup(last, strcspn(last, "\n"));
	cJSON *j = line ? cJSON_Parse(line) : NULL;
	free(line);
	return j;
}

cJSON *kc_child_run_harness(struct kc_arena *a, const char *dir, const char *const *argv, const char *const *env_add,
                            const struct kc_child_limits *lim, const char **why)
{
	struct kc_child_result res;
	char msg[KC_CHILD_MSG_SIZE];
	cJSON *j = NULL;
	if (kc_child_run(argv, dir, env_add, lim, &res, msg, sizeof msg) < 0)
		*why = kc_arena_strdup(a, msg);
	else if (kc_child_failure(&res, lim, msg, sizeof msg))
		*why = kc_arena_strdup(a, msg);
	else if (!(j = result_line(res.out)) && res.out_truncated)
		*why =
		    kc_arena_printf(a, "the harness exited without reporting a result (its output was cut at %u MiB)",
		                    KC_CHILD_OUT_CAP >> 20);
	else if (!j)
		*why = "the harness exited without reporting a result";
	kc_child_result_release(&res);
	return j;
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
