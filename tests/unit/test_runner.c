/* test_runner.c — the runner's pure parts: timing statistics, cachegrind output, counter arithmetic, the
 * generated harness of a hand-built function, its plan's errors and reference matching, the ceilings cache
 * key and file, working sets, child-status messages; and real children with limits, many at once. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "bandwidth.h"
#include "beside.h"
#include "build.h"
#include "cachegrind.h"
#include "ceilings.h"
#include "child.h"
#include "cleanup.h"
#include "counters.h"
#include "harness.h"
#include "harness/kcost_driver.h"
#include "peak.h"
#include "runner.h"
#include "sandbox.h"
#include "stats.h"

/* --- statistics ------------------------------------------------------------------------------------------ */

/* Half-precision latency chains are measured, not folded away: gcc proved the add chain (whose step is below the
 * accumulator's last place) a no-op and removed it, and 8.5e-20 s an add went into the ceilings. Whatever the
 * CPU, a latency is 0 (not measured: no F16C) or at least a cycle at 20 GHz; where the CPU has AVX512-FP16 or
 * F16C, it is measured. */
static void test_half_latency_measured(void **state)
{
	(void)state;
	double add = -1, madd = -1;
	const char *how = kc_peak_half_latency(0.02, &add, &madd);
	if (!how) {
		assert_true(add == 0 && madd == 0);
		return;
	}
	assert_true(add >= 5e-11 && add < 1e-6);
	assert_true(madd >= 5e-11 && madd < 1e-6);
}

static void test_stats_odd(void **state)
{
	(void)state;
	const double s[] = {5, 1, 4, 2, 3};
	struct kc_stats st;
	assert_int_equal(kc_stats_compute(s, 5, &st), 0);
	assert_int_equal(st.n, 5);
	assert_true(st.min == 1 && st.median == 3 && st.mean == 3);
	assert_true(st.p90 == 5);                         /* ceil(4.5) = 5th smallest */
	assert_true(fabs(st.cv - sqrt(2.0) / 3) < 1e-12); /* population stddev sqrt(2), mean 3 */
	assert_true(s[0] == 5 && s[4] == 3);              /* the input is left alone */
}

static void test_stats_even_and_ranks(void **state)
{
	(void)state;
	double s[20];
	for (int i = 0; i < 20; i++)
		s[i] = 20 - i; /* 20 .. 1 */
	struct kc_stats st;
	assert_int_equal(kc_stats_compute(s, 10, &st), 0); /* 20 .. 11 */
	assert_true(st.median == 15.5 && st.min == 11);
	assert_true(st.p90 == 19); /* 9th smallest of 11..20 */
	assert_int_equal(kc_stats_compute(s, 20, &st), 0);
	assert_true(st.median == 10.5 && st.p90 == 18); /* ceil(0.9 * 20) = 18, with no rounding to 19 */
}

static void test_stats_edges(void **state)
{
	(void)state;
	const double one = 0.25, zeros[3] = {0, 0, 0};
	struct kc_stats st = {0};
	assert_int_equal(kc_stats_compute(&one, 0, &st), -1);
	assert_int_equal(kc_stats_compute(&one, 1, &st), 0);
	assert_true(st.min == 0.25 && st.median == 0.25 && st.p90 == 0.25 && st.cv == 0);
	assert_int_equal(kc_stats_compute(zeros, 3, &st), 0);
	assert_true(st.cv == 0); /* mean 0: cv defined as 0, not NaN */
}

/* --- cachegrind --------------------------------------------------------------------------------------------- */

static const char cachegrind_out[] =
    "desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
    "desc: D1 cache:         49152 B, 64 B, 12-way associative\n"
    "desc: LL cache:         33554432 B, 64 B, 16-way associative\n"
    "cmd: ./harness-cg gelu_fused once 67108864\n"
    "events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
    "fl=/work/main/samples/gelu.c\n"
    "fn=gelu_fused\n"
    "64 4194304 0 0 4194304 262144 262144 0 0 0\n"
    "summary: 694487317 1436 1419 106281363 1312436 1312151 92288584 1835520 1835464\n";

static void test_cachegrind_parse(void **state)
{
	(void)state;
	struct kc_cachegrind c;
	const char *why = NULL;
	assert_int_equal(kc_cachegrind_parse(cachegrind_out, &c, &why), 0);
	assert_true(c.d1_size == 49152 && c.d1_line == 64 && c.d1_assoc == 12);
	assert_true(c.ll_size == 33554432 && c.ll_line == 64 && c.ll_assoc == 16);
	assert_true(c.ir == 694487317 && c.dr == 106281363 && c.dw == 92288584);
	assert_true(c.d1mr == 1312436 && c.d1mw == 1835520 && c.dlmr == 1312151 && c.dlmw == 1835464);
	assert_true(kc_cachegrind_dram_bytes(&c) == (1312151.0 + 1835464.0) * 64);
	assert_true(kc_cachegrind_l2_bytes(&c) == (1312436.0 + 1835520.0) * 64);
}

/* The short "LL:" spelling, events in another order, and the difference the runner takes. */
static void test_cachegrind_subtract_and_variants(void **state)
{
	(void)state;
	const char *none = "desc: D1: 32768 B, 64 B, 8-way associative\n"
	                   "desc: LL: 8388608 B, 64 B, 16-way associative\n"
	                   "events: DLmw DLmr D1mw D1mr Ir\n"
	                   "summary: 100 200 300 400 5000\n";
	const char *once = "desc: D1: 32768 B, 64 B, 8-way associative\n"
	                   "desc: LL: 8388608 B, 64 B, 16-way associative\n"
	                   "events: DLmw DLmr D1mw D1mr Ir\n"
	                   "summary: 1100 2200 3300 4400 9000\n";
	struct kc_cachegrind a, b;
	const char *why;
	assert_int_equal(kc_cachegrind_parse(none, &a, &why), 0);
	assert_int_equal(kc_cachegrind_parse(once, &b, &why), 0);
	assert_true(b.ll_size == 8388608 && b.ll_assoc == 16);
	assert_true(kc_cachegrind_dram_bytes(&b) - kc_cachegrind_dram_bytes(&a) == 3000.0 * 64);
	assert_true(kc_cachegrind_l2_bytes(&b) - kc_cachegrind_l2_bytes(&a) == 7000.0 * 64);
}

static void test_cachegrind_errors(void **state)
{
	(void)state;
	struct kc_cachegrind c;
	const char *why = NULL;
	assert_int_equal(kc_cachegrind_parse("desc: LL: 1 B, 64 B, 1-way\nevents: Ir\n", &c, &why), -1);
	assert_string_equal(why, "no summary line");
	assert_int_equal(kc_cachegrind_parse("summary: 1 2\n", &c, &why), -1);
	assert_string_equal(why, "no events line");
	assert_int_equal(kc_cachegrind_parse("events: Ir Dr\nsummary: 1\n", &c, &why), -1);
	assert_string_equal(why, "the summary line does not have one count per event");
}

static void test_cachegrind_ll_option(void **state)
{
	(void)state;
	char opt[64];
	long long sim;
	assert_int_equal(kc_cachegrind_ll_option(32LL << 20, 16, 64, opt, sizeof opt, &sim), 0);
	assert_string_equal(opt, "--LL=33554432,16,64");
	assert_true(sim == 32LL << 20);
	/* 30 MiB, 12-way: 40960 sets, rounded down to 32768 */
	assert_int_equal(kc_cachegrind_ll_option(30LL << 20, 12, 64, opt, sizeof opt, &sim), 0);
	assert_string_equal(opt, "--LL=25165824,12,64");
	assert_int_equal(kc_cachegrind_ll_option(0, 16, 64, opt, sizeof opt, &sim), -1);
}

/* --- counters ----------------------------------------------------------------------------------------------- */

static void test_counters(void **state)
{
	(void)state;
	assert_true(kc_counters_bytes(1000, 64) == 64000.0);
	assert_true(kc_counters_bytes(3LL << 40, 128) == 3.0 * 128 * (double)(1LL << 40)); /* no overflow */
	assert_true(kc_counters_bytes(-1, 64) == 0 && kc_counters_bytes(5, 0) == 0);
	char why[256] = "";
	int ok = kc_counters_available(why, sizeof why);
	assert_true(ok == 0 || ok == 1);
	assert_true(strlen(why) > 10);
	assert_non_null(strstr(why, "perf_event_open"));
}

