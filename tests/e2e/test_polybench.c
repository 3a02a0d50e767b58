/* test_polybench.c — the dynamic ground truth (dynamic.c) on PolyBench/C 4.2.1, and on the checker itself.
 *
 *   test_polybench [SIZE...]     SIZE: MINI, SMALL, MEDIUM, LARGE, EXTRALARGE (default: MINI SMALL)
 *
 * First the checker's own tests (they need nothing outside the tree): a file whose every transcendental form,
 * fma, contracted multiply-add and decrement it must count, a KCOST_TRIPS that lies (the checker must call it
 * exact-wrong), and build/ground-truth on a manifest with relative paths. Then, for each SIZE, every benchmark of
 * PolyBench/C 4.2.1, unmodified, with
 * `-D<SIZE>_DATASET -I utilities` and no size override (the sizes come from each file's main): every kernel_*
 * function must be exact-right (deriche's too: its FLOPs do not depend on its data), no function at all
 * exact-wrong, and gemm's FLOPs are checked against its formula. PolyBench is looked for in $POLYBENCH, else
 * in ../shared/corpora/polybench next to the source tree; when it is absent (a user's clone has no ../shared)
 * those tests are skipped with a message saying so. MEDIUM is left to .ci/run (about a minute). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "dynamic.h"
#include "run.h"

#ifndef CLANG
#define CLANG "clang-19"
#endif

static char polybench[4096];
static int have_polybench;

/* ---- the checker's own tests ---- */

static const char self_header[] = "#define SCALE 3.0f\n";
static const char self_source[] =
    "#include <math.h>\n"
    "#include \"gt_self.h\"\n"
    "#include \"kcost.h\"\n"
    "\n"
    "void forms(int n, const float x[restrict n], double y[restrict n], long double z[restrict n])\n"
    "{\n"
    "\tfor (int i = 0; i < n; i++) {\n"
    "\t\ty[i] = exp2((double)x[i]) + cbrt(y[i]) * hypot(y[i], 2.0);\n"
    "\t\tz[i] = expl(z[i]) - __builtin_sqrtl(z[i]) + sqrtl(2.0L);\n"
    "\t\ty[i] += fma(y[i], 2.0, 1.0) + (double)fmaf(x[i], SCALE, 1.0f) + (double)__builtin_tanhf(x[i]);\n"
    "\t}\n"
    "}\n"
    "\n"
    "KCOST_TRIPS(j, 5 * n)\n"
    "void lie(int n, const float x[restrict n], float y[restrict n])\n"
    "{\n"
    "\tfor (int i = 0; i < n; i++)\n"
    "\t\tfor (int j = 0; j < (int)(x[i] * 2.0f); j++)\n"
    "\t\t\ty[i] += 1.0f;\n"
    "}\n"
    "\n"
    "#pragma float_control(precise, on, push)\n"
    "void contracted(int n, const float x[restrict n], float y[restrict n])\n"
    "{\n"
    "\tfor (int i = 0; i < n; i++)\n"
    "\t\ty[i] = x[i] * 2.0f + y[i];\n"
    "}\n"
    "#pragma float_control(pop)\n"
    "\n"
    "void steps(int n, double x[restrict n])\n"
    "{\n"
    "\tfor (int i = 0; i < n; i++) {\n"
    "\t\tx[i]--;\n"
    "\t\tx[i] = x[i] + -1.0;\n"
    "\t\t++x[i];\n"
    "\t}\n"
    "}\n";

static const char *write_self(void)
{
	const char *dir = scratch_dir("ground-truth-self");
	char path[4200];
	snprintf(path, sizeof path, "%s/inc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/src", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/inc/gt_self.h", dir);
	write_text(path, self_header);
	snprintf(path, sizeof path, "%s/src/self.c", dir);
	write_text(path, self_source);
	return dir;
}

static const struct kc_gt_result *result(const struct kc_gt_file *f, const char *name)
{
	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->results[i].function, name))
			return &f->results[i];
	fail_msg("no result for %s", name);
	return NULL;
}

static int trans_index(const char *name)
{
	const char *const *t = kc_gt_transcendentals();
	for (int i = 0; t[i]; i++)
		if (!strcmp(t[i], name))
			return i;
	fail_msg("%s is not among the transcendentals", name);
	return -1;
}

