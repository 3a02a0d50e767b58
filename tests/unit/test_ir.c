/* test_ir.c — the counting, footprint and dataflow passes on IR built by hand with ir.c (no libclang):
 * closed-form counts, min/streaming bytes, fusion decisions, and the limits of the passes, which end as a
 * warning and exact false, never as a dropped entry or a wrong number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "count.h"
#include "dataflow.h"
#include "footprint.h"

/* A kernel under construction: its IR, the arena everything lives in, and its size symbols. */
struct kernel {
	struct kc_arena a;
	struct kc_fn_ir *ir;
	int m, n, k;
};

static struct kc_loc at(unsigned line)
{
	return (struct kc_loc){"kernel.c", line, 1};
}

/* A kernel with sizes m, n, k (ids 0, 1, 2: formulas name them in that order) at m = 30, n = 100, k = 20. */
static void kernel_init(struct kernel *kn, const char *name)
{
	kn->a = (struct kc_arena)KC_ARENA_INIT;
	kn->ir = kc_ir_function_new(&kn->a, name, at(1));
	kn->m = kc_ir_size_sym(kn->ir, "m", 30);
	kn->n = kc_ir_size_sym(kn->ir, "n", 100);
	kn->k = kc_ir_size_sym(kn->ir, "k", 20);
}

static struct kc_poly *sym(struct kernel *kn, int s)
{
	return kc_poly_sym(&kn->a, s);
}
static struct kc_poly *num(struct kernel *kn, long long v)
{
	return kc_poly_const(&kn->a, v, 1);
}

/* s + c */
static struct kc_poly *plus(struct kernel *kn, int s, long long c)
{
	struct kc_poly *p;
	assert_int_equal(kc_poly_add(&kn->a, sym(kn, s), num(kn, c), &p), 0);
	return p;
}

/* A loop for (v = lo; v <= hi; v += step) in parent with a fresh loop variable `name`. */
static struct kc_node *loop(struct kernel *kn, struct kc_node *parent, unsigned line, const char *name,
                            struct kc_poly *lo, struct kc_poly *hi, long long step, int *var)
{
	int v = kc_ir_loop_sym(kn->ir, name);
	assert_true(v >= 0);
	if (var)
		*var = v;
	return kc_ir_loop_new(&kn->a, parent, at(line), v, lo, hi, step);
}

/* for (v = 0; v < n; v++) */
static struct kc_node *upto(struct kernel *kn, struct kc_node *parent, unsigned line, const char *name, int size,
                            int *var)
{
	return loop(kn, parent, line, name, num(kn, 0), plus(kn, size, -1), 1, var);
}

static struct kc_node *stmt(struct kernel *kn, struct kc_node *parent, unsigned line)
{
	return kc_ir_node_new(&kn->a, KC_NODE_STMT, parent, at(line), at(line));
}

static void access(struct kernel *kn, struct kc_node *st, int buffer, int is_write, int ndims, struct kc_poly *i0,
                   struct kc_poly *i1)
{
	struct kc_access acc = {.buffer = buffer, .ndims = ndims, .is_write = is_write, .loc = st->loc};
	acc.index[0] = i0;
	acc.index[1] = i1;
	kc_ir_access_add(&kn->a, st, &acc);
}

/* A float buffer with one or two declared dimensions. */
static int buffer(struct kernel *kn, const char *name, int is_param, int d0, int d1)
{
	struct kc_poly *dims[2] = {sym(kn, d0), d1 >= 0 ? sym(kn, d1) : NULL};
	return kc_ir_buffer_add(&kn->a, kn->ir, name, "float", 4, is_param, d1 >= 0 ? 2 : 1, dims);
}

/* Every pass, as the front end runs them once the body is built. */
static struct kc_function *analyze(struct kernel *kn)
{
	kc_ir_reserve_nests(&kn->a, kn->ir);
	kc_count_function(&kn->a, kn->ir);
	kc_footprint_function(&kn->a, kn->ir);
	kc_dataflow_function(&kn->a, kn->ir);
	return kn->ir->fn;
}

static const char *text(struct kernel *kn, const struct kc_poly *p)
{
	if (!p)
		return "(null)";
	struct kc_buf b = KC_BUF_INIT;
	kc_function_format(kn->ir->fn, p, &b);
	char *s = kc_arena_strdup(&kn->a, kc_buf_str(&b));
	kc_buf_release(&b);
	return s;
}

static const char *flops(struct kernel *kn, const struct kc_cost *c)
{
	struct kc_poly *p;
	assert_int_equal(kc_cost_flops(&kn->a, c, &p), 0);
	return text(kn, p);
}

static const char *bytes(struct kernel *kn, const struct kc_traffic *t)
{
	struct kc_poly *p;
	assert_int_equal(kc_traffic_total(&kn->a, t, &p), 0);
	return text(kn, p);
}

static long long value(struct kernel *kn, const struct kc_poly *p)
{
	long long v;
	const char *why;
	assert_int_equal(kc_function_eval(kn->ir->fn, p, &v, &why), 0);
	return v;
}

/* The n-th warning of the function ("" when there are fewer). */
static const struct kc_diag *warning(const struct kc_function *fn, int nth)
{
	static const struct kc_diag none = {.message = ""};
	for (const struct kc_diag *d = fn->diags.head; d; d = d->next)
		if (d->severity == KC_WARNING && nth-- == 0)
			return d;
	return &none;
}

/* ------------------------------------------------------------------------------------------------ */
/* Counting */

/* for (i = 0; i < n; i++) for (j = 0; j <= i; j++) s += x: one add per (i, j) */
static void count_triangular(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "tri");
	int i, j, x = buffer(&kn, "x", 1, kn.n, -1);
	struct kc_node *li = upto(&kn, kn.ir->body, 2, "i", kn.n, &i);
	struct kc_node *lj = loop(&kn, li, 3, "j", num(&kn, 0), sym(&kn, i), 1, &j);
	struct kc_node *st = stmt(&kn, lj, 4);
	st->cost.ops[KC_OP_ADD][KC_PREC_F64] = 1;
	access(&kn, st, x, 0, 1, sym(&kn, j), NULL);
	struct kc_function *fn = analyze(&kn);
	/* x[j] does not name i, but j's bound does: each row reads other elements, nothing is read again whole */
	assert_null(fn->nests[0].reread_bytes);
	assert_string_equal(flops(&kn, &fn->cost), "n*(n + 1)/2");
	assert_int_equal(fn->n_nests, 1);
	assert_string_equal(text(&kn, fn->nests[0].trips), "n*(n + 1)/2");
	assert_int_equal(fn->exact, 1);
	assert_null(fn->diags.head);
	kc_arena_release(&kn.a);
}

