/* count.c — exact closed-form counts of the kernel IR.
 *
 * Every statement's per-execution cost is summed over its iteration domain. A domain is a set of affine
 * constraints g >= 0 over loop variables and sizes (loop bounds, affine if-guards). Summation runs
 * innermost first, Fourier-Motzkin style: the constraints on the innermost variable v give lower bounds
 * L_k and upper bounds U_k with unit coefficient; when several remain (min()/max() bounds, guards) and
 * their order is not fixed, the domain is split into pieces on which it is, e.g. max(L1, L2) becomes
 * {L1 >= L2: L1} and {L1 < L2: L2}. On each piece the count is  sum_{v=L}^{U} cost  (Faulhaber), valid
 * when U >= L - 1, a condition passed outward as a constraint on the outer variables (an inner loop
 * that is empty for some outer iterations contributes nothing there).
 *
 *   for (i = lo; i <= hi; i += s), s > 1   ->  i = lo + s*u,  u = 0 .. floor((hi - lo)/s)
 *
 * A floor of sizes only becomes a derived symbol ("floor((n - 4)/4)"), so an unrolled loop and its
 * remainder loop add up to exactly n. Tiled loops (for ii += T; for i = ii; i < min(ii + T, n)) are first
 * folded into the plain loop they strip-mine (fold_tiles), so a blocked matmul counts exactly 2*m*n*k.
 * Order questions that involve sizes only ("is n - 2 >= 0?") are decided at the benchmark sizes. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "count.h"

/* Constraints per piece: a piece is copied by value at every step, so its constraints stay a fixed array;
 * a domain needing more (a loop nest about twelve deep, or guards on top) is reported, not truncated. */
#define MAX_CONS 24

/* A constraint either chooses between alternatives (an if's guard or its negation, one side of a split between
 * two loop bounds: another piece has the other side) or says that a loop runs at all (a loop that does not
 * contributes nothing). Where a constraint in sizes only cannot be decided because they have no values, the
 * second kind is taken to hold (the count assumes loops run, docs/counting.md), the first kind makes the count
 * inexact: both alternatives would be added. */
enum { CON_RUNS = 0, CON_ALT = 1 };

struct piece {
	struct kc_poly *cons[MAX_CONS]; /* each >= 0 */
	unsigned alt;                   /* bit i: cons[i] chooses between alternatives (below) */
	int n_cons;
	struct kc_vec cost;
	int absolute; /* an annotated total: enclosing loops do not multiply it */
};

struct pieces {
	struct piece *p;
	int n, cap;
};

struct counter {
	struct kc_arena *a;    /* intermediate counts (scratch in kc_count_function) */
	struct kc_arena *keep; /* what outlives the count: diagnostics, derived symbols, results */
	struct kc_fn_ir *ir;
	struct kc_function *fn;
	int failed; /* an overflow or an unsupported construct made a count inexact */
};

/* No FLOP or transcendental in v (comparisons, traffic and iterations aside). */
static int flops_free(const struct kc_vec *v)
{
	for (int i = 0; i < KC_VEC_N; i++)
		if (v->v[i] && !kc_poly_is_zero(v->v[i]) && (i < KC_VEC_CMP || i >= KC_VEC_TRANS))
			return 0;
	return 1;
}

/* No operation in v: no FLOP, comparison or transcendental (traffic and iterations aside). */
static int ops_free(const struct kc_vec *v)
{
	return flops_free(v) && (!v->v[KC_VEC_CMP] || kc_poly_is_zero(v->v[KC_VEC_CMP]));
}

static void inexact(struct counter *k, struct kc_loc loc, const char *msg)
{
	kc_diag_add(k->keep, &k->fn->diags, loc, KC_WARNING, KC_DIAG_INEXACT, k->fn->name, "%s", msg);
	k->fn->exact = k->fn->exact_ops = k->fn->exact_flops = 0;
}

/* The limits of this pass, each reported once per place (kc_ir_limit). */
static void too_many_cons(struct counter *k, struct kc_loc loc)
{
	kc_ir_limit(k->keep, k->fn, loc, "loop nest too deep to count exactly (more than %d bounds and guards)",
	            MAX_CONS);
}

static void overflow(struct counter *k, struct kc_loc loc)
{
	kc_ir_limit(k->keep, k->fn, loc, "count overflows exact arithmetic");
}

/* ------------------------------------------------------------------------------------------------ */
/* Vectors of counts */

static int vec_add(struct kc_arena *a, struct kc_vec *acc, const struct kc_vec *x)
{
	for (int i = 0; i < KC_VEC_N; i++) {
		if (!x->v[i])
			continue;
		if (!acc->v[i])
			acc->v[i] = x->v[i];
		else if (kc_poly_add(a, acc->v[i], x->v[i], &acc->v[i]) < 0)
			return -1;
	}
	return 0;
}

static int vec_scale(struct kc_arena *a, struct kc_vec *x, const struct kc_poly *f)
{
	for (int i = 0; i < KC_VEC_N; i++)
		if (x->v[i] && kc_poly_mul(a, x->v[i], f, &x->v[i]) < 0)
			return -1;
	return 0;
}

static int vec_subst(struct kc_arena *a, struct kc_vec *x, int sym, const struct kc_poly *q)
{
	for (int i = 0; i < KC_VEC_N; i++)
		if (x->v[i] && kc_poly_subst(a, x->v[i], sym, q, &x->v[i]) < 0)
			return -1;
	return 0;
}

static int subst_piece(struct kc_arena *a, struct piece *p, int sym, const struct kc_poly *q)
{
	if (vec_subst(a, &p->cost, sym, q) < 0)
		return -1;
	for (int i = 0; i < p->n_cons; i++)
		if (kc_poly_subst(a, p->cons[i], sym, q, &p->cons[i]) < 0)
			return -1;
	return 0;
}

static int vec_sum(struct kc_arena *a, struct kc_vec *x, int sym, const struct kc_poly *lo, const struct kc_poly *hi)
{
	for (int i = 0; i < KC_VEC_N; i++)
		if (x->v[i] && kc_poly_sum(a, x->v[i], sym, lo, hi, &x->v[i]) < 0)
			return -1;
	return 0;
}

static int vec_put(struct kc_arena *a, struct kc_vec *x, int i, long long n)
{
	struct kc_poly *c = kc_poly_const(a, n, 1);
	if (!x->v[i])
		x->v[i] = c;
	else if (kc_poly_add(a, x->v[i], c, &x->v[i]) < 0)
		return -1;
	return 0;
}

/* The vector slot of a transcendental function's count; -1, reported at loc, when the function already
 * counts KC_MAX_TRANS_NAMES others (kc_vec is a fixed vector). */
static int trans_slot(struct counter *k, const char *name, struct kc_loc loc)
{
	struct kc_fn_ir *ir = k->ir;
	for (int i = 0; i < ir->n_trans_names; i++)
		if (!strcmp(ir->trans_names[i], name))
			return KC_VEC_TRANS + i;
	if (ir->n_trans_names >= KC_MAX_TRANS_NAMES) {
		kc_ir_limit(k->keep, k->fn, loc,
		            "more than %d different transcendental functions: the calls of '%s' are "
		            "not counted",
		            KC_MAX_TRANS_NAMES, name);
		return -1;
	}
	ir->trans_names[ir->n_trans_names] = name;
	return KC_VEC_TRANS + ir->n_trans_names++;
}

/* 1 if p contains no loop variable: only sizes and derived symbols. */
static int sizes_only(const struct kc_poly *p, const int *is_loop_var)
{
	for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
		if (is_loop_var[s] && kc_poly_has_sym(p, s))
			return 0;
	return 1;
}

/* Sign of p at the benchmark sizes: 1 (>= 0), 0 (< 0), -1 unknown. Without values, sizes are non-negative
 * (as --size requires): p >= 0 when its constant and every coefficient are, p < 0 when its constant is and no
 * coefficient is positive. */
static int sign_at_sizes(struct counter *k, const struct kc_poly *p)
{
	struct kc_rat c;
	if (kc_poly_is_const(p, &c))
		return c.num >= 0;
	long long v;
	const char *why;
	if (kc_function_eval(k->fn, p, &v, &why) == 0)
		return v >= 0;
	int pos = 0, neg = 0, constant_neg = 0;
	for (int t = 0; t < kc_poly_nterms(p); t++) {
		int is_const = 1;
		for (int s = 0; s < KC_POLY_MAX_SYMS && is_const; s++)
			is_const = !kc_poly_term_exp(p, t, s);
		struct kc_rat r = kc_poly_term_coef(p, t);
		if (is_const)
			constant_neg = r.num < 0;
		else if (r.num > 0)
			pos = 1;
		else if (r.num < 0)
			neg = 1;
	}
	if (!neg && !constant_neg)
		return 1;
	if (!pos && constant_neg)
		return 0;
	return -1;
}

/* ------------------------------------------------------------------------------------------------ */
/* Pieces */

