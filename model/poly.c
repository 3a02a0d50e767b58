/* poly.c — exact polynomials over the rationals. See poly.h for the contract and the canonical order.
 *
 * Every result is canonical when it is stored into the arena. Operations whose inputs are already in
 * canonical order keep that order: a sum merges two sorted term lists, a scaling or a product with a single
 * term maps terms one to one (monomial orders are compatible with multiplication), and splitting off a
 * power of one symbol divides by a monomial all the selected terms share. Only a product of two sums
 * produces terms in no useful order; finish() sorts and combines those. Scratch terms live on the stack
 * (struct tvec), so an operation costs its arithmetic and one arena allocation, not a malloc; composite
 * operations (powers, substitutions, sums) keep their intermediates in a scratch arena (keep_result). */
#include "poly.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;
typedef unsigned __int128 u128;

#define I128_MAX ((i128)(((u128)1 << 127) - 1))
#define I128_MIN (-I128_MAX - 1)

struct term {
	struct kc_rat c; /* never 0 inside a finished polynomial */
	int deg;         /* total degree, cached for ordering */
	uint8_t e[KC_POLY_MAX_SYMS];
};

struct kc_poly {
	int n;
	struct term t[]; /* canonical order */
};

/* ---- rationals ---------------------------------------------------------------------------------- */

static u128 uabs(i128 v)
{
	return v < 0 ? -(u128)v : (u128)v;
}

static uint64_t gcd64(uint64_t x, uint64_t y)
{
	while (y) {
		uint64_t r = x % y;
		x = y;
		y = r;
	}
	return x;
}

/* 128-bit division is a libgcc call; counts almost always fit in 64 bits, so finish there. */
static u128 gcd_u(u128 x, u128 y)
{
	while (y) {
		if (!(x >> 64) && !(y >> 64))
			return gcd64((uint64_t)x, (uint64_t)y);
		u128 r = x % y;
		x = y;
		y = r;
	}
	return x;
}

/* num/den in lowest terms with den > 0. I128_MIN is refused so that negating a kc_rat never overflows. */
static int rat_make(i128 num, i128 den, struct kc_rat *out)
{
	if (den == 0 || num == I128_MIN || den == I128_MIN)
		return -1;
	if (den < 0) {
		num = -num;
		den = -den;
	}
	i128 g = (i128)gcd_u(uabs(num), (u128)den);
	out->num = g == 1 ? num : num / g;
	out->den = g == 1 ? den : den / g;
	return 0;
}

struct kc_rat kc_rat_int(long long v)
{
	return (struct kc_rat){v, 1};
}

int kc_rat_add(struct kc_rat x, struct kc_rat y, struct kc_rat *out)
{
	i128 s;
	if (x.den == 1 && y.den == 1) { /* integer counts, the common case, need no gcd */
		if (__builtin_add_overflow(x.num, y.num, &s) || s == I128_MIN)
			return -1;
		*out = (struct kc_rat){s, 1};
		return 0;
	}
	/* Scale by the cofactors of gcd(den) rather than by whole denominators: smaller intermediates. */
	i128 g = (i128)gcd_u((u128)x.den, (u128)y.den);
	i128 xs = y.den / g, ys = x.den / g, p, q, num, den;
	if (__builtin_mul_overflow(x.num, xs, &p) || __builtin_mul_overflow(y.num, ys, &q) ||
	    __builtin_add_overflow(p, q, &num) || __builtin_mul_overflow(x.den, xs, &den))
		return -1;
	return rat_make(num, den, out);
}

int kc_rat_sub(struct kc_rat x, struct kc_rat y, struct kc_rat *out)
{
	y.num = -y.num;
	return kc_rat_add(x, y, out);
}

int kc_rat_mul(struct kc_rat x, struct kc_rat y, struct kc_rat *out)
{
	i128 p;
	if (x.den == 1 && y.den == 1) {
		if (__builtin_mul_overflow(x.num, y.num, &p) || p == I128_MIN)
			return -1;
		*out = (struct kc_rat){p, 1};
		return 0;
	}
	/* Cross-cancel first so that a product that fits is never refused for its intermediates. */
	i128 g1 = (i128)gcd_u(uabs(x.num), (u128)y.den), g2 = (i128)gcd_u(uabs(y.num), (u128)x.den);
	i128 num, den;
	if (__builtin_mul_overflow(x.num / g1, y.num / g2, &num) ||
	    __builtin_mul_overflow(x.den / g2, y.den / g1, &den))
		return -1;
	return rat_make(num, den, out);
}

int kc_rat_div(struct kc_rat x, struct kc_rat y, struct kc_rat *out)
{
	struct kc_rat inv;
	if (rat_make(y.den, y.num, &inv) < 0)
		return -1;
	return kc_rat_mul(x, inv, out);
}

/* ---- construction ------------------------------------------------------------------------------- */

/* Scratch terms for one operation: the first SCRATCH_TERMS on the stack, more on the heap. Most results
 * have a handful of terms, and a malloc per operation used to cost more than the arithmetic. */
#define SCRATCH_TERMS 32

struct tvec {
	struct term *t; /* local, or malloc'd once n outgrows it */
	size_t n, cap;
	struct term local[SCRATCH_TERMS];
};

