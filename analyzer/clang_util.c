/* clang_util.c — libclang helpers of the front end: children lists (cached), spellings, locations, types,
 * constant folding, a for statement's clauses, and warnings at a cursor. Visitor state travels through
 * client_data; every CXString is disposed in the scope that obtained it. Each thread analyzing a translation
 * unit (several for a file parsed in parts, split.h) has its own cache and arena here. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "clang_util.h"
#include "fe_int.h"
#include "source.h"

/* ------------------------------------------------------------------------------------------------ */
/* Children lists */

static _Thread_local struct kc_arena *long_lists; /* where lists longer than KC_CX_INLINE_CHILDREN go (kc_cx_begin) */

static enum CXChildVisitResult push_child(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct child_list *l = data;
	if (l->n == l->cap) {
		KC_ASSERT(long_lists);
		CXCursor *grown = kc_arena_alloc_uninit(long_lists, sizeof *grown * (size_t)l->cap * 2);
		memcpy(grown, l->c, sizeof *grown * (size_t)l->n);
		l->c = grown;
		l->cap *= 2;
	}
	l->c[l->n++] = c;
	return CXChildVisit_Continue;
}

/* The AST does not change while it is analyzed, and lowering asks about the same expression several times
 * (constant? affine? which accesses?), each time visiting its children: a small direct-mapped cache of
 * recent short children lists saves a third of the clang_visitChildren calls, the front end's largest
 * cost after the parse. One cache per thread (a translation unit is used from one thread), emptied with each
 * translation unit. */
#define CHILD_CACHE      1024 /* entries, a power of two */
#define CHILD_CACHE_LIST 4

static _Thread_local struct child_cache_entry {
	CXCursor key; /* kind 0 (never a cursor's): empty */
	int n;
	CXCursor c[CHILD_CACHE_LIST];
} child_cache[CHILD_CACHE];

void kc_cx_begin(struct kc_arena *a)
{
	memset(child_cache, 0, sizeof child_cache);
	long_lists = a;
}

void kc_cx_children(CXCursor c, struct child_list *l)
{
	l->c = l->in_place;
	l->cap = KC_CX_INLINE_CHILDREN;
	l->n = 0;
	switch (c.kind) { /* leaves, a third of what lowering asks about: no visit (the parse is C's: -xc) */
	case CXCursor_DeclRefExpr:
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_StringLiteral:
		return;
	default:
		break;
	}
	uintptr_t h = (uintptr_t)c.data[0] ^ ((uintptr_t)c.data[1] >> 3) ^ (uintptr_t)c.kind ^ (uintptr_t)c.xdata;
	struct child_cache_entry *e = &child_cache[(h ^ (h >> 10)) & (CHILD_CACHE - 1)];
	if (!memcmp(&e->key, &c, sizeof c)) {
		l->n = e->n;
		memcpy(l->c, e->c, sizeof l->c[0] * (size_t)e->n);
		return;
	}
	clang_visitChildren(c, push_child, l);
	if (l->n <= CHILD_CACHE_LIST) {
		e->key = c;
		e->n = l->n;
		memcpy(e->c, l->c, sizeof l->c[0] * (size_t)l->n);
	}
}

/* ------------------------------------------------------------------------------------------------ */
/* Spellings and locations */

char *kc_cx_spelling(struct kc_arena *a, CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *r = kc_arena_strdup(a, clang_getCString(s));
	clang_disposeString(s);
	return r;
}

/* Where each line of the main file begins: kc_cx_location() finds a line and column from an offset by binary
 * search, where libclang's own line and column cost most of a clang_getExpansionLocation call (and
 * locations are asked for every node and access). */
void kc_cx_index_main_file(struct fe *fe, CXTranslationUnit tu)
{
	size_t size = 0;
	const char *text = clang_getFileContents(tu, fe->main_file, &size);
	const struct kc_source *src = kc_source_get(fe->path);
	/* the text clang parsed is the file's (the same bytes, or libclang is asked) */
	fe->main_src = text && src && src->text && src->len == size && src->n_lines ? src : NULL;
}

struct kc_loc kc_cx_location(struct fe *fe, CXSourceLocation l)
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

struct kc_loc kc_cx_loc(struct fe *fe, CXCursor c)
{
	return kc_cx_location(fe, clang_getCursorLocation(c));
}

