/* dynamic.c — the dynamic ground truth of kcost's counts (see dynamic.h). */
#define _GNU_SOURCE
#include "dynamic.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "harness.h"
#include "source.h"

#define KC_GT_STR_(x) #x
#define KC_GT_STR(x)  KC_GT_STR_(x)

/* The transcendentals kcost counts (analyzer/libcalls.c, docs/counting.md), kept apart from the analyzer's
 * table on purpose: the check must not inherit its mistakes. Each in its double, float and long double form. */
static const char *const trans_bases[] = {"exp",   "exp2",   "expm1",  "log",   "log2",  "log10", "log1p", "pow",
                                          "sqrt",  "cbrt",   "sin",    "cos",   "tan",   "asin",  "acos",  "atan",
                                          "atan2", "sinh",   "cosh",   "tanh",  "asinh", "acosh", "atanh", "erf",
                                          "erfc",  "tgamma", "lgamma", "hypot", "rsqrt", NULL};

static const char *trans_names[KC_GT_MAX_TRANS + 1];
static int n_trans;

const char *const *kc_gt_transcendentals(void)
{
	if (!n_trans) {
		static char storage[KC_GT_MAX_TRANS][16];
		for (int i = 0; trans_bases[i]; i++)
			for (int form = 0; form < 3 && n_trans < KC_GT_MAX_TRANS; form++) {
				snprintf(storage[n_trans], sizeof storage[n_trans], "%s%s", trans_bases[i],
				         form == 0   ? ""
				         : form == 1 ? "f"
				                     : "l");
				trans_names[n_trans] = storage[n_trans];
				n_trans++;
			}
		trans_names[n_trans] = NULL;
	}
	return trans_names;
}

static int trans_lookup(const char *name, size_t len)
{
	const char *const *t = kc_gt_transcendentals();
	for (int i = 0; t[i]; i++)
		if (strlen(t[i]) == len && !strncmp(t[i], name, len))
			return i;
	return -1;
}

const char *kc_gt_class_name(enum kc_gt_class c)
{
	static const char *const names[] = {"exact-right", "exact-wrong", "flagged", "not-run", "skipped"};
	return c >= 0 && c < KC_GT_N_CLASSES ? names[c] : "?";
}

/* ---- the runtime the instrumented IR calls ---- */

static const char counter_c[] =
    "#include <stdio.h>\n"
    "static unsigned long long kc_ops[5][4], kc_trans[" KC_GT_STR(
        KC_GT_MAX_TRANS) "];\n"
                         "void kc_count_fp(int code) { kc_ops[code / 4][code % 4]++; }\n"
                         "void kc_count_trans(int i) { kc_trans[i]++; }\n"
                         "static void kc_report(void) {\n"
                         "  fprintf(stderr, \"\\nKCOUNT begin\\n\");\n"
                         "  for (int o = 0; o < 5; o++) for (int p = 0; p < 4; p++)\n"
                         "    if (kc_ops[o][p]) fprintf(stderr, \"KCOUNT op %d %d %llu\\n\", o, p, kc_ops[o][p]);\n"
                         "  for (int i = 0; i < " KC_GT_STR(
                             KC_GT_MAX_TRANS) "; i++)\n"
                                              "    if (kc_trans[i]) fprintf(stderr, \"KCOUNT trans %d %llu\\n\", i, "
                                              "kc_trans[i]);\n"
                                              "  fprintf(stderr, \"KCOUNT end\\n\");\n"
                                              "  fflush(stderr);\n"
                                              "}\n"
                                              /* the driver ends with _exit (no destructor of the kernel's may run after
                                               * its result): the counts are printed on the way out through the linker's
                                               * --wrap=_exit */
                                              "void __real__exit(int status);\n"
                                              "void __wrap__exit(int status) { kc_report(); __real__exit(status); }\n"
                                              /* a kernel that calls exit() ends there (glibc's exit reaches _exit
                                               * inside libc, past the wrap): its atexit handlers run, this one says
                                               * so */
                                              "int atexit(void (*)(void));\n"
                                              "static void kc_exited(void) { fprintf(stderr, \"\\nKCOUNT "
                                              "exit\\n\"); }\n"
                                              "__attribute__((constructor)) static void kc_on_exit(void) { "
                                              "atexit(kc_exited); }\n";

