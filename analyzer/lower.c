/* lower.c — the recursive core of the front end: a function's body lowered to the kernel IR. Statements,
 * expressions, accesses, costs and calls call each other (a call to a function of the file lowers the callee
 * first), so they live together here; what is not recursive is in clang_util.c, affine.c, decls.c and
 * libcalls.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "affine.h"
#include "clang_util.h"
#include "decls.h"
#include "fe_int.h"
#include "libcalls.h"
#include "lower.h"
#include "passes.h"

static struct kc_fn_ir *lower_function(struct fe *fe, struct tu_func *tf);
static void lower_stmt(struct fctx *fc, CXCursor c, struct kc_node *parent);
static void lower_stmt_at(struct fctx *fc, CXCursor c, struct kc_node *parent);
static void collect_expr(struct fctx *fc, CXCursor c, struct kc_node *st, int role);

/* ------------------------------------------------------------------------------------------------ */
/* IR construction */

static struct kc_node *new_node(struct fctx *fc, enum kc_node_kind kind, CXCursor c, struct kc_node *parent)
{
	return kc_ir_node_new(fc->fe->a, kind, parent, kc_cx_loc(fc->fe, c), kc_cx_end(fc->fe, c));
}

/* A local floating-point scalar declared into parent gets an id for the dataflow's reduction check and the
 * latency chains. */
static void number_scalar(struct fctx *fc, struct var *v, CXCursor decl, const struct kc_node *parent)
{
	if (v)
		v->scalar =
		    kc_ir_scalar_add(fc->fe->a, fc->ir, kc_cx_spelling(fc->fe->a, decl), kc_ir_loop_depth(parent));
}

static void scalar_use(struct fctx *fc, struct kc_node *st, const struct var *v, int role)
{
	if (!v || v->kind != V_SCALAR || v->scalar < 0 || !st)
		return;
	if (role & ROLE_READ)
		kc_ir_scalar_use(fc->fe->a, st, v->scalar, 0);
	if (role & ROLE_WRITE)
		kc_ir_scalar_use(fc->fe->a, st, v->scalar, 1);
}

/* ------------------------------------------------------------------------------------------------ */
/* Accesses */

/* A struct-of-arrays field, s->x or s.x, as a buffer of its own named "s->x": its elements are counted like
 * a parameter's when s is a parameter (the caller owns them), like a local's otherwise. Fills *out as a
 * buffer variable; NULL when the field is not a pointer or an array. */
static struct var *field_buffer(struct fctx *fc, CXCursor member, struct var *out)
{
	struct child_list l;
	kc_cx_children(member, &l);
	struct var *base = l.n == 1 ? kc_affine_var_of(fc, l.c[0]) : NULL;
	int ndims, is_buffer;
	CXType elem = kc_cx_element_type(clang_getCursorType(member), &ndims, &is_buffer);
	if (!base || !is_buffer)
		return NULL;
	int arrow = clang_getCanonicalType(clang_getCursorType(kc_cx_strip(l.c[0]))).kind == CXType_Pointer;
	char *base_name = kc_cx_spelling(fc->fe->a, base->decl), *field = kc_cx_spelling(fc->fe->a, member);
	char *name = kc_arena_printf(fc->fe->a, "%s%s%s", base_name, arrow ? "->" : ".", field);
	int id = -1;
	for (int b = 0; b < fc->fn->n_buffers && id < 0; b++)
		if (!strcmp(fc->fn->buffers[b].name, name))
			id = b;
	if (id < 0) {
		id = kc_decl_buffer(fc, member, elem);
		fc->fn->buffers[id].name = name;
		fc->fn->buffers[id].is_param = clang_getCursorKind(base->decl) == CXCursor_ParmDecl;
		fc->dims[id].ndims = ndims; /* extents unknown: footprints come from the indices */
	}
	out->kind = V_BUFFER;
	out->buffer = id;
	out->scalar = -1;
	return out;
}

static int is_pointer_like(CXCursor c)
{
	enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(c)).kind;
	return k == CXType_Pointer || k == CXType_ConstantArray || k == CXType_IncompleteArray ||
	       k == CXType_VariableArray;
}

/* `p++` or `p--` of a pointer that is an induction variable of the loop being lowered (the element is the
 * one it points to before the step): p; c itself otherwise. */
static CXCursor walked_pointer(struct fctx *fc, CXCursor c)
{
	if (clang_getCursorKind(c) != CXCursor_UnaryOperator)
		return c;
	enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);
	struct child_list l;
	kc_cx_children(c, &l);
	if ((k != CXUnaryOperator_PostInc && k != CXUnaryOperator_PostDec) || l.n != 1)
		return c;
	struct var *v = kc_affine_var_of(fc, l.c[0]);
	return v && v->ind_after && v->kind == V_ALIAS ? kc_cx_strip(l.c[0]) : c;
}

/* A pointer expression as a buffer variable (V_BUFFER or V_ALIAS) and an element offset from it: p, p + e,
 * e + p, p - e, nested as C groups them (inp + b*T*C + t*C is (inp + b*T*C) + t*C); NULL when it is none
 * of these or an offset is not affine. */
static struct var *pointer_base(struct fctx *fc, CXCursor c, struct kc_poly **off)
{
	struct kc_arena *a = fc->fe->a;
	c = kc_cx_strip(c);
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		struct var *v = kc_affine_var_of(fc, c);
		if (!v || (v->kind != V_BUFFER && v->kind != V_ALIAS))
			return NULL;
		*off = kc_poly_zero(a);
		return v;
	}
	if (clang_getCursorKind(c) != CXCursor_BinaryOperator)
		return NULL;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c);
	struct child_list l;
	kc_cx_children(c, &l);
	if ((k != CXBinaryOperator_Add && k != CXBinaryOperator_Sub) || l.n != 2)
		return NULL;
	int p = is_pointer_like(l.c[0]) ? 0 : k == CXBinaryOperator_Add && is_pointer_like(l.c[1]) ? 1 : -1;
	if (p < 0 || kc_cx_enter(fc, c) < 0)
		return NULL;
	struct kc_poly *base_off, *e;
	struct var *v = pointer_base(fc, l.c[p], &base_off);
	if (v && kc_affine_expr(fc, l.c[1 - p], &e) == 0 &&
	    (k == CXBinaryOperator_Add ? kc_poly_add(a, base_off, e, off) : kc_poly_sub(a, base_off, e, off)) == 0) {
		kc_cx_leave(fc);
		return v;
	}
	kc_cx_leave(fc);
	return NULL;
}

/* The buffer of p + e or p - e (nested: wte + ix*C + t) whose offset e is not affine (a gather's row, at a
 * token id): the leftmost pointer's variable when it is a buffer or an alias, else NULL. */
static struct var *gather_base(struct fctx *fc, CXCursor c)
{
	c = kc_cx_strip(c);
	for (int depth = 0; clang_getCursorKind(c) == CXCursor_BinaryOperator && depth < KC_MAX_DEPTH; depth++) {
		enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c);
		struct child_list l;
		kc_cx_children(c, &l);
		if ((k != CXBinaryOperator_Add && k != CXBinaryOperator_Sub) || l.n != 2 || !is_pointer_like(l.c[0]))
			return NULL;
		c = kc_cx_strip(l.c[0]);
	}
	struct var *v = clang_getCursorKind(c) == CXCursor_DeclRefExpr ? kc_affine_var_of(fc, c) : NULL;
	return v && (v->kind == V_BUFFER || v->kind == V_ALIAS) ? v : NULL;
}

/* Resolve an lvalue expression to a buffer access: a[i], a[i][j], *(p + i), p[i] through an alias. 0, or -1
 * (unsupported form), -2 (a scalar), -3 (no known buffer), -4 (more subscripts than KC_MAX_DIMS). */
static int resolve_access(struct fctx *fc, CXCursor c, struct kc_access *acc)
{
	struct kc_arena *a = fc->fe->a;
	CXCursor idx[KC_MAX_DIMS];
	int n = 0;
	struct kc_poly *deref_offset = NULL;
	struct var *v = NULL;
	c = kc_cx_strip(c);
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) {
		struct child_list l;
		kc_cx_children(c, &l);
		if (l.n != 1)
			return -1;
		c = kc_cx_strip(l.c[0]);
		deref_offset = kc_poly_zero(a);
		c = walked_pointer(fc, c);
		/* *(p + i), *(x + b*C + i), *(p - 1): a buffer variable and an offset; else *(s->p + i), a field */
		if (clang_getCursorKind(c) == CXCursor_BinaryOperator && !(v = pointer_base(fc, c, &deref_offset)) &&
		    clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Add) {
			struct child_list pl;
			kc_cx_children(c, &pl);
			if (pl.n != 2 || kc_affine_expr(fc, pl.c[1], &deref_offset) < 0)
				return -1;
			c = kc_cx_strip(pl.c[0]);
		}
	} else {
		while (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr && n < KC_MAX_DIMS) {
			struct child_list l;
			kc_cx_children(c, &l);
			if (l.n != 2)
				return -1;
			idx[n++] = l.c[1];
			c = kc_cx_strip(l.c[0]);
		}
		if (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr)
			return -4; /* more subscripts than KC_MAX_DIMS */
		if (n == 0)
			return clang_getCursorKind(c) == CXCursor_DeclRefExpr ||
			               clang_getCursorKind(c) == CXCursor_MemberRefExpr
			           ? -2
			           : -1;
	}
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && n == 0 && !deref_offset)
		return -2; /* a scalar variable: no memory traffic */
	struct var field = {0};
	if (!v)
		v = clang_getCursorKind(c) == CXCursor_MemberRefExpr ? field_buffer(fc, c, &field)
		                                                     : kc_affine_var_of(fc, c);
	if (!v)
		v = kc_decl_global(fc, c); /* a file-scope array, entered when first accessed */
	if (!v || (v->kind != V_BUFFER && v->kind != V_ALIAS))
		return -3; /* an element through a pointer that is no known buffer (unknown aliasing) */
	acc->buffer = v->buffer;
	struct kc_dims *d = &fc->dims[v->buffer];
	/* indices come outermost last from the walk above */
	struct kc_poly *index[KC_MAX_DIMS];
	for (int i = 0; i < n; i++)
		if (kc_affine_expr(fc, idx[n - 1 - i], &index[i]) < 0)
			index[i] = NULL;
	if (v->kind == V_BUFFER && !deref_offset && n == d->ndims) {
		acc->ndims = n;
		memcpy(acc->index, index, sizeof index[0] * (size_t)n);
		return 0;
	}
	/* flattened element offset: alias offset + deref offset + row-major index */
	struct kc_poly *flat = v->kind == V_ALIAS ? v->offset : kc_poly_zero(a);
	if (deref_offset && flat && kc_poly_add(a, flat, deref_offset, &flat) < 0)
		flat = NULL;
	if (v->kind == V_ALIAS && n > 1)
		flat = NULL; /* an alias is a pointer to elements: p[i][j] is not one */
	for (int i = 0; i < n && flat; i++) {
		struct kc_poly *term = index[i];
		for (int k = i + 1; term && v->kind == V_BUFFER && k < d->ndims; k++)
			if (!d->dim[k] || kc_poly_mul(a, term, d->dim[k], &term) < 0)
				term = NULL;
		if (!term || kc_poly_add(a, flat, term, &flat) < 0)
			flat = NULL;
	}
	acc->ndims = 1;
	acc->index[0] = flat;
	return 0;
}

static void add_access(struct fctx *fc, struct kc_node *st, const struct kc_access *acc)
{
	kc_ir_access_add(fc->fe->a, st, acc);
}

