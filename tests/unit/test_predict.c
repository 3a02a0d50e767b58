/* test_predict.c — the time model (model/predict.h) on functions and a machine built by hand: which resource
 * bounds each nest, at which memory level, and its exact predicted seconds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "predict.h"

static struct kc_arena A = KC_ARENA_INIT;

/* 32 KiB / 1 MiB / 32 MiB caches at 200 / 100 / 50 GB/s, DRAM 20 GB/s; float peaks: scalar 10 (FMA 10),
 * AVX2 80 (FMA 100) GFLOP/s; one dependent add 1 ns; tanhf 20 ns a call. */
static struct kc_machine machine(void)
{
	struct kc_machine m = {.cpu = "Test CPU", .cores = 2, .cache_bytes = {32 << 10, 1 << 20, 32 << 20}};
	const double bw[KC_LEVEL_N] = {200, 100, 50, 20};
	for (int l = 0; l < KC_LEVEL_N; l++)
		m.bandwidth[l] = (struct kc_ceiling){bw[l], 1, "triad"};
	m.peak[0][KC_ISA_SCALAR][0] = (struct kc_ceiling){10, 1, "scalar"};
	m.peak[0][KC_ISA_SCALAR][1] = (struct kc_ceiling){10, 1, "scalar FMA"};
	m.peak[0][KC_ISA_AVX2][0] = (struct kc_ceiling){80, 1, "AVX2"};
	m.peak[0][KC_ISA_AVX2][1] = (struct kc_ceiling){100, 1, "AVX2 FMA"};
	m.flops_f32 = m.peak[0][KC_ISA_AVX2][1];
	m.latency_add[0] = 1e-9;
	static struct kc_libm_cost libm[] = {{"tanhf", 20e-9, 0, "scalar"}};
	m.libm = libm, m.n_libm = 1;
	return m;
}

/* The bandwidth kernels of level l measured (STREAM's counting): load 100, copy 40, triad 45, update 75 GB/s —
 * 0.01 ns a byte read, 2/40 - 0.01 = 0.04 a byte written only, 3/75 - 0.02 = 0.02 a byte written back. */
static void with_kernels(struct kc_machine *m, enum kc_level l)
{
	m->stream[l][KC_STREAM_LOAD] = 100, m->stream[l][KC_STREAM_COPY] = 40;
	m->stream[l][KC_STREAM_TRIAD] = 45, m->stream[l][KC_STREAM_UPDATE] = 75;
}

static struct kc_poly *times(long long c, const struct kc_poly *p)
{
	struct kc_poly *out = NULL;
	assert_int_equal(kc_poly_scale(&A, p, kc_rat_int(c), &out), 0);
	return out;
}

/* One nest over n (value n_value; no value when n_value < 0): `muls` float multiplies and `tanhs` tanhf calls
 * per element, streaming `bytes` per element, buffers x and y of n floats. */
static struct kc_function *nest_fn(long long n_value, int muls, int tanhs, int bytes)
{
	struct kc_function *f = KC_NEW(&A, struct kc_function);
	f->name = "k";
	f->syms.syms[0] = (struct kc_sym){.name = "n", .has_value = n_value >= 0, .value = n_value};
	f->syms.names[0] = "n";
	f->syms.n = 1;
	f->n_size_params = 1;
	struct kc_poly *n = kc_poly_sym(&A, 0);
	f->buffers = KC_NEW_N(&A, struct kc_buffer, 2);
	f->buffers[0] = (struct kc_buffer){.name = "x", .elem_size = 4, .extent = n, .role = KC_ROLE_INPUT};
	f->buffers[1] = (struct kc_buffer){.name = "y", .elem_size = 4, .extent = n, .role = KC_ROLE_OUTPUT};
	f->n_buffers = 2;
	f->nests = KC_NEW(&A, struct kc_nest);
	f->n_nests = 1;
	struct kc_nest *k = &f->nests[0];
	k->begin = (struct kc_loc){"k.c", 4, 2};
	k->end = (struct kc_loc){"k.c", 5, 20};
	k->cost.ops[KC_OP_MUL][KC_PREC_F32] = times(muls, n);
	if (tanhs) {
		k->cost.transcendentals = KC_NEW(&A, struct kc_named_count);
		*k->cost.transcendentals = (struct kc_named_count){"tanhf", times(tanhs, n), NULL};
	}
	k->trips = n;
	static int reads[] = {0}, writes[] = {1}; /* reads x, writes y */
	k->reads = reads, k->n_reads = 1, k->writes = writes, k->n_writes = 1;
	k->traffic[KC_MODEL_STREAMING] = (struct kc_traffic){times(bytes / 2, n), times(bytes - bytes / 2, n), NULL};
	f->traffic[KC_MODEL_MIN] = (struct kc_traffic){times(4, n), times(4, n), NULL};
	return f;
}

static int close_to(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fabs(want);
}