/* --- harness ------------------------------------------------------------------------------------------------ */

/* saxpy(int n, float a, const float x[n], float y[n]) with n = 1000; y is in-out. */
static struct kc_function *saxpy(struct kc_arena *a, int n_has_value)
{
	struct kc_function *f = KC_NEW(a, struct kc_function);
	f->name = "saxpy";
	f->loc = (struct kc_loc){"k.c", 3, 6};
	f->syms.n = 1;
	f->syms.syms[0] = (struct kc_sym){.name = "n", .has_value = n_has_value, .value = 1000};
	f->syms.names[0] = "n";
	f->n_size_params = 1;
	f->buffers = KC_NEW_N(a, struct kc_buffer, 2);
	f->n_buffers = 2;
	f->buffers[0] = (struct kc_buffer){.name = "x",
	                                   .elem_type = "float",
	                                   .elem_size = 4,
	                                   .elem_class = KC_ELEM_FLOATING,
	                                   .extent = kc_poly_sym(a, 0),
	                                   .is_param = 1,
	                                   .role = KC_ROLE_INPUT};
	f->buffers[1] = (struct kc_buffer){.name = "y",
	                                   .elem_type = "float",
	                                   .elem_size = 4,
	                                   .elem_class = KC_ELEM_FLOATING,
	                                   .extent = kc_poly_sym(a, 0),
	                                   .is_param = 1,
	                                   .role = KC_ROLE_INOUT};
	f->params = KC_NEW_N(a, struct kc_param, 4);
	f->n_params = 4;
	f->params[0] = (struct kc_param){"n", "int", KC_PARAM_SIZE, 0, -1, 0, 0, 0};
	f->params[1] = (struct kc_param){"a", "float", KC_PARAM_SCALAR, -1, -1, 1, 1e-5, 0};
	f->params[2] = (struct kc_param){"x", "const float *", KC_PARAM_BUFFER, -1, 0, 0, 0, 0};
	f->params[3] = (struct kc_param){"y", "float *", KC_PARAM_BUFFER, -1, 1, 0, 0, 0};
	return f;
}

static void test_harness_source(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_function *f = saxpy(&a, 1);
	struct kc_harness_plan p;
	kc_harness_plan(&a, f, NULL, &p);
	assert_null(p.error);
	assert_int_equal(p.n_buffers, 2);
	assert_true(p.bytes == 8000 && p.buffers[1].is_output && !p.buffers[0].is_output);
	struct kc_buf b = KC_BUF_INIT;
	const char *why = NULL;
	assert_int_equal(kc_harness_source(&b, "/src/kernels/k.c", &p, 1, &why), 0);
	const char *src = kc_buf_str(&b);
	const char *def = strstr(src, "#define main kcost_user_main_\n");
	const char *inc = strstr(src, "#include \"/src/kernels/k.c\"\n");
	const char *undef = strstr(src, "#undef main\n");
	assert_true(def && inc && undef && def < inc && inc < undef);
	assert_non_null(strstr(src, "\tsaxpy((int)1000, (float)1e-05, kcost_b[0], kcost_b[1]);\n"));
	assert_non_null(strstr(src, "{\"x\", 1000ULL, 4ULL, KCOST_FLOATING, 0, kcost_fill_0, kcost_get_0},"));
	assert_non_null(strstr(src, "{\"y\", 1000ULL, 4ULL, KCOST_FLOATING, 1, kcost_fill_0, kcost_get_0},"));
	assert_non_null(strstr(src, "{\"saxpy\", kcost_call_0, 0, 0, 0, kcost_buffers_0, 2},"));
	assert_non_null(strstr(src, "return kcost_driver_main(argc, argv, kcost_functions,"));
	assert_int_equal(kc_harness_source(&b, "/odd\"name.c", &p, 1, &why), -1);
	assert_non_null(why);
	kc_buf_release(&b);
	kc_arena_release(&a);
}

/* More distinct element types than the old fixed table of 64 held: each still gets its own accessors, so no
 * buffer is left unfilled and unchecked. */
static void test_harness_many_types(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	enum { N = 70 };
	struct kc_harness_plan plans[N];
	for (int k = 0; k < N; k++) {
		struct kc_function *f = saxpy(&a, 1);
		f->buffers[0].elem_type = f->buffers[1].elem_type = kc_arena_printf(&a, "real%d", k);
		kc_harness_plan(&a, f, NULL, &plans[k]);
		assert_null(plans[k].error);
	}
	struct kc_buf b = KC_BUF_INIT;
	const char *why = NULL;
	assert_int_equal(kc_harness_source(&b, "/k.c", plans, N, &why), 0);
	const char *src = kc_buf_str(&b);
	assert_non_null(strstr(src, "static void kcost_fill_69(void *p, unsigned long long n, unsigned long long *s)\n"
	                            "{\n\treal69 *v = p;"));
	assert_non_null(strstr(src, "static const struct kcost_buffer kcost_buffers_69[] = {\n"
	                            "\t{\"x\", 1000ULL, 4ULL, KCOST_FLOATING, 0, kcost_fill_69, kcost_get_69},"));
	assert_null(strstr(src, "KCOST_FLOATING, 0, 0, 0}"));
	kc_buf_release(&b);
	kc_arena_release(&a);
}

static void test_harness_not_run(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_harness_plan p;
	kc_harness_plan(&a, saxpy(&a, 0), NULL, &p);
	assert_string_equal(p.error, "not run: size n has no benchmark value (annotate KCOST_SIZES or pass --size)");
	struct kc_function *f = saxpy(&a, 1);
	f->buffers[1].extent = NULL;
	kc_harness_plan(&a, f, NULL, &p);
	assert_string_equal(p.error, "not run: extent of y is unknown (annotate KCOST_EXTENT)");
	f = saxpy(&a, 1);
	f->buffers[0].elem_type = "float *";
	f->buffers[0].elem_class = KC_ELEM_POINTER;
	kc_harness_plan(&a, f, NULL, &p);
	assert_string_equal(p.error, "not run: buffer x holds pointers (float *), which the harness cannot fill");
	/* a plan with an error is left out of the source */
	struct kc_buf b = KC_BUF_INIT;
	const char *why;
	assert_int_equal(kc_harness_source(&b, "/k.c", &p, 1, &why), 0);
	assert_null(strstr(kc_buf_str(&b), "saxpy("));
	kc_buf_release(&b);
	kc_arena_release(&a);
}

static void test_harness_reference(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_function *f = saxpy(&a, 1), *ref = saxpy(&a, 1);
	f->reference = "saxpy_ref";
	ref->name = "saxpy_ref";
	/* the reference declares its parameters in another order: matched by name */
	struct kc_param swap = ref->params[2];
	ref->params[2] = ref->params[3];
	ref->params[3] = swap;
	struct kc_harness_plan p;
	kc_harness_plan(&a, f, ref, &p);
	assert_non_null(p.ref_args);
	assert_int_equal(p.n_ref_args, 4);
	assert_string_equal(p.ref_args[2], "kcost_b[1]");
	assert_string_equal(p.ref_args[3], "kcost_b[0]");
	struct kc_buf b = KC_BUF_INIT;
	const char *why;
	kc_harness_source(&b, "/k.c", &p, 1, &why);
	assert_non_null(strstr(kc_buf_str(&b), "\tsaxpy_ref((int)1000, (float)1e-05, kcost_b[1], kcost_b[0]);\n"));
	assert_non_null(strstr(kc_buf_str(&b), "kcost_ref_0, \"saxpy_ref\", "));
	kc_buf_release(&b);
	ref->params[3].name = "z";
	kc_harness_plan(&a, f, ref, &p);
	assert_null(p.ref_args);
	assert_string_equal(
	    p.reference_note,
	    "reference saxpy_ref not checked: incompatible signature: saxpy has no parameter named 'z'");
	kc_harness_plan(&a, f, NULL, &p);
	assert_null(p.ref_args);
	assert_non_null(strstr(p.reference_note, "was not analyzed"));
	kc_arena_release(&a);
}

/* --- ceilings ----------------------------------------------------------------------------------------------- */