/* Every form kcost counts, counted; a lying annotation found out; relative paths resolved. */
static void checker_library(void **s)
{
	(void)s;
	const char *dir = write_self();
	char work[4200];
	snprintf(work, sizeof work, "%s/work", dir);
	const char *flags[] = {"-I", "inc"}; /* relative to base_dir */
	struct kc_size_override n = {"n", 37};
	struct kc_gt_opts o = {.flags = flags,
	                       .n_flags = 2,
	                       .sizes = &n,
	                       .n_sizes = 1,
	                       .base_dir = dir,
	                       .work_dir = work,
	                       .clang = CLANG,
	                       .include_dir = KCOST_SOURCE_DIR "/annotations"};
	struct kc_gt_file res;
	assert_int_equal(kc_gt_check_file("src/self.c", &o, &res), 0);
	assert_null(res.error);
	assert_int_equal(res.n, 4);

	const struct kc_gt_result *forms = result(&res, "forms");
	assert_int_equal(forms->cls, KC_GT_EXACT_RIGHT);
	assert_true(forms->counted);
	assert_string_equal(forms->sizes, "n=37");
	/* per element: 2 double ops + 2 long double + 3 double adds + fma, fmaf; sqrtl(2.0L) folds: not counted */
	assert_int_equal(forms->executed.ops[KC_OP_ADD][KC_PREC_F64], 4 * 37);
	assert_int_equal(forms->executed.ops[KC_OP_MUL][KC_PREC_F64], 37);
	assert_int_equal(forms->executed.ops[KC_OP_SUB][KC_PREC_F80], 37);
	assert_int_equal(forms->executed.ops[KC_OP_ADD][KC_PREC_F80], 37);
	assert_int_equal(forms->executed.ops[KC_OP_FMA][KC_PREC_F64], 37);
	assert_int_equal(forms->executed.ops[KC_OP_FMA][KC_PREC_F32], 37);
	const char *const called[] = {"exp2", "cbrt", "hypot", "expl", "sqrtl", "tanhf"};
	for (int i = 0; i < 6; i++)
		assert_int_equal(forms->executed.trans[trans_index(called[i])], 37);
	assert_int_equal(forms->executed.trans[trans_index("sqrt")], 0);

	/* x in [0.5, 1.5): the j loop runs 1 or 2 times per row, not the 5 the annotation claims */
	const struct kc_gt_result *lie = result(&res, "lie");
	assert_int_equal(lie->cls, KC_GT_EXACT_WRONG);
	assert_int_equal(lie->expected.ops[KC_OP_ADD][KC_PREC_F32], 5 * 37);
	assert_in_range(lie->executed.ops[KC_OP_ADD][KC_PREC_F32], 37, 2 * 37);
	assert_non_null(strstr(lie->detail, "add float executed "));
	assert_non_null(strstr(lie->detail, ", kcost says 185"));

	/* contraction on despite -ffp-contract=off: clang's llvm.fmuladd is the source's multiply and add */
	const struct kc_gt_result *contracted = result(&res, "contracted");
	assert_int_equal(contracted->cls, KC_GT_EXACT_RIGHT);
	assert_int_equal(contracted->executed.ops[KC_OP_MUL][KC_PREC_F32], 37);
	assert_int_equal(contracted->executed.ops[KC_OP_ADD][KC_PREC_F32], 37);
	assert_int_equal(contracted->executed.ops[KC_OP_FMA][KC_PREC_F32], 0);

	/* clang emits `x--` as an fadd of -1, as it does `x + -1.0`: the decrement is still a subtraction */
	const struct kc_gt_result *steps = result(&res, "steps");
	assert_int_equal(steps->cls, KC_GT_EXACT_RIGHT);
	assert_int_equal(steps->executed.ops[KC_OP_SUB][KC_PREC_F64], 37);
	assert_int_equal(steps->executed.ops[KC_OP_ADD][KC_PREC_F64], 2 * 37);
	kc_gt_file_release(&res);

	/* without the -I the file does not parse: the whole file is reported, not a function */
	o.n_flags = 0;
	assert_int_equal(kc_gt_check_file("src/self.c", &o, &res), 0);
	assert_non_null(res.error);
	assert_non_null(strstr(res.error, "gt_self.h"));
	assert_int_equal(res.n, 0);
	kc_gt_file_release(&res);
}