/* for (i = 0; i < n; i += 3), for (i = n - 1; i >= 0; i -= 2), for (i = 0; i <= 10; i += 4) */
static void count_strided(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "strided");
	loop(&kn, kn.ir->body, 2, "i", num(&kn, 0), plus(&kn, kn.n, -1), 3, NULL);
	stmt(&kn, kn.ir->body->last, 3)->cost.ops[KC_OP_MUL][KC_PREC_F32] = 1;
	loop(&kn, kn.ir->body, 4, "i", num(&kn, 0), plus(&kn, kn.n, -1), -2, NULL);
	stmt(&kn, kn.ir->body->last, 5)->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
	loop(&kn, kn.ir->body, 6, "i", num(&kn, 0), num(&kn, 10), 4, NULL);
	stmt(&kn, kn.ir->body->last, 7)->cost.ops[KC_OP_DIV][KC_PREC_F32] = 1;
	struct kc_function *fn = analyze(&kn);
	assert_int_equal(fn->n_nests, 3);
	assert_string_equal(text(&kn, fn->nests[0].trips), "floor((n - 1)/3) + 1");
	assert_int_equal(value(&kn, fn->nests[0].trips), 34); /* 0, 3, .., 99 */
	assert_string_equal(text(&kn, fn->nests[1].trips), "floor((n - 1)/2) + 1");
	assert_int_equal(value(&kn, fn->nests[1].trips), 50);    /* 99, 97, .., 1 */
	assert_string_equal(text(&kn, fn->nests[2].trips), "3"); /* 0, 4, 8 */
	assert_string_equal(flops(&kn, &fn->cost), "floor((n - 1)/3) + floor((n - 1)/2) + 5");
	assert_int_equal(fn->exact, 1);
	kc_arena_release(&kn.a);
}

/* for (i = 0; i < n; i++) if (i >= 50) s += x; else s *= x; */
static void count_if_else(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "branchy");
	int i;
	struct kc_node *li = upto(&kn, kn.ir->body, 2, "i", kn.n, &i);
	struct kc_node *n_if = kc_ir_node_new(&kn.a, KC_NODE_IF, li, at(3), at(3));
	assert_int_equal(kc_ir_guard_add(n_if, plus(&kn, i, -50)), 0);
	stmt(&kn, n_if, 4)->cost.ops[KC_OP_ADD][KC_PREC_F64] = 1;
	struct kc_node *orelse = kc_ir_else(&kn.a, n_if, at(5));
	assert_ptr_equal(kc_ir_else(&kn.a, n_if, at(5)), orelse);
	stmt(&kn, orelse, 6)->cost.ops[KC_OP_MUL][KC_PREC_F64] = 1;
	struct kc_function *fn = analyze(&kn);
	assert_string_equal(text(&kn, fn->cost.ops[KC_OP_ADD][KC_PREC_F64]), "n - 50");
	assert_string_equal(text(&kn, fn->cost.ops[KC_OP_MUL][KC_PREC_F64]), "50");
	assert_int_equal(fn->exact, 1);
	kc_arena_release(&kn.a);
}

/* The shared rule on its own: the cases without a closed form say whether a limit was the reason. */
static void last_step_rule(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "rule");
	int i, j;
	struct kc_node *li = upto(&kn, kn.ir->body, 2, "i", kn.n, &i);
	struct kc_node *lj = loop(&kn, li, 3, "j", sym(&kn, i), plus(&kn, kn.n, -1), 2, &j);
	struct kc_poly *last = NULL;
	const char *limit = "unset";
	int loop_vars[KC_POLY_MAX_SYMS] = {0};
	loop_vars[i] = loop_vars[j] = 1;
	/* floor((n - 1 - i)/2) is a floor of a loop variable: no size symbol, no limit either */
	assert_int_equal(kc_ir_loop_last_step(&kn.a, &kn.a, kn.ir->fn, lj, lj->upper[0], loop_vars, &last, &limit), -1);
	assert_null(limit);
	assert_null(last);
	/* without the mask it is the derived symbol */
	assert_int_equal(kc_ir_loop_last_step(&kn.a, &kn.a, kn.ir->fn, lj, lj->upper[0], NULL, &last, &limit), 0);
	assert_string_equal(text(&kn, last), "floor((n - i - 1)/2)");
	/* several start bounds: lo = max(0, m) */
	struct kc_node *lk = loop(&kn, kn.ir->body, 4, "k2", num(&kn, 0), plus(&kn, kn.n, -1), 4, NULL);
	assert_int_equal(kc_ir_loop_bound(lk, 0, sym(&kn, kn.m)), 0);
	assert_int_equal(kc_ir_loop_last_step(&kn.a, &kn.a, kn.ir->fn, lk, lk->upper[0], NULL, &last, &limit), -1);
	assert_null(limit);
	/* divisible: (n - 1 + 1)/4 needs no floor when the distance is 4*n */
	struct kc_poly *four_n;
	assert_int_equal(kc_poly_scale(&kn.a, sym(&kn, kn.n), kc_rat_int(4), &four_n), 0);
	struct kc_node *ll = loop(&kn, kn.ir->body, 5, "l", num(&kn, 0), four_n, 4, NULL);
	assert_int_equal(kc_ir_loop_last_step(&kn.a, &kn.a, kn.ir->fn, ll, ll->upper[0], NULL, &last, &limit), 0);
	assert_string_equal(text(&kn, last), "n");
	kc_arena_release(&kn.a);
}

