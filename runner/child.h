/* child.h — a child process with limits: fork + execve with an argv array (never a shell), its own process
 * group, stdin from /dev/null, its output captured, reaped at its exit; how it ended, described for a diagnostic;
 * and the kernel child in particular, which is untrusted: its allow-listed environment, its memory limit, its
 * exit statuses, its private result channel and the checks of its one result line. */
#ifndef KC_CHILD_H
#define KC_CHILD_H

#include <cjson/cJSON.h>
#include <limits.h>
#include <stddef.h>

#include "arena.h"
#include "cleanup.h"

/* Limits of one child. A zero field means "no limit". */
struct kc_child_limits {
	double wall_seconds;     /* enforced by the parent: the child's process group gets SIGKILL */
	double cpu_seconds;      /* RLIMIT_CPU: SIGXCPU at this many CPU seconds (rounded up), SIGKILL 1 s later */
	long long address_space; /* RLIMIT_AS in bytes: allocations beyond it fail */
	const char *sandbox_dir; /* non-NULL: the child runs in the sandbox (sandbox.h), only this directory writable */
};

struct kc_child_result {
	int exited, exit_code; /* exited normally, with this status */
	int signaled, signal;  /* killed by this signal */
	int timed_out;         /* the wall-clock limit was hit (the child was then killed with SIGKILL) */
	double seconds;        /* wall-clock time from fork to reaping */
	char *out, *err;       /* captured stdout and stderr, NUL-terminated, malloc'd; truncated at the caps */
	size_t out_len, err_len;
	int out_truncated; /* some of stdout was dropped (over its cap, or no memory to keep it) */
	char *result;      /* kernel children: what the harness wrote to its result channel (malloc'd); else NULL */
	size_t result_len;
	int result_truncated; /* over KC_CHILD_RESULT_CAP */
};

/* Caps on the captured output; the child's further output is read and dropped. A kernel's stdout and stderr are
 * kept only as an excerpt for the local report: its results travel on the result channel. */
#define KC_CHILD_OUT_CAP    (64u << 20)
#define KC_CHILD_ERR_CAP    (1u << 20)
#define KC_CHILD_KERNEL_CAP (4u << 10)
#define KC_CHILD_RESULT_CAP (4u << 20)

/* One pipe being captured (private to child.c). */
struct kc_child_capture {
	int fd;
	char *data;
	size_t len, cap, limit;
	int dropped; /* bytes were read and not kept */
};

/* A child started with kc_child_start; several may run at once. Only `running` and `result` are for the
 * caller: result is complete once running is 0. */
struct kc_child_job {
	int running;
	struct kc_child_result result;
	/* private */
	int pid, pidfd; /* pidfd: readable once the child exits (-1 where Linux has no pidfd_open) */
	int kernel;     /* started by kc_child_start_kernel */
	struct kc_child_limits lim;
	struct kc_child_capture cap[3]; /* stdout, stderr, the result channel */
	struct kc_cleanup_pid tracked;  /* its process group, killed if kcost is interrupted */
	double start, deadline;
};

/* Room for the message of kc_child_start or kc_child_run: "could not run PROGRAM: REASON" with a program path up
 * to PATH_MAX (execve takes no longer one). */
#define KC_CHILD_MSG_SIZE (PATH_MAX + 128)

/* Start a child as kc_child_run does, without waiting for it. 0 when it runs (j->running = 1); -1 with msg
 * when it could not be started (j->running = 0; release j->result all the same). */
int kc_child_start(struct kc_child_job *j, const char *const *argv, const char *cwd, const char *const *env_add,
                   const struct kc_child_limits *lim, char *msg, size_t msgsz);

/* Start a kernel child (a harness, or valgrind running one): as kc_child_start, but with exactly the environment
 * env (NULL-terminated "NAME=value" strings; see kc_child_kernel_env) instead of kcost's, plus a private result
 * pipe: its write end is the only descriptor the child inherits besides 0-2, and KCOST_RESULT_FD gives its
 * number (see runner/harness/kcost_driver.h). What arrives on it is result.result. stdout and stderr are kept
 * only up to KC_CHILD_KERNEL_CAP bytes each, the rest read and dropped. */
int kc_child_start_kernel(struct kc_child_job *j, const char *const *argv, const char *cwd, const char *const *env,
                          const struct kc_child_limits *lim, char *msg, size_t msgsz);

/* Capture the output of the running jobs among jobs[0 .. n-1], enforcing each one's wall-clock limit, until
 * one of them ends; returns its index (its result is then complete), or -1 when none was running. A job ends
 * when its child exits, not when its pipes close: the rest of its process group is then killed, and what the
 * pipes still hold is read (bounded) and the pipes closed, so a grandchild holding stdout open cannot make a
 * finished child wait for its deadline. */
int kc_child_wait_any(struct kc_child_job *jobs, int n);

/* Run argv[0] with the NULL-terminated argv. argv[0] is looked up in PATH unless it contains a '/'; a relative
 * path with a '/' ("./harness") is taken relative to cwd when cwd is given. The child
 * runs in directory cwd (NULL: the current one) with the environment plus env_add ("NAME=value" strings
 * replacing same-named variables; NULL for none). lim may be NULL. Returns 0 when the child ran, whatever its
 * fate (see r); -1 with a message in msg when it could not be started ("could not run cc: No such file or
 * directory"). Release r with kc_child_result_release in both cases. */