/* Record the access of an lvalue with the given role, and the reads inside its index expressions. */
static void access_lvalue(struct fctx *fc, CXCursor c, struct kc_node *st, int role)
{
	struct kc_access acc = {0};
	acc.loc = kc_cx_loc(fc->fe, c);
	int rc = resolve_access(fc, c, &acc);
	if (rc == -2)
		scalar_use(fc, st, kc_affine_var_of(fc, c), role);
	if (rc == -1)
		kc_cx_warn_traffic(fc, c, "unsupported access expression%s: traffic not counted", "");
	if (rc == -3)
		kc_cx_warn_traffic(fc, c,
		                   "access through a pointer kcost cannot trace to a parameter, a local array or an "
		                   "allocation%s: its traffic is not counted",
		                   "");
	if (rc == -4)
		kc_cx_warn_traffic(fc, c,
		                   "access with more than " KC_TEXT(KC_MAX_DIMS) " subscripts%s: its traffic is not "
		                                                                 "counted",
		                   "");
	if (rc == 0) {
		if (role & ROLE_READ) {
			acc.is_write = 0;
			add_access(fc, st, &acc);
		}
		if (role & ROLE_WRITE) {
			acc.is_write = 1;
			add_access(fc, st, &acc);
		}
		for (int d = 0; d < acc.ndims; d++)
			if (!acc.index[d] && fc->loop_depth > 0 && !fc->too_deep) {
				kc_diag_add(
				    fc->fe->a, &fc->fn->diags, acc.loc, KC_NOTE, KC_DIAG_ASSUMPTION, fc->fn->name,
				    "data-dependent index into '%s': its footprint is taken as the whole buffer",
				    fc->fn->buffers[acc.buffer].name);
				break;
			}
	}
	/* index sub-expressions may read other buffers (x[col[j]]) */
	CXCursor s = kc_cx_strip(c);
	while (clang_getCursorKind(s) == CXCursor_ArraySubscriptExpr) {
		struct child_list l;
		kc_cx_children(s, &l);
		if (l.n != 2)
			break;
		collect_expr(fc, l.c[1], st, ROLE_READ);
		s = kc_cx_strip(l.c[0]);
	}
	if (clang_getCursorKind(s) == CXCursor_UnaryOperator) {
		/* *(p + i): the pointer expression may read other buffers; never re-enter the dereference */
		struct child_list l;
		kc_cx_children(s, &l);
		if (l.n == 1)
			collect_expr(fc, l.c[0], st, ROLE_READ);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Expression costs */

static void add_op(struct kc_node *st, enum kc_op op, int prec)
{
	if (prec >= 0)
		st->cost.ops[op][prec]++;
}

static void add_transcendental(struct fctx *fc, struct kc_node *st, const char *name)
{
	for (int i = 0; i < st->cost.n_trans; i++)
		if (strcmp(st->cost.trans_name[i], name) == 0) {
			st->cost.trans_count[i]++;
			return;
		}
	kc_ir_trans_add(fc->fe->a, st, kc_arena_strdup(fc->fe->a, name), 1);
}

static int is_analyzed_call(struct fctx *fc, CXCursor call, struct tu_func **out);
static void lower_call(struct fctx *fc, CXCursor c, struct tu_func *tf, struct kc_node *st);
static int library_call(struct fctx *fc, CXCursor c, const char *name, struct kc_node *st);

/* 1 when every argument of the call is a compile-time constant (and there is one). */
static int constant_args(struct fctx *fc, CXCursor c, int nargs)
{
	for (int i = 0; i < nargs; i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		if (!kc_affine_may_be_constant(fc, arg) || !kc_cx_is_constant(arg))
			return 0;
	}
	return nargs > 0;
}

static void collect_call(struct fctx *fc, CXCursor c, struct kc_node *st)
{
	char *name = kc_cx_spelling(fc->fe->a, c);
	struct tu_func *tf;
	int nargs = clang_Cursor_getNumArguments(c);
	enum kc_libm_kind math = kc_libcall_math(name);
	if (math != KC_LIBM_NONE && constant_args(fc, c, nargs))
		return; /* sqrtf(2.0f / M_PI): literals only, folded by the compiler */
	if (math == KC_LIBM_TRANSCENDENTAL) {
		add_transcendental(fc, st, kc_libcall_math_name(name));
	} else if (math == KC_LIBM_COMPARE) {
		st->cost.cmp++;
	} else if (math == KC_LIBM_FMA) {
		add_op(st, KC_OP_FMA, kc_cx_float_prec(clang_getCursorType(c)));
	} else if (!kc_libcall_is_assert(name) && kc_cx_calls_noreturn(c)) {
		/* exit(1), abort(), a fatal-error helper: it ends the process, so a call of this function that returns
		 * never makes it, nor evaluates its arguments; the counts are such a call's (a note, not a warning) */
		kc_cx_warn(fc, c, KC_NOTE,
		           "call to '%s', which does not return: counted as not made (the counts are those of the "
		           "kernel's calls that return)",
		           name);
		return;
	} else if (is_analyzed_call(fc, c, &tf)) {
		lower_call(fc, c, tf, st);
		return;
	} else if (library_call(fc, c, name, st)) {
		/* costed by its built-in model */
	} else if (kc_libcall_is_alloc(name)) {
		/* allocation: no FLOPs */
	} else if (kc_libcall_is_io(name)) {
		if (fc->loop_depth > 0)
			kc_decl_io_call(fc, c, name); /* one note per function */
	} else if (math == KC_LIBM_ROUNDING || kc_libcall_is_free(name)) {
		/* floor(x), memset(y, 0, n): no floating-point operation */
	} else if (fc->loop_depth > 0) {
		kc_cx_warn(fc, c, KC_WARNING, "call to unknown function '%s' inside a loop is not counted", name);
	} else {
		/* once, but its cost is as unknown as in a loop (a silent 0 before) */
		kc_cx_warn(fc, c, KC_WARNING, "call to unknown function '%s' is not counted", name);
	}
	for (int i = 0; i < nargs; i++)
		collect_expr(fc, clang_Cursor_getArgument(c, (unsigned)i), st, ROLE_READ);
}

static enum kc_op binop_category(enum CXBinaryOperatorKind k)
{
	switch (k) {
	case CXBinaryOperator_Add:
	case CXBinaryOperator_AddAssign:
		return KC_OP_ADD;
	case CXBinaryOperator_Sub:
	case CXBinaryOperator_SubAssign:
		return KC_OP_SUB;
	case CXBinaryOperator_Mul:
	case CXBinaryOperator_MulAssign:
		return KC_OP_MUL;
	case CXBinaryOperator_Div:
	case CXBinaryOperator_DivAssign:
		return KC_OP_DIV;
	default:
		return KC_OP_N;
	}
}

/* The operations st counts so far (FLOPs, comparisons, transcendental calls, and 1 for a call): what tells
 * whether an arm of a conditional expression costs anything. */
static long long work_of(const struct kc_node *st)
{
	long long w = st->cost.cmp + (st->call != NULL) + (st->lib_call != NULL);
	for (int o = 0; o < KC_OP_N; o++)
		for (int p = 0; p < KC_PREC_N; p++)
			w += st->cost.ops[o][p];
	for (int t = 0; t < st->cost.n_trans; t++)
		w += st->cost.trans_count[t];
	return w;
}

/* What a statement's cost was at one point of collecting it (the arms of a conditional expression). */
struct arm_mark {
	long long ops[KC_OP_N][KC_PREC_N];
	long long cmp, trans, work;
	int n_accesses;
	const void *call, *lib_call;
};

static struct arm_mark mark_of(const struct kc_node *st)
{
	struct arm_mark m;
	memcpy(m.ops, st->cost.ops, sizeof m.ops);
	m.cmp = st->cost.cmp;
	m.trans = 0;
	for (int t = 0; t < st->cost.n_trans; t++)
		m.trans += st->cost.trans_count[t];
	m.work = work_of(st);
	m.n_accesses = st->n_accesses;
	m.call = st->call;
	m.lib_call = st->lib_call;
	return m;
}

/* The FLOPs added from a0 to a1 are those added from b0 to b1, kind by kind, with no transcendental or call. */
static int same_flops(const struct arm_mark *a0, const struct arm_mark *a1, const struct arm_mark *b0,
                      const struct arm_mark *b1)
{
	if (a1->trans != a0->trans || b1->trans != b0->trans || a1->call != a0->call || b1->call != b0->call ||
	    a1->lib_call != a0->lib_call || b1->lib_call != b0->lib_call)
		return 0;
	for (int o = 0; o < KC_OP_N; o++)
		for (int p = 0; p < KC_PREC_N; p++)
			if (a1->ops[o][p] - a0->ops[o][p] != b1->ops[o][p] - b0->ops[o][p])
				return 0;
	return 1;
}

/* Whether condition c holds at the benchmark sizes: 1 or 0, -1 when that depends on data or loop variables. */
static int holds_at_sizes(struct fctx *fc, CXCursor c)
{
	struct kc_node tmp = {.kind = KC_NODE_IF};
	fc->probing++;
	int g = kc_affine_guards(fc, c, &tmp), t;
	fc->probing--;
	if (g < 0 || (t = kc_ir_if_taken(fc->fn, &tmp)) < 0)
		return -1;
	return g == 1 ? !t : t;
}

/* The right operand of `left && right` (and: 1) or `left || right`: evaluated only when left does not decide.
 * When the sizes decide left, it is counted always or never; else, when it does any operation, it is counted
 * as always evaluated, flagged (comparisons only: the FLOPs stay exact). */
static void collect_short_circuit(struct fctx *fc, CXCursor c, CXCursor left, CXCursor right, int and,
                                  struct kc_node *st)
{
	struct arm_mark m0 = mark_of(st);
	collect_expr(fc, right, st, ROLE_READ);
	struct arm_mark m1 = mark_of(st);
	if (m1.work == m0.work)
		return;
	int holds = holds_at_sizes(fc, left);
	if (holds == and)
		return; /* always evaluated */
	if (holds >= 0 && m1.trans == m0.trans && m1.call == m0.call && m1.lib_call == m0.lib_call) {
		/* never evaluated: its operations are not counted (its reads stay, an upper bound) */
		memcpy(st->cost.ops, m0.ops, sizeof m0.ops);
		st->cost.cmp = m0.cmp;
		return;
	}
	if (same_flops(&m0, &m1, &m1, &m1))
		kc_cx_warn_cmp(fc, c,
		               "the right operand of '%s' is evaluated only where the left one does not decide: its "
		               "comparisons are counted as always made",
		               and? "&&" : "||");
	else
		kc_cx_warn(fc, c, KC_WARNING,
		           "the right operand of '%s' is evaluated only where the left one does not decide: its "
		           "operations are counted as always done",
		           and? "&&" : "||");
}

static void collect_binop(struct fctx *fc, CXCursor c, struct kc_node *st)
{
	struct child_list l;
	kc_cx_children(c, &l);
	if (l.n != 2)
		return;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c);
	if (k == CXBinaryOperator_Assign) {
		/* program order: the right-hand side is read before the element is written */
		collect_expr(fc, l.c[1], st, ROLE_READ);
		access_lvalue(fc, l.c[0], st, ROLE_WRITE);
		return;
	}
	if (k >= CXBinaryOperator_MulAssign && k <= CXBinaryOperator_OrAssign) {
		/* computed in the common type of both sides (x[i] *= s[i] with a double s is a double multiply) */
		enum kc_op op = binop_category(k);
		int pl = kc_cx_float_prec(clang_getCursorType(l.c[0])),
		    pr = kc_cx_float_prec(clang_getCursorType(l.c[1]));
		if (op != KC_OP_N)
			add_op(st, op, pr > pl ? pr : pl);
		access_lvalue(fc, l.c[0], st, ROLE_RW);
		collect_expr(fc, l.c[1], st, ROLE_READ);
		return;
	}
	if (kc_affine_may_be_constant(fc, c) && kc_cx_is_constant(c))
		return; /* folded */
	enum kc_op op = binop_category(k);
	if (op != KC_OP_N)
		add_op(st, op, kc_cx_float_prec(clang_getCursorType(c)));
	if (k >= CXBinaryOperator_LT && k <= CXBinaryOperator_NE &&
	    (kc_cx_float_prec(clang_getCursorType(l.c[0])) >= 0 || kc_cx_float_prec(clang_getCursorType(l.c[1])) >= 0))
		st->cost.cmp++;
	collect_expr(fc, l.c[0], st, ROLE_READ);
	if (k == CXBinaryOperator_LAnd || k == CXBinaryOperator_LOr)
		collect_short_circuit(fc, c, l.c[0], l.c[1], k == CXBinaryOperator_LAnd, st);
	else
		collect_expr(fc, l.c[1], st, ROLE_READ);
}

static void collect_unop(struct fctx *fc, CXCursor c, struct kc_node *st)
{
	struct child_list l;
	kc_cx_children(c, &l);
	if (l.n != 1)
		return;
	enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);
	if (k == CXUnaryOperator_Deref) {
		access_lvalue(fc, c, st, ROLE_READ);
		return;
	}
	if (k >= CXUnaryOperator_PostInc && k <= CXUnaryOperator_PreDec) {
		int prec = kc_cx_float_prec(clang_getCursorType(l.c[0]));
		if (prec >= 0)
			add_op(st, k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc ? KC_OP_ADD : KC_OP_SUB,
			       prec);
		struct kc_access acc;
		if (resolve_access(fc, l.c[0], &acc) == 0)
			access_lvalue(fc, l.c[0], st, ROLE_RW);
		return;
	}
	if (k == CXUnaryOperator_AddrOf) {
		/* &n passes an integer's address: what it holds afterwards is unknown (&a[i]: no access here) */
		struct var *w = kc_affine_var_of(fc, l.c[0]);
		if (w && (w->kind == V_SIZE || w->kind == V_INT)) {
			w->kind = V_INT;
			w->value = NULL;
			w->n_minmax = 0;
		}
		return;
	}
	collect_expr(fc, l.c[0], st, ROLE_READ);
}

/* Walk an expression, adding its FLOPs, comparisons, transcendental calls and accesses to st. */
static void collect_expr_at(struct fctx *fc, CXCursor c, struct kc_node *st, int role)
{
	c = kc_cx_strip(c);
	enum CXCursorKind kind = clang_getCursorKind(c);
	if ((kind == CXCursor_CallExpr || kind == CXCursor_UnaryOperator) && kc_affine_may_be_constant(fc, c) &&
	    kc_cx_is_constant(c))
		return; /* folded: -INFINITY, __builtin_nanf("") */
	switch (kind) {
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		collect_binop(fc, c, st);
		return;
	case CXCursor_UnaryOperator:
		collect_unop(fc, c, st);
		return;
	case CXCursor_ArraySubscriptExpr:
		access_lvalue(fc, c, st, role ? role : ROLE_READ);
		return;
	case CXCursor_CallExpr:
		collect_call(fc, c, st);
		return;
	case CXCursor_DeclRefExpr:
		scalar_use(fc, st, kc_affine_var_of(fc, c), ROLE_READ);
		return;
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_UnaryExpr:
		return;
	case CXCursor_ConditionalOperator: {
		struct child_list l;
		kc_cx_children(c, &l);
		struct arm_mark m[3];
		for (int i = 0; i < l.n; i++) {
			if (i >= 1 && i <= 3)
				m[i - 1] = mark_of(st);
			collect_expr(fc, l.c[i], st, ROLE_READ);
		}
		if (l.n != 3 || kc_cx_is_constant(l.c[0]))
			return;
		m[2] = mark_of(st);
		/* a data-dependent condition: both arms cost nothing (x > 0 ? x : 0), or the same FLOPs (c ? a + b :
		 * a - b: one arm's are kept, exactly; comparisons that differ are both counted and flagged alone), or
		 * the expression is flagged as the same logic written with if is */
		int reads = m[2].n_accesses != m[0].n_accesses; /* an arm reads memory: which, the data decide */
		if (m[2].work == m[0].work) { /* (b ? b[i] : 0: both arms' reads are counted, as kcost runs it) */
			kc_cx_warn(fc, c, KC_NOTE, "both arms of a data-dependent conditional expression are counted%s",
			           "");
		} else if (same_flops(&m[0], &m[1], &m[1], &m[2])) {
			memcpy(st->cost.ops, m[1].ops, sizeof m[1].ops);
			if (m[1].cmp - m[0].cmp == m[2].cmp - m[1].cmp) {
				st->cost.cmp = m[1].cmp;
				if (reads)
					kc_cx_warn_traffic(
					    fc, c,
					    "data-dependent condition%s: the arms of the conditional expression "
					    "do the same operations, counted once, but read different elements: "
					    "the reads of both are counted",
					    "");
				else
					kc_cx_warn(
					    fc, c, KC_NOTE,
					    "the arms of a data-dependent conditional expression cost the same: one is "
					    "counted%s",
					    "");
			} else {
				kc_cx_warn_cmp(
				    fc, c,
				    "data-dependent condition%s: the comparisons of both arms of the conditional "
				    "expression are counted (their FLOPs are the same)",
				    "");
			}
		} else {
			kc_cx_warn(fc, c, KC_WARNING,
			           "data-dependent condition%s: both arms of the conditional expression are counted",
			           "");
		}
		return;
	}
	default: {
		struct child_list l;
		kc_cx_children(c, &l);
		for (int i = 0; i < l.n; i++)
			if (clang_isExpression(clang_getCursorKind(l.c[i])))
				collect_expr(fc, l.c[i], st, ROLE_READ);
	}
	}
}

static void collect_expr(struct fctx *fc, CXCursor c, struct kc_node *st, int role)
{
	if (kc_cx_enter(fc, c) < 0)
		return;
	collect_expr_at(fc, c, st, role);
	kc_cx_leave(fc);
}

/* ------------------------------------------------------------------------------------------------ */
/* Calls to analyzed functions and library calls */

static int is_analyzed_call(struct fctx *fc, CXCursor call, struct tu_func **out)
{
	CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(call));
	if (clang_Cursor_isNull(def))
		return 0;
	for (int i = 0; i < fc->fe->n_funcs; i++)
		if (kc_cx_same_decl(fc->fe->funcs[i].cursor, def)) {
			*out = &fc->fe->funcs[i];
			return 1;
		}
	return 0;
}

/* Map the callee's pointer argument to a caller buffer (plain name, &a[0][0], a + off, an alias) and, when
 * offset is not NULL, the element where the argument starts in it (row-major; NULL when not affine). */
