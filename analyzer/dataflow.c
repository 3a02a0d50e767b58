/* dataflow.c — the passes of a function, which consecutive passes loop fusion could merge, and what
 * fusing them saves.
 *
 * Passes are the top-level loop nests and calls; when the body is one loop holding several loops or
 * calls (softmax's passes inside the row loop, Jacobi's sweeps inside the time loop), its children are.
 * Two consecutive passes A, B are compared on their *space* — the perfect loop prefix of each (loops
 * nested directly, one inside the other), bounds compared position by position — and on what flows
 * from A to B:
 *   - a local scalar A computes in a loop (max, sum) that B or a statement before B reads: reduction;
 *   - a buffer A writes and B reads: elementwise when B reads exactly the element A wrote at the same
 *     point of the shared space (an epilogue when A still runs an inner loop per element, as a matmul's
 *     reduction over p); shifted when the two differ by a constant (a stencil's neighbours);
 *     anything else is a different access pattern.
 * Calls are compared through their callee's single loop nest, with the callee's sizes replaced by the
 * call's arguments and its loop variables by the caller's placeholders. */
#include <string.h>

#include "count.h"
#include "dataflow.h"
#include "footprint.h"

/* Loops of a pass's space compared position by position: each takes a placeholder symbol from the
 * function's table (KC_POLY_MAX_SYMS), so the prefix stays short; loops below it are the pass's inner
 * loops, and a function that has more is told so. */
#define MAX_PREFIX 8

/* One access of a pass seen from its space: indices in placeholder symbols P0..Pk-1 (the prefix loops),
 * NULL where an index depends on an inner loop or on data. */
struct view_access {
	int buffer, is_write, ndims;
	struct kc_poly *index[KC_MAX_DIMS];
	const struct kc_access *orig;    /* as written, for messages */
	const struct kc_function *owner; /* whose symbols orig uses */
};

struct view {
	int depth; /* prefix length */
	struct kc_poly *lo[MAX_PREFIX], *hi[MAX_PREFIX];
	long long step[MAX_PREFIX];
	int has_inner;           /* the prefix body holds more loops (a reduction) */
	struct view_access *acc; /* n_acc of them, growing in the df's views arena */
	int n_acc, cap_acc;
	int opaque; /* could not be described */
};

struct df {
	struct kc_arena *a;
	struct kc_arena *views; /* scratch memory of the views */
	struct kc_fn_ir *ir;
	struct kc_function *fn;
	const struct kc_node *outer; /* loop the passes sit in, or NULL */
	const struct kc_node **pass;
	int n;
	int placeholder[MAX_PREFIX]; /* symbol ids of P0..P7 */
	struct kc_loc at;            /* the pass being described, for a limit's diagnostic */
};

/* Exact arithmetic overflowed: what the dataflow says about this pass is not exact. */
static void overflow(struct df *d)
{
	kc_ir_limit_traffic(d->a, d->fn, d->at,
	                    "dataflow overflows exact arithmetic: its fusion and traffic are not exact");
}

/* ------------------------------------------------------------------------------------------------ */
/* Passes */

static int is_pass(const struct kc_node *c)
{
	return kc_ir_is_nest(c);
}

/* Passes inside the single top-level loop when it holds at least two. */
static const struct kc_node *enclosing_loop(const struct kc_node *body)
{
	const struct kc_node *loop = NULL;
	for (const struct kc_node *c = body->first; c; c = c->next)
		if (is_pass(c)) {
			if (loop || c->kind != KC_NODE_LOOP || c->collapsed || c->inexact)
				return NULL;
			loop = c;
		}
	if (!loop)
		return NULL;
	int inner = 0;
	for (const struct kc_node *c = loop->first; c; c = c->next)
		inner += is_pass(c);
	return inner >= 2 ? loop : NULL;
}