/* C[i][j] += A[i][p] * B[p][j] over i < m, j < n, p < k: as one fma, and as a mul and an add */
static void build_matmul(struct kernel *kn, int fma)
{
	int A = buffer(kn, "A", 1, kn->m, kn->k), B = buffer(kn, "B", 1, kn->k, kn->n),
	    C = buffer(kn, "C", 1, kn->m, kn->n);
	int i, j, p;
	struct kc_node *li = upto(kn, kn->ir->body, 2, "i", kn->m, &i);
	struct kc_node *lj = upto(kn, li, 3, "j", kn->n, &j);
	struct kc_node *lp = upto(kn, lj, 4, "p", kn->k, &p);
	struct kc_node *st = stmt(kn, lp, 5);
	if (fma) {
		st->cost.ops[KC_OP_FMA][KC_PREC_F32] = 1;
	} else {
		st->cost.ops[KC_OP_MUL][KC_PREC_F32] = 1;
		st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
	}
	access(kn, st, C, 0, 2, sym(kn, i), sym(kn, j));
	access(kn, st, A, 0, 2, sym(kn, i), sym(kn, p));
	access(kn, st, B, 0, 2, sym(kn, p), sym(kn, j));
	access(kn, st, C, 1, 2, sym(kn, i), sym(kn, j));
	access(kn, st, C, 1, 2, sym(kn, i), sym(kn, j)); /* a repeated access counts once */
}

static void count_matmul(void **state)
{
	(void)state;
	for (int fma = 0; fma < 2; fma++) {
		struct kernel kn;
		kernel_init(&kn, "matmul");
		build_matmul(&kn, fma);
		assert_int_equal(kn.ir->body->first->first->first->first->n_accesses, 4);
		struct kc_function *fn = analyze(&kn);
		assert_string_equal(flops(&kn, &fn->cost), "2*m*n*k");
		assert_string_equal(text(&kn, fn->cost.ops[KC_OP_FMA][KC_PREC_F32]), fma ? "m*n*k" : "(null)");
		assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_NAIVE]), "16*m*n*k");
		assert_string_equal(text(&kn, fn->traffic[KC_MODEL_MIN].read), "4*(m*n + m*k + n*k)");
		assert_string_equal(text(&kn, fn->traffic[KC_MODEL_MIN].write), "4*m*n");
		assert_int_equal(fn->buffers[2].role, KC_ROLE_INOUT);
		assert_int_equal(fn->exact, 1);
		/* in the p loop B[p][j] steps a row (n elements): strided; C[i][j] stays, A[i][p] steps one */
		assert_string_equal(text(&kn, fn->nests[0].strided.read), "4*m*n*k");
		assert_true(kc_poly_is_zero(fn->nests[0].strided.write));
		/* A[i][p] starts each row at i*k floats: at k = 20, 80 bytes, off a 64-byte line for odd i; C[i][j]
		 * does not move with p. The p loop runs k times */
		assert_string_equal(text(&kn, fn->nests[0].misaligned.read), "4*m*n*k");
		assert_true(kc_poly_is_zero(fn->nests[0].misaligned.write));
		assert_string_equal(text(&kn, fn->nests[0].inner_trips), "k");
		/* each of the m iterations of i reads all of B again: neither index of B[p][j] moves with i */
		assert_string_equal(text(&kn, fn->nests[0].reread_bytes), "4*n*k");
		assert_string_equal(text(&kn, fn->nests[0].outer_trips), "m");
		/* C is read before it is written: no write-allocated bytes */
		assert_true(kc_poly_is_zero(fn->nests[0].traffic[KC_MODEL_STREAMING].write_only));
		kc_arena_release(&kn.a);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Footprints */

/* c[i] = a[i] + b[i] */
static void footprint_vecadd(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "vecadd");
	int a = buffer(&kn, "a", 1, kn.n, -1), b = buffer(&kn, "b", 1, kn.n, -1), c = buffer(&kn, "c", 1, kn.n, -1);
	int i;
	struct kc_node *st = stmt(&kn, upto(&kn, kn.ir->body, 2, "i", kn.n, &i), 3);
	st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
	access(&kn, st, a, 0, 1, sym(&kn, i), NULL);
	access(&kn, st, b, 0, 1, sym(&kn, i), NULL);
	access(&kn, st, c, 1, 1, sym(&kn, i), NULL);
	struct kc_function *fn = analyze(&kn);
	assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_MIN]), "12*n");
	assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_STREAMING]), "12*n");
	assert_string_equal(text(&kn, fn->traffic[KC_MODEL_MIN].read), "8*n");
	assert_int_equal(fn->buffers[a].role, KC_ROLE_INPUT);
	assert_int_equal(fn->buffers[c].role, KC_ROLE_OUTPUT);
	assert_int_equal(fn->nests[0].n_reads, 2);
	assert_int_equal(fn->nests[0].n_writes, 1);
	/* c is written and not read: its bytes are write-allocated (the prediction's copy cost), in the nest and in
	 * the function; no access is strided */
	assert_string_equal(text(&kn, fn->nests[0].traffic[KC_MODEL_STREAMING].write_only), "4*n");
	assert_string_equal(text(&kn, fn->traffic[KC_MODEL_STREAMING].write_only), "4*n");
	assert_true(kc_poly_is_zero(fn->nests[0].strided.read) && kc_poly_is_zero(fn->nests[0].strided.write));
	kc_arena_release(&kn.a);
}

/* for (i = 0; i < n - 8; i++) b[i] = a[i + 8]: a starts 32 bytes into a line (half a line: a 64-byte vector
 * spans two, a 32-byte one none) */
static void count_half_line(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "half");
	int a = buffer(&kn, "a", 1, kn.n, -1), b = buffer(&kn, "b", 1, kn.n, -1), i;
	struct kc_node *li = loop(&kn, kn.ir->body, 2, "i", num(&kn, 0), plus(&kn, kn.n, -9), 1, &i);
	struct kc_node *st = stmt(&kn, li, 3);
	access(&kn, st, a, 0, 1, plus(&kn, i, 8), NULL);
	access(&kn, st, b, 1, 1, sym(&kn, i), NULL);
	struct kc_function *fn = analyze(&kn);
	assert_string_equal(text(&kn, fn->nests[0].half_line.read), "4*(n - 8)");
	assert_true(kc_poly_is_zero(fn->nests[0].half_line.write));
	assert_true(kc_poly_is_zero(fn->nests[0].misaligned.read) && kc_poly_is_zero(fn->nests[0].misaligned.write));
	kc_arena_release(&kn.a);
}

