/* clang_util.h — private to the front end: libclang helpers that know nothing of lowering. The functions taking
 * a struct fe read its main file (path, CXFile, lines) and arena; kc_cx_warn reports for a struct fctx's
 * function. Not thread-safe: libclang and the children cache are used from one thread only. */
#ifndef KC_CLANG_UTIL_H
#define KC_CLANG_UTIL_H

#include <clang-c/Index.h>

#include "ir.h"

struct fe;
struct fctx;

#define MAX_CHILDREN 64

/* The children of a cursor, in libclang's visiting order (at most MAX_CHILDREN of them). */
struct child_list {
	CXCursor c[MAX_CHILDREN];
	int n;
};

/* Fill l with c's children. Short lists of recently asked cursors come from a cache, which must be emptied
 * with kc_cx_cache_clear before a new translation unit is analyzed (its AST may reuse the old addresses). */
void kc_cx_children(CXCursor c, struct child_list *l);
void kc_cx_cache_clear(void);

/* The cursor's spelling, copied into a. */
char *kc_cx_spelling(struct kc_arena *a, CXCursor c);

/* Find the main file's lines (fe->main_src) so that locations in it need no libclang line lookup; fe->path
 * and fe->main_file must be set. */
void kc_cx_index_main_file(struct fe *fe, CXTranslationUnit tu);
/* Where l is expanded: file (fe->path for the main file, else a copy in fe's arena), line and column. */
struct kc_loc kc_cx_location(struct fe *fe, CXSourceLocation l);
/* kc_cx_location of the cursor's location and of the end of its extent. */
struct kc_loc kc_cx_loc(struct fe *fe, CXCursor c);
struct kc_loc kc_cx_end(struct fe *fe, CXCursor c);

/* c without the parentheses and casts (implicit or written) around it. */
CXCursor kc_cx_strip(CXCursor c);

/* The floating precision (KC_PREC_*) of a type, or -1 for non-floating types. */
int kc_cx_float_prec(CXType t);
/* 1 for integer, character, boolean and enumeration types. */
int kc_cx_is_integer_type(CXType t);
/* The element class of a canonical type: what a harness may fill it with and compare it by. */
enum kc_elem_class kc_cx_elem_class(CXType t);
/* Strip the pointer and array layers of a type: the element type, the number of dimensions, and whether there
 * was a layer at all (*is_buffer). */
CXType kc_cx_element_type(CXType t, int *ndims, int *is_buffer);

/* 1 and *out set if clang evaluates c to an integer constant, else 0. */
int kc_cx_eval_int(CXCursor c, long long *out);
/* 1 if c evaluates to the constant 0 (integer or floating). */
int kc_cx_is_zero_literal(CXCursor c);
/* 1 if c is a compile-time constant (folded: costs nothing). */
int kc_cx_is_constant(CXCursor c);

/* 1 if x and y are cursors of the same declaration (compared by kind and location: cursors of a declaration
 * reached through different paths need not compare equal). */
int kc_cx_same_decl(CXCursor x, CXCursor y);

/* The clauses of `for (init; cond; inc) body`, each a null cursor when absent. */
struct kc_cx_for_parts {
	CXCursor init, cond, inc, body;
};
void kc_cx_split_for(CXCursor c, struct kc_cx_for_parts *p);

/* A diagnostic at `at` for fc's function (fmt has one %s, filled with arg); anything above a note clears the
 * function's exact flag. */
void kc_cx_warn(struct fctx *fc, CXCursor at, enum kc_severity sev, const char *fmt, const char *arg);

#endif
