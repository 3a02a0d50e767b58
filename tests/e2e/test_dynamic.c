/* test_dynamic.c — an independent check of the analyzer's counts: execute every sample kernel and count
 * the floating-point operations it really performs, at two sets of sizes, and compare with kcost's formulas
 * evaluated at the same sizes.
 *
 * The counting does not use kcost's front end: the kernel is compiled by clang to LLVM IR at -O0 with
 * floating-point contraction off (so each source operation is one IR instruction: `fadd`, `fsub`, `fmul`,
 * `fdiv` with its type; unary minus is `fneg`, not counted, as in the convention), a call to a counter is
 * inserted after each such instruction and before each call of a transcendental, and the program — kcost's
 * own harness, which allocates and initializes the buffers — runs the kernel once. Only the functions kcost
 * analyzed are instrumented, so the harness's own initialisation is not counted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer.h"
#include "harness.h"
#include "run.h"

#ifndef CLANG
#define CLANG "clang-19"
#endif

static const char *const transcendental[] = {"expf", "exp", "tanhf", "tanh", "sqrtf", "sqrt", "logf", "log", NULL};
enum { N_TRANS = 8 };

/* The runtime the instrumented IR calls. */
static const char counter_c[] =
    "#include <stdio.h>\n"
    "static unsigned long long kc_ops[5][4], kc_trans["
    "8"
    "];\n"
    "void kc_count_fp(int code) { kc_ops[code / 4][code % 4]++; }\n"
    "void kc_count_trans(int i) { kc_trans[i]++; }\n"
    "static void kc_report(void) {\n"
    "  for (int o = 0; o < 5; o++) for (int p = 0; p < 4; p++)\n"
    "    if (kc_ops[o][p]) fprintf(stderr, \"KCOUNT op %d %d %llu\\n\", o, p, kc_ops[o][p]);\n"
    "  for (int i = 0; i < 8; i++) if (kc_trans[i]) fprintf(stderr, \"KCOUNT trans %d %llu\\n\", i, kc_trans[i]);\n"
    "  fflush(stderr);\n"
    "}\n"
    /* the driver ends with _exit (no destructor of the kernel's may run after its result): the counts are
     * printed on the way out through the linker's --wrap=_exit */
    "void __real__exit(int status);\n"
    "void __wrap__exit(int status) { kc_report(); __real__exit(status); }\n";

static int spawn(const char *const *argv, const char *out_path, const char *err_path)
{
	pid_t pid = fork();
	if (pid == 0) {
		int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(out, 1);
		dup2(err, 2);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void write_in(const char *dir, const char *name, const char *text)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	write_text(path, text);
}

static int op_code(const char *line, int *code)
{
	static const char *const ops[] = {"fadd", "fsub", "fmul", "fdiv"};
	static const char *const types[] = {" half ", " float ", " double ", " x86_fp80 "};
	const char *eq = strstr(line, " = ");
	if (!eq || line[strspn(line, " ")] != '%')
		return 0;
	for (int o = 0; o < 4; o++) {
		size_t n = strlen(ops[o]);
		if (strncmp(eq + 3, ops[o], n) || eq[3 + n] != ' ')
			continue;
		for (int p = 0; p < 4; p++)
			if (strstr(eq + 3, types[p])) {
				*code = o * 4 + p;
				return 1;
			}
	}
	return 0;
}

static int trans_index(const char *line)
{
	if (!strstr(line, "call "))
		return -1;
	for (int i = 0; transcendental[i]; i++) {
		char pat[64];
		snprintf(pat, sizeof pat, "@%s(", transcendental[i]);
		const char *call = strstr(line, pat);
		/* a call on constants only (sqrtf(2.0f / M_PI)) is one compilers fold: the convention counts none */
		const char *close = call ? strchr(call, ')') : NULL;
		if (call && memchr(call, '%', (size_t)((close ? close : call + strlen(call)) - call)))
			return i;
	}
	return -1;
}

/* Instrumented: the functions kcost analyzed, but not the initializers (KCOST_INIT) the harness calls
 * before the kernel. */
static int instrumented(const struct kc_analysis *an, const char *define_line)
{
	const char *at = strchr(define_line, '@');
	if (!at)
		return 0;
	for (int i = 0; i < an->n_functions; i++) {
		const char *init = an->functions[i]->init;
		if (init && !strncmp(at + 1, init, strlen(init)) && at[1 + strlen(init)] == '(')
			return 0;
	}
	for (int i = 0; i < an->n_functions; i++) {
		size_t n = strlen(an->functions[i]->name);
		if (!strncmp(at + 1, an->functions[i]->name, n) && at[1 + n] == '(')
			return 1;
	}
	return 0;
}

/* Copy the IR, inserting counter calls in the analyzed functions. */
static void instrument(const struct kc_analysis *an, const char *in_path, const char *out_path)
{
	char *ir = slurp(in_path);
	assert_non_null(ir);
	FILE *out = fopen(out_path, "w");
	assert_non_null(out);
	int active = 0, code;
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
		if (active && op_code(line, &code))
			fprintf(out, "  call void @kc_count_fp(i32 %d)\n", code);
	}
	fputs("declare void @kc_count_fp(i32)\ndeclare void @kc_count_trans(i32)\n", out);
	fclose(out);
	free(ir);
}