/* for (i = 0; i < n; i++) for (j = 0; j < n; j++) b[j][i] = a[i][j] (or b[i][j] = a[j][i], the strided access a
 * load; or b[j][0] = a[i][j], which no loop around brings back to its line) at n floats a row: a column walk
 * that conflicts in the caches where a row is a multiple of 128 bytes, at the sizes; its stores, their pitch,
 * the lines a cache needs to keep the column (n times 64 over the slots its lines take), and a note. */
static void count_column_walk(void **state)
{
	(void)state;
	const struct {
		long long n;
		int shape; /* 0: the transpose, 1: strided loads, 2: no reuse, 3: n has no value, 4: c[j][i] first */
		const char *stores;
		long long pitch, lines;
		int slots;
	} cases[] = {
	    {1024, 0, "n^2", 4096, 65536, 1},   /* a row a page: one slot */
	    {256, 0, "n^2", 1024, 4096, 4},     /* 4 rows a page */
	    {32, 0, "n^2", 128, 64, 32},        /* 2 lines a row: 32 slots of 64 (4 KiB: no note, any L1 keeps it) */
	    {1024, 4, "2*n^2", 4096, 65536, 1}, /* c's column (rows of 256 bytes) needs 256 KiB, b's 4096: b's */
	    {1000, 0, NULL, 0, 0, 0},           /* 4000 bytes: the lines move across the slots */
	    {16, 0, NULL, 0, 0, 0},             /* a line a row: every slot */
	    {1024, 1, NULL, 0, 0, 0},
	    {1024, 2, NULL, 0, 0, 0},
	    {1024, 3, NULL, 0, 0, 0},
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct kernel kn;
		kernel_init(&kn, "transpose");
		kn.ir->fn->syms.syms[kn.n].value = cases[c].n;
		kn.ir->fn->syms.syms[kn.n].has_value = cases[c].shape != 3;
		int a = buffer(&kn, "a", 1, kn.n, kn.n), b = buffer(&kn, "b", 1, kn.n, kn.n), i, j;
		struct kc_node *st =
		    stmt(&kn, upto(&kn, upto(&kn, kn.ir->body, 2, "i", kn.n, &i), 3, "j", kn.n, &j), 4);
		kn.ir->fn->syms.syms[kn.k].value = 64;
		int cc = buffer(&kn, "c", 1, kn.n, kn.k);
		if (cases[c].shape == 4) /* c[j][i] = a[i][j], rows of k = 64 floats */
			access(&kn, st, cc, 1, 2, sym(&kn, j), sym(&kn, i));
		if (cases[c].shape == 1) { /* b[i][j] = a[j][i] */
			access(&kn, st, a, 0, 2, sym(&kn, j), sym(&kn, i));
			access(&kn, st, b, 1, 2, sym(&kn, i), sym(&kn, j));
		} else { /* b[j][i] = a[i][j], or b[j][0] */
			access(&kn, st, a, 0, 2, sym(&kn, i), sym(&kn, j));
			access(&kn, st, b, 1, 2, sym(&kn, j), cases[c].shape == 2 ? num(&kn, 0) : sym(&kn, i));
		}
		struct kc_function *fn = analyze(&kn);
		const struct kc_nest *nest = &fn->nests[0];
		assert_string_equal(text(&kn, nest->column_stores), cases[c].stores ? cases[c].stores : "(null)");
		const struct kc_diag *note = fn->diags.head;
		if (cases[c].lines && cases[c].lines * 64 <= 32 * 1024) /* a column any L1 keeps: counted, not noted */
			assert_null(note);
		if (!cases[c].stores) {
			assert_true(nest->column_pitch == 0 && nest->column_lines == 0);
			assert_null(note);
			kc_arena_release(&kn.a);
			continue;
		}
		assert_true(nest->column_pitch == cases[c].pitch && nest->column_lines == cases[c].lines);
		assert_int_equal(nest->column_slots, cases[c].slots);
		assert_int_equal(nest->column_buffer, b);
		if (cases[c].lines * 64 > 32 * 1024) {
			assert_non_null(note);
			assert_int_equal(note->severity, KC_NOTE);
			assert_int_equal(note->loc.line, 4);
			char want[400];
			snprintf(
			    want, sizeof want,
			    "the stores to 'b' here walk a column with a pitch of %lld bytes: its lines fall on %d of "
			    "the "
			    "64 line slots of a 4 KiB page, and so into %d/64 of every cache's sets; a cache keeps the "
			    "column for the next pass only if it holds %lld KiB (a row longer by one 64-byte line "
			    "spreads them)",
			    cases[c].pitch, cases[c].slots, cases[c].slots, cases[c].lines * 64 / 1024);
			assert_string_equal(note->message, want);
			assert_null(note->next);
		}
		kc_arena_release(&kn.a);
	}
}

/* for (i = 1; i < n - 1; i++) b[i] = a[i - 1] + a[i] + a[i + 1]: the hull of a is all of it */
static void footprint_stencil(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "stencil");
	int a = buffer(&kn, "a", 1, kn.n, -1), b = buffer(&kn, "b", 1, kn.n, -1);
	int i;
	struct kc_node *li = loop(&kn, kn.ir->body, 2, "i", num(&kn, 1), plus(&kn, kn.n, -2), 1, &i);
	struct kc_node *st = stmt(&kn, li, 3);
	st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 2;
	for (int d = -1; d <= 1; d++)
		access(&kn, st, a, 0, 1, plus(&kn, i, d), NULL);
	access(&kn, st, b, 1, 1, sym(&kn, i), NULL);
	struct kc_function *fn = analyze(&kn);
	assert_string_equal(text(&kn, fn->traffic[KC_MODEL_MIN].read), "4*n");
	assert_string_equal(text(&kn, fn->traffic[KC_MODEL_MIN].write), "4*(n - 2)");
	assert_string_equal(text(&kn, fn->traffic[KC_MODEL_NAIVE].read), "12*(n - 2)");
	assert_string_equal(flops(&kn, &fn->cost), "2*(n - 2)");
	assert_int_equal(fn->exact, 1);
	/* from i = 1 in 64-byte-aligned buffers, a[i], a[i + 1] and b[i] start 4 and 8 bytes into a line; a[i - 1]
	 * starts one. The i loop runs n - 2 times */
	assert_string_equal(text(&kn, fn->nests[0].misaligned.read), "8*(n - 2)");
	assert_string_equal(text(&kn, fn->nests[0].misaligned.write), "4*(n - 2)");
	assert_string_equal(text(&kn, fn->nests[0].inner_trips), "n - 2");
	assert_null(fn->nests[0].reread_bytes); /* every access moves with i */
	kc_arena_release(&kn.a);
}

