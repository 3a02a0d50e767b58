/* footprint.c — the min and streaming traffic models: which elements each nest and the whole function
 * touch, and which of them come from memory.
 *
 * The footprint of a buffer in a region is the rectangular hull of the elements its accesses touch:
 * per dimension, the least and greatest index over the loop bounds (an affine index takes its extremes
 * at the loop bounds). It is exact for the dense accesses of these kernels (a[i], A[i][p], in[c][i+r])
 * and an upper bound otherwise (strided or stencil accesses: a 5-point stencil's hull includes the four
 * corners it never reads). A data-dependent index (x[col[j]]) takes the whole declared extent.
 *
 * Reads are served from memory unless the region's first access to the buffer, in program order, is a
 * write whose hull covers every element the region later reads (softmax's y, written then rescaled).
 *   streaming: per top-level nest, read hull (unless covered) + write hull, for every buffer;
 *   min:       per function, the same over all nests, for parameter buffers only (locals, heap
 *              temporaries and KCOST_SCRATCH parameters are intermediates and cost nothing).
 *
 * Which of two bounds a hull takes is proved for every size, never read off the benchmark sizes, so a
 * footprint formula does not change with --size; an order only the sizes decide is a warning (see "The
 * order of two bounds"). */
#include <string.h>

#include "count.h"
#include "footprint.h"

#define MAX_FACTS 64 /* known facts on the sizes (more are left out: fewer orders are proved) */
#define MAX_RUN   16 /* facts of the loops around the accesses of one hull */

/* Facts g >= 0 on the sizes (see "The order of two bounds"). */
struct facts {
	struct kc_poly *g[MAX_RUN];
	int n;
};

struct fp {
	struct kc_arena *a;    /* hulls and sums on the way (scratch in kc_footprint_function) */
	struct kc_arena *keep; /* what outlives the pass: diagnostics, derived symbols, results */
	struct kc_fn_ir *ir;
	struct kc_function *fn;
	char *flatten;                /* per buffer: accesses are flattened to one dimension */
	const struct kc_node **stack; /* the enclosing loops, outermost first (grows) */
	unsigned *moving;             /* [depth]: moving_vars() of the loops stack[0 .. depth] */
	int depth, cap;
	int unknown_reported;
	int nonrect;        /* set by extreme(): 1 + an outer loop variable a bound depended on */
	char *hull_noted;   /* per buffer: the upper-bound note was given */
	char *order_noted;  /* per buffer: a warning on an order the sizes decide was given (once is enough) */
	struct kc_loc at;   /* what is being measured, for a limit's diagnostic */
	unsigned loop_vars; /* bit s: symbol s is a loop variable */
	/* what is known of the sizes (see "The order of two bounds"): always, and of the hulls being compared */
	struct kc_poly *facts[MAX_FACTS];
	int n_facts;
	struct facts run;           /* the loops around the access being measured run */
	const struct facts *active; /* the facts of the hulls being compared (NULL: none) */
};

/* Exact arithmetic overflowed: the traffic of what is being measured is not exact. */
static void overflow(struct fp *f)
{
	kc_ir_limit_traffic(f->keep, f->fn, f->at, "footprint overflows exact arithmetic: the traffic is not exact");
}

/* The per-buffer flags of a pass over fn (every flag set to `value`). */
static char *buffer_flags(struct kc_arena *a, const struct kc_function *fn, int value)
{
	char *flags = KC_NEW_N(a, char, fn->n_buffers + 1);
	memset(flags, value, (size_t)fn->n_buffers + 1);
	return flags;
}

/* The variables of loop l, pushed inside loops whose moving variables are `outer` (moving_vars): its own when it
 * is the outermost (outer == 0 at depth 0), or when its bounds name a moving one or come from data. */
static unsigned moving_after(const struct kc_node *l, int depth, unsigned outer)
{
	unsigned bit = l->var >= 0 && l->var < 32 ? 1u << l->var : 0, bounds = 0;
	if (depth == 0)
		return bit;
	for (int b = 0; b < l->n_lower; b++)
		bounds |= l->lower[b] ? kc_poly_sym_mask(l->lower[b]) : ~0u;
	for (int b = 0; b < l->n_upper; b++)
		bounds |= l->upper[b] ? kc_poly_sym_mask(l->upper[b]) : ~0u;
	int moves =
	    (bounds & outer) || l->inexact || l->unknown_trips || l->trips_annotated || !l->n_lower || !l->n_upper;
	return outer | (moves ? bit : 0);
}

static void push_loop(struct fp *f, const struct kc_node *loop)
{
	if (f->depth == f->cap) {
		int cap = f->cap ? 2 * f->cap : 16;
		const struct kc_node **grown = KC_NEW_N(f->a, const struct kc_node *, cap);
		unsigned *moving = KC_NEW_N(f->a, unsigned, cap);
		if (f->depth) {
			memcpy(grown, f->stack, sizeof *grown * (size_t)f->depth);
			memcpy(moving, f->moving, sizeof *moving * (size_t)f->depth);
		}
		f->stack = grown;
		f->moving = moving;
		f->cap = cap;
	}
	f->moving[f->depth] = moving_after(loop, f->depth, f->depth ? f->moving[f->depth - 1] : 0);
	f->stack[f->depth++] = loop;
}

struct use {
	struct kc_box read, write;
	struct facts runs[2]; /* of read and write: the loops around their accesses run */
	int seen, first_is_write;
	unsigned first_line, last_line; /* of the accesses (a callee's: its call) */
	struct kc_loc unbounded;        /* line 0, or the first access whose hull is unknown, and why */
	const char *unbounded_why;
	int moves; /* an access's element moves with the variable of the nest's outermost loop (or a call uses it) */
};

/* ------------------------------------------------------------------------------------------------ */
/* The order of two bounds, for all sizes
 *
 * A hull takes the least of its lower bounds and the greatest of its upper bounds; whether a write covers
 * the later reads and on which side of a loop an index takes its extreme are order questions too. They
 * are answered for every size the figures hold for, never only at the benchmark sizes, so that a formula
 * does not change with --size. x >= y is proved when the affine system  y - x >= 1  (the difference of
 * two indices is an integer) plus what is known has no rational solution (Fourier-Motzkin). Known:
 *   - each loop whose trip count is a function of the sizes runs a non-negative number of times (the
 *     assumption of the counts, docs/counting.md), unless the benchmark sizes contradict it;
 *   - while the hull of one access is taken, the loops around it run at least once (the hull of an
 *     access that never runs is not its footprint anyway);
 *   - every size parameter, declared dimension and extent of a buffer is non-negative;
 *   - a derived symbol F = floor(p/d) satisfies  p - d + 1 <= d*F <= p.
 * When neither order is proved the choice depends on the sizes: the figure takes the one that holds at
 * the benchmark sizes (without them, for large sizes), and a warning at the access says which (the
 * function is not exact). */

#define FM_MAX 192 /* constraints during an elimination; more and the order is taken as unknown */

/* The symbols of p as a bit mask. */
static unsigned sym_mask(const struct kc_poly *p)
{
	return kc_poly_sym_mask(p);
}

/* One Fourier-Motzkin step: the constraints of g[0 .. n-1] without `sym`, and for each pair with opposite
 * signs of sym the combination that cancels it, into next (deduplicated). Their number, or -1 when they do
 * not fit FM_MAX or overflow. */