static struct piece *push_piece(struct counter *k, struct pieces *ps, const struct piece *p)
{
	if (ps->n == ps->cap) {
		int cap = ps->cap ? 2 * ps->cap : 1; /* most loops hold one piece: pieces are large */
		struct piece *grown = KC_NEW_N(k->a, struct piece, cap);
		if (ps->n)
			memcpy(grown, ps->p, sizeof *grown * (size_t)ps->n);
		ps->p = grown;
		ps->cap = cap;
	}
	ps->p[ps->n] = *p;
	return &ps->p[ps->n++];
}

static int add_con(struct piece *p, struct kc_poly *g, int kind)
{
	struct kc_rat c;
	if (kc_poly_is_const(g, &c) && c.num >= 0)
		return 0; /* always true */
	for (int i = 0; i < p->n_cons; i++)
		if (kc_poly_equal(p->cons[i], g)) {
			p->alt |= (unsigned)kind << i;
			return 0;
		}
	if (p->n_cons >= MAX_CONS)
		return -1;
	p->alt = (p->alt & ~(1u << p->n_cons)) | (unsigned)kind << p->n_cons;
	p->cons[p->n_cons++] = g;
	return 0;
}

static int cost_of_stmt(struct counter *k, const struct kc_node *n, struct kc_vec *v);
static void call_pieces(struct counter *k, const struct kc_node *n, const struct piece *own, struct pieces *out);

static void pieces_of(struct counter *k, const struct kc_node *n, struct pieces *out, const int *is_loop_var);

static void pieces_of_children(struct counter *k, const struct kc_node *first, struct pieces *out, const int *lv)
{
	for (const struct kc_node *c = first; c; c = c->next)
		pieces_of(k, c, out, lv);
}

/* else-branch (pieces `body`) of guards g1..gm: the disjoint pieces  !g1,  g1 & !g2,  ...  */
static void else_pieces(struct counter *k, const struct kc_node *n, const struct pieces *body, int kind,
                        struct pieces *out)
{
	struct kc_poly *one = kc_poly_const(k->a, 1, 1);
	for (int g = 0; g < n->n_guards; g++) {
		struct kc_poly *neg;
		if (kc_poly_neg(k->a, n->guard[g], &neg) < 0 || kc_poly_sub(k->a, neg, one, &neg) < 0) {
			overflow(k, n->loc);
			continue;
		}
		for (int i = 0; i < body->n; i++) {
			struct piece p = body->p[i];
			int full = add_con(&p, neg, kind) < 0;
			for (int h = 0; h < g; h++)
				full |= add_con(&p, n->guard[h], CON_ALT) < 0;
			if (full)
				too_many_cons(k, n->loc);
			else
				push_piece(k, out, &p);
		}
	}
}

static void sum_loop(struct counter *k, const struct kc_node *loop, struct pieces *body, struct pieces *out,
                     const int *lv);

