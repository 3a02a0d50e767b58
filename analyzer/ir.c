/* ir.c — constructors of the kernel IR (for the front end and for IR built by hand), the strided-loop
 * trip-count rule the passes share, and the one way the passes report a limit. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir.h"

/* ------------------------------------------------------------------------------------------------ */
/* Symbols */

int kc_sym_named(struct kc_function *f, const char *name)
{
	for (int i = 0; i < f->syms.n; i++)
		if (!f->syms.syms[i].floor_of && strcmp(f->syms.syms[i].name, name) == 0)
			return i;
	if (f->syms.n >= KC_POLY_MAX_SYMS)
		return -1;
	int s = f->syms.n++;
	f->syms.syms[s].name = name;
	f->syms.names[s] = name;
	return s;
}

int kc_sym_floor_by(struct kc_arena *keep, struct kc_function *f, const struct kc_poly *p, const struct kc_poly *q)
{
	for (int i = 0; i < f->syms.n; i++)
		if (f->syms.syms[i].floor_by && kc_poly_equal(f->syms.syms[i].floor_of, p) &&
		    kc_poly_equal(f->syms.syms[i].floor_by, q))
			return i;
	if (f->syms.n >= KC_POLY_MAX_SYMS)
		return -1;
	int s = f->syms.n++;
	struct kc_sym *sym = &f->syms.syms[s];
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_puts(&b, "floor(");
	int paren = kc_poly_nterms(p) > 1, paren_q = kc_poly_nterms(q) > 1 || kc_poly_degree(q) > 1;
	if (paren)
		kc_buf_putc(&b, '(');
	kc_poly_format(p, f->syms.names, &b);
	kc_buf_puts(&b, paren ? ")/" : "/");
	if (paren_q)
		kc_buf_putc(&b, '(');
	kc_poly_format(q, f->syms.names, &b);
	kc_buf_puts(&b, paren_q ? "))" : ")");
	sym->name = kc_arena_strdup(keep, kc_buf_str(&b));
	kc_buf_release(&b);
	f->syms.names[s] = sym->name;
	sym->floor_of = kc_poly_copy(keep, p);
	sym->floor_by = kc_poly_copy(keep, q);
	long long v, d;
	const char *why;
	if (kc_function_eval(f, p, &v, &why) == 0 && kc_function_eval(f, q, &d, &why) == 0 && d != 0 &&
	    !(v == LLONG_MIN && d == -1)) {
		long long r = v / d;
		if ((v % d != 0) && ((v < 0) != (d < 0)))
			r--;
		sym->has_value = 1;
		sym->value = r;
	}
	return s;
}

int kc_sym_floor(struct kc_arena *keep, struct kc_function *f, const struct kc_poly *p, long long div)
{
	for (int i = 0; i < f->syms.n; i++)
		if (f->syms.syms[i].floor_of && !f->syms.syms[i].floor_by && f->syms.syms[i].floor_div == div &&
		    kc_poly_equal(f->syms.syms[i].floor_of, p))
			return i;
	if (f->syms.n >= KC_POLY_MAX_SYMS)
		return -1;
	int s = f->syms.n++;
	struct kc_sym *sym = &f->syms.syms[s];
	struct kc_buf b = KC_BUF_INIT;
	kc_buf_puts(&b, "floor(");
	int paren = kc_poly_nterms(p) > 1;
	if (paren)
		kc_buf_putc(&b, '(');
	kc_poly_format(p, f->syms.names, &b);
	kc_buf_printf(&b, "%s/%lld)", paren ? ")" : "", div);
	sym->name = kc_arena_strdup(keep, kc_buf_str(&b));
	kc_buf_release(&b);
	f->syms.names[s] = sym->name;
	sym->floor_of = kc_poly_copy(keep, p);
	sym->floor_div = div;
	/* its benchmark value, when the sizes it depends on have one */
	long long v;
	const char *why;
	if (kc_function_eval(f, p, &v, &why) == 0) {
		long long q = v / div;
		if ((v % div != 0) && ((v < 0) != (div < 0)))
			q--;
		sym->has_value = 1;
		sym->value = q;
	}
	return s;
}