static int eliminate(struct fp *f, struct kc_poly **g, int n, int sym, struct kc_poly **next)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (!kc_poly_has_sym(g[i], sym)) {
			if (k == FM_MAX)
				return -1;
			next[k++] = g[i];
		}
	for (int i = 0; i < n; i++) {
		struct kc_rat ci, cj;
		struct kc_poly *ri, *rj, *x, *y, *sum;
		if (!kc_poly_has_sym(g[i], sym) || kc_poly_affine_split(f->a, g[i], sym, &ci, &ri) < 0 || ci.num < 0)
			continue;
		for (int j = 0; j < n; j++) {
			if (!kc_poly_has_sym(g[j], sym) || kc_poly_affine_split(f->a, g[j], sym, &cj, &rj) < 0 ||
			    cj.num > 0)
				continue;
			/* ci*s + ri >= 0 and cj*s + rj >= 0 with ci > 0 > cj:  -cj*ri + ci*rj >= 0 */
			cj.num = -cj.num;
			if (kc_poly_scale(f->a, ri, cj, &x) < 0 || kc_poly_scale(f->a, rj, ci, &y) < 0 ||
			    kc_poly_add(f->a, x, y, &sum) < 0 || k == FM_MAX)
				return -1;
			int dup = 0;
			for (int q = 0; q < k && !dup; q++)
				dup = kc_poly_equal(next[q], sum);
			if (!dup)
				next[k++] = sum;
		}
	}
	return k;
}

/* 1 if the affine constraints g[0 .. n-1] >= 0 have no rational solution; 0 if they have one, or when the
 * elimination grows too large or overflows to tell. g is overwritten. */
static int infeasible(struct fp *f, struct kc_poly **g, int n)
{
	struct kc_poly *next[FM_MAX];
	for (;;) {
		/* a negative constant is a contradiction, other constants say nothing; count each symbol's signs */
		int m = 0, pos[KC_POLY_MAX_SYMS] = {0}, neg[KC_POLY_MAX_SYMS] = {0};
		for (int i = 0; i < n; i++) {
			struct kc_rat c;
			struct kc_poly *rest;
			if (kc_poly_is_const(g[i], &c)) {
				if (c.num < 0)
					return 1;
				continue;
			}
			g[m++] = g[i];
			for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
				if (kc_poly_has_sym(g[i], s)) {
					if (kc_poly_affine_split(f->a, g[i], s, &c, &rest) < 0)
						return 0;
					if (c.num > 0)
						pos[s]++;
					else
						neg[s]++;
				}
		}
		if (!(n = m))
			return 0;
		/* eliminate the symbol that makes the fewest new constraints */
		int sym = -1;
		for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
			if ((pos[s] || neg[s]) &&
			    (sym < 0 || pos[s] * neg[s] - pos[s] - neg[s] < pos[sym] * neg[sym] - pos[sym] - neg[sym]))
				sym = s;
		if ((n = eliminate(f, g, n, sym, next)) < 0)
			return 0;
		memcpy(g, next, sizeof *g * (size_t)n);
	}
}

/* A known fact g >= 0 (see above) in facts[0 .. *n-1] (room for `cap`), kept when it is affine in sizes only
 * and the benchmark sizes do not contradict it. */
static void add_fact(struct fp *f, struct kc_poly **facts, int *n, int cap, struct kc_poly *g)
{
	long long v;
	const char *why;
	if (!g || !kc_poly_is_affine(g) || kc_poly_is_const(g, NULL) || (sym_mask(g) & f->loop_vars) || *n >= cap ||
	    (kc_function_eval(f->fn, g, &v, &why) == 0 && v < 0))
		return;
	for (int i = 0; i < *n; i++)
		if (kc_poly_equal(facts[i], g))
			return;
	facts[(*n)++] = g;
}

/* The trip-count facts of one loop: trips >= `least` (0 or 1). */
static void loop_facts(struct fp *f, const struct kc_node *n, long long least, struct kc_poly **facts, int *nf, int cap)
{
	if (n->kind != KC_NODE_LOOP || n->collapsed || n->inexact || n->trips_annotated || !n->n_lower || !n->n_upper)
		return;
	struct kc_poly *g, *one_minus = kc_poly_const(f->a, 1 - least, 1);
	if (n->step == 1 || n->step == -1) {
		for (int u = 0; u < n->n_upper; u++)
			for (int l = 0; l < n->n_lower; l++)
				if (kc_poly_sub(f->a, n->upper[u], n->lower[l], &g) == 0 &&
				    kc_poly_add(f->a, g, one_minus, &g) == 0)
					add_fact(f, facts, nf, cap, g);
		return;
	}
	if ((n->step > 0 ? n->n_lower : n->n_upper) != 1)
		return;
	struct kc_poly *const *ends = n->step > 0 ? n->upper : n->lower;
	int loop_vars[KC_POLY_MAX_SYMS];
	for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
		loop_vars[s] = (f->loop_vars >> s) & 1;
	for (int e = 0; e < (n->step > 0 ? n->n_upper : n->n_lower); e++) {
		struct kc_poly *last;
		const char *limit;
		if (kc_ir_loop_last_step(f->a, f->keep, f->fn, n, ends[e], loop_vars, &last, &limit) == 0 &&
		    kc_poly_add(f->a, last, one_minus, &g) == 0)
			add_fact(f, facts, nf, cap, g);
	}
}

static void mark_loops(struct fp *f, const struct kc_node *n)
{
	if (n->kind == KC_NODE_LOOP)
		f->loop_vars |= 1u << n->var;
	for (const struct kc_node *c = n->first; c; c = c->next)
		mark_loops(f, c);
	if (n->orelse)
		mark_loops(f, n->orelse);
}

static void all_loop_facts(struct fp *f, const struct kc_node *n)
{
	loop_facts(f, n, 0, f->facts, &f->n_facts, MAX_FACTS);
	for (const struct kc_node *c = n->first; c; c = c->next)
		all_loop_facts(f, c);
	if (n->orelse)
		all_loop_facts(f, n->orelse);
}

/* What is known of the function's sizes (f->facts), once before its footprints. */
static void gather_facts(struct fp *f)
{
	mark_loops(f, f->ir->body);
	all_loop_facts(f, f->ir->body);
	/* sizes are non-negative (docs/counting.md): what proves x + r*C <= x + (r + 1)*C in a caller whose own
	 * loops do not bound C */
	for (int s = 0; s < f->fn->n_size_params && s < f->fn->syms.n; s++)
		if (!f->fn->syms.syms[s].is_loop && !f->fn->syms.syms[s].floor_of)
			add_fact(f, f->facts, &f->n_facts, MAX_FACTS, kc_poly_sym(f->a, s));
	for (int b = 0; b < f->fn->n_buffers; b++) {
		add_fact(f, f->facts, &f->n_facts, MAX_FACTS, f->fn->buffers[b].extent);
		for (int d = 0; d < f->ir->dims[b].ndims; d++)
			add_fact(f, f->facts, &f->n_facts, MAX_FACTS, f->ir->dims[b].dim[d]);
	}
}

static int nonneg_for_all(struct fp *f, const struct kc_poly *d);

/* d >= 0 for a d of degree > 1 (b*T*C + t*C + i): each term of degree > 1 has a positive coefficient and
 * symbols proved non-negative, and the affine rest is proved non-negative. 0 if that is not proved. */
static int nonneg_factored(struct fp *f, const struct kc_poly *d);

static int nonneg_products(struct fp *f, const struct kc_poly *d)
{
	if (nonneg_factored(f, d))
		return 1;
	struct kc_poly *rest = kc_poly_zero(f->a), *term, *mono;
	for (int t = 0; t < kc_poly_nterms(d); t++) {
		struct kc_rat c = kc_poly_term_coef(d, t);
		mono = kc_poly_const(f->a, 1, 1);
		int degree = 0;
		for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
			for (int e = kc_poly_term_exp(d, t, s); e > 0; e--, degree++)
				if (kc_poly_mul(f->a, mono, kc_poly_sym(f->a, s), &mono) < 0)
					return 0;
		if (degree > 1) {
			if (c.num < 0)
				return 0;
			for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
				if (kc_poly_term_exp(d, t, s) && !nonneg_for_all(f, kc_poly_sym(f->a, s)))
					return 0;
			continue;
		}
		if (kc_poly_scale(f->a, mono, c, &term) < 0 || kc_poly_add(f->a, rest, term, &rest) < 0)
			return 0;
	}
	return nonneg_for_all(f, rest);
}

/* d = s*q + r for a symbol s proved non-negative, in which d is linear, with q and r proved non-negative:
 * inc_x*(n - 1) where the loop runs for n >= 2. */
