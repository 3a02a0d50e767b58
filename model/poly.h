/* poly.h — exact multivariate polynomials with rational coefficients: the closed-form counts of kcost.
 *
 * A count such as "2*m*n*k" or "(n^2 + n)/2" is a polynomial in size symbols. Symbols are small integer ids
 * 0 .. KC_POLY_MAX_SYMS-1; the caller owns their names and passes them to the formatters as an array
 * indexed by id.
 *
 * Values and ownership. A struct kc_poly is immutable once built: operations never modify their operands
 * and return new polynomials allocated from the arena they are given, so polynomials may be shared freely
 * (also across arenas with compatible lifetimes). Nothing is freed individually; releasing the arena frees
 * them all. Polynomial arguments must not be NULL. kc_poly_format_ratio needs no arena: it uses a private
 * one and releases it before returning.
 *
 * Errors. Coefficients are rationals of __int128; every arithmetic step is overflow-checked. Operations that
 * can fail return 0 on success and -1 on failure: coefficient overflow, an exponent above KC_POLY_MAX_EXP,
 * or an invalid argument (symbol out of range, a summation bound that contains the summation symbol).
 * On failure *out is not written, so `if (kc_poly_add(a, x, y, &x) < 0)` leaves x intact; the arena may
 * hold some garbage, which is harmless.
 *
 * Canonical form. Like terms are combined, zero terms dropped, and terms sorted by total degree descending,
 * then by exponent vector lexicographically with the lower symbol id most significant and larger exponents
 * first (graded lexicographic order). With ids m=0, n=1, k=2:
 *   m*n*k, m^2, m*n, m*k, n^2, n*k, k^2, m, n, k, 1
 * Canonical form makes structural equality (kc_poly_equal) mathematical equality.
 */
#ifndef KC_POLY_H
#define KC_POLY_H

#include <stdint.h>

#include "arena.h"
#include "buf.h"

#define KC_POLY_MAX_SYMS 32
#define KC_POLY_MAX_EXP  255 /* per symbol per term; larger exponents fail with -1 */

/* An exact rational: den > 0 and gcd(|num|, den) == 1; num is never the most negative __int128, so
 * negation cannot overflow. Zero is 0/1. */
struct kc_rat {
	__int128 num, den;
};

/* The rational v/1. */
struct kc_rat kc_rat_int(long long v);
/* Overflow-checked arithmetic on normalized rationals; 0 on success, -1 on overflow or division by zero. */
int kc_rat_add(struct kc_rat x, struct kc_rat y, struct kc_rat *out);
int kc_rat_sub(struct kc_rat x, struct kc_rat y, struct kc_rat *out);
int kc_rat_mul(struct kc_rat x, struct kc_rat y, struct kc_rat *out);
int kc_rat_div(struct kc_rat x, struct kc_rat y, struct kc_rat *out);

struct kc_poly; /* opaque; inspect it with the accessors below */

/* Constructors. They cannot overflow. */
struct kc_poly *kc_poly_zero(struct kc_arena *a);
/* num/den reduced to lowest terms; NULL if den == 0. */
struct kc_poly *kc_poly_const(struct kc_arena *a, long long num, long long den);
/* The constant c, normalized here (c.den < 0 and common factors are fine); NULL if c.den == 0. */
struct kc_poly *kc_poly_rat(struct kc_arena *a, struct kc_rat c);
/* A copy of p in a (to keep a result computed in scratch memory). */
struct kc_poly *kc_poly_copy(struct kc_arena *a, const struct kc_poly *p);
/* The polynomial "sym"; NULL if sym is out of range. */
struct kc_poly *kc_poly_sym(struct kc_arena *a, int sym);

/* Arithmetic: *out = x + y, x - y, x * y, -x, c * x, x^k (k >= 0; x^0 = 1). kc_poly_scale normalizes c
 * (-1 if c.den == 0). */
int kc_poly_add(struct kc_arena *a, const struct kc_poly *x, const struct kc_poly *y, struct kc_poly **out);
int kc_poly_sub(struct kc_arena *a, const struct kc_poly *x, const struct kc_poly *y, struct kc_poly **out);
int kc_poly_mul(struct kc_arena *a, const struct kc_poly *x, const struct kc_poly *y, struct kc_poly **out);
int kc_poly_neg(struct kc_arena *a, const struct kc_poly *x, struct kc_poly **out);
int kc_poly_scale(struct kc_arena *a, const struct kc_poly *x, struct kc_rat c, struct kc_poly **out);
int kc_poly_pow(struct kc_arena *a, const struct kc_poly *x, int k, struct kc_poly **out);

/* *out = p with every occurrence of symbol `sym` replaced by q. q may itself contain sym (i -> i + 1). */
int kc_poly_subst(struct kc_arena *a, const struct kc_poly *p, int sym, const struct kc_poly *q, struct kc_poly **out);

/* *out = sum_{sym = lo}^{hi} p, inclusive bounds; lo and hi must not contain sym (-1 otherwise).
 * The result is the polynomial identity S(hi) - S(lo - 1) built from Faulhaber's formula
 * S_d(x) = sum_{v=1}^{x} v^d; it is the exact count whenever hi >= lo - 1 (hi = lo - 1 gives 0).
 * For hi < lo - 1 it is the polynomial continuation (negative), not 0: callers that cannot prove
 * hi >= lo - 1 must guard it themselves. Degrees in sym up to 59 work (from B_60 on the Bernoulli numbers
 * overflow __int128); bounds with large coefficients can overflow sooner, which is reported as -1. */