static void tvec_init(struct tvec *v)
{
	v->t = v->local;
	v->n = 0;
	v->cap = SCRATCH_TERMS;
}

static void tvec_release(struct tvec *v)
{
	if (v->t != v->local)
		free(v->t);
}

/* Room for `need` terms. Aborts on out-of-memory, like the arena. */
static void tvec_reserve(struct tvec *v, size_t need)
{
	if (need <= v->cap)
		return;
	size_t cap = v->cap * 2 > need ? v->cap * 2 : need;
	struct term *nt = v->t == v->local ? malloc(cap * sizeof(*nt)) : realloc(v->t, cap * sizeof(*nt));
	if (!nt) {
		fprintf(stderr, "kcost: fatal: out of memory (%zu terms)\n", cap);
		abort();
	}
	if (v->t == v->local)
		memcpy(nt, v->local, v->n * sizeof(*nt));
	v->t = nt;
	v->cap = cap;
}

/* Graded lexicographic order, larger first: total degree, then the exponent of the lowest id. */
static int term_cmp(const struct term *x, const struct term *y)
{
	if (x->deg != y->deg)
		return x->deg > y->deg ? -1 : 1;
	return memcmp(y->e, x->e, KC_POLY_MAX_SYMS);
}

/* Stable merge sort into canonical order; tmp has room for n terms. Short runs use insertion sort. */
static void sort_terms(struct term *t, size_t n, struct term *tmp)
{
	if (n <= 8) {
		for (size_t i = 1; i < n; i++) {
			struct term x = t[i];
			size_t j = i;
			for (; j > 0 && term_cmp(&t[j - 1], &x) > 0; j--)
				t[j] = t[j - 1];
			t[j] = x;
		}
		return;
	}
	size_t h = n / 2, i = 0, j = h, k = 0;
	sort_terms(t, h, tmp);
	sort_terms(t + h, n - h, tmp);
	while (i < h && j < n)
		tmp[k++] = term_cmp(&t[j], &t[i]) < 0 ? t[j++] : t[i++];
	while (i < h)
		tmp[k++] = t[i++];
	memcpy(t, tmp, k * sizeof(*t)); /* t[j..n) is already in place */
}

static struct kc_poly *poly_alloc(struct kc_arena *a, size_t n)
{
	struct kc_poly *p = kc_arena_alloc(a, sizeof(*p) + n * sizeof(p->t[0]));
	p->n = (int)n;
	return p;
}

/* A polynomial with a copy of n canonical terms. */
static struct kc_poly *poly_store(struct kc_arena *a, const struct term *t, size_t n)
{
	struct kc_poly *p = poly_alloc(a, n);
	if (n)
		memcpy(p->t, t, n * sizeof(p->t[0]));
	return p;
}

/* Sort, combine like terms, drop zeros and copy into the arena. Releases the vector in every case. */
static int finish(struct kc_arena *a, struct tvec *v, struct kc_poly **out)
{
	size_t n = 0, m = 0, i;
	int rc = 0;
	if (v->n > 1) {
		struct tvec tmp;
		tvec_init(&tmp);
		tvec_reserve(&tmp, v->n);
		sort_terms(v->t, v->n, tmp.t);
		tvec_release(&tmp);
	}
	for (i = 0; i < v->n && rc == 0; i++) {
		if (n && term_cmp(&v->t[n - 1], &v->t[i]) == 0)
			rc = kc_rat_add(v->t[n - 1].c, v->t[i].c, &v->t[n - 1].c);
		else
			v->t[n++] = v->t[i];
	}
	for (i = 0; i < n; i++)
		if (v->t[i].c.num != 0)
			v->t[m++] = v->t[i];
	if (rc == 0)
		*out = poly_store(a, v->t, m);
	tvec_release(v);
	return rc;
}

static int sym_ok(int sym)
{
	return sym >= 0 && sym < KC_POLY_MAX_SYMS;
}

/* Zero is the most common polynomial (an empty count, a missing category): one shared constant. */
static const struct kc_poly zero_poly = {0};

struct kc_poly *kc_poly_zero(struct kc_arena *a)
{
	(void)a;
	return (struct kc_poly *)&zero_poly; /* never written: polynomials are immutable once built */
}

struct kc_poly *kc_poly_copy(struct kc_arena *a, const struct kc_poly *p)
{
	return p->n ? poly_store(a, p->t, (size_t)p->n) : kc_poly_zero(a);
}

struct kc_poly *kc_poly_rat(struct kc_arena *a, struct kc_rat c)
{
	if (rat_make(c.num, c.den, &c) < 0)
		return NULL;
	if (c.num == 0)
		return kc_poly_zero(a);
	struct kc_poly *p = poly_alloc(a, 1);
	p->t[0].c = c;
	return p;
}

struct kc_poly *kc_poly_const(struct kc_arena *a, long long num, long long den)
{
	struct kc_rat c;
	if (rat_make(num, den, &c) < 0)
		return NULL;
	return kc_poly_rat(a, c);
}

struct kc_poly *kc_poly_sym(struct kc_arena *a, int sym)
{
	if (!sym_ok(sym))
		return NULL;
	struct kc_poly *p = poly_alloc(a, 1);
	p->t[0].c = kc_rat_int(1);
	p->t[0].deg = 1;
	p->t[0].e[sym] = 1;
	return p;
}