static int nonneg_factored(struct fp *f, const struct kc_poly *d)
{
	for (int s = 0; s < f->fn->syms.n; s++) {
		struct kc_poly *q, *r;
		struct kc_rat c;
		if (!kc_poly_has_sym(d, s) || kc_poly_split_linear(f->a, d, s, &q, &r) < 0 || kc_poly_is_const(q, &c) ||
		    kc_poly_degree(q) >= kc_poly_degree(d))
			continue;
		if (nonneg_for_all(f, kc_poly_sym(f->a, s)) && nonneg_for_all(f, q) && nonneg_for_all(f, r))
			return 1;
	}
	return 0;
}

/* 1 if d >= 0 for every size the figures hold for (see above), 0 if that is not proved. */
static int nonneg_for_all(struct fp *f, const struct kc_poly *d)
{
	struct kc_rat c;
	if (kc_poly_is_const(d, &c))
		return c.num >= 0;
	if (!kc_poly_is_affine(d))
		return nonneg_products(f, d);
	struct kc_poly *known[MAX_FACTS + MAX_RUN + 2 * KC_POLY_MAX_SYMS], *g[FM_MAX], *t;
	int nk = 0;
	for (int i = 0; i < f->n_facts; i++)
		known[nk++] = f->facts[i];
	for (int i = 0; f->active && i < f->active->n; i++)
		known[nk++] = f->active->g[i];
	for (int s = 0; s < f->fn->syms.n; s++) {
		const struct kc_sym *sym = &f->fn->syms.syms[s];
		if (!sym->floor_of || !kc_poly_is_affine(sym->floor_of) || sym->floor_div <= 0)
			continue;
		struct kc_poly *dF;
		if (kc_poly_scale(f->a, kc_poly_sym(f->a, s), kc_rat_int(sym->floor_div), &dF) < 0 ||
		    kc_poly_sub(f->a, sym->floor_of, dF, &known[nk]) < 0 ||
		    kc_poly_sub(f->a, dF, sym->floor_of, &t) < 0 ||
		    kc_poly_add(f->a, t, kc_poly_const(f->a, sym->floor_div - 1, 1), &known[nk + 1]) < 0)
			continue;
		nk += 2;
	}
	/* d < 0 is d <= -1/L: d's monomials take integer values, so d takes multiples of 1/L, L the least common
	 * multiple of its denominators (1 for the difference of two indices) */
	long long lcm = 1;
	for (int i = 0; i < kc_poly_nterms(d); i++) {
		__int128 den = kc_poly_term_coef(d, i).den, x = lcm, y = den;
		while (y) {
			__int128 r = x % y;
			x = y;
			y = r;
		}
		if (lcm / (long long)x > (1LL << 40) / den)
			return 0;
		lcm = (long long)(lcm / (long long)x * den);
	}
	/* only what shares a symbol with d, directly or through other facts, can matter */
	int n = 0;
	if (kc_poly_neg(f->a, d, &t) < 0 || kc_poly_sub(f->a, t, kc_poly_const(f->a, 1, lcm), &g[n++]) < 0)
		return 0;
	unsigned mask = sym_mask(d);
	char used[sizeof known / sizeof known[0]] = {0};
	for (int grown = 1; grown;) {
		grown = 0;
		for (int i = 0; i < nk; i++)
			if (!used[i] && (sym_mask(known[i]) & mask)) {
				used[i] = 1;
				mask |= sym_mask(known[i]);
				grown = 1;
			}
	}
	for (int i = 0; i < nk && n < FM_MAX; i++)
		if (used[i])
			g[n++] = known[i];
	return infeasible(f, g, n);
}

/* The order of x and y for every size: 1 if x >= y, -1 if x <= y, 0 if neither is proved (1 on overflow,
 * which is reported). */
static int order_for_all(struct fp *f, const struct kc_poly *x, const struct kc_poly *y)
{
	struct kc_poly *d, *nd;
	if (kc_poly_sub(f->a, x, y, &d) < 0 || kc_poly_neg(f->a, d, &nd) < 0) {
		overflow(f); /* said, and not exact: keep x */
		return 1;
	}
	return nonneg_for_all(f, d) ? 1 : nonneg_for_all(f, nd) ? -1 : 0;
}

/* Where the order is not proved: x >= y at the benchmark sizes, or without them for large sizes (every
 * size 2^20; the derived symbols follow); *where says which, for the warning. */
static int ge_by_sizes(struct fp *f, const struct kc_poly *x, const struct kc_poly *y, const char **where)
{
	struct kc_poly *d;
	long long v;
	const char *why;
	*where = "at the benchmark sizes";
	if (kc_poly_sub(f->a, x, y, &d) < 0)
		return 1;
	if (kc_function_eval(f->fn, d, &v, &why) == 0)
		return v >= 0;
	*where = "for large sizes";
	long long values[KC_POLY_MAX_SYMS] = {0};
	for (int s = 0; s < f->fn->syms.n; s++) {
		const struct kc_sym *sym = &f->fn->syms.syms[s];
		long long p, q;
		if (!sym->floor_of)
			values[s] = 1 << 20;
		else if (sym->floor_div > 0 && kc_poly_eval_int(sym->floor_of, values, &p) == 0)
			values[s] = p / sym->floor_div - (p % sym->floor_div < 0);
		else if (sym->floor_by && kc_poly_eval_int(sym->floor_of, values, &p) == 0 &&
		         kc_poly_eval_int(sym->floor_by, values, &q) == 0 && q > 0)
			values[s] = p / q - (p % q < 0);
	}
	return kc_poly_eval_int(d, values, &v) < 0 || v >= 0;
}

static const char *text(struct fp *f, const struct kc_poly *p)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_function_format(f->fn, p, &b);
	const char *t = kc_arena_strdup(f->a, kc_buf_str(&b));
	kc_buf_release(&b);
	return t;
}

/* An order the sizes decide makes the function inexact; the warning is given once per buffer (1: give it). */
static int first_order_note(struct fp *f, int buffer)
{
	f->fn->exact = 0;
	if (f->order_noted[buffer])
		return 0;
	f->order_noted[buffer] = 1;
	return 1;
}

/* The larger (want_max) or smaller of two bounds of the hull of `buffer`, for every size; when that
 * depends on the sizes, the one of ge_by_sizes, and a warning at f->at. */
static struct kc_poly *hull_bound(struct fp *f, int buffer, struct kc_poly *x, struct kc_poly *y, int want_max)
{
	int o = order_for_all(f, x, y);
	if (!o) {
		const char *where, *which = want_max ? "larger" : "smaller";
		o = ge_by_sizes(f, x, y, &where) ? 1 : -1;
		if (first_order_note(f, buffer))
			kc_ir_limit_traffic(
			    f->keep, f->fn, f->at,
			    "the hull of '%s' takes the %s of %s and %s, which kcost cannot order for all sizes: the "
			    "figure takes %s, the %s %s",
			    f->fn->buffers[buffer].name, which, text(f, x), text(f, y),
			    text(f, (o > 0) == want_max ? x : y), which, where);
	}
	return (o > 0) == want_max ? x : y;
}

/* What an order decides, for the warning when the sizes decide it. */
enum question { HULL, COVERS };

/* x >= y for every size; when that depends on the sizes, as ge_by_sizes says, with a warning at f->at that
 * the hull of `buffer` (HULL) or whether its reads come from its writes (COVERS) then takes it so. */
static int ge_for_all(struct fp *f, int buffer, enum question q, const struct kc_poly *x, const struct kc_poly *y)
{
	int o = order_for_all(f, x, y);
	if (o)
		return o > 0;
	const char *where;
	int ge = ge_by_sizes(f, x, y, &where);
	if (first_order_note(f, buffer))
		kc_ir_limit_traffic(
		    f->keep, f->fn, f->at,
		    "%s '%s'%s depends on whether %s >= %s, which kcost cannot tell for all sizes: the figure "
		    "takes it %s, as %s",
		    q == HULL ? "the hull of" : "whether the reads of", f->fn->buffers[buffer].name,
		    q == HULL ? "" : " come from its earlier writes", text(f, x), text(f, y), ge ? "true" : "false",
		    where);
	return ge;
}