struct kc_loc kc_cx_end(struct fe *fe, CXCursor c)
{
	return kc_cx_location(fe, clang_getRangeEnd(clang_getCursorExtent(c)));
}

/* ------------------------------------------------------------------------------------------------ */
/* Expressions and types */

/* Look through parentheses and implicit casts. */
CXCursor kc_cx_strip(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr)
			return c;
		struct child_list l;
		kc_cx_children(c, &l);
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
int kc_cx_float_prec(CXType t)
{
	switch (clang_getCanonicalType(t).kind) {
	case CXType_Half:
	case CXType_Float16:
		return KC_PREC_F16;
	case CXType_Float:
		return KC_PREC_F32;
	case CXType_Double:
		return KC_PREC_F64;
	case CXType_LongDouble:
		return KC_PREC_F80;
	default:
		return -1;
	}
}

int kc_cx_is_integer_type(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return (k >= CXType_Bool && k <= CXType_Int128 && k != CXType_Void) || k == CXType_Enum;
}

int kc_cx_int_range(CXType t, __int128 *min, __int128 *max)
{
	CXType canon = clang_getCanonicalType(t);
	if (canon.kind == CXType_Enum)
		canon = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(canon)));
	if (!kc_cx_is_integer_type(canon) || canon.kind == CXType_Enum)
		return -1;
	long long size = clang_Type_getSizeOf(canon);
	if (size <= 0)
		return -1;
	int is_unsigned = canon.kind == CXType_Bool || canon.kind == CXType_Char_U || canon.kind == CXType_UChar ||
	                  canon.kind == CXType_Char16 || canon.kind == CXType_Char32 || canon.kind == CXType_UShort ||
	                  canon.kind == CXType_UInt || canon.kind == CXType_ULong || canon.kind == CXType_ULongLong ||
	                  canon.kind == CXType_UInt128;
	/* 128-bit types reach past every value kcost computes with: their range is clipped to 2^100, which keeps
	 * differences of two values within __int128 */
	int bits = size > 8 ? 101 : 8 * (int)size;
	if (canon.kind == CXType_Bool)
		bits = 1;
	__int128 top = (__int128)1 << (is_unsigned ? bits : bits - 1);
	*min = is_unsigned ? 0 : -top;
	*max = top - 1;
	return 0;
}

/* The constant value of an integer expression, if clang can evaluate it (and it fits in a long long: an
 * unsigned constant of 2^63 or more is not read as a negative number). */
int kc_cx_eval_int(CXCursor c, long long *out)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return 0;
	int ok =
	    clang_EvalResult_getKind(r) == CXEval_Int &&
	    (!clang_EvalResult_isUnsignedInt(r) || clang_EvalResult_getAsUnsigned(r) <= (unsigned long long)LLONG_MAX);
	if (ok)
		*out = clang_EvalResult_getAsLongLong(r);
	clang_EvalResult_dispose(r);
	return ok;
}

/* 1 if the expression is a compile-time constant (folded: costs nothing). */
int kc_cx_is_zero_literal(CXCursor c)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return 0;
	int zero = (clang_EvalResult_getKind(r) == CXEval_Float && clang_EvalResult_getAsDouble(r) == 0.0) ||
	           (clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0);
	clang_EvalResult_dispose(r);
	return zero;
}

/* A `_Noreturn` attribute of declaration d (C11's, <stdnoreturn.h>'s noreturn): libclang shows it as an attribute
 * child spelled so; a type named noreturn, a function named so, an empty macro of that name are not. */
static enum CXChildVisitResult noreturn_attr(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (!clang_isAttribute(clang_getCursorKind(c)))
		return CXChildVisit_Continue;
	/* the attribute as written where it is expanded: clang_tokenize reads spelling locations, and
	 * <stdnoreturn.h>'s noreturn is spelled in that header */
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
	CXSourceRange ext = clang_getCursorExtent(c);
	CXFile f1, f2;
	unsigned o1, o2;
	clang_getExpansionLocation(clang_getRangeStart(ext), &f1, NULL, NULL, &o1);
	clang_getExpansionLocation(clang_getRangeEnd(ext), &f2, NULL, NULL, &o2);
	if (!f1 || !clang_File_isEqual(f1, f2) || o2 < o1 || o2 - o1 > 256)
		return CXChildVisit_Continue;
	CXToken *toks = NULL;
	unsigned n = 0;
	clang_tokenize(tu,
	               clang_getRange(clang_getLocationForOffset(tu, f1, o1), clang_getLocationForOffset(tu, f2, o2)),
	               &toks, &n);
	if (n) {
		CXString s = clang_getTokenSpelling(tu, toks[0]);
		const char *t = clang_getCString(s);
		if (!strcmp(t, "_Noreturn") || !strcmp(t, "noreturn"))
			*(int *)data = 1;
		clang_disposeString(s);
	}
	clang_disposeTokens(tu, toks, n);
	return *(int *)data ? CXChildVisit_Break : CXChildVisit_Continue;
}