static int arg_buffer_at(struct fctx *fc, CXCursor arg, struct kc_poly **offset)
{
	struct kc_arena *a = fc->fe->a;
	struct kc_poly *off = NULL, *extra;
	struct var *v;
	arg = kc_cx_strip(arg);
	if (offset)
		*offset = NULL;
	if (clang_getCursorKind(arg) == CXCursor_BinaryOperator) {
		if ((v = pointer_base(fc, arg, &extra))) {
			if (v->kind == V_ALIAS && (!v->offset || kc_poly_add(a, v->offset, extra, &off) < 0))
				off = NULL;
			else if (v->kind == V_BUFFER)
				off = extra;
		} else {
			/* an offset that is not affine: the buffer of the leftmost pointer, at an unknown element */
			while (clang_getCursorKind(arg) == CXCursor_BinaryOperator) {
				struct child_list l;
				kc_cx_children(arg, &l);
				if (l.n != 2)
					return -1;
				arg = kc_cx_strip(l.c[0]);
			}
			v = kc_affine_var_of(fc, arg);
			if (!v)
				v = kc_decl_global(fc, arg); /* a file-scope array plus an offset */
		}
	} else if (clang_getCursorKind(arg) == CXCursor_UnaryOperator &&
	           clang_getCursorUnaryOperatorKind(arg) == CXUnaryOperator_AddrOf) {
		struct kc_access acc;
		struct child_list l;
		kc_cx_children(arg, &l);
		if (l.n != 1 || resolve_access(fc, l.c[0], &acc) != 0)
			return -1;
		/* &a[i][j]: the row-major element offset in a's declared dimensions */
		const struct kc_dims *d = &fc->dims[acc.buffer];
		off = kc_poly_zero(a);
		for (int i = 0; i < acc.ndims && off; i++) {
			struct kc_poly *t = acc.index[i];
			for (int k = i + 1; t && k < acc.ndims; k++)
				if (k >= d->ndims || !d->dim[k] || kc_poly_mul(a, t, d->dim[k], &t) < 0)
					t = NULL;
			if (!t || kc_poly_add(a, off, t, &off) < 0)
				off = NULL;
		}
		if (offset)
			*offset = off;
		return acc.buffer;
	} else if (clang_getCursorKind(arg) == CXCursor_ArraySubscriptExpr) {
		/* a row a[i] of a multi-dimensional array: its offset is not followed (yet): flagged, not counted as
		 * the start of a (it was, exact and wrong). Only the traffic: the callee's operations come from its
		 * sizes, whatever buffer it is given (kmeans' find_nearest_point: dist(pt, pts[i], nfeatures)) */
		kc_cx_warn_traffic(
		    fc, arg,
		    "a row of an array passed to a call: kcost does not follow its offset, so the callee's traffic "
		    "through it is approximate (pass &a[i][0] or a + i*N)%s",
		    "");
		return -1;
	} else {
		v = kc_affine_var_of(fc, arg);
		if (!v)
			v = kc_decl_global(fc, arg); /* a file-scope array passed whole */
		if (v && v->kind == V_ALIAS)
			off = v->offset;
		else if (v && v->kind == V_BUFFER)
			off = kc_poly_zero(a);
	}
	if (!v || (v->kind != V_BUFFER && v->kind != V_ALIAS))
		return -1;
	if (offset)
		*offset = off;
	return v->buffer;
}

static int arg_buffer(struct fctx *fc, CXCursor arg)
{
	return arg_buffer_at(fc, arg, NULL);
}

/* 1 when n is in a branch of an if that the benchmark sizes decide against (kc_ir_if_taken). */
static int untaken(struct fctx *fc, const struct kc_node *n)
{
	for (const struct kc_node *p = n; p && p->parent; p = p->parent) {
		const struct kc_node *q = p->parent;
		if (q->kind != KC_NODE_IF)
			continue;
		int taken = kc_ir_if_taken(fc->fn, q);
		if ((p == q->orelse && taken == 1) || (p != q->orelse && taken == 0))
			return 1;
	}
	return 0;
}

static void lower_call(struct fctx *fc, CXCursor c, struct tu_func *tf, struct kc_node *st)
{
	if (tf->blanked) { /* a split that kept a caller from its callee: the file is parsed whole instead */
		fc->fe->split_wrong = 1;
		return;
	}
	if (tf->state == FN_ACTIVE) {
		kc_cx_warn(fc, c, KC_WARNING, "recursive call to '%s' is not counted", tf->name);
		return;
	}
	struct kc_fn_ir *callee = tf->state == FN_DONE ? tf->ir : lower_function(fc->fe, tf);
	if (callee)
		kc_passes_wait(fc->fe->passes,
		               tf->job); /* its counts and exactness are read below and when this one is counted */
	if (!callee) {
		kc_cx_warn(fc, c, KC_WARNING, "call to '%s', which could not be analyzed, is not counted", tf->name);
		return;
	}
	const struct kc_function *g = callee->fn;
	struct kc_call *call = KC_NEW(fc->fe->a, struct kc_call);
	call->callee = g;
	call->callee_ir = callee;
	call->size_args = KC_NEW_N(fc->fe->a, struct kc_poly *, KC_POLY_MAX_SYMS);
	call->n_buffers = g->n_buffers;
	call->buffer_args = KC_NEW_N(fc->fe->a, int, g->n_buffers + 1);
	call->buffer_offsets = KC_NEW_N(fc->fe->a, struct kc_poly *, g->n_buffers + 1);
	for (int b = 0; b < g->n_buffers; b++)
		call->buffer_args[b] = -1;
	int nargs = clang_Cursor_getNumArguments(c);
	CXCursor def = tf->cursor;
	for (int i = 0; i < nargs && i < clang_Cursor_getNumArguments(def); i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		char *pname = kc_cx_spelling(fc->fe->a, clang_Cursor_getArgument(def, (unsigned)i));
		for (int s = 0; s < g->n_size_params; s++)
			if (!strcmp(g->syms.syms[s].name, pname) && kc_affine_expr(fc, arg, &call->size_args[s]) < 0) {
				/* a callee without operations (darknet's im2col_get_pixel at a row the caller computes
				 * with % and /) costs none at any size: only the traffic is unknown */
				if (kc_function_ops_free(g))
					kc_cx_warn_traffic(
					    fc, arg,
					    "size argument '%s' is not an affine expression of the sizes: the callee "
					    "does no operation, its traffic is not counted",
					    pname);
				else
					kc_cx_warn(fc, arg, KC_WARNING,
					           "size argument '%s' is not an affine expression of the sizes",
					           pname);
				call->size_args[s] = NULL;
			}
		for (int b = 0; b < g->n_buffers; b++)
			if (g->buffers[b].is_param && !kc_buffer_is_global(g, b) && !strcmp(g->buffers[b].name, pname))
				call->buffer_args[b] = arg_buffer_at(fc, arg, &call->buffer_offsets[b]);
	}
	for (int i = 0; i < g->n_globals; i++) { /* the callee's file-scope arrays are the caller's, whole */
		call->buffer_args[g->globals[i]] = kc_decl_global_of(fc, g, g->globals[i]);
		call->buffer_offsets[g->globals[i]] = kc_poly_zero(fc->fe->a);
	}
	/* the arguments are evaluated in the caller: what they compute and read is its own (x + start[r] reads
	 * start[r], f(n, a[i]) reads a[i]) */
	for (int i = 0; i < nargs; i++)
		collect_expr(fc, clang_Cursor_getArgument(c, (unsigned)i), st, ROLE_READ);
	if (st->call) {
		/* a statement's second call (sq(a) + sq(b), sq(sq(x))): a statement of its own beside it (a node
		 * holds one call) */
		if (!st->parent) {
			kc_cx_warn(fc, c, KC_WARNING, "a second call in one expression is not counted%s", "");
			return;
		}
		st = kc_ir_node_new(fc->fe->a, KC_NODE_STMT, st->parent, st->loc, st->end);
	}
	st->call = call;
	if ((st->untaken = fc->untaken > 0 || untaken(fc, st)))
		return; /* a case the sizes do not take (activate's other activations): its callee costs nothing here */
	tf->cited |= !g->exact;
	if (!g->exact_flops)
		kc_cx_warn(fc, c, KC_WARNING, "'%s' is not counted exactly (see its diagnostics)", g->name);
	else if (!g->exact_ops)
		kc_cx_warn_cmp(fc, c, "the comparisons of '%s' are not counted exactly (see its diagnostics)", g->name);
	else if (!g->exact)
		kc_cx_warn_traffic(fc, c, "the traffic of '%s' is not counted exactly (see its diagnostics)", g->name);
}

/* A library call touches whole buffers: record that as accesses with ndims == 0. */
static void lib_access(struct fctx *fc, struct kc_node *st, CXCursor call, int argi, int role)
{
	if (argi >= clang_Cursor_getNumArguments(call))
		return;
	int b = arg_buffer(fc, clang_Cursor_getArgument(call, (unsigned)argi));
	if (b < 0)
		return;
	struct kc_access acc = {0};
	acc.buffer = b;
	acc.loc = kc_cx_loc(fc->fe, call);
	if (role & ROLE_READ)
		add_access(fc, st, &acc);
	acc.is_write = 1;
	if (role & ROLE_WRITE)
		add_access(fc, st, &acc);
}

/* A CBLAS call costed by its built-in model (libcalls.c): 1 if name is a CBLAS routine (counted, or not with a
 * warning), 0 if it is none. */
static int library_call(struct fctx *fc, CXCursor c, const char *name, struct kc_node *st)
{
	const struct kc_libcall *lc;
	int prec;
	if (!kc_libcall_find(name, clang_Cursor_getNumArguments(c), &prec, &lc))
		return 0;
	struct kc_poly *size[KC_LIB_MAX_ARGS];
	for (int i = 0; lc && i < lc->n_sizes; i++)
		if (kc_affine_expr(fc, clang_Cursor_getArgument(c, (unsigned)lc->size_arg[i]), &size[i]) < 0)
			lc = NULL;
	if (!lc) {
		kc_cx_warn(fc, c, KC_WARNING, "no cost model for '%s': not counted", name);
		return 1;
	}
	int reads_c = lc->beta_arg >= 0 && !kc_cx_is_zero_literal(clang_Cursor_getArgument(c, (unsigned)lc->beta_arg));
	if (lc->cost(fc->fe->a, size, prec == KC_PREC_F32 ? 4 : 8, reads_c, prec, &st->lib_cost, &st->lib_min) < 0) {
		memset(&st->lib_cost, 0, sizeof st->lib_cost);
		memset(&st->lib_min, 0, sizeof st->lib_min);
		kc_cx_warn(fc, c, KC_WARNING, "the cost of '%s' overflows: not counted", name);
		return 1;
	}
	for (int i = 0; i < lc->n_buffers; i++) {
		int role = lc->buffer_role[i];
		lib_access(fc, st, c, lc->buffer_arg[i], role == KC_LIB_OUT ? (reads_c ? ROLE_RW : ROLE_WRITE) : role);
	}
	st->lib_call = kc_arena_strdup(fc->fe->a, name);
	return 1;
}

/* ------------------------------------------------------------------------------------------------ */
/* Statements */

static struct kc_node *stmt_node(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	return new_node(fc, KC_NODE_STMT, c, parent);
}

/* Drop a statement node that turned out to cost nothing. */
static void drop_if_empty(struct kc_node *parent, struct kc_node *st)
{
	if (st->n_accesses || st->call || st->lib_call || st->cost.cmp || st->cost.n_trans || st->n_sc_reads ||
	    st->n_sc_writes)
		return;
	for (int o = 0; o < KC_OP_N; o++)
		for (int p = 0; p < KC_PREC_N; p++)
			if (st->cost.ops[o][p])
				return;
	struct kc_node *prev = NULL;
	for (struct kc_node *n = parent->first; n; prev = n, n = n->next)
		if (n == st) {
			if (prev)
				prev->next = NULL;
			else
				parent->first = NULL;
			parent->last = prev;
			return;
		}
}

/* A size parameter the body assigns is, from there on, an integer of known value (its symbol, then what the
 * assignments make of it). */
static void size_to_int(struct fctx *fc, struct var *v)
{
	v->kind = V_INT;
	v->value = v->sym >= 0 ? kc_poly_sym(fc->fe->a, v->sym) : NULL;
	v->n_minmax = 0;
}

static void lower_expr_stmt(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	/* integer bookkeeping on tracked variables: i = expr, i += c */
	CXCursor s = kc_cx_strip(c);
	if (clang_getCursorKind(s) == CXCursor_BinaryOperator ||
	    clang_getCursorKind(s) == CXCursor_CompoundAssignOperator) {
		struct child_list l;
		kc_cx_children(s, &l);
		struct var *v = l.n == 2 ? kc_affine_var_of(fc, l.c[0]) : NULL;
		int assign = clang_getCursorBinaryOperatorKind(s) == CXBinaryOperator_Assign;
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(s);
		if (v && v->kind == V_SIZE &&
		    assign + (op >= CXBinaryOperator_MulAssign && op <= CXBinaryOperator_OrAssign))
			size_to_int(fc, v); /* n *= inc_x: from here on n is that value, not the size */
		if (v && v->kind == V_INT && !v->ind_after) {
			/* in a loop, the value holds for the rest of the iteration (forget_written: not before it);
			 * ix += incx adds to a known value */
			struct kc_poly *val, *old = v->value;
			int step = op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign ||
			           op == CXBinaryOperator_MulAssign;
			v->value = (assign || (step && old)) && kc_affine_expr(fc, l.c[1], &val) == 0 ? val : NULL;
			if (step && v->value &&
			    (op == CXBinaryOperator_AddAssign   ? kc_poly_add(fc->fe->a, old, val, &v->value)
			     : op == CXBinaryOperator_SubAssign ? kc_poly_sub(fc->fe->a, old, val, &v->value)
			                                        : kc_poly_mul(fc->fe->a, old, val, &v->value)) < 0)
				v->value = NULL;
			v->n_minmax = 0;
		} else if (v && assign && !v->ind_after && is_pointer_like(l.c[0]) &&
		           (v->kind == V_ALIAS || v->kind == V_OTHER ||
		            (v->kind == V_BUFFER && !fc->fn->buffers[v->buffer].is_local_array))) {
			/* aptr = a + off: a pointer into a buffer from here on (else no longer followed) */
			struct kc_poly *off;
			struct var *b = pointer_base(fc, l.c[1], &off);
			struct kc_poly *base_off = b && b->kind == V_ALIAS ? b->offset : kc_poly_zero(fc->fe->a);
			struct kc_access acc;
			struct child_list rl = {0};
			CXCursor r = kc_cx_strip(l.c[1]);
			if (clang_getCursorKind(r) == CXCursor_UnaryOperator &&
			    clang_getCursorUnaryOperatorKind(r) == CXUnaryOperator_AddrOf)
				kc_cx_children(r, &rl);
			if (b && base_off && kc_poly_add(fc->fe->a, base_off, off, &off) == 0) {
				int buffer = b->buffer;
				v->kind = V_ALIAS;
				v->buffer = buffer;
				v->offset = off;
			} else if (!b && rl.n == 1 && resolve_access(fc, rl.c[0], &acc) == 0 && acc.ndims == 1 &&
			           acc.index[0]) {
				/* y = &out[i]: as a declaration's initializer */
				v->kind = V_ALIAS;
				v->buffer = acc.buffer;
				v->offset = acc.index[0];
			} else {
				v->kind = V_OTHER;
			}
		}
	}
	if (clang_getCursorKind(s) == CXCursor_UnaryOperator) { /* i++ of a known value */
		struct child_list l;
		kc_cx_children(s, &l);
		enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(s);
		struct var *v = l.n == 1 ? kc_affine_var_of(fc, l.c[0]) : NULL;
		if (v && v->kind == V_SIZE && u >= CXUnaryOperator_PostInc && u <= CXUnaryOperator_PreDec)
			size_to_int(fc, v);
		if (v && v->kind == V_INT && !v->ind_after && u >= CXUnaryOperator_PostInc &&
		    u <= CXUnaryOperator_PreDec) {
			int up = u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc;
			if (v->value &&
			    kc_poly_add(fc->fe->a, v->value, kc_poly_const(fc->fe->a, up ? 1 : -1, 1), &v->value) < 0)
				v->value = NULL;
			v->n_minmax = 0;
		}
	}
	struct kc_node *st = stmt_node(fc, c, parent);
	collect_expr(fc, c, st, 0);
	drop_if_empty(parent, st);
}

