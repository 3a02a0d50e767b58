/* frontend.c — libclang front end: parse, reprint clang's diagnostics, and lower each function's body to
 * the kernel IR (loops with affine bounds, statements with costs and accesses). The only file of kcost
 * that includes clang-c/Index.h. Visitor state travels through client_data; every CXString is disposed
 * in the scope that obtained it. libclang is used from one thread only; the passes after lowering may run on
 * a second one (see counter_thread). */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include <pthread.h>
#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer.h"
#include "annotate.h"
#include "frontend.h"
#include "source.h"

#define MAX_CHILDREN 64
#define MAX_VARS 512
#define MAX_TRIPS 8

/* ------------------------------------------------------------------------------------------------ */
/* Translation-unit state */

enum fn_state { FN_UNSEEN, FN_ACTIVE, FN_DONE };

struct tu_func {
	CXCursor cursor;
	const char *name;
	enum fn_state state;
	struct kc_fn_ir *ir; /* NULL until analyzed (or if it failed) */
	int job;             /* its place in the counter's queue (when the counter runs) */
};

/* Counting, footprints and dataflow read only the IR, never libclang: with a second core, a counter thread
 * does them for one function while this thread lowers the next. Jobs are done in the order they are queued,
 * which is the order functions finish lowering: a callee before its callers. */
struct count_job {
	struct kc_fn_ir *ir;
	int sized; /* KCOST_SIZES given: reported even without loops */
};

struct counter_thread {
	int running;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct kc_arena *a;     /* where the counts go: the analysis's second arena */
	struct count_job *jobs; /* [cap]: at most one per function of the file */
	int queued, done, cap;  /* under mu */
	int closing;            /* under mu: no more jobs */
	int sleeping;           /* under mu: the counter waits for jobs */
};

/* The counter is woken when this many jobs wait (or when one is needed now): a wake-up per function cost
 * more than counting it. */
#define COUNTER_BATCH 8

struct fe {
	struct kc_analysis *an;
	struct kc_arena *a;
	const struct kc_analyze_opts *opts;
	const char *path; /* the input as the user named it */
	CXFile main_file;
	const struct kc_source *main_src; /* the main file's lines (source.h), for location(); NULL: ask libclang */
	struct tu_func *funcs; /* the file's function definitions (malloc'd, grown by doubling) */
	int n_funcs, cap_funcs;
	struct fctx *spare;    /* one per-function state kept for reuse (it is large) */
	struct counter_thread counter;
	regex_t re;
	int has_re;
};

/* A variable the body refers to. */
enum var_kind { V_SIZE, V_LOOP, V_INT, V_BUFFER, V_ALIAS, V_SCALAR, V_OTHER };

struct var {
	CXCursor decl;
	enum CXCursorKind decl_kind; /* of decl, and its location: what find_var compares */
	CXSourceLocation decl_loc;
	enum var_kind kind;
	int sym;              /* V_SIZE, V_LOOP */
	struct kc_poly *value; /* V_INT: known affine value (NULL: unknown) */
	int buffer;           /* V_BUFFER, V_ALIAS */
	int scalar;           /* V_SCALAR locals: id into the IR's scalar table, else -1 */
	struct kc_poly *offset; /* V_ALIAS: flattened element offset */
};

struct fctx {
	struct fe *fe;
	struct kc_function *fn;
	struct kc_fn_ir *ir;
	int n_vars;
	struct kc_dims *dims; /* parallel to fn->buffers */
	int cap_buffers;
	int loop_depth;
	const char *trips_var[MAX_TRIPS];
	struct kc_poly *trips_total[MAX_TRIPS];
	int n_trips;
	struct var vars[MAX_VARS]; /* last: a reused state clears only what comes before (vars[n_vars..] unused) */
};

static struct kc_fn_ir *analyze_function(struct fe *fe, struct tu_func *tf);
static void counter_wait(struct fe *fe, const struct tu_func *tf);
static void lower_stmt(struct fctx *fc, CXCursor c, struct kc_node *parent);
static void collect_expr(struct fctx *fc, CXCursor c, struct kc_node *st, int role);

enum { ROLE_READ = 1, ROLE_WRITE = 2, ROLE_RW = 3 };

/* ------------------------------------------------------------------------------------------------ */
/* Small libclang helpers */

struct child_list {
	CXCursor c[MAX_CHILDREN];
	int n;
};

static enum CXChildVisitResult push_child(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct child_list *l = data;
	if (l->n < MAX_CHILDREN)
		l->c[l->n++] = c;
	return CXChildVisit_Continue;
}

/* The AST does not change while it is analyzed, and lowering asks about the same expression several times
 * (constant? affine? which accesses?), each time visiting its children: a small direct-mapped cache of
 * recent short children lists saves a third of the clang_visitChildren calls, the front end's largest
 * cost after the parse. libclang is used from one thread only; the cache is emptied with each TU. */
#define CHILD_CACHE 1024 /* entries, a power of two */
#define CHILD_CACHE_LIST 4

static struct child_cache_entry {
	CXCursor key; /* kind 0 (never a cursor's): empty */
	int n;
	CXCursor c[CHILD_CACHE_LIST];
} child_cache[CHILD_CACHE];

static void child_cache_clear(void) { memset(child_cache, 0, sizeof child_cache); }

static void children(CXCursor c, struct child_list *l)
{
	uintptr_t h = (uintptr_t)c.data[0] ^ ((uintptr_t)c.data[1] >> 3) ^ (uintptr_t)c.kind ^ (uintptr_t)c.xdata;
	struct child_cache_entry *e = &child_cache[(h ^ (h >> 10)) & (CHILD_CACHE - 1)];
	if (!memcmp(&e->key, &c, sizeof c)) {
		l->n = e->n;
		memcpy(l->c, e->c, sizeof l->c[0] * (size_t)e->n);
		return;
	}
	l->n = 0;
	clang_visitChildren(c, push_child, l);
	if (l->n <= CHILD_CACHE_LIST) {
		e->key = c;
		e->n = l->n;
		memcpy(e->c, l->c, sizeof l->c[0] * (size_t)l->n);
	}
}

static char *spelling(struct kc_arena *a, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = kc_arena_strdup(a, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* Where each line of the main file begins: location() finds a line and column from an offset by binary
 * search, where libclang's own line and column cost most of a clang_getExpansionLocation call (and
 * locations are asked for every node and access). */
static void index_main_file(struct fe *fe, CXTranslationUnit tu)
{
	size_t size = 0;
	const char *text = clang_getFileContents(tu, fe->main_file, &size);
	const struct kc_source *src = kc_source_get(fe->path);
	/* the text clang parsed is the file's (the same bytes, or libclang is asked) */
	fe->main_src = text && src && src->text && src->len == size && src->n_lines ? src : NULL;
}
static struct kc_loc location(struct fe *fe, CXSourceLocation l)
{
	CXFile file;
	unsigned line, col, offset;
	clang_getExpansionLocation(l, &file, NULL, NULL, &offset);
	struct kc_loc loc = {fe->path, 0, 0};
	if (file && fe->main_src && clang_File_isEqual(file, fe->main_file)) {
		loc.line = kc_source_line_of(fe->main_src, offset);
		loc.col = (unsigned)(offset - fe->main_src->line_start[loc.line - 1] + 1);
		return loc;
	}
	clang_getExpansionLocation(l, &file, &line, &col, NULL);
	loc.line = line;
	loc.col = col;
	if (file && !clang_File_isEqual(file, fe->main_file)) {
		CXString name = clang_getFileName(file);
		loc.file = kc_arena_strdup(fe->a, clang_getCString(name));
		clang_disposeString(name);
	}
	return loc;
}

static struct kc_loc cursor_loc(struct fe *fe, CXCursor c) { return location(fe, clang_getCursorLocation(c)); }

static struct kc_loc cursor_end(struct fe *fe, CXCursor c)
{
	return location(fe, clang_getRangeEnd(clang_getCursorExtent(c)));
}

/* Look through parentheses and implicit casts. */
static CXCursor strip(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
			return c;
		struct child_list l;
		children(c, &l);
		/* a cast's children may start with a TypeRef; the operand is the last expression */
		int last = -1;
		for (int i = 0; i < l.n; i++)
			if (clang_isExpression(clang_getCursorKind(l.c[i])))
				last = i;
		if (last < 0)
			return c;
		c = l.c[last];
	}
}

/* Floating precision of a type, or -1 for non-floating types. */
static int float_prec(CXType t)
{
	switch (clang_getCanonicalType(t).kind) {
	case CXType_Half:
	case CXType_Float16: return KC_PREC_F16;
	case CXType_Float: return KC_PREC_F32;
	case CXType_Double: return KC_PREC_F64;
	case CXType_LongDouble: return KC_PREC_F80;
	default: return -1;
	}
}

static int is_integer_type(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return (k >= CXType_Bool && k <= CXType_Int128 && k != CXType_Void) || k == CXType_Enum;
}

/* The constant value of an integer expression, if clang can evaluate it. */
static int eval_int(CXCursor c, long long *out)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return 0;
	int ok = clang_EvalResult_getKind(r) == CXEval_Int;
	if (ok)
		*out = clang_EvalResult_getAsLongLong(r);
	clang_EvalResult_dispose(r);
	return ok;
}

/* 1 if the expression is a compile-time constant (folded: costs nothing). */
static int is_zero_literal(CXCursor c)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return 0;
	int zero = (clang_EvalResult_getKind(r) == CXEval_Float && clang_EvalResult_getAsDouble(r) == 0.0) ||
	           (clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0);
	clang_EvalResult_dispose(r);
	return zero;
}

static int is_constant(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(strip(c));
	if (k == CXCursor_IntegerLiteral || k == CXCursor_FloatingLiteral)
		return 1;
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return 0;
	CXEvalResultKind rk = clang_EvalResult_getKind(r);
	clang_EvalResult_dispose(r);
	return rk == CXEval_Int || rk == CXEval_Float;
}

