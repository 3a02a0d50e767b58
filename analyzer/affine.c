/* affine.c — the front end's variable table, and integer expressions, loop headers and guards turned into
 * polynomials in size symbols and loop variables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine.h"
#include "clang_util.h"
#include "fe_int.h"
#include "ir.h"

/* ------------------------------------------------------------------------------------------------ */
/* Symbols and variables */

/* same_decl over the variables, with each variable's kind and location looked up once (in add_var) and
 * the declaration's only when a kind matches: references are resolved for every operand of a body. */
static struct var *var_at(struct fctx *fc, int i)
{
	return i < KC_VAR_CHUNK ? &fc->vars[i] : &fc->more[i / KC_VAR_CHUNK - 1][i % KC_VAR_CHUNK];
}

struct kc_var_state {
	enum var_kind kind;
	struct kc_poly *value, **minmax, *offset;
	int n_minmax, minmax_kind, buffer;
};

struct kc_var_state *kc_affine_save(struct fctx *fc, int *n)
{
	*n = fc->n_vars;
	struct kc_var_state *s = malloc(sizeof *s * (size_t)(*n ? *n : 1));
	for (int i = 0; s && i < *n; i++) {
		const struct var *v = var_at(fc, i);
		s[i] = (struct kc_var_state){v->kind,     v->value,       v->minmax, v->offset,
		                             v->n_minmax, v->minmax_kind, v->buffer};
	}
	return s;
}

void kc_affine_restore(struct fctx *fc, const struct kc_var_state *s, int n)
{
	for (int i = 0; s && i < n && i < fc->n_vars; i++) {
		struct var *v = var_at(fc, i);
		v->kind = s[i].kind;
		v->value = s[i].value;
		v->minmax = s[i].minmax;
		v->offset = s[i].offset;
		v->n_minmax = s[i].n_minmax;
		v->minmax_kind = s[i].minmax_kind;
		v->buffer = s[i].buffer;
	}
}

static struct var *find_var(struct fctx *fc, CXCursor decl)
{
	enum CXCursorKind kind = clang_getCursorKind(decl);
	CXSourceLocation loc;
	int have_loc = 0;
	for (int i = fc->n_vars - 1; i >= 0; i--) {
		struct var *v = var_at(fc, i);
		if (clang_equalCursors(v->decl, decl))
			return v;
		if (v->decl_kind != kind)
			continue;
		if (!have_loc) {
			loc = clang_getCursorLocation(decl);
			have_loc = 1;
		}
		if (clang_equalLocations(v->decl_loc, loc))
			return v;
	}
	return NULL;
}

struct var *kc_affine_add_var(struct fctx *fc, CXCursor decl, enum var_kind kind)
{
	struct var *v = find_var(fc, decl);
	if (!v) {
		int chunk = fc->n_vars / KC_VAR_CHUNK - 1;
		if (chunk >= fc->n_more) { /* the chunks in use are full (a variable table never drops entries) */
			struct var **grown = KC_NEW_N(fc->fe->a, struct var *, fc->n_more + 1);
			if (fc->n_more)
				memcpy(grown, fc->more, sizeof *grown * (size_t)fc->n_more);
			grown[fc->n_more++] = KC_NEW_N(fc->fe->a, struct var, KC_VAR_CHUNK);
			fc->more = grown;
		}
		v = var_at(fc, fc->n_vars++);
	}
	memset(v, 0, sizeof *v);
	v->decl = decl;
	v->decl_kind = clang_getCursorKind(decl);
	v->decl_loc = clang_getCursorLocation(decl);
	v->kind = kind;
	v->sym = -1;
	v->buffer = -1;
	v->scalar = -1;
	return v;
}

struct var *kc_affine_var_of(struct fctx *fc, CXCursor c)
{
	c = kc_cx_strip(c);
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	return find_var(fc, clang_getCursorReferenced(c));
}

/* A cheap necessary condition for is_constant (clang_Cursor_Evaluate is costly and most expressions of a
 * kernel read a variable): no array access, and no reference to a variable of the function. */
static int may_be_constant(struct fctx *fc, CXCursor c)
{
	c = kc_cx_strip(c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_UnaryExpr:
		return 1;
	case CXCursor_DeclRefExpr:
		return !find_var(fc, clang_getCursorReferenced(c));
	case CXCursor_ArraySubscriptExpr:
	case CXCursor_CompoundAssignOperator:
		return 0;
	case CXCursor_BinaryOperator:
	case CXCursor_UnaryOperator:
	case CXCursor_CallExpr:
	case CXCursor_ConditionalOperator: {
		struct child_list l;
		kc_cx_children(c, &l);
		for (int i = 0; i < l.n; i++)
			if (clang_isExpression(clang_getCursorKind(l.c[i])) && !kc_affine_may_be_constant(fc, l.c[i]))
				return 0;
		return 1;
	}
	default:
		return 1;
	}
}

int kc_affine_may_be_constant(struct fctx *fc, CXCursor c)
{
	if (kc_cx_enter(fc, c) < 0)
		return 0;
	int rc = may_be_constant(fc, c);
	kc_cx_leave(fc);
	return rc;
}

/* ------------------------------------------------------------------------------------------------ */
/* Integer expressions -> polynomials */

/* A call to a function of this file whose body is `return EXPR;`: bind its parameters to the argument
 * values and convert EXPR (index helpers such as idx(i, j, n) or min_int(a, b) in bounds). */
static CXCursor single_return_body(CXCursor call, CXCursor *fn_out)
{
	CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(call));
	*fn_out = fn;
	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return clang_getNullCursor();
	struct child_list l;
	kc_cx_children(fn, &l);
	if (!l.n || clang_getCursorKind(l.c[l.n - 1]) != CXCursor_CompoundStmt)
		return clang_getNullCursor();
	struct child_list body;
	kc_cx_children(l.c[l.n - 1], &body);
	if (body.n != 1 || clang_getCursorKind(body.c[0]) != CXCursor_ReturnStmt)
		return clang_getNullCursor();
	struct child_list ret;
	kc_cx_children(body.c[0], &ret);
	return ret.n == 1 ? ret.c[0] : clang_getNullCursor();
}

/* Bind a helper's parameters to the argument values; returns the number of bindings pushed or -1. */
static int bind_args(struct fctx *fc, CXCursor call, CXCursor fn)
{
	int nargs = clang_Cursor_getNumArguments(call);
	if (nargs != clang_Cursor_getNumArguments(fn))
		return -1;
	struct kc_poly *in_place[16];
	struct kc_poly **vals = nargs > 16 ? KC_NEW_N(fc->fe->a, struct kc_poly *, nargs) : in_place;
	for (int i = 0; i < nargs; i++)
		if (kc_affine_expr(fc, clang_Cursor_getArgument(call, (unsigned)i), &vals[i]) < 0)
			return -1;
	for (int i = 0; i < nargs; i++) {
		struct var *v = kc_affine_add_var(fc, clang_Cursor_getArgument(fn, (unsigned)i), V_INT);
		if (!v)
			return -1;
		v->value = vals[i];
	}
	return nargs;
}