static char *run_capture(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	struct kc_buf b = KC_BUF_INIT;
	char chunk[4096];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, p)) > 0)
		kc_buf_add(&b, chunk, got);
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	kc_buf_puts(&b, "");
	return kc_buf_detach(&b);
}

/* build/ground-truth over a manifest: comments, sizes, relative -I in both spellings, the tally, exit 1. */
static void checker_manifest(void **s)
{
	(void)s;
	const char *dir = write_self();
	char path[4200], cmd[8600];
	snprintf(path, sizeof path, "%s/MANIFEST", dir);
	write_text(path, "# the checker's own test\n"
	                 "src/self.c n=8 -- -I inc   # sizes, then flags\n"
	                 "\n"
	                 "src/self.c n=5 -- -Iinc -DUNUSED=1\n");
	snprintf(cmd, sizeof cmd, "cd '%s/..' && '%s' ground-truth-self/MANIFEST", dir, GROUND_TRUTH_BIN);
	int status;
	char *out = run_capture(cmd, &status);
	assert_int_equal(status, 1); /* `lie` is exact-wrong */
	assert_non_null(
	    strstr(out, "exact-right ground-truth-self/src/self.c:5 forms FLOPs 88, transcendentals 48 at n=8\n"));
	assert_non_null(
	    strstr(out, "exact-right ground-truth-self/src/self.c:5 forms FLOPs 55, transcendentals 30 at n=5\n"));
	assert_non_null(strstr(out, "exact-wrong ground-truth-self/src/self.c:15 lie add float executed "));
	assert_non_null(strstr(out, "tally: 2 files, 8 functions: exact-right 6, exact-wrong 2, flagged 0, not-run 0, "
	                            "skipped 0\n"));
	free(out);

	/* a line whose sizes are not NAME=VALUE: exit 2, and the message names the line */
	write_text(path, "src/self.c n=8 -I inc\n");
	snprintf(cmd, sizeof cmd, "'%s' '%s/MANIFEST' 2>&1", GROUND_TRUTH_BIN, dir);
	out = run_capture(cmd, &status);
	assert_int_equal(status, 2);
	assert_non_null(strstr(out, "MANIFEST:1: `-I` is not NAME=VALUE (flags go after `--`)"));
	free(out);
}

/* ---- PolyBench ---- */