int kc_child_run(const char *const *argv, const char *cwd, const char *const *env_add,
                 const struct kc_child_limits *lim, struct kc_child_result *r, char *msg, size_t msgsz);

void kc_child_result_release(struct kc_child_result *r);

/* The full path of program `name` (looked up in PATH unless it contains a '/') written to out. 0 if an
 * executable regular file was found, -1 otherwise. */
int kc_child_which(const char *name, char *out, size_t n);

/* Describe how a child ended, for a diagnostic; NULL for a normal exit with status 0.
 *   timed out                  "timed out after 60 s"
 *   SIGXCPU                    "exceeded the CPU-time limit of 61 s"
 *   another signal             "crashed with SIGSEGV (segmentation fault)", "crashed with SIGABRT (aborted)"
 *   exit status != 0           "exited with status 3"
 * The text is written to buf (size n) and buf is returned. */
const char *kc_child_describe(int exited, int exit_code, int signaled, int sig, int timed_out, double wall_limit,
                              double cpu_limit, char *buf, size_t n);
/* kc_child_describe for a result and the limits it ran under (lim may be NULL). */
const char *kc_child_result_describe(const struct kc_child_result *r, const struct kc_child_limits *lim, char *buf,
                                     size_t n);

/* "SIGSEGV" for SIGSEGV; "signal 42" (in static storage) for unknown numbers. */
const char *kc_child_signal_name(int sig);

/* A command line as one string for display and reproduction: arguments joined by spaces, each one that
 * holds characters outside [A-Za-z0-9_./=:,+-@%] single-quoted as a POSIX shell would read it. malloc'd. */
char *kc_child_command_string(const char *const *argv);

/* The line of a child's stderr worth showing: the first containing "error", "undefined reference" or "cannot
 * find" (the linker's), else the first non-empty one; copied (without the newline) to out; a line longer than
 * out holds is cut and ends in "...". */
void kc_child_first_error_line(const char *text, char *out, size_t n);

/* With --verbose: print "kcost: (cd DIR && COMMAND)" to stderr. */
void kc_child_show_command(const char *dir, const char *const *argv);

/* --- the harness child ------------------------------------------------------------------------------------- */

/* The default RLIMIT_AS of kernel children: half the physical memory, at least 2 GiB (the program, its libraries
 * and their reservations need some address space even for small buffers). */
long long kc_child_default_memory_limit(void);

/* A memory size for a message: "11.7 GiB", "512 MiB"; written to buf (size n), which is returned. */
const char *kc_child_format_bytes(long long bytes, char *buf, size_t n);

/* How much of a kernel's stderr a failure message quotes, and what precedes the quote: the reporter leaves the
 * quote out of summary.md (a pull-request comment), keeping it for the local report. */
#define KC_CHILD_QUOTE_MAX   160
#define KC_CHILD_STDERR_MARK "; its stderr began: "

/* Why a kernel child failed, or NULL when it exited with status 0: "exceeded the memory limit of 2.0 GiB (could
 * not allocate 67108864 bytes)" for the harness's allocation-failure status (read from its result channel; "could
 * not allocate N bytes" without an address-space limit),
 * else kc_child_result_describe ("crashed with SIGSEGV (segmentation fault)", "timed out after 60 s", ...); for
 * an unexpected exit status, KC_CHILD_STDERR_MARK and the first line of stderr follow, at most
 * KC_CHILD_QUOTE_MAX bytes of it in double quotes, control, quote, backslash and non-ASCII bytes as \xNN. */
const char *kc_child_failure(const struct kc_child_result *r, const struct kc_child_limits *lim, char *buf, size_t n);

/* The result a harness wrote to its result channel (text, as kc_child_result.result holds it), checked: exactly
 * one complete line, a JSON object tagged with this function and mode, whose fields have the driver's types and
 * ranges (time: 1 to 10000 samples, each a finite number of seconds in [0, 3600], and finite setup and warm-up
 * times; check: ok a boolean, counts >= 0, errors >= 0 or "inf"/"nan"; count: miss counts >= 0, or an error line
 * with its why). The caller cJSON_Deletes it. NULL with *why (static text) otherwise: "the harness exited
 * without reporting a result", "the harness's result channel held more than one line (the kernel wrote to
 * it?)", "the harness's result line is for another function or mode", ... */
cJSON *kc_child_parse_result(const char *text, const char *function, const char *mode, const char **why);

/* Run a harness, argv = {"./harness", FUNCTION, MODE, ...}, in dir with exactly the environment env and limits
 * lim (kc_child_start_kernel) and read its result (kc_child_parse_result for argv[1] and argv[2]). NULL when the
 * child could not start, failed (kc_child_failure) or reported no valid result, with *why set (from a). */
cJSON *kc_child_run_harness(struct kc_arena *a, const char *dir, const char *const *argv, const char *const *env,
                            const struct kc_child_limits *lim, const char **why);

/* The environment of a kernel child (NULL-terminated, from a): of kcost's environment only PATH, LANG, LANGUAGE,
 * LC_*, TZ, LD_LIBRARY_PATH, OMP_*, GOMP_*, KMP_*, OPENBLAS_* and VALGRIND_LIB, then the "NAME=value" strings of
 * set (which replace same-named ones). Tokens and credentials in kcost's environment never reach a kernel. */
const char **kc_child_kernel_env(struct kc_arena *a, const char *const *set);

/* A number of a harness JSON line; the strings "inf", "nan" the driver writes for non-finite values become
 * those values; absent: 0. */
double kc_child_json_number(const cJSON *j, const char *name);

#endif