/* ---- arithmetic --------------------------------------------------------------------------------- */

/* x + y or x - y: a merge of two canonical term lists, where like terms meet side by side. */
static int combine(struct kc_arena *a, const struct kc_poly *x, const struct kc_poly *y, int negate_y,
                   struct kc_poly **out)
{
	struct tvec v;
	int i = 0, j = 0, rc = 0;
	tvec_init(&v);
	tvec_reserve(&v, (size_t)x->n + (size_t)y->n);
	while (rc == 0 && (i < x->n || j < y->n)) {
		int order = i == x->n ? 1 : j == y->n ? -1 : term_cmp(&x->t[i], &y->t[j]);
		if (order < 0) {
			v.t[v.n++] = x->t[i++];
			continue;
		}
		struct term t = y->t[j++];
		if (negate_y)
			t.c.num = -t.c.num; /* a kc_rat is never I128_MIN */
		if (order == 0)
			rc = kc_rat_add(x->t[i++].c, t.c, &t.c);
		if (rc == 0 && t.c.num != 0)
			v.t[v.n++] = t;
	}
	if (rc == 0)
		*out = poly_store(a, v.t, v.n);
	tvec_release(&v);
	return rc;
}

int kc_poly_add(struct kc_arena *a, const struct kc_poly *x, const struct kc_poly *y, struct kc_poly **out)
{
	return combine(a, x, y, 0, out);
}

int kc_poly_sub(struct kc_arena *a, const struct kc_poly *x, const struct kc_poly *y, struct kc_poly **out)
{
	return combine(a, x, y, 1, out);
}

/* c * x keeps x's order, and c != 0 keeps every term: the terms are scaled in place of a copy. */
int kc_poly_scale(struct kc_arena *a, const struct kc_poly *x, struct kc_rat c, struct kc_poly **out)
{
	if (rat_make(c.num, c.den, &c) < 0)
		return -1;
	if (c.num == 0) {
		*out = kc_poly_zero(a);
		return 0;
	}
	struct kc_poly *p = poly_store(a, x->t, (size_t)x->n);
	for (int i = 0; i < p->n; i++)
		if (kc_rat_mul(x->t[i].c, c, &p->t[i].c) < 0)
			return -1; /* p stays in the arena as garbage, which poly.h allows */
	*out = p;
	return 0;
}

int kc_poly_neg(struct kc_arena *a, const struct kc_poly *x, struct kc_poly **out)
{
	return kc_poly_scale(a, x, kc_rat_int(-1), out);
}

/* The product of two terms; -1 on coefficient overflow or an exponent above KC_POLY_MAX_EXP. The exponent
 * loop has no early exit so that the compiler can vectorize it. */
static int term_mul(const struct term *x, const struct term *y, struct term *out)
{
	int too_big = 0;
	if (kc_rat_mul(x->c, y->c, &out->c) < 0)
		return -1;
	for (int s = 0; s < KC_POLY_MAX_SYMS; s++) {
		int e = x->e[s] + y->e[s];
		too_big |= e > KC_POLY_MAX_EXP;
		out->e[s] = (uint8_t)e;
	}
	out->deg = x->deg + y->deg;
	return too_big ? -1 : 0;
}

/* A single term times a canonical polynomial: the products are distinct, nonzero and already in order.
 * (Term products commute, overflow checks included, so the operands' order does not matter.) */
static int mul_term(struct kc_arena *a, const struct term *m, const struct kc_poly *y, struct kc_poly **out)
{
	struct kc_poly *p = poly_alloc(a, (size_t)y->n);
	for (int j = 0; j < y->n; j++)
		if (term_mul(m, &y->t[j], &p->t[j]) < 0)
			return -1;
	*out = p;
	return 0;
}

int kc_poly_mul(struct kc_arena *a, const struct kc_poly *x, const struct kc_poly *y, struct kc_poly **out)
{
	struct tvec v;
	if (x->n == 1)
		return mul_term(a, &x->t[0], y, out);
	if (y->n == 1)
		return mul_term(a, &y->t[0], x, out);
	tvec_init(&v);
	tvec_reserve(&v, (size_t)x->n * (size_t)y->n);
	for (int i = 0; i < x->n; i++)
		for (int j = 0; j < y->n; j++)
			if (term_mul(&x->t[i], &y->t[j], &v.t[v.n++]) < 0) {
				tvec_release(&v);
				return -1;
			}
	return finish(a, &v, out);
}

/* Composite operations (powers, substitutions, sums) build many intermediate polynomials. They live in a
 * scratch arena released at the end, and only the result is copied into the caller's: otherwise dead
 * intermediates would be half of an analysis arena, and fresh memory is paid for in page faults. */
static int keep_result(struct kc_arena *a, struct kc_arena *scratch, int rc, const struct kc_poly *r,
                       struct kc_poly **out)
{
	if (rc == 0)
		*out = poly_store(a, r->t, (size_t)r->n);
	kc_arena_release(scratch);
	return rc;
}