static void lower_var_decl(struct fctx *fc, CXCursor d, struct kc_node *parent)
{
	CXType t = clang_getCursorType(d);
	struct child_list l;
	kc_cx_children(d, &l);
	CXCursor init = clang_getNullCursor();
	for (int i = l.n - 1; i >= 0; i--)
		if (clang_isExpression(clang_getCursorKind(l.c[i]))) {
			init = l.c[i];
			break;
		}
	int ndims, is_pointer;
	CXType elem = kc_cx_element_type(t, &ndims, &is_pointer);
	enum CXTypeKind tk = clang_getCanonicalType(t).kind;
	if (tk == CXType_ConstantArray || tk == CXType_VariableArray) {
		int id = kc_decl_buffer(fc, d, elem);
		fc->fn->buffers[id].is_local_array = 1;
		fc->dims[id].ndims = kc_decl_dims(fc, d, fc->dims[id].dim, KC_MAX_DIMS);
		if (ndims > KC_MAX_DIMS) {
			kc_cx_warn(fc, d, KC_WARNING,
			           "'%s' has more than " KC_TEXT(KC_MAX_DIMS) " dimensions: its extent is "
			                                                      "unknown",
			           fc->fn->buffers[id].name);
			fc->dims[id].ndims = 0;
		}
		fc->fn->buffers[id].extent = kc_decl_product(fc, fc->dims[id].dim, fc->dims[id].ndims);
		struct var *v = kc_affine_add_var(fc, d, V_BUFFER);
		if (v)
			v->buffer = id;
		return;
	}
	if (is_pointer && !clang_Cursor_isNull(init)) {
		CXCursor s = kc_cx_strip(init);
		if (clang_getCursorKind(s) == CXCursor_CallExpr) {
			char *callee = kc_cx_spelling(fc->fe->a, s);
			if (!strcmp(callee, "malloc") || !strcmp(callee, "calloc") ||
			    !strcmp(callee, "aligned_alloc")) {
				int id = kc_decl_buffer(fc, d, elem);
				struct kc_buffer *b = &fc->fn->buffers[id];
				b->is_heap = 1;
				fc->dims[id].ndims = 1;
				struct kc_poly *bytes = NULL, *n2;
				int nargs = clang_Cursor_getNumArguments(s);
				if (nargs >= 1 &&
				    kc_affine_expr(fc, clang_Cursor_getArgument(s, (unsigned)nargs - 1), &bytes) == 0) {
					int ok = 1;
					if (!strcmp(callee, "calloc") && nargs == 2 &&
					    kc_affine_expr(fc, clang_Cursor_getArgument(s, 0), &n2) == 0)
						ok = kc_poly_mul(fc->fe->a, bytes, n2, &bytes) == 0;
					if (!ok || kc_poly_scale(fc->fe->a, bytes, (struct kc_rat){1, b->elem_size},
					                         &b->extent) < 0) {
						b->extent = NULL;
						kc_cx_warn(fc, s, KC_WARNING,
						           "the size of '%s' overflows: its extent is unknown",
						           b->name);
					}
				}
				fc->dims[id].dim[0] = b->extent;
				struct var *v = kc_affine_add_var(fc, d, V_BUFFER);
				if (v)
					v->buffer = id;
				return;
			}
		}
		/* an alias: p = a + off, p = &a[i][0], p = a[i] */
		struct kc_access acc;
		struct var *base = kc_affine_var_of(fc, s);
		struct var *v = NULL;
		if (base && (base->kind == V_BUFFER || base->kind == V_ALIAS)) {
			v = kc_affine_add_var(fc, d, V_ALIAS);
			if (v) {
				v->buffer = base->buffer;
				v->offset = base->kind == V_ALIAS ? base->offset : kc_poly_zero(fc->fe->a);
			}
		} else if (clang_getCursorKind(s) == CXCursor_BinaryOperator) {
			struct kc_poly *off;
			struct var *b2 = pointer_base(fc, s, &off), *g;
			if (b2 && (v = kc_affine_add_var(fc, d, V_ALIAS))) {
				v->buffer = b2->buffer;
				struct kc_poly *base_off = b2->kind == V_ALIAS ? b2->offset : kc_poly_zero(fc->fe->a);
				if (!base_off || kc_poly_add(fc->fe->a, base_off, off, &v->offset) < 0) {
					v->offset = NULL;
					if (base_off)
						kc_cx_warn(
						    fc, s, KC_WARNING,
						    "the offset of '%s' overflows: its accesses' footprint is unknown",
						    kc_cx_spelling(fc->fe->a, d));
				}
			} else if (!b2 && (g = gather_base(fc, s)) && (v = kc_affine_add_var(fc, d, V_ALIAS))) {
				/* float *row = wte + ids[t]*C: into wte, at an element the data decide (ids[t] is read)
				 */
				v->buffer = g->buffer;
				v->offset = NULL;
				struct kc_node *st = stmt_node(fc, d, parent);
				collect_expr(fc, s, st, ROLE_READ);
				drop_if_empty(parent, st);
			}
		} else if (clang_getCursorKind(s) == CXCursor_UnaryOperator ||
		           clang_getCursorKind(s) == CXCursor_ArraySubscriptExpr) {
			CXCursor target = s;
			if (clang_getCursorKind(s) == CXCursor_UnaryOperator) {
				struct child_list ul;
				kc_cx_children(s, &ul);
				target = ul.n == 1 ? ul.c[0] : s;
			}
			if (resolve_access(fc, target, &acc) == 0 && acc.ndims == 1 && acc.index[0] &&
			    (v = kc_affine_add_var(fc, d, V_ALIAS))) {
				v->buffer = acc.buffer;
				v->offset = acc.index[0];
			}
		}
		if (v)
			return;
	}
	if (kc_cx_is_integer_type(t)) {
		struct var *v = kc_affine_add_var(fc, d, V_INT);
		struct kc_poly *val;
		if (v && !clang_Cursor_isNull(init) && kc_affine_expr(fc, init, &val) == 0)
			v->value = val;
		else if (v && !clang_Cursor_isNull(init) && clang_Cursor_getStorageClass(d) != CX_SC_Static)
			kc_affine_note_minmax(fc, v, init);
		if (!clang_Cursor_isNull(init) && !(v && v->n_minmax)) { /* a bound's min: integer bookkeeping */
			struct kc_node *st = stmt_node(fc, d, parent);
			collect_expr(fc, init, st, ROLE_READ);
			drop_if_empty(parent, st);
		}
		return;
	}
	struct var *v = kc_affine_add_var(fc, d, kc_cx_float_prec(t) >= 0 ? V_SCALAR : V_OTHER);
	if (v && v->kind == V_SCALAR)
		number_scalar(fc, v, d, parent);
	if (!clang_Cursor_isNull(init)) {
		struct kc_node *st = stmt_node(fc, d, parent);
		collect_expr(fc, init, st, ROLE_READ);
		scalar_use(fc, st, v, ROLE_WRITE);
		drop_if_empty(parent, st);
	}
}

/* The expressions of a for-init: an expression, or a declaration's initializers. */
static void collect_init(struct fctx *fc, CXCursor init, struct kc_node *st)
{
	if (clang_getCursorKind(init) != CXCursor_DeclStmt) {
		collect_expr(fc, init, st, ROLE_READ);
		return;
	}
	struct child_list decls;
	kc_cx_children(init, &decls);
	for (int i = 0; i < decls.n; i++) {
		struct child_list l;
		kc_cx_children(decls.c[i], &l);
		for (int k = 0; k < l.n; k++)
			if (clang_isExpression(clang_getCursorKind(l.c[k])))
				collect_expr(fc, l.c[k], st, ROLE_READ);
	}
}

/* The assignments, increments and address-of operators in a statement, found once per statement (and while
 * loop step skipped) and kept for the function: the loop lowering asks a body which variables it writes several
 * times (the loop variable, its bounds' variables, each induction candidate, what to forget), and an outer
 * loop's body holds the inner ones'. A site keeps its lvalue cursor: which variable it names is resolved when
 * asked, as the variables known then say. */
enum { W_INC, W_DEC, W_ADDR, W_ADD, W_SUB, W_ASSIGN };

struct write_site {
	CXCursor lhs, amount; /* amount: of W_ADD, W_SUB */
	int kind;
};

struct writes {
	CXCursor root, skip;
	struct write_site *s;
	int n, too_deep;
	struct writes *next;
};

struct site_vec {
	struct write_site *s;
	int n, cap, too_deep;
};

static void site_push(struct site_vec *v, CXCursor lhs, CXCursor amount, int kind)
{
	if (v->n == v->cap) {
		int cap = v->cap ? 2 * v->cap : 16;
		struct write_site *g = realloc(v->s, sizeof *g * (size_t)cap);
		if (!g)
			abort();
		v->s = g;
		v->cap = cap;
	}
	v->s[v->n++] = (struct write_site){lhs, amount, kind};
}

static const struct writes *writes_at(struct fctx *fc, CXCursor c, int depth);

static void collect_sites(struct fctx *fc, CXCursor c, struct site_vec *v, int depth)
{
	if (depth > KC_MAX_DEPTH) {
		v->too_deep = 1;
		return;
	}
	if (!clang_Cursor_isNull(fc->skip_stmt) && clang_equalCursors(c, fc->skip_stmt))
		return; /* a while loop's step, its increment */
	enum CXCursorKind k = clang_getCursorKind(c);
	struct child_list l;
	kc_cx_children(c, &l);
	if (k == CXCursor_UnaryOperator && l.n == 1) {
		enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(c);
		if (u == CXUnaryOperator_AddrOf)
			site_push(v, l.c[0], clang_getNullCursor(), W_ADDR);
		else if (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc)
			site_push(v, l.c[0], clang_getNullCursor(), W_INC);
		else if (u == CXUnaryOperator_PostDec || u == CXUnaryOperator_PreDec)
			site_push(v, l.c[0], clang_getNullCursor(), W_DEC);
	} else if ((k == CXCursor_CompoundAssignOperator || k == CXCursor_BinaryOperator) && l.n == 2) {
		enum CXBinaryOperatorKind b = clang_getCursorBinaryOperatorKind(c);
		if (b == CXBinaryOperator_AddAssign || b == CXBinaryOperator_SubAssign)
			site_push(v, l.c[0], l.c[1], b == CXBinaryOperator_AddAssign ? W_ADD : W_SUB);
		else if (b >= CXBinaryOperator_Assign && b <= CXBinaryOperator_OrAssign)
			site_push(v, l.c[0], clang_getNullCursor(), W_ASSIGN);
	}
	/* a loop's body is asked for again when its loop is lowered: its sites are found once, kept, and copied
	 * here in the order this walk finds them */
	int body = -1;
	if (l.n && (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt))
		body = k == CXCursor_DoStmt ? 0 : l.n - 1;
	for (int i = 0; i < l.n; i++) {
		if (i != body) {
			collect_sites(fc, l.c[i], v, depth + 1);
			continue;
		}
		const struct writes *w = writes_at(fc, l.c[i], depth + 1);
		for (int j = 0; j < w->n; j++)
			site_push(v, w->s[j].lhs, w->s[j].amount, w->s[j].kind);
		v->too_deep |= w->too_deep;
	}
}

/* The write sites of c, a walk from `depth` (KC_MAX_DEPTH counts from the statement first asked for: a
 * body first found inside its outer loop's walk keeps that walk's limit). */
static const struct writes *writes_at(struct fctx *fc, CXCursor c, int depth)
{
	unsigned h = clang_hashCursor(c) % (sizeof fc->writes_memo / sizeof fc->writes_memo[0]);
	for (struct writes *w = fc->writes_memo[h]; w; w = w->next)
		if (clang_equalCursors(w->root, c) && clang_equalCursors(w->skip, fc->skip_stmt))
			return w;
	struct site_vec v = {0};
	collect_sites(fc, c, &v, depth);
	struct writes *w = KC_NEW(fc->fe->a, struct writes);
	*w = (struct writes){c, fc->skip_stmt, NULL, v.n, v.too_deep, fc->writes_memo[h]};
	if (v.n) {
		w->s = KC_NEW_N(fc->fe->a, struct write_site, v.n);
		memcpy(w->s, v.s, sizeof *v.s * (size_t)v.n);
	}
	free(v.s);
	fc->writes_memo[h] = w;
	return w;
}

static const struct writes *writes_in(struct fctx *fc, CXCursor c)
{
	return writes_at(fc, c, 0);
}

/* Variables a loop's body writes (other than its induction variables) have no known value in it: a later
 * iteration reads what an earlier one wrote. An integer's value is forgotten, a pointer is no longer followed
 * (`p += s[i]`: its accesses may reach anything). */
static void forget_written(struct fctx *fc, CXCursor c)
{
	const struct writes *ws = writes_in(fc, c);
	for (int i = 0; i < ws->n; i++) {
		struct var *w = kc_affine_var_of(fc, ws->s[i].lhs);
		if (!w || w->ind_after)
			continue;
		if (w->kind == V_SIZE) /* a size the loop changes: no value in it */
			w->kind = V_INT;
		if (w->kind == V_INT) {
			w->value = NULL;
			w->n_minmax = 0;
		} else if (w->kind == V_ALIAS || (w->kind == V_BUFFER && !fc->fn->buffers[w->buffer].is_local_array)) {
			w->kind = V_OTHER;
		}
	}
}

static void lower_body(struct fctx *fc, CXCursor body, struct kc_node *parent)
{
	if (clang_Cursor_isNull(body))
		return;
	forget_written(fc, body);
	fc->loop_depth++;
	lower_stmt(fc, body, parent);
	fc->loop_depth--;
	forget_written(fc, body); /* what the last iteration assigned may hold its loop variables */
}

/* Any break, continue, return, goto or label in the statement c. */
static int any_jump(CXCursor c, int depth)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_ReturnStmt ||
	    k == CXCursor_GotoStmt || k == CXCursor_LabelStmt || depth >= KC_MAX_DEPTH)
		return 1;
	if (clang_isExpression(k))
		return 0;
	struct child_list l;
	kc_cx_children(c, &l);
	for (int i = 0; i < l.n; i++)
		if (any_jump(l.c[i], depth + 1))
			return 1;
	return 0;
}

#define KC_MAX_UNROLL       256  /* iterations of a loop over a const table lowered one by one */
#define KC_MAX_UNROLL_TOTAL 1024 /* and of all such loops of a function (nested ones multiply) */

/* A loop of constant bounds and at most KC_MAX_UNROLL trips whose body reads a const table at its variable
 * (rnnoise's bands: for (i = 0; i < NB_BANDS + 1; i++) { band_size = eband20ms[i+1] - eband20ms[i]; for (j = 0;
 * j < band_size; j++) ... }): each iteration is lowered in turn with the variable at its value, so the table's
 * entries bound the inner loops and index the buffers exactly. The loop becomes a block of one block per
 * iteration; what later iterations repeat of the first one's diagnostics is dropped. A function unrolls at most
 * KC_MAX_UNROLL_TOTAL iterations in all (a nest of such loops multiplies them): past it, loops are counted as
 * loops (their table-read bounds flagged). 1 when done so. */
