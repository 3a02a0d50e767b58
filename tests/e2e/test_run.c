/* test_run.c — measurement through the built binary: kernels that crash, hang or allocate without bound
 * become diagnostics within the limits while the rest of the report stays intact; a measured sample gets
 * timings, an equivalence check and a labelled traffic figure; the harness's compiler gets every flag. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"

#define RUN(...) run_kcost((const char *const[]){__VA_ARGS__, NULL})

static int num_positive(cJSON *v)
{
	return cJSON_IsNumber(v) && v->valuedouble > 0;
}

static cJSON *fn_in(cJSON *rep, const char *file, const char *name)
{
	cJSON *f;
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(rep, "functions"))
	{
		cJSON *n = at(f, "name"), *fl = at(f, "file");
		if (cJSON_IsString(n) && !strcmp(n->valuestring, name) && cJSON_IsString(fl) &&
		    !strcmp(fl->valuestring, file))
			return f;
	}
	fail_msg("%s:%s not in the report", file, name);
	return NULL;
}

static void failing_kernels_become_diagnostics(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-failures");
	struct run r = RUN("--timeout", "3", "--time-budget", "0.05", "-o", out, "tests/fixtures/runner_segv.c",
	                   "tests/fixtures/runner_hang.c", "tests/fixtures/runner_alloc.c");
	assert_int_equal(r.status, 1);
	assert_non_null(
	    strstr(r.err, "tests/fixtures/runner_segv.c:13:6: error: crashed with SIGSEGV (segmentation fault)"));
	assert_non_null(strstr(r.err, "tests/fixtures/runner_hang.c:15:6: error: timed out after 3 s"));
	assert_non_null(strstr(r.err, "tests/fixtures/runner_alloc.c:18:6: error: could not allocate"));
	assert_non_null(strstr(r.err, "3 errors"));
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	const char *files[] = {"tests/fixtures/runner_segv.c", "tests/fixtures/runner_hang.c",
	                       "tests/fixtures/runner_alloc.c"};
	const char *bad[] = {"scale_segv", "scale_hang", "scale_leak"};
	for (int i = 0; i < 3; i++) {
		cJSON *ok = fn_in(rep, files[i], "scale_ok"), *ko = fn_in(rep, files[i], bad[i]);
		assert_true(cJSON_IsNull(at(ok, "measured.error")));
		assert_true(num_positive(at(ok, "measured.seconds.median")));
		assert_true(cJSON_IsString(at(ko, "measured.error")));
		/* the static analysis of a failing kernel is still there */
		assert_string_equal(at(ko, "flops.expr")->valuestring, "n");
	}
	cJSON_Delete(rep);
	run_release(&r);
}

static void gelu_is_measured_and_checked(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-gelu");
	struct run r = RUN("--time-budget", "0.1", "--size", "n=262144", "-o", out, "samples/gelu.c");
	assert_int_equal(r.status, 0);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *unfused = fn_in(rep, "samples/gelu.c", "gelu_unfused"),
	      *fused = fn_in(rep, "samples/gelu.c", "gelu_fused");
	/* equivalence with the declared reference */
	assert_string_equal(at(unfused, "measured.equivalent.reference")->valuestring, "gelu_fused");
	assert_true(cJSON_IsTrue(at(unfused, "measured.equivalent.ok")));
	assert_true(at(unfused, "measured.samples")->valuedouble >= 10);
	/* traffic is labelled with its source: hardware counters where the machine has them, else cachegrind */
	const char *source = at(fused, "measured.traffic.source")->valuestring;
	double dram = at(fused, "measured.traffic.bytes")->valuedouble;
	if (!strcmp(source, "cachegrind")) {
		/* one simulated cold call of the fused kernel moves x in and y out: 8 bytes per element, within 10%
		 * (the simulation starts cold whatever the machine's caches hold) */
		assert_true(fabs(dram / (8.0 * 262144) - 1) < 0.10);
	} else {
		/* counted on real hardware, what reaches DRAM depends on what the caches kept: only its unit */
		assert_string_equal(source, "counters");
		assert_true(dram >= 0);
	}
	/* the measured speedup of the fused form is stated next to the byte ratio */
	char path[8400];
	snprintf(path, sizeof path, "%s/summary.md", out);
	char *md = slurp(path);
	assert_non_null(md);
	assert_non_null(
	    strstr(md, "the streaming bytes of its reference **gelu\\_fused** (18.9 MB vs 2.1 MB); measured: "));
	/* slower or not depends on the machine's caches (both fit in a large last-level cache): the sentence
	 * gives the ratio either way */
	assert_true(strstr(md, "\xc3\x97 slower (") || strstr(md, "\xc3\x97 faster ("));
	free(md);
	/* the machine section names how its ceilings were measured */
	assert_non_null(strstr(at(rep, "machine.ceilings.flops.float.method")->valuestring, "cblas_sgemm"));
	cJSON_Delete(rep);
	run_release(&r);
}

static void threads_build_openmp_and_use_matching_ceilings(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-threads");
	struct run r =
	    RUN("--threads", "2", "--time-budget", "0.05", "--quiet", "-o", out, "tests/fixtures/omp_scale.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	/* the all-threads ceilings, measured with every core of this machine */
	assert_int_equal((int)at(rep, "machine.ceilings.flops.float.threads")->valuedouble,
	                 (int)at(rep, "machine.cores")->valuedouble);
	cJSON *f = fn_in(rep, "tests/fixtures/omp_scale.c", "scale_omp");
	assert_non_null(strstr(at(f, "measured.compiler")->valuestring, " -fopenmp "));
	assert_true(num_positive(at(f, "measured.seconds.median")));
	cJSON_Delete(rep);
}

/* The harness's compiler command has no word limit: 300 flags reach the compiler (240 did, silently, when the
 * command was a fixed array of 256), the last of them too. */
static void every_cflag_reaches_the_compiler(void **state)
{
	(void)state;
	const char *out = scratch_dir("run-cflags");
	char flags[8192] = "-O2";
	for (int i = 0; i < 300; i++)
		snprintf(flags + strlen(flags), sizeof flags - strlen(flags), " -DKC_FLAG_%d", i);
	struct run r = RUN("--cflags", flags, "--time-budget", "0.02", "--size", "n=4096", "--function", "^vecadd$",
	                   "--quiet", "-o", out, "samples/vecadd.c");
	assert_int_equal(r.status, 0);
	run_release(&r);
	cJSON *rep = load_report(out);
	assert_non_null(rep);
	cJSON *f = fn_in(rep, "samples/vecadd.c", "vecadd");
	const char *compiler = at(f, "measured.compiler")->valuestring;
	assert_non_null(strstr(compiler, " -DKC_FLAG_0 "));
	assert_non_null(strstr(compiler, " -DKC_FLAG_299 "));
	assert_true(num_positive(at(f, "measured.seconds.median")));
	cJSON_Delete(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(failing_kernels_become_diagnostics),
	    cmocka_unit_test(gelu_is_measured_and_checked),
	    cmocka_unit_test(threads_build_openmp_and_use_matching_ceilings),
	    cmocka_unit_test(every_cflag_reaches_the_compiler),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