/* The order of two hull bounds is decided for every size, not at the benchmark sizes: a kernel whose sizes
 * have no value (sized == 0) or the values m = 30, n = 100, k = 20. */
static void kernel_init_sized(struct kernel *kn, const char *name, int sized)
{
	kernel_init(kn, name);
	for (int s = 0; !sized && s < kn->ir->fn->syms.n; s++)
		kn->ir->fn->syms.syms[s].has_value = 0;
}

/* s*c + d */
static struct kc_poly *affine(struct kernel *kn, const struct kc_poly *s, long long c, long long d)
{
	struct kc_poly *p;
	assert_int_equal(kc_poly_scale(&kn->a, s, kc_rat_int(c), &p), 0);
	assert_int_equal(kc_poly_add(&kn->a, p, num(kn, d), &p), 0);
	return p;
}

/* for (i = 0; i + 4 <= n; i += 4) x[i] *= 2;  for (; i < n; i++) x[i] += 1;
 * x is read and written over 0 .. n-1: the hull of [0, 4*floor((n - 4)/4)] and [4*floor((n - 4)/4) + 4, n - 1] */
static void footprint_remainder_loop(void **state)
{
	(void)state;
	for (int sized = 0; sized < 2; sized++) {
		struct kernel kn;
		kernel_init_sized(&kn, "remainder", sized);
		int x = buffer(&kn, "x", 1, kn.n, -1), i;
		struct kc_node *l1 = loop(&kn, kn.ir->body, 2, "i", num(&kn, 0), plus(&kn, kn.n, -4), 4, &i);
		struct kc_poly *last;
		const char *limit;
		assert_int_equal(kc_ir_loop_last_step(&kn.a, &kn.a, kn.ir->fn, l1, l1->upper[0], NULL, &last, &limit),
		                 0);
		struct kc_node *l2 =
		    kc_ir_loop_new(&kn.a, kn.ir->body, at(4), i, affine(&kn, last, 4, 4), plus(&kn, kn.n, -1), 1);
		struct kc_node *l[2] = {l1, l2};
		for (int k = 0; k < 2; k++) {
			struct kc_node *st = stmt(&kn, l[k], 3 + 2 * (unsigned)k);
			st->cost.ops[KC_OP_MUL][KC_PREC_F32] = 1;
			access(&kn, st, x, 0, 1, sym(&kn, i), NULL);
			access(&kn, st, x, 1, 1, sym(&kn, i), NULL);
		}
		struct kc_function *fn = analyze(&kn);
		assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_MIN]), "8*n");
		assert_int_equal(fn->exact, 1);
		assert_int_equal(fn->diags.warnings, 0);
		kc_arena_release(&kn.a);
	}
}

/* x[0] + x[1] + x[2] before for (i = 0; i < n; i++) y[i] = a * x[i]: x's hull ends at max(2, n - 1), which
 * depends on n; the figure takes the bound of the benchmark sizes (or of large sizes) and says so */
static void footprint_order_by_sizes(void **state)
{
	(void)state;
	static const char *const expect[3] = {"8*n", "8*n", "4*(n + 3)"};
	static const char *const where[3] = {"the larger for large sizes", "the larger at the benchmark sizes",
	                                     "the larger at the benchmark sizes"};
	static const char *const taken[3] = {"n - 1", "n - 1", "2"};
	for (int c = 0; c < 3; c++) {
		struct kernel kn;
		kernel_init_sized(&kn, "order", c > 0);
		if (c == 2)
			kn.ir->fn->syms.syms[kn.n].value = 2;
		int x = buffer(&kn, "x", 1, kn.n, -1), y = buffer(&kn, "y", 1, kn.n, -1), i;
		struct kc_node *st = stmt(&kn, kn.ir->body, 2);
		st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 2;
		for (int e = 0; e < 3; e++)
			access(&kn, st, x, 0, 1, num(&kn, e), NULL);
		st = stmt(&kn, upto(&kn, kn.ir->body, 3, "i", kn.n, &i), 4);
		st->cost.ops[KC_OP_MUL][KC_PREC_F32] = 1;
		access(&kn, st, x, 0, 1, sym(&kn, i), NULL);
		access(&kn, st, y, 1, 1, sym(&kn, i), NULL);
		struct kc_function *fn = analyze(&kn);
		assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_MIN]), expect[c]);
		assert_int_equal(fn->exact, 0);
		assert_int_equal(fn->diags.warnings, 1);
		char msg[256];
		snprintf(msg, sizeof msg,
		         "the hull of 'x' takes the larger of 2 and n - 1, which kcost cannot order for all sizes: the "
		         "figure takes %s, %s",
		         taken[c], where[c]);
		assert_string_equal(warning(fn, 0)->message, msg);
		assert_int_equal(warning(fn, 0)->loc.line, 3); /* the loop, where the hulls of the two nests meet */
		kc_arena_release(&kn.a);
	}
}

/* for (i = 0; i < n; i++) for (j = i; j < min(i + k, n); j++) s += x[j]: x[j] stays below n for every
 * size (the inner loop runs where x is read: k >= 1), whichever of i + k - 1 and n - 1 bounds j */
