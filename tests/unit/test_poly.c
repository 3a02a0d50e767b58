/* test_poly.c — unit tests of the polynomial algebra: canonical form, Faulhaber sums, overflow, and the
 * formatting contract of poly.h. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "buf.h"
#include "poly.h"

/* Symbol ids used throughout; the order fixes the canonical term order the strings below assert. */
enum { M, N, K, T, I, J, P, LO, HI };
static const char *const NAMES[] = {"m", "n", "k", "T", "i", "j", "p", "lo", "hi"};

typedef struct kc_poly poly;

/* ---- helpers: each asserts success, so tests read like algebra ---- */

static const char *fmt(struct kc_arena *a, const poly *p)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_poly_format(p, NAMES, &b);
	char *s = kc_arena_strdup(a, kc_buf_str(&b));
	kc_buf_release(&b);
	return s;
}

static const char *fmt_ratio(struct kc_arena *a, const poly *num, const poly *den)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_poly_format_ratio(num, den, NAMES, &b);
	char *s = kc_arena_strdup(a, kc_buf_str(&b));
	kc_buf_release(&b);
	return s;
}

static poly *C(struct kc_arena *a, long long v)
{
	poly *p = kc_poly_const(a, v, 1);
	assert_non_null(p);
	return p;
}

static poly *S(struct kc_arena *a, int sym)
{
	poly *p = kc_poly_sym(a, sym);
	assert_non_null(p);
	return p;
}

static poly *add(struct kc_arena *a, const poly *x, const poly *y)
{
	poly *r = NULL;
	assert_int_equal(kc_poly_add(a, x, y, &r), 0);
	return r;
}

static poly *sub(struct kc_arena *a, const poly *x, const poly *y)
{
	poly *r = NULL;
	assert_int_equal(kc_poly_sub(a, x, y, &r), 0);
	return r;
}

static poly *mul(struct kc_arena *a, const poly *x, const poly *y)
{
	poly *r = NULL;
	assert_int_equal(kc_poly_mul(a, x, y, &r), 0);
	return r;
}

static poly *sum(struct kc_arena *a, const poly *p, int sym, const poly *lo, const poly *hi)
{
	poly *r = NULL;
	assert_int_equal(kc_poly_sum(a, p, sym, lo, hi, &r), 0);
	return r;
}

static poly *pw(struct kc_arena *a, const poly *x, int k)
{
	poly *r = NULL;
	assert_int_equal(kc_poly_pow(a, x, k, &r), 0);
	return r;
}

static long long eval_int(const poly *p, const long long *values)
{
	long long v = 0;
	assert_int_equal(kc_poly_eval_int(p, values, &v), 0);
	return v;
}

/* ---- construction and canonical form ---- */

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Storage handed out again after a reset is zeroed like fresh storage; what was allocated before the mark
 * stays; large (mapped) blocks and small (malloc'ed) ones alike. */
static void test_arena_mark_reset(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	unsigned char *kept = kc_arena_alloc(&a, 100);
	memset(kept, 0xab, 100);
	struct kc_arena_mark m = kc_arena_mark(&a);
	size_t sizes[] = {200, 3u << 20, 50}; /* the 3 MiB one needs a mapped block */
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 3; i++) {
			unsigned char *p = kc_arena_alloc(&a, sizes[i]);
			assert_true(all_zero(p, sizes[i]));
			memset(p, 0xff, sizes[i]);
		}
		assert_true(a.total >= m.total + sizes[0] + sizes[1] + sizes[2]);
		kc_arena_reset(&a, m);
		assert_int_equal(a.total, m.total);
		for (int i = 0; i < 100; i++)
			assert_int_equal(kept[i], 0xab);
	}
	kc_arena_reset(&a, m); /* nothing new since the mark: a no-op */
	unsigned char *p = kc_arena_alloc(&a, 4096);
	assert_true(all_zero(p, 4096));
	kc_arena_release(&a);
	assert_null(a.head);
}