static int call_poly(struct fctx *fc, CXCursor c, struct kc_poly **out)
{
	CXCursor fn;
	CXCursor ret = single_return_body(c, &fn);
	if (clang_Cursor_isNull(ret))
		return -1;
	int saved = fc->n_vars;
	int rc = bind_args(fc, c, fn) < 0 ? -1 : kc_affine_expr(fc, ret, out);
	fc->n_vars = saved;
	return rc;
}

/* 1 if p >= 0 for every size: non-negative coefficients over sizes (non-negative, docs/counting.md) and
 * floors of such sums. */
static int nonneg_sizes(const struct kc_function *fn, const struct kc_poly *p, int depth)
{
	for (int t = 0; t < kc_poly_nterms(p); t++) {
		if (kc_poly_term_coef(p, t).num < 0)
			return 0;
		for (int s = 0; s < fn->syms.n; s++) {
			const struct kc_sym *sym = &fn->syms.syms[s];
			if (kc_poly_term_exp(p, t, s) &&
			    (sym->is_loop ||
			     (sym->floor_of && (depth > 4 || (sym->floor_div <= 0 && !sym->floor_by) ||
			                        !nonneg_sizes(fn, sym->floor_of, depth + 1) ||
			                        (sym->floor_by && !nonneg_sizes(fn, sym->floor_by, depth + 1))))))
				return 0;
		}
	}
	return 1;
}

/* 1 if p contains a loop variable of the function being lowered. */
static int has_loop_var(struct fctx *fc, const struct kc_poly *p)
{
	for (int i = 0; i < fc->n_vars; i++) {
		const struct var *v = var_at(fc, i);
		if (v->kind == V_LOOP && v->sym >= 0 && kc_poly_has_sym(p, v->sym))
			return 1;
	}
	return 0;
}

/* x / y (rem: x % y) for a divisor y in sizes (C / NH, (h - k)/stride + 1): the derived symbol floor(x/y),
 * which is C's truncation where x >= 0 and y > 0: required at the benchmark sizes; without values y must be
 * a sum of sizes with non-negative coefficients (a divisor of 0 would be the kernel's own division by zero)
 * and x, when it is not one, gets the warning of a numerator of unknown sign. -1 when x or y holds a loop
 * variable, or either is negative at the benchmark sizes. */
static int quotient_by_size(struct fctx *fc, CXCursor c, struct kc_poly *x, struct kc_poly *y, int rem,
                            struct kc_poly **out)
{
	struct kc_arena *a = fc->fe->a;
	if (has_loop_var(fc, x) || has_loop_var(fc, y))
		return -1;
	long long vx, vy;
	const char *why;
	if (kc_function_eval(fc->fn, x, &vx, &why) == 0 && kc_function_eval(fc->fn, y, &vy, &why) == 0) {
		if (vy == 0) {
			kc_ir_limit(a, fc->fn, kc_cx_loc(fc->fe, c),
			            "integer %s by zero at the benchmark sizes: the "
			            "expression is not counted",
			            rem ? "remainder" : "division");
			return -1;
		}
		if (vx < 0 || vy < 0)
			return -1;
	} else if (!nonneg_sizes(fc->fn, y, 0)) {
		return -1;
	} else if (!nonneg_sizes(fc->fn, x, 0)) {
		kc_ir_limit(a, fc->fn, kc_cx_loc(fc->fe, c),
		            "the sign of this division's numerator is unknown without benchmark sizes: C truncates "
		            "toward zero, the formula takes the floor (right where the numerator is non-negative)");
	}
	int d = kc_sym_floor_by(a, fc->fn, x, y);
	if (d < 0)
		return -1;
	struct kc_poly *q = kc_poly_sym(a, d), *yq;
	if (!rem) {
		*out = q;
		return 0;
	}
	return kc_poly_mul(a, y, q, &yq) < 0 ? -1 : kc_poly_sub(a, x, yq, out);
}

/* C's integer x / y (rem: x % y) at cursor c, both operands converted. C truncates toward zero, also for
 * negative operands, and x % y is x - y*(x / y):
 *   - constants fold so (an unsigned division of a negative value is left to clang's evaluation);
 *   - a constant y dividing every coefficient of x gives the exact quotient;
 *   - otherwise x must hold sizes only and y be a constant: the quotient is the derived symbol floor(x/|y|),
 *     which is the truncation where x >= 0. That is proved when x is a sum of sizes with non-negative
 *     coefficients, else decided at the benchmark sizes (x < 0 there: -floor(-x/|y|)), as count.c decides
 *     the order of bounds (in an unsigned type a negative x wraps around: no closed form); without
 *     benchmark values it is assumed, with a warning (the function is inexact).
 * A division by zero is a warning. -1 when there is no closed form (a divisor that is not a constant, a
 * floor of loop variables, a full symbol table): the caller reports the expression as not affine. */
static int quotient(struct fctx *fc, CXCursor c, struct kc_poly *x, struct kc_poly *y, int rem, struct kc_poly **out)
{
	struct kc_arena *a = fc->fe->a;
	struct kc_rat k, cx;
	if (!kc_poly_is_const(y, &k))
		return quotient_by_size(fc, c, x, y, rem, out);
	if (k.den != 1)
		return -1;
	if (k.num == 0) {
		kc_ir_limit(a, fc->fn, kc_cx_loc(fc->fe, c), "integer %s by zero: the expression is not counted",
		            rem ? "remainder" : "division");
		return -1;
	}
	__int128 lo, hi;
	int is_unsigned = kc_cx_int_range(clang_getCursorType(c), &lo, &hi) == 0 && lo == 0;
	if (kc_poly_is_const(x, &cx) && cx.den == 1) {
		long long v;
		if (is_unsigned && (cx.num < 0 || k.num < 0)) {
			if (!kc_cx_eval_int(c, &v))
				return -1;
			*out = kc_poly_const(a, v, 1);
			return 0;
		}
		__int128 q = cx.num / k.num; /* C99 and __int128 division both truncate toward zero */
		*out = kc_poly_rat(a, (struct kc_rat){rem ? cx.num - q * k.num : q, 1});
		return *out ? 0 : -1;
	}
	struct kc_rat mag = {k.num < 0 ? -k.num : k.num, 1}, inv;
	struct kc_poly *q;
	if (kc_rat_div(kc_rat_int(1), mag, &inv) < 0 || kc_poly_scale(a, x, inv, &q) < 0)
		return -1;
	int divisible = 1;
	for (int t = 0; t < kc_poly_nterms(q); t++)
		divisible &= kc_poly_term_coef(q, t).den == 1;
	if (!divisible) {
		if (has_loop_var(fc, x) || mag.num > 0x7fffffffffffffff)
			return -1;
		long long v;
		const char *why;
		int negative = 0;
		if (!nonneg_sizes(fc->fn, x, 0)) {
			if (kc_function_eval(fc->fn, x, &v, &why) == 0) {
				negative = v < 0;
				if (negative && is_unsigned)
					return -1; /* C's value wraps around: no floor of the sizes */
			} else
				kc_ir_limit(
				    a, fc->fn, kc_cx_loc(fc->fe, c),
				    "the sign of this division's numerator is unknown without benchmark sizes: C "
				    "truncates toward zero, the formula takes the floor (right where the "
				    "numerator is non-negative)");
		}
		struct kc_poly *num = x;
		if (negative && kc_poly_neg(a, x, &num) < 0)
			return -1;
		int d = kc_sym_floor(a, fc->fn, num, (long long)mag.num);
		if (d < 0)
			return -1;
		q = kc_poly_sym(a, d);
		if (negative && kc_poly_neg(a, q, &q) < 0)
			return -1;
	}
	if (k.num < 0 && kc_poly_neg(a, q, &q) < 0)
		return -1;
	if (!rem) {
		*out = q;
		return 0;
	}
	struct kc_poly *yq;
	return kc_poly_mul(a, y, q, &yq) < 0 ? -1 : kc_poly_sub(a, x, yq, out);
}

