/* options.c — command-line parsing for `kcost [options] FILE... [-- COMPILER-FLAGS]`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

void kc_options_usage(FILE *out)
{
	fputs(
	    "usage: kcost [options] FILE... [-- COMPILER-FLAGS]\n"
	    "       kcost diff [options] BASE.json HEAD.json\n"
	    "       kcost merge [-o DIR] [--format text|json|md] REPORT.json...\n"
	    "\n"
	    "Counts each C kernel's FLOPs, transcendental calls and memory traffic exactly from its loop nests,\n"
	    "shows which intermediates loop fusion would remove, times the kernels, and writes a roofline report.\n"
	    "\n"
	    "Input:\n"
	    "  -I DIR, -D NAME[=VAL], -U NAME, -std=STD   compiler flags for the parse (also after `--`)\n"
	    "  -p BUILD_DIR           read flags from BUILD_DIR/compile_commands.json (as clang-tidy does)\n"
	    "  --all                  with -p: analyze every C file (.c) of compile_commands.json\n"
	    "  --function REGEX       analyze only functions whose name matches (POSIX extended regex)\n"
	    "  --size NAME=VALUE      set a benchmark size, overriding KCOST_SIZES (repeatable)\n"
	    "  --scalar NAME=VALUE    the value of a floating-point parameter (alpha), for the run and the conditions\n"
	    "                         on it (default 1e-05; repeatable)\n"
	    "  --extent NAME=EXPR     the extent (elements) of buffer parameter NAME where its accesses cannot bound\n"
	    "                         it (a gather: --extent wte=V*C), as KCOST_EXTENT (repeatable)\n"
	    "  --parse-timeout SECONDS  CPU time one file's parse may take (default: 60)\n"
	    "Output:\n"
	    "  -o DIR                 report directory (default: kcost-report)\n"
	    "  --format text|json|md|sarif  what to print on stdout (default: text); sarif: the diagnostics as\n"
	    "                         SARIF 2.1.0 for code scanning (also written to DIR/kcost.sarif)\n"
	    "  --color auto|always|never\n"
	    "  --quiet                no progress and no summary; diagnostics only\n"
	    "  --verbose              also print notes and the exact commands run\n"
	    "Measurement:\n"
	    "  --no-run               static analysis only: do not compile or run anything\n"
	    "  --cc CC, --cflags FLAGS  compiler and flags for the harness (default: cc -O3 -march=native)\n"
	    "  --time-budget SECONDS  timing budget per function (default: 0.3)\n"
	    "  --timeout SECONDS      wall-clock limit per kernel run, at most 1000000 (default: 60)\n"
	    "  --memory-limit SIZE    address-space limit per kernel run: 512M, 8G (default: half the\n"
	    "                         physical memory, at least 2G)\n"
	    "  --no-traffic           time the kernels but do not measure their memory traffic (cachegrind)\n"
	    "  --remeasure            measure the machine's ceilings again instead of using the cache\n"
	    "  --sandbox              run kernels isolated: filesystem read-only except kcost's temporary\n"
	    "                         directory, no network (Linux namespaces); without it they run with\n"
	    "                         your rights\n"
	    "  --machine FILE         roofs and predictions for the machine whose `kcost machine --format json`\n"
	    "                         FILE holds, instead of this one (timings stay this machine's)\n"
	    "  --peak GFLOPS --bandwidth GBS  a hypothetical machine: these budgets, labelled hypothetical\n"
	    "  --threads N            run OpenMP kernels with N threads (built with -fopenmp), against the\n"
	    "                         all-threads compute ceilings (default: 1 thread)\n"
	    "Review (pull requests):\n"
	    "  --baseline REV         compare with git revision REV of the same files (e.g. `git merge-base\n"
	    "                         origin/main HEAD`): both are built and timed in alternating slices; the\n"
	    "                         verdicts go to report.json and lead summary.md\n"
	    "  --threshold PCT        the smallest time change a verdict counts (default: 5)\n"
	    "  --fail-on-regression PCT  exit 4 when a function got slower, or its FLOPs or bytes grew, by\n"
	    "                         more than PCT\n"
	    "Other:\n"
	    "  -j N                   kcost's own threads: 1, or N to parse a large file in N parts (the same\n"
	    "                         figures) and count and render alongside (default: one per core, 2+);\n"
	    "                         with --no-run and several files, N kcost processes, each over a share of\n"
	    "                         the files, whose reports are merged (as kcost merge does)\n"
	    "  --help, --version\n"
	    "\n"
	    "Exit status: 0 success; 1 the input had errors (could not parse, no kernels, a kernel failed to\n"
	    "compile or run); 2 usage error; 3 internal error; 4 a regression beyond --fail-on-regression.\n"
	    "\n"
	    "Examples:\n"
	    "  kcost samples/gelu.c                       analyze, measure, write kcost-report/index.html\n"
	    "  kcost --no-run --format md samples/*.c     predictions only, Markdown on stdout\n"
	    "  kcost --size n=1000000 samples/vecadd.c    another benchmark size\n"
	    "  kcost -p build src/kernels.c               flags from build/compile_commands.json\n"
	    "  kcost --baseline origin/main --fail-on-regression 10 kernels/gelu.c   review a change\n"
	    "  kcost diff base/report.json head/report.json --fail-on-regression 10\n"
	    "  kcost merge -o merged shard-*/             a CI matrix's reports (one per job) as one report\n"
	    "  kcost machine [--format json]              this machine's ceilings, and how they were measured\n",
	    out);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("kcost: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'kcost --help' for more information.\n", stderr);
	return -1;
}