static int pow_in(struct kc_arena *a, const struct kc_poly *x, int k, struct kc_poly **out)
{
	/* Plain repeated multiplication: exponents are small (KC_POLY_MAX_EXP bounds any useful k). */
	struct kc_poly *r = kc_poly_const(a, 1, 1);
	for (int i = 0; i < k; i++)
		if (kc_poly_mul(a, r, x, &r) < 0)
			return -1;
	*out = r;
	return 0;
}

int kc_poly_pow(struct kc_arena *a, const struct kc_poly *x, int k, struct kc_poly **out)
{
	struct kc_arena scratch = KC_ARENA_INIT;
	struct kc_poly *r = NULL;
	if (k < 0)
		return -1;
	int rc = pow_in(&scratch, x, k, &r);
	return keep_result(a, &scratch, rc, r, out);
}

/* The terms of p whose exponent of sym is d, divided by sym^d. Dividing terms by a monomial they all
 * share keeps them distinct and in order. */
static struct kc_poly *coefficient_of(struct kc_arena *a, const struct kc_poly *p, int sym, int d)
{
	int n = 0;
	for (int i = 0; i < p->n; i++)
		n += p->t[i].e[sym] == d;
	struct kc_poly *c = poly_alloc(a, (size_t)n);
	n = 0;
	for (int i = 0; i < p->n; i++) {
		if (p->t[i].e[sym] != d)
			continue;
		c->t[n] = p->t[i];
		c->t[n].e[sym] = 0;
		c->t[n++].deg -= d;
	}
	return c;
}

/* Split p by powers of sym: p = sum_{d=0}^{*maxd} c[d] * sym^d, where no c[d] contains sym. */
static int collect(struct kc_arena *a, const struct kc_poly *p, int sym, struct kc_poly ***c, int *maxd)
{
	int D = 0;
	for (int i = 0; i < p->n; i++)
		if (p->t[i].e[sym] > D)
			D = p->t[i].e[sym];
	struct kc_poly **cs = KC_NEW_N(a, struct kc_poly *, D + 1);
	for (int d = 0; d <= D; d++)
		cs[d] = coefficient_of(a, p, sym, d);
	*c = cs;
	*maxd = D;
	return 0;
}

static int subst_in(struct kc_arena *a, const struct kc_poly *p, int sym, const struct kc_poly *q, struct kc_poly **out)
{
	struct kc_poly **c, *r;
	int D;
	if (collect(a, p, sym, &c, &D) < 0)
		return -1;
	/* Horner: fewer multiplications than building the powers of q, and c[d] never contains sym, so
	 * a q that contains sym itself is fine. */
	r = c[D];
	for (int d = D - 1; d >= 0; d--)
		if (kc_poly_mul(a, r, q, &r) < 0 || kc_poly_add(a, r, c[d], &r) < 0)
			return -1;
	*out = r;
	return 0;
}

int kc_poly_subst(struct kc_arena *a, const struct kc_poly *p, int sym, const struct kc_poly *q, struct kc_poly **out)
{
	struct kc_arena scratch = KC_ARENA_INIT;
	struct kc_poly *r = NULL;
	if (!sym_ok(sym))
		return -1;
	if (!kc_poly_has_sym(p, sym)) { /* often so in footprints: nothing to substitute */
		*out = poly_store(a, p->t, (size_t)p->n);
		return 0;
	}
	int rc = subst_in(&scratch, p, sym, q, &r);
	return keep_result(a, &scratch, rc, r, out);
}

/* ---- summation ---------------------------------------------------------------------------------- */

/* Advance a row of Pascal's triangle from C(n-1, .) to C(n, .); row has room for n + 1 entries. */
static int pascal_next(i128 *row, int n)
{
	row[n] = 1;
	for (int j = n - 1; j >= 1; j--)
		if (__builtin_add_overflow(row[j], row[j - 1], &row[j]))
			return -1;
	return 0;
}

/* Bernoulli numbers B[0..D] with B[1] = +1/2, the convention under which Faulhaber's formula sums
 * 1..x. They come from sum_{j=0}^{m} C(m+1, j) B_j = 0, which holds for the B[1] = -1/2 convention, so
 * the sign of B[1] is flipped only at the end. */
static int bernoulli(struct kc_arena *a, int D, struct kc_rat *B)
{
	i128 *row = KC_NEW_N(a, i128, D + 2);
	row[0] = 1;
	if (pascal_next(row, 1) < 0)
		return -1;
	B[0] = kc_rat_int(1);
	for (int m = 1; m <= D; m++) {
		struct kc_rat s = kc_rat_int(0), t;
		if (pascal_next(row, m + 1) < 0)
			return -1;
		for (int j = 0; j < m; j++)
			if (kc_rat_mul((struct kc_rat){row[j], 1}, B[j], &t) < 0 || kc_rat_add(s, t, &s) < 0)
				return -1;
		if (kc_rat_div(s, kc_rat_int(-(m + 1)), &B[m]) < 0)
			return -1;
	}
	if (D >= 1)
		B[1].num = 1;
	return 0;
}

/* *out = sum_{v=lo}^{hi} v^d as sum_k s_{d,k} * delta[k], with delta[k] = hi^k - (lo-1)^k and
 * s_{d,d+1-j} = C(d+1, j) * B[j] / (d+1) from Faulhaber's formula. row holds C(d+1, .). */