/* x >> k as floor(x / 2^k) (pow2 = 2^k), or (low) x & (2^k - 1) as x - 2^k*floor(x / 2^k): in two's complement
 * both are the floor's, for negative x too, so no sign needs proving (unlike C's truncating x / y). Constants
 * fold (by clang); an unsigned x that may be negative at the benchmark sizes wraps around: -1, as for a floor
 * of loop variables. */
static int shifted(struct fctx *fc, CXCursor c, struct kc_poly *x, long long pow2, int low, struct kc_poly **out)
{
	struct kc_arena *a = fc->fe->a;
	struct kc_rat cx;
	long long v;
	if (kc_poly_is_const(x, &cx)) {
		if (!kc_cx_eval_int(c, &v))
			return -1;
		*out = kc_poly_const(a, v, 1);
		return 0;
	}
	if (has_loop_var(fc, x))
		return -1;
	__int128 lo, hi;
	const char *why;
	if (kc_cx_int_range(clang_getCursorType(c), &lo, &hi) == 0 && lo == 0 && !nonneg_sizes(fc->fn, x, 0) &&
	    (kc_function_eval(fc->fn, x, &v, &why) < 0 || v < 0))
		return -1;
	int d = kc_sym_floor(a, fc->fn, x, pow2);
	if (d < 0)
		return -1;
	struct kc_poly *q = kc_poly_sym(a, d), *scaled;
	if (!low) {
		*out = q;
		return 0;
	}
	return kc_poly_scale(a, q, kc_rat_int(pow2), &scaled) < 0 ? -1 : kc_poly_sub(a, x, scaled, out);
}

static int binop_poly(struct fctx *fc, CXCursor c, struct kc_poly **out)
{
	struct child_list l;
	kc_cx_children(c, &l);
	struct kc_poly *x, *y;
	if (l.n != 2 || kc_affine_expr(fc, l.c[0], &x) < 0 || kc_affine_expr(fc, l.c[1], &y) < 0)
		return -1;
	struct kc_arena *a = fc->fe->a;
	struct kc_rat k;
	switch (clang_getCursorBinaryOperatorKind(c)) {
	case CXBinaryOperator_Add:
		return kc_poly_add(a, x, y, out);
	case CXBinaryOperator_Sub:
		return kc_poly_sub(a, x, y, out);
	case CXBinaryOperator_Mul:
		return kc_poly_mul(a, x, y, out);
	case CXBinaryOperator_Shl:
		if (!kc_poly_is_const(y, &k) || k.den != 1 || k.num < 0 || k.num > 62)
			return -1;
		return kc_poly_scale(a, x, kc_rat_int(1LL << (int)k.num), out);
	case CXBinaryOperator_Shr:
		if (!kc_poly_is_const(y, &k) || k.den != 1 || k.num < 0 || k.num > 62)
			return -1;
		return shifted(fc, c, x, 1LL << (int)k.num, 0, out);
	case CXBinaryOperator_And: /* x & (2^k - 1): the low k bits */
		if (!kc_poly_is_const(y, &k) || k.den != 1 || k.num < 0 || k.num > (1LL << 62) - 1 ||
		    (k.num & (k.num + 1)) != 0)
			return -1;
		return shifted(fc, c, x, (long long)k.num + 1, 1, out);
	case CXBinaryOperator_Div:
	case CXBinaryOperator_Rem:
		return quotient(fc, c, x, y, clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Rem, out);
	default:
		return -1;
	}
}

/* The const integer table c's subscript reads from: a one-dimensional array declared const with an
 * initializer list of constants (rnnoise's `const int eband20ms[NB_BANDS+2] = {0, 2, 4, ...}`), which no
 * correct program writes. Its entries into *vals (the list's, the rest of the declared size 0), its size into
 * *n; -1 for any other array or an initializer kcost does not read (designators, a non-constant entry, more
 * than KC_MAX_TABLE entries). */
static int const_table(struct fctx *fc, CXCursor base, long long **vals, long long *n)
{
	base = kc_cx_strip(base);
	if (clang_getCursorKind(base) != CXCursor_DeclRefExpr)
		return -1;
	CXCursor d = clang_getCursorReferenced(base);
	CXType t = clang_getCursorType(d);
	if (clang_getCursorKind(d) != CXCursor_VarDecl || t.kind != CXType_ConstantArray)
		return -1;
	CXType e = clang_getArrayElementType(t);
	long long size = clang_getArraySize(t);
	if (!clang_isConstQualifiedType(e) || !kc_cx_is_integer_type(e) || size <= 0 || size > KC_MAX_TABLE)
		return -1;
	struct child_list l, il;
	kc_cx_children(d, &l);
	if (!l.n || clang_getCursorKind(l.c[l.n - 1]) != CXCursor_InitListExpr)
		return -1;
	if (fc->table_n && clang_equalCursors(fc->table_decl, d)) { /* the last table read */
		*vals = fc->table_vals;
		*n = fc->table_n;
		return 0;
	}
	CXCursor list = l.c[l.n - 1];
	kc_cx_children(list, &il);
	if (il.n > size)
		return -1;
	/* a designator ([1] = 3, .x = 1) places entries where kcost does not follow: its `=` is the only one a
	 * constant initializer can hold */
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(list);
	CXToken *toks;
	unsigned nt;
	int designated = 0;
	clang_tokenize(tu, clang_getCursorExtent(list), &toks, &nt);
	for (unsigned i = 0; i < nt && !designated; i++)
		if (clang_getTokenKind(toks[i]) == CXToken_Punctuation) {
			CXString sp = clang_getTokenSpelling(tu, toks[i]);
			designated = !strcmp(clang_getCString(sp), "=");
			clang_disposeString(sp);
		}
	clang_disposeTokens(tu, toks, nt);
	if (designated)
		return -1;
	long long *v = KC_NEW_N(fc->fe->a, long long, size);
	for (int i = 0; i < il.n; i++) {
		CXCursor x = kc_cx_strip(il.c[i]);
		if (clang_getCursorKind(x) == CXCursor_InitListExpr || !kc_cx_eval_int(x, &v[i]))
			return -1;
	}
	fc->table_decl = d;
	fc->table_vals = *vals = v;
	fc->table_n = *n = size;
	return 0;
}