static void collect_passes(struct df *d)
{
	d->outer = enclosing_loop(d->ir->body);
	const struct kc_node *parent = d->outer ? d->outer : d->ir->body;
	int n = 0;
	for (const struct kc_node *c = parent->first; c; c = c->next)
		n += is_pass(c);
	d->pass = KC_NEW_N(d->a, const struct kc_node *, n + 1);
	for (const struct kc_node *c = parent->first; c; c = c->next)
		if (is_pass(c))
			d->pass[d->n++] = c;
}

/* ------------------------------------------------------------------------------------------------ */
/* Scalars */

static int writes_scalar_in_loop(const struct kc_node *n, int id, int in_loop)
{
	if (in_loop)
		for (int i = 0; i < n->n_sc_writes; i++)
			if (n->sc_writes[i] == id)
				return 1;
	int looped = in_loop || n->kind == KC_NODE_LOOP;
	for (const struct kc_node *c = n->first; c; c = c->next)
		if (writes_scalar_in_loop(c, id, looped))
			return 1;
	return n->orelse && writes_scalar_in_loop(n->orelse, id, looped);
}

static int reads_scalar(const struct kc_node *n, int id)
{
	for (int i = 0; i < n->n_sc_reads; i++)
		if (n->sc_reads[i] == id)
			return 1;
	for (const struct kc_node *c = n->first; c; c = c->next)
		if (reads_scalar(c, id))
			return 1;
	return n->orelse && reads_scalar(n->orelse, id);
}

/* A scalar that pass a accumulates in a loop and that b, or a statement between a and b, reads. */
static int reduction_between(struct df *d, const struct kc_node *a, const struct kc_node *b)
{
	for (int id = 0; id < d->ir->n_scalars; id++) {
		if (!writes_scalar_in_loop(a, id, 0))
			continue;
		for (const struct kc_node *c = a->next; c; c = c->next) {
			if (reads_scalar(c, id))
				return id;
			if (c == b)
				break;
		}
	}
	return -1;
}

/* ------------------------------------------------------------------------------------------------ */
/* Views */

static int placeholder(struct df *d, int k)
{
	if (d->placeholder[k] < 0) {
		char name[8] = {'_', 'P', (char)('0' + k), 0};
		int s = kc_sym_named(d->fn, kc_arena_strdup(d->a, name));
		if (s >= 0)
			d->fn->syms.syms[s].is_loop = 1;
		else
			kc_ir_limit_traffic(d->a, d->fn, d->at,
			                    "too many symbols (%d) to compare the loops of this pass with its "
			                    "neighbours': its fusion is not analyzed",
			                    KC_POLY_MAX_SYMS);
		d->placeholder[k] = s;
	}
	return d->placeholder[k];
}

/* p with every symbol s replaced by sub[s] at once (the callee's and the caller's ids may coincide, so
 * one-by-one substitution would be wrong). A symbol without a replacement stays itself in the caller's
 * own passes (`keep`), or in a callee's becomes its benchmark value when it has one. NULL when p keeps
 * a symbol of `inner` (a loop below the prefix) or an unmapped one. */
static struct kc_poly *to_placeholders(struct df *d, const struct kc_poly *p, struct kc_poly *const *sub,
                                       const int *inner, const struct kc_function *owner)
{
	struct kc_poly *r = kc_poly_zero(d->a);
	int keep = owner == d->fn;
	for (int t = 0; t < kc_poly_nterms(p); t++) {
		struct kc_poly *term = kc_poly_rat(d->a, kc_poly_term_coef(p, t)), *x, *pw;
		for (int s = 0; s < KC_POLY_MAX_SYMS; s++) {
			int e = kc_poly_term_exp(p, t, s);
			if (!e)
				continue;
			if (inner[s])
				return NULL;
			if (sub[s])
				x = sub[s];
			else if (keep)
				x = kc_poly_sym(d->a, s);
			else if (owner->syms.syms[s].has_value && !owner->syms.syms[s].floor_of)
				x = kc_poly_const(d->a, owner->syms.syms[s].value, 1);
			else
				return NULL;
			if (kc_poly_pow(d->a, x, e, &pw) < 0 || kc_poly_mul(d->a, term, pw, &term) < 0)
				goto overflowed;
		}
		if (kc_poly_add(d->a, r, term, &r) < 0)
			goto overflowed;
	}
	return r;
overflowed:
	overflow(d);
	return NULL;
}