/* ------------------------------------------------------------------------------------------------ */
/* Hulls */

/* The last value a loop with |step| > 1 takes before `end`:  start + s*last (kc_ir_loop_last_step). Where
 * there is no closed form (several start bounds, a floor of loop variables), the larger hull up to `end`.
 * NULL on overflow. */
static struct kc_poly *last_value(struct fp *f, const struct kc_node *loop, struct kc_poly *end)
{
	int loop_vars[KC_POLY_MAX_SYMS] = {0};
	for (int i = 0; i < f->depth; i++)
		loop_vars[f->stack[i]->var] = 1;
	struct kc_poly *q, *r;
	const char *limit;
	if (kc_ir_loop_last_step(f->a, f->keep, f->fn, loop, end, loop_vars, &q, &limit) < 0) {
		if (limit)
			kc_ir_limit_traffic(f->keep, f->fn, loop->loc, "%s: its footprint is an upper bound", limit);
		return end;
	}
	if (kc_poly_mul(f->a, q, kc_ir_loop_step(f->a, loop), &q) < 0 ||
	    kc_poly_add(f->a, loop->step > 0 ? loop->lower[0] : loop->upper[0], q, &r) < 0)
		return NULL;
	return r;
}

/* The value a loop's variable takes at the bound b (the last value before it, with a non-unit step toward
 * b); NULL on overflow. Notes in f->nonrect when it depends on a loop outside level `level`. */
static struct kc_poly *bound_value(struct fp *f, const struct kc_node *loop, struct kc_poly *b, int upper, int level)
{
	if ((loop->step > 1 && upper) || (loop->step < -1 && !upper))
		b = last_value(f, loop, b);
	for (int j = 0; j < level && b; j++)
		if (!f->stack[j]->collapsed && kc_poly_has_sym(b, f->stack[j]->var))
			f->nonrect = 1 + f->stack[j]->var;
	return b;
}

#define MAX_BRANCHES 64 /* min()/max() bounds followed through the loops, per extreme */

/* The extreme of an affine index of `buffer` over the loops stack[0 .. level], innermost first: a loop
 * variable with a positive coefficient takes its upper bound for the maximum, its lower bound for the
 * minimum. A loop with several bounds (lo = max(lower[]), hi = min(upper[])) is followed along each: the
 * maximum of min_k(...) is at most min_k of the maxima, equal for the clipped and tiled loops of these
 * kernels, and the least of them (hull_bound) is taken. */
static struct kc_poly *extreme_from(struct fp *f, int buffer, struct kc_poly *e, int want_max, int level, int *branches)
{
	for (int i = level; i >= 0 && e; i--) {
		const struct kc_node *loop = f->stack[i];
		if (loop->collapsed || !kc_poly_has_sym(e, loop->var))
			continue;
		if (loop->inexact || loop->trips_annotated || !loop->n_lower || !loop->n_upper)
			return NULL;
		struct kc_poly *coef, *rest;
		if (kc_poly_split_linear(f->a, e, loop->var, &coef, &rest) < 0)
			return NULL;
		int upper = ge_for_all(f, buffer, HULL, coef, kc_poly_zero(f->a)) == want_max;
		struct kc_poly *const *b = upper ? loop->upper : loop->lower;
		int nb = upper ? loop->n_upper : loop->n_lower;
		if (nb > 1 && (*branches -= nb) < 0)
			kc_ir_limit_traffic(
			    f->keep, f->fn, f->at,
			    "too many min()/max() loop bounds to follow: the footprint of '%s' is an upper bound",
			    f->fn->buffers[buffer].name);
		if (nb > 1 && *branches >= 0) {
			struct kc_poly *best = NULL;
			for (int k = 0; k < nb; k++) {
				struct kc_poly *pick = bound_value(f, loop, b[k], upper, i), *ek;
				if (!pick || kc_poly_subst(f->a, e, loop->var, pick, &ek) < 0) {
					overflow(f);
					return NULL;
				}
				if (!(ek = extreme_from(f, buffer, ek, want_max, i - 1, branches)))
					return NULL;
				best = best ? hull_bound(f, buffer, best, ek, !want_max) : ek;
			}
			return best;
		}
		struct kc_poly *pick = bound_value(f, loop, b[0], upper, i);
		if (!pick || kc_poly_subst(f->a, e, loop->var, pick, &e) < 0) {
			overflow(f);
			return NULL;
		}
	}
	return e;
}

/* While the hull of one access is taken, the loops around it run at least once (f->run). */
static struct kc_poly *extreme(struct fp *f, int buffer, struct kc_poly *e, int want_max)
{
	int branches = MAX_BRANCHES;
	f->active = &f->run;
	struct kc_poly *r = extreme_from(f, buffer, e, want_max, f->depth - 1, &branches);
	f->active = NULL;
	return r;
}

/* f->run: the loops around what is being measured run at least once. */
static void running_loops(struct fp *f)
{
	f->run.n = 0;
	for (int i = 0; i < f->depth; i++)
		loop_facts(f, f->stack[i], 1, f->run.g, &f->run.n, MAX_RUN);
}

/* The facts of two hulls together (those that do not fit are left out: fewer orders are proved). */
static struct facts merged(struct fp *f, const struct facts *x, const struct facts *y)
{
	struct facts m = *x;
	for (int i = 0; i < y->n; i++)
		add_fact(f, m.g, &m.n, MAX_RUN, y->g[i]);
	return m;
}

/* The whole declared extent of a buffer as a hull; 0 when a dimension is unknown. */
static int whole_box(struct fp *f, int buffer, struct kc_box *box)
{
	const struct kc_dims *d = &f->ir->dims[buffer];
	struct kc_poly *one = kc_poly_const(f->a, 1, 1);
	if (f->flatten[buffer] || d->ndims == 0) {
		const struct kc_buffer *b = &f->fn->buffers[buffer];
		if (!b->extent)
			return 0;
		box->ndims = 1;
		box->lo[0] = kc_poly_zero(f->a);
		if (kc_poly_sub(f->a, b->extent, one, &box->hi[0]) < 0)
			goto overflowed;
		return 1;
	}
	box->ndims = d->ndims;
	for (int i = 0; i < d->ndims; i++) {
		if (!d->dim[i])
			return 0;
		box->lo[i] = kc_poly_zero(f->a);
		if (kc_poly_sub(f->a, d->dim[i], one, &box->hi[i]) < 0)
			goto overflowed;
	}
	return 1;
overflowed:
	overflow(f);
	box->ndims = 0;
	return 0;
}

/* Flatten a multi-dimensional index to a row-major element offset. */
static struct kc_poly *flat_index(struct fp *f, const struct kc_access *acc)
{
	const struct kc_dims *d = &f->ir->dims[acc->buffer];
	if (acc->ndims == 1)
		return acc->index[0];
	struct kc_poly *flat = kc_poly_zero(f->a);
	for (int i = 0; i < acc->ndims; i++) {
		struct kc_poly *t = acc->index[i];
		for (int k = i + 1; t && k < d->ndims; k++)
			if (!d->dim[k])
				return NULL;
			else if (kc_poly_mul(f->a, t, d->dim[k], &t) < 0)
				goto overflowed;
		if (!t)
			return NULL;
		if (kc_poly_add(f->a, flat, t, &flat) < 0)
			goto overflowed;
	}
	return flat;
overflowed:
	overflow(f);
	return NULL;
}

static int access_box(struct fp *f, const struct kc_access *acc, struct kc_box *box)
{
	if (acc->ndims == 0)
		return whole_box(f, acc->buffer, box);
	struct kc_poly *idx[KC_MAX_DIMS];
	int n = acc->ndims;
	if (f->flatten[acc->buffer]) {
		idx[0] = flat_index(f, acc);
		n = 1;
	} else {
		memcpy(idx, acc->index, sizeof idx[0] * (size_t)n);
	}
	box->ndims = n;
	for (int d = 0; d < n; d++) {
		if (!idx[d] || !(box->lo[d] = extreme(f, acc->buffer, idx[d], 0)) ||
		    !(box->hi[d] = extreme(f, acc->buffer, idx[d], 1)))
			return whole_box(f, acc->buffer, box);
	}
	return 1;
}