/* 1,000 elements (8 KB: L1): 1,000 tanhf calls at 20 ns outlast the multiplies and the bytes. */
static void transcendental_bound(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, nest_fn(1000, 8, 1, 72), &m, NULL, &p), 0);
	assert_true(p.ok && p.n_nests == 1);
	const struct kc_nest_prediction *n = &p.nests[0];
	assert_int_equal(n->level, KC_LEVEL_L1);
	assert_true(close_to(n->seconds[KC_RES_COMPUTE], 8000 / 80e9));
	assert_true(close_to(n->seconds[KC_RES_TRANSCENDENTAL], 1000 * 20e-9));
	assert_true(close_to(n->seconds[KC_RES_DATA], 72000 / 200e9));
	assert_true(n->seconds[KC_RES_LATENCY] == 0);
	assert_int_equal(n->resource, KC_RES_TRANSCENDENTAL);
	assert_string_equal(p.bound, "tanhf throughput (scalar libm)");
	assert_true(close_to(p.seconds, 2e-5));
	assert_true(close_to(p.seconds_no_overlap, 8000 / 80e9 + 2e-5 + 72000 / 200e9));
	assert_int_equal(n->vectorized, -1);
	/* the median run of the calls' ceiling, where measured, is the per-call time (the best is the roof) */
	struct kc_libm_cost slower = {"tanhf", 20e-9, 25e-9, "scalar"};
	struct kc_machine mm = machine();
	mm.libm = &slower;
	assert_int_equal(kc_predict(&A, nest_fn(1000, 8, 1, 72), &mm, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_TRANSCENDENTAL], 1000 * 25e-9));
	assert_int_equal(kc_predict(&A, nest_fn(1000, 8, 1, 72), &m, NULL, &p), 0);
	/* with a chain of 16 adds before each call (matmul_tanh's dot product, 1000 runs): the adds run between
	 * the calls, one after another (1 ns each), even where rows of adds would overlap (0.5 ns in rows of 64) */
	struct kc_function *f = nest_fn(1000, 8, 1, 72);
	f->nests[0].chain = kc_poly_const(&A, 16000, 1);
	f->nests[0].chain_runs = kc_poly_const(&A, 1000, 1);
	m.latency_add_rows[0] = 0.5e-9;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_TRANSCENDENTAL], 1000 * 20e-9 + 16000 * 1e-9));
	assert_string_equal(p.bound, "tanhf throughput (scalar libm) and the add chain between the calls");
}

/* 10^6 elements: 8 MB live in the 32 MiB L3; 12 B per element at 50 GB/s outlast 8 multiplies at 80 GFLOP/s.
 * 10^7: 80 MB, DRAM. */
static void memory_level_from_the_working_set(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, nest_fn(1000000, 8, 0, 12), &m, NULL, &p), 0);
	assert_int_equal(p.level, KC_LEVEL_L3);
	assert_string_equal(p.bound, "L3 bandwidth");
	assert_int_equal(p.resource, KC_RES_DATA);
	assert_true(close_to(p.seconds, 12e6 / 50e9));
	assert_true(close_to(p.nests[0].working_set, 8e6));
	assert_int_equal(kc_predict(&A, nest_fn(10000000, 8, 0, 12), &m, NULL, &p), 0);
	assert_string_equal(p.bound, "DRAM bandwidth");
	assert_true(close_to(p.seconds, 12e7 / 20e9));
	/* 64 multiplies per element: compute, on the widest vector unit as vectorization is not known */
	assert_int_equal(kc_predict(&A, nest_fn(1000000, 64, 0, 12), &m, NULL, &p), 0);
	assert_string_equal(p.bound, "AVX2 float add/multiply peak (vectorization not known)");
	assert_true(close_to(p.seconds, 64e6 / 80e9));
}

/* A copy over 10^6 floats: x read, y written only (4 MB of each). */
static struct kc_function *copy_fn(void)
{
	struct kc_function *f = nest_fn(1000000, 1, 0, 8);
	f->nests[0].traffic[KC_MODEL_STREAMING].write_only = times(4, kc_poly_sym(&A, 0));
	return f;
}

/* With each bandwidth kernel measured, a byte costs what its kind costs: in L3, load 100, copy 40 and update
 * 75 GB/s (STREAM's counting) give 0.01 ns a byte read, 2/40 - 0.01 = 0.04 ns a byte written to a buffer the
 * nest does not read (its lines come in first) and 3/75 - 0.02 = 0.02 ns a byte written back to one it reads. */
static void reads_and_writes_cost_their_kind(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	with_kernels(&m, KC_LEVEL_L3);
	struct kc_poly *n = kc_poly_sym(&A, 0);
	/* copy: x read, y written only: 4e6 * 0.01 + 4e6 * (2/40 - 0.01 = 0.04) ns = 0.2 ms */
	struct kc_function *f = copy_fn();
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_string_equal(p.bound, "L3 bandwidth");
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 4e6 * 0.01e-9 + 4e6 * 0.04e-9));
	/* update: y read and written back: 8e6 * 0.01 + 4e6 * (3/75 - 0.02 = 0.02) ns = 0.16 ms */
	f = nest_fn(1000000, 1, 0, 12);
	f->nests[0].traffic[KC_MODEL_STREAMING] = (struct kc_traffic){times(8, n), times(4, n), times(0, n)};
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 8e6 * 0.01e-9 + 4e6 * 0.02e-9));
	/* writes not split (a call whose callee's split is unknown): every byte at the level's bandwidth */
	f = nest_fn(1000000, 1, 0, 8);
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 8e6 / 50e9));
	/* a cheaper write than read where the kernels say so is kept; a negative one is 0 (update as fast as
	 * loading its reads: the write-backs overlap) */
	m.stream[KC_LEVEL_L3][KC_STREAM_UPDATE] = 200;
	f = nest_fn(1000000, 1, 0, 12);
	f->nests[0].traffic[KC_MODEL_STREAMING] = (struct kc_traffic){times(8, n), times(4, n), times(0, n)};
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 8e6 * 0.01e-9));
}

/* The median batches of the bandwidth kernels, where they were measured, price the bytes (the best are the
 * roofs): copy at L3 with load 50 and copy 20 GB/s in the median (best 100 and 40) costs 0.02 ns a byte read and
 * 2/20 - 0.02 = 0.08 a byte written, twice the best's; a level's one bandwidth likewise (25 GB/s, best 50). */