/* ------------------------------------------------------------------------------------------------ */
/* Functions, symbols, buffers, scalars */

struct kc_fn_ir *kc_ir_function_new(struct kc_arena *a, const char *name, struct kc_loc loc)
{
	struct kc_fn_ir *ir = KC_NEW(a, struct kc_fn_ir);
	struct kc_function *fn = KC_NEW(a, struct kc_function);
	fn->name = name;
	fn->loc = fn->end = loc;
	fn->exact = fn->exact_ops = fn->exact_flops = 1;
	ir->fn = fn;
	ir->body = kc_ir_node_new(a, KC_NODE_BLOCK, NULL, loc, loc);
	return ir;
}

int kc_ir_size_sym(struct kc_fn_ir *ir, const char *name, long long value)
{
	int s = kc_sym_named(ir->fn, name);
	if (s >= 0) {
		ir->fn->syms.syms[s].has_value = 1;
		ir->fn->syms.syms[s].value = value;
	}
	return s;
}

int kc_ir_loop_sym(struct kc_fn_ir *ir, const char *name)
{
	int s = kc_sym_named(ir->fn, name);
	if (s >= 0)
		ir->fn->syms.syms[s].is_loop = 1;
	return s;
}

/* Arrays that grow by doubling keep no capacity: it is the next power of two from 16 on. */
/* Arrays that only grow, in the arena: an array of n entries has room for the next power of two of n, at
 * least `least`; needs_growth says when one more entry needs a larger one, grown makes it (the old storage
 * stays in the arena). */
static int needs_growth(int n, int least)
{
	return n == 0 || (n >= least && (n & (n - 1)) == 0);
}

static void *grown(struct kc_arena *a, const void *old, int n, size_t size, int least)
{
	void *p = kc_arena_alloc(a, size * (size_t)(n ? 2 * n : least));
	if (n)
		memcpy(p, old, size * (size_t)n);
	return p;
}

int kc_ir_buffer_add(struct kc_arena *a, struct kc_fn_ir *ir, const char *name, const char *elem_type, int elem_size,
                     int is_param, int ndims, struct kc_poly *const *dims)
{
	struct kc_function *fn = ir->fn;
	if (needs_growth(fn->n_buffers, 16)) {
		fn->buffers = grown(a, fn->buffers, fn->n_buffers, sizeof *fn->buffers, 16);
		ir->dims = grown(a, ir->dims, fn->n_buffers, sizeof *ir->dims, 16);
	}
	int id = fn->n_buffers++;
	struct kc_buffer *b = &fn->buffers[id];
	b->name = name;
	b->loc = fn->loc;
	b->elem_type = elem_type;
	b->elem_size = elem_size;
	b->is_param = is_param;
	struct kc_dims *d = &ir->dims[id];
	d->ndims = ndims < KC_MAX_DIMS ? ndims : KC_MAX_DIMS;
	struct kc_poly *extent = d->ndims ? kc_poly_const(a, 1, 1) : NULL;
	for (int i = 0; i < d->ndims; i++) {
		d->dim[i] = dims[i];
		if (extent && (!dims[i] || kc_poly_mul(a, extent, dims[i], &extent) < 0))
			extent = NULL;
	}
	b->extent = extent;
	return id;
}

int kc_ir_scalar_add(struct kc_arena *a, struct kc_fn_ir *ir, const char *name, int depth)
{
	if (needs_growth(ir->n_scalars, 16)) {
		ir->scalar_names = grown(a, ir->scalar_names, ir->n_scalars, sizeof *ir->scalar_names, 16);
		ir->scalar_depth = grown(a, ir->scalar_depth, ir->n_scalars, sizeof *ir->scalar_depth, 16);
	}
	ir->scalar_names[ir->n_scalars] = name;
	ir->scalar_depth[ir->n_scalars] = depth;
	return ir->n_scalars++;
}

int kc_ir_loop_depth(const struct kc_node *n)
{
	int d = 0;
	for (; n; n = n->parent)
		d += n->kind == KC_NODE_LOOP;
	return d;
}

