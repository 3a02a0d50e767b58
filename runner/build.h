/* build.h — compile a generated harness: its sources written, the compiler command (cc, cflags, the user's flags,
 * the file's directory, OpenBLAS when it links), the compiler run with a time limit, its error text. */
#ifndef KC_BUILD_H
#define KC_BUILD_H

#include "arena.h"

/* How harnesses are compiled during one run. The caller fills every field but blas, which starts at -1. */
struct kc_build {
	struct kc_arena *a;            /* the commands, their words and the error texts */
	const char *cc;                /* the compiler, looked up in PATH unless it holds a '/' */
	const char *cflags;            /* split at whitespace (no shell quoting) */
	const char *const *extra_args; /* the user's -I/-D/-U/-std= flags, after cflags */
	int n_extra_args;
	const char *include_dir; /* directory of kcost.h (-I), or NULL */
	int threads;             /* > 1: -fopenmp */
	int verbose;             /* show each command; copy a failed compiler's stderr to stderr */
	double timeout;          /* a compiler gets max(timeout, 120) seconds of wall clock */
	const char *probe_dir;   /* where the OpenBLAS probe is written and built */
	int blas;                /* -1: not probed yet; 0: a program calling CBLAS does not link; 1: it does */
	int kind;                /* 0: not probed yet; KC_CC_GCC, KC_CC_CLANG, KC_CC_OTHER (`CC --version`) */
	int major;               /* the compiler's major version from `CC --version`, 0 if not found */
};

enum { KC_CC_GCC = 1, KC_CC_CLANG, KC_CC_OTHER };

/* A loop the compiler said it vectorized: its file as the compiler names it, and its line. */
struct kc_vec_remark {
	const char *file;
	int line;
};

/* One executable to build from harness.c in a directory. */
struct kc_build_target {
	const char *output;      /* "harness" */
	const char *extra_cflag; /* appended after cflags when not NULL ("-mno-avx512f") */
	const char *command;     /* set by kc_build_harnesses: the command, as kc_child_command_string shows it */
	const char *why;         /* set when it did not build: the compiler's first error line, or why it did not run */
	const char *log;         /* set when the compiler failed: its whole stderr (up to 1 MiB) */
	int remarks;             /* ask the compiler which loops it vectorized (gcc -fopt-info-vec-optimized, clang
	                          * -Rpass=loop-vectorize); then remarks_known, vec and n_vec are set */
	int remarks_known;       /* the compiler is gcc or clang and built the target: vec is complete */
	struct kc_vec_remark *vec;
	int n_vec;
};

/* Write harness.c (the text given) and the driver's kcost_driver.c and kcost_driver.h into dir. 0, or -1 with
 * *why ("cannot write the harness in DIR: No space left on device"). */
int kc_build_write_sources(struct kc_build *b, const char *dir, const char *harness_c, const char **why);

/* Build the n targets in dir at once (one compiler child each), from harness.c including user_path:
 *   CC CFLAGS [-fopenmp] [EXTRA_CFLAG] EXTRA_ARGS -I<dir of user_path> [-I<include_dir>] [OpenBLAS -I]
 *      harness.c kcost_driver.c -o OUTPUT -Wl,--wrap=malloc,... -lm [OpenBLAS -L -lopenblas]
 * OpenBLAS is added when a probe program calling it links (probed once per struct kc_build). Returns 0 when
 * every target built, else -1 (each failed target's why set). */
int kc_build_harnesses(struct kc_build *b, const char *dir, const char *user_path, struct kc_build_target *t, int n);

/* The vectorized loops in a compiler's remarks (gcc's "F:L:C: optimized: loop vectorized ...", clang's
 * "F:L:C: remark: vectorized loop ..."), appended to *out (grown from a). */
void kc_build_parse_remarks(struct kc_arena *a, const char *text, struct kc_vec_remark **out, int *n, int *cap);

/* The words of a flags string split at whitespace (no shell quoting), NULL-terminated, from the arena a; *n is
 * their number. */
const char **kc_build_split_flags(struct kc_arena *a, const char *flags, int *n);

#endif
