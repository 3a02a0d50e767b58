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
 *              temporaries and KCOST_SCRATCH parameters are intermediates and cost nothing). */
#include <string.h>

#include "count.h"
#include "footprint.h"

struct fp {
	struct kc_arena *a;    /* hulls and sums on the way (scratch in kc_footprint_function) */
	struct kc_arena *keep; /* what outlives the pass: diagnostics, derived symbols, results */
	struct kc_fn_ir *ir;
	struct kc_function *fn;
	char *flatten;                /* per buffer: accesses are flattened to one dimension */
	const struct kc_node **stack; /* the enclosing loops, outermost first (grows) */
	int depth, cap;
	int unknown_reported;
	int nonrect;      /* set by extreme(): 1 + an outer loop variable a bound depended on */
	char *hull_noted; /* per buffer: the upper-bound note was given */
	struct kc_loc at; /* what is being measured, for a limit's diagnostic */
};

/* Exact arithmetic overflowed: the traffic of what is being measured is not exact. */
static void overflow(struct fp *f)
{
	kc_ir_limit(f->keep, f->fn, f->at, "footprint overflows exact arithmetic: the traffic is not exact");
}

/* The per-buffer flags of a pass over fn (every flag set to `value`). */
static char *buffer_flags(struct kc_arena *a, const struct kc_function *fn, int value)
{
	char *flags = KC_NEW_N(a, char, fn->n_buffers + 1);
	memset(flags, value, (size_t)fn->n_buffers + 1);
	return flags;
}

static void push_loop(struct fp *f, const struct kc_node *loop)
{
	if (f->depth == f->cap) {
		int cap = f->cap ? 2 * f->cap : 16;
		const struct kc_node **grown = KC_NEW_N(f->a, const struct kc_node *, cap);
		if (f->depth)
			memcpy(grown, f->stack, sizeof *grown * (size_t)f->depth);
		f->stack = grown;
		f->cap = cap;
	}
	f->stack[f->depth++] = loop;
}

struct use {
	struct kc_box read, write;
	int seen, first_is_write;
};

/* ------------------------------------------------------------------------------------------------ */
/* Comparisons at the benchmark sizes */

static int ge_at_sizes(struct fp *f, const struct kc_poly *x, const struct kc_poly *y, int *ok)
{
	struct kc_poly *d;
	struct kc_rat c;
	long long v;
	const char *why;
	*ok = 1;
	if (kc_poly_sub(f->a, x, y, &d) < 0) {
		overflow(f);
		*ok = 0;
		return 0;
	}
	if (kc_poly_is_const(d, &c))
		return c.num >= 0;
	if (kc_function_eval(f->fn, d, &v, &why) < 0) {
		*ok = 0;
		return 0;
	}
	return v >= 0;
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
			kc_ir_limit(f->keep, f->fn, loop->loc, "%s: its footprint is an upper bound", limit);
		return end;
	}
	if (kc_poly_scale(f->a, q, kc_rat_int(loop->step), &q) < 0 ||
	    kc_poly_add(f->a, loop->step > 0 ? loop->lower[0] : loop->upper[0], q, &r) < 0)
		return NULL;
	return r;
}

/* The extreme of an affine index over the enclosing loops, innermost first: a loop variable with a
 * positive coefficient takes its upper bound for the maximum, its lower bound for the minimum. */
static struct kc_poly *extreme(struct fp *f, struct kc_poly *e, int want_max)
{
	for (int i = f->depth - 1; i >= 0 && e; i--) {
		const struct kc_node *loop = f->stack[i];
		if (loop->collapsed || !kc_poly_has_sym(e, loop->var))
			continue;
		if (loop->inexact || loop->trips_annotated || !loop->n_lower || !loop->n_upper)
			return NULL;
		struct kc_poly *coef, *rest;
		int ok;
		if (kc_poly_split_linear(f->a, e, loop->var, &coef, &rest) < 0)
			return NULL;
		int positive = ge_at_sizes(f, coef, kc_poly_zero(f->a), &ok);
		if (!ok)
			return NULL;
		int upper = positive == want_max;
		/* with several bounds (min/max), the tightest one at the benchmark sizes */
		struct kc_poly *const *b = upper ? loop->upper : loop->lower;
		int nb = upper ? loop->n_upper : loop->n_lower;
		struct kc_poly *pick = b[0];
		for (int k = 1; k < nb; k++) {
			int ge = ge_at_sizes(f, b[k], pick, &ok);
			if (ok && (upper ? !ge : ge))
				pick = b[k];
		}
		if ((loop->step > 1 && upper) || (loop->step < -1 && !upper))
			pick = last_value(f, loop, pick);
		for (int j = 0; j < i && pick; j++)
			if (!f->stack[j]->collapsed && kc_poly_has_sym(pick, f->stack[j]->var))
				f->nonrect = 1 + f->stack[j]->var;
		if (!pick || kc_poly_subst(f->a, e, loop->var, pick, &e) < 0) {
			overflow(f);
			return NULL;
		}
	}
	return e;
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
		if (!idx[d] || !(box->lo[d] = extreme(f, idx[d], 0)) || !(box->hi[d] = extreme(f, idx[d], 1)))
			return whole_box(f, acc->buffer, box);
	}
	return 1;
}