int kc_affine_table_entry(struct fctx *fc, CXCursor c, long long *out)
{
	struct child_list l;
	long long *vals, n;
	struct kc_poly *ix;
	struct kc_rat k;
	c = kc_cx_strip(c);
	if (clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr)
		return -1;
	kc_cx_children(c, &l);
	if (l.n != 2 || const_table(fc, l.c[0], &vals, &n) < 0 || kc_affine_expr(fc, l.c[1], &ix) < 0 ||
	    !kc_poly_is_const(ix, &k) || k.den != 1 || k.num < 0 || k.num >= n)
		return -1;
	*out = vals[k.num];
	return 0;
}

int kc_affine_refers_to(struct fctx *fc, CXCursor c, const struct var *v, int depth)
{
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
		return kc_affine_var_of(fc, c) == v;
	struct child_list l;
	kc_cx_children(c, &l);
	for (int i = 0; i < l.n; i++)
		if (depth >= KC_MAX_DEPTH || kc_affine_refers_to(fc, l.c[i], v, depth + 1))
			return 1;
	return 0;
}

int kc_affine_reads_table(struct fctx *fc, CXCursor c, const struct var *v, int depth)
{
	if (depth > KC_MAX_DEPTH)
		return 0;
	c = kc_cx_strip(c);
	struct child_list l;
	kc_cx_children(c, &l);
	long long *vals, n;
	if (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr && l.n == 2 &&
	    const_table(fc, l.c[0], &vals, &n) == 0 && kc_affine_refers_to(fc, l.c[1], v, 0))
		return 1;
	for (int i = 0; i < l.n; i++)
		if (kc_affine_reads_table(fc, l.c[i], v, depth + 1))
			return 1;
	return 0;
}

/* Convert an integer expression to a polynomial in size symbols and loop variables; -1 when it is not one
 * (data-dependent, floating, or an unsupported operator). */
static int expr_poly(struct fctx *fc, CXCursor c, struct kc_poly **out)
{
	struct kc_arena *a = fc->fe->a;
	long long v;
	c = kc_cx_strip(c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_UnaryExpr: /* sizeof */
		if (!kc_cx_eval_int(c, &v))
			return -1;
		*out = kc_poly_const(a, v, 1);
		return 0;
	case CXCursor_DeclRefExpr: {
		struct var *var = kc_affine_var_of(fc, c);
		if (var && (var->kind == V_SIZE || var->kind == V_LOOP) && var->sym >= 0) {
			*out = kc_poly_sym(a, var->sym);
			return 0;
		}
		if (var && var->kind == V_INT && var->value) {
			*out = var->value;
			return 0;
		}
		if (!var && kc_cx_eval_int(c, &v)) { /* enumerators, constants */
			*out = kc_poly_const(a, v, 1);
			return 0;
		}
		return -1;
	}
	case CXCursor_BinaryOperator:
		return binop_poly(fc, c, out);
	case CXCursor_UnaryOperator: {
		struct child_list l;
		kc_cx_children(c, &l);
		struct kc_poly *x;
		if (l.n != 1 || kc_affine_expr(fc, l.c[0], &x) < 0)
			return -1;
		enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);
		struct var *w = kc_affine_var_of(fc, l.c[0]);
		if (k == CXUnaryOperator_Plus ||
		    (w && w->ind_after && (k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PostDec))) {
			*out = x; /* x[ix++] of an induction variable: the value before the step */
			return 0;
		}
		return k == CXUnaryOperator_Minus ? kc_poly_neg(a, x, out) : -1;
	}
	case CXCursor_CallExpr:
		return call_poly(fc, c, out);
	case CXCursor_ArraySubscriptExpr:
		if (kc_affine_table_entry(fc, c, &v) < 0)
			return -1;
		*out = kc_poly_const(a, v, 1);
		return 0;
	default:
		if (kc_cx_is_integer_type(clang_getCursorType(c)) && kc_cx_eval_int(c, &v)) {
			*out = kc_poly_const(a, v, 1);
			return 0;
		}
		return -1;
	}
}

int kc_affine_expr(struct fctx *fc, CXCursor c, struct kc_poly **out)
{
	if (kc_cx_enter(fc, c) < 0)
		return -1;
	int rc = expr_poly(fc, c, out);
	kc_cx_leave(fc);
	return rc;
}

/* ------------------------------------------------------------------------------------------------ */
/* min()/max() bounds: `a < b ? a : b`, and helpers whose body returns such a conditional. */

enum { BOUND_MIN = 1, BOUND_MAX = 2 };

/* Collect the operands of a min (want == BOUND_MIN) or max expression into out[]; a plain expression is
 * a one-operand min/max. Returns the operand count or -1. */
static int minmax_operands(struct fctx *fc, CXCursor c, int want, struct kc_poly **out, int cap);

static int conditional_minmax(struct fctx *fc, CXCursor c, int want, struct kc_poly **out, int cap)
{
	struct child_list l;
	kc_cx_children(c, &l);
	if (l.n != 3)
		return -1;
	CXCursor cond = kc_cx_strip(l.c[0]);
	if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
		return -1;
	struct child_list cl;
	kc_cx_children(cond, &cl);
	struct kc_poly *p, *q, *x, *y, *d1, *d2;
	if (cl.n != 2 || kc_affine_expr(fc, cl.c[0], &p) < 0 || kc_affine_expr(fc, cl.c[1], &q) < 0 ||
	    kc_affine_expr(fc, l.c[1], &x) < 0 || kc_affine_expr(fc, l.c[2], &y) < 0)
		return -1;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(cond);
	int less = k == CXBinaryOperator_LT || k == CXBinaryOperator_LE;
	int greater = k == CXBinaryOperator_GT || k == CXBinaryOperator_GE;
	if (!less && !greater)
		return -1;
	/* p < q ? p : q is min(p, q); p < q ? q : p is max(p, q) */
	if (kc_poly_sub(fc->fe->a, p, x, &d1) < 0 || kc_poly_sub(fc->fe->a, q, y, &d2) < 0)
		return -1;
	int picks_first = kc_poly_is_zero(d1) && kc_poly_is_zero(d2);
	if (!picks_first && !(kc_poly_equal(p, y) && kc_poly_equal(q, x)))
		return -1;
	int is_min = less == picks_first;
	if ((is_min ? BOUND_MIN : BOUND_MAX) != want || cap < 2)
		return -1;
	out[0] = p;
	out[1] = q;
	return 2;
}