static void footprint_clipped_loop(void **state)
{
	(void)state;
	for (int sized = 0; sized < 2; sized++) {
		struct kernel kn;
		kernel_init_sized(&kn, "band", sized);
		int x = buffer(&kn, "x", 1, kn.n, -1), i, j;
		struct kc_node *li = upto(&kn, kn.ir->body, 2, "i", kn.n, &i);
		struct kc_poly *ik;
		assert_int_equal(kc_poly_add(&kn.a, sym(&kn, i), plus(&kn, kn.k, -1), &ik), 0);
		struct kc_node *lj = loop(&kn, li, 3, "j", sym(&kn, i), ik, 1, &j);
		assert_int_equal(kc_ir_loop_bound(lj, 1, plus(&kn, kn.n, -1)), 0);
		struct kc_node *st = stmt(&kn, lj, 4);
		st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
		access(&kn, st, x, 0, 1, sym(&kn, j), NULL);
		struct kc_function *fn = analyze(&kn);
		assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_MIN]), "4*n");
		/* without sizes the count cannot order the inner loop's bounds (count.c says so); the footprint can */
		for (const struct kc_diag *d = fn->diags.head; d; d = d->next)
			assert_null(strstr(d->message, "hull"));
		assert_int_equal(fn->exact, sized);
		kc_arena_release(&kn.a);
	}
}

/* for (i = 0; i < n && i < 64; i++) x[i] *= 2: the hull ends at min(n - 1, 63), which depends on n */
static void footprint_min_bound_by_sizes(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "clipped");
	int x = buffer(&kn, "x", 1, kn.n, -1), i;
	struct kc_node *li = upto(&kn, kn.ir->body, 2, "i", kn.n, &i);
	assert_int_equal(kc_ir_loop_bound(li, 1, num(&kn, 63)), 0);
	struct kc_node *st = stmt(&kn, li, 3);
	st->cost.ops[KC_OP_MUL][KC_PREC_F32] = 1;
	access(&kn, st, x, 1, 1, sym(&kn, i), NULL);
	struct kc_function *fn = analyze(&kn);
	assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_MIN]), "256"); /* n = 100 */
	assert_int_equal(fn->exact, 0);
	assert_string_equal(
	    warning(fn, 0)->message,
	    "the hull of 'x' takes the smaller of n - 1 and 63, which kcost cannot order for all sizes: "
	    "the figure takes 63, the smaller at the benchmark sizes");
	kc_arena_release(&kn.a);
}

/* ------------------------------------------------------------------------------------------------ */
/* Dataflow */

/* t[i] = 2 * a[i]; then b[i] = t[i] + 1: fused, t disappears */
static void dataflow_elementwise_fuses(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "twopass");
	int a = buffer(&kn, "a", 1, kn.n, -1), b = buffer(&kn, "b", 1, kn.n, -1), t = buffer(&kn, "t", 0, kn.n, -1);
	int i;
	struct kc_node *st = stmt(&kn, upto(&kn, kn.ir->body, 2, "i", kn.n, &i), 3);
	st->cost.ops[KC_OP_MUL][KC_PREC_F32] = 1;
	access(&kn, st, a, 0, 1, sym(&kn, i), NULL);
	access(&kn, st, t, 1, 1, sym(&kn, i), NULL);
	st = stmt(&kn, upto(&kn, kn.ir->body, 4, "i", kn.n, &i), 5);
	st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
	access(&kn, st, t, 0, 1, sym(&kn, i), NULL);
	access(&kn, st, b, 1, 1, sym(&kn, i), NULL);
	struct kc_function *fn = analyze(&kn);
	const struct kc_dataflow *df = &fn->dataflow;
	assert_int_equal(df->n_passes, 2);
	assert_string_equal(kc_fusion_kind_name(df->edges[0].kind), "elementwise");
	assert_int_equal(df->edges[0].legal, 1);
	assert_string_equal(df->edges[0].reason,
	                    "elementwise: each iteration reads the t element the same iteration wrote");
	assert_int_equal(df->n_groups, 1);
	assert_int_equal(df->groups[0].n_removes, 1);
	assert_int_equal(df->groups[0].removes[0], t);
	assert_string_equal(bytes(&kn, &df->before), "16*n");
	assert_string_equal(bytes(&kn, &df->after), "8*n");
	assert_int_equal(fn->buffers[t].role, KC_ROLE_INTERMEDIATE);
	assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_MIN]), "8*n");
	kc_arena_release(&kn.a);
}

/* s += a[i]; then b[i] = a[i] / s: the second pass needs the whole reduction */
static void dataflow_reduction_blocks(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "normalize");
	int a = buffer(&kn, "a", 1, kn.n, -1), b = buffer(&kn, "b", 1, kn.n, -1);
	int s = kc_ir_scalar_add(&kn.a, kn.ir, "s", 0);
	int i;
	struct kc_node *st = stmt(&kn, upto(&kn, kn.ir->body, 2, "i", kn.n, &i), 3);
	st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
	access(&kn, st, a, 0, 1, sym(&kn, i), NULL);
	kc_ir_scalar_use(&kn.a, st, s, 0);
	kc_ir_scalar_use(&kn.a, st, s, 1);
	st = stmt(&kn, upto(&kn, kn.ir->body, 4, "i", kn.n, &i), 5);
	st->cost.ops[KC_OP_DIV][KC_PREC_F32] = 1;
	access(&kn, st, a, 0, 1, sym(&kn, i), NULL);
	access(&kn, st, b, 1, 1, sym(&kn, i), NULL);
	kc_ir_scalar_use(&kn.a, st, s, 0);
	struct kc_function *fn = analyze(&kn);
	const struct kc_dataflow *df = &fn->dataflow;
	assert_int_equal(df->n_passes, 2);
	assert_int_equal(df->edges[0].kind, KC_FUSE_REDUCTION);
	assert_int_equal(df->edges[0].legal, 0);
	assert_string_equal(df->edges[0].reason, "reduction in between: the second pass needs 's', which the first "
	                                         "completes only after its last iteration");
	assert_int_equal(df->passes[0].n_scalars_out, 1);
	assert_string_equal(df->passes[0].scalars_out[0], "s");
	assert_int_equal(df->n_groups, 0);
	assert_string_equal(bytes(&kn, &df->after), "12*n");
	kc_arena_release(&kn.a);
}

