/* spawn.h — run a program in a child process with limits, capturing its output: fork + execve with an argv
 * array (never a shell), its own process group, stdin from /dev/null. */
#ifndef KC_SPAWN_H
#define KC_SPAWN_H

#include <stddef.h>

/* Limits of one child. A zero field means "no limit". */
struct kc_spawn_limits {
	double wall_seconds;     /* enforced by the parent: the child's process group gets SIGKILL */
	double cpu_seconds;      /* RLIMIT_CPU: SIGXCPU at this many CPU seconds (rounded up), SIGKILL 1 s later */
	long long address_space; /* RLIMIT_AS in bytes: allocations beyond it fail */
};

struct kc_spawn_result {
	int exited, exit_code;  /* exited normally, with this status */
	int signaled, signal;   /* killed by this signal */
	int timed_out;          /* the wall-clock limit was hit (the child was then killed with SIGKILL) */
	double seconds;         /* wall-clock time from fork to reaping */
	char *out, *err;        /* captured stdout and stderr, NUL-terminated, malloc'd; truncated at the caps */
	size_t out_len, err_len;
};

/* Caps on the captured output; the child's further output is read and dropped. */
#define KC_SPAWN_OUT_CAP (64u << 20)
#define KC_SPAWN_ERR_CAP (1u << 20)

/* One pipe being captured (private to spawn.c). */
struct kc_spawn_capture {
	int fd;
	char *data;
	size_t len, cap, limit;
};

/* A child started with kc_spawn_start; several may run at once. Only `running` and `result` are for the
 * caller: result is complete once running is 0. */
struct kc_spawn_job {
	int running;
	struct kc_spawn_result result;
	/* private */
	int pid;
	struct kc_spawn_limits lim;
	struct kc_spawn_capture cap[2];
	double start, deadline;
};

/* Start a child as kc_spawn_run does, without waiting for it. 0 when it runs (j->running = 1); -1 with msg
 * when it could not be started (j->running = 0; release j->result all the same). */
int kc_spawn_start(struct kc_spawn_job *j, const char *const *argv, const char *cwd, const char *const *env_add,
                   const struct kc_spawn_limits *lim, char *msg, size_t msgsz);

/* Capture the output of the running jobs among jobs[0 .. n-1], enforcing each one's wall-clock limit, until
 * one of them ends; returns its index (its result is then complete), or -1 when none was running. */
int kc_spawn_wait_any(struct kc_spawn_job *jobs, int n);

/* Run argv[0] with the NULL-terminated argv. argv[0] is looked up in PATH unless it contains a '/'; a relative
 * path with a '/' ("./harness") is taken relative to cwd when cwd is given. The child
 * runs in directory cwd (NULL: the current one) with the environment plus env_add ("NAME=value" strings
 * replacing same-named variables; NULL for none). lim may be NULL. Returns 0 when the child ran, whatever its
 * fate (see r); -1 with a message in msg when it could not be started ("could not run cc: No such file or
 * directory"). Release r with kc_spawn_result_release in both cases. */
int kc_spawn_run(const char *const *argv, const char *cwd, const char *const *env_add,
                 const struct kc_spawn_limits *lim, struct kc_spawn_result *r, char *msg, size_t msgsz);

void kc_spawn_result_release(struct kc_spawn_result *r);

/* The full path of program `name` (looked up in PATH unless it contains a '/') written to out. 0 if an
 * executable regular file was found, -1 otherwise. */
int kc_spawn_which(const char *name, char *out, size_t n);

/* Describe how a child ended, for a diagnostic; NULL for a normal exit with status 0.
 *   timed out                  "timed out after 60 s"
 *   SIGXCPU                    "exceeded the CPU-time limit of 61 s"
 *   another signal             "crashed with SIGSEGV (segmentation fault)", "crashed with SIGABRT (aborted)"
 *   exit status != 0           "exited with status 3"
 * The text is written to buf (size n) and buf is returned. */
const char *kc_spawn_describe(int exited, int exit_code, int signaled, int sig, int timed_out, double wall_limit,
                              double cpu_limit, char *buf, size_t n);
/* kc_spawn_describe for a result and the limits it ran under (lim may be NULL). */
const char *kc_spawn_result_describe(const struct kc_spawn_result *r, const struct kc_spawn_limits *lim, char *buf,
                                     size_t n);

/* "SIGSEGV" for SIGSEGV; "signal 42" (in static storage) for unknown numbers. */
const char *kc_spawn_signal_name(int sig);

/* A command line as one string for display and reproduction: arguments joined by spaces, each one that
 * holds characters outside [A-Za-z0-9_./=:,+-@%] single-quoted as a POSIX shell would read it. malloc'd. */
char *kc_spawn_command_string(const char *const *argv);

#endif