static void mark_inner(const struct kc_node *n, int *inner)
{
	if (n->kind == KC_NODE_LOOP && !n->collapsed)
		inner[n->var] = 1;
	for (const struct kc_node *c = n->first; c; c = c->next)
		mark_inner(c, inner);
	if (n->orelse)
		mark_inner(n->orelse, inner);
}

static void view_accesses(struct df *d, const struct kc_node *n, struct view *v, struct kc_poly *const *sub,
                          const int *inner, const int *buffer_map, const struct kc_function *owner)
{
	for (int i = 0; i < n->n_accesses; i++) {
		const struct kc_access *acc = &n->accesses[i];
		int b = buffer_map ? buffer_map[acc->buffer] : acc->buffer;
		if (b < 0)
			continue;
		if (v->n_acc == v->cap_acc) {
			int cap = v->cap_acc ? 2 * v->cap_acc : 64;
			struct view_access *grown = KC_NEW_N(d->views, struct view_access, cap);
			if (v->n_acc)
				memcpy(grown, v->acc, sizeof *grown * (size_t)v->n_acc);
			v->acc = grown;
			v->cap_acc = cap;
		}
		struct view_access *va = &v->acc[v->n_acc++];
		va->buffer = b;
		va->is_write = acc->is_write;
		va->orig = acc;
		va->owner = owner;
		va->ndims = acc->ndims;
		for (int k = 0; k < acc->ndims; k++)
			va->index[k] = acc->index[k] ? to_placeholders(d, acc->index[k], sub, inner, owner) : NULL;
	}
	for (const struct kc_node *c = n->first; c; c = c->next)
		view_accesses(d, c, v, sub, inner, buffer_map, owner);
	if (n->orelse)
		view_accesses(d, n->orelse, v, sub, inner, buffer_map, owner);
}

/* The perfect prefix of `root`, its bounds renamed into placeholders, and its accesses.
 * sub[] may already map sizes (a callee's) into the caller's symbols. */
static void describe(struct df *d, const struct kc_node *root, struct kc_poly **sub, const int *buffer_map,
                     const struct kc_function *owner, struct view *v)
{
	const struct kc_node *n = root;
	int inner[KC_POLY_MAX_SYMS] = {0};
	while (n && n->kind == KC_NODE_LOOP && !n->collapsed && v->depth < MAX_PREFIX) {
		if (n->inexact || n->trips_annotated || n->n_lower != 1 || n->n_upper != 1) {
			v->opaque = 1;
			return;
		}
		int k = v->depth++;
		int ps = placeholder(d, k);
		if (ps < 0 || !(v->lo[k] = to_placeholders(d, n->lower[0], sub, inner, owner)) ||
		    !(v->hi[k] = to_placeholders(d, n->upper[0], sub, inner, owner))) {
			v->opaque = 1;
			return;
		}
		if (n->step_by) { /* a step of sizes: passes over such loops are not compared */
			v->opaque = 1;
			return;
		}
		v->step[k] = n->step;
		sub[n->var] = kc_poly_sym(d->a, ps);
		/* descend while the body is exactly one loop */
		const struct kc_node *only = n->first && !n->first->next ? n->first : NULL;
		if (!only || only->kind != KC_NODE_LOOP) {
			for (const struct kc_node *c = n->first; c; c = c->next)
				if (c->kind == KC_NODE_LOOP || c->call)
					v->has_inner = 1;
			for (const struct kc_node *c = n->first; c; c = c->next)
				mark_inner(c, inner);
			view_accesses(d, n, v, sub, inner, buffer_map, owner);
			return;
		}
		n = only;
	}
	/* stopped at a tile loop folded into its point loops, or after MAX_PREFIX loops: what remains is the
	 * prefix's inner loops */
	if (n != root) {
		if (!n->collapsed)
			kc_ir_limit_traffic(d->a, d->fn, n->loc,
			                    "more than %d perfectly nested loops: fusion compares the outer %d "
			                    "only",
			                    MAX_PREFIX, MAX_PREFIX);
		v->has_inner = 1;
	}
	mark_inner(n, inner);
	view_accesses(d, n, v, sub, inner, buffer_map, owner);
}