static int power_sum(struct kc_arena *a, int d, const i128 *row, const struct kc_rat *B, struct kc_poly *const *delta,
                     struct kc_poly **out)
{
	struct kc_poly *r = kc_poly_zero(a), *t;
	for (int j = 0; j <= d; j++) {
		struct kc_rat s;
		if (B[j].num == 0)
			continue;
		if (kc_rat_mul((struct kc_rat){row[j], 1}, B[j], &s) < 0 || kc_rat_div(s, kc_rat_int(d + 1), &s) < 0 ||
		    kc_poly_scale(a, delta[d + 1 - j], s, &t) < 0 || kc_poly_add(a, r, t, &r) < 0)
			return -1;
	}
	*out = r;
	return 0;
}

/* delta[k] = hi^k - lom1^k for k = 1 .. K. */
static int power_diffs(struct kc_arena *a, const struct kc_poly *hi, const struct kc_poly *lom1, int K,
                       struct kc_poly **delta)
{
	struct kc_poly *ph = kc_poly_const(a, 1, 1), *pl = ph;
	for (int k = 1; k <= K; k++)
		if (kc_poly_mul(a, ph, hi, &ph) < 0 || kc_poly_mul(a, pl, lom1, &pl) < 0 ||
		    kc_poly_sub(a, ph, pl, &delta[k]) < 0)
			return -1;
	return 0;
}

static int sum_in(struct kc_arena *a, const struct kc_poly *p, int sym, const struct kc_poly *lo,
                  const struct kc_poly *hi, struct kc_poly **out)
{
	struct kc_poly **c, **delta, *lom1, *r, *s;
	int D;
	if (collect(a, p, sym, &c, &D) < 0 || kc_poly_sub(a, lo, kc_poly_const(a, 1, 1), &lom1) < 0)
		return -1;
	struct kc_rat *B = KC_NEW_N(a, struct kc_rat, D + 1);
	i128 *row = KC_NEW_N(a, i128, D + 2);
	delta = KC_NEW_N(a, struct kc_poly *, D + 2);
	if (bernoulli(a, D, B) < 0 || power_diffs(a, hi, lom1, D + 1, delta) < 0)
		return -1;
	r = kc_poly_zero(a);
	row[0] = 1;
	for (int d = 0; d <= D; d++) {
		if (pascal_next(row, d + 1) < 0)
			return -1;
		if (c[d]->n == 0)
			continue;
		if (power_sum(a, d, row, B, delta, &s) < 0 || kc_poly_mul(a, c[d], s, &s) < 0 ||
		    kc_poly_add(a, r, s, &r) < 0)
			return -1;
	}
	*out = r;
	return 0;
}

int kc_poly_sum(struct kc_arena *a, const struct kc_poly *p, int sym, const struct kc_poly *lo,
                const struct kc_poly *hi, struct kc_poly **out)
{
	struct kc_arena scratch = KC_ARENA_INIT;
	struct kc_poly *r = NULL, *n;
	if (!sym_ok(sym) || kc_poly_has_sym(lo, sym) || kc_poly_has_sym(hi, sym))
		return -1;
	if (!kc_poly_has_sym(p, sym)) /* the common case, a body whose cost does not depend on sym: p*(hi - lo + 1) */
		return kc_poly_sub(a, hi, lo, &n) < 0 || kc_poly_add(a, n, kc_poly_const(a, 1, 1), &n) < 0
		           ? -1
		           : kc_poly_mul(a, p, n, out);
	int rc = sum_in(&scratch, p, sym, lo, hi, &r);
	return keep_result(a, &scratch, rc, r, out);
}

/* ---- queries ------------------------------------------------------------------------------------ */

int kc_poly_is_zero(const struct kc_poly *p)
{
	return p->n == 0;
}

int kc_poly_is_const(const struct kc_poly *p, struct kc_rat *value)
{
	if (p->n > 1 || (p->n == 1 && p->t[0].deg > 0))
		return 0;
	if (value)
		*value = p->n ? p->t[0].c : kc_rat_int(0);
	return 1;
}

int kc_poly_has_sym(const struct kc_poly *p, int sym)
{
	return sym_ok(sym) && kc_poly_degree_in(p, sym) > 0;
}

uint32_t kc_poly_sym_mask(const struct kc_poly *p)
{
	_Static_assert(KC_POLY_MAX_SYMS % 8 == 0 && KC_POLY_MAX_SYMS <= 32, "exponents read 8 at a time");
	uint32_t m = 0;
	for (int i = 0; i < p->n; i++) {
		if (p->t[i].deg == 0)
			continue;                               /* the constant */
		for (int w = 0; w < KC_POLY_MAX_SYMS; w += 8) { /* most symbols are absent: 8 exponents a test */
			uint64_t x;
			memcpy(&x, p->t[i].e + w, sizeof x);
			for (int s = w; x && s < w + 8; s++)
				m |= (uint32_t)(p->t[i].e[s] != 0) << s;
		}
	}
	return m;
}

/* The leading term has the largest total degree: the order sorts by it first. */
int kc_poly_degree(const struct kc_poly *p)
{
	return p->n ? p->t[0].deg : -1;
}