/* ------------------------------------------------------------------------------------------------ */
/* Nodes */

struct kc_node *kc_ir_node_new(struct kc_arena *a, enum kc_node_kind kind, struct kc_node *parent, struct kc_loc loc,
                               struct kc_loc end)
{
	struct kc_node *n = KC_NEW(a, struct kc_node);
	n->kind = kind;
	n->loc = loc;
	n->end = end;
	n->parent = parent;
	if (parent) {
		if (parent->last)
			parent->last->next = n;
		else
			parent->first = n;
		parent->last = n;
	}
	return n;
}

struct kc_node *kc_ir_loop_new(struct kc_arena *a, struct kc_node *parent, struct kc_loc loc, int var,
                               struct kc_poly *lo, struct kc_poly *hi, long long step)
{
	struct kc_node *loop = kc_ir_node_new(a, KC_NODE_LOOP, parent, loc, loc);
	loop->var = var;
	loop->step = step;
	loop->lower[loop->n_lower++] = lo;
	loop->upper[loop->n_upper++] = hi;
	return loop;
}

int kc_ir_loop_bound(struct kc_node *loop, int upper, struct kc_poly *bound)
{
	int *n = upper ? &loop->n_upper : &loop->n_lower;
	if (*n >= KC_MAX_BOUNDS)
		return -1;
	(upper ? loop->upper : loop->lower)[(*n)++] = bound;
	return 0;
}

int kc_ir_guard_add(struct kc_node *n, struct kc_poly *g)
{
	if (n->n_guards >= KC_MAX_BOUNDS)
		return -1;
	n->guard[n->n_guards++] = g;
	return 0;
}

struct kc_node *kc_ir_else(struct kc_arena *a, struct kc_node *n, struct kc_loc loc)
{
	if (!n->orelse)
		n->orelse = kc_ir_node_new(a, KC_NODE_BLOCK, NULL, loc, loc);
	return n->orelse;
}

static int same_access(const struct kc_access *x, const struct kc_access *y)
{
	if (x->buffer != y->buffer || x->is_write != y->is_write || x->ndims != y->ndims)
		return 0;
	for (int d = 0; d < x->ndims; d++)
		if (!x->index[d] || !y->index[d] || !kc_poly_equal(x->index[d], y->index[d]))
			return 0;
	return 1;
}

void kc_ir_access_add(struct kc_arena *a, struct kc_node *st, const struct kc_access *acc)
{
	for (int i = 0; i < st->n_accesses; i++)
		if (same_access(&st->accesses[i], acc))
			return;
	if (st->n_accesses % 8 == 0) {
		struct kc_access *more = KC_NEW_N(a, struct kc_access, st->n_accesses + 8);
		if (st->n_accesses)
			memcpy(more, st->accesses, sizeof *more * (size_t)st->n_accesses);
		st->accesses = more;
	}
	st->accesses[st->n_accesses++] = *acc;
}

void kc_ir_trans_add(struct kc_arena *a, struct kc_node *st, const char *name, long long count)
{
	struct kc_stmt_cost *c = &st->cost;
	for (int i = 0; i < c->n_trans; i++)
		if (!strcmp(c->trans_name[i], name)) {
			c->trans_count[i] += count;
			return;
		}
	if (needs_growth(c->n_trans, 4)) {
		c->trans_name = grown(a, c->trans_name, c->n_trans, sizeof *c->trans_name, 4);
		c->trans_count = grown(a, c->trans_count, c->n_trans, sizeof *c->trans_count, 4);
	}
	c->trans_name[c->n_trans] = name;
	c->trans_count[c->n_trans++] = count;
}

void kc_ir_scalar_use(struct kc_arena *a, struct kc_node *st, int id, int is_write)
{
	int **ids = is_write ? &st->sc_writes : &st->sc_reads, *n = is_write ? &st->n_sc_writes : &st->n_sc_reads;
	for (int i = 0; i < *n; i++)
		if ((*ids)[i] == id)
			return;
	if (needs_growth(*n, 4))
		*ids = grown(a, *ids, *n, sizeof **ids, 4);
	(*ids)[(*n)++] = id;
}