/* A hull of `buffer` in its declared dimensions as a hull of row-major element offsets:
 * [sum lo[d]*stride[d], sum hi[d]*stride[d]] holds every element of the box. 0 when a dimension is unknown. */
static int flat_box(struct fp *f, int buffer, struct kc_box *box)
{
	const struct kc_dims *dims = &f->ir->dims[buffer];
	if (box->ndims == 1)
		return 1;
	if (box->ndims != dims->ndims)
		return 0;
	struct kc_poly *lo = kc_poly_zero(f->a), *hi = kc_poly_zero(f->a);
	for (int d = 0; d < box->ndims; d++) {
		struct kc_poly *l = box->lo[d], *h = box->hi[d];
		for (int k = d + 1; k < dims->ndims; k++)
			if (!dims->dim[k])
				return 0;
			else if (kc_poly_mul(f->a, l, dims->dim[k], &l) < 0 ||
			         kc_poly_mul(f->a, h, dims->dim[k], &h) < 0)
				goto overflowed;
		if (kc_poly_add(f->a, lo, l, &lo) < 0 || kc_poly_add(f->a, hi, h, &hi) < 0)
			goto overflowed;
	}
	box->ndims = 1;
	box->lo[0] = lo;
	box->hi[0] = hi;
	return 1;
overflowed:
	overflow(f);
	return 0;
}

static void box_union(struct fp *f, int buffer, struct kc_box *into, const struct kc_box *from)
{
	if (!into->ndims) {
		*into = *from;
		return;
	}
	struct kc_box b = *from;
	if (into->ndims != b.ndims && (!flat_box(f, buffer, into) || !flat_box(f, buffer, &b))) {
		kc_ir_limit_traffic(
		    f->keep, f->fn, f->at,
		    "the accesses of '%s' have different shapes and its dimensions are unknown: its footprint "
		    "leaves some of them out",
		    f->fn->buffers[buffer].name);
		return;
	}
	for (int d = 0; d < b.ndims; d++) {
		into->lo[d] = hull_bound(f, buffer, into->lo[d], b.lo[d], 0);
		into->hi[d] = hull_bound(f, buffer, into->hi[d], b.hi[d], 1);
	}
}

/* Whether the first writes of `buffer` (outer) cover its later reads (inner). */
static int box_covers(struct fp *f, int buffer, const struct kc_box *outer, const struct kc_box *inner)
{
	struct kc_box o = *outer, in = *inner;
	if (!o.ndims || !in.ndims)
		return 0;
	if (o.ndims != in.ndims && (!flat_box(f, buffer, &o) || !flat_box(f, buffer, &in))) {
		kc_ir_limit_traffic(
		    f->keep, f->fn, f->at,
		    "the reads and writes of '%s' have different shapes and its dimensions are unknown: its "
		    "reads are counted as if no write came first",
		    f->fn->buffers[buffer].name);
		return 0;
	}
	for (int d = 0; d < in.ndims; d++)
		if (!ge_for_all(f, buffer, COVERS, in.lo[d], o.lo[d]) ||
		    !ge_for_all(f, buffer, COVERS, o.hi[d], in.hi[d]))
			return 0;
	return 1;
}

/* Whether the first writes of a buffer cover its later reads, where the accesses of both run. */
static int covered(struct fp *f, int buffer, const struct use *u)
{
	struct facts both = merged(f, &u->runs[0], &u->runs[1]);
	f->active = &both;
	int c = box_covers(f, buffer, &u->write, &u->read);
	f->active = NULL;
	return c;
}

/* Elements in a hull: prod (hi - lo + 1). */
static struct kc_poly *box_count(struct fp *f, const struct kc_box *b)
{
	struct kc_poly *n = kc_poly_const(f->a, b->ndims ? 1 : 0, 1), *one = kc_poly_const(f->a, 1, 1);
	for (int d = 0; d < b->ndims; d++) {
		struct kc_poly *len;
		if (kc_poly_sub(f->a, b->hi[d], b->lo[d], &len) < 0 || kc_poly_add(f->a, len, one, &len) < 0 ||
		    kc_poly_mul(f->a, n, len, &n) < 0) {
			overflow(f);
			return NULL;
		}
	}
	return n;
}

/* ------------------------------------------------------------------------------------------------ */
/* Walking a region in program order */

/* The lines of the accesses a use holds, widened to first..last. */
static void widen_lines(struct use *u, unsigned first, unsigned last)
{
	if (!first)
		return;
	if (!u->first_line || first < u->first_line)
		u->first_line = first;
	if (last > u->last_line)
		u->last_line = last;
}

/* The first access of a buffer whose hull is unknown, for the run step (which then needs an annotation). */
static void unbounded(struct use *u, struct kc_loc at, const char *why)
{
	if (!u->unbounded.line) {
		u->unbounded = at;
		u->unbounded_why = why;
	}
}

static const char not_affine[] = "its index is not an affine function of the loop variables and sizes "
                                 "(data-dependent, or an operation kcost does not model)";

/* Why the hull of an access could not be taken (access_box failed). */
static const char *unbounded_why(const struct fp *f, const struct kc_access *acc)
{
	if (acc->ndims == 0)
		return "a library call reads or writes the whole buffer";
	for (int d = 0; d < acc->ndims; d++)
		if (!acc->index[d])
			return not_affine;
	if (f->flatten[acc->buffer])
		return "its accesses have different shapes and its inner dimensions are unknown";
	return "a loop around it has bounds kcost cannot follow";
}

static void record(struct fp *f, struct use *uses, int buffer, const struct kc_box *box, int is_write)
{
	struct use *u = &uses[buffer];
	if (!u->seen) {
		u->seen = 1;
		u->first_is_write = is_write;
	}
	widen_lines(u, f->at.line, f->at.line);
	/* the hull holds where the accesses of both run */
	struct facts both = merged(f, &u->runs[is_write], &f->run);
	f->active = &both;
	box_union(f, buffer, is_write ? &u->write : &u->read, box);
	f->active = NULL;
	u->runs[is_write] = both;
}

static void unknown_footprint(struct fp *f, const struct kc_access *acc)
{
	if (f->unknown_reported)
		return;
	f->unknown_reported = 1;
	kc_diag_add(f->keep, &f->fn->diags, acc->loc, KC_WARNING, KC_DIAG_INEXACT_TRAFFIC, f->fn->name,
	            "the extent of '%s' is unknown: its traffic is not counted (annotate it with KCOST_EXTENT)",
	            f->fn->buffers[acc->buffer].name);
	f->fn->exact = 0;
}