/* A copy is equal and lives in the other arena; zero is one shared constant. */
static void test_copy_and_zero(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT, b = KC_ARENA_INIT;
	struct kc_poly *n = kc_poly_sym(&a, 0), *p, *q;
	assert_int_equal(kc_poly_mul(&a, n, n, &p), 0);
	assert_int_equal(kc_poly_add(&a, p, kc_poly_const(&a, 3, 2), &p), 0);
	q = kc_poly_copy(&b, p);
	kc_arena_release(&a);
	struct kc_buf text = KC_BUF_INIT;
	const char *names[] = {"n"};
	kc_poly_format(q, names, &text);
	assert_string_equal(kc_buf_str(&text), "(2*n^2 + 3)/2");
	assert_ptr_equal(kc_poly_zero(&a), kc_poly_zero(&b));
	assert_ptr_equal(kc_poly_copy(&b, kc_poly_zero(&a)), kc_poly_zero(&b));
	assert_true(kc_poly_is_zero(kc_poly_zero(&b)));
	kc_buf_release(&text);
	kc_arena_release(&b);
}

static void test_constants(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_rat v;
	assert_string_equal(fmt(&a, kc_poly_zero(&a)), "0");
	assert_string_equal(fmt(&a, C(&a, 3)), "3");
	assert_string_equal(fmt(&a, C(&a, -3)), "-3");
	poly *q = kc_poly_const(&a, 6, -8);
	assert_string_equal(fmt(&a, q), "-3/4");
	assert_int_equal(kc_poly_is_const(q, &v), 1);
	assert_true(v.num == -3 && v.den == 4);
	assert_null(kc_poly_const(&a, 1, 0));
	assert_true(kc_poly_is_zero(kc_poly_const(&a, 0, 5)));
	assert_string_equal(fmt(&a, kc_poly_const(&a, -1, 9)), "-1/9");
	assert_string_equal(fmt(&a, kc_poly_rat(&a, (struct kc_rat){2, -4})), "-1/2");
	assert_null(kc_poly_rat(&a, (struct kc_rat){1, 0}));
	kc_arena_release(&a);
}

static void test_symbols(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	assert_string_equal(fmt(&a, S(&a, N)), "n");
	assert_null(kc_poly_sym(&a, -1));
	assert_null(kc_poly_sym(&a, KC_POLY_MAX_SYMS));
	assert_non_null(kc_poly_sym(&a, KC_POLY_MAX_SYMS - 1));
	/* a missing name is spelled by id, never a crash */
	struct kc_buf b = KC_BUF_INIT;
	kc_poly_format(mul(&a, S(&a, 0), S(&a, 20)), NULL, &b);
	assert_string_equal(kc_buf_str(&b), "_s0*_s20");
	kc_buf_release(&b);
	kc_arena_release(&a);
}

static void test_canonical_order(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *m = S(&a, M), *n = S(&a, N), *k = S(&a, K);
	/* built in scrambled order; must come out graded-lex with m < n < k */
	poly *terms[] = {C(&a, 1),
	                 k,
	                 mul(&a, k, k),
	                 n,
	                 mul(&a, n, k),
	                 m,
	                 mul(&a, m, m),
	                 mul(&a, n, n),
	                 mul(&a, m, k),
	                 mul(&a, m, n),
	                 mul(&a, mul(&a, m, n), k)};
	poly *p = kc_poly_zero(&a);
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++)
		p = add(&a, p, terms[i]);
	assert_string_equal(fmt(&a, p), "m*n*k + m^2 + m*n + m*k + n^2 + n*k + k^2 + m + n + k + 1");
	assert_int_equal(kc_poly_nterms(p), 11);
	assert_int_equal(kc_poly_term_exp(p, 0, K), 1);
	assert_int_equal(kc_poly_term_exp(p, 1, M), 2);
	assert_true(kc_poly_term_coef(p, 10).num == 1);
	/* variables inside a monomial are in id order whatever the multiplication order */
	assert_string_equal(fmt(&a, mul(&a, k, mul(&a, n, m))), "m*n*k");
	kc_arena_release(&a);
}