/* A call seen through its callee's only top-level nest. */
static void describe_call(struct df *d, const struct kc_node *st, struct view *v)
{
	const struct kc_call *call = st->call;
	const struct kc_fn_ir *g = call->callee_ir;
	const struct kc_node *nest = NULL;
	int nests = 0;
	for (const struct kc_node *c = g->body->first; c; c = c->next)
		if (is_pass(c)) {
			nest = c;
			nests++;
		}
	if (nests != 1 || nest->kind != KC_NODE_LOOP) {
		v->opaque = 1;
		return;
	}
	struct kc_poly *sub[KC_POLY_MAX_SYMS] = {0};
	for (int s = 0; s < g->fn->syms.n; s++)
		if (call->size_args[s] && !g->fn->syms.syms[s].is_loop)
			sub[s] = call->size_args[s];
	describe(d, nest, sub, call->buffer_args, g->fn, v);
}

static void describe_pass(struct df *d, const struct kc_node *p, struct view *v)
{
	memset(v, 0, sizeof *v);
	d->at = p->loc;
	struct kc_poly *sub[KC_POLY_MAX_SYMS] = {0};
	if (p->call)
		describe_call(d, p, v);
	else if (p->kind == KC_NODE_LOOP)
		describe(d, p, sub, NULL, d->fn, v);
	else
		v->opaque = 1;
}

/* ------------------------------------------------------------------------------------------------ */
/* Legality */

static int same_space(const struct view *a, const struct view *b)
{
	if (a->depth != b->depth || !a->depth)
		return 0;
	for (int k = 0; k < a->depth; k++)
		if (a->step[k] != b->step[k] || !kc_poly_equal(a->lo[k], b->lo[k]) ||
		    !kc_poly_equal(a->hi[k], b->hi[k]))
			return 0;
	return 1;
}

enum match { MATCH_SAME, MATCH_SHIFTED, MATCH_OTHER };

static enum match compare_index(struct df *d, const struct view_access *w, const struct view_access *r)
{
	if (w->ndims != r->ndims)
		return MATCH_OTHER;
	enum match m = MATCH_SAME;
	for (int k = 0; k < w->ndims; k++) {
		struct kc_poly *diff;
		if (!w->index[k] || !r->index[k])
			return MATCH_OTHER;
		if (kc_poly_sub(d->a, r->index[k], w->index[k], &diff) < 0) {
			overflow(d);
			return MATCH_OTHER;
		}
		if (!kc_poly_is_const(diff, NULL))
			return MATCH_OTHER;
		if (!kc_poly_is_zero(diff))
			m = MATCH_SHIFTED;
	}
	return m;
}

static void add_flow_buffer(struct df *d, struct kc_fusion_edge *e, int b)
{
	for (int i = 0; i < e->n_buffers; i++)
		if (e->buffers[i] == b)
			return;
	if (!e->buffers)
		e->buffers = KC_NEW_N(d->a, int, d->fn->n_buffers + 1);
	e->buffers[e->n_buffers++] = b;
}

static const char *index_text(struct df *d, const struct view_access *r)
{
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_puts(&b, d->fn->buffers[r->buffer].name);
	for (int k = 0; k < r->ndims; k++) {
		kc_buf_putc(&b, '[');
		if (r->orig->index[k])
			kc_poly_format(r->orig->index[k], r->owner->syms.names, &b);
		else
			kc_buf_puts(&b, "?");
		kc_buf_putc(&b, ']');
	}
	char *s = kc_arena_strdup(d->a, kc_buf_str(&b));
	kc_buf_release(&b);
	return s;
}