int kc_poly_degree_in(const struct kc_poly *p, int sym)
{
	int d = p->n ? 0 : -1;
	if (!sym_ok(sym))
		return d;
	for (int i = 0; i < p->n; i++)
		if (p->t[i].e[sym] > d)
			d = p->t[i].e[sym];
	return d;
}

int kc_poly_equal(const struct kc_poly *x, const struct kc_poly *y)
{
	if (x->n != y->n)
		return 0;
	for (int i = 0; i < x->n; i++) {
		const struct term *s = &x->t[i], *t = &y->t[i];
		if (s->c.num != t->c.num || s->c.den != t->c.den || memcmp(s->e, t->e, sizeof(s->e)) != 0)
			return 0;
	}
	return 1;
}

int kc_poly_is_affine(const struct kc_poly *p)
{
	return kc_poly_degree(p) <= 1;
}

int kc_poly_split_linear(struct kc_arena *a, const struct kc_poly *p, int sym, struct kc_poly **coef,
                         struct kc_poly **rest)
{
	struct kc_poly **c;
	int D;
	if (!sym_ok(sym) || collect(a, p, sym, &c, &D) < 0 || D > 1)
		return -1;
	*coef = D == 1 ? c[1] : kc_poly_zero(a);
	*rest = c[0];
	return 0;
}

int kc_poly_affine_split(struct kc_arena *a, const struct kc_poly *p, int sym, struct kc_rat *coef,
                         struct kc_poly **rest)
{
	struct kc_poly *c, *r;
	struct kc_rat v;
	/* Affine means the coefficient of sym is a constant. */
	if (!kc_poly_is_affine(p) || kc_poly_split_linear(a, p, sym, &c, &r) < 0 || !kc_poly_is_const(c, &v))
		return -1;
	*coef = v;
	*rest = r;
	return 0;
}

int kc_poly_nterms(const struct kc_poly *p)
{
	return p->n;
}

struct kc_rat kc_poly_term_coef(const struct kc_poly *p, int i)
{
	return i >= 0 && i < p->n ? p->t[i].c : kc_rat_int(0);
}

int kc_poly_term_exp(const struct kc_poly *p, int i, int sym)
{
	return i >= 0 && i < p->n && sym_ok(sym) ? p->t[i].e[sym] : 0;
}

/* ---- evaluation --------------------------------------------------------------------------------- */

/* The monomial of t at values, as an integer. */
static int mono_eval(const struct term *t, const long long *values, i128 *out)
{
	i128 m = 1;
	for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
		for (int k = 0; k < t->e[s]; k++)
			if (__builtin_mul_overflow(m, (i128)values[s], &m))
				return -1;
	*out = m;
	return 0;
}

int kc_poly_eval(const struct kc_poly *p, const long long *values, struct kc_rat *out)
{
	struct kc_rat sum = kc_rat_int(0), v;
	for (int i = 0; i < p->n; i++) {
		i128 m;
		if (mono_eval(&p->t[i], values, &m) < 0 || rat_make(m, 1, &v) < 0 || kc_rat_mul(p->t[i].c, v, &v) < 0 ||
		    kc_rat_add(sum, v, &sum) < 0)
			return -1;
	}
	*out = sum;
	return 0;
}

int kc_poly_eval_int(const struct kc_poly *p, const long long *values, long long *out)
{
	struct kc_rat v;
	if (kc_poly_eval(p, values, &v) < 0 || v.den != 1 || v.num > INT64_MAX || v.num < -INT64_MAX)
		return -1;
	*out = (long long)v.num;
	return 0;
}

/* ---- formatting --------------------------------------------------------------------------------- */

/* Decimal digits, written from the right; 64-bit steps once v fits (128-bit division is a libgcc call). */
static void put_u128(struct kc_buf *b, u128 v)
{
	char d[40];
	int n = sizeof d;
	for (; v >> 64; v /= 10)
		d[--n] = (char)('0' + (int)(v % 10));
	uint64_t w = (uint64_t)v;
	do
		d[--n] = (char)('0' + (int)(w % 10));
	while (w /= 10);
	kc_buf_add(b, d + n, sizeof d - (size_t)n);
}

static void put_mono(struct kc_buf *b, const uint8_t *e, const char *const *names)
{
	int first = 1;
	for (int s = 0; s < KC_POLY_MAX_SYMS; s++) {
		if (!e[s])
			continue;
		if (!first)
			kc_buf_putc(b, '*');
		first = 0;
		if (names && names[s]) {
			kc_buf_puts(b, names[s]);
		} else {
			kc_buf_puts(b, "_s");
			put_u128(b, (u128)s);
		}
		if (e[s] > 1) {
			kc_buf_putc(b, '^');
			put_u128(b, e[s]);
		}
	}
}

/* The sign as a separator (" + ", " - ", or a bare "-" when leading), then the coefficient k/den unless it
 * is an implicit 1, then the monomial. den is 1 except in the fallback form. */
static void put_term(struct kc_buf *b, int neg, u128 k, i128 den, const struct term *t, const char *const *names,
                     int lead)
{
	if (lead) {
		if (neg)
			kc_buf_putc(b, '-');
	} else {
		kc_buf_puts(b, neg ? " - " : " + ");
	}
	if (t->deg == 0 || k != 1 || den != 1) {
		put_u128(b, k);
		if (den != 1) {
			kc_buf_putc(b, '/');
			put_u128(b, (u128)den);
		}
		if (t->deg)
			kc_buf_putc(b, '*');
	}
	put_mono(b, t->e, names);
}