/* ------------------------------------------------------------------------------------------------ */
/* Limits that grow */

/* 600 passes (the dataflow once stopped at 512) */
static void many_passes(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "many");
	int x = buffer(&kn, "x", 1, kn.n, -1);
	for (int p = 0; p < 600; p++) {
		int i;
		struct kc_node *st = stmt(&kn, upto(&kn, kn.ir->body, 2 + (unsigned)p, "i", kn.n, &i), 2 + (unsigned)p);
		st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
		access(&kn, st, x, 1, 1, sym(&kn, i), NULL);
	}
	struct kc_function *fn = analyze(&kn);
	assert_int_equal(fn->n_nests, 600);
	assert_int_equal(fn->dataflow.n_passes, 600);
	assert_string_equal(kc_fusion_kind_name(fn->dataflow.edges[598].kind), "elementwise"); /* x written again */
	assert_int_equal(fn->dataflow.n_groups, 1);
	assert_int_equal(fn->dataflow.groups[0].last, 599);
	assert_string_equal(flops(&kn, &fn->cost), "600*n");
	assert_string_equal(bytes(&kn, &fn->traffic[KC_MODEL_MIN]), "4*n");
	assert_int_equal(fn->exact, 1);
	assert_null(fn->diags.head);
	kc_arena_release(&kn.a);
}

/* out[i] = sum of 300 inputs' i-th elements (footprints once gave up above 256 buffers) */
static void many_buffers(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "wide");
	int i;
	struct kc_node *st = stmt(&kn, upto(&kn, kn.ir->body, 2, "i", kn.n, &i), 3);
	char names[300][8];
	for (int b = 0; b < 300; b++) {
		snprintf(names[b], sizeof names[b], "in%d", b);
		access(&kn, st, buffer(&kn, kc_arena_strdup(&kn.a, names[b]), 1, kn.n, -1), 0, 1, sym(&kn, i), NULL);
	}
	int out = buffer(&kn, "out", 1, kn.n, -1);
	access(&kn, st, out, 1, 1, sym(&kn, i), NULL);
	st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 299;
	struct kc_function *fn = analyze(&kn);
	assert_int_equal(fn->n_buffers, 301);
	assert_string_equal(text(&kn, fn->traffic[KC_MODEL_MIN].read), "1200*n");
	assert_string_equal(text(&kn, fn->traffic[KC_MODEL_MIN].write), "4*n");
	assert_string_equal(text(&kn, fn->nests[0].traffic[KC_MODEL_STREAMING].read), "1200*n");
	assert_int_equal(fn->buffers[299].role, KC_ROLE_INPUT);
	assert_int_equal(fn->buffers[out].role, KC_ROLE_OUTPUT);
	assert_int_equal(fn->nests[0].n_reads, 300);
	assert_int_equal(fn->exact, 1);
	kc_arena_release(&kn.a);
}

/* ------------------------------------------------------------------------------------------------ */
/* Limits that are reported */

/* 20 transcendental functions, one per statement: 16 are counted, the other 4 are warnings */
static void many_transcendentals(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "trans");
	struct kc_node *li = upto(&kn, kn.ir->body, 2, "i", kn.n, NULL);
	char names[20][8];
	for (int t = 0; t < 20; t++) {
		snprintf(names[t], sizeof names[t], "f%d", t);
		kc_ir_trans_add(&kn.a, stmt(&kn, li, 3 + (unsigned)t), kc_arena_strdup(&kn.a, names[t]), 1);
	}
	struct kc_function *fn = analyze(&kn);
	int counted = 0;
	for (const struct kc_named_count *c = fn->cost.transcendentals; c; c = c->next, counted++)
		assert_string_equal(text(&kn, c->count), "n");
	assert_int_equal(counted, KC_MAX_TRANS_NAMES);
	assert_int_equal(fn->exact, 0);
	assert_int_equal(fn->diags.warnings, 4);
	assert_string_equal(warning(fn, 0)->message,
	                    "more than 16 different transcendental functions: the calls of 'f16' are not counted");
	assert_int_equal(warning(fn, 0)->loc.line, 19);
	assert_string_equal(warning(fn, 3)->message,
	                    "more than 16 different transcendental functions: the calls of 'f19' are not counted");
	kc_arena_release(&kn.a);
}

/* Seven nested ifs of four guards each inside a loop: 28 constraints on one statement */
static void too_many_constraints(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "guarded");
	int i;
	struct kc_node *parent = upto(&kn, kn.ir->body, 2, "i", kn.n, &i);
	for (int g = 0; g < 7; g++) {
		parent = kc_ir_node_new(&kn.a, KC_NODE_IF, parent, at(3 + (unsigned)g), at(3 + (unsigned)g));
		for (int h = 0; h < 4; h++)
			assert_int_equal(kc_ir_guard_add(parent, plus(&kn, i, -(4 * g + h + 1))), 0);
	}
	assert_int_equal(kc_ir_guard_add(parent, plus(&kn, i, -99)), -1); /* KC_MAX_BOUNDS */
	stmt(&kn, parent, 10)->cost.ops[KC_OP_ADD][KC_PREC_F64] = 1;
	struct kc_function *fn = analyze(&kn);
	assert_int_equal(fn->exact, 0);
	assert_int_equal(fn->diags.warnings, 1);
	assert_string_equal(warning(fn, 0)->message,
	                    "loop nest too deep to count exactly (more than 24 bounds and guards)");
	assert_int_equal(warning(fn, 0)->loc.line, 3); /* the outermost if, where the 25th constraint came */
	kc_arena_release(&kn.a);
}