static void warn(struct fctx *fc, CXCursor at, enum kc_severity sev, const char *fmt, const char *arg)
{
	kc_diag_add(fc->fe->a, &fc->fn->diags, cursor_loc(fc->fe, at), sev, fc->fn->name, fmt, arg);
	if (sev != KC_NOTE)
		fc->fn->exact = 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Symbols and variables */

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

/* Declarations are identified by their location: cursors of one declaration reached through different
 * paths (a parameter list, a DeclRefExpr) need not compare equal with clang_equalCursors. */
static int same_decl(CXCursor x, CXCursor y)
{
	return clang_equalCursors(x, y) ||
	       (clang_getCursorKind(x) == clang_getCursorKind(y) &&
	        clang_equalLocations(clang_getCursorLocation(x), clang_getCursorLocation(y)));
}

/* same_decl over the variables, with each variable's kind and location looked up once (in add_var) and
 * the declaration's only when a kind matches: references are resolved for every operand of a body. */
static struct var *find_var(struct fctx *fc, CXCursor decl)
{
	enum CXCursorKind kind = clang_getCursorKind(decl);
	CXSourceLocation loc;
	int have_loc = 0;
	for (int i = fc->n_vars - 1; i >= 0; i--) {
		struct var *v = &fc->vars[i];
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

static struct var *add_var(struct fctx *fc, CXCursor decl, enum var_kind kind)
{
	struct var *v = find_var(fc, decl);
	if (!v) {
		if (fc->n_vars >= MAX_VARS)
			return NULL;
		v = &fc->vars[fc->n_vars++];
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

/* A local floating-point scalar gets an id for the dataflow's reduction check. */
static void number_scalar(struct fctx *fc, struct var *v, CXCursor decl)
{
	struct kc_fn_ir *ir = fc->ir;
	if (!v || ir->n_scalars >= 256)
		return;
	if (ir->n_scalars % 16 == 0) {
		const char **grown = KC_NEW_N(fc->fe->a, const char *, ir->n_scalars + 16);
		if (ir->n_scalars)
			memcpy(grown, ir->scalar_names, sizeof *grown * (size_t)ir->n_scalars);
		ir->scalar_names = grown;
	}
	ir->scalar_names[ir->n_scalars] = spelling(fc->fe->a, decl);
	v->scalar = ir->n_scalars++;
}

static void scalar_use(struct kc_node *st, const struct var *v, int role)
{
	if (!v || v->kind != V_SCALAR || v->scalar < 0 || !st)
		return;
	if ((role & ROLE_READ) && st->n_sc_reads < KC_MAX_SCALAR_USES)
		st->sc_reads[st->n_sc_reads++] = v->scalar;
	if ((role & ROLE_WRITE) && st->n_sc_writes < KC_MAX_SCALAR_USES)
		st->sc_writes[st->n_sc_writes++] = v->scalar;
}

static struct var *referenced_var(struct fctx *fc, CXCursor c)
{
	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	return find_var(fc, clang_getCursorReferenced(c));
}

/* A cheap necessary condition for is_constant (clang_Cursor_Evaluate is costly and most expressions of a
 * kernel read a variable): no array access, and no reference to a variable of the function. */
static int may_be_constant(struct fctx *fc, CXCursor c)
{
	c = strip(c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_UnaryExpr: return 1;
	case CXCursor_DeclRefExpr: return !find_var(fc, clang_getCursorReferenced(c));
	case CXCursor_ArraySubscriptExpr:
	case CXCursor_CompoundAssignOperator: return 0;
	case CXCursor_BinaryOperator:
	case CXCursor_UnaryOperator:
	case CXCursor_CallExpr:
	case CXCursor_ConditionalOperator: {
		struct child_list l;
		children(c, &l);
		for (int i = 0; i < l.n; i++)
			if (clang_isExpression(clang_getCursorKind(l.c[i])) && !may_be_constant(fc, l.c[i]))
				return 0;
		return 1;
	}
	default: return 1;
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Integer expressions -> polynomials */

static int expr_poly(struct fctx *fc, CXCursor c, struct kc_poly **out);

/* A call to a function of this file whose body is `return EXPR;`: bind its parameters to the argument
 * values and convert EXPR (index helpers such as idx(i, j, n) or min_int(a, b) in bounds). */
static CXCursor single_return_body(CXCursor call, CXCursor *fn_out)
{
	CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(call));
	*fn_out = fn;
	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return clang_getNullCursor();
	struct child_list l;
	children(fn, &l);
	if (!l.n || clang_getCursorKind(l.c[l.n - 1]) != CXCursor_CompoundStmt)
		return clang_getNullCursor();
	struct child_list body;
	children(l.c[l.n - 1], &body);
	if (body.n != 1 || clang_getCursorKind(body.c[0]) != CXCursor_ReturnStmt)
		return clang_getNullCursor();
	struct child_list ret;
	children(body.c[0], &ret);
	return ret.n == 1 ? ret.c[0] : clang_getNullCursor();
}

/* Bind a helper's parameters to the argument values; returns the number of bindings pushed or -1. */
static int bind_args(struct fctx *fc, CXCursor call, CXCursor fn)
{
	int nargs = clang_Cursor_getNumArguments(call);
	if (nargs != clang_Cursor_getNumArguments(fn))
		return -1;
	struct kc_poly *vals[16];
	if (nargs > 16)
		return -1;
	for (int i = 0; i < nargs; i++)
		if (expr_poly(fc, clang_Cursor_getArgument(call, (unsigned)i), &vals[i]) < 0)
			return -1;
	for (int i = 0; i < nargs; i++) {
		struct var *v = add_var(fc, clang_Cursor_getArgument(fn, (unsigned)i), V_INT);
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
	int rc = bind_args(fc, c, fn) < 0 ? -1 : expr_poly(fc, ret, out);
	fc->n_vars = saved;
	return rc;
}

static int binop_poly(struct fctx *fc, CXCursor c, struct kc_poly **out)
{
	struct child_list l;
	children(c, &l);
	struct kc_poly *x, *y;
	if (l.n != 2 || expr_poly(fc, l.c[0], &x) < 0 || expr_poly(fc, l.c[1], &y) < 0)
		return -1;
	struct kc_arena *a = fc->fe->a;
	struct kc_rat k;
	switch (clang_getCursorBinaryOperatorKind(c)) {
	case CXBinaryOperator_Add: return kc_poly_add(a, x, y, out);
	case CXBinaryOperator_Sub: return kc_poly_sub(a, x, y, out);
	case CXBinaryOperator_Mul: return kc_poly_mul(a, x, y, out);
	case CXBinaryOperator_Shl:
		if (!kc_poly_is_const(y, &k) || k.den != 1 || k.num < 0 || k.num > 62)
			return -1;
		return kc_poly_scale(a, x, kc_rat_int(1LL << (int)k.num), out);
	case CXBinaryOperator_Div: {
		/* integer division is exact only when every coefficient is divisible by the constant */
		struct kc_rat inv;
		struct kc_poly *q;
		if (!kc_poly_is_const(y, &k) || k.num == 0 || k.den != 1 || kc_rat_div(kc_rat_int(1), k, &inv) < 0 ||
		    kc_poly_scale(a, x, inv, &q) < 0)
			return -1;
		for (int t = 0; t < kc_poly_nterms(q); t++)
			if (kc_poly_term_coef(q, t).den != 1)
				return -1;
		*out = q;
		return 0;
	}
	default: return -1;
	}
}

/* Convert an integer expression to a polynomial in size symbols and loop variables; -1 when it is not one
 * (data-dependent, floating, or an unsupported operator). */
static int expr_poly(struct fctx *fc, CXCursor c, struct kc_poly **out)
{
	struct kc_arena *a = fc->fe->a;
	long long v;
	c = strip(c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_UnaryExpr: /* sizeof */
		if (!eval_int(c, &v))
			return -1;
		*out = kc_poly_const(a, v, 1);
		return 0;
	case CXCursor_DeclRefExpr: {
		struct var *var = referenced_var(fc, c);
		if (var && (var->kind == V_SIZE || var->kind == V_LOOP)) {
			*out = kc_poly_sym(a, var->sym);
			return 0;
		}
		if (var && var->kind == V_INT && var->value) {
			*out = var->value;
			return 0;
		}
		if (!var && eval_int(c, &v)) { /* enumerators, constants */
			*out = kc_poly_const(a, v, 1);
			return 0;
		}
		return -1;
	}
	case CXCursor_BinaryOperator: return binop_poly(fc, c, out);
	case CXCursor_UnaryOperator: {
		struct child_list l;
		children(c, &l);
		struct kc_poly *x;
		if (l.n != 1 || expr_poly(fc, l.c[0], &x) < 0)
			return -1;
		enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);
		if (k == CXUnaryOperator_Plus) {
			*out = x;
			return 0;
		}
		return k == CXUnaryOperator_Minus ? kc_poly_neg(a, x, out) : -1;
	}
	case CXCursor_CallExpr: return call_poly(fc, c, out);
	default:
		if (is_integer_type(clang_getCursorType(c)) && eval_int(c, &v)) {
			*out = kc_poly_const(a, v, 1);
			return 0;
		}
		return -1;
	}
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
	children(c, &l);
	if (l.n != 3)
		return -1;
	CXCursor cond = strip(l.c[0]);
	if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
		return -1;
	struct child_list cl;
	children(cond, &cl);
	struct kc_poly *p, *q, *x, *y, *d1, *d2;
	if (cl.n != 2 || expr_poly(fc, cl.c[0], &p) < 0 || expr_poly(fc, cl.c[1], &q) < 0 ||
	    expr_poly(fc, l.c[1], &x) < 0 || expr_poly(fc, l.c[2], &y) < 0)
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
	c = strip(c);
	if (cap < 1)
		return -1;
	if (expr_poly(fc, c, &out[0]) == 0)
		return 1;
	if (clang_getCursorKind(c) == CXCursor_ConditionalOperator)
		return conditional_minmax(fc, c, want, out, cap);
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		CXCursor fn;
		CXCursor ret = single_return_body(c, &fn);
		if (clang_Cursor_isNull(ret))
			return -1;
		int saved = fc->n_vars;
		int n = bind_args(fc, c, fn) < 0 ? -1 : minmax_operands(fc, ret, want, out, cap);
		fc->n_vars = saved;
		return n;
	}
	return -1;
}

/* ------------------------------------------------------------------------------------------------ */
/* IR construction */

static struct kc_node *new_node(struct fctx *fc, enum kc_node_kind kind, CXCursor c, struct kc_node *parent)
{
	struct kc_node *n = KC_NEW(fc->fe->a, struct kc_node);
	n->kind = kind;
	n->loc = cursor_loc(fc->fe, c);
	n->end = cursor_end(fc->fe, c);
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

/* Buffers */

/* The element class of a canonical type: what a harness may fill it with and compare it by. */
static enum kc_elem_class elem_class(CXType t)
{
	switch (t.kind) {
	case CXType_Float:
	case CXType_Double:
	case CXType_LongDouble:
	case CXType_Half:
	case CXType_Float16:
	case CXType_BFloat16:
	case CXType_Float128:
	case CXType_Ibm128: return KC_ELEM_FLOATING;
	case CXType_Bool:
	case CXType_Char_U:
	case CXType_UChar:
	case CXType_UShort:
	case CXType_UInt:
	case CXType_ULong:
	case CXType_ULongLong:
	case CXType_UInt128:
	case CXType_Char_S:
	case CXType_SChar:
	case CXType_Short:
	case CXType_Int:
	case CXType_Long:
	case CXType_LongLong:
	case CXType_Int128:
	case CXType_Enum: return KC_ELEM_INTEGER;
	case CXType_Pointer:
	case CXType_BlockPointer:
	case CXType_ConstantArray:
	case CXType_IncompleteArray:
	case CXType_VariableArray:
	case CXType_DependentSizedArray:
	case CXType_FunctionProto:
	case CXType_FunctionNoProto: return KC_ELEM_POINTER;
	default: return KC_ELEM_OPAQUE;
	}
}

static int add_buffer(struct fctx *fc, CXCursor decl, CXType elem)
{
	struct kc_function *f = fc->fn;
	if (f->n_buffers == fc->cap_buffers) {
		int cap = fc->cap_buffers ? 2 * fc->cap_buffers : 16;
		struct kc_buffer *b = KC_NEW_N(fc->fe->a, struct kc_buffer, cap);
		struct kc_dims *d = KC_NEW_N(fc->fe->a, struct kc_dims, cap);
		if (f->n_buffers) {
			memcpy(b, f->buffers, sizeof *b * (size_t)f->n_buffers);
			memcpy(d, fc->dims, sizeof *d * (size_t)f->n_buffers);
		}
		f->buffers = b;
		fc->dims = d;
		fc->cap_buffers = cap;
	}
	int id = f->n_buffers++;
	struct kc_buffer *b = &f->buffers[id];
	b->name = spelling(fc->fe->a, decl);
	b->loc = cursor_loc(fc->fe, decl);
	CXType canon = clang_getCanonicalType(elem);
	CXString ts = clang_getTypeSpelling(clang_getUnqualifiedType(canon));
	b->elem_type = kc_arena_strdup(fc->fe->a, clang_getCString(ts));
	clang_disposeString(ts);
	long long size = clang_Type_getSizeOf(canon);
	b->elem_size = size > 0 ? (int)size : 1;
	b->elem_class = elem_class(canon);
	b->role = KC_ROLE_UNUSED;
	return id;
}

/* Strip pointer and array layers of a type: the element type and the number of dimensions. A
 * parameter's type is the one written (const float x[restrict n]), not the decayed pointer. */
static CXType element_type(CXType t, int *ndims, int *is_buffer)
{
	*ndims = 0;
	*is_buffer = 0;
	t = clang_getCanonicalType(t);
	if (t.kind == CXType_Pointer) {
		*is_buffer = 1;
		*ndims = 1;
		t = clang_getCanonicalType(clang_getPointeeType(t));
	}
	while (t.kind == CXType_ConstantArray || t.kind == CXType_VariableArray || t.kind == CXType_IncompleteArray) {
		*is_buffer = 1;
		(*ndims)++;
		t = clang_getCanonicalType(clang_getArrayElementType(t));
	}
	return t;
}

/* Size expressions written in a declarator (VLA and constant dimensions), outermost first. */
static int declared_dims(struct fctx *fc, CXCursor decl, struct kc_poly **dims, int cap)
{
	struct child_list l;
	children(decl, &l);
	int n = 0;
	for (int i = 0; i < l.n && n < cap; i++) {
		enum CXCursorKind k = clang_getCursorKind(l.c[i]);
		if (!clang_isExpression(k))
			continue;
		struct kc_poly *p;
		dims[n++] = expr_poly(fc, l.c[i], &p) == 0 ? p : NULL;
	}
	/* libclang visits a nested array declarator's sizes innermost first; order them by source position */
	if (n > 1) {
		unsigned off[KC_MAX_DIMS];
		int k = 0;
		for (int i = 0; i < l.n && k < n; i++)
			if (clang_isExpression(clang_getCursorKind(l.c[i])))
				clang_getSpellingLocation(clang_getCursorLocation(l.c[i]), NULL, NULL, NULL, &off[k++]);
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && off[j] < off[j - 1]; j--) {
				unsigned t = off[j];
				off[j] = off[j - 1];
				off[j - 1] = t;
				struct kc_poly *p = dims[j];
				dims[j] = dims[j - 1];
				dims[j - 1] = p;
			}
	}
	return n;
}

static struct kc_poly *product(struct fctx *fc, struct kc_poly **dims, int n)
{
	struct kc_poly *p = kc_poly_const(fc->fe->a, 1, 1);
	for (int i = 0; i < n; i++)
		if (!dims[i] || kc_poly_mul(fc->fe->a, p, dims[i], &p) < 0)
			return NULL;
	return p;
}

/* ------------------------------------------------------------------------------------------------ */
/* Accesses */

static int add_buffer(struct fctx *fc, CXCursor decl, CXType elem);
static CXType element_type(CXType t, int *ndims, int *is_buffer);

/* A struct-of-arrays field, s->x or s.x, as a buffer of its own named "s->x": its elements are counted like
 * a parameter's when s is a parameter (the caller owns them), like a local's otherwise. Fills *out as a
 * buffer variable; NULL when the field is not a pointer or an array. */
static struct var *field_buffer(struct fctx *fc, CXCursor member, struct var *out)
{
	struct child_list l;
	children(member, &l);
	struct var *base = l.n == 1 ? referenced_var(fc, l.c[0]) : NULL;
	int ndims, is_buffer;
	CXType elem = element_type(clang_getCursorType(member), &ndims, &is_buffer);
	if (!base || !is_buffer)
		return NULL;
	int arrow = clang_getCanonicalType(clang_getCursorType(strip(l.c[0]))).kind == CXType_Pointer;
	char *base_name = spelling(fc->fe->a, base->decl), *field = spelling(fc->fe->a, member);
	char *name = kc_arena_printf(fc->fe->a, "%s%s%s", base_name, arrow ? "->" : ".", field);
	int id = -1;
	for (int b = 0; b < fc->fn->n_buffers && id < 0; b++)
		if (!strcmp(fc->fn->buffers[b].name, name))
			id = b;
	if (id < 0) {
		id = add_buffer(fc, member, elem);
		fc->fn->buffers[id].name = name;
		fc->fn->buffers[id].is_param = clang_getCursorKind(base->decl) == CXCursor_ParmDecl;
		fc->dims[id].ndims = ndims; /* extents unknown: footprints come from the indices */
	}
	out->kind = V_BUFFER;
	out->buffer = id;
	out->scalar = -1;
	return out;
}

/* Resolve an lvalue expression to a buffer access: a[i], a[i][j], *(p + i), p[i] through an alias. */
static int resolve_access(struct fctx *fc, CXCursor c, struct kc_access *acc)
{
	struct kc_arena *a = fc->fe->a;
	CXCursor idx[KC_MAX_DIMS];
	int n = 0;
	struct kc_poly *deref_offset = NULL;
	c = strip(c);
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) {
		struct child_list l;
		children(c, &l);
		if (l.n != 1)
			return -1;
		c = strip(l.c[0]);
		deref_offset = kc_poly_zero(a);
		if (clang_getCursorKind(c) == CXCursor_BinaryOperator &&
		    clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Add) {
			struct child_list pl;
			children(c, &pl);
			if (pl.n != 2 || expr_poly(fc, pl.c[1], &deref_offset) < 0)
				return -1;
			c = strip(pl.c[0]);
		}
	} else {
		while (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr && n < KC_MAX_DIMS) {
			struct child_list l;
			children(c, &l);
			if (l.n != 2)
				return -1;
			idx[n++] = l.c[1];
			c = strip(l.c[0]);
		}
		if (n == 0)
			return clang_getCursorKind(c) == CXCursor_DeclRefExpr || clang_getCursorKind(c) == CXCursor_MemberRefExpr ? -2 : -1;
	}
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr && n == 0 && !deref_offset)
		return -2; /* a scalar variable: no memory traffic */
	struct var field = {0};
	struct var *v = clang_getCursorKind(c) == CXCursor_MemberRefExpr ? field_buffer(fc, c, &field)
	                                                                  : referenced_var(fc, c);
	if (!v || (v->kind != V_BUFFER && v->kind != V_ALIAS))
		return -3; /* an element through a pointer that is no known buffer (unknown aliasing) */
	acc->buffer = v->buffer;
	struct kc_dims *d = &fc->dims[v->buffer];
	/* indices come outermost last from the walk above */
	struct kc_poly *index[KC_MAX_DIMS];
	for (int i = 0; i < n; i++)
		if (expr_poly(fc, idx[n - 1 - i], &index[i]) < 0)
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
	/* repeated identical accesses in one statement count once (the naive model's rule) */
	for (int i = 0; i < st->n_accesses; i++) {
		struct kc_access *o = &st->accesses[i];
		if (o->buffer != acc->buffer || o->is_write != acc->is_write || o->ndims != acc->ndims)
			continue;
		int same = 1;
		for (int d = 0; d < acc->ndims && same; d++)
			same = o->index[d] && acc->index[d] && kc_poly_equal(o->index[d], acc->index[d]);
		if (same)
			return;
	}
	if (st->n_accesses % 8 == 0) {
		struct kc_access *grown = KC_NEW_N(fc->fe->a, struct kc_access, st->n_accesses + 8);
		if (st->n_accesses)
			memcpy(grown, st->accesses, sizeof *grown * (size_t)st->n_accesses);
		st->accesses = grown;
	}
	st->accesses[st->n_accesses++] = *acc;
}

/* Record the access of an lvalue with the given role, and the reads inside its index expressions. */
static void access_lvalue(struct fctx *fc, CXCursor c, struct kc_node *st, int role)
{
	struct kc_access acc = {0};
	acc.loc = cursor_loc(fc->fe, c);
	int rc = resolve_access(fc, c, &acc);
	if (rc == -2)
		scalar_use(st, referenced_var(fc, c), role);
	if (rc == -1)
		warn(fc, c, KC_WARNING, "unsupported access expression%s: traffic not counted", "");
	if (rc == -3)
		warn(fc, c, KC_WARNING, "access through a pointer kcost cannot trace to a parameter, a local array or an "
		     "allocation%s: its traffic is not counted", "");
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
			if (!acc.index[d] && fc->loop_depth > 0) {
				kc_diag_add(fc->fe->a, &fc->fn->diags, acc.loc, KC_NOTE, fc->fn->name,
				            "data-dependent index into '%s': its footprint is taken as the whole buffer",
				            fc->fn->buffers[acc.buffer].name);
				break;
			}
	}
	/* index sub-expressions may read other buffers (x[col[j]]) */
	CXCursor s = strip(c);
	while (clang_getCursorKind(s) == CXCursor_ArraySubscriptExpr) {
		struct child_list l;
		children(s, &l);
		if (l.n != 2)
			break;
		collect_expr(fc, l.c[1], st, ROLE_READ);
		s = strip(l.c[0]);
	}
	if (clang_getCursorKind(s) == CXCursor_UnaryOperator) {
		/* *(p + i): the pointer expression may read other buffers; never re-enter the dereference */
		struct child_list l;
		children(s, &l);
		if (l.n == 1)
			collect_expr(fc, l.c[0], st, ROLE_READ);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Expression costs */

static const char *const transcendental_names[] = {
	"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "sqrt", "cbrt", "sin", "cos", "tan",
	"asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc",
	"tgamma", "lgamma", "hypot", "rsqrt", NULL};
static const char *const cmp_names[] = {"fmin", "fmax", "fabs", "copysign", NULL};

/* 1 if name is base, basef or basel (and the __builtin_ forms). */
static int math_family(const char *name, const char *const *bases)
{
	if (strncmp(name, "__builtin_", 10) == 0)
		name += 10;
	size_t n = strlen(name);
	for (int i = 0; bases[i]; i++) {
		size_t b = strlen(bases[i]);
		if (strncmp(name, bases[i], b) == 0 &&
		    (n == b || (n == b + 1 && (name[b] == 'f' || name[b] == 'l'))))
			return 1;
	}
	return 0;
}

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
	if (st->cost.n_trans < 8) {
		st->cost.trans_name[st->cost.n_trans] = kc_arena_strdup(fc->fe->a, name);
		st->cost.trans_count[st->cost.n_trans++] = 1;
	}
}

static int is_analyzed_call(struct fctx *fc, CXCursor call, struct tu_func **out);
static void lower_call(struct fctx *fc, CXCursor c, struct tu_func *tf, struct kc_node *st);
static int library_call(struct fctx *fc, CXCursor c, const char *name, struct kc_node *st);

static void collect_call(struct fctx *fc, CXCursor c, struct kc_node *st)
{
	char *name = spelling(fc->fe->a, c);
	struct tu_func *tf;
	int nargs = clang_Cursor_getNumArguments(c);
	if (math_family(name, transcendental_names)) {
		add_transcendental(fc, st, strncmp(name, "__builtin_", 10) == 0 ? name + 10 : name);
	} else if (math_family(name, cmp_names)) {
		st->cost.cmp++;
	} else if (strcmp(name, "fma") == 0 || strcmp(name, "fmaf") == 0 || strcmp(name, "fmal") == 0) {
		add_op(st, KC_OP_FMA, float_prec(clang_getCursorType(c)));
	} else if (is_analyzed_call(fc, c, &tf)) {
		lower_call(fc, c, tf, st);
		return;
	} else if (library_call(fc, c, name, st)) {
		/* costed by its built-in model */
	} else if (!strcmp(name, "malloc") || !strcmp(name, "calloc") || !strcmp(name, "free") ||
	           !strcmp(name, "aligned_alloc") || !strcmp(name, "posix_memalign")) {
		/* allocation: no FLOPs */
	} else if (fc->loop_depth > 0) {
		warn(fc, c, KC_WARNING, "call to unknown function '%s' inside a loop is not counted", name);
	}
	for (int i = 0; i < nargs; i++)
		collect_expr(fc, clang_Cursor_getArgument(c, (unsigned)i), st, ROLE_READ);
}

static enum kc_op binop_category(enum CXBinaryOperatorKind k)
{
	switch (k) {
	case CXBinaryOperator_Add:
	case CXBinaryOperator_AddAssign: return KC_OP_ADD;
	case CXBinaryOperator_Sub:
	case CXBinaryOperator_SubAssign: return KC_OP_SUB;
	case CXBinaryOperator_Mul:
	case CXBinaryOperator_MulAssign: return KC_OP_MUL;
	case CXBinaryOperator_Div:
	case CXBinaryOperator_DivAssign: return KC_OP_DIV;
	default: return KC_OP_N;
	}
}

static void collect_binop(struct fctx *fc, CXCursor c, struct kc_node *st)
{
	struct child_list l;
	children(c, &l);
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
		enum kc_op op = binop_category(k);
		if (op != KC_OP_N)
			add_op(st, op, float_prec(clang_getCursorType(l.c[0])));
		access_lvalue(fc, l.c[0], st, ROLE_RW);
		collect_expr(fc, l.c[1], st, ROLE_READ);
		return;
	}
	if (may_be_constant(fc, c) && is_constant(c))
		return; /* folded */
	enum kc_op op = binop_category(k);
	if (op != KC_OP_N)
		add_op(st, op, float_prec(clang_getCursorType(c)));
	if (k >= CXBinaryOperator_LT && k <= CXBinaryOperator_NE &&
	    (float_prec(clang_getCursorType(l.c[0])) >= 0 || float_prec(clang_getCursorType(l.c[1])) >= 0))
		st->cost.cmp++;
	collect_expr(fc, l.c[0], st, ROLE_READ);
	collect_expr(fc, l.c[1], st, ROLE_READ);
}

static void collect_unop(struct fctx *fc, CXCursor c, struct kc_node *st)
{
	struct child_list l;
	children(c, &l);
	if (l.n != 1)
		return;
	enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);
	if (k == CXUnaryOperator_Deref) {
		access_lvalue(fc, c, st, ROLE_READ);
		return;
	}
	if (k >= CXUnaryOperator_PostInc && k <= CXUnaryOperator_PreDec) {
		int prec = float_prec(clang_getCursorType(l.c[0]));
		if (prec >= 0)
			add_op(st, k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc ? KC_OP_ADD : KC_OP_SUB, prec);
		struct kc_access acc;
		if (resolve_access(fc, l.c[0], &acc) == 0)
			access_lvalue(fc, l.c[0], st, ROLE_RW);
		return;
	}
	if (k == CXUnaryOperator_AddrOf)
		return; /* &a[i] passes an address: no access here */
	collect_expr(fc, l.c[0], st, ROLE_READ);
}

/* Walk an expression, adding its FLOPs, comparisons, transcendental calls and accesses to st. */
static void collect_expr(struct fctx *fc, CXCursor c, struct kc_node *st, int role)
{
	c = strip(c);
	enum CXCursorKind kind = clang_getCursorKind(c);
	if ((kind == CXCursor_CallExpr || kind == CXCursor_UnaryOperator) && may_be_constant(fc, c) && is_constant(c))
		return; /* folded: -INFINITY, __builtin_nanf("") */
	switch (kind) {
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: collect_binop(fc, c, st); return;
	case CXCursor_UnaryOperator: collect_unop(fc, c, st); return;
	case CXCursor_ArraySubscriptExpr: access_lvalue(fc, c, st, role ? role : ROLE_READ); return;
	case CXCursor_CallExpr: collect_call(fc, c, st); return;
	case CXCursor_DeclRefExpr: scalar_use(st, referenced_var(fc, c), ROLE_READ); return;
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_UnaryExpr: return;
	case CXCursor_ConditionalOperator: {
		struct child_list l;
		children(c, &l);
		for (int i = 0; i < l.n; i++)
			collect_expr(fc, l.c[i], st, ROLE_READ);
		if (l.n == 3 && !is_constant(l.c[0]))
			warn(fc, c, KC_NOTE, "both arms of a data-dependent conditional expression are counted%s", "");
		return;
	}
	default: {
		struct child_list l;
		children(c, &l);
		for (int i = 0; i < l.n; i++)
			if (clang_isExpression(clang_getCursorKind(l.c[i])))
				collect_expr(fc, l.c[i], st, ROLE_READ);
	}
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Calls to analyzed functions and library calls */

static int is_analyzed_call(struct fctx *fc, CXCursor call, struct tu_func **out)
{
	CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(call));
	if (clang_Cursor_isNull(def))
		return 0;
	for (int i = 0; i < fc->fe->n_funcs; i++)
		if (same_decl(fc->fe->funcs[i].cursor, def)) {
			*out = &fc->fe->funcs[i];
			return 1;
		}
	return 0;
}

/* Map the callee's pointer argument to a caller buffer (plain name, &a[0][0], a + off). */
static int arg_buffer(struct fctx *fc, CXCursor arg)
{
	arg = strip(arg);
	if (clang_getCursorKind(arg) == CXCursor_UnaryOperator &&
	    clang_getCursorUnaryOperatorKind(arg) == CXUnaryOperator_AddrOf) {
		struct kc_access acc;
		struct child_list l;
		children(arg, &l);
		if (l.n == 1 && resolve_access(fc, l.c[0], &acc) == 0)
			return acc.buffer;
		return -1;
	}
	if (clang_getCursorKind(arg) == CXCursor_BinaryOperator) {
		struct child_list l;
		children(arg, &l);
		return l.n == 2 ? arg_buffer(fc, l.c[0]) : -1;
	}
	struct var *v = referenced_var(fc, arg);
	return v && (v->kind == V_BUFFER || v->kind == V_ALIAS) ? v->buffer : -1;
}

static void lower_call(struct fctx *fc, CXCursor c, struct tu_func *tf, struct kc_node *st)
{
	if (tf->state == FN_ACTIVE) {
		warn(fc, c, KC_WARNING, "recursive call to '%s' is not counted", tf->name);
		return;
	}
	struct kc_fn_ir *callee = tf->state == FN_DONE ? tf->ir : analyze_function(fc->fe, tf);
	if (callee)
		counter_wait(fc->fe, tf); /* its counts and exactness are read below and when this one is counted */
	if (!callee) {
		warn(fc, c, KC_WARNING, "call to '%s', which could not be analyzed, is not counted", tf->name);
		return;
	}
	const struct kc_function *g = callee->fn;
	struct kc_call *call = KC_NEW(fc->fe->a, struct kc_call);
	call->callee = g;
	call->callee_ir = callee;
	call->size_args = KC_NEW_N(fc->fe->a, struct kc_poly *, KC_POLY_MAX_SYMS);
	call->n_buffers = g->n_buffers;
	call->buffer_args = KC_NEW_N(fc->fe->a, int, g->n_buffers + 1);
	for (int b = 0; b < g->n_buffers; b++)
		call->buffer_args[b] = -1;
	int nargs = clang_Cursor_getNumArguments(c);
	CXCursor def = tf->cursor;
	for (int i = 0; i < nargs && i < clang_Cursor_getNumArguments(def); i++) {
		CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
		char *pname = spelling(fc->fe->a, clang_Cursor_getArgument(def, (unsigned)i));
		for (int s = 0; s < g->n_size_params; s++)
			if (!strcmp(g->syms.syms[s].name, pname) && expr_poly(fc, arg, &call->size_args[s]) < 0) {
				warn(fc, arg, KC_WARNING, "size argument '%s' is not an affine expression of the sizes", pname);
				call->size_args[s] = NULL;
			}
		for (int b = 0; b < g->n_buffers; b++)
			if (g->buffers[b].is_param && !strcmp(g->buffers[b].name, pname))
				call->buffer_args[b] = arg_buffer(fc, arg);
	}
	st->call = call;
	if (!g->exact)
		warn(fc, c, KC_WARNING, "'%s' is not counted exactly (see its diagnostics)", g->name);
}

static int arg_buffer(struct fctx *fc, CXCursor arg);

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
	acc.loc = cursor_loc(fc->fe, call);
	if (role & ROLE_READ)
		add_access(fc, st, &acc);
	acc.is_write = 1;
	if (role & ROLE_WRITE)
		add_access(fc, st, &acc);
}

/* CBLAS level 1-3 cost models (row- or column-major alike). */
static int library_call(struct fctx *fc, CXCursor c, const char *name, struct kc_node *st)
{
	struct kc_arena *a = fc->fe->a;
	int prec = -1;
	if (!strncmp(name, "cblas_s", 7))
		prec = KC_PREC_F32;
	else if (!strncmp(name, "cblas_d", 7))
		prec = KC_PREC_F64;
	if (prec < 0)
		return 0;
	const char *op = name + 7;
	int nargs = clang_Cursor_getNumArguments(c);
	struct kc_poly *m, *n, *k;
	struct kc_poly *prod, *tmp;
	int es = prec == KC_PREC_F32 ? 4 : 8;
	struct kc_poly *esz = kc_poly_const(a, es, 1);
#define ARG(i, out) (expr_poly(fc, clang_Cursor_getArgument(c, (unsigned)(i)), (out)) == 0)
	if (!strcmp(op, "gemm") && nargs == 14 && ARG(3, &m) && ARG(4, &n) && ARG(5, &k)) {
		/* C = alpha*A*B + beta*C: m*n*k fused multiply-adds = 2*m*n*k FLOPs */
		kc_poly_mul(a, m, n, &prod);
		kc_poly_mul(a, prod, k, &st->lib_cost.ops[KC_OP_FMA][prec]);
		struct kc_poly *ab, *mk, *kn;
		kc_poly_mul(a, m, k, &mk);
		kc_poly_mul(a, k, n, &kn);
		kc_poly_add(a, mk, kn, &ab);
		kc_poly_scale(a, ab, kc_rat_int(es), &st->lib_min.read);
		kc_poly_scale(a, prod, kc_rat_int(es), &st->lib_min.write);
		int reads_c = !is_zero_literal(clang_Cursor_getArgument(c, 11));
		if (reads_c && kc_poly_add(a, st->lib_min.read, st->lib_min.write, &tmp) == 0)
			st->lib_min.read = tmp; /* beta != 0 reads C */
		lib_access(fc, st, c, 7, ROLE_READ);
		lib_access(fc, st, c, 9, ROLE_READ);
		lib_access(fc, st, c, 12, reads_c ? ROLE_RW : ROLE_WRITE);
	} else if (!strcmp(op, "gemv") && nargs == 12 && ARG(2, &m) && ARG(3, &n)) {
		kc_poly_mul(a, m, n, &st->lib_cost.ops[KC_OP_FMA][prec]);
		kc_poly_add(a, m, n, &tmp);
		kc_poly_mul(a, m, n, &prod);
		kc_poly_add(a, prod, tmp, &tmp);
		kc_poly_scale(a, tmp, kc_rat_int(es), &st->lib_min.read);
		kc_poly_mul(a, m, esz, &st->lib_min.write);
		lib_access(fc, st, c, 5, ROLE_READ);
		lib_access(fc, st, c, 7, ROLE_READ);
		lib_access(fc, st, c, 10, ROLE_RW);
	} else if (!strcmp(op, "axpy") && nargs == 6 && ARG(0, &n)) {
		st->lib_cost.ops[KC_OP_FMA][prec] = n;
		kc_poly_scale(a, n, kc_rat_int(2 * es), &st->lib_min.read);
		kc_poly_mul(a, n, esz, &st->lib_min.write);
		lib_access(fc, st, c, 2, ROLE_READ);
		lib_access(fc, st, c, 4, ROLE_RW);
	} else if (!strcmp(op, "dot") && nargs == 5 && ARG(0, &n)) {
		st->lib_cost.ops[KC_OP_FMA][prec] = n;
		kc_poly_scale(a, n, kc_rat_int(2 * es), &st->lib_min.read);
		st->lib_min.write = kc_poly_zero(a);
		lib_access(fc, st, c, 1, ROLE_READ);
		lib_access(fc, st, c, 3, ROLE_READ);
	} else if (!strcmp(op, "scal") && nargs == 4 && ARG(0, &n)) {
		st->lib_cost.ops[KC_OP_MUL][prec] = n;
		kc_poly_mul(a, n, esz, &st->lib_min.read);
		kc_poly_mul(a, n, esz, &st->lib_min.write);
		lib_access(fc, st, c, 2, ROLE_RW);
	} else {
		warn(fc, c, KC_WARNING, "no cost model for '%s': not counted", name);
		return 1;
	}
#undef ARG
	st->lib_call = kc_arena_strdup(a, name);
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

static void lower_expr_stmt(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	/* integer bookkeeping on tracked variables: i = expr, i += c */
	CXCursor s = strip(c);
	if (clang_getCursorKind(s) == CXCursor_BinaryOperator || clang_getCursorKind(s) == CXCursor_CompoundAssignOperator) {
		struct child_list l;
		children(s, &l);
		struct var *v = l.n == 2 ? referenced_var(fc, l.c[0]) : NULL;
		if (v && v->kind == V_INT) {
			struct kc_poly *val;
			int assign = clang_getCursorBinaryOperatorKind(s) == CXBinaryOperator_Assign;
			v->value = assign && fc->loop_depth == 0 && expr_poly(fc, l.c[1], &val) == 0 ? val : NULL;
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
	children(d, &l);
	CXCursor init = clang_getNullCursor();
	for (int i = l.n - 1; i >= 0; i--)
		if (clang_isExpression(clang_getCursorKind(l.c[i]))) {
			init = l.c[i];
			break;
		}
	int ndims, is_pointer;
	CXType elem = element_type(t, &ndims, &is_pointer);
	enum CXTypeKind tk = clang_getCanonicalType(t).kind;
	if (tk == CXType_ConstantArray || tk == CXType_VariableArray) {
		int id = add_buffer(fc, d, elem);
		fc->fn->buffers[id].is_local_array = 1;
		fc->dims[id].ndims = declared_dims(fc, d, fc->dims[id].dim, KC_MAX_DIMS);
		fc->fn->buffers[id].extent = product(fc, fc->dims[id].dim, fc->dims[id].ndims);
		struct var *v = add_var(fc, d, V_BUFFER);
		if (v)
			v->buffer = id;
		return;
	}
	if (is_pointer && !clang_Cursor_isNull(init)) {
		CXCursor s = strip(init);
		if (clang_getCursorKind(s) == CXCursor_CallExpr) {
			char *callee = spelling(fc->fe->a, s);
			if (!strcmp(callee, "malloc") || !strcmp(callee, "calloc") || !strcmp(callee, "aligned_alloc")) {
				int id = add_buffer(fc, d, elem);
				struct kc_buffer *b = &fc->fn->buffers[id];
				b->is_heap = 1;
				fc->dims[id].ndims = 1;
				struct kc_poly *bytes = NULL, *n2;
				int nargs = clang_Cursor_getNumArguments(s);
				if (nargs >= 1 && expr_poly(fc, clang_Cursor_getArgument(s, (unsigned)nargs - 1), &bytes) == 0) {
					if (!strcmp(callee, "calloc") && nargs == 2 &&
					    expr_poly(fc, clang_Cursor_getArgument(s, 0), &n2) == 0)
						kc_poly_mul(fc->fe->a, bytes, n2, &bytes);
					kc_poly_scale(fc->fe->a, bytes, (struct kc_rat){1, b->elem_size}, &b->extent);
				}
				fc->dims[id].dim[0] = b->extent;
				struct var *v = add_var(fc, d, V_BUFFER);
				if (v)
					v->buffer = id;
				return;
			}
		}
		/* an alias: p = a + off, p = &a[i][0], p = a[i] */
		struct kc_access acc;
		struct var *base = referenced_var(fc, s);
		struct var *v = NULL;
		if (base && (base->kind == V_BUFFER || base->kind == V_ALIAS)) {
			v = add_var(fc, d, V_ALIAS);
			if (v) {
				v->buffer = base->buffer;
				v->offset = base->kind == V_ALIAS ? base->offset : kc_poly_zero(fc->fe->a);
			}
		} else if (clang_getCursorKind(s) == CXCursor_BinaryOperator) {
			struct child_list bl;
			children(s, &bl);
			struct var *b2 = bl.n == 2 ? referenced_var(fc, bl.c[0]) : NULL;
			struct kc_poly *off;
			if (b2 && (b2->kind == V_BUFFER || b2->kind == V_ALIAS) && expr_poly(fc, bl.c[1], &off) == 0 &&
			    (v = add_var(fc, d, V_ALIAS))) {
				v->buffer = b2->buffer;
				struct kc_poly *base_off = b2->kind == V_ALIAS ? b2->offset : kc_poly_zero(fc->fe->a);
				kc_poly_add(fc->fe->a, base_off, off, &v->offset);
			}
		} else if (clang_getCursorKind(s) == CXCursor_UnaryOperator || clang_getCursorKind(s) == CXCursor_ArraySubscriptExpr) {
			CXCursor target = s;
			if (clang_getCursorKind(s) == CXCursor_UnaryOperator) {
				struct child_list ul;
				children(s, &ul);
				target = ul.n == 1 ? ul.c[0] : s;
			}
			if (resolve_access(fc, target, &acc) == 0 && acc.ndims == 1 && acc.index[0] && (v = add_var(fc, d, V_ALIAS))) {
				v->buffer = acc.buffer;
				v->offset = acc.index[0];
			}
		}
		if (v)
			return;
	}
	if (is_integer_type(t)) {
		struct var *v = add_var(fc, d, V_INT);
		struct kc_poly *val;
		if (v && !clang_Cursor_isNull(init) && expr_poly(fc, init, &val) == 0)
			v->value = val;
		if (!clang_Cursor_isNull(init)) {
			struct kc_node *st = stmt_node(fc, d, parent);
			collect_expr(fc, init, st, ROLE_READ);
			drop_if_empty(parent, st);
		}
		return;
	}
	struct var *v = add_var(fc, d, float_prec(t) >= 0 ? V_SCALAR : V_OTHER);
	if (v && v->kind == V_SCALAR)
		number_scalar(fc, v, d);
	if (!clang_Cursor_isNull(init)) {
		struct kc_node *st = stmt_node(fc, d, parent);
		collect_expr(fc, init, st, ROLE_READ);
		scalar_use(st, v, ROLE_WRITE);
		drop_if_empty(parent, st);
	}
}

/* for (init; cond; inc) body — which child is which: by their number, or from the semicolons' positions. */
struct for_parts {
	CXCursor init, cond, inc, body;
};

static void split_for(CXCursor c, struct for_parts *p)
{
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
	CXToken *toks;
	unsigned ntoks, semi[2] = {0, 0}, close = 0;
	int found = 0, depth = 0;
	struct child_list l;
	children(c, &l);
	if (l.n == 4) { /* every clause present (C has no condition variable): children come in this order */
		p->init = l.c[0];
		p->cond = l.c[1];
		p->inc = l.c[2];
		p->body = l.c[3];
		return;
	}
	/* a clause is missing: which one, only the semicolons tell. The header's tokens only: up to where the body (always the last child) starts. Tokenizing the whole
	 * statement would tokenize a nest's inner loops once per enclosing loop. */
	CXSourceRange whole = clang_getCursorExtent(c), header = whole;
	if (l.n > 0) {
		CXSourceLocation body = clang_getRangeStart(clang_getCursorExtent(l.c[l.n - 1]));
		unsigned from, to;
		clang_getSpellingLocation(clang_getRangeStart(whole), NULL, NULL, NULL, &from);
		clang_getSpellingLocation(body, NULL, NULL, NULL, &to);
		if (to > from)
			header = clang_getRange(clang_getRangeStart(whole), body);
	}
	clang_tokenize(tu, header, &toks, &ntoks);
	for (unsigned i = 0; i < ntoks; i++) {
		CXString s = clang_getTokenSpelling(tu, toks[i]);
		const char *t = clang_getCString(s);
		unsigned off;
		clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), NULL, NULL, NULL, &off);
		if (!strcmp(t, "("))
			depth++;
		else if (!strcmp(t, ")") && --depth == 0 && !close)
			close = off;
		else if (!strcmp(t, ";") && depth == 1 && found < 2)
			semi[found++] = off;
		clang_disposeString(s);
		if (close)
			break;
	}
	clang_disposeTokens(tu, toks, ntoks);
	p->init = p->cond = p->inc = p->body = clang_getNullCursor();
	for (int i = 0; i < l.n; i++) {
		unsigned off;
		clang_getSpellingLocation(clang_getCursorLocation(l.c[i]), NULL, NULL, NULL, &off);
		CXSourceRange r = clang_getCursorExtent(l.c[i]);
		clang_getSpellingLocation(clang_getRangeStart(r), NULL, NULL, NULL, &off);
		if (found == 2 && off < semi[0])
			p->init = l.c[i];
		else if (found == 2 && off < semi[1])
			p->cond = l.c[i];
		else if (close && off < close)
			p->inc = l.c[i];
		else
			p->body = l.c[i];
	}
}

/* The loop variable and its start value from the init clause (declaration or assignment) or, without an
 * init, from the variable's tracked value (the remainder loop after an unrolled one). */
static struct var *loop_var_init(struct fctx *fc, struct for_parts *p, struct kc_poly **start)
{
	*start = NULL;
	CXCursor decl = clang_getNullCursor(), init = clang_getNullCursor();
	if (!clang_Cursor_isNull(p->init)) {
		CXCursor s = strip(p->init);
		if (clang_getCursorKind(s) == CXCursor_DeclStmt) {
			struct child_list l;
			children(s, &l);
			if (l.n != 1)
				return NULL;
			decl = l.c[0];
			struct child_list vl;
			children(decl, &vl);
			for (int i = 0; i < vl.n; i++)
				if (clang_isExpression(clang_getCursorKind(vl.c[i])))
					init = vl.c[i];
		} else if (clang_getCursorKind(s) == CXCursor_BinaryOperator &&
		           clang_getCursorBinaryOperatorKind(s) == CXBinaryOperator_Assign) {
			struct child_list l;
			children(s, &l);
			if (l.n != 2 || clang_getCursorKind(strip(l.c[0])) != CXCursor_DeclRefExpr)
				return NULL;
			decl = clang_getCursorReferenced(strip(l.c[0]));
			init = l.c[1];
		} else {
			return NULL;
		}
		if (clang_Cursor_isNull(init) || expr_poly(fc, init, start) < 0)
			*start = NULL; /* data-dependent start (CSR rowptr[i]): only KCOST_TRIPS can count it */
	} else {
		/* no init: the variable of the condition keeps the value it had */
		CXCursor cond = strip(p->cond);
		struct child_list l;
		children(cond, &l);
		for (int i = 0; i < l.n && clang_Cursor_isNull(decl); i++) {
			CXCursor s = strip(l.c[i]);
			if (clang_getCursorKind(s) == CXCursor_BinaryOperator) {
				struct child_list sl;
				children(s, &sl);
				s = sl.n ? strip(sl.c[0]) : s;
			}
			if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
				struct var *v = referenced_var(fc, s);
				if (v && (v->kind == V_INT || v->kind == V_LOOP)) {
					decl = v->decl;
					*start = v->kind == V_INT ? v->value : NULL;
				}
			}
		}
		if (!*start)
			return NULL;
	}
	struct var *v = add_var(fc, decl, V_LOOP);
	if (!v)
		return NULL;
	char *name = spelling(fc->fe->a, decl);
	v->sym = kc_sym_named(fc->fn, name);
	if (v->sym >= 0 && v->sym >= fc->fn->n_size_params && !fc->fn->syms.syms[v->sym].has_value)
		fc->fn->syms.syms[v->sym].is_loop = 1;
	return v->sym < 0 ? NULL : v;
}

/* The step from the increment: ++, --, += c, -= c, v = v + c. */
static int loop_step(struct fctx *fc, CXCursor inc, struct var *v, long long *step)
{
	CXCursor s = strip(inc);
	struct child_list l;
	children(s, &l);
	if (clang_Cursor_isNull(s) || l.n < 1 || referenced_var(fc, l.c[0]) != v)
		return -1;
	if (clang_getCursorKind(s) == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(s);
		*step = k == CXUnaryOperator_PostInc || k == CXUnaryOperator_PreInc ? 1 : k == CXUnaryOperator_PostDec || k == CXUnaryOperator_PreDec ? -1 : 0;
		return *step ? 0 : -1;
	}
	struct kc_poly *d;
	struct kc_rat r;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(s);
	if (l.n != 2)
		return -1;
	if (k == CXBinaryOperator_AddAssign || k == CXBinaryOperator_SubAssign) {
		if (expr_poly(fc, l.c[1], &d) < 0 || !kc_poly_is_const(d, &r) || r.den != 1 || r.num == 0)
			return -1;
		*step = k == CXBinaryOperator_AddAssign ? (long long)r.num : -(long long)r.num;
		return 0;
	}
	if (k == CXBinaryOperator_Assign) {
		struct kc_poly *val, *sym = kc_poly_sym(fc->fe->a, v->sym);
		if (expr_poly(fc, l.c[1], &val) < 0 || kc_poly_sub(fc->fe->a, val, sym, &d) < 0 ||
		    !kc_poly_is_const(d, &r) || r.den != 1 || r.num == 0)
			return -1;
		*step = (long long)r.num;
		return 0;
	}
	return -1;
}

/* Turn one comparison into bounds on the loop variable: lhs OP rhs with v's coefficient +-1 on one side.
 * Appends to upper[] (v <= bound) or lower[] (v >= bound). */
static int add_condition(struct fctx *fc, CXCursor cond, struct kc_node *loop, long long step)
{
	struct kc_arena *a = fc->fe->a;
	cond = strip(cond);
	if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
		return -1;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(cond);
	struct child_list l;
	children(cond, &l);
	if (l.n != 2)
		return -1;
	if (k == CXBinaryOperator_LAnd)
		return add_condition(fc, l.c[0], loop, step) < 0 ? -1 : add_condition(fc, l.c[1], loop, step);
	/* normalize to  coef*v + rest  OP'  0  with rest free of v, then to v <= / >= bound */
	struct kc_poly *ops[KC_MAX_BOUNDS];
	int want = k == CXBinaryOperator_LT || k == CXBinaryOperator_LE || (k == CXBinaryOperator_NE && step > 0)
	               ? BOUND_MIN : BOUND_MAX;
	struct kc_poly *lhs;
	int nr = 0;
	if (expr_poly(fc, l.c[0], &lhs) < 0 || (nr = minmax_operands(fc, l.c[1], want, ops, KC_MAX_BOUNDS)) < 0)
		return -1;
	for (int i = 0; i < nr; i++) {
		struct kc_poly *diff, *rest;
		struct kc_rat coef;
		if (kc_poly_sub(a, lhs, ops[i], &diff) < 0 || kc_poly_affine_split(a, diff, loop->var, &coef, &rest) < 0 ||
		    coef.den != 1 || (coef.num != 1 && coef.num != -1) || kc_poly_has_sym(rest, loop->var))
			return -1;
		/* coef*v + rest OP 0, coef = +-1:  v OP' -coef*rest */
		struct kc_poly *bound;
		if (kc_poly_scale(a, rest, kc_rat_int(coef.num == 1 ? -1 : 1), &bound) < 0)
			return -1;
		enum CXBinaryOperatorKind kk = k;
		if (coef.num == -1) /* -v + rest < 0  <=>  v > rest */
			kk = k == CXBinaryOperator_LT ? CXBinaryOperator_GT : k == CXBinaryOperator_LE ? CXBinaryOperator_GE
			   : k == CXBinaryOperator_GT ? CXBinaryOperator_LT : k == CXBinaryOperator_GE ? CXBinaryOperator_LE : k;
		struct kc_poly *one = kc_poly_const(a, 1, 1);
		switch (kk) {
		case CXBinaryOperator_LT: kc_poly_sub(a, bound, one, &bound); /* fall through */
		case CXBinaryOperator_LE:
			if (loop->n_upper >= KC_MAX_BOUNDS)
				return -1;
			loop->upper[loop->n_upper++] = bound;
			break;
		case CXBinaryOperator_GT: kc_poly_add(a, bound, one, &bound); /* fall through */
		case CXBinaryOperator_GE:
			if (loop->n_lower >= KC_MAX_BOUNDS)
				return -1;
			loop->lower[loop->n_lower++] = bound;
			break;
		case CXBinaryOperator_NE: /* v != b stepping by +-1 toward b */
			if (step == 1 || step == -1) {
				if (step > 0)
					kc_poly_sub(a, bound, one, &bound);
				else
					kc_poly_add(a, bound, one, &bound);
				if (step > 0)
					loop->upper[loop->n_upper++] = bound;
				else
					loop->lower[loop->n_lower++] = bound;
				break;
			}
			return -1;
		default: return -1;
		}
	}
	return 0;
}

static struct kc_poly *trips_annotation(struct fctx *fc, struct var *v)
{
	char *name = spelling(fc->fe->a, v->decl);
	for (int i = 0; i < fc->n_trips; i++)
		if (!strcmp(fc->trips_var[i], name))
			return fc->trips_total[i];
	return NULL;
}

/* The expressions of a for-init: an expression, or a declaration's initializers. */
static void collect_init(struct fctx *fc, CXCursor init, struct kc_node *st)
{
	if (clang_getCursorKind(init) != CXCursor_DeclStmt) {
		collect_expr(fc, init, st, ROLE_READ);
		return;
	}
	struct child_list decls;
	children(init, &decls);
	for (int i = 0; i < decls.n; i++) {
		struct child_list l;
		children(decls.c[i], &l);
		for (int k = 0; k < l.n; k++)
			if (clang_isExpression(clang_getCursorKind(l.c[k])))
				collect_expr(fc, l.c[k], st, ROLE_READ);
	}
}

static int is_loop_sym(struct fctx *fc, const struct kc_poly *p)
{
	for (int i = 0; i < fc->n_vars; i++)
		if (fc->vars[i].kind == V_LOOP && kc_poly_has_sym(p, fc->vars[i].sym))
			return 1;
	return 0;
}

/* The value of the loop variable after the loop:
 *   for (v = start; v <= end; v += s)  ->  start + s*(floor((end - start)/s) + 1)   (s > 0)
 * NULL when it has several bounds or needs a floor of loop variables. */
static struct kc_poly *exit_value(struct fctx *fc, const struct kc_node *loop)
{
	struct kc_arena *a = fc->fe->a;
	if (loop->n_lower != 1 || loop->n_upper != 1)
		return NULL;
	long long s = loop->step, as = s > 0 ? s : -s;
	struct kc_poly *start = s > 0 ? loop->lower[0] : loop->upper[0];
	struct kc_poly *end = s > 0 ? loop->upper[0] : loop->lower[0];
	struct kc_poly *dist, *q, *r;
	if (kc_poly_sub(a, s > 0 ? end : start, s > 0 ? start : end, &dist) < 0 ||
	    kc_poly_scale(a, dist, (struct kc_rat){1, as}, &q) < 0)
		return NULL;
	for (int t = 0; t < kc_poly_nterms(q); t++)
		if (kc_poly_term_coef(q, t).den != 1) {
			int d = is_loop_sym(fc, dist) ? -1 : kc_sym_floor(a, fc->fn, dist, as);
			if (d < 0)
				return NULL;
			q = kc_poly_sym(a, d);
			break;
		}
	if (kc_poly_add(a, q, kc_poly_const(a, 1, 1), &q) < 0 || kc_poly_scale(a, q, kc_rat_int(s), &q) < 0 ||
	    kc_poly_add(a, start, q, &r) < 0)
		return NULL;
	return r;
}

static void lower_body(struct fctx *fc, CXCursor body, struct kc_node *parent)
{
	if (clang_Cursor_isNull(body))
		return;
	fc->loop_depth++;
	lower_stmt(fc, body, parent);
	fc->loop_depth--;
}

static void lower_for(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	struct for_parts p;
	split_for(c, &p);
	struct kc_node *loop = new_node(fc, KC_NODE_LOOP, c, parent);
	fc->fn->has_loops = 1;
	struct kc_poly *start;
	struct var *v = loop_var_init(fc, &p, &start);
	long long step = 0;
	if (v && loop_step(fc, p.inc, v, &step) == 0) {
		loop->var = v->sym;
		loop->step = step;
		if (!start)
			goto data_dependent;
		if (step > 0)
			loop->lower[loop->n_lower++] = start;
		else
			loop->upper[loop->n_upper++] = start;
		if (!clang_Cursor_isNull(p.cond) && add_condition(fc, p.cond, loop, step) == 0 &&
		    (step > 0 ? loop->n_upper : loop->n_lower) > 0) {
			lower_body(fc, p.body, loop);
			/* after the loop, v holds its exit value (used by a following remainder loop) */
			v->kind = V_INT;
			v->value = exit_value(fc, loop);
			return;
		}
	data_dependent:;
		struct kc_poly *total = trips_annotation(fc, v);
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
			return;
		}
		warn(fc, c, KC_WARNING, "loop bounds of '%s' are not affine functions of the sizes and outer loop variables: "
		     "trip count unknown, the body is counted once (annotate the total with KCOST_TRIPS)", spelling(fc->fe->a, v->decl));
	} else {
		warn(fc, c, KC_WARNING, "unsupported loop form%s: trip count unknown", "");
	}
	loop->inexact = 1;
	loop->n_lower = loop->n_upper = 0;
	lower_body(fc, p.body, loop);
	if (v) {
		v->kind = V_INT;
		v->value = NULL;
	}
}