static void test_ceilings_key(void **state)
{
	(void)state;
	char k1[17], k2[17], k3[17], k4[17], again[17];
	kc_ceilings_key("AMD EPYC", "fpu sse avx512f", 2, k1);
	kc_ceilings_key("AMD EPYC", "fpu sse avx512f", 2, again);
	kc_ceilings_key("AMD EPYC", "fpu sse avx512f", 4, k2);
	kc_ceilings_key("AMD EPYC", "fpu sse", 2, k3);
	kc_ceilings_key("Intel Xeon", "fpu sse avx512f", 2, k4);
	assert_int_equal(strlen(k1), 16);
	assert_int_equal(strspn(k1, "0123456789abcdef"), 16);
	assert_string_equal(k1, again);
	assert_true(strcmp(k1, k2) && strcmp(k1, k3) && strcmp(k1, k4));
	char path[256];
	kc_ceilings_cache_path("/home/u/.cache/kcost", k1, path, sizeof path);
	char want[256];
	snprintf(want, sizeof want, "/home/u/.cache/kcost/ceilings-%s.json", k1);
	assert_string_equal(path, want);
}

static void test_ceilings_default_dir(void **state)
{
	(void)state;
	char dir[256];
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *saved_xdg = xdg ? strdup(xdg) : NULL, *saved_home = home ? strdup(home) : NULL;
	setenv("XDG_CACHE_HOME", "/var/cache/me", 1);
	assert_int_equal(kc_ceilings_default_dir(dir, sizeof dir), 0);
	assert_string_equal(dir, "/var/cache/me/kcost");
	setenv("XDG_CACHE_HOME", "relative", 1); /* not absolute: ignored, as the XDG spec says */
	setenv("HOME", "/home/u", 1);
	assert_int_equal(kc_ceilings_default_dir(dir, sizeof dir), 0);
	assert_string_equal(dir, "/home/u/.cache/kcost");
	saved_xdg ? setenv("XDG_CACHE_HOME", saved_xdg, 1) : unsetenv("XDG_CACHE_HOME");
	saved_home ? setenv("HOME", saved_home, 1) : unsetenv("HOME");
	free(saved_xdg);
	free(saved_home);
}

static void test_ceilings_json_roundtrip(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_machine m = {.cpu = "AMD EPYC",
	                       .cores = 2,
	                       .cache_bytes = {49152, 1 << 20, 32 << 20},
	                       .cache_line = 64,
	                       .cache_ll_assoc = 16,
	                       .cache_source = "sysfs",
	                       .flops_f32 = {104.9, 1, "cblas_sgemm n=1536, best of 3, 1 thread"},
	                       .measured_at = "2026-01-02T03:04:05Z",
	                       .measure_seconds = 3.5};
	m.bandwidth[KC_LEVEL_DRAM] = (struct kc_ceiling){44.1, 1, "triad 128 MiB working set"};
	m.bandwidth_median[KC_LEVEL_DRAM] = 40.5;
	m.bandwidth_median[KC_LEVEL_L1] = 300; /* no best in L1: not a median of its batches */
	m.bandwidth[KC_LEVEL_L3] = (struct kc_ceiling){100, 1, "copy 8 MiB"};
	m.bandwidth_median[KC_LEVEL_L3] = 0.05; /* below a thousandth of its best: not one of its batches */
	m.stream[KC_LEVEL_L2][KC_STREAM_COPY] = 250, m.stream_median[KC_LEVEL_L2][KC_STREAM_COPY] = 180;
	m.stream[KC_LEVEL_L2][KC_STREAM_LOAD] = 240, m.stream_median[KC_LEVEL_L2][KC_STREAM_LOAD] = 260;
	m.dense_f64 = (struct kc_ceiling){41.5, 1, "cblas_dgemm n=1536"};
	m.peak[1][KC_ISA_AVX2][1] = (struct kc_ceiling){48.7, 1, "kcost peak kernel: AVX2 double FMA"};
	m.peak[0][KC_ISA_AVX512][0] = (struct kc_ceiling){0, 1, "not run: the CPU has no AVX-512"};
	m.latency_add[1] = 1e-9, m.latency_fma[0] = 1.25e-9;
	struct kc_libm_cost libm[2] = {{"tanhf", 2.5e-8, 3e-8, "scalar calls"}, {"exp", 6e-9, 5e-9, "scalar calls"}};
	m.libm = libm, m.n_libm = 2;
	m.blas_note = "OpenBLAS chose Prescott kernels on this CPU";
	m.column_store[KC_LEVEL_L1] = 2.5e-10, m.column_store_median[KC_LEVEL_L1] = 2.6e-10;
	m.column_store[KC_LEVEL_L3] = 6e-9, m.column_store_median[KC_LEVEL_L3] = 5e-9; /* below its best */
	m.column_store[KC_LEVEL_DRAM] = 8e-9, m.column_store_median[KC_LEVEL_DRAM] = 9e-9;
	m.column_method = "a transpose's stores";
	m.latency_half_add = 2.2e-9, m.latency_half_madd = 2.5e-9, m.latency_half_how = "converted (F16C)";
	cJSON *j = kc_ceilings_to_json(&m, "0123456789abcdef");
	struct kc_machine back;
	assert_int_equal(kc_ceilings_from_json(&a, j, "0123456789abcdef", &back), 0);
	assert_string_equal(back.cpu, "AMD EPYC");
	assert_true(back.cores == 2 && back.cache_bytes[2] == 32 << 20 && back.cached == 1);
	assert_true(back.flops_f32.value == 104.9 && back.flops_f32.threads == 1);
	assert_string_equal(back.bandwidth[KC_LEVEL_DRAM].method, "triad 128 MiB working set");
	assert_string_equal(back.measured_at, "2026-01-02T03:04:05Z");
	/* the medians come back; one above its best is not a median of those batches (0: the best is used) */
	assert_true(back.bandwidth_median[KC_LEVEL_DRAM] == 40.5 && back.bandwidth_median[KC_LEVEL_L1] == 0);
	assert_true(back.bandwidth[KC_LEVEL_L3].value == 100 && back.bandwidth_median[KC_LEVEL_L3] == 0);
	assert_true(back.stream_median[KC_LEVEL_L2][KC_STREAM_COPY] == 180);
	assert_true(back.stream[KC_LEVEL_L2][KC_STREAM_LOAD] == 240 &&
	            back.stream_median[KC_LEVEL_L2][KC_STREAM_LOAD] == 0);
	assert_true(back.dense_f64.value == 41.5 && back.peak[1][KC_ISA_AVX2][1].value == 48.7);
	assert_string_equal(back.peak[0][KC_ISA_AVX512][0].method, "not run: the CPU has no AVX-512");
	assert_true(back.latency_add[1] == 1e-9 && back.latency_fma[0] == 1.25e-9 && back.latency_fma[1] == 0);
	assert_int_equal(back.n_libm, 2);
	assert_true(kc_machine_libm(&back, "tanhf")->seconds == 2.5e-8 && kc_machine_libm(&back, "expf") == NULL);
	assert_true(kc_machine_libm(&back, "tanhf")->median == 3e-8);
	assert_true(kc_machine_libm(&back, "exp")->median == 0); /* below its best: not a median of its runs */
	assert_string_equal(back.blas_note, "OpenBLAS chose Prescott kernels on this CPU");
	/* the column stores come back; a level whose median is below its best is dropped, and one never measured is 0
	 */
	assert_true(back.column_store[KC_LEVEL_L1] == 2.5e-10 && back.column_store_median[KC_LEVEL_L1] == 2.6e-10);
	assert_true(back.column_store[KC_LEVEL_L3] == 0 && back.column_store_median[KC_LEVEL_L3] == 0);
	assert_true(back.column_store[KC_LEVEL_DRAM] == 8e-9 && back.column_store_median[KC_LEVEL_DRAM] == 9e-9);
	assert_true(back.column_store[KC_LEVEL_L2] == 0);
	assert_string_equal(back.column_method, "a transpose's stores");
	assert_true(back.latency_half_add == 2.2e-9 && back.latency_half_madd == 2.5e-9);
	assert_string_equal(back.latency_half_how, "converted (F16C)");
	cJSON *v6 = cJSON_Duplicate(j, 1); /* version 6 has neither: read, without them */
	cJSON_DeleteItemFromObject(v6, "column_stores");
	cJSON_DeleteItemFromObject(cJSON_GetObjectItemCaseSensitive(v6, "latency_seconds"), "half");
	cJSON_ReplaceItemInObject(v6, "kcost_ceilings", cJSON_CreateNumber(6));
	assert_int_equal(kc_ceilings_from_json(&a, v6, NULL, &back), 0);
	assert_true(back.column_store_median[KC_LEVEL_DRAM] == 0 && back.column_method == NULL);
	assert_true(back.latency_half_add == 0 && back.latency_half_how == NULL);
	cJSON_Delete(v6);
	assert_int_equal(kc_ceilings_from_json(&a, j, "0123456789abcdef", &back), 0);
	assert_int_equal(kc_ceilings_from_json(&a, j, "fedcba9876543210", &back), -1); /* another machine's */
	cJSON *old = cJSON_Duplicate(j, 1); /* a version-1 file (no peaks): measured again */
	cJSON_ReplaceItemInObject(old, "kcost_ceilings", cJSON_CreateNumber(1));
	assert_int_equal(kc_ceilings_from_json(&a, old, "0123456789abcdef", &back), -1);
	cJSON_Delete(old);
	cJSON_Delete(j);
	kc_arena_release(&a);
}