static int unroll_by_table(struct fctx *fc, struct kc_node *loop, struct var *v, CXCursor body)
{
	struct kc_rat lo, hi;
	if (loop->step_by || loop->n_lower != 1 || loop->n_upper != 1 || clang_Cursor_isNull(body) ||
	    !kc_poly_is_const(loop->lower[0], &lo) || !kc_poly_is_const(loop->upper[0], &hi) || lo.den != 1 ||
	    hi.den != 1 || hi.num < lo.num)
		return 0;
	long long s = loop->step, as = s > 0 ? s : -s;
	__int128 trips = (hi.num - lo.num) / as + 1;
	if (trips > KC_MAX_UNROLL || fc->n_unrolled + trips > KC_MAX_UNROLL_TOTAL || any_jump(body, 0) ||
	    !kc_affine_reads_table(fc, body, v, 0))
		return 0;
	fc->n_unrolled += (int)trips;
	loop->kind = KC_NODE_BLOCK;
	loop->unrolled = 1;
	const struct kc_diag *mark = fc->fn->diags.tail;
	fc->loop_depth++;
	for (long long t = 0; t < (long long)trips; t++) {
		v->kind = V_INT;
		v->value = kc_poly_const(fc->fe->a, s > 0 ? (long long)lo.num + t * as : (long long)hi.num - t * as, 1);
		v->n_minmax = 0;
		lower_stmt(fc, body, new_node(fc, KC_NODE_BLOCK, body, loop));
	}
	fc->loop_depth--;
	kc_diags_drop_repeats(&fc->fn->diags, mark);
	v->kind = V_INT;
	v->value =
	    kc_poly_const(fc->fe->a, s > 0 ? (long long)(lo.num + trips * as) : (long long)(hi.num - trips * as), 1);
	v->n_minmax = 0;
	return 1;
}

/* ------------------------------------------------------------------------------------------------ */
/* Induction variables. In a loop of step +-1, an integer with a known value or a pointer to a buffer that is
 * stepped once per iteration by a loop-invariant amount e, in one top-level expression statement of the body
 * and written nowhere else in it (`ix += incx;`, `*y++ += a * *x++;`, `p += stride;`), has the value
 * w0 + e*u in iteration u (u = 0, 1, ...) up to that statement and w0 + e*(u + 1) after it, and
 * w0 + e*trips after the loop: its accesses are affine (dx[ix] is dx[ix0 + incx*i]). */

struct induction {
	struct var *w;
	struct kc_poly *w0, *e;
	int was_buffer; /* a buffer parameter made an alias for the loop */
	int is_pointer, buffer;
};

struct ind_set {
	struct induction *ind;
	int n;
};

/* The writes of w in c: incremented by *e (a unary ++/-- or += -= w = w + e; *e NULL when the amount is not
 * affine), and other writes (w = x, &w) counted in *other. */
static void writes_of(struct fctx *fc, CXCursor c, const struct var *w, int *incs, struct kc_poly **e, int *other)
{
	struct kc_arena *a = fc->fe->a;
	const struct writes *ws = writes_in(fc, c);
	*other += ws->too_deep;
	for (int i = 0; i < ws->n; i++) {
		const struct write_site *s = &ws->s[i];
		if (kc_affine_var_of(fc, s->lhs) != w)
			continue;
		struct kc_poly *x;
		switch (s->kind) {
		case W_ADDR:
		case W_ASSIGN: /* w = x, w *= x, &w ... (not w, x: a comma) */
			(*other)++;
			break;
		case W_INC:
		case W_DEC:
			(*incs)++;
			*e = kc_poly_const(a, s->kind == W_INC ? 1 : -1, 1);
			break;
		default:
			(*incs)++;
			if (kc_affine_expr(fc, s->amount, &x) < 0 || (s->kind == W_SUB && kc_poly_neg(a, x, &x) < 0))
				x = NULL;
			*e = x;
		}
	}
}

/* The variables stepped by the top-level statement s (candidates, each once, into set). */
static void candidates_in(struct fctx *fc, CXCursor s, CXCursor c, struct ind_set *set, int cap, int depth)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	struct child_list l;
	kc_cx_children(c, &l);
	if (depth > 64)
		return;
	struct var *w = NULL;
	if (k == CXCursor_UnaryOperator && l.n == 1) {
		enum CXUnaryOperatorKind u = clang_getCursorUnaryOperatorKind(c);
		if (u >= CXUnaryOperator_PostInc && u <= CXUnaryOperator_PreDec &&
		    (depth == 0 || u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PostDec))
			w = kc_affine_var_of(fc, l.c[0]);
	} else if (k == CXCursor_CompoundAssignOperator && l.n == 2 && depth == 0) {
		w = kc_affine_var_of(fc, l.c[0]);
	}
	if (w && ((w->kind == V_INT && w->value) || w->kind == V_ALIAS ||
	          (w->kind == V_BUFFER && fc->dims[w->buffer].ndims <= 1))) {
		int seen = 0;
		for (int i = 0; i < set->n; i++)
			seen |= set->ind[i].w == w;
		if (!seen && set->n < cap) {
			set->ind[set->n] = (struct induction){w, NULL, NULL, 0, 0, 0};
			w->ind_stmt = s;
			set->n++;
		}
	}
	for (int i = 0; i < l.n; i++)
		candidates_in(fc, s, l.c[i], set, cap, depth + 1);
}

#define MAX_INDUCTIONS 8

static void begin_inductions(struct fctx *fc, struct ind_set *set, const struct kc_node *loop, CXCursor body)
{
	set->n = 0;
	set->ind = NULL;
	long long step = loop->step;
	if ((step != 1 && step != -1) || clang_Cursor_isNull(body))
		return;
	struct child_list l;
	int one = clang_getCursorKind(body) != CXCursor_CompoundStmt;
	if (!one)
		kc_cx_children(body, &l);
	const CXCursor *stmts = one ? &body : l.c;
	int n = one ? 1 : l.n;
	struct induction found[MAX_INDUCTIONS];
	struct ind_set cand = {found, 0};
	for (int i = 0; i < n; i++)
		if (clang_isExpression(clang_getCursorKind(stmts[i])))
			candidates_in(fc, stmts[i], kc_cx_strip(stmts[i]), &cand, MAX_INDUCTIONS, 0);
	if (!cand.n)
		return;
	struct kc_arena *a = fc->fe->a;
	struct kc_poly *v = kc_poly_sym(a, loop->var), *start = step > 0 ? loop->lower[0] : loop->upper[0], *u;
	if ((step > 0 ? kc_poly_sub(a, v, start, &u) : kc_poly_sub(a, start, v, &u)) < 0)
		return;
	set->ind = KC_NEW_N(a, struct induction, cand.n);
	for (int i = 0; i < cand.n; i++) {
		struct var *w = found[i].w;
		int incs = 0, other = 0;
		struct kc_poly *e = NULL, *cur, *after, *eu;
		writes_of(fc, body, w, &incs, &e, &other);
		struct kc_poly *w0 = w->kind == V_INT ? w->value : w->kind == V_ALIAS ? w->offset : kc_poly_zero(a);
		if (incs != 1 || other || !e || !w0 || kc_poly_has_sym(e, loop->var) || kc_poly_mul(a, e, u, &eu) < 0 ||
		    kc_poly_add(a, w0, eu, &cur) < 0 || kc_poly_add(a, cur, e, &after) < 0) {
			w->ind_stmt = clang_getNullCursor();
			continue;
		}
		struct induction *in = &set->ind[set->n++];
		*in = (struct induction){w, w0, e, w->kind == V_BUFFER, w->kind != V_INT, w->buffer};
		w->ind_after = after;
		if (w->kind == V_INT) {
			w->value = cur;
		} else {
			w->kind = V_ALIAS;
			w->offset = cur;
		}
	}
}

/* After statement s of the body: the inductions it steps take their value for the rest of the iteration. */
static void advance_inductions(struct fctx *fc, CXCursor s)
{
	for (struct ind_set *set = fc->inductions; set; set = NULL)
		for (int i = 0; i < set->n; i++) {
			struct var *w = set->ind[i].w;
			if (!w->ind_after || !clang_equalCursors(w->ind_stmt, s))
				continue;
			if (w->kind == V_INT)
				w->value = w->ind_after;
			else
				w->offset = w->ind_after;
			w->ind_after = NULL;
		}
}

/* After the loop: w0 + e*trips (trips from the loop variable's exit value; unknown: no value, and a pointer
 * is no longer followed). */
static void end_inductions(struct fctx *fc, struct ind_set *set, const struct kc_node *loop, struct kc_poly *exit)
{
	struct kc_arena *a = fc->fe->a;
	struct kc_poly *start = loop->step > 0 ? loop->lower[0] : loop->upper[0], *trips = NULL;
	if (exit && (loop->step > 0 ? kc_poly_sub(a, exit, start, &trips) : kc_poly_sub(a, start, exit, &trips)) < 0)
		trips = NULL;
	for (int i = 0; i < set->n; i++) {
		struct induction *in = &set->ind[i];
		struct var *w = in->w;
		struct kc_poly *et, *val = NULL;
		if (trips && (kc_poly_mul(a, in->e, trips, &et) < 0 || kc_poly_add(a, in->w0, et, &val) < 0))
			val = NULL;
		w->ind_after = NULL;
		w->ind_stmt = clang_getNullCursor();
		if (!in->is_pointer) {
			w->kind = V_INT;
			w->value = val;
		} else if (val) {
			w->kind = V_ALIAS;
			w->buffer = in->buffer;
			w->offset = val;
		} else {
			w->kind = V_OTHER;
		}
	}
}

static void lower_for_parts(struct fctx *fc, CXCursor c, struct kc_cx_for_parts p, struct kc_node *parent);

/* A variable of the loop's condition (other than its variable v) that the body writes, or NULL. */
static struct var *bound_written(struct fctx *fc, CXCursor cond, CXCursor body, const struct var *v, int depth)
{
	if (clang_getCursorKind(cond) == CXCursor_DeclRefExpr) {
		struct var *w = kc_affine_var_of(fc, cond);
		int incs = 0, other = 0;
		struct kc_poly *e;
		if (w && w != v && (w->kind == V_SIZE || w->kind == V_INT))
			writes_of(fc, body, w, &incs, &e, &other);
		return incs + other ? w : NULL;
	}
	struct child_list l;
	kc_cx_children(cond, &l);
	for (int i = 0; i < l.n && depth < KC_MAX_DEPTH; i++) {
		struct var *w = bound_written(fc, l.c[i], body, v, depth + 1);
		if (w)
			return w;
	}
	return NULL;
}

static void lower_for(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	struct kc_cx_for_parts p;
	kc_cx_split_for(c, &p);
	lower_for_parts(fc, c, p, parent);
}

/* 1 unless the comparison `cond` is false at the benchmark sizes (0), before a do-while's first test: both sides
 * affine and evaluated there; without values (or for another form), 1: the closed form assumes it, as it assumes
 * loops run a non-negative number of times. */
static int holds_on_entry(struct fctx *fc, CXCursor cond)
{
	cond = kc_cx_strip(cond);
	struct child_list l;
	kc_cx_children(cond, &l);
	struct kc_poly *x, *y;
	long long vx, vy;
	const char *why;
	if (clang_getCursorKind(cond) != CXCursor_BinaryOperator || l.n != 2 || kc_affine_expr(fc, l.c[0], &x) < 0 ||
	    kc_affine_expr(fc, l.c[1], &y) < 0 || kc_function_eval(fc->fn, x, &vx, &why) < 0 ||
	    kc_function_eval(fc->fn, y, &vy, &why) < 0)
		return 1;
	switch (clang_getCursorBinaryOperatorKind(cond)) {
	case CXBinaryOperator_LT:
		return vx < vy;
	case CXBinaryOperator_LE:
		return vx <= vy;
	case CXBinaryOperator_GT:
		return vx > vy;
	case CXBinaryOperator_GE:
		return vx >= vy;
	case CXBinaryOperator_NE:
		return vx != vy;
	default:
		return 1;
	}
}

/* while (i < n) { ...; i++; } and do { ...; i--; } while (i > 0): the for loop each is, when the body's last
 * statement steps a variable of known value that nothing else in the body writes (that statement is then the
 * increment, not lowered again). A do-while is one only where its condition (on that variable) holds on entry
 * (OpenBLAS guards its loops with `if (i > 0)`): false there at the benchmark sizes, the body runs once, which no
 * for loop does. -1 when the loop is not of this form. */
static int lower_as_for(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	int is_do = clang_getCursorKind(c) == CXCursor_DoStmt;
	struct child_list l, b;
	kc_cx_children(c, &l);
	if (l.n != 2)
		return -1;
	CXCursor cond = l.c[is_do], body = l.c[!is_do];
	if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
		return -1;
	kc_cx_children(body, &b);
	if (!b.n || !clang_isExpression(clang_getCursorKind(b.c[b.n - 1])))
		return -1;
	CXCursor inc = kc_cx_strip(b.c[b.n - 1]);
	struct child_list il;
	kc_cx_children(inc, &il);
	struct var *v = il.n >= 1 ? kc_affine_var_of(fc, il.c[0]) : NULL;
	long long step;
	int incs = 0, other = 0;
	struct kc_poly *e = NULL, *by;
	if (!v || v->kind != V_INT || !v->value || (il.n == 2 && kc_affine_refers_to(fc, il.c[1], v, 0)) ||
	    kc_affine_loop_step(fc, inc, v, &step, &by) < 0 || (is_do && !kc_affine_refers_to(fc, cond, v, 0)))
		return -1;
	writes_of(fc, body, v, &incs, &e, &other);
	if (incs != 1 || other || (is_do && !holds_on_entry(fc, cond)))
		return -1;
	CXCursor outer = fc->skip_stmt;
	fc->skip_stmt = b.c[b.n - 1];
	lower_for_parts(fc, c, (struct kc_cx_for_parts){clang_getNullCursor(), cond, inc, body}, parent);
	fc->skip_stmt = outer;
	return 0;
}