static void lower_children(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	struct child_list l;
	children(c, &l);
	for (int i = 0; i < l.n; i++)
		lower_stmt(fc, l.c[i], parent);
}

/* Guards `lhs OP rhs` (&&-joined) as affine constraints g >= 0 on integers. */
static int affine_guards(struct fctx *fc, CXCursor c, struct kc_node *n)
{
	struct kc_arena *a = fc->fe->a;
	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_BinaryOperator)
		return -1;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c);
	struct child_list l;
	children(c, &l);
	if (l.n != 2)
		return -1;
	if (k == CXBinaryOperator_LAnd)
		return affine_guards(fc, l.c[0], n) < 0 ? -1 : affine_guards(fc, l.c[1], n);
	struct kc_poly *x, *y, *g;
	if (expr_poly(fc, l.c[0], &x) < 0 || expr_poly(fc, l.c[1], &y) < 0 || n->n_guards >= KC_MAX_BOUNDS)
		return -1;
	struct kc_poly *one = kc_poly_const(a, 1, 1);
	switch (k) {
	case CXBinaryOperator_LT: kc_poly_sub(a, y, x, &g); kc_poly_sub(a, g, one, &g); break;
	case CXBinaryOperator_LE: kc_poly_sub(a, y, x, &g); break;
	case CXBinaryOperator_GT: kc_poly_sub(a, x, y, &g); kc_poly_sub(a, g, one, &g); break;
	case CXBinaryOperator_GE: kc_poly_sub(a, x, y, &g); break;
	default: return -1;
	}
	if (!kc_poly_is_affine(g))
		return -1;
	n->guard[n->n_guards++] = g;
	return 0;
}

