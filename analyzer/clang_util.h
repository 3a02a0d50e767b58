/* clang_util.h — private to the front end: libclang helpers that know nothing of lowering. The functions taking
 * a struct fe read its main file (path, CXFile, lines) and arena; kc_cx_warn reports for a struct fctx's
 * function. Not thread-safe: libclang and the children cache are used from one thread only. */
#ifndef KC_CLANG_UTIL_H
#define KC_CLANG_UTIL_H

#include <clang-c/Index.h>

#include "ir.h"

struct fe;
struct fctx;

/* Children held in the list itself; longer lists (a block of many statements) go into the arena given to
 * kc_cx_begin. Most lists are short: this is on the front end's hot path. */
#define KC_CX_INLINE_CHILDREN 16

/* The children of a cursor, in libclang's visiting order: c[0 .. n-1]. */
struct child_list {
	CXCursor *c; /* in_place, or an array in the arena */
	int n, cap;
	CXCursor in_place[KC_CX_INLINE_CHILDREN];
};

/* Fill l with all of c's children. Short lists of recently asked cursors come from a cache. */
void kc_cx_children(CXCursor c, struct child_list *l);
/* Start a translation unit: empty the cache (a new AST may reuse the old one's addresses) and allocate long
 * children lists in `a` from now on (it must outlive the unit's lowering). */
void kc_cx_begin(struct kc_arena *a);

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

/* The values an integer type holds, [*min, *max] (128-bit types clipped to +-2^100); -1 for other types. */
int kc_cx_int_range(CXType t, __int128 *min, __int128 *max);

/* 1 and *out set if clang evaluates c to an integer constant that fits in a long long, else 0. */
int kc_cx_eval_int(CXCursor c, long long *out);
/* 1 if c evaluates to the constant 0 (integer or floating). */
int kc_cx_is_zero_literal(CXCursor c);
/* 1 if c is a compile-time constant (folded: costs nothing). */
int kc_cx_is_constant(CXCursor c);

/* 1 if the function the call c calls does not return: its type says so (GNU's noreturn attribute: glibc's exit
 * and abort), or `_Noreturn` (<stdnoreturn.h>'s noreturn, C23's [[noreturn]]) specifies its declaration. */
int kc_cx_calls_noreturn(CXCursor c);

/* 1 if x and y are cursors of the same declaration (compared by kind and location: cursors of a declaration
 * reached through different paths need not compare equal). */
int kc_cx_same_decl(CXCursor x, CXCursor y);

/* The clauses of `for (init; cond; inc) body`, each a null cursor when absent. */
struct kc_cx_for_parts {
	CXCursor init, cond, inc, body;
};
void kc_cx_split_for(CXCursor c, struct kc_cx_for_parts *p);

/* Enter one level of the lowering's recursion at `at`: 0, or -1 (nothing more of fc's function is lowered)
 * when KC_MAX_DEPTH is reached, reported once as an error of the function. Each 0 is paired with kc_cx_leave. */
int kc_cx_enter(struct fctx *fc, CXCursor at);
void kc_cx_leave(struct fctx *fc);

/* A diagnostic at `at` for fc's function (fmt has one %s, filled with arg); anything above a note clears the
 * function's exact flag. Only errors are kept once the function is too deep to be analyzed (kc_cx_enter). Its
 * kind (base/diag.h): a note is an assumption, a warning an inexact count, an error a function not analyzed. */
void kc_cx_warn(struct fctx *fc, CXCursor at, enum kc_severity sev, const char *fmt, const char *arg);
/* A warning about a KCOST_* annotation (wrong, or ignored): as kc_cx_warn's, of kind KC_DIAG_ANNOTATION. */
void kc_cx_warn_annotation(struct fctx *fc, CXCursor at, const char *fmt, const char *arg);
/* A warning about traffic only (an access kcost cannot bound): clears fn->exact, not fn->exact_ops. */
void kc_cx_warn_traffic(struct fctx *fc, CXCursor at, const char *fmt, const char *arg);
/* A warning about comparisons and traffic only (a branch that compares but computes nothing): clears
 * fn->exact and fn->exact_ops, not fn->exact_flops. */
void kc_cx_warn_cmp(struct fctx *fc, CXCursor at, const char *fmt, const char *arg);

#endif
