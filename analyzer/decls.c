/* decls.c — what a function declares: its buffers (parameters, local arrays, allocations, fields), size and
 * scalar parameters, and its kcost annotations (sizes, trips, extents, references). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "affine.h"
#include "annotate.h"
#include "check.h"
#include "clang_util.h"
#include "decls.h"
#include "fe_int.h"
#include "ir.h"

/* ------------------------------------------------------------------------------------------------ */
/* Buffers */

int kc_decl_buffer(struct fctx *fc, CXCursor decl, CXType elem)
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
	b->name = kc_cx_spelling(fc->fe->a, decl);
	b->loc = kc_cx_loc(fc->fe, decl);
	CXType canon = clang_getCanonicalType(elem);
	CXString ts = clang_getTypeSpelling(clang_getUnqualifiedType(canon));
	b->elem_type = kc_arena_strdup(fc->fe->a, clang_getCString(ts));
	clang_disposeString(ts);
	long long size = clang_Type_getSizeOf(canon);
	b->elem_size = size > 0 ? (int)size : 1;
	b->elem_class = kc_cx_elem_class(canon);
	b->role = KC_ROLE_UNUSED;
	return id;
}

/* Size expressions written in a declarator (VLA and constant dimensions), outermost first. */
int kc_decl_dims(struct fctx *fc, CXCursor decl, struct kc_poly **dims, int cap)
{
	KC_ASSERT(cap <= KC_MAX_DIMS);
	/* an array of constant dimensions: its type has them (`float s[] = {...}` has no size expression, and the
	 * initializer of `float s[N + 2] = {0}` is no dimension) */
	CXType at = clang_getCanonicalType(clang_getCursorType(decl));
	int n = 0;
	while (at.kind == CXType_ConstantArray && n < cap && clang_getArraySize(at) >= 0) {
		dims[n++] = kc_poly_const(fc->fe->a, clang_getArraySize(at), 1);
		at = clang_getCanonicalType(clang_getArrayElementType(at));
	}
	if (n && at.kind != CXType_ConstantArray && at.kind != CXType_VariableArray &&
	    at.kind != CXType_IncompleteArray)
		return n;
	n = 0;
	struct child_list l;
	kc_cx_children(decl, &l);
	CXCursor init = clang_getCursorKind(decl) == CXCursor_VarDecl ? clang_Cursor_getVarDeclInitializer(decl)
	                                                              : clang_getNullCursor();
	for (int i = 0; i < l.n && n < cap; i++) {
		enum CXCursorKind k = clang_getCursorKind(l.c[i]);
		if (!clang_isExpression(k) || (!clang_Cursor_isNull(init) && clang_equalCursors(l.c[i], init)))
			continue;
		struct kc_poly *p;
		dims[n++] = kc_affine_expr(fc, l.c[i], &p) == 0 ? p : NULL;
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

struct kc_poly *kc_decl_product(struct fctx *fc, struct kc_poly **dims, int n)
{
	struct kc_poly *p = kc_poly_const(fc->fe->a, 1, 1);
	for (int i = 0; i < n; i++)
		if (!dims[i] || kc_poly_mul(fc->fe->a, p, dims[i], &p) < 0)
			return NULL;
	return p;
}

/* ------------------------------------------------------------------------------------------------ */
/* Function setup: parameters, annotations */

/* An annotation's text and the attribute it came from (where its diagnostics point). */
struct annot {
	CXCursor at;
	const char *text;
};

/* The function's KCOST_SIZES and KCOST_TRIPS annotations (arrays in the arena, one entry per attribute at most). */
struct annots {
	struct annot *sizes;
	int n_sizes;
	struct annot *trips;
	int n_trips;
	int skip;
};

/* The function of the file named `name`, or NULL. */
static const struct tu_func *file_function_named(const struct fe *fe, const char *name)
{
	for (int i = 0; i < fe->n_funcs; i++)
		if (!strcmp(fe->funcs[i].name, name))
			return &fe->funcs[i];
	return NULL;
}

/* KCOST_REFERENCE(name): one per function, a function of the same file, not the function itself (a kernel
 * compared with itself proves nothing: that one is dropped). A name that is no function of the file is kept
 * as written, with nothing to point at (reference_fn stays NULL); each gets a warning at the attribute. */
static void set_reference(struct fctx *fc, CXCursor at, const char *name)
{
	if (fc->fn->reference) {
		kc_cx_warn_annotation(fc, at,
		                      "a second KCOST_REFERENCE ('%s') is ignored: a function has one reference", name);
		return;
	}
	if (!strcmp(name, fc->fn->name)) {
		kc_cx_warn_annotation(fc, at, "KCOST_REFERENCE names the function itself ('%s'): ignored", name);
		return;
	}
	if (!file_function_named(fc->fe, name))
		kc_cx_warn_annotation(fc, at,
		                      "KCOST_REFERENCE names '%s', which is not a function defined in this file", name);
	fc->fn->reference = name;
}

static void read_annotations(struct fctx *fc, CXCursor fn, struct annots *an)
{
	struct child_list l;
	kc_cx_children(fn, &l);
	memset(an, 0, sizeof *an);
	an->sizes = KC_NEW_N(fc->fe->a, struct annot, l.n + 1);
	an->trips = KC_NEW_N(fc->fe->a, struct annot, l.n + 1);
	for (int i = 0; i < l.n; i++) {
		if (clang_getCursorKind(l.c[i]) != CXCursor_AnnotateAttr)
			continue;
		char *text = kc_cx_spelling(fc->fe->a, l.c[i]);
		if (strncmp(text, "kcost:", 6) != 0)
			continue;
		text += 6;
		if (!strncmp(text, "sizes ", 6))
			an->sizes[an->n_sizes++] = (struct annot){l.c[i], text + 6};
		else if (!strncmp(text, "reference ", 10))
			set_reference(fc, l.c[i], text + 10);
		else if (!strncmp(text, "init ", 5))
			fc->fn->init = text + 5;
		else if (!strncmp(text, "trips ", 6))
			an->trips[an->n_trips++] = (struct annot){l.c[i], text + 6};
		else if (!strcmp(text, "skip"))
			an->skip = 1;
		else if (!strncmp(text, "assume ", 7)) {
			const char **grown = KC_NEW_N(fc->fe->a, const char *, fc->fn->n_assumptions + 1);
			if (fc->fn->n_assumptions)
				memcpy(grown, fc->fn->assumptions, sizeof *grown * (size_t)fc->fn->n_assumptions);
			grown[fc->fn->n_assumptions++] = text + 7;
			fc->fn->assumptions = grown;
		} else
			kc_cx_warn_annotation(fc, l.c[i], "unknown kcost annotation '%s'", text);
	}
}

/* The size symbol named name[0 .. len-1] that the function already has (its size parameters), or -1: an
 * annotation that names anything else names nothing kcost counts with. */
static int known_size(struct fctx *fc, const char *name, size_t len)
{
	for (int i = 0; i < fc->fn->syms.n; i++) {
		const char *s = fc->fn->syms.syms[i].name;
		if (!fc->fn->syms.syms[i].floor_of && strlen(s) == len && !strncmp(s, name, len))
			return i;
	}
	return -1;
}

/* A name in KCOST_EXTENT or KCOST_TRIPS: a size parameter, possibly one declared after the buffer whose
 * extent names it (its symbol is made now, the parameter finds it). */
static struct kc_poly *resolve_size_name(void *ctx, const char *name, size_t len)
{
	struct fctx *fc = ctx;
	int sym = known_size(fc, name, len);
	int nparams = clang_Cursor_getNumArguments(fc->fn_decl);
	for (int i = 0; sym < 0 && i < nparams; i++) {
		CXCursor p = clang_Cursor_getArgument(fc->fn_decl, (unsigned)i);
		char *s = kc_cx_spelling(fc->fe->a, p);
		if (strlen(s) == len && !strncmp(s, name, len) && kc_cx_is_integer_type(clang_getCursorType(p)))
			sym = kc_sym_named(fc->fn, s);
	}
	return sym < 0 ? NULL : kc_poly_sym(fc->fe->a, sym);
}

/* The state of the KCOST_SIZES annotations being applied: which attribute gave each size its value. */
struct sizes {
	struct fctx *fc;
	CXCursor at; /* the attribute being parsed */
	CXCursor given_by[KC_POLY_MAX_SYMS];
	unsigned char given[KC_POLY_MAX_SYMS];
};

/* One NAME = VALUE: the name must be a size parameter given once. A rejected pair is reported at the
 * attribute and skipped; the others still apply. */
static int set_size(void *ctx, const char *name, size_t len, long long value)
{
	struct sizes *sz = ctx;
	struct fctx *fc = sz->fc;
	char *s = kc_arena_strndup(fc->fe->a, name, len);
	int sym = known_size(fc, name, len);
	if (sym < 0) {
		kc_cx_warn_annotation(fc, sz->at, "KCOST_SIZES names '%s', which is not a size parameter: ignored", s);
		return 0;
	}
	if (sz->given[sym]) {
		kc_cx_warn_annotation(fc, sz->at, "KCOST_SIZES gives '%s' a value twice: the first one is kept", s);
		return 0;
	}
	sz->given[sym] = 1;
	sz->given_by[sym] = sz->at;
	int nparams = clang_Cursor_getNumArguments(fc->fn_decl);
	for (int i = 0; i < nparams; i++) {
		CXCursor p = clang_Cursor_getArgument(fc->fn_decl, (unsigned)i);
		__int128 min, max;
		if (!strcmp(kc_cx_spelling(fc->fe->a, p), s) &&
		    kc_cx_int_range(clang_getCursorType(p), &min, &max) == 0 && (value < min || value > max)) {
			CXString ts = clang_getTypeSpelling(clang_getCursorType(p));
			const char *msg = kc_arena_printf(fc->fe->a, "%s = %lld does not fit in its type '%s'", s,
			                                  value, clang_getCString(ts));
			clang_disposeString(ts);
			kc_cx_warn_annotation(fc, sz->at, "KCOST_SIZES: %s: ignored", msg);
			return 0;
		}
	}
	fc->fn->syms.syms[sym].has_value = 1;
	fc->fn->syms.syms[sym].value = value;
	fc->fn->size_origin[sym] = KC_SIZE_ANNOTATION;
	return 0;
}

/* With every size of its extent known, a buffer parameter must have at least one element and its bytes
 * must fit in 64 bits: the harness allocates it. Reported at the annotation that gave the sizes. */
static void check_extents(struct fctx *fc, CXCursor fn, const struct sizes *sz)
{
	long long values[KC_POLY_MAX_SYMS] = {0};
	for (int s = 0; s < fc->fn->syms.n && s < KC_POLY_MAX_SYMS; s++)
		values[s] = fc->fn->syms.syms[s].value;
	for (int i = 0; i < fc->fn->n_buffers; i++) {
		const struct kc_buffer *b = &fc->fn->buffers[i];
		CXCursor at = fn;
		struct kc_rat c;
		int known = b->extent != NULL && !kc_poly_is_const(b->extent, &c); /* constants: at their annotation */
		for (int s = 0; known && s < fc->fn->syms.n; s++)
			if (kc_poly_has_sym(b->extent, s)) {
				known = fc->fn->syms.syms[s].has_value;
				if (s < KC_POLY_MAX_SYMS && sz->given[s])
					at = sz->given_by[s];
			}
		if (!known || !b->is_param)
			continue;
		long long n;
		if (kc_poly_eval_int(b->extent, values, &n) < 0 || n > 0x7fffffffffffffffLL / b->elem_size)
			kc_cx_warn(fc, at, KC_WARNING, "with these sizes the bytes of '%s' do not fit in 64 bits",
			           b->name);
		else if (n <= 0)
			kc_cx_warn(fc, at, KC_WARNING,
			           "with these sizes '%s' has no elements (its extent is 0 or negative)", b->name);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Sizes from call sites
 *
 * A size parameter with no --size and no KCOST_SIZES value takes the value of its argument at a call of the
 * function in the same file when that argument is a constant: what clang evaluates, a local variable whose
 * initializer is one and that nothing assigns before the call (or anywhere in a loop around it) nor takes the
 * address of, a parameter of the calling function with a value of its own (from --size, KCOST_SIZES or, in
 * turn, its call sites: main -> wrapper -> kernel), and +, -, *, / and % of those. The call used is the first
 * in source order where at least one size is a constant; other calls giving other values are named in a note.
 * The calls are found by one walk of the file's bodies, done when a size first needs them. */

#define KC_MAX_SITE_DEPTH 8  /* calls followed from a function to its callers, callers' callers, ... */
#define KC_MAX_EVAL_DEPTH 64 /* levels of an argument expression kcost folds itself */

struct named {
	const char *name;
	int index;
};

static int cmp_named(const void *x, const void *y)
{
	return strcmp(((const struct named *)x)->name, ((const struct named *)y)->name);
}

struct site_walk {
	struct fe *fe;
	const struct named *by_name; /* the file's functions sorted by name */
	int caller;
};

static enum CXChildVisitResult collect_site(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct site_walk *w = data;
	struct fe *fe = w->fe;
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	CXCursor ref = clang_getCursorReferenced(c);
	if (clang_getCursorKind(ref) != CXCursor_FunctionDecl)
		return CXChildVisit_Recurse;
	CXString s = clang_getCursorSpelling(ref);
	const char *name = clang_getCString(s);
	int lo = 0, hi = fe->n_funcs - 1, found = -1;
	while (lo <= hi && found < 0) {
		int mid = (lo + hi) / 2, d = strcmp(name, w->by_name[mid].name);
		if (d == 0)
			found = w->by_name[mid].index;
		else if (d < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	if (found < 0 && fe->split && clang_Cursor_isNull(clang_getCursorDefinition(ref))) {
		/* a part of a file parsed in parts: a function this part does not define, which another may */
		if (fe->n_undefined == fe->cap_undefined) {
			int cap = fe->cap_undefined ? 2 * fe->cap_undefined : 64;
			struct undefined_call *grown = realloc(fe->undefined, sizeof *grown * (size_t)cap);
			if (!grown) {
				clang_disposeString(s);
				fe->split_wrong = 1; /* (cannot tell: the file is parsed whole) */
				return CXChildVisit_Break;
			}
			fe->undefined = grown;
			fe->cap_undefined = cap;
		}
		fe->undefined[fe->n_undefined++] = (struct undefined_call){w->caller, kc_arena_strdup(fe->a, name)};
	}
	clang_disposeString(s);
	if (found >= 0 && found != w->caller) { /* a recursive call says nothing of the sizes */
		if (fe->n_sites == fe->cap_sites) {
			int cap = fe->cap_sites ? 2 * fe->cap_sites : 64;
			struct call_site *grown = realloc(fe->sites, sizeof *grown * (size_t)cap);
			if (!grown)
				return CXChildVisit_Break; /* fewer call sites: fewer sizes, none wrong */
			fe->sites = grown;
			fe->cap_sites = cap;
		}
		fe->sites[fe->n_sites] = (struct call_site){c, w->caller, found, fe->n_sites};
		fe->n_sites++;
	}
	return CXChildVisit_Recurse;
}

static int cmp_site(const void *x, const void *y)
{
	const struct call_site *a = x, *b = y;
	if (a->callee != b->callee)
		return a->callee < b->callee ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void build_sites(struct fe *fe)
{
	fe->sites_built = 1;
	fe->n_sites = 0;
	struct named *by_name = malloc(sizeof *by_name * (size_t)(fe->n_funcs + 1));
	if (!by_name)
		return;
	for (int i = 0; i < fe->n_funcs; i++)
		by_name[i] = (struct named){fe->funcs[i].name, i};
	qsort(by_name, (size_t)fe->n_funcs, sizeof *by_name, cmp_named);
	struct site_walk w = {fe, by_name, 0};
	for (w.caller = 0; w.caller < fe->n_funcs; w.caller++)
		clang_visitChildren(fe->funcs[w.caller].cursor, collect_site, &w);
	free(by_name);
	if (fe->n_sites)
		qsort(fe->sites, (size_t)fe->n_sites, sizeof *fe->sites, cmp_site);
}

/* The calls of function f: fe->sites[*first .. *first + n - 1]; returns n. */
static int sites_of(struct fe *fe, int f, int *first)
{
	if (!fe->sites_built)
		build_sites(fe);
	int lo = 0, hi = fe->n_sites;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (fe->sites[mid].callee < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	int n = 0;
	while (lo + n < fe->n_sites && fe->sites[lo + n].callee == f)
		n++;
	*first = lo;
	return n;
}

int kc_decl_split_calls_ok(struct fe *fe)
{
	if (!fe->sites_built)
		build_sites(fe);
	for (int i = 0; i < fe->n_sites; i++) {
		const struct tu_func *caller = &fe->funcs[fe->sites[i].caller];
		if (!caller->foreign && !caller->in_header && fe->funcs[fe->sites[i].callee].blanked)
			return 0;
	}
	/* keep the calls of undefined functions from the functions lowered here: the caller checks them
	 * against the other parts' definitions */
	int kept = 0;
	for (int i = 0; i < fe->n_undefined; i++)
		if (fe->funcs[fe->undefined[i].caller].ir)
			fe->undefined[kept++] = fe->undefined[i];
	fe->n_undefined = kept;
	return !fe->split_wrong;
}

static unsigned offset_of(CXSourceLocation l)
{
	unsigned off;
	clang_getExpansionLocation(l, NULL, NULL, NULL, &off);
	return off;
}

static int names_var(CXCursor e, unsigned *var)
{
	e = kc_cx_strip(e);
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return 0;
	*var = offset_of(clang_getCursorLocation(clang_getCursorReferenced(e)));
	return 1;
}

static CXCursor first_child(CXCursor c)
{
	struct child_list l;
	kc_cx_children(c, &l);
	return l.n ? l.c[0] : clang_getNullCursor();
}

static int cmp_write(const void *x, const void *y)
{
	const struct write_at *a = x, *b = y;
	if (a->var != b->var)
		return a->var < b->var ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

static int cmp_loop(const void *x, const void *y)
{
	const struct loop_at *a = x, *b = y;
	return a->begin < b->begin ? -1 : a->begin > b->begin;
}

struct write_walk {
	struct write_index *wi;
	int cap_writes, cap_loops;
	struct kc_arena *a;
};

static void *grow(struct kc_arena *a, void *old, int n, int *cap, size_t size)
{
	if (n < *cap)
		return old;
	int c = *cap ? 2 * *cap : 16;
	void *p = kc_arena_alloc(a, size * (size_t)c);
	if (n)
		memcpy(p, old, size * (size_t)n);
	*cap = c;
	return p;
}

static enum CXChildVisitResult index_write(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct write_walk *w = data;
	struct write_index *wi = w->wi;
	enum CXCursorKind k = clang_getCursorKind(c);
	unsigned var = 0;
	int writes = 0;
	if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
		CXSourceRange r = clang_getCursorExtent(c);
		wi->loops = grow(w->a, wi->loops, wi->n_loops, &w->cap_loops, sizeof *wi->loops);
		wi->loops[wi->n_loops++] =
		    (struct loop_at){offset_of(clang_getRangeStart(r)), offset_of(clang_getRangeEnd(r))};
	} else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		writes =
		    op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign && names_var(first_child(c), &var);
	} else if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		writes =
		    ((op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec) || op == CXUnaryOperator_AddrOf) &&
		    names_var(first_child(c), &var);
		if (writes && op == CXUnaryOperator_AddrOf) { /* written through the pointer at any time: as if first */
			wi->writes = grow(w->a, wi->writes, wi->n_writes, &w->cap_writes, sizeof *wi->writes);
			wi->writes[wi->n_writes++] = (struct write_at){var, 0};
			return CXChildVisit_Recurse;
		}
	}
	if (writes) {
		wi->writes = grow(w->a, wi->writes, wi->n_writes, &w->cap_writes, sizeof *wi->writes);
		wi->writes[wi->n_writes++] = (struct write_at){var, offset_of(clang_getCursorLocation(c))};
	}
	return CXChildVisit_Recurse;
}

/* The writes and loops of function f's body, from one walk (then sorted; only the outermost loops kept). */
static struct write_index *writes_of(struct fe *fe, int f)
{
	struct tu_func *tf = &fe->funcs[f];
	if (tf->writes)
		return tf->writes;
	struct write_index *wi = tf->writes = KC_NEW(fe->a, struct write_index);
	struct write_walk w = {wi, 0, 0, fe->a};
	clang_visitChildren(tf->cursor, index_write, &w);
	if (wi->n_writes) /* qsort of NULL is undefined even for 0 elements */
		qsort(wi->writes, (size_t)wi->n_writes, sizeof *wi->writes, cmp_write);
	if (wi->n_loops)
		qsort(wi->loops, (size_t)wi->n_loops, sizeof *wi->loops, cmp_loop);
	int kept = 0;
	for (int i = 0; i < wi->n_loops; i++)
		if (!kept || wi->loops[i].begin >= wi->loops[kept - 1].end)
			wi->loops[kept++] = wi->loops[i];
	wi->n_loops = kept;
	return wi;
}

/* 1 if the variable var of function `caller` may hold another value than its initializer's at the call: it is
 * assigned before the call or in the outermost loop around it, or its address is taken. Variables are told
 * apart by where they are declared (two a macro declares at once are taken as one: more writes, never fewer). */
static int written_before(struct fe *fe, int caller, CXCursor var, CXCursor call)
{
	const struct write_index *wi = writes_of(fe, caller);
	unsigned at = offset_of(clang_getCursorLocation(call)), v = offset_of(clang_getCursorLocation(var));
	unsigned loop_begin = 0, loop_end = 0;
	int lo = 0, hi = wi->n_loops;
	while (lo < hi) { /* the last outermost loop that begins at or before the call */
		int mid = (lo + hi) / 2;
		if (wi->loops[mid].begin <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && at < wi->loops[lo - 1].end) {
		loop_begin = wi->loops[lo - 1].begin;
		loop_end = wi->loops[lo - 1].end;
	}
	lo = 0;
	hi = wi->n_writes;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (wi->writes[mid].var < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo; i < wi->n_writes && wi->writes[i].var == v; i++)
		if (wi->writes[i].at < at ||
		    (loop_end && loop_begin <= wi->writes[i].at && wi->writes[i].at < loop_end))
			return 1;
	return 0;
}

/* A function's own value for parameter `name` given by --size or its KCOST_SIZES (first pair that names it). */
struct own_size {
	const char *name;
	long long value;
	int found;
};

static int own_size_pair(void *ctx, const char *name, size_t len, long long value)
{
	struct own_size *o = ctx;
	if (!o->found && strlen(o->name) == len && !strncmp(o->name, name, len)) {
		o->found = 1;
		o->value = value;
	}
	return 0;
}

static int own_size(struct fe *fe, CXCursor fn, const char *name, long long *out)
{
	for (int i = fe->opts->n_sizes - 1; i >= 0; i--) /* the last --size of a name wins, as in apply_sizes */
		if (!strcmp(fe->opts->sizes[i].name, name)) {
			*out = fe->opts->sizes[i].value;
			return 1;
		}
	struct child_list l;
	kc_cx_children(fn, &l);
	struct own_size o = {name, 0, 0};
	for (int i = 0; i < l.n && !o.found; i++) {
		if (clang_getCursorKind(l.c[i]) != CXCursor_AnnotateAttr)
			continue;
		const char *err;
		char *text = kc_cx_spelling(fe->a, l.c[i]);
		if (!strncmp(text, "kcost:sizes ", 12)) /* a bad one is reported when its function is lowered */
			kc_annot_parse_sizes(fe->a, text + 12, own_size_pair, &o, &err);
	}
	*out = o.value;
	return o.found;
}

static struct site_sizes *site_sizes_of(struct fe *fe, int f, int depth);

/* The constant value of expression e, an argument of `call` in function `caller` (see above). 0, or -1 with
 * *why set; *cut is set when the chain of callers was too long. */
struct site_eval {
	struct fe *fe;
	int caller, depth, levels;
	CXCursor call;
	const char *why;
	int cut;
};

/* e without parentheses and implicit conversions; a written cast is kept (it may change the value), and what
 * an implicit one changes is caught by checking each result against its expression's type (fits). */
static CXCursor strip_implicit(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		struct child_list l;
		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
			return c;
		kc_cx_children(c, &l);
		if (l.n != 1 || !clang_isExpression(clang_getCursorKind(l.c[0])))
			return c;
		c = l.c[0];
	}
}

/* 0 if v fits in the integer type of cursor c (an expression or a variable), else -1 with ev->why set. */
static int fits(struct site_eval *ev, CXCursor c, long long v)
{
	__int128 min, max;
	CXType t = clang_getCursorType(c);
	if (kc_cx_int_range(t, &min, &max) == 0 && (v < min || v > max)) {
		CXString ts = clang_getTypeSpelling(t);
		ev->why = kc_arena_printf(ev->fe->a, "%lld overflows its type '%s' there", v, clang_getCString(ts));
		clang_disposeString(ts);
		return -1;
	}
	return 0;
}

/* What clang folds e to (literals, sizeof, casts, enumerators, const variables), or -1. */
static int evaluated(struct site_eval *ev, CXCursor e, long long *out)
{
	if (kc_cx_eval_int(e, out))
		return 0;
	ev->why = "it is not a constant";
	return -1;
}

/* x op y for the operators eval_arg folds itself, exactly (0), or -1 on overflow or division by zero. */
static int fold(enum CXBinaryOperatorKind op, long long x, long long y, long long *out)
{
	switch (op) {
	case CXBinaryOperator_Add:
		return __builtin_add_overflow(x, y, out) ? -1 : 0;
	case CXBinaryOperator_Sub:
		return __builtin_sub_overflow(x, y, out) ? -1 : 0;
	case CXBinaryOperator_Mul:
		return __builtin_mul_overflow(x, y, out) ? -1 : 0;
	case CXBinaryOperator_Div:
	case CXBinaryOperator_Rem:
		if (y == 0 || (x == LLONG_MIN && y == -1))
			return -1;
		*out = op == CXBinaryOperator_Div ? x / y : x % y; /* C's truncation */
		return 0;
	case CXBinaryOperator_Shl:
		if (x < 0 || y < 0 || y > 62 || x > (LLONG_MAX >> y))
			return -1;
		*out = x << y;
		return 0;
	case CXBinaryOperator_Shr:
		if (x < 0 || y < 0 || y > 62)
			return -1;
		*out = x >> y;
		return 0;
	case CXBinaryOperator_And:
		*out = x & y;
		return 0;
	case CXBinaryOperator_Or:
		*out = x | y;
		return 0;
	case CXBinaryOperator_Xor:
		*out = x ^ y;
		return 0;
	default:
		return -1;
	}
}

static int eval_arg(struct site_eval *ev, CXCursor e, long long *out)
{
	struct fe *fe = ev->fe;
	if (++ev->levels > KC_MAX_EVAL_DEPTH) {
		ev->why = "it is nested too deeply to fold";
		return -1;
	}
	e = strip_implicit(e);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(e);
		char *name = kc_cx_spelling(fe->a, d);
		enum CXCursorKind dk = clang_getCursorKind(d);
		CXCursor caller = fe->funcs[ev->caller].cursor;
		enum CX_StorageClass sc = clang_Cursor_getStorageClass(d);
		int local = (sc == CX_SC_None || sc == CX_SC_Auto || sc == CX_SC_Register) &&
		            kc_cx_same_decl(clang_getCursorSemanticParent(d), caller);
		if (dk == CXCursor_EnumConstantDecl || (!local && clang_isConstQualifiedType(clang_getCursorType(d))))
			return evaluated(ev, e, out);
		if ((dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) || !local ||
		    !kc_cx_is_integer_type(clang_getCursorType(d))) {
			ev->why = kc_arena_printf(fe->a, "'%s' is not a constant", name);
			return -1;
		}
		if (written_before(fe, ev->caller, d, ev->call)) {
			ev->why = kc_arena_printf(
			    fe->a, "'%s' is assigned before the call or in a loop around it, or its address is taken",
			    name);
			return -1;
		}
		if (dk == CXCursor_VarDecl) {
			struct child_list l;
			kc_cx_children(d, &l);
			if (!l.n || !clang_isExpression(clang_getCursorKind(l.c[l.n - 1]))) {
				ev->why = kc_arena_printf(fe->a, "'%s' has no initializer", name);
				return -1;
			}
			return eval_arg(ev, l.c[l.n - 1], out) < 0 ? -1 : fits(ev, d, *out);
		}
		if (own_size(fe, caller, name, out))
			return 0;
		int nparams = clang_Cursor_getNumArguments(caller), p = 0;
		while (p < nparams && !kc_cx_same_decl(clang_Cursor_getArgument(caller, (unsigned)p), d))
			p++;
		if (ev->depth + 1 >= KC_MAX_SITE_DEPTH) {
			ev->cut = 1;
			ev->why = kc_arena_printf(fe->a,
			                          "'%s' has a value only through more than " KC_TEXT(
			                              KC_MAX_SITE_DEPTH) " calls, which kcost does not follow",
			                          name);
			return -1;
		}
		struct site_sizes *up = site_sizes_of(fe, ev->caller, ev->depth + 1);
		ev->cut |= up->cut;
		if (p < up->n && up->known[p]) {
			*out = up->value[p];
			return 0;
		}
		ev->why =
		    kc_arena_printf(fe->a,
		                    up->cut ? "parameter '%s' of '%s' has a value only through more than " KC_TEXT(
		                                  KC_MAX_SITE_DEPTH) " calls, which kcost does not follow"
		                            : "parameter '%s' of '%s' has no value",
		                    name, fe->funcs[ev->caller].name);
		return -1;
	}
	if (k == CXCursor_UnaryOperator && (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Minus ||
	                                    clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Plus)) {
		long long x;
		if (eval_arg(ev, first_child(e), &x) < 0)
			return -1;
		if (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Minus && x == LLONG_MIN) {
			ev->why = "it overflows 64 bits";
			return -1;
		}
		*out = clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_Minus ? -x : x;
		return fits(ev, e, *out);
	}
	if (k == CXCursor_BinaryOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		struct child_list l;
		kc_cx_children(e, &l);
		long long x, y;
		if (l.n != 2 ||
		    (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub && op != CXBinaryOperator_Mul &&
		     op != CXBinaryOperator_Div && op != CXBinaryOperator_Rem && op != CXBinaryOperator_Shl &&
		     op != CXBinaryOperator_Shr && op != CXBinaryOperator_And && op != CXBinaryOperator_Or &&
		     op != CXBinaryOperator_Xor))
			return evaluated(ev, e, out);
		if (eval_arg(ev, l.c[0], &x) < 0 || eval_arg(ev, l.c[1], &y) < 0)
			return -1;
		if (fold(op, x, y, out) < 0) {
			ev->why = "it overflows or divides by zero";
			return -1;
		}
		return fits(ev, e, *out);
	}
	if (k == CXCursor_CStyleCastExpr && kc_cx_is_integer_type(clang_getCursorType(e))) {
		struct child_list l;
		kc_cx_children(e, &l); /* a TypeRef may come first: the operand is the last child */
		if (kc_cx_eval_int(e, out))
			return 0;
		if (l.n && eval_arg(ev, l.c[l.n - 1], out) == 0)
			return fits(ev, e, *out); /* a value the cast leaves as it is */
		return -1;
	}
	return evaluated(ev, e, out); /* literals, sizeof, ?: */
}

/* The values the integer parameters of function f take from its call sites (computed once; a cycle of calls
 * sees no values). */
static struct site_sizes *site_sizes_of(struct fe *fe, int f, int depth)
{
	struct tu_func *tf = &fe->funcs[f];
	int budget = KC_MAX_SITE_DEPTH - depth;
	/* a result cut short holds for a budget as small as it had; a larger one computes it again (at most
	 * KC_MAX_SITE_DEPTH times per function) */
	if (tf->site_sizes && (tf->site_sizes->state == 1 || !tf->site_sizes->cut || budget <= tf->site_sizes->budget))
		return tf->site_sizes;
	struct site_sizes *ss = tf->site_sizes = KC_NEW(fe->a, struct site_sizes);
	ss->budget = budget;
	int nparams = clang_Cursor_getNumArguments(tf->cursor);
	ss->n = nparams > 0 ? nparams : 0;
	ss->value = KC_NEW_N(fe->a, long long, ss->n + 1);
	ss->known = KC_NEW_N(fe->a, unsigned char, ss->n + 1);
	ss->why = KC_NEW_N(fe->a, const char *, ss->n + 1);
	ss->site = -1;
	ss->state = 1;
	int first, n = sites_of(fe, f, &first);
	for (int s = first; s < first + n && ss->site < 0; s++) {
		const struct call_site *cs = &fe->sites[s];
		int nargs = clang_Cursor_getNumArguments(cs->call), any = 0;
		for (int i = 0; i < ss->n; i++) {
			CXCursor p = clang_Cursor_getArgument(tf->cursor, (unsigned)i);
			struct site_eval ev = {fe, cs->caller, depth, 0, cs->call, NULL, 0};
			long long v;
			const char *why = NULL;
			ss->known[i] = 0;
			if (!kc_cx_is_integer_type(clang_getCursorType(p)))
				continue;
			if (i >= nargs)
				why = "the call has no such argument";
			else if (eval_arg(&ev, clang_Cursor_getArgument(cs->call, (unsigned)i), &v) == 0) {
				ss->known[i] = 1;
				ss->value[i] = v;
				any = 1;
			} else
				why = ev.why;
			if (s == first || any)
				ss->why[i] = why; /* the first call's reasons, or the chosen one's */
			ss->cut |= ev.cut;
		}
		if (any)
			ss->site = s;
	}
	ss->state = 2;
	return ss;
}

static const char *loc_text(struct kc_arena *a, struct kc_loc l)
{
	return kc_arena_printf(a, "%s:%u:%u", l.file ? l.file : "?", l.line, l.col);
}

/* Give the size parameters still without a value those of the function's first call with constant arguments
 * (see above); notes name the other calls that give other values and why a size has none. */
static void apply_call_sizes(struct fctx *fc, CXCursor fn)
{
	struct fe *fe = fc->fe;
	struct kc_function *g = fc->fn;
	int lacking = 0, f = fc->func_index;
	for (int i = 0; i < g->n_params; i++)
		lacking |= g->params[i].kind == KC_PARAM_SIZE && g->params[i].sym >= 0 &&
		           !g->syms.syms[g->params[i].sym].has_value;
	if (!lacking)
		return;
	int first, n;
	if ((n = sites_of(fe, f, &first)) == 0)
		return;
	struct site_sizes *ss = site_sizes_of(fe, f, 0);
	int chosen = ss->site >= 0 ? ss->site : first;
	const char *at = loc_text(fe->a, kc_cx_loc(fe, fe->sites[chosen].call));
	unsigned char used[KC_POLY_MAX_SYMS] = {0};
	int n_used = 0;
	for (int i = 0; i < g->n_params && i < ss->n; i++) {
		const struct kc_param *pr = &g->params[i];
		struct kc_sym *sym = pr->sym >= 0 ? &g->syms.syms[pr->sym] : NULL;
		if (pr->kind != KC_PARAM_SIZE || !sym || sym->has_value)
			continue;
		__int128 min, max;
		if (ss->known[i] && ss->value[i] < 0) {
			kc_cx_warn(fc, fn, KC_NOTE, "%s",
			           kc_arena_printf(fe->a, "size '%s' = %lld from the call at %s is negative: ignored",
			                           pr->name, ss->value[i], at));
		} else if (!ss->known[i]) {
			if (ss->why[i])
				kc_cx_warn(fc, fn, KC_NOTE, "%s",
				           kc_arena_printf(fe->a, "size '%s' has no value from the call at %s: %s",
				                           pr->name, at, ss->why[i]));
		} else if (kc_cx_int_range(clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i)), &min,
		                           &max) == 0 &&
		           (ss->value[i] < min || ss->value[i] > max)) {
			kc_cx_warn(fc, fn, KC_NOTE, "%s",
			           kc_arena_printf(
			               fe->a, "size '%s' = %lld from the call at %s does not fit in its type: ignored",
			               pr->name, ss->value[i], at));
		} else {
			sym->has_value = 1;
			sym->value = ss->value[i];
			g->size_origin[pr->sym] = KC_SIZE_CALL;
			used[i < KC_POLY_MAX_SYMS ? i : 0] = i < KC_POLY_MAX_SYMS;
			n_used++;
		}
	}
	if (!n_used)
		return;
	g->sizes_call = kc_cx_loc(fe, fe->sites[chosen].call);
	g->sizes_caller = fe->funcs[fe->sites[chosen].caller].name;
	/* the other calls: those whose constants differ are named */
	struct kc_buf others = KC_BUF_INIT;
	int n_others = 0;
	for (int s = chosen + 1; s < first + n; s++) {
		const struct call_site *cs = &fe->sites[s];
		struct kc_buf vals = KC_BUF_INIT;
		int differs = 0;
		for (int i = 0; i < ss->n && i < KC_POLY_MAX_SYMS; i++) {
			struct site_eval ev = {fe, cs->caller, 0, 0, cs->call, NULL, 0};
			long long v;
			if (!used[i] || i >= clang_Cursor_getNumArguments(cs->call) ||
			    eval_arg(&ev, clang_Cursor_getArgument(cs->call, (unsigned)i), &v) < 0 || v == ss->value[i])
				continue;
			kc_buf_printf(&vals, "%s%s = %lld", differs++ ? ", " : "", g->params[i].name, v);
		}
		if (differs)
			kc_buf_printf(&others, "%s%s (%s)", n_others++ ? ", " : "",
			              loc_text(fe->a, kc_cx_loc(fe, cs->call)), kc_buf_str(&vals));
		kc_buf_release(&vals);
	}
	if (n_others)
		kc_cx_warn(fc, fn, KC_NOTE, "%s",
		           kc_arena_printf(fe->a,
		                           "sizes from the call at %s; the call%s at %s give%s other values: annotate "
		                           "KCOST_SIZES to choose",
		                           at, n_others > 1 ? "s" : "", kc_buf_str(&others), n_others > 1 ? "" : "s"));
	kc_buf_release(&others);
}

/* ------------------------------------------------------------------------------------------------ */
/* File-scope arrays */

static struct var *enter_global(struct fctx *fc, CXCursor d)
{
	struct fe *fe = fc->fe;
	CXType t = clang_getCanonicalType(clang_getCursorType(d));
	if (t.kind != CXType_ConstantArray && t.kind != CXType_IncompleteArray)
		return NULL;
	char *name = kc_cx_spelling(fe->a, d);
	for (int i = 0; i < fc->fn->n_globals; i++) { /* met through a callee first: give it its variable now */
		int b = fc->fn->globals[i];
		if (!strcmp(fc->fn->buffers[b].name, name)) {
			struct var *v = kc_affine_add_var(fc, d, V_BUFFER);
			if (v)
				v->buffer = b;
			return v;
		}
	}
	int ndims, is_buffer;
	CXType elem = kc_cx_element_type(t, &ndims, &is_buffer);
	int id = kc_decl_buffer(fc, d, elem);
	struct kc_buffer *b = &fc->fn->buffers[id];
	struct kc_dims *dm = &fc->dims[id];
	b->is_param = 1;
	int *list = KC_NEW_N(fe->a, int, fc->fn->n_globals + 1);
	if (fc->fn->n_globals)
		memcpy(list, fc->fn->globals, sizeof *list * (size_t)fc->fn->n_globals);
	list[fc->fn->n_globals++] = id;
	fc->fn->globals = list;
	if (ndims > KC_MAX_DIMS) {
		kc_cx_warn(fc, d, KC_WARNING,
		           "'%s' has more than " KC_TEXT(KC_MAX_DIMS) " dimensions: its extent is unknown", name);
		dm->ndims = 0;
	} else {
		dm->ndims = ndims;
		CXType layer = t;
		for (int i = 0; i < ndims; i++) { /* from the type: `float a[]` has no outer extent */
			long long n = clang_getArraySize(layer);
			dm->dim[i] = n >= 0 ? kc_poly_const(fe->a, n, 1) : NULL;
			layer = clang_getCanonicalType(clang_getArrayElementType(layer));
		}
	}
	b->extent = kc_decl_product(fc, dm->dim, dm->ndims);
	int known = 0;
	for (int i = 0; i < fe->n_globals && !known; i++)
		known = kc_cx_same_decl(fe->globals[i], d);
	if (!known) {
		if (fe->n_globals == fe->cap_globals) {
			int cap = fe->cap_globals ? 2 * fe->cap_globals : 16;
			CXCursor *grown = realloc(fe->globals, sizeof *grown * (size_t)cap);
			if (grown) {
				fe->globals = grown;
				fe->cap_globals = cap;
			}
		}
		if (fe->n_globals < fe->cap_globals) /* else a caller of this function finds no such array */
			fe->globals[fe->n_globals++] = d;
	}
	struct var *v = kc_affine_add_var(fc, d, V_BUFFER);
	if (v)
		v->buffer = id;
	return v;
}

struct var *kc_decl_global(struct fctx *fc, CXCursor e)
{
	e = kc_cx_strip(e);
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return NULL;
	CXCursor d = clang_getCursorReferenced(e);
	if (clang_getCursorKind(d) != CXCursor_VarDecl ||
	    clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit)
		return NULL;
	return enter_global(fc, d);
}

int kc_decl_global_of(struct fctx *fc, const struct kc_function *g, int b)
{
	const char *name = g->buffers[b].name;
	for (int i = 0; i < fc->fn->n_globals; i++)
		if (!strcmp(fc->fn->buffers[fc->fn->globals[i]].name, name))
			return fc->fn->globals[i];
	for (int i = 0; i < fc->fe->n_globals; i++)
		if (!strcmp(kc_cx_spelling(fc->fe->a, fc->fe->globals[i]), name)) {
			struct var *v = enter_global(fc, fc->fe->globals[i]);
			return v ? v->buffer : -1;
		}
	return -1;
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
	char *name = kc_cx_spelling(fc->fe->a, p);
	if (kc_cx_is_integer_type(t)) {
		struct var *v = kc_affine_add_var(fc, p, V_SIZE);
		struct kc_param *pr = new_param(fc, p, name, KC_PARAM_SIZE);
		if (v && *name) {
			v->sym = pr->sym = kc_sym_named(fc->fn, name);
			fc->fn->n_size_params = fc->fn->syms.n;
			if (v->sym < 0) {
				v->kind = V_OTHER; /* expressions that use it are not affine */
				kc_cx_warn(
				    fc, p, KC_WARNING,
				    "more than " KC_TEXT(KC_POLY_MAX_SYMS) " size parameters and loop "
				                                           "variables: '%s' is not a size symbol, "
				                                           "counts that depend on it are unknown",
				    name);
			}
		}
		return;
	}
	int ndims, is_pointer;
	CXType elem = kc_cx_element_type(t, &ndims, &is_pointer);
	if (!is_pointer || !*name) {
		kc_affine_add_var(fc, p, kc_cx_float_prec(t) >= 0 ? V_SCALAR : V_OTHER);
		struct kc_param *pr =
		    new_param(fc, p, name, kc_cx_float_prec(t) >= 0 ? KC_PARAM_SCALAR : KC_PARAM_OTHER);
		pr->is_float = kc_cx_float_prec(t) >= 0;
		pr->value = KC_FLOAT_SCALAR_DEFAULT;
		for (int i = 0; pr->is_float && *name && i < fc->fe->opts->n_scalars; i++) /* the last one wins */
			if (!strcmp(fc->fe->opts->scalars[i].name, name)) {
				pr->value = fc->fe->opts->scalars[i].value;
				pr->value_given = 1;
			}
		return;
	}
	int id = kc_decl_buffer(fc, p, elem);
	new_param(fc, p, name, KC_PARAM_BUFFER)->buffer = id;
	struct kc_buffer *b = &fc->fn->buffers[id];
	b->is_param = 1;
	struct kc_dims *d = &fc->dims[id];
	d->ndims = kc_decl_dims(fc, p, d->dim, KC_MAX_DIMS);
	if (ndims > KC_MAX_DIMS) {
		kc_cx_warn(fc, p, KC_WARNING,
		           "'%s' has more than " KC_TEXT(KC_MAX_DIMS) " dimensions: its extent is unknown", name);
		d->ndims = 0;
	} else if (d->ndims < ndims) {
		/* T *p, or T (*p)[k]: a leading dimension not written in the declarator */
		memmove(d->dim + 1, d->dim, sizeof d->dim[0] * (size_t)d->ndims);
		d->dim[0] = NULL;
		d->ndims = ndims;
	}
	b->extent = kc_decl_product(fc, d->dim, d->ndims);
	struct child_list l;
	kc_cx_children(p, &l);
	int annotated = 0;
	for (int i = 0; i < l.n; i++) {
		if (clang_getCursorKind(l.c[i]) != CXCursor_AnnotateAttr)
			continue;
		char *text = kc_cx_spelling(fc->fe->a, l.c[i]);
		const char *err;
		annotated |= !strncmp(text, "kcost:extent ", 13);
		if (!strncmp(text, "kcost:extent ", 13)) {
			struct kc_rat c;
			if (kc_annot_parse_expr(fc->fe->a, text + 13, resolve_size_name, fc, &b->extent, &err) < 0) {
				kc_cx_warn_annotation(fc, l.c[i], "bad KCOST_EXTENT: %s", err);
				continue;
			}
			if (kc_poly_is_const(b->extent, &c) && c.num <= 0)
				kc_cx_warn_annotation(
				    fc, l.c[i], "KCOST_EXTENT gives '%s' no elements (0 or a negative number)", name);
			if (d->ndims <= 1)
				d->dim[0] = b->extent;
		} else if (!strcmp(text, "kcost:scratch")) {
			b->is_scratch = 1;
		}
	}
	/* --extent NAME=EXPR: the last one for this name whose expression is in this function's sizes */
	const struct kc_extent_override *missed = NULL;
	const char *missed_why = NULL;
	for (int i = fc->fe->opts->n_extents - 1; !annotated && *name && i >= 0; i--) {
		const struct kc_extent_override *x = &fc->fe->opts->extents[i];
		const char *err;
		struct kc_poly *e;
		if (strcmp(x->name, name))
			continue;
		if (kc_annot_parse_expr(fc->fe->a, x->expr, resolve_size_name, fc, &e, &err) < 0) {
			if (!missed)
				missed = x, missed_why = err;
			continue;
		}
		b->extent = e;
		if (d->ndims <= 1)
			d->dim[0] = e;
		missed = NULL;
		break;
	}
	if (missed)
		kc_cx_warn(fc, p, KC_NOTE, "--extent %s",
		           kc_arena_printf(fc->fe->a, "%s=%s does not apply here: %s", name, missed->expr, missed_why));
	struct var *v = kc_affine_add_var(fc, p, V_BUFFER);
	if (v)
		v->buffer = id;
}

static void apply_sizes(struct fctx *fc, CXCursor fn, struct annots *an)
{
	const char *err;
	struct sizes sz = {.fc = fc};
	for (int i = 0; i < an->n_sizes; i++) {
		sz.at = an->sizes[i].at;
		if (kc_annot_parse_sizes(fc->fe->a, an->sizes[i].text, set_size, &sz, &err) < 0)
			kc_cx_warn_annotation(fc, sz.at, "bad KCOST_SIZES: %s", err);
	}
	for (int i = 0; i < fc->fe->opts->n_sizes; i++) {
		const struct kc_size_override *o = &fc->fe->opts->sizes[i];
		for (int s = 0; s < fc->fn->syms.n; s++)
			if (!strcmp(fc->fn->syms.syms[s].name, o->name)) {
				fc->fn->syms.syms[s].has_value = 1;
				fc->fn->syms.syms[s].value = o->value;
				fc->fn->size_origin[s] = KC_SIZE_OPTION;
			}
	}
	apply_call_sizes(fc, fn);
	check_extents(fc, fn, &sz);
	fc->trips_var = KC_NEW_N(fc->fe->a, const char *, an->n_trips + 1);
	fc->trips_total = KC_NEW_N(fc->fe->a, struct kc_poly *, an->n_trips + 1);
	fc->trips_at = KC_NEW_N(fc->fe->a, CXCursor, an->n_trips + 1);
	fc->trips_named = KC_NEW_N(fc->fe->a, unsigned char, an->n_trips + 1);
	for (int i = 0; i < an->n_trips; i++) {
		const char *text = an->trips[i].text, *sp = strchr(text, ' ');
		struct kc_poly *total;
		if (!sp) {
			kc_cx_warn_annotation(fc, an->trips[i].at, "bad KCOST_TRIPS '%s': expected VARIABLE, TOTAL",
			                      text);
			continue;
		}
		if (kc_annot_parse_expr(fc->fe->a, sp + 1, resolve_size_name, fc, &total, &err) < 0) {
			kc_cx_warn_annotation(fc, an->trips[i].at, "bad KCOST_TRIPS: %s", err);
			continue;
		}
		const char *var = kc_arena_strndup(fc->fe->a, text, (size_t)(sp - text));
		int seen = 0;
		for (int k = 0; k < fc->n_trips && !seen; k++)
			seen = !strcmp(fc->trips_var[k], var);
		if (seen) {
			kc_cx_warn_annotation(fc, an->trips[i].at,
			                      "KCOST_TRIPS gives '%s' a total twice: the first one is kept", var);
			continue;
		}
		fc->trips_at[fc->n_trips] = an->trips[i].at;
		fc->trips_named[fc->n_trips] = 0;
		fc->trips_var[fc->n_trips] = var;
		fc->trips_total[fc->n_trips++] = total;
	}
}

int kc_decl_function(struct fctx *fc, CXCursor fn)
{
	int nparams = clang_Cursor_getNumArguments(fn);
	fc->fn_decl = fn;
	CXType rt = clang_getResultType(clang_getCursorType(fn));
	if (rt.kind != CXType_Void && rt.kind != CXType_Invalid) { /* the harness keeps what it returns */
		CXString ts = clang_getTypeSpelling(clang_getUnqualifiedType(rt));
		fc->fn->return_type = kc_arena_strdup(fc->fe->a, clang_getCString(ts));
		clang_disposeString(ts);
	}
	fc->fn->params = KC_NEW_N(fc->fe->a, struct kc_param, nparams > 0 ? nparams : 1);
	for (int i = 0; i < nparams; i++)
		setup_param(fc, clang_Cursor_getArgument(fn, (unsigned)i));
	struct annots an;
	read_annotations(fc, fn, &an);
	fc->fn->skip = an.skip;
	apply_sizes(fc, fn, &an);
	return an.n_sizes > 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* I/O in loops */

void kc_decl_io_call(struct fctx *fc, CXCursor call, const char *name)
{
	if (fc->too_deep)
		return;
	struct kc_arena *a = fc->fe->a;
	fc->n_io++;
	if (!fc->io_names)
		fc->io_names = name;
	else {
		size_t len = strlen(name);
		const char *p = fc->io_names;
		int seen = 0;
		for (const char *q; !seen && (q = strstr(p, name));) {
			seen = (q == fc->io_names || q[-1] == ' ') && (q[len] == ',' || q[len] == 0);
			p = q + 1;
		}
		if (!seen)
			fc->io_names = kc_arena_printf(a, "%s, %s", fc->io_names, name);
	}
	const char *msg = fc->n_io == 1
	                      ? kc_arena_printf(a, "an I/O call in a loop (%s) is not counted", fc->io_names)
	                      : kc_arena_printf(a, "%d I/O calls in loops (%s) are not counted: the first is here",
	                                        fc->n_io, fc->io_names);
	if (fc->io_note)
		fc->io_note->message = msg;
	else
		fc->io_note = kc_diag_add(a, &fc->fn->diags, kc_cx_loc(fc->fe, call), KC_NOTE, KC_DIAG_ASSUMPTION,
		                          fc->fn->name, "%s", msg);
}