/* A callee's buffer uses, in the caller's symbols and buffers. */
static void record_call(struct fp *f, struct use *uses, const struct kc_call *call)
{
	const struct kc_fn_ir *g = call->callee_ir;
	for (int b = 0; b < call->n_buffers; b++) {
		int cb = call->buffer_args[b];
		if (cb < 0 || !g->uses)
			continue;
		const struct kc_buffer *gb = &g->fn->buffers[b];
		if (gb->unbounded_at.line)
			unbounded(&uses[cb], gb->unbounded_at, gb->unbounded_why);
		const struct kc_buffer_use *gu = &g->uses[b];
		const struct kc_box *boxes[2] = {gu->first_is_write ? &gu->write : &gu->read,
		                                 gu->first_is_write ? &gu->read : &gu->write};
		for (int i = 0; i < 2; i++) {
			if (!boxes[i]->ndims)
				continue;
			struct kc_box mapped = *boxes[i];
			int ok = 1;
			for (int d = 0; d < mapped.ndims && ok; d++)
				ok = kc_call_compose(f->a, f->keep, f->fn, call, boxes[i]->lo[d], &mapped.lo[d]) == 0 &&
				     kc_call_compose(f->a, f->keep, f->fn, call, boxes[i]->hi[d], &mapped.hi[d]) == 0;
			struct kc_poly *off = call->buffer_offsets ? call->buffer_offsets[b] : kc_poly_zero(f->a);
			int moved = ok && (!off || !kc_poly_is_zero(off));
			if (moved && (!off || mapped.ndims != 1)) {
				/* the whole buffer: a bound only when its extent is declared */
				if (!f->fn->buffers[cb].extent)
					unbounded(&uses[cb], f->at,
					          kc_arena_printf(
					              f->keep,
					              "it is passed to '%s' at an element kcost cannot place in the "
					              "callee's accesses",
					              g->fn->name));
				kc_ir_limit_traffic(
				    f->keep, f->fn, f->at,
				    "the element where this call's argument starts in '%s' is %s: its traffic is "
				    "counted as the whole buffer's",
				    f->fn->buffers[cb].name, off ? "not known in the callee's shape" : "not affine");
				ok = whole_box(f, cb, &mapped);
			} else if (moved) {
				/* the argument starts at element off of the caller's buffer (viewed flat, see
				 * decide_flattening): the callee's hull moves there, over the loops around the call */
				ok = kc_poly_add(f->a, mapped.lo[0], off, &mapped.lo[0]) == 0 &&
				     kc_poly_add(f->a, mapped.hi[0], off, &mapped.hi[0]) == 0 &&
				     (mapped.lo[0] = extreme(f, cb, mapped.lo[0], 0)) &&
				     (mapped.hi[0] = extreme(f, cb, mapped.hi[0], 1));
			}
			/* the caller may see the buffer with other dimensions: compare element counts only */
			if (ok && !moved &&
			    mapped.ndims !=
			        (f->flatten[cb] ? 1 : (f->ir->dims[cb].ndims ? f->ir->dims[cb].ndims : 1))) {
				struct kc_poly *cnt = box_count(f, &mapped), *one = kc_poly_const(f->a, 1, 1);
				/* as many elements from index 0: the traffic, but no bound of the highest index */
				if (!f->fn->buffers[cb].extent)
					unbounded(&uses[cb], f->at,
					          kc_arena_printf(
					              f->keep,
					              "'%s' sees it with other dimensions, which kcost does not map "
					              "index by index",
					              g->fn->name));
				mapped.ndims = 1;
				mapped.lo[0] = kc_poly_zero(f->a);
				ok = cnt && kc_poly_sub(f->a, cnt, one, &mapped.hi[0]) == 0;
				f->flatten[cb] = 1;
			}
			if (ok) {
				record(f, uses, cb, &mapped, boxes[i] == &gu->write);
				continue;
			}
			unbounded(&uses[cb], f->at,
			          "its footprint in this call cannot be expressed in the caller's sizes");
			kc_ir_limit_traffic(f->keep, f->fn, f->at,
			                    "the footprint of '%s' in this call could not be expressed in "
			                    "the caller's sizes: its traffic is not counted",
			                    f->fn->buffers[cb].name);
		}
	}
}

/* The hull of a triangular or trapezoidal domain holds elements the loops never touch: say so once. */
static void note_hull(struct fp *f, const struct kc_access *acc)
{
	if (f->hull_noted[acc->buffer])
		return;
	f->hull_noted[acc->buffer] = 1;
	kc_diag_add(f->keep, &f->fn->diags, acc->loc, KC_NOTE, KC_DIAG_ASSUMPTION, f->fn->name,
	            "the min/streaming traffic of '%s' counts the rectangular hull of a non-rectangular access "
	            "(an upper bound; see docs/counting.md)",
	            f->fn->buffers[acc->buffer].name);
}

/* The variables whose values move with the outermost loop's (f->stack[0]): its own, and those of the loops inside
 * whose bounds depend on a moving one or on data (spmv's j from rowptr[i]: its elements are other rows'). */
static unsigned moving_vars(const struct fp *f)
{
	return f->depth ? f->moving[f->depth - 1] : 0;
}

static void walk(struct fp *f, const struct kc_node *n, struct use *uses)
{
	for (int i = 0; i < n->n_accesses; i++) {
		const struct kc_access *acc = &n->accesses[i];
		struct kc_box box = {0};
		f->nonrect = 0;
		f->at = acc->loc;
		running_loops(f);
		if (!access_box(f, acc, &box)) {
			uses[acc->buffer].moves = 1; /* where it reads is not known: nothing is read again for sure */
			unbounded(&uses[acc->buffer], acc->loc, unbounded_why(f, acc));
			unknown_footprint(f, acc);
			continue;
		}
		/* the hull is exact unless the outer variable also indexes the access (L[i][j], j < i) */
		for (int d = 0; f->nonrect && d < acc->ndims; d++)
			if (acc->index[d] && kc_poly_has_sym(acc->index[d], f->nonrect - 1)) {
				note_hull(f, acc);
				break;
			}
		record(f, uses, acc->buffer, &box, acc->is_write);
		unsigned moving = moving_vars(f);
		for (int d = 0; f->depth && d < acc->ndims; d++)
			uses[acc->buffer].moves |= !acc->index[d] || (kc_poly_sym_mask(acc->index[d]) & moving);
	}
	if (n->call) {
		f->at = n->loc;
		running_loops(f);
		record_call(f, uses, n->call);
		for (int b = 0; b < n->call->n_buffers; b++)
			if (n->call->buffer_args[b] >= 0)
				uses[n->call->buffer_args[b]].moves = 1;
	}
	int pushed = n->kind == KC_NODE_LOOP, taken = kc_ir_if_taken(f->fn, n);
	if (pushed)
		push_loop(f, n);
	for (const struct kc_node *c = taken ? n->first : NULL; c; c = c->next)
		walk(f, c, uses);
	if (n->orelse && taken != 1)
		walk(f, n->orelse, uses);
	if (pushed)
		f->depth--;
}

/* Bytes of one region's uses; `params_only` for the min model; buffers with skip[b] set are left out. */
static void traffic_of_skipping(struct fp *f, const struct use *uses, int params_only, const char *skip,
                                struct kc_traffic *t);

static void traffic_of(struct fp *f, const struct use *uses, int params_only, struct kc_traffic *t)
{
	traffic_of_skipping(f, uses, params_only, NULL, t);
}

static void traffic_of_skipping(struct fp *f, const struct use *uses, int params_only, const char *skip,
                                struct kc_traffic *t)
{
	t->read = kc_poly_zero(f->a);
	t->write = kc_poly_zero(f->a);
	t->write_only = params_only ? NULL : kc_poly_zero(f->a);
	for (int b = 0; b < f->fn->n_buffers; b++) {
		const struct kc_buffer *buf = &f->fn->buffers[b];
		const struct use *u = &uses[b];
		if (!u->seen || (params_only && (!buf->is_param || buf->is_scratch)) || (skip && skip[b]))
			continue;
		struct kc_rat es = kc_rat_int(buf->elem_size);
		struct kc_poly *r = u->read.ndims ? box_count(f, &u->read) : NULL;
		struct kc_poly *w = u->write.ndims ? box_count(f, &u->write) : NULL;
		if (r && u->first_is_write && covered(f, b, u))
			r = NULL; /* produced before it is consumed: served from cache */
		if ((r && (kc_poly_scale(f->a, r, es, &r) < 0 || kc_poly_add(f->a, t->read, r, &t->read) < 0)) ||
		    (w && (kc_poly_scale(f->a, w, es, &w) < 0 || kc_poly_add(f->a, t->write, w, &t->write) < 0)) ||
		    (w && !r && t->write_only && kc_poly_add(f->a, t->write_only, w, &t->write_only) < 0))
			overflow(f);
	}
}