static void lower_if(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	struct child_list l;
	children(c, &l);
	if (l.n < 2)
		return;
	struct kc_node *n = new_node(fc, KC_NODE_IF, c, parent);
	if (affine_guards(fc, l.c[0], n) < 0) {
		n->n_guards = 0;
		struct kc_node *st = stmt_node(fc, l.c[0], parent);
		collect_expr(fc, l.c[0], st, ROLE_READ);
		drop_if_empty(parent, st);
		n->inexact = 1; /* decided below, once we know whether the branches cost anything */
	}
	lower_stmt(fc, l.c[1], n);
	if (l.n > 2) {
		n->orelse = new_node(fc, KC_NODE_BLOCK, l.c[2], NULL);
		lower_stmt(fc, l.c[2], n->orelse);
	}
	if (n->inexact && (n->first || (n->orelse && n->orelse->first))) {
		if (fc->loop_depth > 0)
			warn(fc, l.c[0], KC_WARNING, "data-dependent condition%s: its branch is counted as always taken", "");
		else
			warn(fc, l.c[0], KC_WARNING, "data-dependent condition%s outside loops: its branch is counted as taken", "");
	} else {
		n->inexact = 0;
	}
}

static void lower_stmt(struct fctx *fc, CXCursor c, struct kc_node *parent)
{
	switch (clang_getCursorKind(c)) {
	case CXCursor_CompoundStmt: lower_children(fc, c, parent); return;
	case CXCursor_DeclStmt: {
		struct child_list l;
		children(c, &l);
		for (int i = 0; i < l.n; i++)
			if (clang_getCursorKind(l.c[i]) == CXCursor_VarDecl)
				lower_var_decl(fc, l.c[i], parent);
		return;
	}
	case CXCursor_ForStmt: lower_for(fc, c, parent); return;
	case CXCursor_IfStmt: lower_if(fc, c, parent); return;
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt: {
		fc->fn->has_loops = 1;
		struct kc_node *loop = new_node(fc, KC_NODE_LOOP, c, parent);
		loop->inexact = 1;
		warn(fc, c, KC_WARNING, "%s loop: trip count unknown, its body is counted once", clang_getCursorKind(c) == CXCursor_WhileStmt ? "while" : "do-while");
		struct child_list l;
		children(c, &l);
		for (int i = 0; i < l.n; i++)
			if (!clang_isExpression(clang_getCursorKind(l.c[i])))
				lower_body(fc, l.c[i], loop);
		return;
	}
	case CXCursor_ReturnStmt: {
		if (fc->loop_depth > 0)
			warn(fc, c, KC_WARNING, "early return inside a loop%s: counted as if the loop ran to completion", "");
		else if (parent->kind == KC_NODE_IF)
			kc_diag_add(fc->fe->a, &fc->fn->diags, cursor_loc(fc->fe, c), KC_NOTE, fc->fn->name,
			            "counts assume this early return is not taken");
		lower_children(fc, c, parent);
		return;
	}
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		if (fc->loop_depth > 0)
			warn(fc, c, KC_WARNING, "'%s' inside a loop: counted as if every iteration ran to completion",
			     clang_getCursorKind(c) == CXCursor_BreakStmt ? "break" : "continue");
		return;
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
		warn(fc, c, KC_WARNING, "'goto'%s is not supported: counts ignore the jump", "");
		return;
	case CXCursor_SwitchStmt:
		warn(fc, c, KC_WARNING, "'switch'%s is not supported: every case is counted once", "");
		lower_children(fc, c, parent);
		return;
	case CXCursor_LabelStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt: lower_children(fc, c, parent); return;
	case CXCursor_NullStmt: return;
	default:
		if (clang_isExpression(clang_getCursorKind(c)))
			lower_expr_stmt(fc, c, parent);
		return;
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Function setup: parameters, annotations */

struct annots {
	const char *sizes[4];
	int n_sizes;
	const char *trips[MAX_TRIPS];
	int n_trips;
	int skip;
};

static void read_annotations(struct fctx *fc, CXCursor fn, struct annots *an)
{
	struct child_list l;
	children(fn, &l);
	memset(an, 0, sizeof *an);
	for (int i = 0; i < l.n; i++) {
		if (clang_getCursorKind(l.c[i]) != CXCursor_AnnotateAttr)
			continue;
		char *text = spelling(fc->fe->a, l.c[i]);
		if (strncmp(text, "kcost:", 6) != 0)
			continue;
		text += 6;
		if (!strncmp(text, "sizes ", 6) && an->n_sizes < 4)
			an->sizes[an->n_sizes++] = text + 6;
		else if (!strncmp(text, "reference ", 10))
			fc->fn->reference = text + 10;
		else if (!strncmp(text, "init ", 5))
			fc->fn->init = text + 5;
		else if (!strncmp(text, "trips ", 6) && an->n_trips < MAX_TRIPS)
			an->trips[an->n_trips++] = text + 6;
		else if (!strcmp(text, "skip"))
			an->skip = 1;
		else if (!strncmp(text, "assume ", 7)) {
			const char **grown = KC_NEW_N(fc->fe->a, const char *, fc->fn->n_assumptions + 1);
			if (fc->fn->n_assumptions)
				memcpy(grown, fc->fn->assumptions, sizeof *grown * (size_t)fc->fn->n_assumptions);
			grown[fc->fn->n_assumptions++] = text + 7;
			fc->fn->assumptions = grown;
		} else
			warn(fc, l.c[i], KC_WARNING, "unknown kcost annotation '%s'", text);
	}
}

static struct kc_poly *resolve_size_name(void *ctx, const char *name, size_t len)
{
	struct fctx *fc = ctx;
	char *s = kc_arena_strndup(fc->fe->a, name, len);
	int sym = kc_sym_named(fc->fn, s);
	return sym < 0 ? NULL : kc_poly_sym(fc->fe->a, sym);
}

static int set_size(void *ctx, const char *name, size_t len, long long value)
{
	struct fctx *fc = ctx;
	int sym = kc_sym_named(fc->fn, kc_arena_strndup(fc->fe->a, name, len));
	if (sym < 0)
		return -1;
	fc->fn->syms.syms[sym].has_value = 1;
	fc->fn->syms.syms[sym].value = value;
	return 0;
}

static struct kc_param *new_param(struct fctx *fc, CXCursor p, const char *name, enum kc_param_kind kind)
{
	struct kc_param *pr = &fc->fn->params[fc->fn->n_params++];
	CXString ts = clang_getTypeSpelling(clang_getCursorType(p));
	pr->name = name;
	pr->type = kc_arena_strdup(fc->fe->a, clang_getCString(ts));
	clang_disposeString(ts);
	pr->kind = kind;
	pr->sym = pr->buffer = -1;
	return pr;
}

static void setup_param(struct fctx *fc, CXCursor p)
{
	CXType t = clang_getCursorType(p);
	char *name = spelling(fc->fe->a, p);
	if (is_integer_type(t)) {
		struct var *v = add_var(fc, p, V_SIZE);
		struct kc_param *pr = new_param(fc, p, name, KC_PARAM_SIZE);
		if (v && *name) {
			v->sym = pr->sym = kc_sym_named(fc->fn, name);
			fc->fn->n_size_params = fc->fn->syms.n;
		}
		return;
	}
	int ndims, is_pointer;
	CXType elem = element_type(t, &ndims, &is_pointer);
	if (!is_pointer || !*name) {
		add_var(fc, p, float_prec(t) >= 0 ? V_SCALAR : V_OTHER);
		new_param(fc, p, name, float_prec(t) >= 0 ? KC_PARAM_SCALAR : KC_PARAM_OTHER)->is_float = float_prec(t) >= 0;
		return;
	}
	int id = add_buffer(fc, p, elem);
	new_param(fc, p, name, KC_PARAM_BUFFER)->buffer = id;
	struct kc_buffer *b = &fc->fn->buffers[id];
	b->is_param = 1;
	struct kc_dims *d = &fc->dims[id];
	d->ndims = declared_dims(fc, p, d->dim, KC_MAX_DIMS);
	if (d->ndims < ndims) {
		/* T *p, or T (*p)[k]: a leading dimension not written in the declarator */
		memmove(d->dim + 1, d->dim, sizeof d->dim[0] * (size_t)d->ndims);
		d->dim[0] = NULL;
		d->ndims = ndims;
	}
	b->extent = product(fc, d->dim, d->ndims);
	struct child_list l;
	children(p, &l);
	for (int i = 0; i < l.n; i++) {
		if (clang_getCursorKind(l.c[i]) != CXCursor_AnnotateAttr)
			continue;
		char *text = spelling(fc->fe->a, l.c[i]);
		const char *err;
		if (!strncmp(text, "kcost:extent ", 13)) {
			if (kc_annot_parse_expr(fc->fe->a, text + 13, resolve_size_name, fc, &b->extent, &err) < 0)
				warn(fc, l.c[i], KC_WARNING, "bad KCOST_EXTENT: %s", err);
			else if (d->ndims <= 1)
				d->dim[0] = b->extent;
		} else if (!strcmp(text, "kcost:scratch")) {
			b->is_scratch = 1;
		}
	}
	struct var *v = add_var(fc, p, V_BUFFER);
	if (v)
		v->buffer = id;
}

static void apply_sizes(struct fctx *fc, CXCursor fn, struct annots *an)
{
	const char *err;
	for (int i = 0; i < an->n_sizes; i++)
		if (kc_annot_parse_sizes(fc->fe->a, an->sizes[i], set_size, fc, &err) < 0)
			warn(fc, fn, KC_WARNING, "bad KCOST_SIZES: %s", err);
	for (int i = 0; i < fc->fe->opts->n_sizes; i++) {
		const struct kc_size_override *o = &fc->fe->opts->sizes[i];
		for (int s = 0; s < fc->fn->syms.n; s++)
			if (!strcmp(fc->fn->syms.syms[s].name, o->name)) {
				fc->fn->syms.syms[s].has_value = 1;
				fc->fn->syms.syms[s].value = o->value;
			}
	}
	for (int i = 0; i < an->n_trips; i++) {
		const char *sp = strchr(an->trips[i], ' ');
		struct kc_poly *total;
		if (!sp || fc->n_trips >= MAX_TRIPS) {
			warn(fc, fn, KC_WARNING, "bad KCOST_TRIPS '%s': expected VARIABLE, TOTAL", an->trips[i]);
			continue;
		}
		if (kc_annot_parse_expr(fc->fe->a, sp + 1, resolve_size_name, fc, &total, &err) < 0) {
			warn(fc, fn, KC_WARNING, "bad KCOST_TRIPS: %s", err);
			continue;
		}
		fc->trips_var[fc->n_trips] = kc_arena_strndup(fc->fe->a, an->trips[i], (size_t)(sp - an->trips[i]));
		fc->trips_total[fc->n_trips++] = total;
	}
}

/* Room for the model's nests, at most one per top-level statement: kc_count_function fills them. */
static void reserve_nests(struct fctx *fc)
{
	int n = 0;
	for (struct kc_node *c = fc->ir->body->first; c; c = c->next)
		n++;
	fc->fn->nests = KC_NEW_N(fc->fe->a, struct kc_nest, n + 1);
	fc->fn->n_nests = 0;
}

static int has_cost(const struct kc_node *n)
{
	if (n->kind == KC_NODE_LOOP || n->call || n->lib_call)
		return 1;
	for (const struct kc_node *c = n->first; c; c = c->next)
		if (has_cost(c))
			return 1;
	return n->orelse && has_cost(n->orelse);
}

/* What follows lowering: counts, footprints, dataflow; then whether the function is worth reporting. */
static void finish_function(struct kc_arena *a, const struct count_job *job)
{
	struct kc_fn_ir *ir = job->ir;
	struct kc_function *fn = ir->fn;
	kc_count_function(a, ir);
	kc_footprint_function(a, ir);
	kc_dataflow_function(a, ir);
	if (!has_cost(ir->body) && !job->sized && !fn->diags.warnings && !fn->diags.errors)
		fn->skip = 1; /* a helper without loops: nothing to report (but never hide a warning) */
}

static void *counter_main(void *arg)
{
	struct counter_thread *t = arg;
	pthread_mutex_lock(&t->mu);
	for (;;) {
		while (t->done == t->queued && !t->closing) {
			t->sleeping = 1;
			pthread_cond_wait(&t->cv, &t->mu);
			t->sleeping = 0;
		}
		if (t->done == t->queued)
			break;
		struct count_job job = t->jobs[t->done];
		pthread_mutex_unlock(&t->mu);
		finish_function(t->a, &job);
		pthread_mutex_lock(&t->mu);
		t->done++;
		pthread_cond_broadcast(&t->cv);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

/* Files of fewer functions are not worth a thread. */
#define COUNTER_MIN_FUNCTIONS 16

static void counter_start(struct fe *fe)
{
	struct counter_thread *t = &fe->counter;
	memset(t, 0, sizeof *t);
	int threads = fe->opts->threads;
	if (threads == 0)
		threads = fe->n_funcs >= COUNTER_MIN_FUNCTIONS && sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
	if (threads < 2 || fe->n_funcs == 0)
		return;
	t->jobs = malloc(sizeof *t->jobs * (size_t)fe->n_funcs);
	if (!t->jobs)
		return;
	t->cap = fe->n_funcs;
	t->a = &fe->an->arena2;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	t->running = pthread_create(&t->thread, NULL, counter_main, t) == 0;
	if (!t->running) {
		pthread_mutex_destroy(&t->mu);
		pthread_cond_destroy(&t->cv);
		free(t->jobs);
		t->jobs = NULL;
	}
}

/* Finish the function of tf: on the counter thread when it runs (tf->job is then its place in the queue). */
static void counter_submit(struct fe *fe, struct tu_func *tf, const struct count_job *job)
{
	struct counter_thread *t = &fe->counter;
	if (!t->running || t->queued == t->cap) {
		finish_function(fe->a, job);
		tf->job = -1;
		return;
	}
	pthread_mutex_lock(&t->mu);
	tf->job = t->queued;
	t->jobs[t->queued++] = *job;
	if (t->sleeping && t->queued - t->done >= COUNTER_BATCH)
		pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
}

/* Wait until tf's function is finished (a caller is about to read its counts and exactness). */
static void counter_wait(struct fe *fe, const struct tu_func *tf)
{
	struct counter_thread *t = &fe->counter;
	if (!t->running || tf->job < 0)
		return;
	pthread_mutex_lock(&t->mu);
	while (t->done <= tf->job) {
		if (t->sleeping)
			pthread_cond_broadcast(&t->cv); /* fewer than a batch may be waiting */
		pthread_cond_wait(&t->cv, &t->mu);
	}
	pthread_mutex_unlock(&t->mu);
}

/* Let the counter finish every job and stop. */
static void counter_stop(struct fe *fe)
{
	struct counter_thread *t = &fe->counter;
	if (!t->running)
		return;
	pthread_mutex_lock(&t->mu);
	t->closing = 1;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->thread, NULL);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	free(t->jobs);
	memset(t, 0, sizeof *t);
}

static struct kc_fn_ir *analyze_function(struct fe *fe, struct tu_func *tf)
{
	tf->state = FN_ACTIVE;
	/* calls analyze their callee first, so several states can be live at once: reuse one spare */
	struct fctx *fc = fe->spare ? fe->spare : malloc(sizeof *fc);
	fe->spare = NULL;
	if (!fc) {
		tf->state = FN_DONE;
		return NULL;
	}
	memset(fc, 0, offsetof(struct fctx, vars));
	fc->fe = fe;
	struct kc_function *fn = fc->fn = KC_NEW(fe->a, struct kc_function);
	fc->ir = KC_NEW(fe->a, struct kc_fn_ir);
	fc->ir->fn = fn;
	fn->name = tf->name;
	fn->loc = cursor_loc(fe, tf->cursor);
	fn->end = cursor_end(fe, tf->cursor);
	fn->exact = 1;
	int nparams = clang_Cursor_getNumArguments(tf->cursor);
	fn->params = KC_NEW_N(fe->a, struct kc_param, nparams > 0 ? nparams : 1);
	fn->is_static = clang_getCursorLinkage(tf->cursor) == CXLinkage_Internal;
	for (int i = 0; i < nparams; i++)
		setup_param(fc, clang_Cursor_getArgument(tf->cursor, (unsigned)i));
	struct annots an;
	read_annotations(fc, tf->cursor, &an);
	fn->skip = an.skip;
	apply_sizes(fc, tf->cursor, &an);
	struct child_list l;
	children(tf->cursor, &l);
	fc->ir->body = new_node(fc, KC_NODE_BLOCK, tf->cursor, NULL);
	if (l.n && clang_getCursorKind(l.c[l.n - 1]) == CXCursor_CompoundStmt)
		lower_stmt(fc, l.c[l.n - 1], fc->ir->body);
	reserve_nests(fc);
	fc->ir->dims = fc->dims;
	tf->ir = fc->ir;
	tf->state = FN_DONE;
	counter_submit(fe, tf, &(struct count_job){fc->ir, an.n_sizes > 0});
	if (fe->spare)
		free(fc);
	else
		fe->spare = fc;
	return tf->ir;
}

/* ------------------------------------------------------------------------------------------------ */
/* Translation units */

static enum CXChildVisitResult collect_function(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct fe *fe = data;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	/* where the definition is expanded: a kernel a macro of the file defines belongs to the file */
	CXFile file;
	clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
	if (!file || !clang_File_isEqual(file, fe->main_file))
		return CXChildVisit_Continue;
	if (fe->n_funcs == fe->cap_funcs) {
		int cap = fe->cap_funcs ? 2 * fe->cap_funcs : 64;
		struct tu_func *grown = realloc(fe->funcs, sizeof *grown * (size_t)cap);
		if (!grown)
			return CXChildVisit_Break; /* out of memory: analyze what was collected */
		fe->funcs = grown;
		fe->cap_funcs = cap;
	}
	struct tu_func *tf = &fe->funcs[fe->n_funcs++];
	tf->cursor = c;
	tf->name = spelling(fe->a, c);
	tf->state = FN_UNSEEN;
	return CXChildVisit_Continue;
}

static void report_clang_diags(struct fe *fe, CXTranslationUnit tu, int *errors)
{
	unsigned n = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Warning) {
			CXString msg = clang_getDiagnosticSpelling(d);
			enum kc_severity ks = sev >= CXDiagnostic_Error ? KC_ERROR : KC_WARNING;
			kc_diag_add(fe->a, &fe->an->diags, location(fe, clang_getDiagnosticLocation(d)), ks, NULL, "%s",
			            clang_getCString(msg));
			clang_disposeString(msg);
			if (ks == KC_ERROR)
				(*errors)++;
		}
		clang_disposeDiagnostic(d);
	}
}

/* Flags for one file: the user's, plus those of its compile_commands.json entry (-p). */
static int build_args(struct fe *fe, const char *file, const char **argv, int cap)
{
	int n = 0;
	argv[n++] = "-xc";
	if (fe->opts->include_dir) {
		argv[n++] = "-I";
		argv[n++] = fe->opts->include_dir;
	}
	if (fe->opts->compile_db) {
		CXCompilationDatabase_Error err;
		CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(fe->opts->compile_db, &err);
		if (db) {
			CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, file);
			if (cmds && clang_CompileCommands_getSize(cmds) > 0) {
				CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
				unsigned na = clang_CompileCommand_getNumArgs(cmd);
				for (unsigned i = 1; i < na && n < cap - fe->opts->n_args - 1; i++) {
					CXString s = clang_CompileCommand_getArg(cmd, i);
					const char *t = clang_getCString(s);
					/* keep the flags that shape the parse; drop -c, -o X and the file itself */
					if (!strncmp(t, "-I", 2) || !strncmp(t, "-D", 2) || !strncmp(t, "-U", 2) ||
					    !strncmp(t, "-std=", 5) || !strncmp(t, "-include", 8) || !strncmp(t, "-isystem", 8) ||
					    !strncmp(t, "-f", 2) || !strncmp(t, "-m", 2))
						argv[n++] = kc_arena_strdup(fe->a, t);
					clang_disposeString(s);
				}
			}
			clang_CompileCommands_dispose(cmds);
			clang_CompilationDatabase_dispose(db);
		}
	}
	for (int i = 0; i < fe->opts->n_args && n < cap; i++)
		argv[n++] = fe->opts->args[i];
	return n;
}