/* 32 symbols in use: the strided loop's floor((n - 1)/3) finds no room */
static void symbol_table_full(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "crowded");
	char names[28][8];
	for (int s = 0; s < 28; s++) {
		snprintf(names[s], sizeof names[s], "s%d", s);
		assert_true(kc_ir_size_sym(kn.ir, kc_arena_strdup(&kn.a, names[s]), s) >= 0);
	}
	int x = buffer(&kn, "x", 1, kn.n, -1), i;
	struct kc_node *li = loop(&kn, kn.ir->body, 2, "i", num(&kn, 0), plus(&kn, kn.n, -1), 3, &i);
	assert_int_equal(kn.ir->fn->syms.n, KC_POLY_MAX_SYMS);
	struct kc_node *st = stmt(&kn, li, 3);
	st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
	access(&kn, st, x, 1, 1, sym(&kn, i), NULL);
	struct kc_function *fn = analyze(&kn);
	assert_int_equal(fn->exact, 0);
	assert_string_equal(warning(fn, 0)->message,
	                    "too many size symbols (32) for the trip count of this strided loop");
	assert_int_equal(warning(fn, 0)->loc.line, 2);
	assert_string_equal(warning(fn, 1)->message,
	                    "too many size symbols (32) for the trip count of this strided loop: "
	                    "its footprint is an upper bound");
	assert_string_equal(text(&kn, fn->traffic[KC_MODEL_MIN].write), "4*n"); /* the hull up to the bound n - 1 */
	kc_arena_release(&kn.a);
}

/* Two passes of nine perfectly nested loops: the dataflow compares the outer eight */
static void deep_prefix(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "deep");
	int x = buffer(&kn, "x", 1, kn.n, -1), y = buffer(&kn, "y", 1, kn.n, -1);
	static const char *const vars[9] = {"i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8"};
	for (int p = 0; p < 2; p++) {
		struct kc_node *parent = kn.ir->body;
		int v0 = -1;
		for (int d = 0; d < 9; d++) {
			int v;
			parent = loop(&kn, parent, 2 + 10 * (unsigned)p + (unsigned)d, vars[d], num(&kn, 0),
			              num(&kn, 1), 1, &v);
			if (d == 0)
				v0 = v;
		}
		struct kc_node *st = stmt(&kn, parent, 11 + 10 * (unsigned)p);
		st->cost.ops[KC_OP_ADD][KC_PREC_F32] = 1;
		access(&kn, st, x, !p, 1, sym(&kn, v0), NULL);
		if (p)
			access(&kn, st, y, 1, 1, sym(&kn, v0), NULL);
	}
	struct kc_function *fn = analyze(&kn);
	assert_string_equal(flops(&kn, &fn->cost), "1024");
	assert_int_equal(fn->dataflow.n_passes, 2);
	assert_string_equal(kc_fusion_kind_name(fn->dataflow.edges[0].kind), "epilogue");
	assert_int_equal(fn->exact, 0);
	assert_int_equal(fn->diags.warnings, 2);
	assert_string_equal(warning(fn, 0)->message,
	                    "more than 8 perfectly nested loops: fusion compares the outer 8 only");
	assert_int_equal(warning(fn, 0)->loc.line, 10); /* the ninth loop of the first pass */
	assert_int_equal(warning(fn, 1)->loc.line, 20);
	kc_arena_release(&kn.a);
}

/* Two nests of 2^126*n^2 operations each: their sum does not fit exact arithmetic */
static void count_overflow(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "huge");
	struct kc_poly *big, *hi;
	assert_int_equal(kc_poly_scale(&kn.a, sym(&kn, kn.n), kc_rat_int(1LL << 62), &big), 0);
	assert_int_equal(kc_poly_sub(&kn.a, big, num(&kn, 1), &hi), 0);
	for (int p = 0; p < 2; p++) {
		struct kc_node *li = loop(&kn, kn.ir->body, 2 + 3 * (unsigned)p, "i", num(&kn, 0), hi, 1, NULL);
		struct kc_node *lj = loop(&kn, li, 3 + 3 * (unsigned)p, "j", num(&kn, 0), hi, 1, NULL);
		stmt(&kn, lj, 4 + 3 * (unsigned)p)->cost.ops[KC_OP_ADD][KC_PREC_F64] = 4;
	}
	struct kc_function *fn = analyze(&kn);
	assert_string_equal(text(&kn, fn->nests[1].cost.ops[KC_OP_ADD][KC_PREC_F64]),
	                    "85070591730234615865843651857942052864*n^2");
	assert_int_equal(fn->exact, 0);
	assert_string_equal(warning(fn, 0)->message, "count overflows exact arithmetic");
	assert_int_equal(warning(fn, 0)->loc.line, 5);
	kc_arena_release(&kn.a);
}

/* The same limit met twice at one place is one warning */
static void limit_once(void **state)
{
	(void)state;
	struct kernel kn;
	kernel_init(&kn, "once");
	kc_ir_limit(&kn.a, kn.ir->fn, at(7), "table full (%d)", 16);
	kc_ir_limit(&kn.a, kn.ir->fn, at(7), "table full (%d)", 16);
	kc_ir_limit(&kn.a, kn.ir->fn, at(8), "table full (%d)", 16);
	assert_int_equal(kn.ir->fn->diags.warnings, 2);
	assert_int_equal(kn.ir->fn->exact, 0);
	assert_string_equal(warning(kn.ir->fn, 1)->message, "table full (16)");
	kc_arena_release(&kn.a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(count_triangular),
	    cmocka_unit_test(count_strided),
	    cmocka_unit_test(count_if_else),
	    cmocka_unit_test(last_step_rule),
	    cmocka_unit_test(count_matmul),
	    cmocka_unit_test(footprint_vecadd),
	    cmocka_unit_test(footprint_stencil),
	    cmocka_unit_test(count_half_line),
	    cmocka_unit_test(count_column_walk),
	    cmocka_unit_test(footprint_remainder_loop),
	    cmocka_unit_test(footprint_order_by_sizes),
	    cmocka_unit_test(footprint_clipped_loop),
	    cmocka_unit_test(footprint_min_bound_by_sizes),
	    cmocka_unit_test(dataflow_elementwise_fuses),
	    cmocka_unit_test(dataflow_reduction_blocks),
	    cmocka_unit_test(many_passes),
	    cmocka_unit_test(many_buffers),
	    cmocka_unit_test(many_transcendentals),
	    cmocka_unit_test(too_many_constraints),
	    cmocka_unit_test(symbol_table_full),
	    cmocka_unit_test(deep_prefix),
	    cmocka_unit_test(count_overflow),
	    cmocka_unit_test(limit_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