static enum kc_role role_of(struct fp *f, const struct kc_buffer *b, const struct use *u)
{
	if (!b->is_param || b->is_scratch)
		return u->seen ? KC_ROLE_INTERMEDIATE : KC_ROLE_UNUSED;
	if (!u->seen)
		return KC_ROLE_UNUSED;
	if (!u->write.ndims)
		return KC_ROLE_INPUT;
	if (!u->read.ndims || (u->first_is_write && covered(f, (int)(b - f->fn->buffers), u)))
		return KC_ROLE_OUTPUT;
	return KC_ROLE_INOUT;
}

/* A call moves what its callee's passes move: the callee's streaming traffic, in the caller's sizes. */
static int call_streaming(struct fp *f, const struct kc_node *n, struct kc_traffic *t)
{
	if (!n->call)
		return 0;
	const struct kc_traffic *g = &n->call->callee->traffic[KC_MODEL_STREAMING];
	if (!g->read || !g->write || kc_call_compose(f->a, f->keep, f->fn, n->call, g->read, &t->read) < 0 ||
	    kc_call_compose(f->a, f->keep, f->fn, n->call, g->write, &t->write) < 0)
		return 0;
	if (!g->write_only || kc_call_compose(f->a, f->keep, f->fn, n->call, g->write_only, &t->write_only) < 0)
		t->write_only = NULL; /* not known: the prediction prices the writes at the level's one bandwidth */
	return 1;
}

/* What each iteration of a nest's outermost loop reads again: the read hulls of the buffers none of whose
 * accesses move with its variable (matmul_ikj's B[p][j] under i), in bytes, and that loop's trip count. Not
 * for a loop that does not step by 1 from one bound to one, or reads nothing again. */
static void reread_of(struct fp *f, struct kc_nest *nest, const struct kc_node *node, const struct use *uses)
{
	nest->reread_bytes = nest->outer_trips = NULL;
	if (node->kind != KC_NODE_LOOP || node->collapsed || node->step != 1 || node->n_lower != 1 ||
	    node->n_upper != 1 || node->trips_annotated)
		return;
	struct kc_poly *bytes = kc_poly_zero(f->a), *trips;
	for (int b = 0; b < f->fn->n_buffers; b++) {
		const struct use *u = &uses[b];
		struct kc_poly *r;
		if (!u->seen || u->moves || !u->read.ndims || (u->first_is_write && covered(f, b, u)))
			continue;
		if (!(r = box_count(f, &u->read)) ||
		    kc_poly_scale(f->a, r, kc_rat_int(f->fn->buffers[b].elem_size), &r) < 0 ||
		    kc_poly_add(f->a, bytes, r, &bytes) < 0)
			return;
	}
	if (kc_poly_is_zero(bytes) || kc_poly_sub(f->a, node->upper[0], node->lower[0], &trips) < 0 ||
	    kc_poly_add(f->a, trips, kc_poly_const(f->a, 1, 1), &trips) < 0)
		return;
	nest->reread_bytes = kc_poly_copy(f->keep, bytes);
	nest->outer_trips = kc_poly_copy(f->keep, trips);
}

/* A nest's streaming traffic and the buffers it reads and writes (for the dataflow graph). */
static void fill_nest(struct fp *f, struct kc_nest *nest, const struct kc_node *node, const struct use *uses)
{
	if (!call_streaming(f, node, &nest->traffic[KC_MODEL_STREAMING]))
		traffic_of(f, uses, 0, &nest->traffic[KC_MODEL_STREAMING]);
	reread_of(f, nest, node, uses);
	int nb = f->fn->n_buffers;
	nest->reads = KC_NEW_N(f->keep, int, nb + 1);
	nest->writes = KC_NEW_N(f->keep, int, nb + 1);
	for (int b = 0; b < nb; b++) {
		if (uses[b].read.ndims)
			nest->reads[nest->n_reads++] = b;
		if (uses[b].write.ndims)
			nest->writes[nest->n_writes++] = b;
	}
}

static int is_nest(const struct kc_node *c)
{
	return kc_ir_is_nest(c);
}

static void decide_flattening(struct fp *f, const struct kc_node *n)
{
	for (int i = 0; i < n->n_accesses; i++) {
		const struct kc_access *acc = &n->accesses[i];
		int nd = f->ir->dims[acc->buffer].ndims;
		if (acc->ndims && acc->ndims != nd)
			f->flatten[acc->buffer] = 1;
	}
	/* a call's argument that starts inside a caller buffer (x + r*C, &a[i][0]) is an element offset */
	for (int b = 0; n->call && n->call->buffer_offsets && b < n->call->n_buffers; b++)
		if (n->call->buffer_args[b] >= 0 &&
		    (!n->call->buffer_offsets[b] || !kc_poly_is_zero(n->call->buffer_offsets[b])))
			f->flatten[n->call->buffer_args[b]] = 1;
	for (const struct kc_node *c = n->first; c; c = c->next)
		decide_flattening(f, c);
	if (n->orelse)
		decide_flattening(f, n->orelse);
}

static struct kc_poly *keep_poly(struct kc_arena *a, struct kc_poly *p)
{
	return p ? kc_poly_copy(a, p) : NULL;
}

static void keep_traffic(struct kc_arena *a, struct kc_traffic *t)
{
	t->read = keep_poly(a, t->read);
	t->write = keep_poly(a, t->write);
	t->write_only = keep_poly(a, t->write_only);
}