static void the_median_batches_price_the_bytes(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	with_kernels(&m, KC_LEVEL_L3);
	m.stream_median[KC_LEVEL_L3][KC_STREAM_LOAD] = 50, m.stream_median[KC_LEVEL_L3][KC_STREAM_COPY] = 20;
	m.stream_median[KC_LEVEL_L3][KC_STREAM_TRIAD] = 22.5, m.stream_median[KC_LEVEL_L3][KC_STREAM_UPDATE] = 37.5;
	struct kc_function *f = copy_fn();
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_string_equal(p.bound, "L3 bandwidth");
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 4e6 * 0.02e-9 + 4e6 * 0.08e-9));
	/* one kernel's median missing: all at the best batches */
	m.stream_median[KC_LEVEL_L3][KC_STREAM_UPDATE] = 0;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 4e6 * 0.01e-9 + 4e6 * 0.04e-9));
	/* writes not split: every byte at the level's median bandwidth */
	m.bandwidth_median[KC_LEVEL_L3] = 25;
	f = nest_fn(1000000, 1, 0, 8);
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 8e6 / 25e9));
}

/* Every access at L1's costs: with load 100, copy 40 and update 75 GB/s in L1 (0.01 ns a byte read, 0.02 a
 * byte written back), c[j] += a*b[j] naming 12 bytes of loads and 4 of stores to a buffer it reads takes
 * 0.2 ns an iteration however small its working set: 10^6 iterations, 0.2 ms, above the 2 multiplies at
 * 80 GFLOP/s (25 us) and the 8 MB at L3's 50 GB/s (0.16 ms). Without L1's kernels, or for a call, no such time. */
static void every_access_at_l1_costs(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	with_kernels(&m, KC_LEVEL_L1);
	struct kc_poly *n = kc_poly_sym(&A, 0);
	struct kc_function *f = nest_fn(1000000, 2, 0, 8);
	f->nests[0].traffic[KC_MODEL_NAIVE] = (struct kc_traffic){times(12, n), times(4, n), NULL};
	f->nests[0].traffic[KC_MODEL_STREAMING].write_only = times(0, n);
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * (12 * 0.01e-9 + 4 * 0.02e-9)));
	assert_int_equal(p.resource, KC_RES_ACCESS);
	assert_string_equal(p.bound, "L1 loads and stores (every access)");
	assert_string_equal(kc_resource_name(KC_RES_ACCESS), "access");
	/* its writes to a buffer it does not read cost copy's: 12 * 0.01 + 4 * 0.04 ns */
	f->nests[0].traffic[KC_MODEL_STREAMING].write_only = times(4, n);
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * (12 * 0.01e-9 + 4 * 0.04e-9)));
	/* a vectorized loop reaches a strided access element by element: at AVX2's 32 bytes an access, a float
	 * access costs 8 of a vector access's bytes; one of the 12 read bytes strided: 8*0.01 + 4*0.04 + 8*4*0.01 ns.
	 * Not vectorized, every access is an element's: 8 * (12*0.01 + 4*0.04) ns */
	int ours[] = {5};
	struct kc_vectorized yes = {1, ours, 1, 0, 0}, no = {1, ours, 0, 0, 0};
	f->nests[0].strided = (struct kc_traffic){times(4, n), times(0, n), NULL};
	assert_int_equal(kc_predict(&A, f, &m, &yes, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * (8 * 0.01e-9 + 4 * 0.04e-9 + 8 * 4 * 0.01e-9)));
	assert_int_equal(kc_predict(&A, f, &m, &no, &p), 0);
	assert_int_equal(p.nests[0].vectorized, 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * 8 * (12 * 0.01e-9 + 4 * 0.04e-9)));
	/* vectorized, its inner loop of 20 iterations: 2 vectors of 8 floats, then one of
	 * 4 for the remainder: 3 accesses for 20 elements, 1.2 times a vector's share each. Its 4 misaligned read
	 * bytes an element reach a second line on every other 32-byte vector and every fourth 16-byte one:
	 * (2 * 1/2 + 1/4) / 20 of an access an element, 8 * 4 * 0.01 ns each: 1.2 * 0.28 + 0.02 ns */
	f->nests[0].strided = (struct kc_traffic){times(0, n), times(0, n), NULL};
	f->nests[0].misaligned = (struct kc_traffic){times(4, n), times(0, n), NULL};
	f->nests[0].inner_trips = kc_poly_const(&A, 20, 1);
	assert_int_equal(kc_predict(&A, f, &m, &yes, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * (1.2 * 0.28e-9 + 0.02e-9)));
	/* bytes off by half a line (32 bytes) never span two lines with 32-byte vectors */
	f->nests[0].half_line = (struct kc_traffic){times(4, n), times(4, n), NULL};
	assert_int_equal(kc_predict(&A, f, &m, &yes, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * (1.2 * 0.28e-9 + 0.02e-9)));
	f->nests[0].half_line = (struct kc_traffic){NULL, NULL, NULL};
	/* 4 iterations, fewer than a vector: the vectors run along another loop; full vectors, a line crossed every
	 * other one (1/16 of an access an element) */
	f->nests[0].inner_trips = kc_poly_const(&A, 4, 1);
	assert_int_equal(kc_predict(&A, f, &m, &yes, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * (0.28e-9 + 0.02e-9)));
	f->nests[0].callee = "other";
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(p.nests[0].seconds[KC_RES_ACCESS] == 0);
	m.stream[KC_LEVEL_L1][KC_STREAM_LOAD] = 0;
	f->nests[0].callee = NULL;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(p.nests[0].seconds[KC_RES_ACCESS] == 0);
}

