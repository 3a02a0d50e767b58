/* options.h — kcost's command line: clang-tidy/compiler conventions. */
#ifndef KC_OPTIONS_H
#define KC_OPTIONS_H

#include "analyzer.h"

enum kc_format { KC_FORMAT_TEXT, KC_FORMAT_JSON, KC_FORMAT_MD, KC_FORMAT_SARIF };
enum kc_color { KC_COLOR_AUTO, KC_COLOR_ALWAYS, KC_COLOR_NEVER };

/* Exit codes (documented in --help, README and docs/cli.md). */
enum { KC_EXIT_OK = 0, KC_EXIT_INPUT = 1, KC_EXIT_USAGE = 2, KC_EXIT_INTERNAL = 3, KC_EXIT_REGRESSION = 4 };

struct kc_options {
	const char **files;
	int n_files;
	const char **clang_args; /* -I/-D/-U/-std= and everything after `--` */
	int n_clang_args;
	const char *compile_db; /* -p */
	int all;                /* --all: every C file of compile_db */
	const char **owned;     /* strings kc_options_add_file copied (freed by kc_options_release) */
	int n_owned;
	const char *out_dir; /* -o */
	int no_run, quiet, verbose, jobs, remeasure, threads;
	int sandbox;    /* --sandbox */
	int no_traffic; /* --no-traffic */
	enum kc_format format;
	enum kc_color color;
	struct kc_size_override *sizes;
	int n_sizes;
	struct kc_scalar_override *scalars; /* --scalar */
	int n_scalars;
	struct kc_extent_override *extents; /* --extent */
	int n_extents;
	const char *function_regex;
	const char *cc, *cflags;  /* --cc, --cflags (runner) */
	double time_budget;       /* seconds per function */
	double timeout;           /* seconds per kernel run, in (0, 1e6] */
	double peak, bandwidth;   /* --peak GFLOPS, --bandwidth GBS: a hypothetical machine; 0: none */
	const char *machine_file; /* --machine FILE */
	double parse_timeout;     /* --parse-timeout: CPU seconds per file's parse; 0: the analyzer's default */
	long long memory_limit;   /* --memory-limit in bytes; 0: the runner's default */
	const char *baseline;     /* --baseline REV: compare with this git revision of the same files */
	double threshold;         /* --threshold PCT / 100: the smallest time change a verdict counts (0.05) */
	double fail_on;           /* --fail-on-regression PCT / 100; 0: never fail on a regression */
	int help, version;
};

/* Parse argv (argv[0] is the program). On a usage error returns -1 after printing
 * "kcost: error: ..." and a hint to stderr. Storage of strings points into argv; arrays are malloc'd and
 * released by kc_options_release. */
int kc_options_parse(struct kc_options *o, int argc, char **argv);
void kc_options_release(struct kc_options *o);
/* Add an input file (copied). 0, or -1 out of memory. */
int kc_options_add_file(struct kc_options *o, const char *path);

void kc_options_usage(FILE *out);

#endif