struct counts {
	unsigned long long ops[5][4], trans[N_TRANS];
};

static void parse_counts(const char *text, struct counts *c)
{
	memset(c, 0, sizeof *c);
	for (const char *p = text; (p = strstr(p, "KCOUNT ")); p++) {
		int o, q;
		unsigned long long n;
		if (sscanf(p, "KCOUNT op %d %d %llu", &o, &q, &n) == 3)
			c->ops[o][q] = n;
		else if (sscanf(p, "KCOUNT trans %d %llu", &o, &n) == 2)
			c->trans[o] = n;
	}
}

/* Build the instrumented harness of one function and run it once. */
static void count_dynamically(const struct kc_analysis *an, const struct kc_function *f, const char *file,
                              const char *dir, struct counts *c)
{
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_harness_plan plan;
	kc_harness_plan(&a, f, NULL, &plan);
	if (plan.error)
		fail_msg("%s: %s", f->name, plan.error);
	char abs[4200], path[4200], ll[4200], ll2[4200], exe[4200], out[4200], err[4200];
	snprintf(abs, sizeof abs, "%s/%s", KCOST_SOURCE_DIR, file);
	struct kc_buf src = KC_BUF_INIT;
	const char *why;
	assert_int_equal(kc_harness_source(&src, abs, &plan, 1, &why), 0);
	write_in(dir, "harness.c", kc_buf_str(&src));
	kc_buf_release(&src);
	write_in(dir, "kcost_driver.c", (const char *)kc_harness_kcost_driver_c);
	write_in(dir, "kcost_driver.h", (const char *)kc_harness_kcost_driver_h);
	write_in(dir, "counter.c", counter_c);
	snprintf(path, sizeof path, "%s/harness.c", dir);
	snprintf(ll, sizeof ll, "%s/harness.ll", dir);
	snprintf(ll2, sizeof ll2, "%s/harness.counted.ll", dir);
	snprintf(exe, sizeof exe, "%s/harness", dir);
	snprintf(out, sizeof out, "%s/out.txt", dir);
	snprintf(err, sizeof err, "%s/err.txt", dir);
	const char *emit[] = {CLANG,
	                      "-S",
	                      "-emit-llvm",
	                      "-O0",
	                      "-ffp-contract=off",
	                      "-Xclang",
	                      "-ffloat16-excess-precision=none",
	                      "-I",
	                      KCOST_SOURCE_DIR "/annotations",
	                      path,
	                      "-o",
	                      ll,
	                      NULL};
	assert_int_equal(spawn(emit, out, err), 0);
	instrument(an, ll, ll2);
	char driver[4200], counter[4200];
	snprintf(driver, sizeof driver, "%s/kcost_driver.c", dir);
	snprintf(counter, sizeof counter, "%s/counter.c", dir);
	const char *link[] = {
	    CLANG,
	    "-O0",
	    "-w",
	    ll2,
	    driver,
	    counter,
	    "-o",
	    exe,
	    "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc,--wrap=posix_memalign,--wrap=_exit",
	    "-lopenblas",
	    "-lm",
	    NULL};
	if (spawn(link, out, err) != 0)
		fail_msg("linking the instrumented harness failed:\n%s", slurp(err));
	const char *runv[] = {exe, f->name, "once", "0", NULL};
	assert_int_equal(spawn(runv, out, err), 0);
	char *text = slurp(err);
	parse_counts(text, c);
	free(text);
	kc_arena_release(&a);
}