/* A _Float16 accumulator waits for a half-precision update: here 2e6 updates of a nest whose operations are
 * all half precision, at 3 ns an add and 4 ns a multiply-add; a multiply-add chain at the latter where the
 * compiler contracts (or nothing says it does not) and the loop was not vectorized in order, else the former; a
 * nest with a float operation keeps the float add's 1 ns; without the half figures (ceilings before version 8),
 * the float add's. */
static void half_chains_wait_for_conversions(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_function *f = nest_fn(1000000, 0, 0, 8);
	struct kc_poly *n = kc_poly_sym(&A, 0);
	f->nests[0].cost.ops[KC_OP_ADD][KC_PREC_F16] = n, f->nests[0].cost.ops[KC_OP_MUL][KC_PREC_F16] = n;
	f->nests[0].chain = times(2, n);
	f->nests[0].chain_line = 5;
	m.latency_half_add = 3e-9, m.latency_half_madd = 4e-9, m.latency_half_how = "converted";
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 3e-9));
	assert_string_equal(p.bound, "half-precision latency chain (an accumulator updated in order)");
	f->nests[0].chain_madd = 1;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 4e-9));
	int lines[] = {5};
	struct kc_vectorized plain = {1, lines, 0, 0, 0}; /* -ffp-contract=off */
	assert_int_equal(kc_predict(&A, f, &m, &plain, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 3e-9));
	/* vectorized in order (AVX512-FP16): the multiplies apart from the chain of adds */
	struct kc_vectorized in_order = {1, lines, 1, 0, 1};
	assert_int_equal(kc_predict(&A, f, &m, &in_order, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 3e-9));
	struct kc_vectorized scalar = {1, lines, 0, 0, 1};
	assert_int_equal(kc_predict(&A, f, &m, &scalar, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 4e-9));
	f->nests[0].cost.ops[KC_OP_ADD][KC_PREC_F32] = times(1, n); /* a float add too: not a half accumulator */
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9));
	f->nests[0].cost.ops[KC_OP_ADD][KC_PREC_F32] = NULL;
	m.latency_half_add = m.latency_half_madd = 0;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9));
}

/* The stores of a column walk that conflicts in the caches (kc_nest.column_stores): each misses every cache
 * that cannot keep the column and costs the measured column store of the first level that can, or of the level
 * where the working set lives when that is further, divided among the line slots its lines take. Here 10^6
 * stores of a column needing 65,536 lines (4 MiB: beyond 3/4 of L2's 1 MiB, within L3's): 6 ns each from L3 (the
 * working set, 8 MB, is in L3 too), above the 8 MB at L3's 50 GB/s; 2 slots halve it; a working set in DRAM
 * takes DRAM's 8 ns; a column that L1 keeps, or a level not measured, adds nothing. */
static void column_stores_come_from_where_the_column_fits(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	m.column_store_median[KC_LEVEL_L2] = 7e-9, m.column_store_median[KC_LEVEL_L3] = 6e-9;
	m.column_store[KC_LEVEL_DRAM] = 8e-9; /* no median: the best */
	struct kc_function *f = nest_fn(1000000, 1, 0, 8);
	f->nests[0].column_stores = kc_poly_sym(&A, 0);
	f->nests[0].column_lines = 65536, f->nests[0].column_pitch = 4096, f->nests[0].column_slots = 1;
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 1e6 * 6e-9));
	assert_int_equal(p.resource, KC_RES_DATA);
	assert_string_equal(p.bound, "L3 line a store (a column of pitch 4096 B, whose lines conflict in the caches)");
	f->nests[0].column_slots = 2, f->nests[0].column_pitch = 2048;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 1e6 * 3e-9));
	/* a column of 8,192 lines (512 KiB) fits L2; the working set (8 MB) is in L3: from L3 */
	f->nests[0].column_slots = 1, f->nests[0].column_lines = 8192;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 1e6 * 6e-9));
	/* 10^8 elements (800 MB, DRAM): DRAM's 8 ns a store, above the 800 MB at 20 GB/s (4 ns an element) */
	f = nest_fn(100000000, 1, 0, 8);
	f->nests[0].column_stores = kc_poly_sym(&A, 0);
	f->nests[0].column_lines = 65536, f->nests[0].column_pitch = 4096, f->nests[0].column_slots = 1;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 1e8 * 8e-9));
	assert_string_equal(p.bound,
	                    "DRAM line a store (a column of pitch 4096 B, whose lines conflict in the caches)");
	/* 200 lines fit L1 (within 3/4 of 32 KiB): the stores are L1's */
	f = nest_fn(1000000, 1, 0, 8);
	f->nests[0].column_stores = kc_poly_sym(&A, 0);
	f->nests[0].column_lines = 200, f->nests[0].column_pitch = 4096, f->nests[0].column_slots = 1;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 8e6 / 50e9));
	assert_string_equal(p.bound, "L3 bandwidth");
	/* L3's column store not measured: the stores are priced as the rest of the data */
	f->nests[0].column_lines = 65536;
	m.column_store_median[KC_LEVEL_L3] = 0;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 8e6 / 50e9));
}

/* A strided store where its line is at hand costs what L1's column walk measured for one (a load and a store),
 * less what the access sum charges for its load: with L1's kernels of every_access_at_l1_costs (0.01 ns a byte
 * read) and a walk of 0.5 ns a store, 10^6 elements each loading 4 bytes unit-stride and storing 4 strided: not
 * vectorized, the load at a vector's cost (32 bytes: 0.32 ns) and the store at 0.5 - 0.32; vectorized, the load
 * at an element's (0.04 ns) and the store at 0.5 - 0.04. Without the walk, the store costs a vector store's. */