/* Classify the flow of buffers from pass a to pass b (same space already checked). */
static void classify_flow(struct df *d, const struct view *va, const struct view *vb, struct kc_fusion_edge *e)
{
	enum match worst = MATCH_SAME;
	const struct view_access *culprit = NULL;
	for (int i = 0; i < vb->n_acc; i++) {
		const struct view_access *r = &vb->acc[i];
		for (int j = 0; j < va->n_acc; j++) {
			const struct view_access *w = &va->acc[j];
			if (!w->is_write || w->buffer != r->buffer)
				continue;
			add_flow_buffer(d, e, r->buffer);
			enum match m = compare_index(d, w, r);
			if (m > worst) {
				worst = m;
				culprit = r;
			}
		}
	}
	if (!e->n_buffers) {
		e->kind = KC_FUSE_INDEPENDENT;
		e->legal = 1;
		e->reason = "same iteration space, no data flows between the passes";
	} else if (worst == MATCH_SAME) {
		e->kind = va->has_inner ? KC_FUSE_EPILOGUE : KC_FUSE_ELEMENTWISE;
		e->legal = 1;
		e->reason = va->has_inner
		                ? kc_arena_printf(d->a,
		                                  "epilogue: legal per output element of %s; the producer's inner "
		                                  "loop (a reduction) stays inside",
		                                  d->fn->buffers[e->buffers[0]].name)
		                : kc_arena_printf(d->a,
		                                  "elementwise: each iteration reads the %s element the same "
		                                  "iteration wrote",
		                                  d->fn->buffers[e->buffers[0]].name);
	} else if (worst == MATCH_SHIFTED) {
		e->kind = KC_FUSE_SHIFTED;
		e->reason = kc_arena_printf(d->a,
		                            "reads neighbours written by other iterations (%s): not fusable "
		                            "without skewing",
		                            index_text(d, culprit));
	} else {
		e->kind = KC_FUSE_SPACE;
		e->reason = kc_arena_printf(d->a, "reads %s with another access pattern than it was written",
		                            index_text(d, culprit));
	}
}

static void decide_edge(struct df *d, int i, const struct view *va, const struct view *vb, struct kc_fusion_edge *e)
{
	e->from = i;
	e->to = i + 1;
	int sc = reduction_between(d, d->pass[i], d->pass[i + 1]);
	if (sc >= 0) {
		e->kind = KC_FUSE_REDUCTION;
		e->reason = kc_arena_printf(d->a,
		                            "reduction in between: the second pass needs '%s', which the first "
		                            "completes only after its last iteration",
		                            d->ir->scalar_names[sc]);
		return;
	}
	if (va->opaque || vb->opaque) {
		e->kind = KC_FUSE_UNKNOWN;
		e->reason = "a pass kcost cannot describe exactly (data-dependent or inexact loop, or a call)";
		return;
	}
	if (!same_space(va, vb)) {
		e->kind = KC_FUSE_SPACE;
		e->reason = "different iteration spaces";
		return;
	}
	classify_flow(d, va, vb, e);
}

/* ------------------------------------------------------------------------------------------------ */
/* Groups and savings */

static int touches(const struct kc_pass *p, int b)
{
	for (int i = 0; i < p->n_reads; i++)
		if (p->reads[i] == b)
			return 1;
	for (int i = 0; i < p->n_writes; i++)
		if (p->writes[i] == b)
			return 1;
	return 0;
}

static void add_traffic(struct df *d, struct kc_traffic *acc, const struct kc_traffic *t)
{
	if (!acc->read) {
		acc->read = kc_poly_zero(d->a);
		acc->write = kc_poly_zero(d->a);
	}
	if ((t->read && kc_poly_add(d->a, acc->read, t->read, &acc->read) < 0) ||
	    (t->write && kc_poly_add(d->a, acc->write, t->write, &acc->write) < 0))
		overflow(d);
}