static void box_union(struct fp *f, struct kc_box *into, const struct kc_box *b)
{
	if (!into->ndims) {
		*into = *b;
		return;
	}
	if (into->ndims != b->ndims)
		return;
	for (int d = 0; d < b->ndims; d++) {
		int ok;
		if (!ge_at_sizes(f, b->lo[d], into->lo[d], &ok) && ok)
			into->lo[d] = b->lo[d];
		if (ge_at_sizes(f, b->hi[d], into->hi[d], &ok) && ok)
			into->hi[d] = b->hi[d];
	}
}

static int box_covers(struct fp *f, const struct kc_box *outer, const struct kc_box *inner)
{
	if (outer->ndims != inner->ndims || !outer->ndims)
		return 0;
	for (int d = 0; d < inner->ndims; d++) {
		int ok1, ok2;
		if (!ge_at_sizes(f, inner->lo[d], outer->lo[d], &ok1) ||
		    !ge_at_sizes(f, outer->hi[d], inner->hi[d], &ok2) || !ok1 || !ok2)
			return 0;
	}
	return 1;
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

static void record(struct fp *f, struct use *uses, int buffer, const struct kc_box *box, int is_write)
{
	struct use *u = &uses[buffer];
	if (!u->seen) {
		u->seen = 1;
		u->first_is_write = is_write;
	}
	box_union(f, is_write ? &u->write : &u->read, box);
}

static void unknown_footprint(struct fp *f, const struct kc_access *acc)
{
	if (f->unknown_reported)
		return;
	f->unknown_reported = 1;
	kc_diag_add(f->keep, &f->fn->diags, acc->loc, KC_WARNING, f->fn->name,
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
			/* the caller may see the buffer with other dimensions: compare element counts only */
			if (ok && mapped.ndims !=
			              (f->flatten[cb] ? 1 : (f->ir->dims[cb].ndims ? f->ir->dims[cb].ndims : 1))) {
				struct kc_poly *cnt = box_count(f, &mapped), *one = kc_poly_const(f->a, 1, 1);
				mapped.ndims = 1;
				mapped.lo[0] = kc_poly_zero(f->a);
				ok = cnt && kc_poly_sub(f->a, cnt, one, &mapped.hi[0]) == 0;
				f->flatten[cb] = 1;
			}
			if (ok)
				record(f, uses, cb, &mapped, boxes[i] == &gu->write);
			else
				kc_ir_limit(f->keep, f->fn, f->at,
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
	kc_diag_add(f->keep, &f->fn->diags, acc->loc, KC_NOTE, f->fn->name,
	            "the min/streaming traffic of '%s' counts the rectangular hull of a non-rectangular access "
	            "(an upper bound; see docs/counting.md)",
	            f->fn->buffers[acc->buffer].name);
}

static void walk(struct fp *f, const struct kc_node *n, struct use *uses)
{
	for (int i = 0; i < n->n_accesses; i++) {
		const struct kc_access *acc = &n->accesses[i];
		struct kc_box box = {0};
		f->nonrect = 0;
		f->at = acc->loc;
		if (!access_box(f, acc, &box)) {
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
	}
	if (n->call) {
		f->at = n->loc;
		record_call(f, uses, n->call);
	}
	int pushed = n->kind == KC_NODE_LOOP;
	if (pushed)
		push_loop(f, n);
	for (const struct kc_node *c = n->first; c; c = c->next)
		walk(f, c, uses);
	if (n->orelse)
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
	for (int b = 0; b < f->fn->n_buffers; b++) {
		const struct kc_buffer *buf = &f->fn->buffers[b];
		const struct use *u = &uses[b];
		if (!u->seen || (params_only && (!buf->is_param || buf->is_scratch)) || (skip && skip[b]))
			continue;
		struct kc_rat es = kc_rat_int(buf->elem_size);
		struct kc_poly *r = u->read.ndims ? box_count(f, &u->read) : NULL;
		struct kc_poly *w = u->write.ndims ? box_count(f, &u->write) : NULL;
		if (r && u->first_is_write && box_covers(f, &u->write, &u->read))
			r = NULL; /* produced before it is consumed: served from cache */
		if ((r && (kc_poly_scale(f->a, r, es, &r) < 0 || kc_poly_add(f->a, t->read, r, &t->read) < 0)) ||
		    (w && (kc_poly_scale(f->a, w, es, &w) < 0 || kc_poly_add(f->a, t->write, w, &t->write) < 0)))
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
	if (!u->read.ndims || (u->first_is_write && box_covers(f, &u->write, &u->read)))
		return KC_ROLE_OUTPUT;
	return KC_ROLE_INOUT;
}

/* A call moves what its callee's passes move: the callee's streaming traffic, in the caller's sizes. */
static int call_streaming(struct fp *f, const struct kc_node *n, struct kc_traffic *t)
{
	if (!n->call)
		return 0;
	const struct kc_traffic *g = &n->call->callee->traffic[KC_MODEL_STREAMING];
	return g->read && g->write && kc_call_compose(f->a, f->keep, f->fn, n->call, g->read, &t->read) == 0 &&
	       kc_call_compose(f->a, f->keep, f->fn, n->call, g->write, &t->write) == 0;
}

/* A nest's streaming traffic and the buffers it reads and writes (for the dataflow graph). */
static void fill_nest(struct fp *f, struct kc_nest *nest, const struct kc_node *node, const struct use *uses)
{
	if (!call_streaming(f, node, &nest->traffic[KC_MODEL_STREAMING]))
		traffic_of(f, uses, 0, &nest->traffic[KC_MODEL_STREAMING]);
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
	return c->kind == KC_NODE_LOOP || c->call || c->lib_call || (c->kind == KC_NODE_IF && c->first);
}

static void decide_flattening(struct fp *f, const struct kc_node *n)
{
	for (int i = 0; i < n->n_accesses; i++) {
		const struct kc_access *acc = &n->accesses[i];
		int nd = f->ir->dims[acc->buffer].ndims;
		if (acc->ndims && acc->ndims != nd)
			f->flatten[acc->buffer] = 1;
	}
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
}

static void keep_box(struct kc_arena *a, struct kc_box *b)
{
	for (int d = 0; d < b->ndims; d++) {
		b->lo[d] = keep_poly(a, b->lo[d]);
		b->hi[d] = keep_poly(a, b->hi[d]);
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
	decide_flattening(&f, ir->body);
	int nb = fn->n_buffers ? fn->n_buffers : 1;
	struct use *all = KC_NEW_N(f.a, struct use, nb);
	int nest = 0;
	for (struct kc_node *c = ir->body->first; c; c = c->next) {
		struct use *mine = KC_NEW_N(f.a, struct use, nb);
		walk(&f, c, mine);
		for (int b = 0; b < fn->n_buffers; b++) {
			if (!mine[b].seen)
				continue;
			if (!all[b].seen) {
				all[b].seen = 1;
				all[b].first_is_write = mine[b].first_is_write;
			}
			if (mine[b].read.ndims)
				box_union(&f, &all[b].read, &mine[b].read);
			if (mine[b].write.ndims)
				box_union(&f, &all[b].write, &mine[b].write);
		}
		if (is_nest(c) && nest < fn->n_nests)
			fill_nest(&f, &fn->nests[nest++], c, mine);
	}
	traffic_of(&f, all, 1, &fn->traffic[KC_MODEL_MIN]);
	struct kc_traffic *s = &fn->traffic[KC_MODEL_STREAMING];
	s->read = kc_poly_zero(f.a);
	s->write = kc_poly_zero(f.a);
	for (int i = 0; i < fn->n_nests; i++) {
		if (!fn->nests[i].traffic[KC_MODEL_STREAMING].read)
			continue;
		f.at = fn->nests[i].begin;
		if (kc_poly_add(f.a, s->read, fn->nests[i].traffic[KC_MODEL_STREAMING].read, &s->read) < 0 ||
		    kc_poly_add(f.a, s->write, fn->nests[i].traffic[KC_MODEL_STREAMING].write, &s->write) < 0)
			overflow(&f);
	}
	ir->uses = KC_NEW_N(a, struct kc_buffer_use, nb);
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
	kc_arena_release(&scratch);
}

void kc_footprint_region(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer,
                         const struct kc_node *const *nodes, int n, const char *skip, struct kc_traffic *out,
                         int **reads, int *n_reads, int **writes, int *n_writes)
{
	struct fp f = {0};
	f.a = a;
	f.keep = a;
	f.ir = ir;
	f.fn = ir->fn;
	f.at = nodes && n ? nodes[0]->loc : ir->fn->loc;
	f.unknown_reported = 1; /* kc_footprint_function already said it */
	f.hull_noted = buffer_flags(a, ir->fn, 1);
	f.flatten = buffer_flags(a, ir->fn, 0);
	int nb = ir->fn->n_buffers ? ir->fn->n_buffers : 1;
	decide_flattening(&f, ir->body);
	struct use *uses = KC_NEW_N(a, struct use, nb);
	if (outer)
		push_loop(&f, outer);
	for (int i = 0; i < n; i++)
		walk(&f, nodes[i], uses);
	if (n != 1 || skip || !call_streaming(&f, nodes[0], out))
		traffic_of_skipping(&f, uses, 0, skip, out);
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