static void strided_stores_cost_l1s_column_walk(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	with_kernels(&m, KC_LEVEL_L1);
	struct kc_poly *n = kc_poly_sym(&A, 0);
	struct kc_function *f = nest_fn(1000000, 0, 0, 8);
	f->nests[0].traffic[KC_MODEL_NAIVE] = (struct kc_traffic){times(4, n), times(4, n), NULL};
	f->nests[0].traffic[KC_MODEL_STREAMING].write_only = times(4, n);
	f->nests[0].strided = (struct kc_traffic){times(0, n), times(4, n), NULL};
	m.column_store_median[KC_LEVEL_L1] = 0.5e-9;
	int ours[] = {5};
	struct kc_vectorized yes = {1, ours, 1, 0, 0}, no = {1, ours, 0, 0, 0};
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, &no, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * 0.5e-9));
	assert_int_equal(kc_predict(&A, f, &m, &yes, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * 0.5e-9));
	/* a walk faster than the load the sum charges for it (0.32 ns, not vectorized): the store adds nothing */
	m.column_store_median[KC_LEVEL_L1] = 0.3e-9;
	assert_int_equal(kc_predict(&A, f, &m, &no, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * 0.32e-9));
	/* not measured: a vector store's cost, 32 bytes at copy's 0.04 ns, beside the vectorized load's 0.04 */
	m.column_store_median[KC_LEVEL_L1] = 0;
	assert_int_equal(kc_predict(&A, f, &m, &yes, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e6 * (4 * 0.01e-9 + 32 * 0.04e-9)));
}

/* What each iteration of the outer loop reads again (matmul_ikj's B under i) comes from where one iteration's
 * data fits: 2 MB re-read, and an iteration's share of the other 6 MB of 8 MB of streaming bytes: 2.06 MB, more
 * than 3/4 of L2 (1 MiB): from L3, 99 more times at L3's load cost (0.01 ns a byte), after the 8 MB at L3's
 * bandwidth (50 GB/s: the nest's writes are not split). A re-read that fits in L1 is the access resource's. */
static void data_read_again_each_outer_iteration(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	with_kernels(&m, KC_LEVEL_L3);
	struct kc_function *f = nest_fn(1000000, 1, 0, 8);
	f->nests[0].reread_bytes = kc_poly_const(&A, 2000000, 1);
	f->nests[0].outer_trips = kc_poly_const(&A, 100, 1);
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 8e6 / 50e9 + 99 * 2e6 * 0.01e-9));
	assert_string_equal(p.bound, "L3 bandwidth (data read again each outer iteration)");
	f->nests[0].reread_bytes = kc_poly_const(&A, 1000, 1);
	f->nests[0].outer_trips = kc_poly_const(&A, 1000000, 1);
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 8e6 / 50e9));
	assert_string_equal(p.bound, "L3 bandwidth");
}

/* From DRAM, the loads and stores beyond those of a stream of the same bytes add to the transfers: 10^8
 * elements, 12 bytes read and 4 written (to a buffer not read) an element by the source, 4 and 4 streamed. At
 * L1's costs (0.01 ns a byte read, 0.04 written only) the accesses take 0.28 ns an element, a stream of the
 * streamed bytes 0.20: 0.08 ns more, after 8 bytes at DRAM's 20 GB/s (0.4 ns). In L3 they overlap. */
static void dram_adds_the_loads_beyond_a_stream(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	with_kernels(&m, KC_LEVEL_L1);
	struct kc_poly *n = kc_poly_sym(&A, 0);
	struct kc_function *f = nest_fn(100000000, 1, 0, 8);
	f->nests[0].traffic[KC_MODEL_NAIVE] = (struct kc_traffic){times(12, n), times(4, n), NULL};
	f->nests[0].traffic[KC_MODEL_STREAMING].write_only = times(4, n);
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_int_equal(p.nests[0].level, KC_LEVEL_DRAM);
	assert_true(close_to(p.nests[0].seconds[KC_RES_ACCESS], 1e8 * 0.28e-9));
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 1e8 * (0.4e-9 + 0.08e-9)));
	f = nest_fn(1000000, 1, 0, 8); /* 8 MB: in L3 */
	f->nests[0].traffic[KC_MODEL_NAIVE] = (struct kc_traffic){times(12, n), times(4, n), NULL};
	f->nests[0].traffic[KC_MODEL_STREAMING].write_only = times(4, n);
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_int_equal(p.nests[0].level, KC_LEVEL_L3);
	assert_true(close_to(p.nests[0].seconds[KC_RES_DATA], 1e6 * 8 / 50e9));
}

/* A buffer the function allocates on every call comes in page by page: 10^6 floats (4 MB, 977 pages of 4 KiB
 * rounded up to 977) at 1 us a fresh page add 0.977 ms to the nests' time, and never name the bound; 10^4 floats
 * (40 KB) stay in the allocator's heap: nothing. Without a measured page cost, nothing either. */