/* The intermediates a group removes: touched only by the group's passes. */
static void group_removes(struct df *d, struct kc_fusion_group *g, char *skip)
{
	struct kc_dataflow *df = &d->fn->dataflow;
	g->removes = KC_NEW_N(d->a, int, df->n_intermediates + 1);
	for (int i = 0; i < df->n_intermediates; i++) {
		int b = df->intermediates[i], inside = 0, outside = 0;
		for (int p = 0; p < df->n_passes; p++) {
			if (!touches(&df->passes[p], b))
				continue;
			if (p >= g->first && p <= g->last)
				inside = 1;
			else
				outside = 1;
		}
		if (inside && !outside) {
			g->removes[g->n_removes++] = b;
			skip[b] = 1;
		}
	}
}

static void make_group(struct df *d, int first, int last)
{
	struct kc_dataflow *df = &d->fn->dataflow;
	struct kc_fusion_group *g = &df->groups[df->n_groups++];
	g->first = first;
	g->last = last;
	char *skip = KC_NEW_N(d->a, char, d->fn->n_buffers + 1);
	group_removes(d, g, skip);
	for (int p = first; p <= last; p++)
		add_traffic(d, &g->before, &df->passes[p].streaming);
	int *r, nr, *w, nw;
	kc_footprint_region(d->a, d->ir, d->outer, &d->pass[first], last - first + 1, skip, &g->after, &r, &nr, &w, &nw,
	                    NULL);
}

static void find_intermediates(struct df *d)
{
	struct kc_dataflow *df = &d->fn->dataflow;
	df->intermediates = KC_NEW_N(d->a, int, d->fn->n_buffers + 1);
	for (int b = 0; b < d->fn->n_buffers; b++) {
		if (d->fn->buffers[b].role != KC_ROLE_INTERMEDIATE)
			continue;
		int written = -1, read_later = 0;
		for (int p = 0; p < df->n_passes; p++) {
			const struct kc_pass *ps = &df->passes[p];
			for (int i = 0; i < ps->n_reads && written >= 0; i++)
				read_later |= ps->reads[i] == b && p > written;
			for (int i = 0; i < ps->n_writes && written < 0; i++)
				if (ps->writes[i] == b)
					written = p;
		}
		if (read_later)
			df->intermediates[df->n_intermediates++] = b;
	}
}

/* The model's nest for a top-level node (nests are the body's passes, in order). */
static const struct kc_nest *nest_of(struct df *d, const struct kc_node *n)
{
	int k = 0;
	for (const struct kc_node *c = d->ir->body->first; c; c = c->next)
		if (is_pass(c)) {
			if (c == n)
				return k < d->fn->n_nests ? &d->fn->nests[k] : NULL;
			k++;
		}
	return NULL;
}

static void fill_pass(struct df *d, int i)
{
	struct kc_pass *p = &d->fn->dataflow.passes[i];
	const struct kc_node *n = d->pass[i];
	d->at = n->loc;
	/* the scalars it accumulates in a loop: a later pass reading one must wait for the whole pass */
	p->scalars_out = KC_NEW_N(d->a, const char *, d->ir->n_scalars + 1);
	for (int id = 0; id < d->ir->n_scalars; id++) {
		int read_later = 0;
		for (const struct kc_node *c = n->next; c && !read_later; c = c->next)
			read_later = reads_scalar(c, id);
		if (read_later && writes_scalar_in_loop(n, id, 0))
			p->scalars_out[p->n_scalars_out++] = d->ir->scalar_names[id];
	}
	p->begin = n->loc;
	p->end = n->end;
	p->callee = n->call ? n->call->callee->name : n->lib_call;
	const struct kc_nest *nest = d->outer ? NULL : nest_of(d, n);
	if (nest) { /* a top-level nest: its counts are already there */
		if (kc_cost_flops(d->a, &nest->cost, &p->flops) < 0)
			overflow(d);
		p->streaming = nest->traffic[KC_MODEL_STREAMING];
		p->reads = nest->reads;
		p->n_reads = nest->n_reads;
		p->writes = nest->writes;
		p->n_writes = nest->n_writes;
		return;
	}
	/* the pass as a nest of its own: its flops here, its whole counts for the time model */
	struct kc_vec v;
	kc_count_region(d->a, d->ir, d->outer, n, &v);
	struct kc_nest *ph = p->phase = KC_NEW(d->a, struct kc_nest);
	kc_count_nest(d->a, d->ir, d->outer, n, &v, ph);
	if (kc_cost_flops(d->a, &ph->cost, &p->flops) < 0)
		overflow(d);
	kc_footprint_region(d->a, d->ir, d->outer, &d->pass[i], 1, NULL, &p->streaming, &p->reads, &p->n_reads,
	                    &p->writes, &p->n_writes, ph);
	ph->traffic[KC_MODEL_STREAMING] = p->streaming;
	ph->reads = p->reads, ph->n_reads = p->n_reads, ph->writes = p->writes, ph->n_writes = p->n_writes;
}