static int minmax_operands(struct fctx *fc, CXCursor c, int want, struct kc_poly **out, int cap)
{
	c = kc_cx_strip(c);
	if (cap < 1)
		return -1;
	if (kc_affine_expr(fc, c, &out[0]) == 0)
		return 1;
	struct var *v = kc_affine_var_of(fc, c);
	if (v && v->kind == V_INT && v->n_minmax && v->minmax_kind == want && v->n_minmax <= cap) {
		memcpy(out, v->minmax, sizeof *out * (size_t)v->n_minmax);
		return v->n_minmax;
	}
	if (clang_getCursorKind(c) == CXCursor_ConditionalOperator)
		return conditional_minmax(fc, c, want, out, cap);
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		CXCursor fn;
		CXCursor ret = single_return_body(c, &fn);
		if (clang_Cursor_isNull(ret))
			return -1;
		if (kc_cx_enter(fc, c) < 0)
			return -1;
		int saved = fc->n_vars;
		int n = bind_args(fc, c, fn) < 0 ? -1 : minmax_operands(fc, ret, want, out, cap);
		fc->n_vars = saved;
		kc_cx_leave(fc);
		return n;
	}
	return -1;
}

void kc_affine_note_minmax(struct fctx *fc, struct var *v, CXCursor init)
{
	struct kc_poly *ops[KC_MAX_BOUNDS];
	for (int want = BOUND_MIN; want <= BOUND_MAX; want++) {
		int n = minmax_operands(fc, init, want, ops, KC_MAX_BOUNDS);
		if (n > 1) {
			v->minmax = KC_NEW_N(fc->fe->a, struct kc_poly *, n);
			memcpy(v->minmax, ops, sizeof *ops * (size_t)n);
			v->n_minmax = n;
			v->minmax_kind = want;
			return;
		}
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Loop headers and guards */

/* The loop variable and its start value from the init clause (declaration or assignment) or, without an
 * init, from the variable's tracked value (the remainder loop after an unrolled one). */
struct var *kc_affine_loop_var(struct fctx *fc, struct kc_cx_for_parts *p, struct kc_poly **start)
{
	*start = NULL;
	CXCursor decl = clang_getNullCursor(), init = clang_getNullCursor();
	int param = 0;
	if (!clang_Cursor_isNull(p->init)) {
		CXCursor s = kc_cx_strip(p->init);
		if (clang_getCursorKind(s) == CXCursor_DeclStmt) {
			struct child_list l;
			kc_cx_children(s, &l);
			if (l.n != 1)
				return NULL;
			decl = l.c[0];
			struct child_list vl;
			kc_cx_children(decl, &vl);
			for (int i = 0; i < vl.n; i++)
				if (clang_isExpression(clang_getCursorKind(vl.c[i])))
					init = vl.c[i];
		} else if (clang_getCursorKind(s) == CXCursor_BinaryOperator &&
		           clang_getCursorBinaryOperatorKind(s) == CXBinaryOperator_Assign) {
			struct child_list l;
			kc_cx_children(s, &l);
			if (l.n != 2 || clang_getCursorKind(kc_cx_strip(l.c[0])) != CXCursor_DeclRefExpr)
				return NULL;
			decl = clang_getCursorReferenced(kc_cx_strip(l.c[0]));
			init = l.c[1];
		} else {
			return NULL;
		}
		if (clang_Cursor_isNull(init) || kc_affine_expr(fc, init, start) < 0)
			*start = NULL; /* data-dependent start (CSR rowptr[i]): only KCOST_TRIPS can count it */
	} else {
		/* no init: the variable of the condition keeps the value it had */
		CXCursor cond = kc_cx_strip(p->cond);
		struct child_list l;
		kc_cx_children(cond, &l);
		for (int i = 0; i < l.n && clang_Cursor_isNull(decl); i++) {
			CXCursor s = kc_cx_strip(l.c[i]);
			if (clang_getCursorKind(s) == CXCursor_BinaryOperator) {
				struct child_list sl;
				kc_cx_children(s, &sl);
				s = sl.n ? kc_cx_strip(sl.c[0]) : s;
			}
			if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
				struct var *v = kc_affine_var_of(fc, s);
				if (v && (v->kind == V_INT || v->kind == V_LOOP)) {
					decl = v->decl;
					*start = v->kind == V_INT ? v->value : NULL;
				} else if (v && v->kind == V_SIZE && v->sym >= 0) {
					/* for (; n > 0; n--) on a size parameter: a loop variable from n's value */
					decl = v->decl;
					*start = kc_poly_sym(fc->fe->a, v->sym);
					param = 1;
				}
			}
		}
		if (!*start)
			return NULL;
	}
	struct var *v = kc_affine_add_var(fc, decl, V_LOOP);
	if (!v)
		return NULL;
	char *name = kc_cx_spelling(fc->fe->a, decl);
	if (param) /* the size keeps its symbol; the variable counting it down gets its own */
		name = kc_arena_printf(fc->fe->a, "%s'", name);
	v->sym = kc_sym_named(fc->fn, name);
	if (v->sym < 0) {
		v->kind = V_INT; /* of unknown value */
		kc_cx_warn(fc, decl, KC_WARNING,
		           "more than " KC_TEXT(KC_POLY_MAX_SYMS) " size parameters and loop variables: "
		                                                  "loop variable '%s' is not a symbol",
		           name);
		return NULL;
	}
	if (v->sym >= fc->fn->n_size_params && !fc->fn->syms.syms[v->sym].has_value)
		fc->fn->syms.syms[v->sym].is_loop = 1;
	return v;
}

/* A step amount d that is an expression of the sizes: positive at the benchmark sizes, or (without values) a
 * sum of sizes with non-negative coefficients, which the caller notes it takes to be positive. */
static int positive_step(struct fctx *fc, struct kc_poly *d)
{
	long long v;
	const char *why;
	if (has_loop_var(fc, d))
		return 0;
	if (kc_function_eval(fc->fn, d, &v, &why) == 0)
		return v > 0;
	return nonneg_sizes(fc->fn, d, 0);
}

/* The step from the increment: ++, --, += c, -= c, v = v + c; with by, += s and v = v + s for a positive
 * expression s of the sizes. */
int kc_affine_loop_step(struct fctx *fc, CXCursor inc, struct var *v, long long *step, struct kc_poly **by)
{
	CXCursor s = kc_cx_strip(inc);
	struct child_list l;
	kc_cx_children(s, &l);
	if (by)
		*by = NULL;
	if (clang_Cursor_isNull(s) || l.n < 1 || kc_affine_var_of(fc, l.c[0]) != v)
		return -1;
	if (clang_getCursorKind(s) == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(s);
		*step = k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc   ? 1
		        : k == CXUnaryOperator_PostDec || k == CXUnaryOperator_PreDec ? -1
		                                                                      : 0;
		return *step ? 0 : -1;
	}
	struct kc_poly *d;
	struct kc_rat r;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(s);
	if (l.n != 2)
		return -1;
	if (k == CXBinaryOperator_AddAssign || k == CXBinaryOperator_SubAssign) {
		if (kc_affine_expr(fc, l.c[1], &d) < 0)
			return -1;
	} else if (k == CXBinaryOperator_Assign) {
		/* a variable without a symbol (none was left for it) has no step that kcost can state */
		struct kc_poly *val, *sym = kc_poly_sym(fc->fe->a, v->sym);
		if (!sym || kc_affine_expr(fc, l.c[1], &val) < 0 || kc_poly_sub(fc->fe->a, val, sym, &d) < 0 ||
		    kc_poly_has_sym(d, v->sym))
			return -1;
	} else {
		return -1;
	}
	if (kc_poly_is_const(d, &r)) {
		if (r.den != 1 || r.num == 0)
			return -1;
		*step = k == CXBinaryOperator_SubAssign ? -(long long)r.num : (long long)r.num;
		return 0;
	}
	if (!by || k == CXBinaryOperator_SubAssign || !positive_step(fc, d))
		return -1;
	*step = KC_STEP_BY;
	*by = d;
	return 0;
}

/* Turn one comparison into bounds on the loop variable: lhs OP rhs with v's coefficient +-1 on one side.
 * Appends to upper[] (v <= bound) or lower[] (v >= bound); -2 when they are full. */
int kc_affine_loop_cond(struct fctx *fc, CXCursor cond, struct kc_node *loop, long long step)
{
	struct kc_arena *a = fc->fe->a;
	cond = kc_cx_strip(cond);
	if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
		return -1;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(cond);
	struct child_list l;
	kc_cx_children(cond, &l);
	if (l.n != 2)
		return -1;
	if (k == CXBinaryOperator_LAnd) {
		if (kc_cx_enter(fc, cond) < 0)
			return -1;
		int rc = kc_affine_loop_cond(fc, l.c[0], loop, step);
		if (rc == 0)
			rc = kc_affine_loop_cond(fc, l.c[1], loop, step);
		kc_cx_leave(fc);
		return rc;
	}
	/* normalize to  coef*v + rest  OP'  0  with rest free of v, then to v <= / >= bound */
	struct kc_poly *ops[KC_MAX_BOUNDS];
	int want = k == CXBinaryOperator_LT || k == CXBinaryOperator_LE || (k == CXBinaryOperator_NE && step > 0)
	               ? BOUND_MIN
	               : BOUND_MAX;
	struct kc_poly *lhs;
	int nr = 0;
	if (kc_affine_expr(fc, l.c[0], &lhs) < 0 || (nr = minmax_operands(fc, l.c[1], want, ops, KC_MAX_BOUNDS)) < 0)
		return -1;
	for (int i = 0; i < nr; i++) {
		/* the rest may hold products of sizes and outer variables (i < B*T, j < h*stride) */
		struct kc_poly *diff, *rest, *cp;
		struct kc_rat coef;
		if (kc_poly_sub(a, lhs, ops[i], &diff) < 0 ||
		    kc_poly_split_linear(a, diff, loop->var, &cp, &rest) < 0 || !kc_poly_is_const(cp, &coef) ||
		    coef.den != 1 || (coef.num != 1 && coef.num != -1))
			return -1;
		/* coef*v + rest OP 0, coef = +-1:  v OP' -coef*rest */
		struct kc_poly *bound;
		if (kc_poly_scale(a, rest, kc_rat_int(coef.num == 1 ? -1 : 1), &bound) < 0)
			return -1;
		enum CXBinaryOperatorKind kk = k;
		if (coef.num == -1) /* -v + rest < 0  <=>  v > rest */
			kk = k == CXBinaryOperator_LT   ? CXBinaryOperator_GT
			     : k == CXBinaryOperator_LE ? CXBinaryOperator_GE
			     : k == CXBinaryOperator_GT ? CXBinaryOperator_LT
			     : k == CXBinaryOperator_GE ? CXBinaryOperator_LE
			                                : k;
		struct kc_poly *one = kc_poly_const(a, 1, 1);
		/* v < b is v <= b - 1, v > b is v >= b + 1; v != b stepping by +1 (-1) toward b is v <= b - 1 (v >= b +
		 * 1) */
		int upper =
		    kk == CXBinaryOperator_LT || kk == CXBinaryOperator_LE || (kk == CXBinaryOperator_NE && step == 1);
		int lower =
		    kk == CXBinaryOperator_GT || kk == CXBinaryOperator_GE || (kk == CXBinaryOperator_NE && step == -1);
		if (!upper && !lower)
			return -1;
		if ((kk == CXBinaryOperator_LT || (kk == CXBinaryOperator_NE && upper)) &&
		    kc_poly_sub(a, bound, one, &bound) < 0)
			return -1;
		if ((kk == CXBinaryOperator_GT || (kk == CXBinaryOperator_NE && lower)) &&
		    kc_poly_add(a, bound, one, &bound) < 0)
			return -1;
		if ((upper ? loop->n_upper : loop->n_lower) >= KC_MAX_BOUNDS)
			return -2;
		if (upper)
			loop->upper[loop->n_upper++] = bound;
		else
			loop->lower[loop->n_lower++] = bound;
	}
	return 0;
}

/* A bound that ends the loop (v <= b stepping up, v >= b stepping down) holds when v cannot wrap around
 * before it passes b:
 *   constant b:  the value after the last trip, last + step, is in v's type (with a constant start, last is
 *                start + floor((b - start) / step) * step, else b itself);
 *   symbolic b:  stepping up, v's type holds every non-negative int (sizes are assumed to fit in an int);
 *                stepping down, v is signed (sizes are assumed non-negative): an unsigned v >= m is always
 *                true when m is 0. */
static int bound_holds(const struct kc_poly *b, const struct kc_poly *start, long long step, __int128 lo, __int128 hi)
{
	struct kc_rat c, s;
	if (!kc_poly_is_const(b, &c) || c.den != 1)
		return step > 0 ? hi >= 0x7fffffff : lo < 0;
	if (c.num < lo || c.num > hi) /* outside the type: always true (wraps), or never (no trip) */
		return step > 0 ? c.num < lo : c.num > hi;
	__int128 last = c.num;
	if (kc_poly_is_const(start, &s) && s.den == 1) {
		__int128 span = step > 0 ? c.num - s.num : s.num - c.num, mag = step > 0 ? step : -(__int128)step;
		if (span < 0)
			return 1; /* no trip: v is never stepped */
		last = step > 0 ? s.num + span / mag * mag : s.num - span / mag * mag;
	}
	return step > 0 ? last + step <= hi : last + step >= lo;
}

/* 1 when the comparison c (not an &&) converts its operands to an unsigned type. */
static int compares_unsigned_one(CXCursor c)
{
	c = kc_cx_strip(c);
	struct child_list l;
	__int128 lo, hi;
	if (clang_getCursorKind(c) != CXCursor_BinaryOperator)
		return 0;
	kc_cx_children(c, &l);
	return l.n == 2 && kc_cx_int_range(clang_getCursorType(l.c[0]), &lo, &hi) == 0 && lo == 0;
}

/* 1 when a comparison of cond (&&-joined) converts its operands to an unsigned type: a negative value of a
 * signed loop variable then compares as a huge one (`int i = -1; i < 10u` runs 0 times). Walks the left spine
 * of the && chain without recursing. */
static int compares_unsigned(CXCursor cond)
{
	CXCursor c = kc_cx_strip(cond);
	while (clang_getCursorKind(c) == CXCursor_BinaryOperator) {
		struct child_list l;
		kc_cx_children(c, &l);
		if (l.n != 2)
			return 0;
		if (clang_getCursorBinaryOperatorKind(c) != CXBinaryOperator_LAnd)
			return compares_unsigned_one(c);
		if (compares_unsigned_one(l.c[1]))
			return 1;
		c = kc_cx_strip(l.c[0]);
	}
	return 0;
}

int kc_affine_loop_wraps(struct fctx *fc, const struct var *v, CXCursor cond, const struct kc_node *loop)
{
	__int128 lo, hi;
	struct kc_rat s;
	if (kc_cx_int_range(clang_getCursorType(v->decl), &lo, &hi) < 0)
		return 0; /* not an integer (kcost follows integer loop variables only) */
	int as_unsigned = lo < 0 && compares_unsigned(cond);
	if (as_unsigned)
		lo = 0;
	const struct kc_poly *start = loop->step > 0 ? loop->lower[0] : loop->upper[0];
	__int128 mag = loop->step > 0 ? loop->step : -(__int128)loop->step;
	long long step = loop->step, by;
	const char *why;
	if (loop->step_by) /* its value at the benchmark sizes, else one that fits in an int (as sizes do) */
		mag = step = kc_function_eval(fc->fn, loop->step_by, &by, &why) == 0 ? by : 0x7fffffff;
	if (mag > hi || (kc_poly_is_const(start, &s) && s.den == 1 && (s.num < lo || s.num > hi)))
		return 1 + as_unsigned;
	int n = loop->step > 0 ? loop->n_upper : loop->n_lower;
	for (int i = 0; i < n; i++)
		if (bound_holds(loop->step > 0 ? loop->upper[i] : loop->lower[i], start, step, lo, hi))
			return 0;
	return 1 + as_unsigned;
}

struct kc_poly *kc_affine_trips(struct fctx *fc, struct var *v)
{
	char *name = kc_cx_spelling(fc->fe->a, v->decl);
	for (int i = 0; i < fc->n_trips; i++)
		if (!strcmp(fc->trips_var[i], name)) {
			fc->trips_named[i] = 1;
			return fc->trips_total[i];
		}
	return NULL;
}

/* The value of the loop variable after the loop:
 *   for (v = start; v <= end; v += s)  ->  start + s*(last + 1), last = floor((end - start)/s)  (s > 0)
 * with last as kc_ir_loop_last_step gives it; NULL when it has several bounds or needs a floor of loop
 * variables. */
struct kc_poly *kc_affine_exit_value(struct fctx *fc, const struct kc_node *loop)
{
	struct kc_arena *a = fc->fe->a;
	if (loop->n_lower != 1 || loop->n_upper != 1)
		return NULL;
	int loop_vars[KC_POLY_MAX_SYMS] = {0};
	for (int i = 0; i < fc->n_vars; i++)
		if (var_at(fc, i)->kind == V_LOOP && var_at(fc, i)->sym >= 0 && var_at(fc, i)->sym < KC_POLY_MAX_SYMS)
			loop_vars[var_at(fc, i)->sym] = 1;
	struct kc_poly *last, *q, *r;
	const struct kc_poly *start = loop->step > 0 ? loop->lower[0] : loop->upper[0];
	const struct kc_poly *end = loop->step > 0 ? loop->upper[0] : loop->lower[0];
	if (kc_ir_loop_last_step(a, a, fc->fn, loop, end, loop_vars, &last, NULL) < 0 ||
	    kc_poly_add(a, last, kc_poly_const(a, 1, 1), &q) < 0 ||
	    kc_poly_mul(a, q, kc_ir_loop_step(a, loop), &q) < 0 || kc_poly_add(a, start, q, &r) < 0)
		return NULL;
	return r;
}

/* Guards `lhs OP rhs` (&&-joined) as affine constraints g >= 0 on integers; -2 when n->guard[] is full. */
static int has_loop_sym(const struct kc_function *fn, const struct kc_poly *g)
{
	for (int s = 0; s < fn->syms.n; s++)
		if (fn->syms.syms[s].is_loop && kc_poly_has_sym(g, s))
			return 1;
	return 0;
}

/* A guard counting can use: affine, or in sizes only (a product of sizes is decided at their values). */
static int guard_ok(const struct kc_function *fn, const struct kc_poly *g)
{
	return kc_poly_is_affine(g) || !has_loop_sym(fn, g);
}

static int add_guard(struct fctx *fc, struct kc_node *n, struct kc_poly *g)
{
	if (!guard_ok(fc->fn, g))
		return -1;
	if (n->n_guards >= KC_MAX_BOUNDS)
		return -2;
	n->guard[n->n_guards++] = g;
	return 0;
}

/* A buffer parameter (or a pointer into one) named by c. */
static int buffer_param(struct fctx *fc, CXCursor c)
{
	struct var *v = kc_affine_var_of(fc, c);
	return v && (v->kind == V_BUFFER || v->kind == V_ALIAS) && fc->fn->buffers[v->buffer].is_param &&
	       !fc->fn->buffers[v->buffer].is_local_array;
}

static int null_constant(CXCursor c)
{
	c = kc_cx_strip(c);
	long long v;
	return clang_getCursorKind(c) == CXCursor_IntegerLiteral && kc_cx_eval_int(c, &v) && v == 0;
}

/* A test of a buffer parameter against NULL: p, p != NULL, p == NULL (1 when it holds for a pointer that is not
 * NULL, 0 when it does not), -1 for anything else. Kernels are counted as the harness runs them, with every
 * buffer allocated: a note says so. */
static int null_test(struct fctx *fc, CXCursor c, enum CXBinaryOperatorKind k, const struct child_list *l)
{
	int r = -1;
	if (k == CXBinaryOperator_Invalid && buffer_param(fc, c))
		r = 1;
	else if ((k == CXBinaryOperator_EQ || k == CXBinaryOperator_NE) && l->n == 2 &&
	         ((buffer_param(fc, l->c[0]) && null_constant(l->c[1])) ||
	          (buffer_param(fc, l->c[1]) && null_constant(l->c[0]))))
		r = k == CXBinaryOperator_NE;
	if (r >= 0)
		kc_diag_add(fc->fe->a, &fc->fn->diags, kc_cx_loc(fc->fe, c), KC_NOTE, KC_DIAG_ASSUMPTION, fc->fn->name,
		            "a buffer parameter tested against NULL is counted as not NULL, as kcost runs it");
	return r;
}

/* The value of c when it is a floating-point scalar parameter (*param: its name) or a constant; -1 otherwise. */
static int scalar_value(struct fctx *fc, CXCursor c, double *v, const char **param)
{
	c = kc_cx_strip(c);
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (clang_getCursorKind(d) != CXCursor_ParmDecl)
			return -1;
		char *name = kc_cx_spelling(fc->fe->a, d);
		for (int i = 0; i < fc->fn->n_params; i++) {
			const struct kc_param *pr = &fc->fn->params[i];
			if (pr->kind == KC_PARAM_SCALAR && pr->is_float && *name && !strcmp(pr->name, name)) {
				*v = pr->value;
				*param = pr->name;
				return 0;
			}
		}
		return -1;
	}
	if (!kc_cx_is_constant(c))
		return -1;
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return -1;
	int rc = 0;
	switch (clang_EvalResult_getKind(r)) {
	case CXEval_Int:
		*v = (double)clang_EvalResult_getAsLongLong(r);
		break;
	case CXEval_Float:
		*v = clang_EvalResult_getAsDouble(r);
		break;
	default:
		rc = -1;
	}
	clang_EvalResult_dispose(r);
	return rc;
}