static void allocations_add_their_page_faults(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	m.fresh_page = (struct kc_ceiling){1e-6, 1, "malloc, touch, free"};
	struct kc_function *f = nest_fn(1000000, 1, 1, 8);
	f->buffers[1].role = KC_ROLE_INTERMEDIATE, f->buffers[1].is_heap = 1; /* y: malloc'd in the body */
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.seconds_allocation, 977e-6));
	assert_true(close_to(p.seconds, 1e6 * 20e-9 + 977e-6));
	assert_true(close_to(p.seconds_no_overlap - p.seconds_allocation, p.nests[0].seconds_sum));
	assert_string_equal(p.bound, "tanhf throughput (scalar libm)");
	f = nest_fn(10000, 1, 1, 8);
	f->buffers[1].role = KC_ROLE_INTERMEDIATE, f->buffers[1].is_heap = 1;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(p.seconds_allocation == 0);
	m.fresh_page.value = 0;
	f = nest_fn(1000000, 1, 1, 8);
	f->buffers[1].is_heap = 1;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(p.seconds_allocation == 0);
	assert_string_equal(kc_resource_name(KC_RES_ALLOCATION), "allocation");
}

/* Passes inside one loop run one after another: a row loop holding a tanhf pass (10^6 calls at 20 ns: 20 ms) and
 * a reduction pass (10^6 dependent adds at 1 ns: 1 ms) takes 21 ms, not the 20 ms of its resources overlapped;
 * the bound is the longest pass's. */
static void passes_in_a_loop_add_up(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_function *f = nest_fn(1000000, 1, 0, 8), *ft = nest_fn(100000, 1, 1, 8),
	                   *fr = nest_fn(1000000, 1, 0, 8);
	struct kc_nest *tanh_pass = &ft->nests[0], *sum_pass = &fr->nests[0];
	sum_pass->n_writes = 0; /* writes no buffer: a reduction into a scalar */
	tanh_pass->begin.line = 4, tanh_pass->end.line = 4, sum_pass->begin.line = 5, sum_pass->end.line = 5;
	f->dataflow.in_loop = 1;
	f->dataflow.n_passes = 2;
	f->dataflow.passes = KC_NEW_N(&A, struct kc_pass, 2);
	f->dataflow.passes[0] = (struct kc_pass){.begin = tanh_pass->begin, .end = tanh_pass->end, .phase = tanh_pass};
	f->dataflow.passes[1] = (struct kc_pass){.begin = sum_pass->begin, .end = sum_pass->end, .phase = sum_pass};
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_TRANSCENDENTAL], 1e6 * 20e-9));
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 1e6 * 1e-9));
	assert_true(close_to(p.seconds, 1e6 * 20e-9 + 1e6 * 1e-9));
	assert_string_equal(p.bound, "tanhf throughput (scalar libm)");
	/* a pass outside the nest's lines: the nest is predicted whole */
	f->dataflow.passes[1].end.line = 9;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(p.nests[0].seconds[KC_RES_TRANSCENDENTAL] == 0);
}

/* A call to an analyzed function takes the callee's own prediction, scaled by the call's share of its work (the
 * call's naive bytes over the callee's): a call that does the callee's work twice over (its accesses composed
 * at the caller's sizes: 16 bytes an element against the callee's 8) takes twice the callee's 20 us of tanhf,
 * and names the callee's bound. */
static void calls_take_their_callees_prediction(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_poly *n = kc_poly_sym(&A, 0);
	struct kc_function *g = nest_fn(1000, 8, 1, 72), *f = nest_fn(1000, 0, 0, 8);
	g->name = "g";
	g->traffic[KC_MODEL_NAIVE] = (struct kc_traffic){times(4, n), times(4, n), NULL};
	f->nests[0].callee = "g", f->nests[0].callee_fn = g;
	f->nests[0].traffic[KC_MODEL_NAIVE] = (struct kc_traffic){times(8, n), times(8, n), NULL};
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.seconds, 2 * 1000 * 20e-9));
	assert_true(close_to(p.nests[0].seconds[KC_RES_TRANSCENDENTAL], 2 * 1000 * 20e-9));
	assert_string_equal(p.bound, "tanhf throughput (scalar libm)");
	/* a chain of calls is followed 8 deep (KC_PREDICT_MAX_CALL_DEPTH): f[0] -> ... -> f[9], f[9] bound by tanhf;
	 * from f[2] the leaf is 7 calls away and its tanhf counts, from f[0] it is 9 and does not */
	struct kc_function *chain[10];
	chain[9] = g;
	for (int i = 8; i >= 0; i--) {
		chain[i] = nest_fn(1000, 0, 0, 8);
		chain[i]->traffic[KC_MODEL_NAIVE] = (struct kc_traffic){times(4, n), times(4, n), NULL};
		chain[i]->nests[0].callee = "next", chain[i]->nests[0].callee_fn = chain[i + 1];
		chain[i]->nests[0].traffic[KC_MODEL_NAIVE] = (struct kc_traffic){times(4, n), times(4, n), NULL};
	}
	assert_int_equal(kc_predict(&A, chain[2], &m, NULL, &p), 0);
	assert_true(close_to(p.seconds, 1000 * 20e-9));
	assert_int_equal(kc_predict(&A, chain[0], &m, NULL, &p), 0);
	assert_true(p.nests[0].seconds[KC_RES_TRANSCENDENTAL] == 0);
	/* a function calling itself is predicted from its counts: 8 multiplies of nothing, 8 bytes an element */
	f->nests[0].callee_fn = f;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(p.nests[0].seconds[KC_RES_TRANSCENDENTAL] == 0);
}

/* A cblas_* call runs at OpenBLAS's GEMM rate as the harness runs it (the kernels OpenBLAS chooses here), not at
 * the roof of the best kernels: 2 MFLOP at 100 GFLOP/s as run, 20 us, where the roof (200) would say 10. */