static enum CXChildVisitResult float_work_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	enum CXCursorKind k = clang_getCursorKind(c);
	int *found = data; /* found[1]: calls count */
	if (k == CXCursor_CallExpr && found[1]) {
		*found = 1;
		return CXChildVisit_Break;
	}
	if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator) {
		struct child_list l;
		kc_cx_children(c, &l);
		if (kc_cx_float_prec(clang_getCursorType(c)) >= 0 ||
		    (l.n && kc_cx_float_prec(clang_getCursorType(l.c[0])) >= 0)) {
			*found = 1;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* 1 when the expression c (a loop's condition or step; null: none) may do an operation kcost counts: a
 * floating-point operator or comparison, or a call. Conservative: a dereference of a float pointer counts. */
static int work_in(CXCursor c, int calls)
{
	int found[2] = {0, calls};
	if (!clang_Cursor_isNull(c)) {
		float_work_visit(c, clang_getNullCursor(), found);
		if (!found[0])
			clang_visitChildren(c, float_work_visit, found);
	}
	return found[0];
}

static int may_do_work(CXCursor c)
{
	return work_in(c, 1);
}

/* A loop whose trip count kcost does not know, counted once: the warning is of its traffic when neither its
 * condition nor its step does an operation, and count.c clears the operation counts' exactness when its body
 * does one (a copy loop's operation counts are exact, 0, whatever its trip count). */
static void unknown_trips(struct fctx *fc, struct kc_node *loop, CXCursor at, CXCursor cond, CXCursor inc,
                          const char *fmt, const char *arg)
{
	loop->inexact = loop->unknown_trips = 1;
	loop->untaken = fc->untaken > 0 || untaken(fc, loop);
	if (may_do_work(cond) || may_do_work(inc))
		kc_cx_warn(fc, at, KC_WARNING, fmt, arg);
	else
		kc_cx_warn_traffic(fc, at, fmt, arg);
}

static void lower_for_parts(struct fctx *fc, CXCursor c, struct kc_cx_for_parts p, struct kc_node *parent)
{
	struct kc_node *loop = new_node(fc, KC_NODE_LOOP, c, parent);
	fc->fn->has_loops = 1;
	struct kc_poly *start;
	struct var *v = kc_affine_loop_var(fc, &p, &start);
	if (v && fc->n_trips)
		kc_affine_trips(fc, v); /* the annotation names a loop, whether or not its bounds need it */
	long long step = 0;
	int bounds = -1, wraps = 0, written = 0;
	struct var *bound_var = NULL;
	struct kc_poly *by;
	if (v && kc_affine_loop_step(fc, p.inc, v, &step, &by) == 0) {
		loop->var = v->sym;
		loop->step = step;
		loop->step_by = by;
		long long value;
		const char *why;
		if (by && kc_function_eval(fc->fn, by, &value, &why) < 0) {
			struct kc_buf b = KC_BUF_INIT;
			kc_poly_format(by, fc->fn->syms.names, &b);
			kc_cx_warn(fc, p.inc, KC_NOTE, "the loop's step %s is taken to be positive (it has no value)",
			           kc_buf_str(&b));
			kc_buf_release(&b);
		}
		int incs = 0;
		struct kc_poly *e;
		writes_of(fc, p.body, v, &incs, &e, &written);
		written += incs;
		if (!clang_Cursor_isNull(p.cond) && !written && (bound_var = bound_written(fc, p.cond, p.body, v, 0)))
			written = 1;
		if (!start || written)
			goto data_dependent;
		if (step > 0)
			loop->lower[loop->n_lower++] = start;
		else
			loop->upper[loop->n_upper++] = start;
		if (!clang_Cursor_isNull(p.cond) && (bounds = kc_affine_loop_cond(fc, p.cond, loop, step)) == 0 &&
		    (step > 0 ? loop->n_upper : loop->n_lower) > 0 &&
		    !(wraps = kc_affine_loop_wraps(fc, v, p.cond, loop))) {
			if (unroll_by_table(fc, loop, v, p.body))
				return;
			struct ind_set set, *outer = fc->inductions;
			begin_inductions(fc, &set, loop, p.body);
			fc->inductions = &set;
			lower_body(fc, p.body, loop);
			fc->inductions = outer;
			/* after the loop, v holds its exit value (used by a following remainder loop) */
			v->kind = V_INT;
			v->value = kc_affine_exit_value(fc, loop);
			v->n_minmax = 0;
			end_inductions(fc, &set, loop, v->value);
			return;
		}
	data_dependent:;
		struct kc_poly *total = kc_affine_trips(fc, v);
		/* the bound expressions are evaluated at run time: their reads are traffic */
		struct kc_node *st = stmt_node(fc, c, parent);
		if (!clang_Cursor_isNull(p.init))
			collect_init(fc, p.init, st);
		if (!clang_Cursor_isNull(p.cond))
			collect_expr(fc, p.cond, st, ROLE_READ);
		drop_if_empty(parent, st);
		if (total) {
			loop->trips_annotated = total;
			loop->n_lower = loop->n_upper = 0;
			lower_body(fc, p.body, loop);
			v->kind = V_INT;
			v->value = NULL;
			v->n_minmax = 0;
			return;
		}
		if (written) {
			unknown_trips(
			    fc, loop, c, p.cond, p.inc,
			    bound_var ? "'%s', which bounds the loop, is written in its body: trip count unknown, the "
			                "body is counted once (annotate the total with KCOST_TRIPS)"
			              : "loop variable '%s' is also written in the loop's body: trip count unknown, "
			                "the body is counted once (annotate the total with KCOST_TRIPS)",
			    kc_cx_spelling(fc->fe->a, (bound_var ? bound_var : v)->decl));
		} else if (wraps) {
			CXString ts = clang_getTypeSpelling(clang_getCursorType(v->decl));
			const char *what = kc_arena_printf(fc->fe->a, "'%s' of type '%s'",
			                                   kc_cx_spelling(fc->fe->a, v->decl), clang_getCString(ts));
			clang_disposeString(ts);
			unknown_trips(
			    fc, loop, c, p.cond, p.inc,
			    wraps == 2 ? "loop variable %s is compared as an unsigned value and may be negative or "
			                 "wrap around: trip count unknown, the body is counted once"
			               : "loop variable %s wraps around before its bound ends the loop: the loop may "
			                 "never end, trip count unknown, the body is counted once",
			    what);
		} else if (bounds == -2)
			unknown_trips(fc, loop, c, p.cond, p.inc,
			              "loop condition of '%s' has more than " KC_TEXT(
			                  KC_MAX_BOUNDS) " lower or upper bounds: "
			                                 "trip count unknown, the body is counted once (annotate the "
			                                 "total with KCOST_TRIPS)",
			              kc_cx_spelling(fc->fe->a, v->decl));
		else
			unknown_trips(
			    fc, loop, c, p.cond, p.inc,
			    "loop bounds of '%s' are not affine functions of the sizes and outer loop variables: "
			    "trip count unknown, the body is counted once (annotate the total with KCOST_TRIPS)",
			    kc_cx_spelling(fc->fe->a, v->decl));
	} else {
		unknown_trips(fc, loop, c, p.cond, p.inc, "unsupported loop form%s: trip count unknown", "");
	}
	loop->n_lower = loop->n_upper = 0;
	if (v && (loop->step || loop->step_by) && !written)
		loop->once_at = start; /* counted at its first iteration (NULL: not affine); loop->var is v's */
	lower_body(fc, p.body, loop);
	if (v) {
		v->kind = V_INT;
		v->value = NULL;
		v->n_minmax = 0;
	}
}

static void lower_children(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	struct child_list l;
	kc_cx_children(c, &l);
	for (int i = 0; i < l.n; i++)
		lower_stmt(fc, l.c[i], parent);
}

/* ------------------------------------------------------------------------------------------------ */
/* Early returns. A statement is in tail position (fc->tail, read and cleared by lower_stmt_at) when nothing
 * of the function runs after it: the last statement of the body, of a branch in tail position, or of the
 * statements moved into a branch below. There, `if (c) { A; return; } B; C;` is `if (c) A else { B; C; }`
 * (and the same with the return in the else-branch, or after an else): the statements after an if whose one
 * branch ends in a return and whose other has none are lowered into that other branch, so each path is
 * counted once, exactly, and a condition on sizes picks one. A return anywhere else (not in tail position,
 * outside loops) is a warning: what follows it is counted as if it were not taken. */

/* Every path through c ends in a return: c is one, or a compound statement whose last statement does. */
static int ends_in_return(CXCursor c)
{
	for (int depth = 0; depth < KC_MAX_DEPTH; depth++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k == CXCursor_ReturnStmt)
			return 1;
		struct child_list l;
		if (k != CXCursor_CompoundStmt || (kc_cx_children(c, &l), !l.n))
			return 0;
		c = l.c[l.n - 1];
	}
	return 0;
}

/* c contains a return statement (or is too deep to tell: then assumed to). */
static int contains_return(CXCursor c, int depth)
{
	if (clang_getCursorKind(c) == CXCursor_ReturnStmt || depth >= KC_MAX_DEPTH)
		return 1;
	if (clang_isExpression(clang_getCursorKind(c)))
		return 0; /* a statement expression's return is rare enough to be missed: no walk of every operand */
	struct child_list l;
	kc_cx_children(c, &l);
	for (int i = 0; i < l.n; i++)
		if (contains_return(l.c[i], depth + 1))
			return 1;
	return 0;
}

static int lower_if(struct fctx *fc, CXCursor c, struct kc_node *parent, int tail, const CXCursor *rest, int n_rest);

/* Statements c[0 .. n-1] of one block into parent; the last in tail position when the block is. */
static int lower_switch(struct fctx *fc, CXCursor c, struct kc_node *parent, int tail, const CXCursor *rest,
                        int n_rest);

static void lower_list(struct fctx *fc, const CXCursor *c, int n, struct kc_node *parent, int tail)
{
	for (int i = 0; i < n; i++) {
		if (tail && i < n - 1 && fc->loop_depth == 0 && clang_getCursorKind(c[i]) == CXCursor_IfStmt) {
			struct child_list l;
			kc_cx_children(c[i], &l);
			int then_returns = l.n >= 2 && ends_in_return(l.c[1]),
			    else_returns = l.n >= 3 && ends_in_return(l.c[2]);
			if (then_returns && else_returns) { /* what follows is never reached */
				lower_if(fc, c[i], parent, 1, NULL, 0);
				return;
			}
			if (l.n >= 2 && then_returns != else_returns &&
			    !(then_returns ? l.n >= 3 && contains_return(l.c[2], 0) : contains_return(l.c[1], 0))) {
				if (kc_cx_enter(fc, c[i]) < 0)
					return;
				int moved = lower_if(fc, c[i], parent, 1, c + i + 1, n - i - 1);
				kc_cx_leave(fc);
				if (moved)
					return;
				continue;
			}
		}
		if (tail && i < n - 1 && fc->loop_depth == 0 && clang_getCursorKind(c[i]) == CXCursor_SwitchStmt) {
			if (kc_cx_enter(fc, c[i]) < 0)
				return;
			int done = lower_switch(fc, c[i], parent, 1, c + i + 1, n - i - 1) == 0;
			kc_cx_leave(fc);
			if (done)
				return;
		}
		if (!clang_Cursor_isNull(fc->skip_stmt) && clang_equalCursors(c[i], fc->skip_stmt))
			continue; /* a while loop's step, lowered as its increment */
		if (kc_cx_enter(fc, c[i]) < 0)
			return;
		fc->tail = tail && i == n - 1;
		lower_stmt_at(fc, c[i], parent);
		kc_cx_leave(fc);
		advance_inductions(fc, c[i]);
	}
}

/* acc is one of st's reads (same buffer and indices). */
static int read_by(const struct kc_access *acc, const struct kc_node *st)
{
	for (int i = 0; st && i < st->n_accesses; i++) {
		const struct kc_access *b = &st->accesses[i];
		if (b->buffer != acc->buffer || b->ndims != acc->ndims || b->is_write)
			continue;
		int same = 1;
		for (int d = 0; d < b->ndims && same; d++)
			same = b->index[d] && acc->index[d] && kc_poly_equal(b->index[d], acc->index[d]);
		if (same)
			return 1;
	}
	return 0;
}

static int branch_costs_nothing(const struct kc_node *n, const struct kc_node *cond_st)
{
	for (const struct kc_node *c = n ? n->first : NULL; c; c = c->next) {
		if (c->kind != KC_NODE_STMT || c->call || c->lib_call || c->cost.n_trans ||
		    c->cost.cmp > (cond_st ? cond_st->cost.cmp : 0)) /* fabsf(x[i]) again: the condition's */
			return 0;
		for (int o = 0; o < KC_OP_N; o++)
			for (int p = 0; p < KC_PREC_N; p++)
				if (c->cost.ops[o][p])
					return 0;
		for (int i = 0; i < c->n_accesses; i++)
			if (c->accesses[i].is_write || !read_by(&c->accesses[i], cond_st))
				return 0;
	}
	return 1;
}

/* A data-dependent if whose branches do no operation, write no buffer and read only elements its condition
 * read, comparing no more than it did (a running max, an argmax, fabsf(x[i]) > m: m = fabsf(x[i])): the counts
 * do not depend on the branch taken. Its branches' reads and comparisons are dropped (the condition's are
 * reused, as compilers do) and 1 returned. */
static int costs_nothing_more(struct kc_node *n, const struct kc_node *cond_st)
{
	if (!branch_costs_nothing(n, cond_st) || !branch_costs_nothing(n->orelse, cond_st))
		return 0;
	for (struct kc_node *b = n; b; b = b == n ? n->orelse : NULL)
		for (struct kc_node *c = b->first; c; c = c->next) {
			c->n_accesses = 0;
			c->cost.cmp = 0;
		}
	return 1;
}

/* No FLOP or transcendental in the nodes from n on and below them (calls of callees without operations
 * aside); their comparisons are added to *cmp. */
static int flops_free_nodes(const struct kc_node *n, long long *cmp)
{
	for (; n; n = n->next) {
		for (int o = 0; o < KC_OP_N; o++)
			for (int p = 0; p < KC_PREC_N; p++)
				if (n->cost.ops[o][p])
					return 0;
		for (int t = 0; t < n->cost.n_trans; t++)
			if (n->cost.trans_count[t])
				return 0;
		if (n->lib_call || (n->call && !kc_function_ops_free(n->call->callee)))
			return 0;
		*cmp += n->cost.cmp;
		if (!flops_free_nodes(n->first, cmp) || (n->orelse && !flops_free_nodes(n->orelse->first, cmp)))
			return 0;
	}
	return 1;
}

static int same_polys(struct kc_poly *const *x, int nx, struct kc_poly *const *y, int ny)
{
	if (nx != ny)
		return 0;
	for (int i = 0; i < nx; i++)
		if (!x[i] || !y[i] || !kc_poly_equal(x[i], y[i])) /* NULL: not affine, unknown */
			return 0;
	return 1;
}

/* a and b themselves (not their children) do the same work: the same kind, no call, both exact, the same FLOPs and
 * transcendental calls (and comparisons, with cmp), the same loop bounds and steps or the same guards. */
static int same_node_work(const struct kc_node *a, const struct kc_node *b, int cmp)
{
	if (a->kind != b->kind || a->call || b->call || a->lib_call || b->lib_call || a->inexact || b->inexact ||
	    a->trips_annotated || b->trips_annotated || a->collapsed || b->collapsed ||
	    memcmp(a->cost.ops, b->cost.ops, sizeof a->cost.ops) || (cmp && a->cost.cmp != b->cost.cmp) ||
	    a->cost.n_trans != b->cost.n_trans)
		return 0;
	for (int t = 0; t < a->cost.n_trans; t++)
		if (strcmp(a->cost.trans_name[t], b->cost.trans_name[t]) ||
		    a->cost.trans_count[t] != b->cost.trans_count[t])
			return 0;
	if (a->kind == KC_NODE_LOOP && (a->var != b->var || a->step != b->step || !a->step_by != !b->step_by ||
	                                (a->step_by && !kc_poly_equal(a->step_by, b->step_by)) ||
	                                !same_polys(a->lower, a->n_lower, b->lower, b->n_lower) ||
	                                !same_polys(a->upper, a->n_upper, b->upper, b->n_upper)))
		return 0;
	return a->kind != KC_NODE_IF || same_polys(a->guard, a->n_guards, b->guard, b->n_guards);
}

/* The nodes from a on and from b on do the same operations, node by node: the same statements' costs, the
 * same exact loops and guards, no call. *same_traffic is cleared where their accesses differ. */
static int same_work(const struct kc_node *a, const struct kc_node *b, int *same_traffic)
{
	for (; a && b; a = a->next, b = b->next) {
		if (!same_node_work(a, b, 1))
			return 0;
		if (a->n_accesses != b->n_accesses)
			*same_traffic = 0;
		for (int i = 0; *same_traffic && i < a->n_accesses; i++) {
			const struct kc_access *x = &a->accesses[i], *y = &b->accesses[i];
			if (x->buffer != y->buffer || x->is_write != y->is_write ||
			    !same_polys(x->index, x->ndims, y->index, y->ndims))
				*same_traffic = 0;
		}
		if (!same_work(a->first, b->first, same_traffic) || !a->orelse != !b->orelse ||
		    (a->orelse && !same_work(a->orelse->first, b->orelse->first, same_traffic)))
			return 0;
	}
	return !a && !b;
}

/* Clear the operations, comparisons and transcendental calls of the nodes from n on and below them (an else-branch
 * whose work the then-branch counts), keeping their accesses. */
static void drop_operations(struct kc_node *n)
{
	for (; n; n = n->next) {
		memset(n->cost.ops, 0, sizeof n->cost.ops);
		n->cost.cmp = 0;
		for (int t = 0; t < n->cost.n_trans; t++)
			n->cost.trans_count[t] = 0;
		drop_operations(n->first);
		if (n->orelse)
			drop_operations(n->orelse->first);
	}
}

/* The nodes from n on that do floating-point work, in order, into out[*k ...] (at most max): statements without
 * an operation or a call (a condition's comparisons, a copy) are passed over, an if on data whose branches do the
 * same operations (same_arms) is its then-branch, one on a constant condition the branch it takes, and one whose
 * branches do no operation is passed over. -1 when there are more than max, or they are nested too deep. */
static int flop_nodes(const struct kc_node *n, const struct kc_node **out, int *k, int max, int depth)
{
	if (depth >= KC_MAX_DEPTH)
		return -1;
	for (; n; n = n->next) {
		long long cmp = 0;
		if (n->kind == KC_NODE_IF && !n->n_guards && !n->inexact && n->same_arms) {
			if (flop_nodes(n->first, out, k, max, depth + 1) < 0)
				return -1;
			continue;
		}
		int decided = n->kind == KC_NODE_IF && n->n_guards > 0 && !n->inexact, taken = 1;
		for (int g = 0; decided && g < n->n_guards; g++) {
			struct kc_rat v;
			decided = n->guard[g] && kc_poly_is_const(n->guard[g], &v);
			taken &= decided && v.num >= 0;
		}
		if (decided) { /* if (LEN > 10), a constant condition: the branch it takes */
			const struct kc_node *b = taken ? n->first : n->orelse ? n->orelse->first : NULL;
			if (flop_nodes(b, out, k, max, depth + 1) < 0)
				return -1;
			continue;
		}
		if ((n->kind == KC_NODE_STMT || (n->kind == KC_NODE_IF && !n->n_guards && !n->inexact)) && !n->call &&
		    !n->lib_call && flops_free_nodes(n->first, &cmp) &&
		    (!n->orelse || flops_free_nodes(n->orelse->first, &cmp))) {
			struct kc_node one = *n;
			one.next = NULL, one.first = NULL, one.orelse = NULL;
			if (flops_free_nodes(&one, &cmp))
				continue;
		}
		if (*k == max)
			return -1;
		out[(*k)++] = n;
	}
	return 0;
}

/* The nodes from a on and from b on do the same floating-point operations and transcendental calls, in the same
 * loops (same_work's test without the comparisons and the accesses, through else-if chains: flop_nodes). */
static int same_branch_flops(const struct kc_node *a, const struct kc_node *b, int depth)
{
	enum { MAX = 64 };
	const struct kc_node *x[MAX], *y[MAX];
	int nx = 0, ny = 0;
	if (flop_nodes(a, x, &nx, MAX, depth) < 0 || flop_nodes(b, y, &ny, MAX, depth) < 0 || nx != ny)
		return 0;
	for (int i = 0; i < nx; i++) {
		const struct kc_node *p = x[i], *q = y[i];
		if (!same_node_work(p, q, 0))
			return 0;
		if (!same_branch_flops(p->first, q->first, depth + 1) || !p->orelse != !q->orelse ||
		    (p->orelse && !same_branch_flops(p->orelse->first, q->orelse->first, depth + 1)))
			return 0;
	}
	return 1;
}

/* A return, break or continue inside a loop: the iterations and statements it skips are counted. Reported
 * once the function is lowered (report_jumps): a function without FLOPs keeps them exact, only its comparisons
 * and traffic are approximate (a search: for (...) if (a[i] == val) return i;). */
static void loop_jump(struct fctx *fc, CXCursor at, const char *fmt, const char *arg)
{
	if (fc->untaken || fc->n_jumps == (int)(sizeof fc->jumps / sizeof fc->jumps[0])) {
		kc_cx_warn(fc, at, KC_WARNING, fmt, arg);
		return;
	}
	fc->jumps[fc->n_jumps++] = (struct jump){at, fmt, arg};
}

static void report_jumps(struct fctx *fc)
{
	long long cmp = 0;
	int flops_free = flops_free_nodes(fc->ir->body->first, &cmp);
	for (int i = 0; i < fc->n_jumps; i++)
		if (flops_free)
			kc_cx_warn_cmp(fc, fc->jumps[i].at, fc->jumps[i].fmt, fc->jumps[i].arg);
		else
			kc_cx_warn(fc, fc->jumps[i].at, KC_WARNING, fc->jumps[i].fmt, fc->jumps[i].arg);
}

/* The else-branch block of n, made on first use (located at c). */
static struct kc_node *else_block(struct fctx *fc, struct kc_node *n, CXCursor c)
{
	if (!n->orelse)
		n->orelse = new_node(fc, KC_NODE_BLOCK, c, NULL);
	return n->orelse;
}

/* An if statement; rest[0 .. n_rest-1], the statements after it (in tail position), go into the branch that
 * does not end in a return (lower_list) when the condition is one counting decides: returns 1 then. (A
 * data-dependent condition keeps them after it, as before: its return is a note, "assumed not taken", and
 * the if a warning when a branch costs anything.) When the guards say the negation of the condition (x != y),
 * the node's then-branch is the statement's else-branch and the other way round. */
static int lower_if(struct fctx *fc, CXCursor c, struct kc_node *parent, int tail, const CXCursor *rest, int n_rest)
{
	struct child_list l;
	kc_cx_children(c, &l);
	if (l.n < 2)
		return 0;
	struct kc_node *n = new_node(fc, KC_NODE_IF, c, parent);
	int guards = kc_affine_guards(fc, l.c[0], n);
	if (guards < 0) {
		n->n_guards = 0;
		struct kc_node *st = stmt_node(fc, l.c[0], parent);
		collect_expr(fc, l.c[0], st, ROLE_READ);
		drop_if_empty(parent, st);
		n->inexact = 1; /* decided below, once we know whether the branches cost anything */
	}
	if (guards >= 0 && work_in(l.c[0], 0)) {
		/* decided, but evaluated: alpha == 0.0 is a comparison the run makes */
		struct kc_node *st = stmt_node(fc, l.c[0], parent);
		collect_expr(fc, l.c[0], st, ROLE_READ);
		drop_if_empty(parent, st);
	}
	int swapped = guards == 1;
	struct kc_node *cond_st = NULL;
	if (guards < 0) {
		tail = n_rest = 0;
		cond_st = parent->last && parent->last->kind == KC_NODE_STMT && parent->last != n ? parent->last : NULL;
	}
	/* a branch the sizes decide against is lowered (its reads and the variables it writes matter) but its
	 * warnings are notes: what it would cost does not make these figures inexact */
	int taken = guards >= 0 ? kc_ir_if_taken(fc->fn, n) : -1, then_out = taken == 0, else_out = taken == 1;
	/* each branch starts from the values before the if (i = 0 for both branches' while loops, not the exit
	 * value of the first branch's loop); what follows, from the branch it follows */
	int n_saved, n_after_then = 0;
	struct kc_var_state *before = kc_affine_save(fc, &n_saved), *after_then = NULL;
	fc->tail = tail;
	fc->untaken += swapped ? else_out : then_out;
	lower_stmt(fc, l.c[1], swapped ? else_block(fc, n, l.c[1]) : n);
	fc->untaken -= swapped ? else_out : then_out;
	int into_else = n_rest && ends_in_return(l.c[1]);
	if (n_rest && !into_else)
		after_then = kc_affine_save(fc, &n_after_then);
	kc_affine_restore(fc, before, n_saved);
	if (l.n > 2) {
		fc->tail = tail;
		fc->untaken += swapped ? then_out : else_out;
		lower_stmt(fc, l.c[2], swapped ? n : else_block(fc, n, l.c[2]));
		fc->untaken -= swapped ? then_out : else_out;
	}
	if (n_rest) {
		if (!into_else)
			kc_affine_restore(fc, after_then, n_after_then);
		fc->untaken += into_else != swapped ? else_out : then_out;
		lower_list(fc, rest, n_rest, into_else != swapped ? else_block(fc, n, rest[0]) : n, 1);
		fc->untaken -= into_else != swapped ? else_out : then_out;
		n->end = kc_cx_end(fc->fe, rest[n_rest - 1]);
	}
	free(before);
	free(after_then);
	/* after it, a variable one branch assigns has either value: none known (if (flag) m = 1;) */
	for (int i = 1; i < l.n; i++)
		forget_written(fc, l.c[i]);
	long long cmp = 0;
	int same_traffic = 1;
	if (n->inexact && guards != -2 && costs_nothing_more(n, cond_st))
		n->inexact = 0; /* if (x[i] > m) m = x[i]: no operation, and only elements the condition read */
	if (n->inexact && guards != -2 && n->orelse && same_work(n->first, n->orelse->first, &same_traffic)) {
		/* if (a[i]) c[j] += b[j]; else c[j] -= b[j]: either branch costs the same, counted once; accesses that
		 * differ stay, the else-branch's without its operations (a buffer only it reads keeps an extent) */
		if (same_traffic)
			n->orelse = NULL;
		else
			drop_operations(n->orelse->first);
		n->inexact = 0;
		n->same_arms = 1;
		if (!same_traffic)
			kc_cx_warn_traffic(fc, l.c[0],
			                   "data-dependent condition%s: its branches do the same operations, counted "
			                   "once, but access different elements: both branches' accesses are counted",
			                   "");
	}
	if (n->inexact && guards != -2 && flops_free_nodes(n->first, &cmp) &&
	    (!n->orelse || flops_free_nodes(n->orelse->first, &cmp))) {
		/* no FLOP in either branch (a swap of indices): the FLOPs are exact whichever runs */
		if (cmp)
			kc_cx_warn_cmp(fc, l.c[0],
			               "data-dependent condition%s: its branches compare but compute nothing: their "
			               "comparisons are counted as always made (the FLOPs are exact)",
			               "");
		else if (n->first || (n->orelse && n->orelse->first))
			kc_cx_warn_traffic(
			    fc, l.c[0],
			    "data-dependent condition%s: its branches do no operation; their accesses are "
			    "counted as always made",
			    "");
		n->inexact = 0;
	}
	if (n->inexact && guards != -2 && n->orelse && same_branch_flops(n->first, n->orelse->first, 0) &&
	    !any_jump(c, 0)) { /* a return in a branch (if (d[1] > 0) return;) is a path of its own */
		/* if (d[i] < 0) a[i] += b[i]*c[i]; else if (d[i] == 0) a[i] += b[i]*b[i]; else ...: the same FLOPs
		 * whichever branch runs, not the same comparisons (an else-if's condition) */
		drop_operations(n->orelse->first);
		n->inexact = 0;
		n->same_arms = 1;
		kc_cx_warn_cmp(
		    fc, l.c[0],
		    "data-dependent condition%s: its branches do the same floating-point operations, counted "
		    "once, but not the same comparisons or accesses: the then-branch's comparisons and both "
		    "branches' accesses are counted",
		    "");
	}
	if (n->inexact && (n->first || (n->orelse && n->orelse->first))) {
		if (guards == -2)
			kc_cx_warn(fc, l.c[0], KC_WARNING,
			           "condition of more than " KC_TEXT(KC_MAX_BOUNDS) " comparisons%s: its branch is "
			                                                            "counted as always taken",
			           "");
		else if (fc->loop_depth > 0)
			kc_cx_warn(fc, l.c[0], KC_WARNING,
			           "data-dependent condition%s: its branch is counted as always taken", "");
		else
			kc_cx_warn(fc, l.c[0], KC_WARNING,
			           "data-dependent condition%s outside loops: its branch is counted as taken", "");
	} else {
		n->inexact = 0;
	}
	return n_rest > 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* switch: on an integer that counting can decide (a size, an enum parameter, an affine expression), each
 * case is an if on its label (or range of stacked labels), the default the last else, when every case ends in
 * a break (or a return, the switch being in tail position) and none falls through into the next. */

struct sw_case {
	long long lo, hi; /* labels lo..hi; the default: lo > hi */
	int is_default;
	CXCursor at;
	CXCursor *stmts;
	int n, cap;
};

/* A break or return that is not the last statement of its case (a break of an inner loop or switch is
 * its own). */
static int jumps_inside(CXCursor c, int depth)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || depth >= KC_MAX_DEPTH)
		return 1;
	if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_SwitchStmt)
		return contains_return(c, depth);
	if (clang_isExpression(k))
		return 0;
	struct child_list l;
	kc_cx_children(c, &l);
	for (int i = 0; i < l.n; i++)
		if (jumps_inside(l.c[i], depth + 1))
			return 1;
	return 0;
}