static long long eval(const struct kc_function *f, const struct kc_poly *p)
{
	long long v = 0;
	const char *why;
	if (p && kc_function_eval(f, p, &v, &why) < 0)
		fail_msg("%s: %s", f->name, why);
	return v;
}

static int uses_library(const struct kc_function *f)
{
	for (int i = 0; i < f->n_nests; i++)
		if (f->nests[i].callee && !strncmp(f->nests[i].callee, "cblas_", 6))
			return 1;
	return 0;
}

/* Analyze `file` with the size overrides, and compare every exact function with its execution. */
static int check_file(const char *file, const char *const *sizes)
{
	struct kc_size_override ov[16];
	int n = 0;
	char names[16][32];
	for (; sizes[n]; n++) {
		assert_true(n < 16);
		const char *eq = strchr(sizes[n], '=');
		snprintf(names[n], sizeof names[n], "%.*s", (int)(eq - sizes[n]), sizes[n]);
		ov[n].name = names[n];
		ov[n].value = atoll(eq + 1);
	}
	struct kc_analysis an = {0};
	struct kc_analyze_opts o = {.sizes = ov, .n_sizes = n, .include_dir = KCOST_SOURCE_DIR "/annotations"};
	char abs[4200];
	snprintf(abs, sizeof abs, "%s/%s", KCOST_SOURCE_DIR, file);
	const char *files[] = {abs};
	assert_int_equal(kc_analyze(&an, files, 1, &o), 0);
	int checked = 0;
	for (int i = 0; i < an.n_functions; i++) {
		const struct kc_function *f = an.functions[i];
		if (f->skip || !f->exact || uses_library(f))
			continue; /* flagged functions say why; library calls use built-in models */
		struct counts c;
		count_dynamically(&an, f, file, scratch_dir("dynamic"), &c);
		for (int op = 0; op < KC_OP_N - 1; op++)
			for (int p = 0; p < KC_PREC_N; p++)
				if ((long long)c.ops[op][p] != eval(f, f->cost.ops[op][p]))
					fail_msg("%s %s: %s %s executed %llu, kcost says %lld", file, f->name,
					         kc_op_name(op), kc_prec_name(p), c.ops[op][p],
					         eval(f, f->cost.ops[op][p]));
		for (int t = 0; t < N_TRANS; t++) {
			long long expected = 0;
			for (const struct kc_named_count *nc = f->cost.transcendentals; nc; nc = nc->next)
				if (!strcmp(nc->name, transcendental[t]))
					expected = eval(f, nc->count);
			if ((long long)c.trans[t] != expected)
				fail_msg("%s %s: %s called %llu times, kcost says %lld", file, f->name,
				         transcendental[t], c.trans[t], expected);
		}
		checked++;
	}
	kc_analysis_release(&an);
	return checked;
}