static void blas_calls_at_the_rate_as_run(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	m.dense_f32 = (struct kc_ceiling){200, 1, "cblas_sgemm, SkylakeX kernels"};
	struct kc_function *f = nest_fn(1000000, 2, 0, 0);
	f->nests[0].callee = "cblas_sgemm";
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_COMPUTE], 2e6 / 200e9));
	assert_string_equal(p.nests[0].bound, "OpenBLAS GEMM (dense roof)");
	m.dense_run[0] = (struct kc_ceiling){100, 1, "cblas_sgemm, Haswell kernels"};
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_COMPUTE], 2e6 / 100e9));
	assert_string_equal(p.nests[0].bound, "OpenBLAS GEMM (as run here)");
}

/* A reduction with comparisons and no arithmetic (m = fmaxf(m, x[i])) waits for a max at each element: 10^6 of
 * them at 3 ns, not at the add's 1 ns; without a measured max latency, at the add's. */
static void max_reduction_waits_for_the_max(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	m.latency_max[0] = 3e-9;
	struct kc_function *f = nest_fn(1000000, 0, 0, 4);
	f->nests[0].cost.cmp = kc_poly_sym(&A, 0);
	f->nests[0].n_writes = 0;
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.seconds, 1e6 * 3e-9));
	assert_string_equal(p.bound, "max latency chain (a reduction in order)");
	/* the median runs beside the kernels' timings, where sampled, are what it waits on */
	m.latency_max_median[0] = 4e-9;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.seconds, 1e6 * 4e-9));
	m.latency_max[0] = m.latency_max_median[0] = 0;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.seconds, 1e6 * 1e-9));
	assert_string_equal(p.bound, "add latency chain (a reduction in order)");
}

/* The compiler's remarks decide: a loop they do not name runs scalar; one they name, vector. */
static void vectorization_from_the_remarks(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_prediction p;
	int other[] = {12}, ours[] = {5};
	struct kc_vectorized no = {1, other, 1, 0, 0}, yes = {1, ours, 1, 0, 0};
	assert_int_equal(kc_predict(&A, nest_fn(1000000, 64, 0, 12), &m, &no, &p), 0);
	assert_string_equal(p.bound, "scalar float add/multiply peak (not vectorized)");
	assert_true(close_to(p.seconds, 64e6 / 10e9));
	assert_int_equal(p.nests[0].vectorized, 0);
	assert_int_equal(kc_predict(&A, nest_fn(1000000, 64, 0, 12), &m, &yes, &p), 0);
	assert_string_equal(p.bound, "AVX2 float add/multiply peak");
	assert_int_equal(p.nests[0].vectorized, 1);
}

/* A reduction into a scalar (its pass leaves one) waits an add per iteration unless it was vectorized. */
static void reduction_is_latency_bound(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_function *f = nest_fn(1000000, 1, 0, 8);
	static const char *out[] = {"s"};
	f->dataflow.passes = KC_NEW(&A, struct kc_pass);
	f->dataflow.passes[0] = (struct kc_pass){.begin = f->nests[0].begin, .scalars_out = out, .n_scalars_out = 1};
	f->dataflow.n_passes = 1;
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_string_equal(p.bound, "add latency chain (a reduction in order)");
	assert_true(close_to(p.seconds, 1e6 * 1e-9));
	assert_int_equal(p.nests[0].vectorized, 0);
	int lines[] = {4};
	struct kc_vectorized in_order = {1, lines, 1, 0, 0}, reordered = {1, lines, 1, 1, 0};
	assert_int_equal(kc_predict(&A, f, &m, &in_order, &p), 0); /* vectorized loads, the same chain */
	assert_string_equal(p.bound, "add latency chain (a reduction in order)");
	assert_int_equal(kc_predict(&A, f, &m, &reordered, &p), 0); /* -ffast-math: the chain is split */
	assert_string_equal(p.bound, "L3 bandwidth");
	/* a nest that writes no buffer (it returns what it sums) is one too, dataflow or not */
	struct kc_function *g = nest_fn(1000000, 1, 0, 4);
	g->nests[0].n_writes = 0;
	assert_int_equal(kc_predict(&A, g, &m, NULL, &p), 0);
	assert_string_equal(p.bound, "add latency chain (a reduction in order)");
}

/* A nest that writes a buffer but accumulates into a scalar in its loop (matvec's s += a[i][j]*x[j]) waits
 * an add per update of the accumulator (kc_nest.chain: here 2 updates per element);
 * a vectorized loop around the accumulating one runs 256 bits of chains side by side (8 floats), unless the nest
 * reads a buffer it writes; the
 * accumulating loop itself vectorized with reordering flags has no chain; a call's chain is not the
 * caller's to judge (how the callee was vectorized is not known). */