static void test_working_sets(void **state)
{
	(void)state;
	long long ws[KC_LEVEL_N];
	const long long zen[3] = {48 << 10, 1 << 20, 32 << 20};
	kc_ceilings_working_sets(zen, ws);
	assert_true(ws[KC_LEVEL_L1] == 24 << 10 && ws[KC_LEVEL_L2] == 512 << 10);
	assert_true(ws[KC_LEVEL_L3] == 8 << 20 && ws[KC_LEVEL_DRAM] == 128LL << 20);
	const long long no_l3[3] = {32 << 10, 256 << 10, 0};
	kc_ceilings_working_sets(no_l3, ws);
	assert_true(ws[KC_LEVEL_L3] == 0 && ws[KC_LEVEL_DRAM] == 64LL << 20); /* at least 64 MiB */
	const long long huge[3] = {48 << 10, 2 << 20, 1LL << 30};
	kc_ceilings_working_sets(huge, ws);
	assert_true(ws[KC_LEVEL_L3] == 256LL << 20 && ws[KC_LEVEL_DRAM] == 1LL << 30); /* at most 1 GiB */
	char note[200];
	assert_true(kc_cpu_plausible_l3(508LL << 20, "sysconf (CPUID)", note, sizeof note) == KC_CPU_ASSUMED_L3);
	assert_non_null(strstr(note, "508 MiB"));
	assert_true(kc_cpu_plausible_l3(508LL << 20, "sysfs", note, sizeof note) == 508LL << 20);
	assert_string_equal(note, "");
}

/* The rows of each level's column walk: 4 times what the level above keeps of a column of rows 4 KiB apart (a
 * 64th of its lines), where this level keeps it within half of its own; DRAM's twice what the largest cache
 * keeps, 64 MiB to 1 GiB of rows (also without any cache size); L1's a 16th of its lines (without conflicts). */
static void test_column_rows(void **state)
{
	(void)state;
	long long rows[KC_LEVEL_N];
	const long long zen[3] = {48 << 10, 1 << 20, 32 << 20};
	kc_column_rows(zen, rows);
	assert_true(rows[KC_LEVEL_L1] == 48 && rows[KC_LEVEL_L2] == 48 && rows[KC_LEVEL_L3] == 1024);
	assert_true(rows[KC_LEVEL_DRAM] == 16384);              /* 64 MiB */
	const long long small_l2[3] = {32 << 10, 256 << 10, 0}; /* 8 x L1 fits; no L3: DRAM at its floor */
	kc_column_rows(small_l2, rows);
	assert_true(rows[KC_LEVEL_L1] == 32 && rows[KC_LEVEL_L2] == 32 && rows[KC_LEVEL_L3] == 0);
	assert_true(rows[KC_LEVEL_DRAM] == 16384);
	const long long close[3] = {48 << 10, 256 << 10, 0}; /* L2 under 8 x L1: it cannot be singled out */
	kc_column_rows(close, rows);
	assert_true(rows[KC_LEVEL_L2] == 0 && rows[KC_LEVEL_DRAM] == 16384);
	const long long huge[3] = {48 << 10, 2 << 20, 1LL << 30}; /* 2 GiB of rows: 1 GiB */
	kc_column_rows(huge, rows);
	assert_true(rows[KC_LEVEL_L3] == 2048 && rows[KC_LEVEL_DRAM] == 262144);
	const long long mid[3] = {48 << 10, 2 << 20, 96 << 20};
	kc_column_rows(mid, rows);
	assert_true(rows[KC_LEVEL_DRAM] == 49152); /* 192 MiB */
	const long long none[3] = {0, 0, 0};
	kc_column_rows(none, rows);
	assert_true(rows[KC_LEVEL_L1] == 0 && rows[KC_LEVEL_L2] == 0 && rows[KC_LEVEL_L3] == 0 &&
	            rows[KC_LEVEL_DRAM] == 16384);
	struct kc_column col;
	const long long nothing[KC_LEVEL_N] = {0, 0, 0, 0};
	assert_int_equal(kc_column_measure(nothing, 0.01, &col), -1);
	/* a small walk is measured: a positive time per store; the levels without rows are not */
	const long long tiny[KC_LEVEL_N] = {16, 0, 0, 0};
	assert_int_equal(kc_column_measure(tiny, 0.01, &col), 0);
	assert_true(col.best[KC_LEVEL_L1] > 0 && col.batches[KC_LEVEL_L1] >= 1 && col.rows[KC_LEVEL_L1] == 16);
	assert_true(col.best[KC_LEVEL_L2] == 0 && col.median[KC_LEVEL_DRAM] == 0 && col.rows[KC_LEVEL_L3] == 0);
}

/* --- child status --------------------------------------------------------------------------------------------- */

static void test_status_messages(void **state)
{
	(void)state;
	char buf[128];
	assert_string_equal(kc_child_describe(0, 0, 1, SIGSEGV, 0, 60, 61, buf, sizeof buf),
	                    "crashed with SIGSEGV (segmentation fault)");
	assert_string_equal(kc_child_describe(0, 0, 1, SIGFPE, 0, 60, 61, buf, sizeof buf),
	                    "crashed with SIGFPE (arithmetic exception)");
	assert_string_equal(kc_child_describe(0, 0, 1, SIGKILL, 1, 60, 61, buf, sizeof buf), "timed out after 60 s");
	assert_string_equal(kc_child_describe(0, 0, 1, SIGXCPU, 0, 60, 61, buf, sizeof buf),
	                    "exceeded the CPU-time limit of 61 s");
	assert_string_equal(kc_child_describe(1, 3, 0, 0, 0, 60, 61, buf, sizeof buf), "exited with status 3");
	assert_null(kc_child_describe(1, 0, 0, 0, 0, 60, 61, buf, sizeof buf));
	assert_string_equal(kc_child_signal_name(SIGBUS), "SIGBUS");
}