static int noreturn_specifier(CXCursor d)
{
	int found = 0;
	clang_visitChildren(d, noreturn_attr, &found);
	return found;
}

int kc_cx_calls_noreturn(CXCursor c)
{
	CXCursor f = clang_getCursorReferenced(c);
	if (clang_getCursorKind(f) != CXCursor_FunctionDecl)
		return 0;
	/* GNU's attribute is the function type's: "void (int) __attribute__((noreturn))", at the end (not a
	 * parameter's: "void (void (*)(void) __attribute__((noreturn)))") */
	static const char attr[] = " __attribute__((noreturn))";
	CXString s = clang_getTypeSpelling(clang_getCursorType(f));
	const char *t = clang_getCString(s);
	size_t len = strlen(t), k = sizeof attr - 1;
	int nr = len > k && !strcmp(t + len - k, attr);
	clang_disposeString(s);
	CXCursor first = clang_getCanonicalCursor(f);
	return nr || noreturn_specifier(f) || (!clang_equalCursors(first, f) && noreturn_specifier(first));
}

int kc_cx_is_constant(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(kc_cx_strip(c));
	if (k == CXCursor_IntegerLiteral || k == CXCursor_FloatingLiteral)
		return 1;
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return 0;
	CXEvalResultKind rk = clang_EvalResult_getKind(r);
	clang_EvalResult_dispose(r);
	return rk == CXEval_Int || rk == CXEval_Float;
}

/* ------------------------------------------------------------------------------------------------ */
/* Declarations, types, for statements, warnings */

/* Declarations are identified by their location: cursors of one declaration reached through different
 * paths (a parameter list, a DeclRefExpr) need not compare equal with clang_equalCursors. */
int kc_cx_same_decl(CXCursor x, CXCursor y)
{
	return clang_equalCursors(x, y) ||
	       (clang_getCursorKind(x) == clang_getCursorKind(y) &&
	        clang_equalLocations(clang_getCursorLocation(x), clang_getCursorLocation(y)));
}

/* The element class of a canonical type: what a harness may fill it with and compare it by. */
enum kc_elem_class kc_cx_elem_class(CXType t)
{
	switch (t.kind) {
	case CXType_Float:
	case CXType_Double:
	case CXType_LongDouble:
	case CXType_Half:
	case CXType_Float16:
	case CXType_BFloat16:
	case CXType_Float128:
	case CXType_Ibm128:
		return KC_ELEM_FLOATING;
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
	case CXType_Enum:
		return KC_ELEM_INTEGER;
	case CXType_Pointer:
	case CXType_BlockPointer:
	case CXType_ConstantArray:
	case CXType_IncompleteArray:
	case CXType_VariableArray:
	case CXType_DependentSizedArray:
	case CXType_FunctionProto:
	case CXType_FunctionNoProto:
		return KC_ELEM_POINTER;
	default:
		return KC_ELEM_OPAQUE;
	}
}

/* Strip pointer and array layers of a type: the element type and the number of dimensions. A
 * parameter's type is the one written (const float x[restrict n]), not the decayed pointer. */
CXType kc_cx_element_type(CXType t, int *ndims, int *is_buffer)
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