/* Common denominator d (lcm) and content g (gcd of the numerators over d) of p's coefficients, so that
 * p = (g/d) * (a polynomial with coprime integer coefficients). -1 if either overflows. */
static int int_content(const struct kc_poly *p, i128 *d, i128 *g)
{
	i128 l = 1;
	u128 c = 0;
	for (int i = 0; i < p->n; i++) {
		i128 den = p->t[i].c.den;
		if (__builtin_mul_overflow(l, den / (i128)gcd_u((u128)l, (u128)den), &l))
			return -1;
	}
	for (int i = 0; i < p->n; i++) {
		i128 k;
		if (__builtin_mul_overflow(p->t[i].c.num, l / p->t[i].c.den, &k) || k == I128_MIN)
			return -1;
		c = gcd_u(c, uabs(k));
	}
	*d = l;
	*g = (i128)c;
	return 0;
}

/* Every term with its own rational coefficient, "1/3*n + 1/5": for contents that overflow. */
static void format_fallback(const struct kc_poly *p, const char *const *names, struct kc_buf *b)
{
	for (int i = 0; i < p->n; i++) {
		const struct term *t = &p->t[i];
		put_term(b, t->c.num < 0, uabs(t->c.num), t->c.den, t, names, i == 0);
	}
}

/* p = (g/d) * (integer terms): written as "[±g*(]terms[)][/d]", where g is factored, with the leading
 * term's sign, only for more than one term and g > 1; a sum over d > 1 is bracketed. */
static void put_scaled(const struct kc_poly *p, i128 d, i128 g, const char *const *names, struct kc_buf *b)
{
	int lead_neg = p->t[0].c.num < 0, factor = p->n > 1 && g > 1, bracket = factor || (d > 1 && p->n > 1);
	i128 f = factor ? g : 1;
	if (factor) {
		kc_buf_puts(b, lead_neg ? "-" : "");
		put_u128(b, (u128)g);
		kc_buf_putc(b, '*');
	}
	kc_buf_puts(b, bracket ? "(" : "");
	for (int i = 0; i < p->n; i++) {
		const struct term *t = &p->t[i];
		i128 k = t->c.num * (d / t->c.den) / f; /* cannot overflow: int_content computed it */
		put_term(b, (k < 0) != (factor && lead_neg), uabs(k), 1, t, names, i == 0);
	}
	kc_buf_puts(b, bracket ? ")" : "");
	if (d > 1) {
		kc_buf_putc(b, '/');
		put_u128(b, (u128)d);
	}
}

static void mono_meet(const struct kc_poly *p, uint8_t *e);
static void term_div(struct term *t, const uint8_t *e);

/* A sum whose terms share a monomial m is written with m factored out, after the content:
 * "10*tsteps*(n^2 - 4*n + 4)", "n*(n + 1)/2", "-2*n*(m + 1)". */
static int put_monomial_factored(const struct kc_poly *p, i128 d, i128 g, const char *const *names, struct kc_buf *b)
{
	uint8_t e[KC_POLY_MAX_SYMS];
	int any = 0;
	memset(e, KC_POLY_MAX_EXP, sizeof e);
	mono_meet(p, e);
	for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
		any |= e[s] != 0;
	if (p->n < 2 || !any)
		return 0;
	int lead_neg = p->t[0].c.num < 0;
	kc_buf_puts(b, lead_neg ? "-" : "");
	if (g > 1) {
		put_u128(b, (u128)g);
		kc_buf_putc(b, '*');
	}
	put_mono(b, e, names);
	kc_buf_puts(b, "*(");
	for (int i = 0; i < p->n; i++) {
		struct term t = p->t[i]; /* the term of p / e */
		term_div(&t, e);
		i128 k = t.c.num * (d / t.c.den) / g; /* exact: g and d are p's content and denominator */
		put_term(b, (k < 0) != lead_neg, uabs(k), 1, &t, names, i == 0);
	}
	kc_buf_putc(b, ')');
	if (d > 1) {
		kc_buf_putc(b, '/');
		put_u128(b, (u128)d);
	}
	return 1;
}

void kc_poly_format(const struct kc_poly *p, const char *const *names, struct kc_buf *b)
{
	i128 d, g;
	if (p->n == 0)
		kc_buf_putc(b, '0');
	else if (int_content(p, &d, &g) < 0)
		format_fallback(p, names, b);
	else if (!put_monomial_factored(p, d, g, names, b))
		put_scaled(p, d, g, names, b);
}

/* ---- ratios ------------------------------------------------------------------------------------- */

/* num/den reduced for printing: num/den = r * pn/pd with pn, pd primitive (coprime integer coefficients,
 * positive leading one) and free of a common monomial. What gets printed: r alone when pn == pd; top
 * alone (r * pn) when pd is 1; else sign(r) * top / bottom with top = |r.num| * pn, bottom = r.den * pd. */
struct ratio {
	struct kc_rat r;
	struct kc_poly *pn, *pd, *top, *bottom;
};