static void test_add_sub_cancel(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N);
	poly *x = add(&a, n, C(&a, 1));
	assert_string_equal(fmt(&a, x), "n + 1");
	assert_true(kc_poly_equal(sub(&a, x, n), C(&a, 1)));
	assert_true(kc_poly_is_zero(sub(&a, x, x)));
	assert_int_equal(kc_poly_degree(sub(&a, x, x)), -1);
	poly *neg = NULL;
	assert_int_equal(kc_poly_neg(&a, x, &neg), 0);
	assert_string_equal(fmt(&a, neg), "-n - 1");
	kc_arena_release(&a);
}

static void test_mul_pow_scale(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N);
	poly *x = mul(&a, add(&a, n, C(&a, 1)), sub(&a, n, C(&a, 1)));
	assert_string_equal(fmt(&a, x), "n^2 - 1");
	assert_string_equal(fmt(&a, pw(&a, add(&a, n, C(&a, 1)), 3)), "n^3 + 3*n^2 + 3*n + 1");
	assert_true(kc_poly_equal(pw(&a, n, 0), C(&a, 1)));
	poly *r = NULL;
	assert_int_equal(kc_poly_pow(&a, n, -1, &r), -1);
	assert_int_equal(kc_poly_scale(&a, x, (struct kc_rat){1, 2}, &r), 0);
	assert_string_equal(fmt(&a, r), "(n^2 - 1)/2");
	assert_int_equal(kc_poly_scale(&a, x, (struct kc_rat){0, 1}, &r), 0);
	assert_true(kc_poly_is_zero(r));
	assert_int_equal(kc_poly_scale(&a, x, (struct kc_rat){1, 0}, &r), -1);
	kc_arena_release(&a);
}

static void test_equal(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *m = S(&a, M), *n = S(&a, N);
	assert_true(kc_poly_equal(mul(&a, m, n), mul(&a, n, m)));
	assert_true(kc_poly_equal(add(&a, m, n), add(&a, n, m)));
	assert_false(kc_poly_equal(m, n));
	assert_false(kc_poly_equal(m, add(&a, m, C(&a, 1))));
	assert_false(kc_poly_equal(kc_poly_const(&a, 1, 2), kc_poly_const(&a, 1, 3)));
	assert_true(kc_poly_equal(kc_poly_zero(&a), sub(&a, m, m)));
	kc_arena_release(&a);
}

/* ---- queries ---- */

static void test_degree_affine_has_sym(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *m = S(&a, M), *n = S(&a, N);
	poly *p = add(&a, mul(&a, mul(&a, n, n), m), n); /* m*n^2 + n */
	assert_int_equal(kc_poly_degree(p), 3);
	assert_int_equal(kc_poly_degree_in(p, N), 2);
	assert_int_equal(kc_poly_degree_in(p, M), 1);
	assert_int_equal(kc_poly_degree_in(p, K), 0);
	assert_int_equal(kc_poly_degree(C(&a, 7)), 0);
	assert_int_equal(kc_poly_degree(kc_poly_zero(&a)), -1);
	assert_true(kc_poly_has_sym(p, M));
	assert_false(kc_poly_has_sym(p, K));
	assert_false(kc_poly_has_sym(p, 99));
	assert_false(kc_poly_is_affine(p));
	assert_true(kc_poly_is_affine(add(&a, m, mul(&a, C(&a, 3), n))));
	assert_true(kc_poly_is_affine(C(&a, 5)));
	assert_true(kc_poly_is_affine(kc_poly_zero(&a)));
	assert_false(kc_poly_is_const(n, NULL));
	assert_true(kc_poly_is_const(kc_poly_zero(&a), NULL));
	kc_arena_release(&a);
}