int kc_poly_sum(struct kc_arena *a, const struct kc_poly *p, int sym, const struct kc_poly *lo,
                const struct kc_poly *hi, struct kc_poly **out);

/* Predicates and queries. */
int kc_poly_is_zero(const struct kc_poly *p);
/* 1 if p is a constant (zero included), with *value set when value is not NULL; else 0. */
int kc_poly_is_const(const struct kc_poly *p, struct kc_rat *value);
/* 1 if sym occurs in p (sym out of range: 0). */
int kc_poly_has_sym(const struct kc_poly *p, int sym);
/* The symbols p depends on: bit s for symbol s. */
uint32_t kc_poly_sym_mask(const struct kc_poly *p);
/* Total degree: -1 for the zero polynomial, 0 for other constants. */
int kc_poly_degree(const struct kc_poly *p);
/* Degree in one symbol: -1 for the zero polynomial, else the largest exponent of sym (0 if absent). */
int kc_poly_degree_in(const struct kc_poly *p, int sym);
/* 1 if x and y are the same polynomial. */
int kc_poly_equal(const struct kc_poly *x, const struct kc_poly *y);
/* 1 if the total degree is <= 1 (zero and constants included). */
int kc_poly_is_affine(const struct kc_poly *p);

/* For an affine p = coef*sym + rest: set *coef (rational) and *rest (no sym). -1 if p is not affine. */
int kc_poly_affine_split(struct kc_arena *a, const struct kc_poly *p, int sym, struct kc_rat *coef,
                         struct kc_poly **rest);
/* For p of degree <= 1 in sym (other symbols unrestricted, e.g. i*n + j): p = coef*sym + rest with coef and
 * rest free of sym. -1 if sym occurs with exponent > 1. */
int kc_poly_split_linear(struct kc_arena *a, const struct kc_poly *p, int sym, struct kc_poly **coef,
                         struct kc_poly **rest);

/* Term access, in canonical order, for emitters that need the structure (0 <= i < kc_poly_nterms). */
int kc_poly_nterms(const struct kc_poly *p);
struct kc_rat kc_poly_term_coef(const struct kc_poly *p, int i);
int kc_poly_term_exp(const struct kc_poly *p, int i, int sym);

/* Evaluate with symbol `s` = values[s]; only the entries of symbols occurring in p are read. The result is
 * exact. -1 on overflow of any intermediate. */
int kc_poly_eval(const struct kc_poly *p, const long long *values, struct kc_rat *out);
/* Evaluate to an integer: -1 on overflow, on a non-integer result, or when |result| > INT64_MAX (so
 * INT64_MIN itself is rejected too, keeping the range symmetric). */
int kc_poly_eval_int(const struct kc_poly *p, const long long *values, long long *out);

/* Human-readable text appended to b. names[id] spells symbol id (a NULL entry, or names == NULL, spells it
 * "_s<id>"). The strings are a user-facing contract:
 *  - zero is "0"; terms come in canonical order joined by " + " / " - "; a negative leading term gets a
 *    bare "-" ("-n + 3", never "3 - n");
 *  - a monomial's variables in id order joined by "*", powers as "n^3"; coefficient 1 is omitted and -1 is
 *    just the "-" ("m*n*k", "-n"); other coefficients come first: "2*n^3";
 *  - rational coefficients: with d = lcm of the denominators > 1 the polynomial is written over d:
 *    "(n^2 - n)/2", a single term as "n/6", "3*n/2", "-1/9";
 *  - with more than one term and integer content g > 1 (gcd of the numerators over d), g is factored
 *    out, carrying the sign of the leading term: "4*(m*n + m*k + n*k)", "-2*(n - 3)", "3*(n^2 + n)/2";
 *    a single term is never factored ("72*n", "2*m*n*k");
 *  - a monomial shared by every term of a sum is factored out after the content, so the loop structure
 *    stays visible: "n*(n + 1)/2", "10*tsteps*(n^2 - 4*n + 4)", "-2*n*(m + 1)";
 *  - if even the common denominator overflows, each term is written with its own coefficient, as in
 *    "1/3*n + 1/5" (only for coefficients near the __int128 limits). */
void kc_poly_format(const struct kc_poly *p, const char *const *names, struct kc_buf *b);

/* The rational function num/den appended to b in lowest terms where simple: the rational contents of
 * num and den and their common monomial factor are divided out (no polynomial gcd beyond that).
 *   (2*n^3)/(12*n^2)                         -> "n/6"          (denominator reduced to a constant)
 *   (8*n)/(72*n)                             -> "1/9"          (numerator and denominator proportional)
 *   (2*m*n*k)/(4*m*n + 4*m*k + 4*n*k)        -> "m*n*k/(2*(m*n + m*k + n*k))"
 *   (n + 1)/(n + 2)  -> "(n + 1)/(n + 2)";   (-n - 1)/(n + 2) -> "-(n + 1)/(n + 2)";   1/(2*n) -> "1/(2*n)"
 * The sign is moved to the front; the denominator is parenthesized unless it is a bare power of one symbol
 * ("n/m", "1/n^2"); the numerator is parenthesized when it is a sum without factored content. num = 0 gives
 * "0". If den = 0 or the reduction overflows, the fallback is "(num)/(den)" with both formatted as by
 * kc_poly_format, e.g. "(n)/(0)". */
void kc_poly_format_ratio(const struct kc_poly *num, const struct kc_poly *den, const char *const *names,
                          struct kc_buf *b);

#endif