static void pieces_of(struct counter *k, const struct kc_node *n, struct pieces *out, const int *lv)
{
	struct piece p = {0};
	switch (n->kind) {
	case KC_NODE_STMT:
		if (cost_of_stmt(k, n, &p.cost) < 0)
			overflow(k, n->loc);
		if (n->call)
			call_pieces(k, n, &p, out);
		else
			push_piece(k, out, &p);
		return;
	case KC_NODE_BLOCK:
		pieces_of_children(k, n->first, out, lv);
		return;
	case KC_NODE_IF: {
		/* the guards choose between the branches (CON_ALT); when one branch costs nothing, the other's
		 * guard only says whether the work is done at all, as a loop's bounds do (CON_RUNS: `if (n <= 0)
		 * return;` before the loops counts as they do, assuming they run) */
		struct pieces then = {0}, other = {0};
		pieces_of_children(k, n->first, &then, lv);
		if (n->orelse)
			pieces_of_children(k, n->orelse->first, &other, lv);
		int then_kind = other.n ? CON_ALT : CON_RUNS,
		    else_kind = then.n || n->n_guards > 1 ? CON_ALT : CON_RUNS;
		for (int i = 0; i < then.n; i++) {
			int full = 0;
			for (int g = 0; g < n->n_guards; g++)
				full |= add_con(&then.p[i], n->guard[g], then_kind) < 0;
			if (full)
				too_many_cons(k, n->loc);
			else
				push_piece(k, out, &then.p[i]);
		}
		if (n->n_guards)
			else_pieces(k, n, &other, else_kind, out);
		else
			for (int i = 0; i < other.n; i++)
				push_piece(k, out, &other.p[i]);
		return;
	}
	case KC_NODE_LOOP: {
		struct pieces body = {0};
		pieces_of_children(k, n->first, &body, lv);
		if (n->collapsed) {
			for (int i = 0; i < body.n; i++)
				push_piece(k, out, &body.p[i]);
			return;
		}
		sum_loop(k, n, &body, out, lv);
		return;
	}
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Statements */

/* Substitute a callee's symbols by the call's arguments, all at once (ids of the two functions overlap). */
int kc_call_compose(struct kc_arena *a, struct kc_arena *keep, struct kc_function *caller, const struct kc_call *call,
                    const struct kc_poly *p, struct kc_poly **out)
{
	struct counter kk = {a, keep, NULL, caller, 0}, *k = &kk;
	struct kc_poly *r = kc_poly_zero(k->a);
	const struct kc_function *g = call->callee;
	for (int t = 0; t < kc_poly_nterms(p); t++) {
		struct kc_poly *term = kc_poly_rat(k->a, kc_poly_term_coef(p, t));
		for (int s = 0; s < g->syms.n; s++) {
			int e = kc_poly_term_exp(p, t, s);
			if (!e)
				continue;
			struct kc_poly *arg = call->size_args[s], *pw;
			if (!arg && g->syms.syms[s].floor_of) {
				/* a derived symbol of the callee: the same floor of the substituted argument */
				struct kc_poly *inner, *by = NULL;
				struct kc_rat c;
				int d;
				if (kc_call_compose(k->a, k->keep, k->fn, call, g->syms.syms[s].floor_of, &inner) < 0 ||
				    (g->syms.syms[s].floor_by &&
				     kc_call_compose(k->a, k->keep, k->fn, call, g->syms.syms[s].floor_by, &by) < 0))
					return -1;
				if (by && kc_poly_is_const(by, &c) && c.den == 1 && c.num > 0)
					d = kc_sym_floor(k->keep, k->fn, inner, c.num);
				else if (by)
					d = kc_sym_floor_by(k->keep, k->fn, inner, by);
				else
					d = kc_sym_floor(k->keep, k->fn, inner, g->syms.syms[s].floor_div);
				if (d < 0)
					return -1;
				arg = kc_poly_sym(k->a, d);
			}
			if (!arg && g->syms.syms[s].has_value)
				arg =
				    kc_poly_const(k->a, g->syms.syms[s].value, 1); /* a callee-only size (annotation) */
			if (!arg || kc_poly_pow(k->a, arg, e, &pw) < 0 || kc_poly_mul(k->a, term, pw, &term) < 0)
				return -1;
		}
		if (kc_poly_add(k->a, r, term, &r) < 0)
			return -1;
	}
	*out = r;
	return 0;
}

/* Add a cost of the callee (cv, in its symbols) in the caller's sizes; -1 on overflow, -2 when it cannot be
 * expressed (reported here). */
static int cost_of_call(struct counter *k, const struct kc_node *n, const struct kc_vec *cv, struct kc_vec *v)
{
	const struct kc_call *call = n->call;
	for (int i = 0; i < KC_VEC_N; i++) {
		if (!cv->v[i])
			continue;
		int slot = i;
		if (i >= KC_VEC_TRANS &&
		    (slot = trans_slot(k, call->callee_ir->trans_names[i - KC_VEC_TRANS], n->loc)) < 0)
			continue;
		struct kc_poly *p;
		if (kc_call_compose(k->a, k->keep, k->fn, call, cv->v[i], &p) < 0) {
			inexact(k, n->loc, "the cost of this call could not be expressed in the caller's sizes");
			return -2;
		}
		struct kc_vec one = {0};
		one.v[slot] = p;
		if (vec_add(k->a, v, &one) < 0)
			return -1;
	}
	return 0;
}

/* Whether acc is not unit-stride in `loop`, its statement's innermost loop: its element (row-major over the
 * buffer's declared dimensions) moves by other than 0, 1 or -1 as the loop's variable steps by 1 — a coefficient
 * that is a size (j*n), a constant beyond 1, a row of unknown length, or an index not linear in the variable. */
static int strided(struct counter *k, const struct kc_node *loop, const struct kc_access *acc)
{
	if (!loop || acc->ndims <= 0)
		return 0;
	const struct kc_dims *d = &k->ir->dims[acc->buffer];
	struct kc_poly *step = kc_poly_zero(k->a);
	for (int i = 0; i < acc->ndims; i++) {
		struct kc_poly *coef, *rest;
		if (!acc->index[i] || kc_poly_split_linear(k->a, acc->index[i], loop->var, &coef, &rest) < 0)
			return 1;
		if (kc_poly_is_zero(coef))
			continue;
		for (int e = i + 1; e < acc->ndims; e++) {
			if (acc->ndims != d->ndims || !d->dim[e] || kc_poly_mul(k->a, coef, d->dim[e], &coef) < 0)
				return 1;
		}
		if (kc_poly_add(k->a, step, coef, &step) < 0)
			return 1;
	}
	struct kc_rat c;
	if (!kc_poly_is_const(step, &c))
		return 1;
	return !(c.num == 0 || ((c.num == 1 || c.num == -1) && c.den == 1));
}

/* The element acc names, row-major over its buffer's declared dimensions (NULL when a dimension it needs is not
 * known, or on overflow). */
static struct kc_poly *flat_index(struct counter *k, const struct kc_access *acc)
{
	const struct kc_dims *d = &k->ir->dims[acc->buffer];
	struct kc_poly *flat = kc_poly_zero(k->a);
	for (int i = 0; i < acc->ndims; i++) {
		struct kc_poly *term = acc->index[i];
		if (!term)
			return NULL;
		for (int e = i + 1; e < acc->ndims; e++)
			if (acc->ndims != d->ndims || !d->dim[e] || kc_poly_mul(k->a, term, d->dim[e], &term) < 0)
				return NULL;
		if (kc_poly_add(k->a, flat, term, &flat) < 0)
			return NULL;
	}
	return flat;
}

/* Whether unit-stride acc starts its innermost loop `loop` off a 64-byte line (in a 64-byte-aligned buffer) for
 * some iteration of the loops around it: its element at the loop's first value, times the element size, is not
 * a multiple of 64 — its constant part at the sizes, or the coefficient (at the sizes) of a loop variable around
 * it times that loop's step. 1 when those offsets are not all multiples of 32 bytes, 2 when they are (half a
 * line: only a 64-byte vector then spans two lines); 0 when they are multiples of 64, where that cannot be
 * decided (a size without a value, an index not linear in an outer variable, a loop with several lower bounds
 * or not stepping by 1), and for an access that does not move with the loop. */
static int misaligned(struct counter *k, const struct kc_node *loop, const struct kc_access *acc, uint32_t known)
{
	if (!loop || acc->ndims <= 0 || loop->step != 1 || loop->n_lower != 1 || !loop->lower[0])
		return 0;
	const struct kc_dims *d = &k->ir->dims[acc->buffer];
	long long elem = k->fn->buffers[acc->buffer].elem_size;
	/* decided only when every symbol of the index is in `known` (a loop variable around it or a size with a
	 * value): checked on the symbols' masks before any arithmetic (most kernels of a file without sizes stop
	 * here) */
	uint32_t used = 0;
	for (int i = 0; i < acc->ndims; i++) {
		if (!acc->index[i])
			return 0;
		used |= kc_poly_sym_mask(acc->index[i]);
		for (int e = i + 1; e < acc->ndims && e < d->ndims; e++)
			used |= d->dim[e] ? kc_poly_sym_mask(d->dim[e]) : 0;
	}
	if ((used | kc_poly_sym_mask(loop->lower[0])) & ~known)
		return 0;
	struct kc_poly *flat = flat_index(k, acc);
	if (!flat || !kc_poly_has_sym(flat, loop->var) ||
	    kc_poly_subst(k->a, flat, loop->var, loop->lower[0], &flat) < 0)
		return 0;
	/* g: the largest power of two up to 64 dividing every byte offset the first element takes */
	long long v, g = 64;
	const char *why;
	for (const struct kc_node *o = loop->parent; o; o = o->parent) {
		struct kc_poly *coef;
		if (o->kind != KC_NODE_LOOP || !kc_poly_has_sym(flat, o->var))
			continue;
		if (o->step_by || kc_poly_split_linear(k->a, flat, o->var, &coef, &flat) < 0 ||
		    kc_function_eval(k->fn, coef, &v, &why) < 0 || __builtin_mul_overflow(v, elem, &v) ||
		    __builtin_mul_overflow(v, o->step, &v))
			return 0; /* the variable steps by a size: where it starts each line is not known */
		while (v % g)
			g /= 2;
	}
	if (kc_function_eval(k->fn, flat, &v, &why) < 0 || __builtin_mul_overflow(v, elem, &v))
		return 0;
	while (v % g)
		g /= 2;
	return g == 64 ? 0 : g == 32 ? 2 : 1;
}

/* The line slots of a 4 KiB page: an address's bits 6 to 11, which every cache level indexes its sets by (an L1
 * of 64 sets by those alone; a larger cache by those and higher bits, which for physical addresses come from
 * wherever the pages happen to be). */
#define PAGE_LINE_SLOTS 64
#define LINE_BYTES      64

/* Whether store acc, in its innermost loop `loop`, walks a column that conflicts in the caches: it moves by a
 * multiple of 128 bytes (the pitch) as the loop's variable steps by 1, so that its lines take only some of the
 * line slots of a page — one in 64 for a pitch that is a multiple of 4 KiB — and a loop around comes back to
 * the same lines at its next iteration (its variable moves the store by less than a line: the transpose
 * b[j*n + i] over j, then i + 1). A cache then keeps the column only if it holds *lines lines: the column's
 * (the loop's trip count) times 64 over the slots they take. Decided at the sizes: 0 where a symbol the index,
 * the dimensions or the loop's bounds use has no value (the mask `known`, as in misaligned), and for a loop
 * that does not step by 1 from one bound to one. *pitch: bytes; *slots_taken: of the 64. */
static int column_walk(struct counter *k, const struct kc_node *loop, const struct kc_access *acc, uint32_t known,
                       long long *pitch, long long *lines, long long *slots_taken)
{
	if (!acc->is_write || !loop || acc->ndims <= 0 || loop->step != 1 || loop->step_by || loop->n_lower != 1 ||
	    loop->n_upper != 1 || !loop->lower[0] || !loop->upper[0] || loop->trips_annotated)
		return 0;
	uint32_t bounds = kc_poly_sym_mask(loop->lower[0]) | kc_poly_sym_mask(loop->upper[0]);
	if (loop->var >= 0 && loop->var < 32 && (bounds & (1u << loop->var)))
		return 0;
	for (const struct kc_node *o = loop->parent; o; o = o->parent) /* the column's length: the same each time */
		if (o->kind == KC_NODE_LOOP && o->var >= 0 && o->var < 32 && (bounds & (1u << o->var)))
			return 0;
	struct kc_poly *flat = flat_index(k, acc), *coef, *rest, *trips;
	long long elem = k->fn->buffers[acc->buffer].elem_size, step, r;
	const char *why;
	if (!flat || ((kc_poly_sym_mask(flat) | bounds) & ~known) ||
	    kc_poly_split_linear(k->a, flat, loop->var, &coef, &rest) < 0 ||
	    kc_function_eval(k->fn, coef, &step, &why) < 0 || step == LLONG_MIN ||
	    __builtin_mul_overflow(step < 0 ? -step : step, elem, &step))
		return 0;
	if (step < 2 * LINE_BYTES || step % (2 * LINE_BYTES))
		return 0;
	long long s = step / LINE_BYTES % PAGE_LINE_SLOTS, g = PAGE_LINE_SLOTS; /* slots taken: 64 / gcd(64, s) */
	for (long long x = s; x;) {
		long long t = g % x;
		g = x, x = t;
	}
	long long slots = s ? PAGE_LINE_SLOTS / g : 1;
	if (kc_poly_sub(k->a, loop->upper[0], loop->lower[0], &trips) < 0 ||
	    kc_function_eval(k->fn, trips, &r, &why) < 0 || r < 1 || r >= (1LL << 40))
		return 0;
	r += 1;
	int reused = 0; /* a loop around moves the store within its line */
	for (const struct kc_node *o = loop->parent; o && !reused; o = o->parent) {
		long long c;
		if (o->kind != KC_NODE_LOOP || !kc_poly_has_sym(rest, o->var) || o->step_by ||
		    kc_poly_split_linear(k->a, rest, o->var, &coef, &flat) < 0 ||
		    kc_function_eval(k->fn, coef, &c, &why) < 0 || __builtin_mul_overflow(c, elem * o->step, &c))
			continue;
		reused = c != 0 && c > -LINE_BYTES && c < LINE_BYTES;
	}
	if (!reused)
		return 0;
	if (slots > r) /* a column shorter than the slots it could take */
		slots = r;
	*pitch = step;
	*lines = r * PAGE_LINE_SLOTS / slots;
	*slots_taken = slots;
	return 1;
}

/* The symbols with a value at statement n (in its innermost loop `loop`): the variables of the loops around it
 * and the sizes that have one (a mask of the first 32). */
static uint32_t known_at(const struct counter *k, const struct kc_node *loop)
{
	uint32_t known = 0;
	for (const struct kc_node *o = loop; o; o = o->parent)
		if (o->kind == KC_NODE_LOOP && o->var >= 0 && o->var < 32)
			known |= 1u << o->var;
	for (int s = 0; s < k->fn->syms.n && s < 32; s++)
		if (k->fn->syms.syms[s].has_value)
			known |= 1u << s;
	return known;
}

/* One execution's cost as a vector; -1 on overflow. */
static int cost_of_stmt(struct counter *k, const struct kc_node *n, struct kc_vec *v)
{
	int rc = 0;
	for (int o = 0; o < KC_OP_N; o++)
		for (int p = 0; p < KC_PREC_N; p++) {
			if (n->cost.ops[o][p])
				rc |= vec_put(k->a, v, KC_VEC_OPS + o * KC_PREC_N + p, n->cost.ops[o][p]);
			if (n->lib_call && n->lib_cost.ops[o][p])
				v->v[KC_VEC_OPS + o * KC_PREC_N + p] = n->lib_cost.ops[o][p];
		}
	if (n->cost.cmp)
		rc |= vec_put(k->a, v, KC_VEC_CMP, n->cost.cmp);
	for (int t = 0; t < n->cost.n_trans; t++) {
		int slot = trans_slot(k, n->cost.trans_name[t], n->loc);
		if (slot >= 0)
			rc |= vec_put(k->a, v, slot, n->cost.trans_count[t]);
	}
	const struct kc_node *loop = n->parent; /* the innermost loop around n */
	while (loop && loop->kind != KC_NODE_LOOP)
		loop = loop->parent;
	/* the symbols with a value here: the loops' variables around n, the sizes with one */
	uint32_t known = n->n_accesses && !n->lib_call ? known_at(k, loop) : 0;
	for (int i = 0; i < n->n_accesses; i++) {
		const struct kc_access *acc = &n->accesses[i];
		int off;
		long long pitch, lines, slots;
		rc |= vec_put(k->a, v, acc->is_write ? KC_VEC_NAIVE_W : KC_VEC_NAIVE_R,
		              k->fn->buffers[acc->buffer].elem_size);
		if (n->lib_call)
			continue;
		if (strided(k, loop, acc)) {
			rc |= vec_put(k->a, v, acc->is_write ? KC_VEC_STRIDED_W : KC_VEC_STRIDED_R,
			              k->fn->buffers[acc->buffer].elem_size);
			if (column_walk(k, loop, acc, known, &pitch, &lines, &slots))
				rc |= vec_put(k->a, v, KC_VEC_COLUMN_W, 1);
		} else if ((off = misaligned(k, loop, acc, known)) != 0)
			rc |= vec_put(k->a, v,
			              off == 2 ? (acc->is_write ? KC_VEC_HALF_LINE_W : KC_VEC_HALF_LINE_R)
			                       : (acc->is_write ? KC_VEC_MISALIGNED_W : KC_VEC_MISALIGNED_R),
			              k->fn->buffers[acc->buffer].elem_size);
	}
	if (n->lib_call) {
		v->v[KC_VEC_NAIVE_R] = n->lib_min.read;
		v->v[KC_VEC_NAIVE_W] = n->lib_min.write;
	}
	return rc;
}

/* A callee's pieces beyond which a call adds its total instead (decided at the callee's own sizes, flagged). */
#define MAX_CALL_PIECES 64

/* A call statement: its own cost (`own`: the arguments') plus each piece of the callee, whose constraints become
 * the caller's (in sizes: decided at the caller's values; in loop variables: bounds of the summation). */
static void call_pieces(struct counter *k, const struct kc_node *n, const struct piece *own, struct pieces *out)
{
	const struct kc_fn_ir *g = n->call->callee_ir;
	const struct kc_function *h = n->call->callee;
	if (h->counted_once.line && !n->untaken && !k->fn->counted_once.line) /* its counts are one iteration's too */
		k->fn->counted_once = h->counted_once,
		k->fn->counted_once_in = h->counted_once_in ? h->counted_once_in : h->name;
	if (g->n_pieces < 0) {
		/* its total holds at its own sizes (the branches they take): exact here too when the call passes
		 * the same values (gemm(TA, TB, ...) calling gemm_cpu(TA, TB, ...) at the same sizes) */
		const struct kc_function *callee = n->call->callee;
		int same = 1;
		for (int s = 0; same && s < callee->n_size_params; s++) {
			long long v;
			const char *why;
			same = callee->syms.syms[s].has_value && n->call->size_args[s] &&
			       kc_function_eval(k->fn, n->call->size_args[s], &v, &why) == 0 &&
			       v == callee->syms.syms[s].value;
		}
		if (!same)
			kc_ir_limit(k->keep, k->fn, n->loc,
			            "the count of '%s' has more than %d pieces: this call adds it as at its own sizes",
			            callee->name, MAX_CALL_PIECES);
		struct piece q = *own;
		int rc = cost_of_call(k, n, &g->total, &q.cost);
		if (rc == -1)
			overflow(k, n->loc);
		if (rc == 0)
			push_piece(k, out, &q);
		return;
	}
	push_piece(k, out, own); /* the arguments are evaluated whatever the callee does */
	int unmapped = 0;
	for (int s = 0; s < n->call->callee->n_size_params; s++)
		unmapped |= !n->call->size_args[s];
	if (unmapped && kc_function_ops_free(n->call->callee)) {
		/* no operation at any of its sizes (lower.c said so at the argument): only its traffic is unknown */
		kc_ir_limit_traffic(
		    k->keep, k->fn, n->loc,
		    "the traffic of this call could not be expressed in the caller's sizes: not counted");
		return;
	}
	for (int i = 0; i < g->n_pieces; i++) {
		const struct kc_total_piece *cp = &g->pieces[i];
		struct piece q = {0};
		int rc = cost_of_call(k, n, &cp->cost, &q.cost), full = 0;
		if (rc == -1)
			overflow(k, n->loc);
		if (rc < 0)
			return;
		for (int c = 0; c < cp->n_cons; c++) {
			struct kc_poly *x;
			if (kc_call_compose(k->a, k->keep, k->fn, n->call, cp->cons[c], &x) < 0) {
				inexact(k, n->loc,
				        "the cost of this call could not be expressed in the caller's sizes");
				return;
			}
			full |= add_con(&q, x, (int)(cp->alt >> c & 1)) < 0;
		}
		if (full)
			too_many_cons(k, n->loc);
		else
			push_piece(k, out, &q);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Loops */

/* Split constraints into bounds on v: coef*v + rest >= 0 with coef = +1 gives v >= -rest, -1 gives
 * v <= rest. Returns -1 for a coefficient other than +-1 (the caller handles non-unit steps first), -2 on
 * overflow. */
static int bounds_on(struct counter *k, const struct piece *p, int v, struct kc_poly **lo, int *nlo,
                     struct kc_poly **hi, int *nhi, struct piece *rest)
{
	*nlo = *nhi = 0;
	for (int i = 0; i < p->n_cons; i++) {
		struct kc_poly *c = p->cons[i], *r;
		if (!kc_poly_has_sym(c, v)) {
			if (add_con(rest, c, (int)(p->alt >> i & 1)) < 0)
				KC_BUG("a piece's remaining constraints are a subset of its constraints");
			continue;
		}
		struct kc_poly *coef;
		struct kc_rat cr;
		if (kc_poly_split_linear(k->a, c, v, &coef, &r) < 0 || !kc_poly_is_const(coef, &cr) || cr.den != 1 ||
		    (cr.num != 1 && cr.num != -1))
			return -1;
		if (cr.num == 1) {
			if (kc_poly_neg(k->a, r, &lo[*nlo]) < 0)
				return -2;
			(*nlo)++;
		} else {
			hi[(*nhi)++] = r;
		}
	}
	return 0;
}

/* What the piece's constraints already say about d: 1 if d >= 0 follows from one of them (d - c is a
 * non-negative constant), 0 if d <= -1 does, -1 if neither. */
static int known_sign(struct counter *k, const struct piece *p, const struct kc_poly *d)
{
	struct kc_poly *nd, *diff;
	struct kc_rat c;
	if (kc_poly_neg(k->a, d, &nd) < 0 || kc_poly_sub(k->a, nd, kc_poly_const(k->a, 1, 1), &nd) < 0)
		return -1;
	for (int i = 0; i < p->n_cons; i++) {
		if (kc_poly_sub(k->a, d, p->cons[i], &diff) == 0 && kc_poly_is_const(diff, &c) && c.num >= 0)
			return 1;
		if (kc_poly_sub(k->a, nd, p->cons[i], &diff) == 0 && kc_poly_is_const(diff, &c) && c.num >= 0)
			return 0;
	}
	return -1;
}

/* Pick the greatest (want_max) or least bound. Returns the index, or -1 if the order depends on outer
 * variables: then *split gets d, the difference of the pair to split on (d >= 0 chooses the later bound);
 * -2 if the order depends on a size without a benchmark value, -3 on overflow. */
static int extreme_bound(struct counter *k, const struct piece *pc, struct kc_poly **b, int n, int want_max,
                         const int *lv, struct kc_poly **split)
{
	int best = 0;
	for (int i = 1; i < n; i++) {
		struct kc_poly *d;
		if (kc_poly_sub(k->a, b[i], b[best], &d) < 0 || (!want_max && kc_poly_neg(k->a, d, &d) < 0))
			return -3;
		/* d >= 0 means b[i] is at least as extreme as b[best] */
		int known = known_sign(k, pc, d);
		if (known >= 0) {
			if (known)
				best = i;
			continue;
		}
		if (sizes_only(d, lv)) {
			int s = sign_at_sizes(k, d);
			if (s < 0)
				return -2;
			if (s)
				best = i;
			continue;
		}
		*split = d; /* d >= 0: choose b[i]; d < 0: keep b[best] */
		return -1 - 0 * i;
	}
	return best;
}

static void sum_piece(struct counter *k, const struct kc_node *loop, struct piece *p, struct pieces *out, const int *lv,
                      int depth);

/* Split p on d >= 0 and d <= -1, and sum each half. */
static void split_and_sum(struct counter *k, const struct kc_node *loop, struct piece *p, struct kc_poly *d,
                          struct pieces *out, const int *lv, int depth)
{
	struct piece a = *p, b = *p;
	struct kc_poly *nd, *one = kc_poly_const(k->a, 1, 1);
	if (kc_poly_neg(k->a, d, &nd) < 0 || kc_poly_sub(k->a, nd, one, &nd) < 0) {
		overflow(k, loop->loc);
		return;
	}
	if (add_con(&a, d, CON_ALT) < 0 || add_con(&b, nd, CON_ALT) < 0) {
		too_many_cons(k, loop->loc);
		return;
	}
	if (depth > 8) {
		inexact(k, loop->loc, "loop bounds too complex to count exactly (too many min/max cases)");
		return;
	}
	sum_piece(k, loop, &a, out, lv, depth + 1);
	sum_piece(k, loop, &b, out, lv, depth + 1);
}

static void sum_piece(struct counter *k, const struct kc_node *loop, struct piece *p, struct pieces *out, const int *lv,
                      int depth)
{
	struct kc_poly *lo[MAX_CONS], *hi[MAX_CONS], *d = NULL;
	int nlo, nhi;
	struct piece rest = {0};
	rest.cost = p->cost;
	int rc = bounds_on(k, p, loop->var, lo, &nlo, hi, &nhi, &rest);
	if (rc == -2) {
		overflow(k, loop->loc);
		return;
	}
	if (rc < 0 || !nlo || !nhi) {
		inexact(k, loop->loc, "loop bounds are not unit-coefficient affine bounds: not counted exactly");
		return;
	}
	int l = extreme_bound(k, p, lo, nlo, 1, lv, &d);
	if (l == -1) {
		split_and_sum(k, loop, p, d, out, lv, depth);
		return;
	}
	int h = extreme_bound(k, p, hi, nhi, 0, lv, &d);
	if (h == -1) {
		split_and_sum(k, loop, p, d, out, lv, depth);
		return;
	}
	if (l == -3 || h == -3) {
		overflow(k, loop->loc);
		return;
	}
	if (l < 0 || h < 0) {
		kc_ir_limit(k->keep, k->fn, loop->loc,
		            "the order of this loop's bounds depends on sizes that have no values: not counted "
		            "exactly (give the sizes with --size or KCOST_SIZES)");
		return;
	}
	/* sum over lo..hi, valid where hi - lo + 1 >= 0 (passed outward) */
	struct kc_poly *span, *one = kc_poly_const(k->a, 1, 1);
	if (vec_sum(k->a, &rest.cost, loop->var, lo[l], hi[h]) < 0 || kc_poly_sub(k->a, hi[h], lo[l], &span) < 0 ||
	    kc_poly_add(k->a, span, one, &span) < 0) {
		inexact(k, loop->loc, "count overflows exact arithmetic");
		return;
	}
	if (sizes_only(span, lv)) {
		if (sign_at_sizes(k, span) == 0)
			return; /* empty at the benchmark sizes */
	} else if (add_con(&rest, span, CON_RUNS) < 0) {
		too_many_cons(k, loop->loc);
		return;
	}
	push_piece(k, out, &rest);
}

/* The loop's own bounds as constraints, after substituting a non-unit step: v = start + step*u, with
 * u = 0 .. last for each end bound (kc_ir_loop_last_step). -1 when the loop cannot be counted so, reported. */
static int loop_constraints(struct counter *k, const struct kc_node *loop, struct piece *p, const int *lv)
{
	struct kc_arena *a = k->a;
	struct kc_poly *v = kc_poly_sym(a, loop->var), *g;
	long long s = loop->step;
	if (s == 1 || s == -1) {
		for (int i = 0; i < loop->n_lower + loop->n_upper; i++) {
			int up = i >= loop->n_lower;
			if (up ? kc_poly_sub(a, loop->upper[i - loop->n_lower], v, &g) < 0
			       : kc_poly_sub(a, v, loop->lower[i], &g) < 0)
				goto overflowed;
			if (add_con(p, g, CON_RUNS) < 0)
				goto full;
		}
		return 0;
	}
	if ((s > 0 ? loop->n_lower : loop->n_upper) != 1) {
		inexact(k, loop->loc, "non-unit step with several start bounds: not counted exactly");
		return -1;
	}
	struct kc_poly *start = s > 0 ? loop->lower[0] : loop->upper[0];
	struct kc_poly **ends = s > 0 ? (struct kc_poly **)loop->upper : (struct kc_poly **)loop->lower;
	int n_ends = s > 0 ? loop->n_upper : loop->n_lower;
	struct kc_poly *sub, *su;
	if (kc_poly_mul(a, v, kc_ir_loop_step(a, loop), &su) < 0 || kc_poly_add(a, start, su, &sub) < 0 ||
	    vec_subst(a, &p->cost, loop->var, sub) < 0)
		goto overflowed;
	for (int i = 0; i < p->n_cons; i++)
		if (kc_poly_subst(a, p->cons[i], loop->var, sub, &p->cons[i]) < 0)
			goto overflowed;
	if (add_con(p, v, CON_RUNS) < 0) /* u >= 0 */
		goto full;
	for (int i = 0; i < n_ends; i++) {
		struct kc_poly *last;
		const char *limit;
		if (kc_ir_loop_last_step(a, k->keep, k->fn, loop, ends[i], lv, &last, &limit) < 0) {
			if (limit)
				kc_ir_limit(k->keep, k->fn, loop->loc, "%s", limit);
			else
				inexact(k, loop->loc,
				        "the trip count of this strided loop is a floor of outer loop variables: "
				        "not counted exactly");
			return -1;
		}
		if (kc_poly_sub(a, last, v, &g) < 0)
			goto overflowed;
		if (add_con(p, g, CON_RUNS) < 0)
			goto full;
	}
	return 0;
overflowed:
	overflow(k, loop->loc);
	return -1;
full:
	too_many_cons(k, loop->loc);
	return -1;
}

/* Whether statement st adds, subtracts, multiplies or divides floating-point values. */
static int computes(const struct kc_node *st)
{
	for (int o = 0; o < KC_OP_N; o++)
		for (int p = 0; p < KC_PREC_N; p++)
			if (st->cost.ops[o][p])
				return 1;
	return 0;
}

static int multiply_add(const struct kc_node *st);

/* The statements of loop's own body (through blocks and branches, not into inner loops) that update a local
 * floating-point scalar declared outside the loop from its own value, counted per scalar into updates[]; those
 * that are not multiply-adds also into *others when it is not NULL. */
static void chain_updates(const struct kc_fn_ir *ir, const struct kc_node *n, int depth, int *updates, int *others,
                          int level)
{
	for (; n && level < KC_MAX_DEPTH; n = n->next) {
		if (n->kind == KC_NODE_LOOP)
			continue;
		if (n->kind == KC_NODE_STMT && computes(n))
			for (int w = 0; w < n->n_sc_writes; w++) {
				int id = n->sc_writes[w], reads = 0;
				for (int r = 0; r < n->n_sc_reads; r++)
					reads |= n->sc_reads[r] == id;
				if (reads && id >= 0 && id < ir->n_scalars && ir->scalar_depth[id] < depth) {
					updates[id]++;
					if (others)
						*others += !multiply_add(n);
				}
			}
		chain_updates(ir, n->first, depth, updates, others, level + 1);
		if (n->kind == KC_NODE_IF)
			chain_updates(ir, n->orelse, depth, updates, others, level + 1);
	}
}

/* Whether statement st computes a multiply-add and nothing else, in one precision: one multiply and one add or
 * subtract (acc += x*y, which gcc in its default GNU mode and clang contract into an FMA where the target has one),
 * or one fma() call. Not a double accumulator of float products (the product is rounded to float first: no
 * contraction), nor (conservatively) a statement with more operations (acc += (x - y)*(x - y)). */
static int multiply_add(const struct kc_node *st)
{
	int in = -1; /* the one precision with operations */
	for (int p = 0; p < KC_PREC_N; p++)
		for (int o = 0; o < KC_OP_N; o++)
			if (st->cost.ops[o][p]) {
				if (in >= 0 && in != p)
					return 0;
				in = p;
			}
	if (in < 0)
		return 0;
	long long add = st->cost.ops[KC_OP_ADD][in] + st->cost.ops[KC_OP_SUB][in];
	long long mul = st->cost.ops[KC_OP_MUL][in], div = st->cost.ops[KC_OP_DIV][in],
	          fma = st->cost.ops[KC_OP_FMA][in];
	return (add == 1 && mul == 1 && !div && !fma) || (fma == 1 && !add && !mul && !div);
}

static int chain_of(const struct kc_fn_ir *ir, const struct kc_node *loop);

/* The accumulator updates (*seen) and those that are not multiply-adds (*others) of every loop under n (n
 * included) whose iterations chain_of counts a chain for: what sum_loop sums into the nest's chain. */
static void chain_madds(const struct kc_fn_ir *ir, const struct kc_node *n, int *seen, int *others, int level)
{
	for (; n && level < KC_MAX_DEPTH; n = n->next) {
		int *updates;
		if (n->kind == KC_NODE_LOOP && !n->collapsed && chain_of(ir, n) &&
		    (updates = calloc((size_t)ir->n_scalars, sizeof *updates))) {
			chain_updates(ir, n->first, kc_ir_loop_depth(n), updates, others, 0);
			for (int i = 0; i < ir->n_scalars; i++)
				*seen += updates[i];
			free(updates);
		}
		chain_madds(ir, n->first, seen, others, level + 1);
		if (n->kind == KC_NODE_IF)
			chain_madds(ir, n->orelse, seen, others, level + 1);
		if (level == 0)
			return; /* n itself, not its siblings */
	}
}

/* The latency chain of one iteration of loop: the most dependent updates of one scalar (s += x[i]: 1; two
 * statements that update s: 2; s0 and s1 updated in turn, as a hand-unrolled sum does: 1, the two chains
 * overlap). A branch's updates are counted as if taken. */
static int chain_of(const struct kc_fn_ir *ir, const struct kc_node *loop)
{
	if (!ir->n_scalars)
		return 0;
	int *updates = calloc((size_t)ir->n_scalars, sizeof *updates), best = 0;
	if (!updates)
		return 0; /* no chain: a prediction without a latency bound, never a wrong count */
	chain_updates(ir, loop->first, kc_ir_loop_depth(loop), updates, NULL, 0);
	for (int i = 0; i < ir->n_scalars; i++)
		best = updates[i] > best ? updates[i] : best;
	free(updates);
	return best;
}

/* The first loop in n (n included, in program order) whose own body updates an accumulator, or NULL. */
static const struct kc_node *chain_loop(const struct kc_fn_ir *ir, const struct kc_node *n, int level)
{
	if (!n || level >= KC_MAX_DEPTH)
		return NULL;
	if (n->kind == KC_NODE_LOOP && !n->collapsed && chain_of(ir, n))
		return n;
	const struct kc_node *l = NULL;
	for (const struct kc_node *c = n->first; c && !l; c = c->next)
		l = chain_loop(ir, c, level + 1);
	if (!l && n->kind == KC_NODE_IF)
		l = chain_loop(ir, n->orelse, level + 1);
	return l;
}

/* The loop whose runs start the chains of a nest afresh: from l, its first loop that updates an accumulator
 * (chain_loop), out through the loops (up to `top`) the accumulator is declared outside of and not set afresh
 * in (conv2d's acc, declared in the ow loop, updated in the s loop: the c loop around r and s) — one chain each
 * time it runs. */
/* Whether the statements of a loop's own body (through blocks and branches, not into inner loops) set scalar id
 * without reading it: a chain starts afresh there. */
static int resets(const struct kc_node *n, int id, int level)
{
	for (; n && level < KC_MAX_DEPTH; n = n->next) {
		if (n->kind == KC_NODE_LOOP)
			continue;
		if (n->kind == KC_NODE_STMT) {
			int writes = 0, reads = 0;
			for (int w = 0; w < n->n_sc_writes; w++)
				writes |= n->sc_writes[w] == id;
			for (int r = 0; r < n->n_sc_reads; r++)
				reads |= n->sc_reads[r] == id;
			if (writes && !reads)
				return 1;
		}
		if (resets(n->first, id, level + 1) || (n->kind == KC_NODE_IF && resets(n->orelse, id, level + 1)))
			return 1;
	}
	return 0;
}

static const struct kc_node *chain_start(const struct kc_fn_ir *ir, const struct kc_node *l, const struct kc_node *top)
{
	if (!l || !ir->n_scalars)
		return l;
	int *updates = calloc((size_t)ir->n_scalars, sizeof *updates), id = -1;
	if (!updates)
		return l;
	chain_updates(ir, l->first, kc_ir_loop_depth(l), updates, NULL, 0);
	for (int i = 0; i < ir->n_scalars; i++)
		if (updates[i] > 0 && (id < 0 || updates[i] > updates[id]))
			id = i;
	free(updates);
	for (const struct kc_node *p = l->parent; id >= 0 && l != top && p; p = p->parent) {
		if (p->kind == KC_NODE_LOOP && !p->collapsed) {
			/* declared in p's body, or set afresh there (float s; ... for j { s = 0; for p s += ...; }):
			 * each iteration of p starts a chain */
			if (ir->scalar_depth[id] >= kc_ir_loop_depth(p) || resets(p->first, id, 0))
				break;
			l = p;
		}
		if (p == top)
			break;
	}
	return l;
}

/* Mark in `written` (a bit a buffer, the first 64) the buffers statements under n write. */
static void written_buffers(const struct kc_node *n, uint64_t *written, int level)
{
	for (; n && level < KC_MAX_DEPTH; n = n->next) {
		for (int i = 0; i < n->n_accesses; i++)
			if (n->accesses[i].is_write)
				*written |= n->accesses[i].buffer < 64 ? 1ull << n->accesses[i].buffer : ~0ull;
		if (n->call) /* a callee's writes: any buffer */
			*written = ~0ull;
		written_buffers(n->first, written, level + 1);
		if (n->kind == KC_NODE_IF)
			written_buffers(n->orelse, written, level + 1);
	}
}

/* Whether a statement under n reads a buffer in `written` at an element that moves with a variable in `vars`
 * (trsv's x[j] in the chain's j loop, x written by the rows before): a dependence through memory carried by the
 * chain's loop. */
static int reads_moving(const struct kc_node *n, uint64_t written, uint32_t vars, int level)
{
	for (; n && level < KC_MAX_DEPTH; n = n->next) {
		uint32_t inner = vars | (n->kind == KC_NODE_LOOP && n->var >= 0 && n->var < 32 ? 1u << n->var : 0);
		for (int i = 0; i < n->n_accesses; i++) {
			const struct kc_access *acc = &n->accesses[i];
			if (acc->is_write || !(acc->buffer >= 64 || (written >> acc->buffer & 1)))
				continue;
			for (int d = 0; d < acc->ndims; d++)
				if (!acc->index[d] || (kc_poly_sym_mask(acc->index[d]) & vars))
					return 1;
		}
		if (reads_moving(n->first, written, inner, level + 1) ||
		    (n->kind == KC_NODE_IF && reads_moving(n->orelse, written, vars, level + 1)))
			return 1;
	}
	return 0;
}

/* How many times loop `in` runs within `top` (one of its enclosing nodes): the product of the trip counts of
 * the loops between them, each stepping by 1 from one bound to one that name none of their variables; else NULL
 * (a triangle's runs are a sum, not a product). */
static struct kc_poly *runs_within(struct kc_arena *a, const struct kc_node *top, const struct kc_node *in)
{
	struct kc_poly *runs = kc_poly_const(a, 1, 1), *t;
	uint32_t vars = 0;
	for (const struct kc_node *o = in; o; o = o->parent) {
		if (o->kind == KC_NODE_LOOP && o->var >= 0 && o->var < 32)
			vars |= 1u << o->var;
		if (o == top)
			break;
	}
	for (const struct kc_node *o = in->parent; o; o = o->parent) {
		if (o->kind == KC_NODE_LOOP && !o->collapsed) {
			if (o->step != 1 || o->n_lower != 1 || o->n_upper != 1 || o->trips_annotated ||
			    kc_poly_sub(a, o->upper[0], o->lower[0], &t) < 0 || (kc_poly_sym_mask(t) & vars) ||
			    kc_poly_add(a, t, kc_poly_const(a, 1, 1), &t) < 0 || kc_poly_mul(a, runs, t, &runs) < 0)
				return NULL;
		}
		if (o == top)
			return runs;
	}
	return NULL;
}

static void sum_loop(struct counter *k, const struct kc_node *loop, struct pieces *body, struct pieces *out,
                     const int *lv)
{
	int innermost = 1;
	for (const struct kc_node *c = loop->first; c; c = c->next)
		if (c->kind == KC_NODE_LOOP || c->kind == KC_NODE_IF)
			innermost = 0;
	if (innermost) {
		struct piece it = {0};
		vec_put(k->a, &it.cost, KC_VEC_ITER, 1); /* a constant into an empty vector: cannot fail */
		push_piece(k, body, &it);
	}
	int chain = loop->collapsed ? 0 : chain_of(k->ir, loop);
	if (chain) {
		struct piece ch = {0};
		vec_put(k->a, &ch.cost, KC_VEC_CHAIN, chain);
		push_piece(k, body, &ch);
	}
	for (int i = 0; i < body->n; i++) {
		struct piece p = body->p[i];
		if (p.absolute) {
			push_piece(k, out, &p);
			continue;
		}
		if (loop->trips_annotated) {
			/* KCOST_TRIPS: the body runs `total` times per call, all enclosing iterations together */
			if (vec_scale(k->a, &p.cost, loop->trips_annotated) < 0) {
				overflow(k, loop->loc);
				continue;
			}
			p.absolute = 1;
			push_piece(k, out, &p);
			continue;
		}
		if (loop->inexact) {
			/* counted once; already flagged. An iteration without operations (a copy loop) leaves the
			 * operation counts exact whatever its trip count. */
			if (loop->unknown_trips && !ops_free(&p.cost))
				k->fn->exact_ops = 0;
			if (loop->unknown_trips && !flops_free(&p.cost))
				k->fn->exact_flops = 0;
			if (loop->unknown_trips && !loop->untaken && !k->fn->counted_once.line)
				k->fn->counted_once = loop->loc;
			/* its first iteration: an inner loop bounded by its variable (for (k = 0; k < i; k++)) is
			 * counted at the variable's start, not left in the count as if it were a size */
			if (loop->once_at && subst_piece(k->a, &p, loop->var, loop->once_at) < 0) {
				overflow(k, loop->loc);
				continue;
			}
			push_piece(k, out, &p);
			continue;
		}
		if (loop_constraints(k, loop, &p, lv) == 0)
			sum_piece(k, loop, &p, out, lv, 0);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Tiling: for (ii = L; ii <= U; ii += T) ... for (i = ii; i <= min(ii + T - 1, U); i++) covers L..U once,
 * so when ii is used nowhere else the pair is the plain loop i = L..U. */

static int uses_sym(const struct kc_node *n, int sym, const struct kc_node *except)
{
	for (int i = 0; i < n->n_accesses; i++)
		for (int d = 0; d < n->accesses[i].ndims; d++)
			if (n->accesses[i].index[d] && kc_poly_has_sym(n->accesses[i].index[d], sym))
				return 1;
	for (int g = 0; g < n->n_guards; g++)
		if (kc_poly_has_sym(n->guard[g], sym))
			return 1;
	if (n->kind == KC_NODE_LOOP && n != except) {
		for (int b = 0; b < n->n_lower; b++)
			if (kc_poly_has_sym(n->lower[b], sym))
				return 1;
		for (int b = 0; b < n->n_upper; b++)
			if (kc_poly_has_sym(n->upper[b], sym))
				return 1;
	}
	if (n->call)
		for (int s = 0; s < KC_POLY_MAX_SYMS; s++)
			if (n->call->size_args[s] && kc_poly_has_sym(n->call->size_args[s], sym))
				return 1;
	for (const struct kc_node *c = n->first; c; c = c->next)
		if (uses_sym(c, sym, except))
			return 1;
	return n->orelse && uses_sym(n->orelse, sym, except);
}

/* Is `point` the point loop of tile loop `tile`? */
static int is_point_loop(struct counter *k, const struct kc_node *tile, const struct kc_node *point)
{
	if (point->kind != KC_NODE_LOOP || point->step != 1 || point->n_lower != 1 || point->n_upper != 2 ||
	    tile->n_upper != 1)
		return 0;
	struct kc_poly *ii = kc_poly_sym(k->a, tile->var), *end;
	if (!kc_poly_equal(point->lower[0], ii))
		return 0;
	if (kc_poly_add(k->a, ii, kc_ir_loop_step(k->a, tile), &end) < 0 ||
	    kc_poly_sub(k->a, end, kc_poly_const(k->a, 1, 1), &end) < 0)
		return 0;
	for (int i = 0; i < 2; i++)
		if (kc_poly_equal(point->upper[i], end) && kc_poly_equal(point->upper[1 - i], tile->upper[0]))
			return 1;
	return 0;
}

static const struct kc_node *find_point_loop(struct counter *k, const struct kc_node *tile, const struct kc_node *n)
{
	for (const struct kc_node *c = n->first; c; c = c->next) {
		if (is_point_loop(k, tile, c))
			return c;
		const struct kc_node *r = find_point_loop(k, tile, c);
		if (r)
			return r;
	}
	return NULL;
}

static void fold_tiles(struct counter *k, struct kc_node *n)
{
	for (struct kc_node *c = n->first; c; c = c->next)
		fold_tiles(k, c);
	if (n->kind != KC_NODE_LOOP || n->step <= 1 || n->n_lower != 1 || n->n_upper != 1 || n->inexact)
		return;
	struct kc_node *point = (struct kc_node *)find_point_loop(k, n, n);
	if (!point || uses_sym(n, n->var, point))
		return;
	point->lower[0] = n->lower[0];
	point->upper[0] = n->upper[0];
	point->n_upper = 1;
	n->collapsed = 1;
}

/* ------------------------------------------------------------------------------------------------ */
/* The function */

static void mark_loop_vars(const struct kc_node *n, int *lv)
{
	if (n->kind == KC_NODE_LOOP && !n->inexact && !n->trips_annotated)
		lv[n->var] = 1;
	for (const struct kc_node *c = n->first; c; c = c->next)
		mark_loop_vars(c, lv);
	if (n->orelse)
		mark_loop_vars(n->orelse, lv);
}

/* Add up pieces whose remaining constraints involve sizes only (checked at the benchmark sizes); an
 * alternative that cannot be decided there (a size without a value) is reported at loc. */
static void total_of(struct counter *k, struct pieces *ps, struct kc_vec *out, struct kc_loc loc)
{
	for (int i = 0; i < ps->n; i++) {
		int holds = 1, undecided = 0;
		for (int c = 0; c < ps->p[i].n_cons && holds; c++) {
			int s = sign_at_sizes(k, ps->p[i].cons[c]);
			holds = s != 0;
			undecided |= s < 0 && ps->p[i].alt >> c & 1;
		}
		if (holds && undecided)
			kc_ir_limit(k->keep, k->fn, loc,
			            "the count here depends on a condition on sizes that have no values: every branch "
			            "is counted (give the sizes with --size or KCOST_SIZES)");
		if (holds && vec_add(k->a, out, &ps->p[i].cost) < 0)
			inexact(k, k->fn->loc, "count overflows exact arithmetic");
	}
}

static void vec_keep(struct kc_arena *a, struct kc_vec *v);

/* Copy the pieces of ps into ir->pieces (in a), or mark them too many. */
static void keep_pieces(struct counter *k, struct kc_arena *a, const struct pieces *ps)
{
	struct kc_fn_ir *ir = k->ir;
	for (int i = 0; i < ps->n; i++) /* an operation in any piece, taken or not at the sizes */
		k->fn->ops_somewhere |= !ops_free(&ps->p[i].cost);
	if (ir->n_pieces < 0)
		return;
	if (ir->n_pieces + ps->n > MAX_CALL_PIECES) {
		ir->n_pieces = -1;
		return;
	}
	struct kc_total_piece *grown = KC_NEW_N(a, struct kc_total_piece, ir->n_pieces + ps->n);
	if (ir->n_pieces)
		memcpy(grown, ir->pieces, sizeof *grown * (size_t)ir->n_pieces);
	for (int i = 0; i < ps->n; i++) {
		const struct piece *p = &ps->p[i];
		struct kc_total_piece *t = &grown[ir->n_pieces + i];
		t->n_cons = p->n_cons;
		t->alt = p->alt;
		t->cons = KC_NEW_N(a, struct kc_poly *, p->n_cons ? p->n_cons : 1);
		for (int c = 0; c < p->n_cons; c++)
			t->cons[c] = kc_poly_copy(a, p->cons[c]);
		t->cost = p->cost;
		vec_keep(a, &t->cost);
	}
	ir->pieces = grown;
	ir->n_pieces += ps->n;
}

static void to_cost(struct counter *k, const struct kc_vec *v, struct kc_cost *c, struct kc_traffic *naive,
                    struct kc_poly **trips)
{
	for (int o = 0; o < KC_OP_N; o++)
		for (int p = 0; p < KC_PREC_N; p++)
			c->ops[o][p] = v->v[KC_VEC_OPS + o * KC_PREC_N + p];
	c->cmp = v->v[KC_VEC_CMP];
	struct kc_named_count **tail = &c->transcendentals;
	for (int t = 0; t < k->ir->n_trans_names; t++) {
		if (!v->v[KC_VEC_TRANS + t])
			continue;
		struct kc_named_count *nc = KC_NEW(k->keep, struct kc_named_count);
		nc->name = k->ir->trans_names[t];
		nc->count = v->v[KC_VEC_TRANS + t];
		*tail = nc;
		tail = &nc->next;
	}
	naive->read = v->v[KC_VEC_NAIVE_R] ? v->v[KC_VEC_NAIVE_R] : kc_poly_zero(k->keep);
	naive->write = v->v[KC_VEC_NAIVE_W] ? v->v[KC_VEC_NAIVE_W] : kc_poly_zero(k->keep);
	if (trips)
		*trips = v->v[KC_VEC_ITER];
}

/* Copy the counts of v from scratch memory into a. */
static void vec_keep(struct kc_arena *a, struct kc_vec *v)
{
	for (int i = 0; i < KC_VEC_N; i++)
		if (v->v[i])
			v->v[i] = kc_poly_copy(a, v->v[i]);
}

/* The smallest L1 data cache of the CPUs kcost expects: a column that needs no more is not noted. */
#define NOTE_COLUMN_BYTES (32 * 1024)

void kc_count_function(struct kc_arena *a, struct kc_fn_ir *ir)
{
	/* summing builds many intermediate polynomials: they go into scratch memory, reused from one top-level
	 * statement to the next, and only each statement's totals are copied into a */
	struct kc_arena scratch = KC_ARENA_INIT;
	struct counter k = {&scratch, a, ir, ir->fn, 0};
	int lv[KC_POLY_MAX_SYMS] = {0};
	fold_tiles(&k, ir->body);
	mark_loop_vars(ir->body, lv);
	ir->pieces = NULL;
	ir->n_pieces = 0;
	struct kc_function *f = ir->fn;
	f->n_nests = 0;
	f->ops_somewhere = 0;
	struct kc_arena_mark empty = kc_arena_mark(&scratch);
	for (struct kc_node *c = ir->body->first; c; c = c->next) {
		struct pieces ps = {0};
		struct kc_vec v = {0};
		pieces_of(&k, c, &ps, lv);
		total_of(&k, &ps, &v, c->loc);
		keep_pieces(&k, a, &ps);
		vec_keep(a, &v);
		kc_arena_reset(&scratch, empty);
		if (vec_add(a, &ir->total, &v) < 0)
			overflow(&k, c->loc);
		if (!kc_ir_is_nest(c))
			continue;
		struct kc_nest *nest = &f->nests[f->n_nests++];
		kc_count_nest(a, ir, NULL, c, &v, nest);
		/* a column that any L1 (32 KiB and more) keeps costs nothing: no note */
		if (nest->column_stores && nest->column_lines * LINE_BYTES > NOTE_COLUMN_BYTES)
			kc_diag_add(
			    a, &f->diags, nest->column_at, KC_NOTE, KC_DIAG_PERFORMANCE, f->name,
			    "the stores to '%s' here walk a column with a pitch of %lld bytes: its lines fall on %d "
			    "of the 64 line slots of a 4 KiB page, and so into %d/64 of every cache's sets; a cache "
			    "keeps the column for the next pass only if it holds %lld KiB (a row longer by one "
			    "64-byte line spreads them)",
			    f->buffers[nest->column_buffer].name, nest->column_pitch, nest->column_slots,
			    nest->column_slots, (nest->column_lines * LINE_BYTES + 1023) / 1024);
	}
	to_cost(&k, &ir->total, &f->cost, &f->traffic[KC_MODEL_NAIVE], NULL);
	kc_arena_release(&scratch);
}

void kc_count_region(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer, const struct kc_node *node,
                     struct kc_vec *out)
{
	struct counter k = {a, a, ir, ir->fn, 0};
	int lv[KC_POLY_MAX_SYMS] = {0};
	mark_loop_vars(ir->body, lv);
	struct pieces ps = {0}, summed = {0};
	pieces_of(&k, node, &ps, lv);
	if (outer && !outer->collapsed) {
		sum_loop(&k, outer, &ps, &summed, lv);
		ps = summed;
	}
	memset(out, 0, sizeof *out);
	total_of(&k, &ps, out, node->loc);
}

/* The column walk (column_walk) among the stores under n whose column needs the most lines (the first of
 * those): its lines, pitch, slots, buffer and place into nest (column_lines stays 0 when there is none). Stores
 * in a branch the sizes decide against do not count. */
static void column_facts(struct counter *k, const struct kc_node *n, struct kc_nest *nest, int depth)
{
	if (!n || depth > KC_MAX_DEPTH || n->untaken)
		return;
	if (n->kind == KC_NODE_STMT && !n->lib_call) {
		const struct kc_node *loop = n->parent;
		while (loop && loop->kind != KC_NODE_LOOP)
			loop = loop->parent;
		for (int i = 0; i < n->n_accesses; i++) {
			const struct kc_access *acc = &n->accesses[i];
			long long pitch, lines, slots;
			if (!acc->is_write || !strided(k, loop, acc) ||
			    !column_walk(k, loop, acc, known_at(k, loop), &pitch, &lines, &slots))
				continue;
			if (lines > nest->column_lines)
				nest->column_lines = lines, nest->column_pitch = pitch, nest->column_at = acc->loc,
				nest->column_buffer = acc->buffer, nest->column_slots = (int)slots;
		}
	}
	for (const struct kc_node *c = n->first; c; c = c->next)
		column_facts(k, c, nest, depth + 1);
	if (n->orelse)
		column_facts(k, n->orelse, nest, depth + 1);
}

/* The first innermost loop of n (a loop with no loop or condition in its body), or NULL. */
static const struct kc_node *first_innermost(const struct kc_node *n, int depth)
{
	if (!n || depth > KC_MAX_DEPTH)
		return NULL;
	int inner = n->kind == KC_NODE_LOOP;
	for (const struct kc_node *c = n->first; c; c = c->next)
		if (c->kind == KC_NODE_LOOP || c->kind == KC_NODE_IF)
			inner = 0;
	if (inner)
		return n;
	for (const struct kc_node *c = n->first; c; c = c->next) {
		const struct kc_node *l = first_innermost(c, depth + 1);
		if (l)
			return l;
	}
	return NULL;
}

void kc_count_nest(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer, const struct kc_node *node,
                   const struct kc_vec *v, struct kc_nest *nest)
{
	struct counter k = {a, a, ir, ir->fn, 0};
	nest->begin = node->loc;
	nest->end = node->end;
	nest->callee = node->call ? node->call->callee->name : node->lib_call;
	nest->callee_fn = node->call ? node->call->callee : NULL;
	to_cost(&k, v, &nest->cost, &nest->traffic[KC_MODEL_NAIVE], &nest->trips);
	nest->chain = v->v[KC_VEC_CHAIN];
	/* a pass's chains run within the loop around the passes, whose iterations its counts sum */
	const struct kc_node *top = outer && !outer->collapsed ? outer : node;
	const struct kc_node *cl = nest->chain ? chain_start(ir, chain_loop(ir, node, 0), top) : NULL;
	nest->chain_line = cl ? cl->loc.line : 0;
	nest->chain_carried = 0;
	if (cl && cl->var >= 0 && cl->var < 32) {
		uint64_t written = 0;
		written_buffers(node, &written, 0);
		nest->chain_carried = written && reads_moving(cl->first, written, 1u << cl->var, 0);
	}
	nest->chain_runs = cl == top ? kc_poly_const(a, 1, 1) : cl ? runs_within(a, top, cl) : NULL;
	nest->chain_madd = 0;
	if (nest->chain) {
		int seen = 0, others = 0;
		chain_madds(ir, node, &seen, &others, 0);
		nest->chain_madd = seen > 0 && !others;
	}
	nest->column_stores = NULL;
	nest->column_pitch = nest->column_lines = 0;
	nest->column_buffer = nest->column_slots = 0;
	nest->column_at = (struct kc_loc){0};
	if (!nest->callee) { /* a call's accesses are its callee's */
		nest->strided.read = v->v[KC_VEC_STRIDED_R] ? v->v[KC_VEC_STRIDED_R] : kc_poly_zero(a);
		nest->strided.write = v->v[KC_VEC_STRIDED_W] ? v->v[KC_VEC_STRIDED_W] : kc_poly_zero(a);
		nest->misaligned.read = v->v[KC_VEC_MISALIGNED_R] ? v->v[KC_VEC_MISALIGNED_R] : kc_poly_zero(a);
		nest->misaligned.write = v->v[KC_VEC_MISALIGNED_W] ? v->v[KC_VEC_MISALIGNED_W] : kc_poly_zero(a);
		nest->half_line.read = v->v[KC_VEC_HALF_LINE_R] ? v->v[KC_VEC_HALF_LINE_R] : kc_poly_zero(a);
		nest->half_line.write = v->v[KC_VEC_HALF_LINE_W] ? v->v[KC_VEC_HALF_LINE_W] : kc_poly_zero(a);
		if (v->v[KC_VEC_COLUMN_W] && !kc_poly_is_zero(v->v[KC_VEC_COLUMN_W])) {
			column_facts(&k, node, nest, 0);
			nest->column_stores = nest->column_lines ? v->v[KC_VEC_COLUMN_W] : NULL;
		}
		const struct kc_node *in = first_innermost(node, 0);
		nest->inner_trips = NULL;
		if (in && in->step == 1 && in->n_lower == 1 && in->n_upper == 1 && !in->trips_annotated &&
		    (kc_poly_sub(a, in->upper[0], in->lower[0], &nest->inner_trips) < 0 ||
		     kc_poly_add(a, nest->inner_trips, kc_poly_const(a, 1, 1), &nest->inner_trips) < 0))
			nest->inner_trips = NULL;
	}
}