/* A comparison of a floating-point scalar parameter with a constant (`alpha == 0.0`, `beta != 1`): 1 when it
 * holds at the parameter's value (the one the run passes), 0 when it does not, -1 for anything else. A note
 * names the value. */
static int scalar_test(struct fctx *fc, CXCursor c, enum CXBinaryOperatorKind k, const struct child_list *l)
{
	if (l->n != 2 || kc_cx_float_prec(clang_getCursorType(kc_cx_strip(l->c[0]))) < 0)
		return -1;
	double x, y;
	const char *px = NULL, *py = NULL;
	if (scalar_value(fc, l->c[0], &x, &px) < 0 || scalar_value(fc, l->c[1], &y, &py) < 0 || (!px && !py))
		return -1;
	int r;
	switch (k) {
	case CXBinaryOperator_LT:
		r = x < y;
		break;
	case CXBinaryOperator_LE:
		r = x <= y;
		break;
	case CXBinaryOperator_GT:
		r = x > y;
		break;
	case CXBinaryOperator_GE:
		r = x >= y;
		break;
	case CXBinaryOperator_EQ:
		r = x == y;
		break;
	case CXBinaryOperator_NE:
		r = x != y;
		break;
	default:
		return -1;
	}
	const char *name = px ? px : py;
	struct kc_buf text = KC_BUF_INIT;
	kc_buf_printf(&text, "%s = ", name);
	kc_buf_double(&text, px ? x : y);
	if (!fc->probing)
		kc_diag_add(
		    fc->fe->a, &fc->fn->diags, kc_cx_loc(fc->fe, c), KC_NOTE, KC_DIAG_ASSUMPTION, fc->fn->name,
		    "a condition on the floating-point parameter '%s' is decided at %s, the value the run passes "
		    "(another: --scalar %s=VALUE)",
		    name, kc_buf_str(&text), name);
	kc_buf_release(&text);
	return r;
}