static void push(const char ***v, int *n, const char *s)
{
	const char **grown = realloc((void *)*v, sizeof **v * (size_t)(*n + 1));
	if (!grown)
		abort();
	grown[(*n)++] = s;
	*v = grown;
}

/* The NAME of NAME=VALUE (eq points at the '='), in its own allocation. */
static char *name_of(const char *arg, const char *eq)
{
	char *name = malloc((size_t)(eq - arg) + 1);
	if (!name)
		abort();
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	return name;
}

static int parse_size(struct kc_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *end;
	if (!eq || eq == arg)
		return usage_error("--size expects NAME=VALUE, got '%s'", arg);
	errno = 0;
	long long v = strtoll(eq + 1, &end, 0);
	if (errno || *end || end == eq + 1 || v < 0)
		return usage_error("--size value must be a non-negative integer: '%s'", arg);
	struct kc_size_override *grown = realloc(o->sizes, sizeof *grown * (size_t)(o->n_sizes + 1));
	if (!grown)
		abort();
	o->sizes = grown;
	char *name = name_of(arg, eq);
	o->sizes[o->n_sizes].name = name;
	o->sizes[o->n_sizes++].value = v;
	return 0;
}

/* --extent NAME=EXPR: EXPR is checked for its characters here (sizes, integers, + - * / and parentheses); the
 * analyzer parses it in each function's sizes. */
static int parse_extent(struct kc_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1] ||
	    strspn(eq + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"
	                   "+-*/() ") != strlen(eq + 1))
		return usage_error("--extent expects NAME=EXPR (an expression of the sizes, as in KCOST_EXTENT), got "
		                   "'%s'",
		                   arg);
	struct kc_extent_override *grown = realloc(o->extents, sizeof *grown * (size_t)(o->n_extents + 1));
	if (!grown)
		abort();
	o->extents = grown;
	char *expr = strdup(eq + 1);
	if (!expr)
		abort();
	o->extents[o->n_extents].name = name_of(arg, eq);
	o->extents[o->n_extents++].expr = expr;
	return 0;
}