static void test_failure_messages(void **state)
{
	(void)state;
	char buf[256];
	char out[] = "{\"function\":\"f\",\"mode\":\"time\",\"error\":\"alloc\",\"bytes\":67108864}\n", err[] = "";
	struct kc_child_result r = {.exited = 1, .exit_code = KCOST_EXIT_ALLOC, .out = err, .err = err, .result = out};
	struct kc_child_limits lim = {60, 61, 2LL << 30, NULL};
	assert_string_equal(kc_child_failure(&r, &lim, buf, sizeof buf),
	                    "exceeded the memory limit of 2.0 GiB (could not allocate 67108864 bytes)");
	char err2[] = "kcost harness: no such function in this harness\nusage: ...\n";
	struct kc_child_result u = {.exited = 1, .exit_code = KCOST_EXIT_USAGE, .out = err, .err = err2};
	assert_string_equal(
	    kc_child_failure(&u, &lim, buf, sizeof buf),
	    "exited with status 85; its stderr began: \"kcost harness: no such function in this harness\"");
	/* a kernel's stderr is quoted escaped (control characters, quotes, non-ASCII such as a bidi override) */
	char err3[] = "tab\there \"q\" \xe2\x80\xae\x1b[31m\n";
	struct kc_child_result e = {.exited = 1, .exit_code = 3, .out = err, .err = err3};
	assert_string_equal(
	    kc_child_failure(&e, &lim, buf, sizeof buf),
	    "exited with status 3; its stderr began: \"tab\\x09here \\x22q\\x22 \\xe2\\x80\\xae\\x1b[31m\"");
	struct kc_child_result ok = {.exited = 1, .out = out, .err = err};
	assert_null(kc_child_failure(&ok, &lim, buf, sizeof buf));
	/* one fixed limit, whatever the kernel allocates: half the machine's memory, at least 2 GiB */
	assert_true(kc_child_default_memory_limit() >= 2LL << 30);
	assert_string_equal(kc_child_format_bytes(512LL << 20, buf, sizeof buf), "512 MiB");
	assert_string_equal(kc_child_format_bytes(3LL << 29, buf, sizeof buf), "1.5 GiB");
}