/* Append to n's guards the conjunction of constraints g >= 0 that is c (want == 1) or !c (want == 0):
 *   x < y: y - x - 1;  x <= y: y - x;  x == y: x - y and y - x;  A && B: both;  !A: A negated;
 *   !(x < y): x - y;   !(x != y): x - y and y - x;  !(A || B): !A and !B;  an integer e alone is e != 0;
 *   x != y in sizes only: (x - y)^2 - 1 (counting decides a guard in sizes only at their values).
 * -1 when it is no such conjunction (data-dependent, or a disjunction: x != y of loop variables, A || B,
 * !(A && B)), -2 when it needs more than KC_MAX_BOUNDS constraints. */
static int conjunction(struct fctx *fc, CXCursor c, int want, struct kc_node *n)
{
	struct kc_arena *a = fc->fe->a;
	c = kc_cx_strip(c);
	enum CXCursorKind kind = clang_getCursorKind(c);
	struct child_list l;
	kc_cx_children(c, &l);
	if (kind == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_LNot) {
		if (l.n != 1 || kc_cx_enter(fc, c) < 0)
			return -1;
		int rc = conjunction(fc, l.c[0], !want, n);
		kc_cx_leave(fc);
		return rc;
	}
	enum CXBinaryOperatorKind k =
	    kind == CXCursor_BinaryOperator ? clang_getCursorBinaryOperatorKind(c) : CXBinaryOperator_Invalid;
	if (k == CXBinaryOperator_LAnd || k == CXBinaryOperator_LOr) {
		if (l.n != 2 || (k == CXBinaryOperator_LAnd) != want || kc_cx_enter(fc, c) < 0)
			return -1;
		int rc = conjunction(fc, l.c[0], want, n);
		if (rc == 0)
			rc = conjunction(fc, l.c[1], want, n);
		kc_cx_leave(fc);
		return rc;
	}
	int is_null = null_test(fc, c, k, &l);
	if (is_null >= 0) /* p != NULL of a buffer parameter: true, as the harness runs it */
		return add_guard(fc, n, kc_poly_const(a, is_null == want ? 0 : -1, 1));
	int holds = scalar_test(fc, c, k, &l);
	if (holds >= 0) /* alpha == 0.0: decided at alpha's value */
		return add_guard(fc, n, kc_poly_const(a, holds == want ? 0 : -1, 1));
	struct kc_poly *x, *y, *g, *one = kc_poly_const(a, 1, 1);
	int cmp = k == CXBinaryOperator_LT || k == CXBinaryOperator_LE || k == CXBinaryOperator_GT ||
	          k == CXBinaryOperator_GE || k == CXBinaryOperator_EQ || k == CXBinaryOperator_NE;
	if (!cmp) { /* an integer e alone: e != 0 */
		if (!kc_cx_is_integer_type(clang_getCursorType(c)) || kc_affine_expr(fc, c, &x) < 0)
			return -1;
		y = kc_poly_zero(a);
		k = CXBinaryOperator_NE;
	} else if (l.n != 2 || kc_affine_expr(fc, l.c[0], &x) < 0 || kc_affine_expr(fc, l.c[1], &y) < 0) {
		return -1;
	}
	if (k == CXBinaryOperator_EQ || k == CXBinaryOperator_NE) {
		if (kc_poly_sub(a, x, y, &g) < 0)
			return -1;
		if ((k == CXBinaryOperator_EQ) != want) {
			/* x != y is a disjunction; in sizes only (decided at their values) it is (x - y)^2 - 1 >= 0 */
			if (has_loop_sym(fc->fn, g) || kc_poly_mul(a, g, g, &g) < 0 || kc_poly_sub(a, g, one, &g) < 0)
				return -1;
			return add_guard(fc, n, g);
		}
		int rc = add_guard(fc, n, g);
		if (rc < 0 || kc_poly_sub(a, y, x, &g) < 0)
			return rc < 0 ? rc : -1;
		return add_guard(fc, n, g);
	}
	/* want: x < y, x <= y, x > y, x >= y;  !want: their complements x >= y, x > y, x <= y, x < y */
	int less = k == CXBinaryOperator_LT || k == CXBinaryOperator_LE,
	    strict = k == CXBinaryOperator_LT || k == CXBinaryOperator_GT;
	if (!want) {
		less = !less;
		strict = !strict;
	}
	if (kc_poly_sub(a, less ? y : x, less ? x : y, &g) < 0 || (strict && kc_poly_sub(a, g, one, &g) < 0))
		return -1;
	return add_guard(fc, n, g);
}

int kc_affine_guards(struct fctx *fc, CXCursor c, struct kc_node *n)
{
	int rc = conjunction(fc, c, 1, n);
	if (rc == -1) {
		n->n_guards = 0;
		rc = conjunction(fc, c, 0, n);
		if (rc == 0)
			return 1;
	}
	if (rc < 0)
		n->n_guards = 0;
	return rc;
}