/* p = c * P with P primitive. p must not be zero. */
static int primitive(struct kc_arena *a, const struct kc_poly *p, struct kc_rat *c, struct kc_poly **P)
{
	i128 d, g;
	struct kc_rat inv;
	if (int_content(p, &d, &g) < 0 || rat_make(p->t[0].c.num < 0 ? -g : g, d, c) < 0 ||
	    kc_rat_div(kc_rat_int(1), *c, &inv) < 0)
		return -1;
	return kc_poly_scale(a, p, inv, P);
}

/* Lower e to the exponents that every term of p has: e meets the monomial gcd of p. */
static void mono_meet(const struct kc_poly *p, uint8_t *e)
{
	for (int i = 0; i < p->n; i++)
		for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
			if (p->t[i].e[s] < e[s])
				e[s] = p->t[i].e[s];
}

/* t divided by the monomial e, which divides it. */
static void term_div(struct term *t, const uint8_t *e)
{
	for (int s = 0; s < KC_POLY_MAX_SYMS; s++) {
		t->e[s] = (uint8_t)(t->e[s] - e[s]);
		t->deg -= e[s];
	}
}

/* p divided by the monomial e, which divides every term of p: like coefficient_of, the terms stay distinct
 * and in order. */
static int mono_div(struct kc_arena *a, const struct kc_poly *p, const uint8_t *e, struct kc_poly **out)
{
	struct kc_poly *q = poly_store(a, p->t, (size_t)p->n);
	for (int i = 0; i < q->n; i++)
		term_div(&q->t[i], e);
	*out = q;
	return 0;
}

static int ratio_reduce(struct kc_arena *a, const struct kc_poly *num, const struct kc_poly *den, struct ratio *q)
{
	struct kc_rat cn, cd;
	uint8_t e[KC_POLY_MAX_SYMS];
	memset(e, KC_POLY_MAX_EXP, sizeof(e));
	if (primitive(a, num, &cn, &q->pn) < 0 || primitive(a, den, &cd, &q->pd) < 0 || kc_rat_div(cn, cd, &q->r) < 0)
		return -1;
	mono_meet(q->pn, e);
	mono_meet(q->pd, e);
	if (mono_div(a, q->pn, e, &q->pn) < 0 || mono_div(a, q->pd, e, &q->pd) < 0)
		return -1;
	q->top = q->bottom = NULL;
	if (kc_poly_equal(q->pn, q->pd))
		return 0;
	if (kc_poly_is_const(q->pd, NULL))
		return kc_poly_scale(a, q->pn, q->r, &q->top);
	struct kc_rat rn = {q->r.num < 0 ? -q->r.num : q->r.num, 1}, rd = {q->r.den, 1};
	if (kc_poly_scale(a, q->pn, rn, &q->top) < 0 || kc_poly_scale(a, q->pd, rd, &q->bottom) < 0)
		return -1;
	return 0;
}

static void put_rat(struct kc_buf *b, struct kc_rat r)
{
	if (r.num < 0)
		kc_buf_putc(b, '-');
	put_u128(b, uabs(r.num));
	if (r.den != 1) {
		kc_buf_putc(b, '/');
		put_u128(b, (u128)r.den);
	}
}

/* A bare power of one symbol ("n", "n^2") needs no parentheses after "/". */
static int is_atom(const struct kc_poly *p)
{
	int syms = 0;
	if (p->n != 1 || p->t[0].c.num != 1 || p->t[0].c.den != 1)
		return 0;
	for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
		syms += p->t[0].e[s] != 0;
	return syms == 1;
}

static void put_ratio(const struct ratio *q, const char *const *names, struct kc_buf *b)
{
	if (!q->top) {
		put_rat(b, q->r);
		return;
	}
	if (!q->bottom) {
		kc_poly_format(q->top, names, b);
		return;
	}
	/* top's content is |r.num|: above 1 kc_poly_format factors it and the sum is already bracketed */
	int paren_top = q->top->n > 1 && uabs(q->r.num) == 1, paren_bottom = !is_atom(q->bottom);
	if (q->r.num < 0)
		kc_buf_putc(b, '-');
	kc_buf_puts(b, paren_top ? "(" : "");
	kc_poly_format(q->top, names, b);
	kc_buf_puts(b, paren_top ? ")/" : "/");
	kc_buf_puts(b, paren_bottom ? "(" : "");
	kc_poly_format(q->bottom, names, b);
	kc_buf_puts(b, paren_bottom ? ")" : "");
}

void kc_poly_format_ratio(const struct kc_poly *num, const struct kc_poly *den, const char *const *names,
                          struct kc_buf *b)
{
	/* Reduction needs intermediate polynomials; they live in a private arena so the caller's is untouched. */
	struct kc_arena tmp = KC_ARENA_INIT;
	struct ratio q;
	if (num->n == 0) {
		kc_buf_putc(b, '0');
	} else if (den->n == 0 || ratio_reduce(&tmp, num, den, &q) < 0) {
		kc_buf_putc(b, '(');
		kc_poly_format(num, names, b);
		kc_buf_puts(b, ")/(");
		kc_poly_format(den, names, b);
		kc_buf_putc(b, ')');
	} else {
		put_ratio(&q, names, b);
	}
	kc_arena_release(&tmp);
}