static void accumulator_is_latency_bound(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_function *f = nest_fn(1000000, 1, 0, 8);
	f->nests[0].chain = times(2, kc_poly_sym(&A, 0));
	f->nests[0].chain_line = 5;
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_string_equal(p.bound, "add latency chain (an accumulator updated in order)");
	assert_true(close_to(p.seconds, 2e6 * 1e-9));
	int outer[] = {4}, itself[] = {5};
	struct kc_vectorized around = {1, outer, 1, 0, 0}, reordered = {1, itself, 1, 1, 0},
	                     in_order = {1, itself, 1, 0, 0};
	assert_int_equal(kc_predict(&A, f, &m, &around, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9 / 8));
	/* the chain's loop reads what the nest writes, at elements that move with it (trsv's x[j]): its rows' chains
	 * cannot run side by side, whatever the remark */
	f->nests[0].chain_carried = 1;
	assert_int_equal(kc_predict(&A, f, &m, &around, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9));
	f->nests[0].chain_carried = 0;
	assert_int_equal(kc_predict(&A, f, &m, &in_order, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9));
	assert_int_equal(kc_predict(&A, f, &m, &reordered, &p), 0);
	assert_true(p.nests[0].seconds[KC_RES_LATENCY] == 0);
	/* multiply-adds, vectorized around the chain by a compiler that contracts them: a chain of FMAs (2 ns an
	 * FMA here) over 8 lanes; in order, or without contraction, or on a machine without the FMA's latency, adds */
	f->nests[0].chain_madd = 1;
	m.latency_fma[0] = 2e-9;
	struct kc_vectorized contracted = {1, outer, 1, 0, 1};
	assert_int_equal(kc_predict(&A, f, &m, &contracted, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 2e-9 / 8));
	assert_string_equal(p.bound, "FMA latency chain (an accumulator updated in order)");
	assert_int_equal(kc_predict(&A, f, &m, &around, &p), 0); /* not contracted */
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9 / 8));
	struct kc_vectorized contracted_in_order = {1, itself, 1, 0, 1};
	assert_int_equal(kc_predict(&A, f, &m, &contracted_in_order, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9));
	m.latency_fma[0] = 0;
	assert_int_equal(kc_predict(&A, f, &m, &contracted, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9 / 8));
	f->nests[0].chain_madd = 0;
	/* the chain in 31,250 runs of 64 updates (rows), on a machine whose rows of 64 adds take 0.5 ns an add
	 * against 1 ns one after another: the window hides K = 64 * (1/0.5 - 1) = 64 adds of a run, a run of 64
	 * costs 64 / (1 + 64/64) adds; without the row ceiling, or the runs, one add after another */
	f->nests[0].chain_runs = kc_poly_const(&A, 31250, 1);
	m.latency_add_rows[0] = 0.5e-9;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9 / 2));
	f->nests[0].chain_runs = kc_poly_const(&A, 1, 1); /* one run of 2e6: 1 + 64/2e6 */
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9 / (1 + 64 / 2e6)));
	/* sampled beside the kernels: an add at their median, 1.5 ns; K from the ceilings' best runs, 64 as above */
	m.latency_add_median[0] = 1.5e-9;
	f->nests[0].chain_runs = kc_poly_const(&A, 31250, 1);
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1.5e-9 / 2));
	m.latency_add_median[0] = 0;
	m.latency_add_rows[0] = 0;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(close_to(p.nests[0].seconds[KC_RES_LATENCY], 2e6 * 1e-9));
	f->nests[0].callee = "helper";
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
	assert_true(p.nests[0].seconds[KC_RES_LATENCY] == 0);
}

/* What cannot be predicted says why, and nothing else is made up. */
static void unpredictable_says_why(void **state)
{
	(void)state;
	struct kc_machine m = machine();
	struct kc_prediction p;
	assert_int_equal(kc_predict(&A, nest_fn(-1, 8, 0, 12), &m, NULL, &p), -1);
	assert_false(p.ok);
	assert_non_null(strstr(p.why, "n"));
	assert_int_equal(kc_predict(&A, nest_fn(1000, 8, 0, 12), NULL, NULL, &p), -1);
	assert_string_equal(p.why, "the machine was not measured");
	m.n_libm = 0;
	assert_int_equal(kc_predict(&A, nest_fn(1000, 8, 1, 12), &m, NULL, &p), -1);
	assert_string_equal(p.why, "no per-call time of tanhf was measured");
	/* a loop counted once (its trip count not known) gives one iteration's counts, no time: in f itself, and in
	 * a function it calls (the count passes it up: count.c's call_pieces) */
	m = machine();
	struct kc_function *f = nest_fn(1000, 8, 0, 12);
	f->counted_once = (struct kc_loc){"g.c", 28, 3};
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), -1);
	assert_string_equal(p.why, "the trip count of the loop at line 28 is not known (its body is counted once, see "
	                           "its warning): no time is predicted from one iteration's counts");
	f->counted_once_in = "g";
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), -1);
	assert_string_equal(p.why, "the trip count of the loop at line 28 of g is not known (its body is counted once, "
	                           "see its warning): no time is predicted from one iteration's counts");
	f->counted_once.line = 0;
	assert_int_equal(kc_predict(&A, f, &m, NULL, &p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(reads_and_writes_cost_their_kind),
	    cmocka_unit_test(the_median_batches_price_the_bytes),
	    cmocka_unit_test(every_access_at_l1_costs),
	    cmocka_unit_test(column_stores_come_from_where_the_column_fits),
	    cmocka_unit_test(half_chains_wait_for_conversions),
	    cmocka_unit_test(strided_stores_cost_l1s_column_walk),
	    cmocka_unit_test(allocations_add_their_page_faults),
	    cmocka_unit_test(data_read_again_each_outer_iteration),
	    cmocka_unit_test(dram_adds_the_loads_beyond_a_stream),
	    cmocka_unit_test(passes_in_a_loop_add_up),
	    cmocka_unit_test(calls_take_their_callees_prediction),
	    cmocka_unit_test(blas_calls_at_the_rate_as_run),
	    cmocka_unit_test(max_reduction_waits_for_the_max),
	    cmocka_unit_test(transcendental_bound),
	    cmocka_unit_test(memory_level_from_the_working_set),
	    cmocka_unit_test(vectorization_from_the_remarks),
	    cmocka_unit_test(reduction_is_latency_bound),
	    cmocka_unit_test(accumulator_is_latency_bound),
	    cmocka_unit_test(unpredictable_says_why),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	kc_arena_release(&A);
	return rc;
}