void kc_dataflow_function(struct kc_arena *a, struct kc_fn_ir *ir)
{
	struct df d = {0};
	d.a = a;
	d.ir = ir;
	d.fn = ir->fn;
	d.at = ir->fn->loc;
	for (int k = 0; k < MAX_PREFIX; k++)
		d.placeholder[k] = -1;
	collect_passes(&d);
	struct kc_dataflow *df = &ir->fn->dataflow;
	df->in_loop = d.outer != NULL;
	if (d.outer) {
		df->loop_begin = d.outer->loc;
		df->loop_end = d.outer->end;
	}
	df->n_passes = d.n;
	df->passes = KC_NEW_N(a, struct kc_pass, d.n + 1);
	for (int i = 0; i < d.n; i++)
		fill_pass(&d, i);
	find_intermediates(&d);
	df->edges = KC_NEW_N(a, struct kc_fusion_edge, d.n + 1);
	df->groups = KC_NEW_N(a, struct kc_fusion_group, d.n + 1);
	if (d.n < 2) { /* nothing to fuse: no views, no groups */
		for (int i = 0; i < d.n; i++)
			add_traffic(&d, &df->before, &df->passes[i].streaming);
		df->after = df->before;
		return;
	}
	/* views are large (every access of a pass): scratch memory, released once the edges are decided */
	struct kc_arena scratch = KC_ARENA_INIT;
	d.views = &scratch;
	struct view *va = KC_NEW(&scratch, struct view), *vb = KC_NEW(&scratch, struct view);
	describe_pass(&d, d.pass[0], va);
	int start = 0;
	for (int i = 0; i + 1 < d.n; i++) {
		describe_pass(&d, d.pass[i + 1], vb);
		decide_edge(&d, i, va, vb, &df->edges[i]);
		if (!df->edges[i].legal) {
			if (i > start)
				make_group(&d, start, i);
			start = i + 1;
		}
		struct view *t = va;
		va = vb;
		vb = t;
	}
	if (d.n - 1 > start)
		make_group(&d, start, d.n - 1);
	kc_arena_release(&scratch);
	/* whole function: every pass unfused, and with each group fused */
	d.at = ir->fn->loc;
	for (int i = 0; i < d.n; i++)
		add_traffic(&d, &df->before, &df->passes[i].streaming);
	df->after = df->before;
	for (int g = 0; g < df->n_groups; g++) {
		struct kc_traffic saved = {0}, neg;
		add_traffic(&d, &saved, &df->groups[g].before);
		if (kc_poly_neg(a, saved.read, &neg.read) < 0 || kc_poly_neg(a, saved.write, &neg.write) < 0) {
			overflow(&d);
			continue;
		}
		struct kc_traffic after = {0};
		add_traffic(&d, &after, &df->after);
		add_traffic(&d, &after, &neg);
		add_traffic(&d, &after, &df->groups[g].after);
		df->after = after;
	}
}