static void case_push(struct fctx *fc, struct sw_case *sc, CXCursor stmt)
{
	if (sc->n == sc->cap) {
		int cap = sc->cap ? 2 * sc->cap : 8;
		CXCursor *grown = KC_NEW_N(fc->fe->a, CXCursor, cap);
		if (sc->n)
			memcpy(grown, sc->stmts, sizeof *grown * (size_t)sc->n);
		sc->stmts = grown;
		sc->cap = cap;
	}
	sc->stmts[sc->n++] = stmt;
}

/* Lower a switch as a chain of ifs; -1 (nothing lowered) when it is not of the form above. */
/* The statements of sc, then (when it does not end in a return) the rest: where control goes after the switch. */
static void lower_case(struct fctx *fc, struct sw_case *sc, int returns, const CXCursor *rest, int n_rest,
                       struct kc_node *parent, int tail)
{
	if (returns || !n_rest) {
		lower_list(fc, sc->stmts, sc->n, parent, tail);
		return;
	}
	CXCursor *all = KC_NEW_N(fc->fe->a, CXCursor, (size_t)(sc->n + n_rest));
	if (sc->n)
		memcpy(all, sc->stmts, sizeof *all * (size_t)sc->n);
	memcpy(all + sc->n, rest, sizeof *all * (size_t)n_rest);
	lower_list(fc, all, sc->n + n_rest, parent, tail);
}

/* switch (x) on an integer x kcost can decide: an if per case. In tail position the statements after it (rest,
 * n_rest of them) run after each case that does not return, and where no label matches: an activation
 * dispatcher's `case RELU: return relu(x); ... } return 0;`. */