static void test_affine_split(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *i = S(&a, I), *n = S(&a, N), *rest = NULL, *coef = NULL;
	struct kc_rat c;
	/* 3*i + n - 1 */
	poly *p = sub(&a, add(&a, mul(&a, C(&a, 3), i), n), C(&a, 1));
	assert_int_equal(kc_poly_affine_split(&a, p, I, &c, &rest), 0);
	assert_true(c.num == 3 && c.den == 1);
	assert_string_equal(fmt(&a, rest), "n - 1");
	assert_int_equal(kc_poly_affine_split(&a, p, K, &c, &rest), 0);
	assert_true(c.num == 0 && c.den == 1);
	assert_true(kc_poly_equal(rest, p));
	/* i*n + j is linear in i but not affine: only split_linear accepts it */
	poly *q = add(&a, mul(&a, i, n), S(&a, J));
	assert_int_equal(kc_poly_affine_split(&a, q, I, &c, &rest), -1);
	assert_int_equal(kc_poly_split_linear(&a, q, I, &coef, &rest), 0);
	assert_string_equal(fmt(&a, coef), "n");
	assert_string_equal(fmt(&a, rest), "j");
	assert_int_equal(kc_poly_split_linear(&a, mul(&a, i, i), I, &coef, &rest), -1);
	kc_arena_release(&a);
}

/* ---- substitution ---- */

static void test_subst(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *i = S(&a, I), *n = S(&a, N), *r = NULL;
	poly *p = add(&a, mul(&a, i, i), i); /* i^2 + i */
	assert_int_equal(kc_poly_subst(&a, p, I, sub(&a, n, C(&a, 1)), &r), 0);
	assert_string_equal(fmt(&a, r), "n*(n - 1)");
	/* the replacement may mention the symbol being replaced */
	assert_int_equal(kc_poly_subst(&a, mul(&a, i, i), I, add(&a, i, C(&a, 1)), &r), 0);
	assert_string_equal(fmt(&a, r), "i^2 + 2*i + 1");
	/* absent symbol: unchanged */
	assert_int_equal(kc_poly_subst(&a, p, K, n, &r), 0);
	assert_true(kc_poly_equal(r, p));
	/* constant replacement evaluates */
	assert_int_equal(kc_poly_subst(&a, p, I, C(&a, 4), &r), 0);
	assert_true(kc_poly_equal(r, C(&a, 20)));
	assert_int_equal(kc_poly_subst(&a, p, -1, n, &r), -1);
	kc_arena_release(&a);
}

/* ---- summation ---- */

static void test_sum_constant(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N);
	poly *s = sum(&a, C(&a, 1), I, C(&a, 0), sub(&a, n, C(&a, 1)));
	assert_true(kc_poly_equal(s, n));
	assert_string_equal(fmt(&a, s), "n");
	/* empty range hi = lo - 1 */
	assert_true(kc_poly_is_zero(sum(&a, S(&a, I), I, C(&a, 5), C(&a, 4))));
	kc_arena_release(&a);
}

static void test_sum_linear(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N);
	poly *s = sum(&a, S(&a, I), I, C(&a, 0), sub(&a, n, C(&a, 1)));
	assert_string_equal(fmt(&a, s), "n*(n - 1)/2");
	kc_arena_release(&a);
}

static void test_sum_triangle(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N), *i = S(&a, I);
	poly *inner = sum(&a, C(&a, 1), J, C(&a, 0), i); /* i + 1 */
	poly *s = sum(&a, inner, I, C(&a, 0), sub(&a, n, C(&a, 1)));
	assert_string_equal(fmt(&a, s), "n*(n + 1)/2");
	long long vals[KC_POLY_MAX_SYMS] = {0};
	vals[N] = 100;
	assert_int_equal(eval_int(s, vals), 5050);
	/* the other triangle, j from i to n-1, gives the same count */
	poly *inner2 = sum(&a, C(&a, 1), J, i, sub(&a, n, C(&a, 1)));
	assert_string_equal(fmt(&a, inner2), "n - i");
	assert_true(kc_poly_equal(sum(&a, inner2, I, C(&a, 0), sub(&a, n, C(&a, 1))), s));
	kc_arena_release(&a);
}

static void test_sum_matmul(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *one = C(&a, 1), *zero = C(&a, 0);
	poly *s = sum(&a, C(&a, 2), P, zero, sub(&a, S(&a, K), one));
	s = sum(&a, s, J, zero, sub(&a, S(&a, N), one));
	s = sum(&a, s, I, zero, sub(&a, S(&a, M), one));
	assert_string_equal(fmt(&a, s), "2*m*n*k");
	assert_int_equal(kc_poly_degree(s), 3);
	kc_arena_release(&a);
}