static int parse_scalar(struct kc_options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *end;
	if (!eq || eq == arg)
		return usage_error("--scalar expects NAME=VALUE, got '%s'", arg);
	errno = 0;
	double v = strtod(eq + 1, &end);
	if (errno || *end || end == eq + 1 || !isfinite(v))
		return usage_error("--scalar value must be a finite number: '%s'", arg);
	struct kc_scalar_override *grown = realloc(o->scalars, sizeof *grown * (size_t)(o->n_scalars + 1));
	if (!grown)
		abort();
	o->scalars = grown;
	char *name = name_of(arg, eq);
	o->scalars[o->n_scalars].name = name;
	o->scalars[o->n_scalars++].value = v;
	return 0;
}

/* Seconds: a finite number in (0, 1e6]. "inf", "nan" and "1e300" are refused rather than read as "no limit": a
 * run in CI must end, and a limit past a few days only overflows the CPU-time limit derived from it. */
static int parse_seconds(const char *opt, const char *arg, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || *end || end == arg || !(v > 0 && v <= 1e6))
		return usage_error("%s expects a positive number of seconds, at most 1000000", opt);
	*out = v;
	return 0;
}

/* A size in bytes: a number and an optional binary unit K, M, G or T (also KiB, MiB, ... and KB, MB, ...):
 * "512M", "4GiB", "1.5G". At least 64 MiB (a program and its libraries need some) and at most 2^62. */
static int parse_bytes(const char *opt, const char *arg, long long *out)
{
	static const char units[] = "KMGT";
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	const char *u = *end ? strchr(units, *end & ~0x20) : NULL;
	if (u) {
		v *= (double)(1LL << (10 * (u - units + 1)));
		end++;
		if (!strcmp(end, "iB") || !strcmp(end, "B"))
			end += strlen(end);
	} else if (!strcmp(end, "B")) {
		end++;
	}
	if (errno || *end || end == arg || !(v >= (double)(64LL << 20) && v <= (double)(1LL << 62)))
		return usage_error("%s expects a size from 64M to 4194304T (a number with K, M, G or T)", opt);
	*out = (long long)v;
	return 0;
}

/* An option that takes a value: `--opt VALUE` or `--opt=VALUE`. Sets *val and advances *i. */
static int takes_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (*i + 1 >= argc) {
		*val = NULL;
		return 1;
	}
	*val = argv[++*i];
	return 1;
}

static int parse_enum(const char *opt, const char *val, const char *const *names, int *out)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(val, names[i])) {
			*out = i;
			return 0;
		}
	return usage_error(opt, val);
}