#define SIZES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Two sets of sizes per sample, small enough for an unoptimized, instrumented run. */
static void gelu(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/gelu.c", SIZES("n=1000")), 2);
	assert_int_equal(check_file("samples/gelu.c", SIZES("n=1237")), 2);
}
static void vecadd(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/vecadd.c", SIZES("n=1001")), 2);
	assert_int_equal(check_file("samples/vecadd.c", SIZES("n=1003")), 2);
}
static void matmul(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/matmul.c", SIZES("m=33", "n=17", "k=70")), 3);
	assert_int_equal(check_file("samples/matmul.c", SIZES("m=64", "n=65", "k=66")), 3);
}
static void matmul_tanh(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/matmul_tanh.c", SIZES("m=32", "k=16", "n=8")), 2);
	assert_int_equal(check_file("samples/matmul_tanh.c", SIZES("m=48", "k=24", "n=12")), 2);
}
static void softmax(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/softmax.c", SIZES("rows=5", "cols=31")), 2);
	assert_int_equal(check_file("samples/softmax.c", SIZES("rows=8", "cols=64")), 2);
}
static void layernorm(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/layernorm.c", SIZES("rows=5", "cols=31")), 1);
	assert_int_equal(check_file("samples/layernorm.c", SIZES("rows=9", "cols=64")), 1);
}
static void conv2d(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/conv2d.c", SIZES("C=3", "H=10", "W=12", "K=4", "R=3", "S=2")), 1);
	assert_int_equal(check_file("samples/conv2d.c", SIZES("C=2", "H=9", "W=9", "K=3", "R=2", "S=3")), 1);
}
static void jacobi2d(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/jacobi2d.c", SIZES("tsteps=3", "n=20")), 1);
	assert_int_equal(check_file("samples/jacobi2d.c", SIZES("tsteps=2", "n=33")), 1);
}
static void spmv(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/spmv.c", SIZES("n=100", "nnz=1000")), 1);
	assert_int_equal(check_file("samples/spmv.c", SIZES("n=64", "nnz=777")), 1);
}
static void mlp(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/mlp.c", SIZES("m=8", "k=16", "n=12")), 4);
	assert_int_equal(check_file("samples/mlp.c", SIZES("m=5", "k=7", "n=9")), 4);
}
static void loop_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/counting.c", SIZES("n=37", "w=5")), 4);
	assert_int_equal(check_file("tests/fixtures/counting.c", SIZES("n=20", "w=7")), 4);
}
static void div_forms(void **s)
{
	(void)s;
	/* const_div, quarters, signed_div, heads, layernorm_btc, products, literal_math, ternary_free, conv_rows,
	 * conv_rows_strided, negative_divisor, unsigned_wrap (n - 10 >= 0 here), scale_row, rows_call, rows_alias,
	 * rows_2d */
	assert_int_equal(check_file("tests/fixtures/div_forms.c",
	                            SIZES("n=37", "m=3", "w=6", "B=2", "T=3", "C=10", "h=5", "stride=3")),
	                 16);
	assert_int_equal(
	    check_file("tests/fixtures/div_forms.c", SIZES("n=42", "m=11", "w=2", "B=3", "T=2", "C=7", "ch=2", "k=3")),
	    16);
}
static void trsv(void **s)
{
	(void)s;
	assert_int_equal(check_file("samples/trsv.c", SIZES("n=50")), 2);
	assert_int_equal(check_file("samples/trsv.c", SIZES("n=73")), 2);
}

/* conditions on sizes, early returns, switch, callees guarded on their sizes, equality guards, locals holding a
 * min: every function but those kcost flags (the two switches; clipped's footprint, the hull of min(n, m)),
 * at two sets of flags */
static void cond_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/cond_forms.c",
	                            SIZES("n=37", "forward=1", "m=3", "k=4", "TA=1", "TB=0", "B=3", "T=5", "kind=1")),
	                 11);
	assert_int_equal(check_file("tests/fixtures/cond_forms.c",
	                            SIZES("n=20", "forward=0", "m=5", "k=2", "TA=0", "TB=0", "B=4", "T=6", "kind=0")),
	                 11);
}

/* induction variables, pointer walks, a size counting down, while loops as for loops, reference-BLAS level 2,
 * assigned sizes: the eleven kcost counts */
static void walk_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/walk_forms.c", SIZES("n=37", "incx=2", "incy=3", "lda=5", "m=9",
	                                                                 "rows=6", "cols=7", "ldb=8", "inc=3")),
	                 11);
	assert_int_equal(check_file("tests/fixtures/walk_forms.c", SIZES("n=20", "incx=1", "incy=4", "lda=12", "m=11",
	                                                                 "rows=3", "cols=5", "ldb=4", "inc=2")),
	                 11);
}

/* branches that change no count, NULL tests, compound assignments computed in double: all but clamp_negative */
static void branch_forms(void **s)
{
	(void)s;
	assert_int_equal(check_file("tests/fixtures/branch_forms.c", SIZES("n=37")), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(gelu),         cmocka_unit_test(vecadd),     cmocka_unit_test(matmul),
	    cmocka_unit_test(matmul_tanh),  cmocka_unit_test(softmax),    cmocka_unit_test(layernorm),
	    cmocka_unit_test(conv2d),       cmocka_unit_test(jacobi2d),   cmocka_unit_test(spmv),
	    cmocka_unit_test(mlp),          cmocka_unit_test(trsv),       cmocka_unit_test(loop_forms),
	    cmocka_unit_test(div_forms),    cmocka_unit_test(cond_forms), cmocka_unit_test(walk_forms),
	    cmocka_unit_test(branch_forms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