static int wanted(struct fe *fe, const char *name)
{
	return !fe->has_re || regexec(&fe->re, name, 0, NULL, 0) == 0;
}

static void add_function(struct kc_analysis *an, struct kc_function *f)
{
	int n = an->n_functions;
	if ((n & (n - 1)) == 0) { /* capacity is the next power of two: grow when n reaches one */
		struct kc_function **grown = KC_NEW_N(&an->arena, struct kc_function *, n ? 2 * n : 1);
		if (n)
			memcpy(grown, an->functions, sizeof *grown * (size_t)n);
		an->functions = grown;
	}
	f->index = an->n_functions;
	an->functions[an->n_functions++] = f;
}

/* The function named `name` among the file's analyzed ones, or NULL. */
static struct kc_function *file_function(struct fe *fe, const char *name)
{
	for (int i = 0; name && i < fe->n_funcs; i++)
		if (fe->funcs[i].ir && !strcmp(fe->funcs[i].ir->fn->name, name))
			return fe->funcs[i].ir->fn;
	return NULL;
}

static int parse_file(struct fe *fe, CXIndex index, int file_index)
{
	const char *file = fe->an->files[file_index];
	const char *argv[256];
	int argc = build_args(fe, file, argv, 256);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode ec = clang_parseTranslationUnit2(index, file, argv, argc, NULL, 0,
	                                                  CXTranslationUnit_KeepGoing, &tu);
	fe->path = file;
	if (ec != CXError_Success || !tu) {
		kc_diag_add(fe->a, &fe->an->diags, (struct kc_loc){file, 0, 0}, KC_ERROR, NULL,
		            ec == CXError_ASTReadError ? "could not read the file" : "could not parse the file (libclang error %d)",
		            (int)ec);
		fe->an->parse_failed = 1;
		return 0;
	}
	child_cache_clear(); /* a new AST may reuse the old one's addresses */
	fe->main_file = clang_getFile(tu, file);
	index_main_file(fe, tu);
	int errors = 0;
	report_clang_diags(fe, tu, &errors);
	if (errors)
		fe->an->parse_failed = 1;
	fe->n_funcs = 0;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_function, fe);
	counter_start(fe);
	for (int i = 0; i < fe->n_funcs; i++) {
		struct tu_func *tf = &fe->funcs[i];
		if (tf->state == FN_UNSEEN)
			analyze_function(fe, tf);
	}
	counter_stop(fe);
	/* every analyzed function goes into the model — the runner looks references up there — but only the
	 * wanted ones are reported (skip is set on the others) */
	for (int i = 0; i < fe->n_funcs; i++) {
		struct tu_func *tf = &fe->funcs[i];
		if (!tf->ir)
			continue;
		if (!wanted(fe, tf->name))
			tf->ir->fn->skip = 1;
		tf->ir->fn->file_index = file_index;
		tf->ir->fn->reference_fn = file_function(fe, tf->ir->fn->reference);
		add_function(fe->an, tf->ir->fn);
	}
	clang_disposeTranslationUnit(tu);
	return 0;
}