static int parse_one(struct kc_options *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	static const char *const formats[] = {"text", "json", "md", "sarif", NULL};
	static const char *const colors[] = {"auto", "always", "never", NULL};
	int e;
	if (!strcmp(a, "--help") || !strcmp(a, "-h"))
		o->help = 1;
	else if (!strcmp(a, "--version"))
		o->version = 1;
	else if (!strcmp(a, "--no-run"))
		o->no_run = 1;
	else if (!strcmp(a, "--quiet") || !strcmp(a, "-q"))
		o->quiet = 1;
	else if (!strcmp(a, "--verbose") || !strcmp(a, "-v"))
		o->verbose = 1;
	else if (!strcmp(a, "--remeasure"))
		o->remeasure = 1;
	else if (!strcmp(a, "--sandbox"))
		o->sandbox = 1;
	else if (!strcmp(a, "--all"))
		o->all = 1;
	else if (!strcmp(a, "--no-traffic"))
		o->no_traffic = 1;
	else if (!strncmp(a, "-std=", 5))
		push(&o->clang_args, &o->n_clang_args, a);
	else if ((a[1] == 'I' || a[1] == 'D' || a[1] == 'U') && a[0] == '-') {
		push(&o->clang_args, &o->n_clang_args, a);
		if (!a[2]) {
			if (*i + 1 >= argc)
				return usage_error("option '%s' requires an argument", a);
			push(&o->clang_args, &o->n_clang_args, argv[++*i]);
		}
	} else if (takes_value(argc, argv, i, "-o", &v) || takes_value(argc, argv, i, "--output", &v)) {
		if (!v)
			return usage_error("option '%s' requires a directory", a);
		o->out_dir = v;
	} else if (takes_value(argc, argv, i, "-p", &v)) {
		if (!v)
			return usage_error("option '%s' requires a build directory", a);
		o->compile_db = v;
	} else if (takes_value(argc, argv, i, "--extent", &v)) {
		if (parse_extent(o, v))
			return -1;
	} else if (takes_value(argc, argv, i, "--scalar", &v)) {
		if (parse_scalar(o, v))
			return -1;
	} else if (takes_value(argc, argv, i, "--size", &v)) {
		if (!v)
			return usage_error("option '%s' requires NAME=VALUE", a);
		return parse_size(o, v);
	} else if (takes_value(argc, argv, i, "--function", &v)) {
		if (!v)
			return usage_error("option '%s' requires a regular expression", a);
		o->function_regex = v;
	} else if (takes_value(argc, argv, i, "--format", &v)) {
		if (!v || parse_enum("unknown --format '%s' (expected text, json, md or sarif)", v, formats, &e) < 0)
			return v ? -1 : usage_error("option '%s' requires text, json, md or sarif", a);
		o->format = (enum kc_format)e;
	} else if (takes_value(argc, argv, i, "--color", &v)) {
		if (!v || parse_enum("unknown --color '%s' (expected auto, always or never)", v, colors, &e) < 0)
			return v ? -1 : usage_error("option '%s' requires auto, always or never", a);
		o->color = (enum kc_color)e;
	} else if (takes_value(argc, argv, i, "--cc", &v)) {
		if (!v)
			return usage_error("option '%s' requires a compiler", a);
		o->cc = v;
	} else if (takes_value(argc, argv, i, "--cflags", &v)) {
		if (!v)
			return usage_error("option '%s' requires flags", a);
		o->cflags = v;
	} else if (takes_value(argc, argv, i, "--time-budget", &v)) {
		return v ? parse_seconds("--time-budget", v, &o->time_budget)
		         : usage_error("option '%s' requires seconds", a);
	} else if (takes_value(argc, argv, i, "--peak", &v) || takes_value(argc, argv, i, "--bandwidth", &v)) {
		int peak = !strncmp(a, "--peak", 6);
		char *end;
		double x = v ? strtod(v, &end) : 0;
		if (!v || *end || end == v || !(x > 0 && x <= 1e9))
			return usage_error("%s expects a positive number, at most 1e9",
			                   peak ? "--peak (GFLOP/s)" : "--bandwidth (GB/s)");
		*(peak ? &o->peak : &o->bandwidth) = x;
		return 0;
	} else if (takes_value(argc, argv, i, "--machine", &v)) {
		if (!v || !*v)
			return usage_error("option '%s' requires a file (kcost machine --format json > FILE)", a);
		o->machine_file = v;
		return 0;
	} else if (takes_value(argc, argv, i, "--parse-timeout", &v)) {
		return v ? parse_seconds("--parse-timeout", v, &o->parse_timeout)
		         : usage_error("option '%s' requires seconds", a);
	} else if (takes_value(argc, argv, i, "--timeout", &v)) {
		return v ? parse_seconds("--timeout", v, &o->timeout) : usage_error("option '%s' requires seconds", a);
	} else if (takes_value(argc, argv, i, "--memory-limit", &v)) {
		return v ? parse_bytes("--memory-limit", v, &o->memory_limit)
		         : usage_error("option '%s' requires a size", a);
	} else if (takes_value(argc, argv, i, "--baseline", &v)) {
		if (!v || !*v || v[0] == '-')
			return usage_error(
			    "option '%s' requires a git revision (e.g. `git merge-base origin/main HEAD`)", a);
		o->baseline = v;
	} else if (takes_value(argc, argv, i, "--threshold", &v) ||
	           takes_value(argc, argv, i, "--fail-on-regression", &v)) {
		int fail = !strncmp(a, "--fail", 6);
		char *end;
		errno = 0;
		double x = v ? strtod(v, &end) : -1;
		if (!v || errno || *end || end == v || !(x >= 0 && x <= 10000))
			return usage_error("%s expects a percentage from 0 to 10000",
			                   fail ? "--fail-on-regression" : "--threshold");
		if (fail)
			o->fail_on = x > 0 ? x / 100 : 1e-12; /* 0%: any regression fails */
		else
			o->threshold = x / 100;
		return 0;
	} else if (takes_value(argc, argv, i, "--threads", &v)) {
		char *end;
		long t = v ? strtol(v, &end, 10) : 0;
		if (!v || *end || t < 1 || t > 1024)
			return usage_error("--threads expects a number of threads from 1 to 1024%s", "");
		o->threads = (int)t;
	} else if (takes_value(argc, argv, i, "-j", &v)) {
		char *end;
		long j = v ? strtol(v, &end, 10) : 0;
		if (!v || *end || j < 1 || j > 256)
			return usage_error("-j expects a number of threads from 1 to 256%s", "");
		o->jobs = (int)j;
	} else if (a[0] == '-' && a[1] == 'j' && a[2]) {
		char *end;
		long j = strtol(a + 2, &end, 10);
		if (*end || j < 1 || j > 256)
			return usage_error("-j expects a number of threads from 1 to 256%s", "");
		o->jobs = (int)j;
	} else {
		return usage_error("unknown option '%s'", a);
	}
	return 0;
}