void kc_cx_split_for(CXCursor c, struct kc_cx_for_parts *p)
{
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
	CXToken *toks;
	unsigned ntoks, semi[2] = {0, 0}, close = 0;
	int found = 0, depth = 0;
	struct child_list l;
	kc_cx_children(c, &l);
	if (l.n == 4) { /* every clause present (C has no condition variable): children come in this order */
		p->init = l.c[0];
		p->cond = l.c[1];
		p->inc = l.c[2];
		p->body = l.c[3];
		return;
	}
	/* a clause is missing: which one, only the semicolons tell. The header's tokens only: up to where the body
	 * (always the last child) starts. Tokenizing the whole statement would tokenize a nest's inner loops once per
	 * enclosing loop. */
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

/* Add fc's diagnostic of that severity and kind, unless the function is too deep (then only errors), a probe
 * (no notes) or in a branch the benchmark sizes do not take (then a warning becomes a note). 1 when it was
 * added as asked: what it makes inexact is the caller's to clear. */
static int cx_report(struct fctx *fc, CXCursor at, enum kc_severity sev, enum kc_diag_kind kind, const char *fmt,
                     const char *arg)
{
	if (fc->too_deep && sev != KC_ERROR)
		return 0; /* the function is not analyzed: what its lowering found past the limit is noise */
	if (fc->probing && sev == KC_NOTE)
		return 0;
	if (fc->untaken && sev == KC_WARNING) { /* it does not run at these sizes: what it would cost is no error */
		const char *msg = kc_arena_printf(fc->fe->a, fmt, arg);
		kc_diag_add(fc->fe->a, &fc->fn->diags, kc_cx_loc(fc->fe, at), KC_NOTE, kind, fc->fn->name,
		            "%s (in a branch the benchmark sizes do not take)", msg);
		return 0;
	}
	kc_diag_add(fc->fe->a, &fc->fn->diags, kc_cx_loc(fc->fe, at), sev, kind, fc->fn->name, fmt, arg);
	return 1;
}

void kc_cx_warn(struct fctx *fc, CXCursor at, enum kc_severity sev, const char *fmt, const char *arg)
{
	enum kc_diag_kind kind = sev == KC_NOTE    ? KC_DIAG_ASSUMPTION
	                         : sev == KC_ERROR ? KC_DIAG_NOT_ANALYZED
	                                           : KC_DIAG_INEXACT;
	if (cx_report(fc, at, sev, kind, fmt, arg) && sev != KC_NOTE)
		fc->fn->exact = fc->fn->exact_ops = fc->fn->exact_flops = 0;
}

void kc_cx_warn_annotation(struct fctx *fc, CXCursor at, const char *fmt, const char *arg)
{
	if (cx_report(fc, at, KC_WARNING, KC_DIAG_ANNOTATION, fmt, arg))
		fc->fn->exact = fc->fn->exact_ops = fc->fn->exact_flops = 0;
}

/* A warning that leaves the FLOPs exact (ops 0: traffic only; 1: comparisons and traffic). */
static void warn_partly(struct fctx *fc, CXCursor at, const char *fmt, const char *arg, int ops)
{
	if (!cx_report(fc, at, KC_WARNING, ops ? KC_DIAG_INEXACT_CMP : KC_DIAG_INEXACT_TRAFFIC, fmt, arg))
		return;
	fc->fn->exact = 0;
	if (ops)
		fc->fn->exact_ops = 0;
}

void kc_cx_warn_traffic(struct fctx *fc, CXCursor at, const char *fmt, const char *arg)
{
	warn_partly(fc, at, fmt, arg, 0);
}

void kc_cx_warn_cmp(struct fctx *fc, CXCursor at, const char *fmt, const char *arg)
{
	warn_partly(fc, at, fmt, arg, 1);
}

int kc_cx_enter(struct fctx *fc, CXCursor at)
{
	if (!fc->too_deep && fc->fe->depth < KC_MAX_DEPTH) {
		fc->fe->depth++;
		return 0;
	}
	if (!fc->too_deep) {
		fc->too_deep = 1;
		/* what was found before the limit is dropped too: the function is reported by this one error */
		struct kc_diags *d = &fc->fn->diags;
		struct kc_diag **link = &d->head;
		d->tail = NULL;
		d->warnings = 0;
		while (*link) {
			if ((*link)->severity == KC_ERROR) {
				d->tail = *link;
				link = &(*link)->next;
			} else {
				*link = (*link)->next;
			}
		}
		kc_cx_warn(fc, at, KC_ERROR,
		           "statements and expressions nested more than %s levels deep: the function is not "
		           "analyzed",
		           KC_TEXT(KC_MAX_DEPTH));
	}
	return -1;
}

void kc_cx_leave(struct fctx *fc)
{
	fc->fe->depth--;
}