void kc_ir_reserve_nests(struct kc_arena *a, struct kc_fn_ir *ir)
{
	int n = 0;
	for (const struct kc_node *c = ir->body->first; c; c = c->next)
		n++;
	ir->fn->nests = KC_NEW_N(a, struct kc_nest, n + 1);
	ir->fn->n_nests = 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Strided loops */

static int has_any(const struct kc_poly *p, const int *syms)
{
	for (int s = 0; syms && s < KC_POLY_MAX_SYMS; s++)
		if (syms[s] && kc_poly_has_sym(p, s))
			return 1;
	return 0;
}

/* floor(dist / as) for a constant dist, as > 0 (C division truncates towards zero). */
static long long floor_div(long long dist, long long as)
{
	return dist / as - (dist % as < 0);
}

/* The one symbol of a monomial c*s (c a positive integer) into *sym, c into *c; -1 for any other polynomial. */
static int one_size_monomial(const struct kc_function *fn, const struct kc_poly *p, int *sym, long long *c)
{
	struct kc_rat k;
	if (kc_poly_nterms(p) != 1 || (k = kc_poly_term_coef(p, 0)).den != 1 || k.num <= 0)
		return -1;
	*sym = -1;
	for (int s = 0; s < fn->syms.n; s++) {
		int e = kc_poly_term_exp(p, 0, s);
		if (e > 1 || (e && *sym >= 0))
			return -1;
		if (e)
			*sym = s;
	}
	*c = (long long)k.num;
	return *sym >= 0 ? 0 : -1;
}

/* floor(dist / by) for a step by > 0 of sizes: with by = c*s and dist = A*s + R, A/c where c divides A and R
 * is 0, and A/c - 1 where R is -1 (c*s >= 1, so floor(-1/(c*s)) = -1): i < n*inc_x by inc_x runs n times;
 * else the derived symbol floor(dist/by), of sizes only. -1 when there is none (loop variables, a full
 * symbol table: *why says so, else NULL). */
static int floor_by_step(struct kc_arena *a, struct kc_arena *keep, struct kc_function *fn, const struct kc_poly *dist,
                         const struct kc_poly *by, const int *loop_vars, struct kc_poly **out, const char **why)
{
	int s;
	long long c;
	struct kc_poly *coef, *rest;
	struct kc_rat r;
	*why = NULL;
	if (one_size_monomial(fn, by, &s, &c) == 0 && kc_poly_split_linear(a, dist, s, &coef, &rest) == 0 &&
	    kc_poly_is_const(rest, &r) && r.den == 1 && (r.num == 0 || r.num == -1)) {
		struct kc_poly *q;
		int divisible = kc_poly_scale(a, coef, (struct kc_rat){1, c}, &q) == 0;
		for (int t = 0; divisible && t < kc_poly_nterms(q); t++)
			divisible &= kc_poly_term_coef(q, t).den == 1;
		if (divisible)
			return kc_poly_sub(a, q, kc_poly_const(a, -r.num, 1), out);
	}
	if (has_any(dist, loop_vars))
		return -1;
	int d = kc_sym_floor_by(keep, fn, dist, by);
	if (d < 0) {
		*why = kc_arena_printf(keep, "too many size symbols (%d) for the trip count of this strided loop",
		                       KC_POLY_MAX_SYMS);
		return -1;
	}
	*out = kc_poly_sym(a, d);
	return 0;
}

struct kc_poly *kc_ir_loop_step(struct kc_arena *a, const struct kc_node *loop)
{
	return loop->step_by ? loop->step_by : kc_poly_const(a, loop->step, 1);
}

int kc_ir_loop_last_step(struct kc_arena *a, struct kc_arena *keep, struct kc_function *fn, const struct kc_node *loop,
                         const struct kc_poly *end, const int *loop_vars, struct kc_poly **last, const char **limit)
{
	static const char overflow[] = "the trip count of this strided loop overflows exact arithmetic";
	long long s = loop->step, as = s > 0 ? s : -s;
	const char *why = NULL;
	int rc = -1;
	struct kc_poly *dist, *q;
	struct kc_rat c;
	if ((s > 0 ? loop->n_lower : loop->n_upper) != 1 || !as)
		goto end;
	if (loop->step_by) {
		if (kc_poly_sub(a, end, loop->lower[0], &dist) < 0) {
			why = overflow;
			goto end;
		}
		if (floor_by_step(a, keep, fn, dist, loop->step_by, loop_vars, last, &why) == 0)
			rc = 0;
		goto end;
	}
	const struct kc_poly *start = s > 0 ? loop->lower[0] : loop->upper[0];
	why = overflow;
	if (kc_poly_sub(a, s > 0 ? end : start, s > 0 ? start : end, &dist) < 0 ||
	    kc_poly_scale(a, dist, (struct kc_rat){1, as}, &q) < 0)
		goto end;
	why = NULL;
	int divisible = 1;
	for (int t = 0; t < kc_poly_nterms(q); t++)
		divisible &= kc_poly_term_coef(q, t).den == 1;
	if (!divisible && kc_poly_is_const(dist, &c)) {
		q = kc_poly_const(a, floor_div((long long)c.num, as), 1);
	} else if (!divisible) {
		if (has_any(dist, loop_vars))
			goto end;
		int d = kc_sym_floor(keep, fn, dist, as);
		if (d < 0) {
			why =
			    kc_arena_printf(keep, "too many size symbols (%d) for the trip count of this strided loop",
			                    KC_POLY_MAX_SYMS);
			goto end;
		}
		q = kc_poly_sym(a, d);
	}
	*last = q;
	rc = 0;
end:
	if (limit)
		*limit = why;
	return rc;
}

/* ------------------------------------------------------------------------------------------------ */
/* Limits */

static int same_loc(struct kc_loc x, struct kc_loc y)
{
	return x.line == y.line && x.col == y.col &&
	       (x.file == y.file || (x.file && y.file && !strcmp(x.file, y.file)));
}

static void limit_reached(struct kc_arena *keep, struct kc_function *fn, struct kc_loc loc, int ops, const char *fmt,
                          va_list ap)
{
	char *msg = kc_arena_vprintf(keep, fmt, ap);
	fn->exact = 0;
	if (ops)
		fn->exact_ops = fn->exact_flops = 0;
	for (const struct kc_diag *d = fn->diags.head; d; d = d->next)
		if (d->severity == KC_WARNING && same_loc(d->loc, loc) && !strcmp(d->message, msg))
			return;
	kc_diag_add(keep, &fn->diags, loc, KC_WARNING, KC_DIAG_LIMIT, fn->name, "%s", msg);
}

void kc_ir_limit(struct kc_arena *keep, struct kc_function *fn, struct kc_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	limit_reached(keep, fn, loc, 1, fmt, ap);
	va_end(ap);
}

void kc_ir_limit_traffic(struct kc_arena *keep, struct kc_function *fn, struct kc_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	limit_reached(keep, fn, loc, 0, fmt, ap);
	va_end(ap);
}

int kc_ir_is_nest(const struct kc_node *c)
{
	return c->kind == KC_NODE_LOOP || c->call || c->lib_call || (c->kind == KC_NODE_BLOCK && c->unrolled) ||
	       (c->kind == KC_NODE_IF && (c->first || (c->orelse && c->orelse->first)));
}

int kc_ir_if_taken(const struct kc_function *fn, const struct kc_node *n)
{
	if (n->kind != KC_NODE_IF || !n->n_guards || n->inexact)
		return -1;
	for (int g = 0; g < n->n_guards; g++) {
		for (int s = 0; s < fn->syms.n; s++)
			if (fn->syms.syms[s].is_loop && kc_poly_has_sym(n->guard[g], s))
				return -1;
		long long v;
		const char *why;
		if (kc_function_eval(fn, n->guard[g], &v, &why) < 0)
			return -1;
		if (v < 0)
			return 0;
	}
	return 1;
}