static int lower_switch(struct fctx *fc, CXCursor c, struct kc_node *parent, int tail, const CXCursor *rest, int n_rest)
{
	struct child_list l, body;
	kc_cx_children(c, &l);
	struct kc_poly *x;
	if (l.n != 2 || clang_getCursorKind(l.c[1]) != CXCursor_CompoundStmt ||
	    !kc_cx_is_integer_type(clang_getCursorType(l.c[0])) || kc_affine_expr(fc, l.c[0], &x) < 0)
		return -1;
	kc_cx_children(l.c[1], &body);
	struct sw_case *cases = KC_NEW_N(fc->fe->a, struct sw_case, body.n ? body.n : 1);
	int n_cases = 0;
	for (int i = 0; i < body.n; i++) {
		CXCursor s = body.c[i];
		int labelled = 0;
		for (int depth = 0; depth < KC_MAX_DEPTH; depth++) {
			enum CXCursorKind k = clang_getCursorKind(s);
			if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt)
				break;
			struct child_list cl;
			kc_cx_children(s, &cl);
			long long v = 0;
			if (!cl.n || (k == CXCursor_CaseStmt && (cl.n != 2 || !kc_cx_eval_int(cl.c[0], &v))))
				return -1;
			struct sw_case *sc = &cases[n_cases - 1];
			if (!labelled || k == CXCursor_DefaultStmt || sc->is_default || v != sc->hi + 1) {
				if (labelled) /* stacked labels that are not one range */
					return -1;
				if (n_cases && cases[n_cases - 1].n &&
				    !(clang_getCursorKind(cases[n_cases - 1].stmts[cases[n_cases - 1].n - 1]) ==
				          CXCursor_BreakStmt ||
				      ends_in_return(cases[n_cases - 1].stmts[cases[n_cases - 1].n - 1])))
					return -1; /* falls through into this case */
				if (n_cases && !cases[n_cases - 1].n)
					return -1; /* an empty case falls through to a label that is no range with it */
				sc = &cases[n_cases++];
				*sc = (struct sw_case){v, v, k == CXCursor_DefaultStmt, s, NULL, 0, 0};
			} else {
				sc->hi = v;
			}
			labelled = 1;
			s = cl.c[cl.n - 1];
		}
		if (!n_cases)
			return -1; /* statements before the first label */
		case_push(fc, &cases[n_cases - 1], s);
	}
	int default_case = -1;
	int *returns_of = KC_NEW_N(fc->fe->a, int, (size_t)n_cases + 1);
	for (int i = 0; i < n_cases; i++) {
		struct sw_case *sc = &cases[i];
		int last_is_break = sc->n && clang_getCursorKind(sc->stmts[sc->n - 1]) == CXCursor_BreakStmt;
		int returns = returns_of[i] = sc->n && ends_in_return(sc->stmts[sc->n - 1]);
		if ((returns && !tail) || (!last_is_break && !returns && i < n_cases - 1))
			return -1;
		if (last_is_break)
			sc->n--;
		for (int j = 0; j < sc->n; j++)
			if ((j < sc->n - 1 || !returns) && jumps_inside(sc->stmts[j], 0))
				return -1;
		for (int j = 0; j < i; j++)
			if (!sc->is_default && !cases[j].is_default && sc->lo <= cases[j].hi && cases[j].lo <= sc->hi)
				return -1; /* duplicate labels: clang reports them */
		if (sc->is_default)
			default_case = i;
	}
	struct kc_arena *a = fc->fe->a;
	struct kc_poly **guards = KC_NEW_N(a, struct kc_poly *, 2 * (size_t)n_cases + 1);
	/* on sizes only, a case lo..hi is the one guard (x - lo)*(hi - x) >= 0, whose negation (the next cases')
	 * is one constraint too, (x - lo)*(x - hi) - 1 >= 0: two affine guards would negate to two alternatives
	 * each, and a dispatcher of 14 cases to 2^13 pieces */
	int on_sizes = 1;
	for (int s = 0; s < fc->fn->syms.n; s++)
		if (fc->fn->syms.syms[s].is_loop && kc_poly_has_sym(x, s))
			on_sizes = 0;
	for (int i = 0; i < n_cases; i++) {
		if (cases[i].is_default)
			continue;
		if (kc_poly_sub(a, x, kc_poly_const(a, cases[i].lo, 1), &guards[2 * i]) < 0 ||
		    kc_poly_sub(a, kc_poly_const(a, cases[i].hi, 1), x, &guards[2 * i + 1]) < 0)
			return -1; /* overflow */
		if (on_sizes) {
			if (kc_poly_mul(a, guards[2 * i], guards[2 * i + 1], &guards[2 * i]) < 0)
				return -1;
			guards[2 * i + 1] = NULL;
		}
	}
	struct kc_node *at = parent;
	int after_taken = 0; /* a case before was taken at the benchmark sizes: the rest of the chain is not */
	for (int i = 0; i < n_cases; i++) {
		struct sw_case *sc = &cases[i];
		if (sc->is_default)
			continue;
		struct kc_node *n = new_node(fc, KC_NODE_IF, i ? sc->at : c, at);
		kc_ir_guard_add(n, guards[2 * i]);
		if (guards[2 * i + 1])
			kc_ir_guard_add(n, guards[2 * i + 1]);
		int taken = kc_ir_if_taken(fc->fn, n), out = after_taken || taken == 0;
		fc->untaken += out;
		lower_case(fc, sc, returns_of[i], rest, n_rest, n, tail);
		fc->untaken -= out;
		after_taken |= taken == 1;
		at = else_block(fc, n, sc->at);
	}
	fc->untaken += after_taken;
	if (default_case >= 0)
		lower_case(fc, &cases[default_case], returns_of[default_case], rest, n_rest, at, tail);
	else if (n_rest)
		lower_list(fc, rest, n_rest, at, tail);
	fc->untaken -= after_taken;
	return 0;
}

static void lower_stmt_at(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	int tail = fc->tail;
	fc->tail = 0;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CompoundStmt: {
		struct child_list l;
		kc_cx_children(c, &l);
		lower_list(fc, l.c, l.n, parent, tail);
		return;
	}
	case CXCursor_DeclStmt: {
		struct child_list l;
		kc_cx_children(c, &l);
		for (int i = 0; i < l.n; i++)
			if (clang_getCursorKind(l.c[i]) == CXCursor_VarDecl)
				lower_var_decl(fc, l.c[i], parent);
		return;
	}
	case CXCursor_ForStmt:
		lower_for(fc, c, parent);
		return;
	case CXCursor_IfStmt:
		lower_if(fc, c, parent, tail, NULL, 0);
		return;
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt: {
		if (lower_as_for(fc, c, parent) == 0)
			return;
		struct child_list l;
		kc_cx_children(c, &l);
		CXCursor cond = clang_getNullCursor();
		for (int i = 0; i < l.n; i++)
			if (clang_isExpression(clang_getCursorKind(l.c[i])))
				cond = l.c[i];
		long long again;
		if (clang_getCursorKind(c) == CXCursor_DoStmt && !clang_Cursor_isNull(cond) &&
		    kc_cx_eval_int(cond, &again) && again == 0 && !any_jump(c, 0)) {
			/* do { ... } while (0), a macro's statement: its body once, a block (with a break, a loop) */
			struct kc_node *block = new_node(fc, KC_NODE_BLOCK, c, parent);
			for (int i = 0; i < l.n; i++)
				if (!clang_isExpression(clang_getCursorKind(l.c[i])))
					lower_body(fc, l.c[i], block);
			return;
		}
		fc->fn->has_loops = 1;
		struct kc_node *loop = new_node(fc, KC_NODE_LOOP, c, parent);
		unknown_trips(fc, loop, c, cond, clang_getNullCursor(),
		              "%s loop: trip count unknown, its body is counted once",
		              clang_getCursorKind(c) == CXCursor_WhileStmt ? "while" : "do-while");
		for (int i = 0; i < l.n; i++)
			if (!clang_isExpression(clang_getCursorKind(l.c[i])))
				lower_body(fc, l.c[i], loop);
		return;
	}
	case CXCursor_ReturnStmt: {
		if (fc->loop_depth > 0)
			loop_jump(fc, c, "early return inside a loop%s: counted as if the loop ran to completion", "");
		else if (!tail && parent->kind == KC_NODE_IF && parent->inexact)
			kc_diag_add(fc->fe->a, &fc->fn->diags, kc_cx_loc(fc->fe, c), KC_NOTE, KC_DIAG_ASSUMPTION,
			            fc->fn->name, "counts assume this early return is not taken");
		else if (!tail)
			kc_cx_warn(fc, c, KC_WARNING,
			           "early return%s: what follows it is counted as if it were not taken", "");
		lower_children(fc, c, parent);
		return;
	}
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		if (clang_getCursorKind(c) == CXCursor_BreakStmt && fc->switch_loops == fc->loop_depth + 1)
			return; /* it ends the switch's case: every case is counted already */
		if (fc->loop_depth > 0)
			loop_jump(fc, c, "'%s' inside a loop: counted as if every iteration ran to completion",
			          clang_getCursorKind(c) == CXCursor_BreakStmt ? "break" : "continue");
		return;
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
		kc_cx_warn(fc, c, KC_WARNING, "'goto'%s is not supported: counts ignore the jump", "");
		return;
	case CXCursor_SwitchStmt: {
		if (lower_switch(fc, c, parent, tail, NULL, 0) == 0)
			return;
		kc_cx_warn(fc, c, KC_WARNING,
		           "'switch'%s on data, or with a fall-through, a break or return inside a case, or "
		           "labels that are not one range: every case is counted once",
		           "");
		int outer = fc->switch_loops;
		fc->switch_loops = fc->loop_depth + 1; /* a break at this depth leaves the switch */
		lower_children(fc, c, parent);
		fc->switch_loops = outer;
		return;
	}
	case CXCursor_LabelStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		lower_children(fc, c, parent);
		return;
	case CXCursor_NullStmt:
		return;
	default:
		if (clang_isExpression(clang_getCursorKind(c)))
			lower_expr_stmt(fc, c, parent);
		return;
	}
}

static void lower_stmt(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	if (kc_cx_enter(fc, c) < 0)
		return;
	lower_stmt_at(fc, c, parent);
	kc_cx_leave(fc);
}

/* Room for the model's nests, at most one per top-level statement: kc_count_function fills them. */
static void reserve_nests(struct fctx *fc)
{
	kc_ir_reserve_nests(fc->fe->a, fc->ir);
}

/* A parse error inside the function's lines: clang's recovery dropped or rewrote a part of the body, so the counts
 * would be of what the parser kept, not of the code (a deleted ']' left a loop "exact" at 0 FLOPs). The error
 * itself is already a file-level diagnostic; the function says what it does to its counts. */
static void flag_parse_errors(struct fctx *fc)
{
	struct kc_function *fn = fc->fn;
	for (const struct kc_diag *d = fc->fe->diags->head; d; d = d->next) {
		if (d->severity != KC_ERROR || d->function || !d->loc.file || !fn->loc.file ||
		    strcmp(d->loc.file, fn->loc.file) != 0 || d->loc.line < fn->loc.line || d->loc.line > fn->end.line)
			continue;
		kc_diag_add(
		    fc->fe->a, &fn->diags, fn->loc, KC_WARNING, KC_DIAG_PARSE, fn->name,
		    "not counted exactly: the parse error at line %u is inside '%s', whose counts are of what the "
		    "parser recovered",
		    d->loc.line, fn->name);
		fn->exact = fn->exact_ops = fn->exact_flops = 0;
		return;
	}
}

struct refs {
	CXCursor *decls; /* the buffer parameters' declarations, cleared once named */
	int n, left;
};

static enum CXChildVisitResult find_refs(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct refs *r = data;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	CXCursor d = clang_getCursorReferenced(c);
	for (int i = 0; i < r->n; i++)
		if (!clang_Cursor_isNull(r->decls[i]) && clang_equalCursors(r->decls[i], d)) {
			r->decls[i] = clang_getNullCursor();
			r->left--;
		}
	return r->left ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* Mark the buffer parameters without a declared extent that `body` never names (kc_buffer.unreferenced). */
static void mark_unreferenced(struct fctx *fc, CXCursor fn_cursor, CXCursor body)
{
	struct kc_function *fn = fc->fn;
	int nargs = clang_Cursor_getNumArguments(fn_cursor);
	if (nargs != fn->n_params || nargs <= 0)
		return;
	CXCursor *decls = KC_NEW_N(fc->fe->a, CXCursor, nargs);
	struct refs r = {decls, nargs, 0};
	for (int i = 0; i < nargs; i++) {
		decls[i] = clang_getNullCursor();
		/* only a buffer without a declared extent needs to know (footprint.c: its extent is then 0) */
		if (fn->params[i].kind == KC_PARAM_BUFFER && fn->params[i].buffer >= 0 && *fn->params[i].name &&
		    !fn->buffers[fn->params[i].buffer].extent) {
			decls[i] = clang_Cursor_getArgument(fn_cursor, (unsigned)i);
			r.left++;
		}
	}
	if (!r.left)
		return;
	clang_visitChildren(body, find_refs, &r);
	for (int i = 0; i < nargs; i++)
		if (!clang_Cursor_isNull(decls[i]))
			fn->buffers[fn->params[i].buffer].unreferenced = 1;
}

static struct kc_fn_ir *lower_function(struct fe *fe, struct tu_func *tf)
{
	tf->state = FN_ACTIVE;
	/* calls analyze their callee first, so several states can be live at once: reuse one spare */
	struct fctx *fc = fe->spare ? fe->spare : malloc(sizeof *fc);
	fe->spare = NULL;
	if (!fc) {
		tf->state = FN_DONE;
		kc_diag_add(fe->a, fe->diags, kc_cx_loc(fe, tf->cursor), KC_ERROR, KC_DIAG_NOT_ANALYZED, tf->name,
		            "out of memory: '%s' is not analyzed", tf->name);
		return NULL;
	}
	memset(fc, 0, offsetof(struct fctx, vars));
	fc->skip_stmt = clang_getNullCursor();
	fc->fe = fe;
	fc->func_index = (int)(tf - fe->funcs);
	struct kc_function *fn = fc->fn = KC_NEW(fe->a, struct kc_function);
	fc->ir = KC_NEW(fe->a, struct kc_fn_ir);
	fc->ir->fn = fn;
	fn->name = tf->name;
	fn->loc = kc_cx_loc(fe, tf->cursor);
	fn->end = kc_cx_end(fe, tf->cursor);
	fn->exact = fn->exact_ops = fn->exact_flops = 1;
	fn->is_static = clang_getCursorLinkage(tf->cursor) == CXLinkage_Internal;
	int sized = kc_decl_function(fc, tf->cursor);
	struct child_list l;
	kc_cx_children(tf->cursor, &l);
	fc->ir->body = new_node(fc, KC_NODE_BLOCK, tf->cursor, NULL);
	if (l.n && clang_getCursorKind(l.c[l.n - 1]) == CXCursor_CompoundStmt) {
		fc->tail = 1;
		lower_stmt(fc, l.c[l.n - 1], fc->ir->body);
		mark_unreferenced(fc, tf->cursor, l.c[l.n - 1]);
	}
	for (int i = 0; i < fc->n_trips; i++)
		if (!fc->trips_named[i])
			kc_cx_warn_annotation(
			    fc, fc->trips_at[i],
			    "KCOST_TRIPS names '%s', which is the variable of no for loop kcost follows in the "
			    "function: ignored",
			    fc->trips_var[i]);
	report_jumps(fc);
	flag_parse_errors(fc);
	if (fc->too_deep)
		fc->ir->body->first = fc->ir->body->last = NULL; /* a part of the body would be a wrong count */
	reserve_nests(fc);
	fc->ir->dims = fc->dims;
	tf->ir = fc->ir;
	tf->state = FN_DONE;
	tf->job = kc_passes_submit(fe->passes, fe->a, &(struct kc_pass_job){fc->ir, sized});
	if (fe->spare)
		free(fc);
	else
		fe->spare = fc;
	return tf->ir;
}

void kc_lower_file(struct fe *fe)
{
	struct kc_passes passes;
	/* a part of a file parsed in parts is on a core of its own: it counts as it lowers */
	kc_passes_start(&passes, fe->split ? 1 : fe->opts->threads, fe->n_funcs, &fe->an->arena2);
	fe->passes = &passes;
	for (int i = 0; i < fe->n_funcs && !fe->split_wrong; i++) {
		struct tu_func *tf = &fe->funcs[i];
		if (tf->state == FN_UNSEEN && !tf->in_header && !tf->foreign)
			lower_function(fe, tf);
	}
	kc_passes_stop(&passes);
	fe->passes = NULL;
}