/* ---- files and processes ---- */

static char *slurp_file(const char *path)
{
	struct kc_buf b = KC_BUF_INIT;
	if (kc_buf_read_file(&b, path, (size_t)-1) < 0) {
		kc_buf_release(&b);
		return NULL;
	}
	return kc_buf_detach(&b);
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int ok = fputs(text, f) >= 0;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

static int mkdirs(const char *path)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(tmp, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* Run argv with stdout and stderr to files, killed after `timeout` seconds (0: none). Returns the exit status,
 * 128 + the signal, or -1 when it could not start. */
static int spawn(const char *const *argv, const char *out_path, const char *err_path, int timeout)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (in < 0 || out < 0 || err < 0)
			_exit(127);
		dup2(in, 0), dup2(out, 1), dup2(err, 2);
		if (timeout > 0)
			alarm((unsigned)timeout); /* survives the exec: SIGALRM ends a runaway kernel */
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The first line of a compiler's stderr that says "error", else its first line. */
static char *first_error(const char *text)
{
	if (!text || !*text)
		return strdup("(no output)");
	const char *at = strstr(text, "error");
	const char *start = text;
	if (at) {
		start = at;
		while (start > text && start[-1] != '\n')
			start--;
	}
	size_t len = strcspn(start, "\n");
	if (len > 300)
		len = 300;
	return strndup(start, len);
}

/* ---- the instrumentation ---- */

/* The precision of an IR floating type named at s (" float ", " double ", ...), or -1. */
static int ir_prec(const char *s)
{
	static const char *const types[] = {" half ", " float ", " double ", " x86_fp80 "};
	for (int p = 0; p < 4; p++)
		if (strstr(s, types[p]))
			return p;
	return -1;
}

/* `%x = fadd [flags] TYPE ...`: its counter code op * 4 + precision. Vector operations are not counted. */
static int op_code(const char *line, int *code)
{
	static const char *const ops[] = {"fadd", "fsub", "fmul", "fdiv"};
	const char *eq = strstr(line, " = ");
	if (!eq || line[strspn(line, " ")] != '%')
		return 0;
	for (int o = 0; o < 4; o++) {
		size_t n = strlen(ops[o]);
		if (strncmp(eq + 3, ops[o], n) || eq[3 + n] != ' ')
			continue;
		const char *end = strchr(eq + 3 + n, ',');
		char head[128];
		snprintf(head, sizeof head, "%.*s ", (int)(end ? end - eq : 100), eq);
		/* "fadd float %a" — the type is the word before the first operand */
		int p = ir_prec(head);
		if (p < 0 || strchr(head, '<'))
			return 0;
		/* clang emits a floating `--` as an fadd of -1 and names it dec (-fno-discard-value-names): the
		 * convention counts a decrement as a subtraction */
		const char *name = line + strspn(line, " ");
		if (o == 0 && !strncmp(name, "%dec", 4) && name + 4 + strspn(name + 4, "0123456789") == eq)
			o = 1;
		*code = o * 4 + p;
		return 1;
	}
	return 0;
}

/* The callee of a `call` instruction and where its argument list starts, or NULL. */
static const char *callee(const char *line, size_t *len, const char **args)
{
	const char *call = strstr(line, "call ");
	if (!call)
		return NULL;
	const char *at = strchr(call, '@');
	if (!at)
		return NULL;
	size_t n = strspn(at + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.$");
	if (at[1 + n] != '(')
		return NULL;
	*len = n;
	*args = at + 1 + n;
	return at + 1;
}

/* Some argument of the call is not a constant (a call on constants only, sqrtf(2.0f / M_PI), is one compilers
 * fold: the convention counts none). */
static int has_variable_arg(const char *args)
{
	const char *close = strrchr(args, ')');
	return memchr(args, '%', (size_t)((close ? close : args + strlen(args)) - args)) != NULL;
}

/* llvm.NAME.fTYPE (an intrinsic clang uses for some libm calls): NAME in its C form (sqrt + f32 -> sqrtf). */
static int intrinsic_name(const char *name, size_t len, char *out, size_t cap, int *prec)
{
	if (len < 6 || strncmp(name, "llvm.", 5))
		return 0;
	const char *base = name + 5;
	const char *dot = memchr(base, '.', len - 5);
	if (!dot)
		return 0;
	size_t blen = (size_t)(dot - base), tlen = len - 5 - blen - 1;
	static const char *const tys[] = {"f16", "f32", "f64", "f80"};
	static const char *const suffix[] = {"", "f", "", "l"};
	for (int p = 0; p < 4; p++)
		if (tlen == strlen(tys[p]) && !strncmp(dot + 1, tys[p], tlen)) {
			snprintf(out, cap, "%.*s%s", (int)blen, base, suffix[p]);
			*prec = p;
			return 1;
		}
	return 0;
}

/* The transcendental a call line calls, by index, or -1. */
static int trans_index(const char *line)
{
	size_t len;
	const char *args, *name = callee(line, &len, &args);
	if (!name || !has_variable_arg(args))
		return -1;
	int t = trans_lookup(name, len), prec;
	char c_name[64];
	if (t < 0 && intrinsic_name(name, len, c_name, sizeof c_name, &prec) && prec != 0)
		t = trans_lookup(c_name, strlen(c_name));
	return t;
}

/* The counter codes of a call that is arithmetic: an fma call (fma, fmaf, fmal, llvm.fma.*) is one fma; an
 * llvm.fmuladd.* — what clang emits for `a * b + c` where contraction is on despite -ffp-contract=off
 * (`#pragma float_control(precise, on)`, `#pragma STDC FP_CONTRACT ON`) — is the source's multiply and add.
 * Returns how many codes (0 to 2). */
static int call_codes(const char *line, int code[2])
{
	size_t len;
	const char *args, *name = callee(line, &len, &args);
	if (!name)
		return 0;
	int p = -1;
	char c_name[64];
	if (len == 3 && !strncmp(name, "fma", 3))
		p = KC_PREC_F64;
	else if (len == 4 && !strncmp(name, "fmaf", 4))
		p = KC_PREC_F32;
	else if (len == 4 && !strncmp(name, "fmal", 4))
		p = KC_PREC_F80;
	else if (intrinsic_name(name, len, c_name, sizeof c_name, &p) && !strncmp(c_name, "fmuladd", 7)) {
		code[0] = KC_OP_MUL * 4 + p, code[1] = KC_OP_ADD * 4 + p;
		return 2;
	} else if (!intrinsic_name(name, len, c_name, sizeof c_name, &p) || strncmp(c_name, "fma", 3))
		return 0;
	code[0] = KC_OP_FMA * 4 + p;
	return 1;
}

/* Is the function a `define` line opens one of the kernel's, to be counted? Every function the harness's
 * translation unit defines is: those of the file and the static inline helpers of its headers (darknet's
 * logistic_activate, which the kernels call), but not the harness's own (kcost_*, its fills and calls), the
 * file's main (renamed kcost_user_main_) and KCOST_INIT initializers (run before timing, not counted). */
static int instrumented(const struct kc_analysis *an, const char *define_line)
{
	const char *at = strchr(define_line, '@');
	if (!at)
		return 0;
	size_t n = strcspn(at + 1, "(");
	if (at[1] == '"' || !strncmp(at + 1, "kcost_", 6) || !strncmp(at + 1, "kc_", 3) || !strncmp(at + 1, "llvm.", 5))
		return 0;
	for (int i = 0; i < an->n_functions; i++) {
		const char *init = an->functions[i]->init;
		if (init && strlen(init) == n && !strncmp(at + 1, init, n))
			return 0;
	}
	return 1;
}

/* Copy the IR, inserting counter calls in the analyzed functions. */
static int instrument(const struct kc_analysis *an, const char *in_path, const char *out_path)
{
	char *ir = slurp_file(in_path);
	if (!ir)
		return -1;
	FILE *out = fopen(out_path, "w");
	if (!out) {
		free(ir);
		return -1;
	}
	int active = 0, code[2];
	for (char *line = ir, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "define ", 7))
			active = instrumented(an, line);
		else if (!strcmp(line, "}"))
			active = 0;
		int t = active ? trans_index(line) : -1;
		if (t >= 0)
			fprintf(out, "  call void @kc_count_trans(i32 %d)\n", t);
		fprintf(out, "%s\n", line);
		int n = !active ? 0 : op_code(line, &code[0]) ? 1 : call_codes(line, code);
		for (int k = 0; k < n; k++)
			fprintf(out, "  call void @kc_count_fp(i32 %d)\n", code[k]);
	}
	fputs("declare void @kc_count_fp(i32)\ndeclare void @kc_count_trans(i32)\n", out);
	free(ir);
	return fclose(out);
}

/* The counts the run printed; -1 when the report is missing (the run ended some other way). */
static int parse_counts(const char *text, struct kc_gt_counts *c)
{
	memset(c, 0, sizeof *c);
	const char *p = text ? strstr(text, "\nKCOUNT begin\n") : NULL;
	if (!p || !strstr(p, "\nKCOUNT end\n"))
		return -1;
	for (; (p = strstr(p, "\nKCOUNT ")); p++) {
		int o, q;
		unsigned long long n;
		if (sscanf(p, "\nKCOUNT op %d %d %llu", &o, &q, &n) == 3 && o >= 0 && o < KC_OP_N && q >= 0 &&
		    q < KC_PREC_N)
			c->ops[o][q] = (long long)n;
		else if (sscanf(p, "\nKCOUNT trans %d %llu", &o, &n) == 2 && o >= 0 && o < KC_GT_MAX_TRANS)
			c->trans[o] = (long long)n;
	}
	return 0;
}

/* ---- paths and flags ---- */

static char *absolute(const char *base, const char *path)
{
	char joined[2 * PATH_MAX], *real;
	if (path[0] == '/' || !base)
		snprintf(joined, sizeof joined, "%s", path);
	else
		snprintf(joined, sizeof joined, "%s/%s", base, path);
	real = realpath(joined, NULL);
	return real ? real : strdup(joined);
}

/* The flags with every include path made absolute (-I DIR, -IDIR, -isystem, -iquote, -idirafter, -include). */
static char **resolve_flags(const char *base, const char *const *flags, int n)
{
	static const char *const path_flags[] = {"-I", "-isystem", "-iquote", "-idirafter", "-include", NULL};
	char **out = calloc((size_t)n + 1, sizeof *out);
	for (int i = 0; i < n; i++) {
		out[i] = NULL;
		for (int k = 0; path_flags[k] && !out[i]; k++) {
			size_t len = strlen(path_flags[k]);
			if (strncmp(flags[i], path_flags[k], len))
				continue;
			if (flags[i][len] == '\0' && i + 1 < n) { /* -I DIR */
				out[i] = strdup(flags[i]);
				i++;
				out[i] = flags[i][0] == '/' ? strdup(flags[i]) : absolute(base, flags[i]);
			} else if (flags[i][len] && k == 0) { /* -IDIR (only -I joins its argument) */
				const char *dir = flags[i] + len;
				char *abs = dir[0] == '/' ? strdup(dir) : absolute(base, dir);
				size_t sz = strlen(abs) + 3;
				out[i] = malloc(sz);
				snprintf(out[i], sz, "-I%s", abs);
				free(abs);
			}
		}
		if (!out[i])
			out[i] = strdup(flags[i]);
	}
	return out;
}

static void free_strv(char **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- one function's classification ---- */

static int uses_library(const struct kc_function *f)
{
	for (int i = 0; i < f->n_nests; i++)
		if (f->nests[i].callee && !strncmp(f->nests[i].callee, "cblas_", 6))
			return 1;
	return 0;
}

/* Why f's FLOPs are not exact: its first warning of a kind that makes them so (not one about its comparisons or
 * traffic only, which may come first: s441's else-if), else its first warning, else its first diagnostic. */
static char *first_warning(const struct kc_function *f)
{
	const struct kc_diag *pick = NULL;
	for (const struct kc_diag *d = f->diags.head; d && !pick; d = d->next)
		if (d->severity >= KC_WARNING && d->kind != KC_DIAG_INEXACT_CMP && d->kind != KC_DIAG_INEXACT_TRAFFIC &&
		    d->kind != KC_DIAG_PERFORMANCE && d->kind != KC_DIAG_RUN)
			pick = d;
	for (const struct kc_diag *d = f->diags.head; d && !pick; d = d->next)
		if (d->severity >= KC_WARNING)
			pick = d;
	if (!pick)
		pick = f->diags.head;
	if (!pick)
		return strdup("kcost marks it not exact (no diagnostic)");
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_printf(&b, "%s:%u:%u: %s", pick->loc.file ? pick->loc.file : "?", pick->loc.line, pick->loc.col,
	              pick->message);
	return kc_buf_detach(&b);
}

static char *sizes_text(const struct kc_function *f)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_puts(&b, "");
	for (int s = 0; s < f->n_size_params; s++)
		if (f->syms.syms[s].has_value)
			kc_buf_printf(&b, "%s%s=%lld", s ? " " : "", f->syms.syms[s].name, f->syms.syms[s].value);
	return kc_buf_detach(&b);
}

/* kcost's counts at the benchmark sizes; -1 with *why when one cannot be evaluated. */
static int expected_counts(const struct kc_function *f, struct kc_gt_counts *c, const char **why)
{
	memset(c, 0, sizeof *c);
	for (int op = 0; op < KC_OP_N; op++)
		for (int p = 0; p < KC_PREC_N; p++)
			if (f->cost.ops[op][p] && kc_function_eval(f, f->cost.ops[op][p], &c->ops[op][p], why) < 0)
				return -1;
	for (const struct kc_named_count *nc = f->cost.transcendentals; nc; nc = nc->next) {
		long long v = 0;
		if (nc->count && kc_function_eval(f, nc->count, &v, why) < 0)
			return -1;
		int t = trans_lookup(nc->name, strlen(nc->name));
		if (t < 0) {
			*why = "kcost counts a transcendental the checker does not know";
			return -1;
		}
		c->trans[t] += v;
	}
	return 0;
}

static long long flops_of(const struct kc_gt_counts *c)
{
	long long s = 0;
	for (int op = 0; op < KC_OP_N; op++)
		for (int p = 0; p < KC_PREC_N; p++)
			s += (op == KC_OP_FMA ? 2 : 1) * c->ops[op][p];
	return s;
}

static long long trans_of(const struct kc_gt_counts *c)
{
	long long s = 0;
	for (int t = 0; t < KC_GT_MAX_TRANS; t++)
		s += c->trans[t];
	return s;
}

/* Compare: 1 when equal; else 0 with every difference in b. */
static int compare(const struct kc_gt_counts *run, const struct kc_gt_counts *kc, struct kc_buf *b)
{
	int same = 1;
	for (int op = 0; op < KC_OP_N; op++)
		for (int p = 0; p < KC_PREC_N; p++)
			if (run->ops[op][p] != kc->ops[op][p]) {
				kc_buf_printf(b, "%s%s %s executed %lld, kcost says %lld", same ? "" : "; ",
				              kc_op_name(op), kc_prec_name(p), run->ops[op][p], kc->ops[op][p]);
				same = 0;
			}
	const char *const *t = kc_gt_transcendentals();
	for (int i = 0; t[i]; i++)
		if (run->trans[i] != kc->trans[i]) {
			kc_buf_printf(b, "%s%s called %lld times, kcost says %lld", same ? "" : "; ", t[i],
			              run->trans[i], kc->trans[i]);
			same = 0;
		}
	if (!same)
		kc_buf_printf(b,
		              " (FLOPs executed %lld, kcost says %lld; transcendentals executed %lld, kcost says %lld)",
		              flops_of(run), flops_of(kc), trans_of(run), trans_of(kc));
	return same;
}

/* ---- building and running the harness ---- */

struct build {
	const struct kc_gt_opts *o;
	const struct kc_analysis *an;
	const char *user_path; /* absolute */
	char **flags;
	int n_flags;
};

/* Build dir/harness from the plans; 0, or -1 with *why (malloc'd). */
static int build_harness(const struct build *bd, const char *dir, const struct kc_harness_plan *plans, int n,
                         char **why)
{
	if (mkdirs(dir) < 0) {
		*why = strdup("cannot create the scratch directory");
		return -1;
	}
	struct kc_buf src = KC_BUF_INIT;
	const char *msg;
	if (kc_harness_source(&src, bd->user_path, plans, n, &msg) < 0) {
		kc_buf_release(&src);
		*why = strdup(msg);
		return -1;
	}
	int wrote = write_file(dir, "harness.c", kc_buf_str(&src)) |
	            write_file(dir, "kcost_driver.c", (const char *)kc_harness_kcost_driver_c) |
	            write_file(dir, "kcost_driver.h", (const char *)kc_harness_kcost_driver_h) |
	            write_file(dir, "kcost_libm.h", (const char *)kc_harness_kcost_libm_h) |
	            write_file(dir, "counter.c", counter_c);
	kc_buf_release(&src);
	if (wrote) {
		*why = strdup("cannot write the harness");
		return -1;
	}
	char path[PATH_MAX + 64], ll[PATH_MAX + 64], ll2[PATH_MAX + 64], exe[PATH_MAX + 64], out[PATH_MAX + 64],
	    err[PATH_MAX + 64], driver[PATH_MAX + 64], counter[PATH_MAX + 64], user_dir[PATH_MAX + 8];
	snprintf(path, sizeof path, "%s/harness.c", dir);
	snprintf(ll, sizeof ll, "%s/harness.ll", dir);
	snprintf(ll2, sizeof ll2, "%s/harness.counted.ll", dir);
	snprintf(exe, sizeof exe, "%s/harness", dir);
	snprintf(out, sizeof out, "%s/build.out", dir);
	snprintf(err, sizeof err, "%s/build.err", dir);
	snprintf(driver, sizeof driver, "%s/kcost_driver.c", dir);
	snprintf(counter, sizeof counter, "%s/counter.c", dir);
	char *slash = strrchr(bd->user_path, '/');
	snprintf(user_dir, sizeof user_dir, "-I%.*s", (int)(slash ? slash - bd->user_path : 1),
	         slash ? bd->user_path : ".");
	char include[PATH_MAX + 8];
	snprintf(include, sizeof include, "-I%s", bd->o->include_dir ? bd->o->include_dir : ".");
	const char *clang = bd->o->clang ? bd->o->clang : "clang-19";

	const char **emit = calloc((size_t)bd->n_flags + 16, sizeof *emit);
	int k = 0;
	emit[k++] = clang;
	emit[k++] = "-S", emit[k++] = "-emit-llvm", emit[k++] = "-O0", emit[k++] = "-ffp-contract=off";
	emit[k++] = "-Xclang", emit[k++] = "-ffloat16-excess-precision=none";
	emit[k++] = "-w", emit[k++] = "-fno-discard-value-names";
	for (int i = 0; i < bd->n_flags; i++)
		emit[k++] = bd->flags[i];
	emit[k++] = user_dir, emit[k++] = include;
	emit[k++] = path, emit[k++] = "-o", emit[k++] = ll;
	emit[k] = NULL;
	int st = spawn(emit, out, err, 600);
	free(emit);
	if (st != 0) {
		char *text = slurp_file(err), *line = first_error(text);
		struct kc_buf b = KC_BUF_INIT;
		kc_buf_printf(&b, "the harness does not compile to IR: %s", line);
		free(text), free(line);
		*why = kc_buf_detach(&b);
		return -1;
	}
	if (instrument(bd->an, ll, ll2) < 0) {
		*why = strdup("cannot instrument the IR");
		return -1;
	}
	/* as the runner links: -ffunction-sections and --gc-sections drop the file's main and what only it needs
	 * (another translation unit's functions, polybench.c's) */
	const char *link[] = {clang,
	                      "-O0",
	                      "-w",
	                      "-ffunction-sections",
	                      ll2,
	                      driver,
	                      counter,
	                      "-o",
	                      exe,
	                      "-Wl,--gc-sections,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,"
	                      "--wrap=posix_memalign,--wrap=_exit",
	                      "-lopenblas",
	                      "-lm",
	                      NULL};
	if (spawn(link, out, err, 600) != 0) {
		char *text = slurp_file(err), *line = first_error(text);
		struct kc_buf b = KC_BUF_INIT;
		kc_buf_printf(&b, "the instrumented harness does not link: %s", line);
		free(text), free(line);
		*why = kc_buf_detach(&b);
		return -1;
	}
	return 0;
}

/* Run one function of dir/harness once; 0 with the counts, or -1 with *why (malloc'd). */
static int run_harness(const struct build *bd, const char *dir, const char *fn, struct kc_gt_counts *c, char **why)
{
	char exe[PATH_MAX + 64], out[PATH_MAX + 64], err[PATH_MAX + 64];
	snprintf(exe, sizeof exe, "%s/harness", dir);
	snprintf(out, sizeof out, "%s/run.out", dir);
	snprintf(err, sizeof err, "%s/run.err", dir);
	const char *argv[] = {exe, fn, "once", "0", NULL};
	int st = spawn(argv, out, err, bd->o->timeout > 0 ? bd->o->timeout : 300);
	char *text = slurp_file(err);
	int ok = st == 0 && parse_counts(text, c) == 0;
	if (!ok) {
		struct kc_buf b = KC_BUF_INIT;
		int exited = text && strstr(text, "\nKCOUNT exit\n");
		if (exited)
			kc_buf_printf(&b,
			              "the function ended the process (exit, status %d) instead of returning: kcost "
			              "counts a call that returns",
			              st);
		else if (st == 128 + SIGALRM)
			kc_buf_printf(&b, "the instrumented run took more than %d s",
			              bd->o->timeout > 0 ? bd->o->timeout : 300);
		else if (st > 128)
			kc_buf_printf(&b, "the instrumented run died of signal %d", st - 128);
		else if (st != 0)
			kc_buf_printf(&b, "the instrumented run exited with status %d", st);
		else
			kc_buf_puts(&b, "the instrumented run printed no counts");
		if (!exited && text && *text) {
			char *line = first_error(text);
			kc_buf_printf(&b, ": %s", line);
			free(line);
		}
		*why = kc_buf_detach(&b);
	}
	free(text);
	unlink(err); /* a kernel that prints (PolyBench's print_array) can leave megabytes */
	unlink(out);
	return ok ? 0 : -1;
}

static void set_result(struct kc_gt_result *r, const struct kc_function *f, enum kc_gt_class cls, char *detail)
{
	r->file = strdup(f->loc.file ? f->loc.file : "?");
	r->line = f->loc.line;
	r->function = strdup(f->name);
	r->cls = cls;
	r->detail = detail;
	r->sizes = sizes_text(f);
}

int kc_gt_check_file(const char *file, const struct kc_gt_opts *o, struct kc_gt_file *out)
{
	memset(out, 0, sizeof *out);
	struct build bd = {.o = o};
	char *user_path = absolute(o->base_dir, file);
	bd.user_path = user_path;
	bd.flags = resolve_flags(o->base_dir, o->flags, o->n_flags);
	bd.n_flags = o->n_flags;

	struct kc_analysis an = {0};
	struct kc_analyze_opts ao = {.args = (const char *const *)bd.flags,
	                             .n_args = bd.n_flags,
	                             .sizes = o->sizes,
	                             .n_sizes = o->n_sizes,
	                             .extents = o->extents,
	                             .n_extents = o->n_extents,
	                             .function_regex = o->function_regex,
	                             .include_dir = o->include_dir,
	                             .threads = 1};
	const char *files[] = {user_path};
	int rc = 0;
	if (kc_analyze(&an, files, 1, &ao) < 0 || an.parse_failed) {
		struct kc_buf b = KC_BUF_INIT;
		kc_buf_puts(&b, "kcost could not analyze the file");
		for (const struct kc_diag *d = an.diags.head; d; d = d->next)
			if (d->severity == KC_ERROR) {
				kc_buf_printf(&b, ": %s:%u: %s", d->loc.file ? d->loc.file : "?", d->loc.line,
				              d->message);
				break;
			}
		out->error = kc_buf_detach(&b);
		rc = an.parse_failed ? 0 : -1;
		goto done;
	}
	{
		struct kc_arena a = KC_ARENA_INIT;
		out->results = calloc((size_t)an.n_functions + 1, sizeof *out->results);
		struct kc_harness_plan *plans = KC_NEW_N(&a, struct kc_harness_plan, an.n_functions + 1);
		int *slot = KC_NEW_N(&a, int, an.n_functions + 1), n_plans = 0;
		for (int i = 0; i < an.n_functions; i++) {
			const struct kc_function *f = an.functions[i];
			if (f->skip)
				continue;
			struct kc_gt_result *r = &out->results[out->n++];
			const char *why;
			if (uses_library(f)) {
				set_result(r, f, KC_GT_SKIPPED,
				           strdup("its counts come from a library model (cblas_*)"));
				continue;
			}
			if (!f->exact_flops) { /* the FLOPs and transcendentals are what is checked */
				set_result(r, f, KC_GT_FLAGGED, first_warning(f));
				continue;
			}
			if (expected_counts(f, &r->expected, &why) < 0) {
				struct kc_buf b = KC_BUF_INIT;
				kc_buf_printf(&b, "kcost's counts cannot be evaluated: %s", why);
				set_result(r, f, KC_GT_NOT_RUN, kc_buf_detach(&b));
				continue;
			}
			if (!strcmp(f->name,
			            "main")) { /* as the runner: the harness replaces the program's entry point */
				set_result(r, f, KC_GT_NOT_RUN,
				           strdup("main is the program's entry point, which the harness replaces"));
				continue;
			}
			kc_harness_plan(&a, f, NULL, &plans[n_plans]);
			if (plans[n_plans].error) {
				set_result(r, f, KC_GT_NOT_RUN, strdup(plans[n_plans].error));
				continue;
			}
			set_result(r, f, KC_GT_NOT_RUN, NULL); /* until it ran */
			slot[n_plans++] = out->n - 1;
		}
		bd.an = &an;
		char dir[PATH_MAX];
		snprintf(dir, sizeof dir, "%s/all", o->work_dir);
		char *why = NULL;
		/* one harness for all the runnable functions of the file; when it cannot be built, one per function,
		 * so that each says why */
		int together = n_plans > 0 && build_harness(&bd, dir, plans, n_plans, &why) == 0;
		free(why), why = NULL;
		for (int p = 0; p < n_plans; p++) {
			struct kc_gt_result *r = &out->results[slot[p]];
			const char *use = dir;
			char own[PATH_MAX];
			if (!together) {
				snprintf(own, sizeof own, "%s/f%d", o->work_dir, p);
				use = own;
				if (build_harness(&bd, own, &plans[p], 1, &why) < 0) {
					r->detail = why, why = NULL;
					continue;
				}
			}
			if (run_harness(&bd, use, r->function, &r->executed, &why) < 0) {
				r->detail = why, why = NULL;
				continue;
			}
			struct kc_buf b = KC_BUF_INIT;
			r->counted = 1;
			if (compare(&r->executed, &r->expected, &b)) {
				r->cls = KC_GT_EXACT_RIGHT;
				kc_buf_printf(&b, "FLOPs %lld, transcendentals %lld", flops_of(&r->executed),
				              trans_of(&r->executed));
			} else
				r->cls = KC_GT_EXACT_WRONG;
			if (r->sizes[0])
				kc_buf_printf(&b, " at %s", r->sizes);
			r->detail = kc_buf_detach(&b);
		}
		kc_arena_release(&a);
	}
done:
	kc_analysis_release(&an);
	free(user_path);
	free_strv(bd.flags, bd.n_flags);
	return rc;
}

void kc_gt_file_release(struct kc_gt_file *f)
{
	for (int i = 0; i < f->n; i++) {
		free(f->results[i].file);
		free(f->results[i].function);
		free(f->results[i].detail);
		free(f->results[i].sizes);
	}
	free(f->results);
	free(f->error);
	memset(f, 0, sizeof *f);
}