static void test_compiler_lines_and_flags(void **state)
{
	(void)state;
	char line[128];
	kc_child_first_error_line("In file included from harness.c:4:\n"
	                          "k.c:7:3: error: unknown type name 'flaot'\n"
	                          "    7 |   flaot x;\n",
	                          line, sizeof line);
	assert_string_equal(line, "k.c:7:3: error: unknown type name 'flaot'");
	kc_child_first_error_line("\n  \nld: cannot find -lfoo\n", line, sizeof line);
	assert_string_equal(line, "ld: cannot find -lfoo");
	char longer[300];
	memset(longer, 'x', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	kc_child_first_error_line(longer, line, sizeof line); /* cut, and said to be */
	assert_int_equal(strlen(line), sizeof line - 1);
	assert_string_equal(line + sizeof line - 4, "...");
	struct kc_arena a = KC_ARENA_INIT;
	int n;
	const char **words = kc_build_split_flags(&a, "  -O3\t-march=native  -DX=1 ", &n);
	assert_int_equal(n, 3);
	assert_string_equal(words[0], "-O3");
	assert_string_equal(words[2], "-DX=1");
	assert_null(words[3]);
	words = kc_build_split_flags(&a, " \t", &n);
	assert_int_equal(n, 0);
	assert_null(words[0]);
	/* no cap on the number of words: 300 flags come back whole */
	struct kc_buf many = KC_BUF_INIT;
	for (int i = 0; i < 300; i++)
		kc_buf_printf(&many, " -DF%d", i);
	words = kc_build_split_flags(&a, kc_buf_str(&many), &n);
	assert_int_equal(n, 300);
	assert_string_equal(words[299], "-DF299");
	kc_buf_release(&many);
	kc_arena_release(&a);
	const char *cmd[] = {"cc", "-O3", "-DNAME=a b", "it's.c", NULL};
	char *s = kc_child_command_string(cmd);
	assert_string_equal(s, "cc -O3 '-DNAME=a b' 'it'\\''s.c'");
	free(s);
}

/* --- spawning real children ------------------------------------------------------------------------------------ */

static void test_child_capture(void **state)
{
	(void)state;
	const char *argv[] = {"sh", "-c", "echo out; echo err >&2; echo $KC_TEST_VAR; exit 3", NULL};
	const char *env[] = {"KC_TEST_VAR=from-kcost", NULL};
	struct kc_child_result r;
	char msg[256];
	assert_int_equal(kc_child_run(argv, "/", env, NULL, &r, msg, sizeof msg), 0);
	assert_true(r.exited && r.exit_code == 3 && !r.signaled && !r.timed_out);
	assert_string_equal(r.out, "out\nfrom-kcost\n");
	assert_string_equal(r.err, "err\n");
	kc_child_result_release(&r);
	const char *missing[] = {"kcost-no-such-program", NULL};
	assert_int_equal(kc_child_run(missing, NULL, NULL, NULL, &r, msg, sizeof msg), -1);
	assert_string_equal(msg, "could not run kcost-no-such-program: No such file or directory");
	kc_child_result_release(&r);
}

static void test_child_limits(void **state)
{
	(void)state;
	char msg[256], buf[128];
	struct kc_child_result r;
	const char *segv[] = {"sh", "-c", "kill -SEGV $$", NULL};
	assert_int_equal(kc_child_run(segv, NULL, NULL, NULL, &r, msg, sizeof msg), 0);
	assert_string_equal(kc_child_result_describe(&r, NULL, buf, sizeof buf),
	                    "crashed with SIGSEGV (segmentation fault)");
	kc_child_result_release(&r);
	const char *hang[] = {"sleep", "30", NULL};
	struct kc_child_limits lim = {0.2, 0, 0, NULL};
	assert_int_equal(kc_child_run(hang, NULL, NULL, &lim, &r, msg, sizeof msg), 0);
	assert_true(r.timed_out && r.seconds < 29); /* killed at the limit, not waited for: however slow the machine */
	assert_string_equal(kc_child_result_describe(&r, &lim, buf, sizeof buf), "timed out after 0.2 s");
	kc_child_result_release(&r);
}

/* More jobs at once than the stack's poll table holds: every pipe is still read, every job reaped. */
static void test_child_many_jobs(void **state)
{
	(void)state;
	enum { N = 40 };
	struct kc_child_job jobs[N];
	char msg[256], script[N][64];
	for (int i = 0; i < N; i++) {
		snprintf(script[i], sizeof script[i], "echo job%d; echo err%d >&2", i, i);
		const char *argv[] = {"sh", "-c", script[i], NULL};
		assert_int_equal(kc_child_start(&jobs[i], argv, NULL, NULL, NULL, msg, sizeof msg), 0);
	}
	for (int done = 0; done < N; done++)
		assert_true(kc_child_wait_any(jobs, N) >= 0);
	assert_int_equal(kc_child_wait_any(jobs, N), -1);
	for (int i = 0; i < N; i++) {
		char want[32];
		snprintf(want, sizeof want, "job%d\n", i);
		assert_string_equal(jobs[i].result.out, want);
		assert_false(jobs[i].result.out_truncated);
		kc_child_result_release(&jobs[i].result);
	}
}

/* A relative program path that cannot fit PATH_MAX once joined to cwd is an error, not a lookup elsewhere. */
static void test_child_long_path(void **state)
{
	(void)state;
	static char prog[5000], msg[8192];
	memset(prog, 'a', sizeof prog - 1);
	prog[0] = '.', prog[1] = '/';
	const char *argv[] = {prog, NULL};
	struct kc_child_result r;
	assert_int_equal(kc_child_run(argv, "/tmp", NULL, NULL, &r, msg, sizeof msg), -1);
	assert_non_null(strstr(msg, ": File name too long"));
	kc_child_result_release(&r);
}

/* A stand-in harness: a shell script in dir whose body is `body`; argv = {script, "f", "once"}. */
static const char *fake_harness(struct kc_arena *a, const char *dir, const char *name, const char *body)
{
	const char *path = kc_arena_printf(a, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0700);
	return path;
}

/* The harness child's result: the one line of its result channel, tagged and validated; stdout is not read. */
static void test_child_harness(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	char dir[] = "/tmp/kcost-test-harnessXXXXXX";
	assert_non_null(mkdtemp(dir));
	const char *why = NULL, *env[] = {"PATH=/usr/bin:/bin", NULL};
	const char *json[] = {fake_harness(&a, dir, "json",
	                                   "echo '{\"function\":\"f\",\"mode\":\"once\",\"x\":\"inf\"}' "
	                                   ">/dev/fd/$KCOST_RESULT_FD\n"
	                                   "echo '{\"function\":\"f\",\"mode\":\"once\",\"x\":1}'"),
	                      "f", "once", NULL};
	cJSON *j = kc_child_run_harness(&a, NULL, json, env, NULL, &why);
	assert_non_null(j);
	assert_true(isinf(kc_child_json_number(j, "x")) && kc_child_json_number(j, "absent") == 0);
	cJSON_Delete(j);
	const char *stdout_only[] = {fake_harness(&a, dir, "stdout", "echo '{\"function\":\"f\",\"mode\":\"once\"}'"),
	                             "f", "once", NULL};
	assert_null(kc_child_run_harness(&a, NULL, stdout_only, env, NULL, &why));
	assert_string_equal(why, "the harness exited without reporting a result");
	const char *fails[] = {fake_harness(&a, dir, "fails", "echo first >&2; exit 3"), "f", "once", NULL};
	assert_null(kc_child_run_harness(&a, NULL, fails, env, NULL, &why));
	assert_string_equal(why, "exited with status 3; its stderr began: \"first\"");
	assert_int_equal(kc_cleanup_remove_tree(dir), 0);
	/* only the allow-listed environment reaches a kernel */
	setenv("KCOST_TEST_SECRET", "hunter2", 1);
	const char **kenv = kc_child_kernel_env(&a, (const char *const[]){"OMP_NUM_THREADS=1", NULL});
	int omp = 0;
	for (int i = 0; kenv[i]; i++)
		assert_null(strstr(kenv[i], "hunter2")), omp += !strcmp(kenv[i], "OMP_NUM_THREADS=1");
	assert_int_equal(omp, 1);
	unsetenv("KCOST_TEST_SECRET");
	kc_arena_release(&a);
}

/* A kept path is removed by a signal outside any run, and the signal then ends the process; a path forgotten is
 * not; the table's size is a limit, not a silent drop. (In a child: the signal ends it.) */
static void test_kept_paths(void **state)
{
	(void)state;
	char kept[] = "/tmp/kcost-test-keptXXXXXX", forgotten[] = "/tmp/kcost-test-forgottenXXXXXX", path[256];
	assert_non_null(mkdtemp(kept));
	assert_non_null(mkdtemp(forgotten));
	snprintf(path, sizeof path, "%s/worktree", kept);
	assert_int_equal(mkdir(path, 0700), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int ok = kc_cleanup_add_path(kept) == 0 && kc_cleanup_add_path(forgotten) == 0;
		kc_cleanup_forget_path(forgotten);
		for (int k = 1; ok && k < KC_CLEANUP_MAX_PATHS; k++)
			ok = kc_cleanup_add_path("/nonexistent/kcost-test") == 0;
		ok = ok && kc_cleanup_add_path("/nonexistent/one-too-many") == -1;
		if (!ok)
			_exit(1);
		raise(SIGTERM);
		_exit(2);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	struct stat sb;
	assert_int_equal(stat(kept, &sb), -1);
	assert_int_equal(stat(forgotten, &sb), 0);
	rmdir(forgotten);
	/* forgetting every path gives the handlers back */
	struct sigaction before, during, after;
	sigaction(SIGTERM, NULL, &before);
	assert_int_equal(kc_cleanup_add_path("/nonexistent/kcost-test"), 0);
	sigaction(SIGTERM, NULL, &during);
	kc_cleanup_forget_path("/nonexistent/kcost-test");
	sigaction(SIGTERM, NULL, &after);
	assert_true(during.sa_sigaction != before.sa_sigaction);
	assert_true(after.sa_handler == before.sa_handler);
}

/* The temporary directory goes with everything a kernel left in it, and nothing a link in it points to. */
static void test_remove_tree(void **state)
{
	(void)state;
	char dir[] = "/tmp/kcost-test-treeXXXXXX", outside[] = "/tmp/kcost-test-keepXXXXXX", path[256];
	assert_non_null(mkdtemp(dir));
	int keep = mkstemp(outside);
	assert_true(keep >= 0);
	close(keep);
	snprintf(path, sizeof path, "%s/a/b/c", dir);
	for (char *slash = strchr(path + strlen(dir) + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		assert_int_equal(mkdir(path, 0700), 0);
		if (!slash)
			break;
		*slash = '/';
	}
	snprintf(path, sizeof path, "%s/a/link", dir);
	assert_int_equal(symlink(outside, path), 0);
	snprintf(path, sizeof path, "%s/a/b/locked", dir);
	assert_int_equal(mkdir(path, 0), 0); /* chmod 000 */
	assert_int_equal(kc_cleanup_remove_tree(dir), 0);
	struct stat st;
	assert_int_equal(stat(dir, &st), -1);
	assert_int_equal(stat(outside, &st), 0); /* the link's target stays */
	unlink(outside);
}

/* A result line is taken only when it is the one line, for the function and mode asked, with sane fields. */
static void test_result_validation(void **state)
{
	(void)state;
	const char *why;
	cJSON *j = kc_child_parse_result("{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0.1,"
	                                 "\"warmup_seconds\":0.01,\"samples\":[0.5,0.25],\"checksum\":\"nan\"}\n",
	                                 "f", "time", &why);
	assert_non_null(j);
	cJSON_Delete(j);
	j = kc_child_parse_result("{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0.1,\"warmup_seconds\":0.01,"
	                          "\"samples\":[0.5],\"libm\":{\"expf\":[1.5e-9,0],\"tanhf\":[]},\"checksum\":1}\n",
	                          "f", "time", &why);
	assert_non_null(j);
	cJSON_Delete(j);
	static const char *const bad[][2] = {
	    {"", "the harness exited without reporting a result"},
	    {"{\"function\":\"f\",\"mode\":\"once\"}", "the harness's result line is incomplete"},
	    {"{\"function\":\"f\",\"mode\":\"once\"}\n{\"function\":\"f\",\"mode\":\"once\"}\n",
	     "the harness's result channel held more than one line (the kernel wrote to it?)"},
	    {"[1]\n", "the harness's result line is not a JSON object"},
	    {"{\"function\":\"g\",\"mode\":\"once\"}\n", "the harness's result line is for another function or mode"},
	    {"{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0,\"warmup_seconds\":0,\"samples\":[-1e-12],"
	     "\"checksum\":1}\n",
	     "bad timing fields"},
	    {"{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0,\"warmup_seconds\":0,\"samples\":[],"
	     "\"checksum\":1}\n",
	     "bad timing fields"},
	    {"{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0,\"warmup_seconds\":0,\"samples\":[\"1\"],"
	     "\"checksum\":1}\n",
	     "bad timing fields"},
	    /* the libm sweeps: seconds per call, from 0 to below one */
	    {"{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0,\"warmup_seconds\":0,\"samples\":[1],"
	     "\"libm\":{\"expf\":[1e-9,-1e-9]},\"checksum\":1}\n",
	     "bad timing fields"},
	    {"{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0,\"warmup_seconds\":0,\"samples\":[1],"
	     "\"libm\":{\"expf\":[1]},\"checksum\":1}\n",
	     "bad timing fields"},
	    {"{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0,\"warmup_seconds\":0,\"samples\":[1],"
	     "\"libm\":{\"expf\":1e-9},\"checksum\":1}\n",
	     "bad timing fields"},
	    {"{\"function\":\"f\",\"mode\":\"time\",\"setup_seconds\":0,\"warmup_seconds\":0,\"samples\":[1],"
	     "\"libm\":[[1e-9]],\"checksum\":1}\n",
	     "bad timing fields"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *mode = strstr(bad[i][0], "time") ? "time" : "once";
		assert_null(kc_child_parse_result(bad[i][0], "f", mode, &why));
		assert_string_equal(why, bad[i][1]);
	}
}

/* The probe says which step failed: a directory that does not exist cannot be bind-mounted (where namespaces are
 * refused, the first step fails and says so); a real one works, or fails at that same first step. */
static void test_sandbox_probe(void **state)
{
	(void)state;
	char why[256] = "";
	assert_int_equal(kc_sandbox_probe("/nonexistent/kcost-dir", why, sizeof why), -1);
	int refused = !strncmp(why, "unshare of the mount, network and IPC namespaces: ", 51);
	if (!refused)
		assert_string_equal(why, "bind-mounting the temporary directory: No such file or directory");
	char dir[] = "/tmp/kcost-sandbox-test-XXXXXX";
	assert_non_null(mkdtemp(dir));
	why[0] = 0;
	int rc = kc_sandbox_probe(dir, why, sizeof why);
	if (refused) {
		assert_int_equal(rc, -1);
		assert_int_equal(strncmp(why, "unshare of the mount, network and IPC namespaces: ", 51), 0);
	} else {
		assert_int_equal(rc, 0);
		assert_string_equal(why, "");
	}
	assert_int_equal(rmdir(dir), 0); /* the probe's file inside was removed */
}

/* The OpenBLAS families by instruction set: a CPU OpenBLAS does not know gets Prescott (SSE3) kernels, which
 * kcost then retries with OPENBLAS_CORETYPE. */
static void test_openblas_cores(void **state)
{
	(void)state;
	assert_int_equal(kc_ceilings_core_isa("Prescott"), KC_ISA_SSE);
	assert_int_equal(kc_ceilings_core_isa("Sandybridge"), KC_ISA_SSE);
	assert_int_equal(kc_ceilings_core_isa("Haswell"), KC_ISA_AVX2);
	assert_int_equal(kc_ceilings_core_isa("ZEN"), KC_ISA_AVX2);
	assert_int_equal(kc_ceilings_core_isa("SkylakeX"), KC_ISA_AVX512);
	assert_int_equal(kc_ceilings_core_isa("Cooperlake"), KC_ISA_AVX512);
	assert_int_equal(kc_ceilings_core_isa("Armv8"), -1);
}

/* The runner's count of the fewest samples a harness run takes is the driver's own (its rounds rely on it). */
static void test_driver_min_samples(void **state)
{
	(void)state;
	char want[64];
	snprintf(want, sizeof want, "#define KCOST_MIN_SAMPLES %d\n", KC_RUNNER_MIN_SAMPLES);
	assert_non_null(strstr((const char *)kc_harness_kcost_driver_c, want));
}

/* A machine whose levels all have cached ceilings at `roof` GB/s (medians half of it), L1's medians 12.5, and no
 * DRAM bandwidth (not sampled); tanhf and expf at `call` seconds (medians 2 x); every chain's latency but double's
 * rows and max. Small caches: small arrays. */
static struct kc_machine beside_machine(double roof, double call, struct kc_libm_cost libm[2])
{
	struct kc_machine m;
	memset(&m, 0, sizeof m);
	m.cache_bytes[0] = 32 << 10, m.cache_bytes[1] = 256 << 10, m.cache_bytes[2] = 1 << 20;
	for (int l = 0; l < KC_LEVEL_DRAM; l++) {
		m.bandwidth[l] = (struct kc_ceiling){roof, 1, "cached"};
		m.bandwidth_median[l] = l == KC_LEVEL_L1 ? 12.5 : roof / 2;
		for (int k = 0; k < KC_STREAM_N; k++)
			m.stream[l][k] = roof, m.stream_median[l][k] = m.bandwidth_median[l];
	}
	m.latency_add[0] = m.latency_add[1] = m.latency_add_rows[0] = m.latency_max[0] = 1e-9; /* not max[1] */
	libm[0] = (struct kc_libm_cost){"tanhf", call, 2 * call, "cached"};
	libm[1] = (struct kc_libm_cost){"expf", call, 2 * call, "cached"};
	m.libm = libm, m.n_libm = 2;
	return m;
}

/* The ceilings sampled beside the kernels (runner/beside.h): with 3 samples, L2's and L3's medians are theirs
 * (at most their best), L1's and the unmeasured DRAM's stay as they were, the libm functions keep theirs (they are
 * swept in the kernels' own processes), each measured chain the median of 3 runs; a roof no batch can reach stays,
 * one every batch beats is raised, and the method says which. None for budgets or another machine's ceilings. */
static void test_beside_kernels(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_libm_cost libm[2];
	for (int raise = 0; raise < 2; raise++) {
		double roof = raise ? 1e-3 : 1e9, call = raise ? 1 : 1e-12; /* always beaten / never reached */
		struct kc_machine m = beside_machine(roof, call, libm);
		struct kc_beside *b = kc_beside_start(&m, 1LL << 40);
		assert_non_null(b);
		for (int i = 0; i < KC_BESIDE_MIN_SAMPLES; i++)
			kc_beside_sample(b);
		assert_int_equal(kc_beside_finish(b, &a, &m), KC_BESIDE_MIN_SAMPLES);
		assert_int_equal(m.beside_batches[KC_LEVEL_L1], 0);
		assert_int_equal(m.beside_batches[KC_LEVEL_DRAM], 0);
		assert_true(m.bandwidth_median[KC_LEVEL_L1] == 12.5 && m.stream_median[KC_LEVEL_L1][1] == 12.5);
		assert_true(m.stream[KC_LEVEL_L1][KC_STREAM_COPY] == roof);
		assert_string_equal(m.bandwidth[KC_LEVEL_L1].method, "cached");
		for (int l = KC_LEVEL_L2; l <= KC_LEVEL_L3; l++) {
			assert_true(m.beside_batches[l] >= KC_BESIDE_MIN_SAMPLES);
			for (int k = 0; k < KC_STREAM_N; k++) {
				assert_true(m.stream_median[l][k] > 0 && m.stream_median[l][k] != roof / 2);
				assert_true(m.stream_median[l][k] <= m.stream[l][k]);
				assert_true(raise ? m.stream[l][k] > roof : m.stream[l][k] == roof);
			}
			/* the roof's kernel: triad where the roofs tie (1e9 each), else the faster of triad and copy */
			int roof_kernel = m.stream[l][KC_STREAM_TRIAD] >= m.stream[l][KC_STREAM_COPY] ? KC_STREAM_TRIAD
			                                                                              : KC_STREAM_COPY;
			assert_true(raise || roof_kernel == KC_STREAM_TRIAD);
			assert_true(m.bandwidth_median[l] == m.stream_median[l][roof_kernel]);
			assert_true(raise ? m.bandwidth[l].value == m.stream[l][roof_kernel]
			                  : m.bandwidth[l].value == roof);
			assert_non_null(strstr(m.bandwidth[l].method, "cached; beside the kernels' timings: "));
			assert_true((strstr(m.bandwidth[l].method, "beat a kernel's best") != NULL) == raise);
			assert_true((strstr(m.bandwidth[l].method, "; the roof is now ") != NULL) == raise);
		}
		/* the chains the ceilings measured have the medians of 3 runs; the one they did not, none */
		assert_int_equal(m.latency_beside_runs, KC_BESIDE_MIN_SAMPLES);
		assert_true(m.latency_add_median[0] > 0 && m.latency_add_median[1] > 0);
		assert_true(m.latency_max_median[0] > 0 && m.latency_max_median[1] == 0);
		assert_true(m.latency_add[0] == 1e-9 && m.latency_max[1] == 0); /* the ceilings stay */
		for (int i = 0; i < 2; i++) {
			assert_true(libm[i].median == 2 * call && libm[i].seconds == call);
			assert_string_equal(libm[i].method, "cached");
		}
	}
	/* one sample fewer than needed: however many batches each level ran, nothing changes */
	struct kc_machine m = beside_machine(1e-3, 1, libm);
	struct kc_beside *b = kc_beside_start(&m, 1LL << 40);
	assert_non_null(b);
	for (int i = 0; i < KC_BESIDE_MIN_SAMPLES - 1; i++)
		kc_beside_sample(b);
	assert_int_equal(kc_beside_finish(b, &a, &m), KC_BESIDE_MIN_SAMPLES - 1);
	for (int l = 0; l < KC_LEVEL_N; l++) {
		assert_int_equal(m.beside_batches[l], 0);
		assert_true(l == KC_LEVEL_DRAM ||
		            (m.bandwidth[l].value == 1e-3 && m.stream[l][KC_STREAM_LOAD] == 1e-3));
		assert_true(l == KC_LEVEL_DRAM || l == KC_LEVEL_L1 || m.stream_median[l][KC_STREAM_COPY] == 1e-3 / 2);
	}
	assert_true(libm[0].median == 2 && libm[0].seconds == 1);
	assert_true(m.latency_add_median[0] == 0 && m.latency_beside_runs == 0);
	m = beside_machine(100, 1e-8, libm);
	m.hypothetical = 1;
	assert_null(kc_beside_start(&m, 1LL << 40));
	m.hypothetical = 0, m.from_file = "other.json";
	assert_null(kc_beside_start(&m, 1LL << 40));
	kc_beside_finish(NULL, &a, &m); /* allowed: nothing changes */
	kc_beside_sample(NULL);
	assert_true(m.bandwidth_median[KC_LEVEL_L2] == 50);
	kc_arena_release(&a);
}

/* The arrays kcost times in its own process are not the heap's: freed, their pages would come back to malloc
 * with MADV_DONTFORK still on them (it outlives free()), and a child forked later would miss them — a harness's
 * compiler failed to start ("Bad address") after the ceilings were measured. What malloc hands out after them is
 * still there in a child. */
static void test_timed_arrays_leave_the_heap_whole(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++) {
		struct kc_bandwidth_run *r = kc_bandwidth_start(24 << 10); /* an L1-sized set: 40 KiB */
		assert_non_null(r);
		kc_bandwidth_more(r, 0, 0, 1);
		struct kc_bandwidth bw;
		kc_bandwidth_finish(r, &bw);
		assert_int_equal(bw.batches, 1);
	}
	enum { N = 256 };
	char *p[N];
	for (int i = 0; i < N; i++) {
		p[i] = malloc(4096);
		assert_non_null(p[i]);
		memset(p[i], i % 100 + 1, 4096);
	}
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int ok = 1;
		for (int i = 0; i < N; i++)
			ok &= p[i][i] == (char)(i % 100 + 1);
		_exit(ok ? 0 : 1);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (int i = 0; i < N; i++)
		free(p[i]);
}

/* Every peak kernel runs where the CPU has its instructions and gives a positive figure, and none runs where
 * it has not; the scalar ones run everywhere. (No figure is compared with another: they depend on the CPU.) */

static void test_peak_kernels(void **state)
{
	(void)state;
	assert_true(kc_peak_supported(KC_ISA_SCALAR, 0) && kc_peak_supported(KC_ISA_SSE, 0));
	for (int isa = 0; isa < KC_ISA_N; isa++)
		for (int fma = 0; fma < 2; fma++) {
			double g = kc_peak_gflops((enum kc_isa)isa, fma, isa % 2, 0.002);
			if (kc_peak_supported((enum kc_isa)isa, fma))
				assert_true(g > 0 && isfinite(g));
			else
				assert_true(g == 0);
		}
	assert_true(kc_peak_latency(0, 1, 0.002) > 0);
	double add = -1, rows = -1;
	kc_peak_add_and_rows(0, 0.002, &add, &rows);
	assert_true(add > 0 && isfinite(add) && rows > 0 && isfinite(rows));
	assert_true(kc_peak_gflops_threads(KC_ISA_SCALAR, 0, 0, 2, 0.004) > 0);
	int n;
	const struct kc_libm_fn *f = kc_libm_fns(&n);
	assert_true(n >= 50);
	for (int i = 0; i < n; i++) {
		int set = (f[i].f1 != NULL) + (f[i].d1 != NULL) + (f[i].f2 != NULL) + (f[i].d2 != NULL);
		assert_int_equal(set, 1);
		assert_int_equal(f[i].dbl, f[i].d1 != NULL || f[i].d2 != NULL);
		assert_int_equal(f[i].hi2 > f[i].lo2, f[i].f2 != NULL || f[i].d2 != NULL);
	}
	assert_string_equal(f[0].name, "expf");
	double runs[KC_LIBM_RUNS];
	int n_runs = 0;
	double best = kc_libm_call_seconds(&f[0], 0.002, runs, &n_runs);
	assert_true(best > 0 && n_runs == KC_LIBM_RUNS); /* the sizing run and 2 more */
	int found = 0;                                   /* the best is one of the runs, each a time per call */
	for (int i = 0; i < n_runs; i++) {
		found += runs[i] == best;
		assert_true(runs[i] < 1e-6);
	}
	assert_true(found >= 1);
}

/* The compiler's remarks: gcc's and clang's forms of "this loop was vectorized", and nothing else. */
static void test_vectorization_remarks(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	const char *text = "/src/k.c:12:23: optimized: loop vectorized using 32 byte vectors\n"
	                   "/src/k.c:30:5: optimized: basic block part vectorized using 32 byte vectors\n"
	                   "/src/a:b.c:7:3: remark: vectorized loop (vectorization width: 8, interleaved count: 4) "
	                   "[-Rpass=loop-vectorize]\n"
	                   "/src/k.c:40:1: missed: couldn't vectorize loop\n"
	                   "garbage: optimized: loop vectorized\n"
	                   "/src/k.c:x:1: optimized: loop vectorized";
	struct kc_vec_remark *v = NULL;
	int n = 0, cap = 0;
	kc_build_parse_remarks(&a, text, &v, &n, &cap);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].file, "/src/k.c");
	assert_int_equal(v[0].line, 12);
	assert_string_equal(v[1].file, "/src/a:b.c");
	assert_int_equal(v[1].line, 7);
	kc_arena_release(&a);
}

/* A kernel that calls cblas_* on a machine whose OpenBLAS picked kernels below the CPU is told so, with the
 * kernels its measurement ran; a kernel without such a call, or a machine without the note, is not. */
static void test_blas_note(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_nest nests[2] = {{.callee = NULL}, {.callee = "cblas_sgemm"}};
	struct kc_function f = {.name = "mm", .nests = nests, .n_nests = 2};
	struct kc_machine mc = {.blas_note = "OpenBLAS chose Haswell kernels on this CPU; OPENBLAS_CORETYPE=SkylakeX "
	                                     "(SkylakeX kernels) runs sgemm 2\xc3\x97 faster"};
	assert_string_equal(
	    kc_runner_blas_note(&a, &f, &mc, NULL),
	    "calls cblas_sgemm: OpenBLAS chose Haswell kernels on this CPU; OPENBLAS_CORETYPE=SkylakeX "
	    "(SkylakeX kernels) runs sgemm 2\xc3\x97 faster. The kernel ran as your program would, with "
	    "OpenBLAS's own choice; the dense roof is the faster kernels'");
	assert_non_null(strstr(kc_runner_blas_note(&a, &f, &mc, "Haswell"),
	                       "with OPENBLAS_CORETYPE=Haswell from the environment;"));
	nests[1].callee = "helper";
	assert_null(kc_runner_blas_note(&a, &f, &mc, NULL));
	nests[1].callee = "cblas_dgemv";
	mc.blas_note = NULL;
	assert_null(kc_runner_blas_note(&a, &f, &mc, NULL));
	kc_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_half_latency_measured),
	    cmocka_unit_test(test_stats_odd),
	    cmocka_unit_test(test_stats_even_and_ranks),
	    cmocka_unit_test(test_stats_edges),
	    cmocka_unit_test(test_cachegrind_parse),
	    cmocka_unit_test(test_cachegrind_subtract_and_variants),
	    cmocka_unit_test(test_cachegrind_errors),
	    cmocka_unit_test(test_cachegrind_ll_option),
	    cmocka_unit_test(test_counters),
	    cmocka_unit_test(test_harness_source),
	    cmocka_unit_test(test_harness_many_types),
	    cmocka_unit_test(test_harness_not_run),
	    cmocka_unit_test(test_harness_reference),
	    cmocka_unit_test(test_ceilings_key),
	    cmocka_unit_test(test_ceilings_default_dir),
	    cmocka_unit_test(test_ceilings_json_roundtrip),
	    cmocka_unit_test(test_working_sets),
	    cmocka_unit_test(test_column_rows),
	    cmocka_unit_test(test_status_messages),
	    cmocka_unit_test(test_failure_messages),
	    cmocka_unit_test(test_compiler_lines_and_flags),
	    cmocka_unit_test(test_child_capture),
	    cmocka_unit_test(test_child_limits),
	    cmocka_unit_test(test_child_many_jobs),
	    cmocka_unit_test(test_child_long_path),
	    cmocka_unit_test(test_child_harness),
	    cmocka_unit_test(test_result_validation),
	    cmocka_unit_test(test_remove_tree),
	    cmocka_unit_test(test_kept_paths),
	    cmocka_unit_test(test_sandbox_probe),
	    cmocka_unit_test(test_openblas_cores),
	    cmocka_unit_test(test_driver_min_samples),
	    cmocka_unit_test(test_beside_kernels),
	    cmocka_unit_test(test_timed_arrays_leave_the_heap_whole),
	    cmocka_unit_test(test_peak_kernels),
	    cmocka_unit_test(test_vectorization_remarks),
	    cmocka_unit_test(test_blas_note),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