static void test_sum_stencil(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N), *one = C(&a, 1), *hi = sub(&a, n, C(&a, 2));
	poly *s = sum(&a, one, J, one, hi);
	s = sum(&a, s, I, one, hi);
	s = sum(&a, s, P, C(&a, 0), sub(&a, S(&a, T), one));
	assert_string_equal(fmt(&a, s), "T*(n^2 - 4*n + 4)");
	long long vals[KC_POLY_MAX_SYMS] = {0};
	vals[N] = 1000;
	vals[T] = 20;
	assert_int_equal(eval_int(s, vals), 20LL * 998 * 998);
	kc_arena_release(&a);
}

static void test_sum_fifth_powers(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *i = S(&a, I);
	poly *s = sum(&a, pw(&a, i, 5), I, C(&a, 1), S(&a, N));
	assert_string_equal(fmt(&a, s), "n^2*(2*n^4 + 6*n^3 + 5*n^2 - 1)/12");
	long long vals[KC_POLY_MAX_SYMS] = {0}, brute = 0;
	for (long long v = 1; v <= 1000; v++)
		brute += v * v * v * v * v;
	vals[N] = 1000;
	assert_int_equal(eval_int(s, vals), brute);
	kc_arena_release(&a);
}

/* Every degree up to 12 over symbolic bounds, against brute force for many (lo, hi), including negative
 * bounds and the empty range hi = lo - 1. */
static void test_sum_degrees_brute(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *i = S(&a, I);
	for (int d = 0; d <= 12; d++) {
		poly *s = sum(&a, pw(&a, i, d), I, S(&a, LO), S(&a, HI));
		assert_int_equal(kc_poly_degree(s), d + 1);
		for (long long lo = -6; lo <= 6; lo++) {
			for (long long hi = lo - 1; hi <= lo + 9; hi++) {
				long long vals[KC_POLY_MAX_SYMS] = {0};
				__int128 brute = 0;
				for (long long v = lo; v <= hi; v++) {
					__int128 t = 1;
					for (int e = 0; e < d; e++)
						t *= v;
					brute += t;
				}
				struct kc_rat r;
				vals[LO] = lo;
				vals[HI] = hi;
				assert_int_equal(kc_poly_eval(s, vals, &r), 0);
				assert_true(r.den == 1 && r.num == brute);
			}
		}
	}
	kc_arena_release(&a);
}

static void test_sum_high_degree(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *s = sum(&a, pw(&a, S(&a, I), 20), I, C(&a, 1), S(&a, N));
	long long vals[KC_POLY_MAX_SYMS] = {0};
	__int128 brute = 0;
	for (int v = 1; v <= 10; v++) {
		__int128 t = 1;
		for (int e = 0; e < 20; e++)
			t *= v;
		brute += t;
	}
	struct kc_rat r;
	vals[N] = 10;
	assert_int_equal(kc_poly_eval(s, vals, &r), 0);
	assert_true(r.den == 1 && r.num == brute);
	kc_arena_release(&a);
}

static void test_sum_polynomial_body(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	/* sum_{i=0}^{n-1} (m*i^2 + 3) mixes a coefficient polynomial with a power sum */
	poly *i = S(&a, I), *m = S(&a, M), *n = S(&a, N);
	poly *body = add(&a, mul(&a, m, mul(&a, i, i)), C(&a, 3));
	poly *s = sum(&a, body, I, C(&a, 0), sub(&a, n, C(&a, 1)));
	assert_string_equal(fmt(&a, s), "n*(2*m*n^2 - 3*m*n + m + 18)/6");
	long long vals[KC_POLY_MAX_SYMS] = {0}, brute = 0;
	vals[M] = 7;
	vals[N] = 50;
	for (long long v = 0; v < 50; v++)
		brute += 7 * v * v + 3;
	assert_int_equal(eval_int(s, vals), brute);
	kc_arena_release(&a);
}

