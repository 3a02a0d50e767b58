/* decls.h — private to the front end: the buffers and parameters a function declares, and its annotations. */
#ifndef KC_DECLS_H
#define KC_DECLS_H

#include "clang_util.h"
#include "fe_int.h"

/* A new buffer of fc's function for the declaration decl with element type elem (name, location, element
 * type, size and class filled; the role KC_ROLE_UNUSED); fc->dims grows with the buffers. Returns its id. */
int kc_decl_buffer(struct fctx *fc, CXCursor decl, CXType elem);

/* The size expressions written in decl's declarator (VLA and constant dimensions), outermost first, at most
 * cap (at most KC_MAX_DIMS) of them, into dims[] (NULL entries: not affine). Returns their number. */
int kc_decl_dims(struct fctx *fc, CXCursor decl, struct kc_poly **dims, int cap);

/* The product of n dimensions, or NULL if one is unknown (NULL) or the product overflows. */
struct kc_poly *kc_decl_product(struct fctx *fc, struct kc_poly **dims, int n);

/* Enter the parameters of fc's function fn (buffers, size symbols, scalars) and apply its kcost annotations
 * and the --size overrides. Returns 1 if it has a KCOST_SIZES annotation. */
int kc_decl_function(struct fctx *fc, CXCursor fn);

/* A file-scope array named by expression e (a DeclRefExpr) as a buffer of fc's function, entered the first
 * time (of its declared extent, listed in kc_function.globals, is_param set) with a variable that names it; NULL when e
 * names no file-scope array (a global pointer stays untraced: what it points to is unknown). */
struct var *kc_decl_global(struct fctx *fc, CXCursor e);
/* The buffer of fc's function for the file-scope array that buffer b of callee g is (entered now if fc's
 * function has not met it), or -1. */
int kc_decl_global_of(struct fctx *fc, const struct kc_function *g, int b);

/* An I/O call (kc_libcall_is_io) inside a loop: not counted, and not a warning — the function gets one note
 * for all of them, at the first, that says how many and which (what init_* and print_* functions are full of). */
void kc_decl_io_call(struct fctx *fc, CXCursor call, const char *name);

/* A part of a file parsed in parts (split.h): 0 when a function it lowers calls one whose body it parses blanked
 * (the split parted a caller from its callee, or from the sizes it passes), else 1; fe->undefined then holds
 * the calls the part's functions make of functions it does not define (the caller checks that no other
 * part defines one: the split removed it whole from this one). */
int kc_decl_split_calls_ok(struct fe *fe);

#endif