int kc_analyze(struct kc_analysis *an, const char *const *files, int n_files, const struct kc_analyze_opts *o)
{
	struct fe *fe = calloc(1, sizeof *fe);
	if (!fe)
		return -1;
	fe->an = an;
	fe->a = &an->arena;
	fe->opts = o;
	an->files = KC_NEW_N(&an->arena, const char *, n_files + 1);
	an->n_files = n_files;
	if (o->function_regex) {
		if (regcomp(&fe->re, o->function_regex, REG_EXTENDED | REG_NOSUB) != 0) {
			kc_diag_add(fe->a, &an->diags, (struct kc_loc){0}, KC_ERROR, NULL, "invalid --function regex '%s'",
			            o->function_regex);
			free(fe);
			return -1;
		}
		fe->has_re = 1;
	}
	CXIndex index = clang_createIndex(0, 0);
	for (int i = 0; i < n_files; i++) {
		an->files[i] = kc_arena_strdup(fe->a, files[i]);
		parse_file(fe, index, i);
	}
	clang_disposeIndex(index);
	if (fe->has_re)
		regfree(&fe->re);
	free(fe->funcs);
	free(fe->spare);
	free(fe);
	return 0;
}

void kc_analysis_release(struct kc_analysis *an)
{
	kc_arena_release(&an->arena);
	kc_arena_release(&an->arena2);
}

const char *kc_analyzer_clang_version(void)
{
	static char version[128];
	if (!version[0]) {
		CXString s = clang_getClangVersion();
		snprintf(version, sizeof version, "%s", clang_getCString(s));
		clang_disposeString(s);
	}
	return version;
}