static void test_sum_bad_bounds(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *i = S(&a, I), *r = C(&a, 42);
	assert_int_equal(kc_poly_sum(&a, i, I, C(&a, 0), i, &r), -1);
	assert_int_equal(kc_poly_sum(&a, i, I, add(&a, i, C(&a, 1)), S(&a, N), &r), -1);
	assert_int_equal(kc_poly_sum(&a, i, KC_POLY_MAX_SYMS, C(&a, 0), S(&a, N), &r), -1);
	assert_true(kc_poly_equal(r, C(&a, 42))); /* untouched on failure */
	kc_arena_release(&a);
}

/* ---- overflow ---- */

static void test_overflow_mul(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *big = kc_poly_rat(&a, (struct kc_rat){(__int128)1 << 100, 1});
	poly *x = mul(&a, big, S(&a, N));
	poly *out = C(&a, 7), *keep = out;
	assert_int_equal(kc_poly_mul(&a, x, big, &out), -1);
	assert_ptr_equal(out, keep);
	/* the sum of two coefficients overflowing */
	poly *huge = kc_poly_rat(&a, (struct kc_rat){((__int128)1 << 126) + 1, 1});
	assert_int_equal(kc_poly_add(&a, huge, huge, &out), -1);
	assert_ptr_equal(out, keep);
	/* exponents are bounded too */
	assert_int_equal(kc_poly_mul(&a, pw(&a, S(&a, N), 200), pw(&a, S(&a, N), 100), &out), -1);
	assert_int_equal(kc_poly_pow(&a, S(&a, N), 256, &out), -1);
	assert_ptr_equal(out, keep);
	kc_arena_release(&a);
}

static void test_rat_ops(void **state)
{
	(void)state;
	struct kc_rat r;
	assert_int_equal(kc_rat_add((struct kc_rat){1, 6}, (struct kc_rat){1, 3}, &r), 0);
	assert_true(r.num == 1 && r.den == 2);
	assert_int_equal(kc_rat_sub((struct kc_rat){1, 6}, (struct kc_rat){1, 3}, &r), 0);
	assert_true(r.num == -1 && r.den == 6);
	assert_int_equal(kc_rat_mul((struct kc_rat){-2, 3}, (struct kc_rat){9, 4}, &r), 0);
	assert_true(r.num == -3 && r.den == 2);
	assert_int_equal(kc_rat_div((struct kc_rat){1, 2}, (struct kc_rat){-3, 4}, &r), 0);
	assert_true(r.num == -2 && r.den == 3);
	assert_int_equal(kc_rat_div((struct kc_rat){1, 2}, kc_rat_int(0), &r), -1);
	struct kc_rat big = {(__int128)1 << 120, 1};
	assert_int_equal(kc_rat_mul(big, big, &r), -1);
	/* cross-cancellation keeps a product that fits from overflowing */
	assert_int_equal(kc_rat_mul(big, (struct kc_rat){1, (__int128)1 << 120}, &r), 0);
	assert_true(r.num == 1 && r.den == 1);
}

/* ---- evaluation ---- */

static void test_eval(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N), *m = S(&a, M);
	poly *p = sub(&a, mul(&a, m, n), mul(&a, C(&a, 3), n)); /* m*n - 3*n */
	long long vals[KC_POLY_MAX_SYMS] = {0};
	vals[M] = -2;
	vals[N] = 5;
	assert_int_equal(eval_int(p, vals), -25);
	assert_int_equal(eval_int(C(&a, 9), NULL), 9); /* constants read no values */
	struct kc_rat r;
	poly *half = kc_poly_const(&a, 1, 2);
	assert_int_equal(kc_poly_eval(mul(&a, half, n), vals, &r), 0);
	assert_true(r.num == 5 && r.den == 2);
	kc_arena_release(&a);
}