static void keep_box(struct kc_arena *a, struct kc_box *b)
{
	for (int d = 0; d < b->ndims; d++) {
		b->lo[d] = keep_poly(a, b->lo[d]);
		b->hi[d] = keep_poly(a, b->hi[d]);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Extents from accesses
 *
 * A pointer parameter with no declared extent is given the hull of the indices the function and its callees
 * access (the run step allocates it). That is only safe when every access to it is in the IR: an access the
 * front end could not trace to a buffer, or a call it could not follow, may reach any parameter, so then no
 * extent is inferred and the run step names that place. */

/* The front end's warnings of memory it does not see (lower.c): the first one, or NULL. */
static const struct kc_diag *untraced(const struct kc_function *fn)
{
	static const char *const what[] = {"kcost cannot trace",          "unsupported access expression",
	                                   "access with more than",       "call to unknown function",
	                                   "which could not be analyzed", "recursive call"};
	for (const struct kc_diag *d = fn->diags.head; d; d = d->next)
		for (size_t i = 0; d->severity == KC_WARNING && i < sizeof what / sizeof what[0]; i++)
			if (strstr(d->message, what[i]))
				return d;
	return NULL;
}

static int is_buffer_param(const struct kc_function *fn, int buffer)
{
	for (int i = 0; i < fn->n_params; i++)
		if (fn->params[i].kind == KC_PARAM_BUFFER && fn->params[i].buffer == buffer)
			return 1;
	return 0;
}

/* The reads and writes of u as one row-major hull lo..hi (1 dimension), where the accesses of both run; why
 * not, or NULL. */
static const char *flat_hull(struct fp *f, int buffer, const struct use *u, struct kc_poly **lo, struct kc_poly **hi)
{
	struct kc_box r = u->read, w = u->write;
	if ((r.ndims && !flat_box(f, buffer, &r)) || (w.ndims && !flat_box(f, buffer, &w)))
		return "its accesses have different shapes and its inner dimensions are unknown";
	if (!r.ndims || !w.ndims) {
		*lo = r.ndims ? r.lo[0] : w.lo[0];
		*hi = r.ndims ? r.hi[0] : w.hi[0];
		return NULL;
	}
	struct facts both = merged(f, &u->runs[0], &u->runs[1]);
	f->active = &both;
	int olo = order_for_all(f, r.lo[0], w.lo[0]), ohi = order_for_all(f, r.hi[0], w.hi[0]);
	f->active = NULL;
	if (!olo || !ohi)
		return "the hull of its reads and writes depends on an order of the sizes kcost cannot prove";
	*lo = olo < 0 ? r.lo[0] : w.lo[0];
	*hi = ohi > 0 ? r.hi[0] : w.hi[0];
	return NULL;
}

/* The extent of each buffer parameter that has none declared, from the hull of its accesses; or where and
 * why it cannot be (kc_buffer.unbounded_at). */
static void infer_extents(struct fp *f, struct kc_arena *keep, const struct use *all)
{
	struct kc_function *fn = f->fn;
	const struct kc_diag *blind = untraced(fn);
	for (int b = 0; b < fn->n_buffers; b++) {
		struct kc_buffer *buf = &fn->buffers[b];
		const struct use *u = &all[b];
		struct kc_poly *lo = NULL, *hi = NULL, *extent = NULL;
		if (buf->extent) {
			buf->extent_origin = KC_EXTENT_DECLARED;
			continue;
		}
		if (!is_buffer_param(fn, b) || buf->elem_class == KC_ELEM_POINTER)
			continue;
		const char *why = NULL;
		struct kc_loc at = fn->loc;
		if (buf->unreferenced) {
			buf->extent = kc_poly_const(keep, 0, 1); /* no access can reach it */
			buf->extent_origin = KC_EXTENT_UNUSED;
			continue;
		}
		if (blind) {
			at = blind->loc;
			why = "an access or call kcost cannot follow there may reach it";
		} else if (u->unbounded.line) {
			at = u->unbounded;
			why = u->unbounded_why;
		} else if (!u->read.ndims && !u->write.ndims) {
			continue; /* never accessed: nothing to infer from */
		} else if (!(why = flat_hull(f, b, u, &lo, &hi))) {
			/* from index 0, or from the lowest index when it may be negative */
			struct facts both = merged(f, &u->runs[0], &u->runs[1]);
			f->active = &both;
			int from_zero = nonneg_for_all(f, lo);
			f->active = NULL;
			if (from_zero)
				lo = NULL;
			if ((lo && kc_poly_sub(f->a, hi, lo, &hi) < 0) ||
			    kc_poly_add(f->a, hi, kc_poly_const(f->a, 1, 1), &extent) < 0)
				why = "its hull overflows exact arithmetic";
		}
		if (why) {
			buf->unbounded_at = at;
			buf->unbounded_why = why;
			continue;
		}
		buf->extent = keep_poly(keep, extent);
		buf->lowest = keep_poly(keep, lo);
		buf->extent_origin = KC_EXTENT_ACCESSES;
		buf->first_line = u->first_line;
		buf->last_line = u->last_line;
	}
}

void kc_footprint_function(struct kc_arena *a, struct kc_fn_ir *ir)
{
	struct kc_function *fn = ir->fn;
	/* hulls, comparisons and sums build many intermediate polynomials: they go into scratch memory, and
	 * only the results are copied into a */
	struct kc_arena scratch = KC_ARENA_INIT;
	struct fp f = {0};
	f.a = &scratch;
	f.keep = a;
	f.ir = ir;
	f.fn = fn;
	f.at = fn->loc;
	f.flatten = buffer_flags(f.a, fn, 0);
	f.hull_noted = buffer_flags(f.a, fn, 0);
	f.order_noted = buffer_flags(f.a, fn, 0);
	decide_flattening(&f, ir->body);
	gather_facts(&f);
	int nb = fn->n_buffers ? fn->n_buffers : 1;
	struct use *all = KC_NEW_N(f.a, struct use, nb);
	int nest = 0;
	for (struct kc_node *c = ir->body->first; c; c = c->next) {
		struct use *mine = KC_NEW_N(f.a, struct use, nb);
		walk(&f, c, mine);
		for (int b = 0; b < fn->n_buffers; b++) {
			if (mine[b].unbounded.line)
				unbounded(&all[b], mine[b].unbounded, mine[b].unbounded_why);
			if (!mine[b].seen)
				continue;
			if (!all[b].seen) {
				all[b].seen = 1;
				all[b].first_is_write = mine[b].first_is_write;
			}
			widen_lines(&all[b], mine[b].first_line, mine[b].last_line);
			f.at = c->loc;
			for (int w = 0; w < 2; w++) {
				struct kc_box *into = w ? &all[b].write : &all[b].read,
				              *from = w ? &mine[b].write : &mine[b].read;
				if (!from->ndims)
					continue;
				struct facts both = merged(&f, &all[b].runs[w], &mine[b].runs[w]);
				f.active = &both;
				box_union(&f, b, into, from);
				f.active = NULL;
				all[b].runs[w] = both;
			}
		}
		f.at = c->loc;
		if (is_nest(c) && nest < fn->n_nests)
			fill_nest(&f, &fn->nests[nest++], c, mine);
	}
	f.at = fn->loc; /* the whole function's questions: on the function */
	traffic_of(&f, all, 1, &fn->traffic[KC_MODEL_MIN]);
	struct kc_traffic *s = &fn->traffic[KC_MODEL_STREAMING];
	s->read = kc_poly_zero(f.a);
	s->write = kc_poly_zero(f.a);
	s->write_only = kc_poly_zero(f.a);
	for (int i = 0; i < fn->n_nests; i++) {
		const struct kc_traffic *t = &fn->nests[i].traffic[KC_MODEL_STREAMING];
		if (!t->read)
			continue;
		f.at = fn->nests[i].begin;
		if (kc_poly_add(f.a, s->read, t->read, &s->read) < 0 ||
		    kc_poly_add(f.a, s->write, t->write, &s->write) < 0)
			overflow(&f);
		if (!t->write_only || !s->write_only ||
		    kc_poly_add(f.a, s->write_only, t->write_only, &s->write_only) < 0)
			s->write_only = NULL;
	}
	ir->uses = KC_NEW_N(a, struct kc_buffer_use, nb);
	f.at = fn->loc;
	for (int b = 0; b < fn->n_buffers; b++) {
		fn->buffers[b].role = role_of(&f, &fn->buffers[b], &all[b]);
		ir->uses[b].read = all[b].read;
		ir->uses[b].write = all[b].write;
		ir->uses[b].first_is_write = all[b].first_is_write;
		keep_box(a, &ir->uses[b].read);
		keep_box(a, &ir->uses[b].write);
	}
	keep_traffic(a, &fn->traffic[KC_MODEL_MIN]);
	keep_traffic(a, s);
	for (int i = 0; i < fn->n_nests; i++)
		keep_traffic(a, &fn->nests[i].traffic[KC_MODEL_STREAMING]);
	infer_extents(&f, a, all);
	kc_arena_release(&scratch);
}

void kc_footprint_region(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer,
                         const struct kc_node *const *nodes, int n, const char *skip, struct kc_traffic *out,
                         int **reads, int *n_reads, int **writes, int *n_writes, struct kc_nest *phase)
{
	struct fp f = {0};
	f.a = a;
	f.keep = a;
	f.ir = ir;
	f.fn = ir->fn;
	f.at = nodes && n ? nodes[0]->loc : ir->fn->loc;
	f.unknown_reported = 1; /* kc_footprint_function already said it */
	f.hull_noted = buffer_flags(a, ir->fn, 1);
	f.order_noted = buffer_flags(a, ir->fn, 0);
	f.flatten = buffer_flags(a, ir->fn, 0);
	int nb = ir->fn->n_buffers ? ir->fn->n_buffers : 1;
	decide_flattening(&f, ir->body);
	gather_facts(&f);
	struct use *uses = KC_NEW_N(a, struct use, nb);
	if (outer)
		push_loop(&f, outer);
	for (int i = 0; i < n; i++)
		walk(&f, nodes[i], uses);
	if (n != 1 || skip || !call_streaming(&f, nodes[0], out))
		traffic_of_skipping(&f, uses, 0, skip, out);
	if (phase && outer) /* what each iteration of the loop around reads again */
		reread_of(&f, phase, outer, uses);
	*reads = KC_NEW_N(a, int, nb);
	*writes = KC_NEW_N(a, int, nb);
	*n_reads = *n_writes = 0;
	for (int b = 0; b < ir->fn->n_buffers; b++) {
		if (skip && skip[b])
			continue;
		if (uses[b].read.ndims)
			(*reads)[(*n_reads)++] = b;
		if (uses[b].write.ndims)
			(*writes)[(*n_writes)++] = b;
	}
}