int kc_options_parse(struct kc_options *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->jobs = 0; /* kcost chooses */
	o->time_budget = 0.3;
	o->threshold = 0.05;
	o->timeout = 60;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				push(&o->clang_args, &o->n_clang_args, argv[i]);
			break;
		}
		if (a[0] == '-' && a[1]) {
			if (parse_one(o, argc, argv, &i) < 0)
				return -1;
			continue;
		}
		push(&o->files, &o->n_files, a);
	}
	if (o->help || o->version)
		return 0;
	if ((o->peak > 0) != (o->bandwidth > 0))
		return usage_error("--peak and --bandwidth go together: a hypothetical machine needs both%s", "");
	if (o->peak > 0 && o->machine_file)
		return usage_error("--machine and --peak/--bandwidth both name the machine: give one%s", "");
	if (o->all && !o->compile_db)
		return usage_error("--all analyzes every file of a compilation database: it needs -p BUILD_DIR%s", "");
	if (o->all && o->n_files)
		return usage_error("--all takes its files from BUILD_DIR/compile_commands.json, not from the command "
		                   "line ('%s')",
		                   o->files[0]);
	if (o->n_files == 0 && !o->all)
		return usage_error("no input files%s", "");
	if (o->baseline && (o->peak > 0 || o->machine_file))
		return usage_error("--baseline times both revisions on this machine: it takes no --machine, --peak%s",
		                   "");
	return 0;
}

int kc_options_add_file(struct kc_options *o, const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return -1;
	push(&o->owned, &o->n_owned, copy);
	push(&o->files, &o->n_files, copy);
	return 0;
}

void kc_options_release(struct kc_options *o)
{
	for (int i = 0; i < o->n_owned; i++)
		free((void *)o->owned[i]);
	free((void *)o->owned);
	free((void *)o->files);
	free((void *)o->clang_args);
	for (int i = 0; i < o->n_sizes; i++)
		free((void *)o->sizes[i].name);
	free(o->sizes);
	for (int i = 0; i < o->n_scalars; i++)
		free((void *)o->scalars[i].name);
	free(o->scalars);
	for (int i = 0; i < o->n_extents; i++) {
		free((void *)o->extents[i].name);
		free((void *)o->extents[i].expr);
	}
	free(o->extents);
	memset(o, 0, sizeof *o);
}