static void test_eval_int_rejects(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N);
	long long vals[KC_POLY_MAX_SYMS] = {0}, v = 123;
	struct kc_rat r;
	/* n^2 at 2^32 = 2^64: exact as a rational, beyond INT64 as an integer */
	vals[N] = 1LL << 32;
	assert_int_equal(kc_poly_eval(mul(&a, n, n), vals, &r), 0);
	assert_true(r.num == (__int128)1 << 64 && r.den == 1);
	assert_int_equal(kc_poly_eval_int(mul(&a, n, n), vals, &v), -1);
	assert_int_equal(v, 123);
	/* INT64_MAX itself fits; n^5 at 2^40 overflows even __int128 */
	vals[N] = INT64_MAX;
	assert_int_equal(eval_int(n, vals), INT64_MAX);
	vals[N] = 1LL << 40;
	assert_int_equal(kc_poly_eval(pw(&a, n, 5), vals, &r), -1);
	/* non-integers */
	poly *half_n = mul(&a, kc_poly_const(&a, 1, 2), n);
	vals[N] = 3;
	assert_int_equal(kc_poly_eval_int(half_n, vals, &v), -1);
	vals[N] = 4;
	assert_int_equal(eval_int(half_n, vals), 2);
	kc_arena_release(&a);
}

/* ---- formatting ---- */

static void test_format_content(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *m = S(&a, M), *n = S(&a, N), *k = S(&a, K), *four = C(&a, 4);
	poly *p =
	    add(&a, add(&a, mul(&a, four, mul(&a, m, k)), mul(&a, four, mul(&a, k, n))), mul(&a, four, mul(&a, m, n)));
	assert_string_equal(fmt(&a, p), "4*(m*n + m*k + n*k)");
	assert_string_equal(fmt(&a, mul(&a, C(&a, 72), n)), "72*n");
	assert_string_equal(fmt(&a, mul(&a, C(&a, 2), pw(&a, n, 3))), "2*n^3");
	assert_string_equal(fmt(&a, mul(&a, C(&a, 2), mul(&a, mul(&a, m, n), k))), "2*m*n*k");
	assert_string_equal(fmt(&a, sub(&a, C(&a, 6), mul(&a, C(&a, 2), n))), "-2*(n - 3)");
	poly *tri3 = mul(&a, kc_poly_const(&a, 3, 2), add(&a, mul(&a, n, n), n));
	assert_string_equal(fmt(&a, tri3), "3*n*(n + 1)/2");
	kc_arena_release(&a);
}

static void test_format_signs_and_fractions(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N), *m = S(&a, M);
	assert_string_equal(fmt(&a, sub(&a, C(&a, 3), n)), "-n + 3");
	assert_string_equal(fmt(&a, sub(&a, m, n)), "m - n");
	assert_string_equal(fmt(&a, mul(&a, kc_poly_const(&a, 1, 6), n)), "n/6");
	assert_string_equal(fmt(&a, mul(&a, kc_poly_const(&a, -3, 2), n)), "-3*n/2");
	/* mixed denominators share their lcm */
	poly *p = add(&a, mul(&a, kc_poly_const(&a, 1, 2), n), kc_poly_const(&a, 1, 3));
	assert_string_equal(fmt(&a, p), "(3*n + 2)/6");
	kc_arena_release(&a);
}

static void test_format_fallback(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	/* 3^70 and 2^100 are coprime and their lcm exceeds __int128 */
	__int128 d1 = 1, d2 = (__int128)1 << 100;
	for (int i = 0; i < 70; i++)
		d1 *= 3;
	poly *p = add(&a, mul(&a, kc_poly_rat(&a, (struct kc_rat){1, d1}), S(&a, N)),
	              kc_poly_rat(&a, (struct kc_rat){-1, d2}));
	assert_string_equal(fmt(&a, p), "1/2503155504993241601315571986085849*n - 1/1267650600228229401496703205376");
	kc_arena_release(&a);
}

static void test_format_ratio_reduces(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N);
	assert_string_equal(fmt_ratio(&a, mul(&a, C(&a, 2), pw(&a, n, 3)), mul(&a, C(&a, 12), pw(&a, n, 2))), "n/6");
	assert_string_equal(fmt_ratio(&a, mul(&a, C(&a, 8), n), mul(&a, C(&a, 72), n)), "1/9");
	assert_string_equal(fmt_ratio(&a, C(&a, 6), C(&a, 3)), "2");
	poly *tri = mul(&a, kc_poly_const(&a, 1, 2), sub(&a, mul(&a, n, n), n));
	assert_string_equal(fmt_ratio(&a, tri, C(&a, 1)), "n*(n - 1)/2");
	assert_string_equal(fmt_ratio(&a, kc_poly_zero(&a), n), "0");
	kc_arena_release(&a);
}

