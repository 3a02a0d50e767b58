/* analyzer.h — the analyzer stage: C files in, the analysis model out (static, no execution). */
#ifndef KC_ANALYZER_H
#define KC_ANALYZER_H

#include "analysis.h"

/* A --size NAME=VALUE override of a benchmark size. */
struct kc_size_override {
	const char *name;
	long long value;
};

/* --scalar NAME=VALUE: the value of a floating-point scalar parameter (an alpha) for the run and for the
 * conditions on it (`if (alpha == 0.0)`). */
struct kc_scalar_override {
	const char *name;
	double value;
};

/* --extent NAME=EXPR: the extent, in elements, of every buffer parameter NAME whose function has the sizes EXPR
 * names (KCOST_EXTENT's expression; the annotation, where there is one, wins). */
struct kc_extent_override {
	const char *name, *expr;
};

struct kc_analyze_opts {
	const char *const *args; /* compiler flags for the parse (-I, -D, -std=, ...) */
	int n_args;
	const char *compile_db; /* -p BUILD_DIR: flags from BUILD_DIR/compile_commands.json, or NULL */
	const struct kc_size_override *sizes;
	int n_sizes;
	const struct kc_scalar_override *scalars;
	int n_scalars;
	const struct kc_extent_override *extents;
	int n_extents;
	const char *function_regex; /* POSIX extended regex over function names; NULL for all */
	const char *include_dir;    /* directory holding kcost.h, added with -I; NULL for none */
	int threads;                /* 0: count on a second thread for files of 16+ functions on 2+ cores; 1: one
	                             * thread; 2: a second thread whatever the file and the machine */
	double parse_cpu_seconds;   /* CPU time one file's parse may take before it is abandoned; <= 0: 60 s */
};

/* Analyze `files` into `an` (which must be zeroed). Problems with the input (syntax errors, unsupported
 * loops) become diagnostics in an->diags or in a function's diags, never a failure: the return value is
 * 0 unless kcost itself failed (-1, with a diagnostic saying why). Release with kc_analysis_release.
 * libclang's own limits are contained: a file whose parse crashes libclang (a stack overflow), reads a device,
 * a FIFO or a socket, makes no progress for 5 s or takes more than parse_cpu_seconds of CPU time is an error of
 * that file (an->parse_failed) and the other files are analyzed. To that end it sets LIBCLANG_NOTHREADS while it runs
 * and lowers RLIMIT_AS around each parse (both restored): call it while no other thread of the process runs. */
int kc_analyze(struct kc_analysis *an, const char *const *files, int n_files, const struct kc_analyze_opts *o);

void kc_analysis_release(struct kc_analysis *an);

/* How many abandoned parses still have their thread inside libclang (they cannot be stopped). When not 0, the
 * process must end with _exit (after flushing its streams): exit's static destructors of libLLVM would run under
 * them. */
int kc_analyze_stray_threads(void);

/* The libclang version string ("clang version 19.1.7"), static storage. */
const char *kc_analyzer_clang_version(void);

#endif