static char **pb_files;
static int n_pb_files;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	size_t n = strlen(path);
	if (type == FTW_F && n > 2 && !strcmp(path + n - 2, ".c") && !strstr(path, "/utilities/") &&
	    !(n > 7 && !strcmp(path + n - 7, ".orig.c"))) {
		pb_files = realloc(pb_files, sizeof *pb_files * (size_t)(n_pb_files + 1));
		pb_files[n_pb_files++] = strdup(path);
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* gemm's FLOPs, C = alpha*A*B + beta*C: ni*nj (the beta scaling) + 3*ni*nj*nk (alpha * A * B, then +=) */
static long long gemm_flops(const char *size)
{
	static const struct {
		const char *size;
		long long ni, nj, nk;
	} dims[] = {{"MINI", 20, 25, 30},
	            {"SMALL", 60, 70, 80},
	            {"MEDIUM", 200, 220, 240},
	            {"LARGE", 1000, 1100, 1200},
	            {"EXTRALARGE", 2000, 2300, 2600}};
	for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
		if (!strcmp(dims[i].size, size))
			return dims[i].ni * dims[i].nj + 3 * dims[i].ni * dims[i].nj * dims[i].nk;
	fail_msg("unknown PolyBench size %s", size);
	return 0;
}

static void polybench_at(void **state)
{
	const char *size = *state;
	if (!have_polybench) {
		/* a user's clone has no ../shared; CI (KCOST_REQUIRE_CORPORA=1, set by .ci/run) must not skip */
		const char *require = getenv("KCOST_REQUIRE_CORPORA");
		if (require && *require && strcmp(require, "0"))
			fail_msg("PolyBench/C 4.2.1 is absent (no %s/utilities) and KCOST_REQUIRE_CORPORA is set",
			         polybench);
		fprintf(stderr,
		        "test_polybench: PolyBench/C 4.2.1 is absent (no %s/utilities; ../shared is not next to this "
		        "clone; "
		        "set POLYBENCH=DIR): the %s check is skipped\n",
		        polybench, size);
		skip();
	}
	char define[64], utilities[4200];
	snprintf(define, sizeof define, "-D%s_DATASET", size);
	snprintf(utilities, sizeof utilities, "%s/utilities", polybench);
	const char *flags[] = {define, "-I", utilities};
	int kernels = 0, right = 0, gemm_checked = 0, wrong = 0;
	for (int i = 0; i < n_pb_files; i++) {
		char work[64];
		snprintf(work, sizeof work, "polybench-%s", size);
		struct kc_gt_opts o = {.flags = flags,
		                       .n_flags = 3,
		                       .work_dir = scratch_dir(work),
		                       .clang = CLANG,
		                       .include_dir = KCOST_SOURCE_DIR "/annotations"};
		struct kc_gt_file res;
		assert_int_equal(kc_gt_check_file(pb_files[i], &o, &res), 0);
		if (res.error)
			fail_msg("%s: %s", pb_files[i], res.error);
		const char *bench = strrchr(pb_files[i], '/') + 1;
		for (int k = 0; k < res.n; k++) {
			const struct kc_gt_result *r = &res.results[k];
			if (r->cls == KC_GT_EXACT_WRONG) {
				print_error("exact-wrong %s %s:%u %s %s\n", size, bench, r->line, r->function,
				            r->detail);
				wrong++;
			}
			if (strncmp(r->function, "kernel_", 7))
				continue;
			kernels++;
			printf("%-7s %-18s %-22s %-11s %s\n", size, bench, r->function, kc_gt_class_name(r->cls),
			       r->detail);
			if (r->cls == KC_GT_EXACT_RIGHT)
				right++;
			else
				fail_msg("%s %s %s: %s, not exact-right: %s", size, bench, r->function,
				         kc_gt_class_name(r->cls), r->detail);
			if (!strcmp(r->function, "kernel_gemm")) {
				long long flops =
				    r->executed.ops[KC_OP_ADD][KC_PREC_F64] + r->executed.ops[KC_OP_MUL][KC_PREC_F64];
				assert_int_equal(flops, gemm_flops(size));
				gemm_checked = 1;
			}
		}
		kc_gt_file_release(&res);
	}
	fflush(stdout);
	assert_int_equal(wrong, 0);
	assert_int_equal(n_pb_files, 30);
	assert_int_equal(kernels, 30);
	assert_int_equal(right, 30);
	assert_true(gemm_checked);
}

int main(int argc, char **argv)
{
	const char *env = getenv("POLYBENCH");
	snprintf(polybench, sizeof polybench, "%s",
	         env && *env ? env : KCOST_SOURCE_DIR "/../shared/corpora/polybench");
	char utilities[4200];
	snprintf(utilities, sizeof utilities, "%s/utilities", polybench);
	struct stat st;
	have_polybench = stat(utilities, &st) == 0 && S_ISDIR(st.st_mode);
	if (have_polybench) {
		char *real = realpath(polybench, NULL);
		if (real) {
			snprintf(polybench, sizeof polybench, "%s", real);
			free(real);
		}
		nftw(polybench, collect, 16, FTW_PHYS);
		qsort(pb_files, (size_t)n_pb_files, sizeof *pb_files, by_name);
	}

	static const char *const defaults[] = {"MINI", "SMALL"};
	const char *const *sizes = argc > 1 ? (const char *const *)argv + 1 : defaults;
	int n_sizes = argc > 1 ? argc - 1 : 2;
	if (n_sizes > 14) {
		fprintf(stderr, "test_polybench: at most 14 sizes (given %d)\n", n_sizes);
		return 2;
	}
	struct CMUnitTest tests[16] = {cmocka_unit_test(checker_library), cmocka_unit_test(checker_manifest)};
	static char names[16][48];
	int n = 2;
	for (int i = 0; i < n_sizes; i++, n++) {
		snprintf(names[n], sizeof names[n], "polybench_%s", sizes[i]);
		tests[n] = (struct CMUnitTest){names[n], polybench_at, NULL, NULL, (void *)sizes[i]};
	}
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	for (int i = 0; i < n_pb_files; i++)
		free(pb_files[i]);
	free(pb_files);
	return failed;
}