static void test_format_ratio_matmul(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *m = S(&a, M), *n = S(&a, N), *k = S(&a, K), *four = C(&a, 4);
	poly *flops = mul(&a, C(&a, 2), mul(&a, mul(&a, m, n), k));
	poly *bytes =
	    add(&a, add(&a, mul(&a, four, mul(&a, m, k)), mul(&a, four, mul(&a, k, n))), mul(&a, four, mul(&a, m, n)));
	assert_string_equal(fmt_ratio(&a, flops, bytes), "m*n*k/(2*(m*n + m*k + n*k))");
	kc_arena_release(&a);
}

static void test_format_ratio_parens(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	poly *n = S(&a, N), *m = S(&a, M), *one = C(&a, 1), *two = C(&a, 2);
	poly *n1 = add(&a, n, one), *n2 = add(&a, n, two), *neg = NULL;
	assert_string_equal(fmt_ratio(&a, n1, n2), "(n + 1)/(n + 2)");
	assert_int_equal(kc_poly_neg(&a, n1, &neg), 0);
	assert_string_equal(fmt_ratio(&a, neg, n2), "-(n + 1)/(n + 2)");
	assert_string_equal(fmt_ratio(&a, mul(&a, C(&a, 3), n1), n2), "3*(n + 1)/(n + 2)");
	assert_string_equal(fmt_ratio(&a, one, mul(&a, two, n)), "1/(2*n)");
	assert_string_equal(fmt_ratio(&a, n, m), "n/m");
	assert_string_equal(fmt_ratio(&a, n, mul(&a, m, n1)), "n/(m*(n + 1))");
	assert_string_equal(fmt_ratio(&a, n, mul(&a, C(&a, -1), pw(&a, m, 2))), "-n/m^2");
	/* common monomial n and content 2 cancel: 2n/(4n^2 + 4n) */
	poly *den = mul(&a, C(&a, 4), add(&a, mul(&a, n, n), n));
	assert_string_equal(fmt_ratio(&a, mul(&a, two, n), den), "1/(2*(n + 1))");
	assert_string_equal(fmt_ratio(&a, n, kc_poly_zero(&a)), "(n)/(0)");
	kc_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_arena_mark_reset),
	    cmocka_unit_test(test_copy_and_zero),
	    cmocka_unit_test(test_constants),
	    cmocka_unit_test(test_symbols),
	    cmocka_unit_test(test_canonical_order),
	    cmocka_unit_test(test_add_sub_cancel),
	    cmocka_unit_test(test_mul_pow_scale),
	    cmocka_unit_test(test_equal),
	    cmocka_unit_test(test_degree_affine_has_sym),
	    cmocka_unit_test(test_affine_split),
	    cmocka_unit_test(test_subst),
	    cmocka_unit_test(test_sum_constant),
	    cmocka_unit_test(test_sum_linear),
	    cmocka_unit_test(test_sum_triangle),
	    cmocka_unit_test(test_sum_matmul),
	    cmocka_unit_test(test_sum_stencil),
	    cmocka_unit_test(test_sum_fifth_powers),
	    cmocka_unit_test(test_sum_degrees_brute),
	    cmocka_unit_test(test_sum_high_degree),
	    cmocka_unit_test(test_sum_polynomial_body),
	    cmocka_unit_test(test_sum_bad_bounds),
	    cmocka_unit_test(test_overflow_mul),
	    cmocka_unit_test(test_rat_ops),
	    cmocka_unit_test(test_eval),
	    cmocka_unit_test(test_eval_int_rejects),
	    cmocka_unit_test(test_format_content),
	    cmocka_unit_test(test_format_signs_and_fractions),
	    cmocka_unit_test(test_format_fallback),
	    cmocka_unit_test(test_format_ratio_reduces),
	    cmocka_unit_test(test_format_ratio_matmul),
	    cmocka_unit_test(test_format_ratio_parens),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
