/* decls.c — what a function declares: its buffers (parameters, local arrays, allocations, fields), size and
 * scalar parameters, and its kcost annotations (sizes, trips, extents, references). */
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
	struct child_list l;
	kc_cx_children(decl, &l);
	int n = 0;
	for (int i = 0; i < l.n && n < cap; i++) {
		enum CXCursorKind k = clang_getCursorKind(l.c[i]);
		if (!clang_isExpression(k))
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
		kc_cx_warn(fc, at, KC_WARNING,
		           "a second KCOST_REFERENCE ('%s') is ignored: a function has one reference", name);
		return;
	}
	if (!strcmp(name, fc->fn->name)) {
		kc_cx_warn(fc, at, KC_WARNING, "KCOST_REFERENCE names the function itself ('%s'): ignored", name);
		return;
	}
	if (!file_function_named(fc->fe, name))
		kc_cx_warn(fc, at, KC_WARNING,
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
			kc_cx_warn(fc, l.c[i], KC_WARNING, "unknown kcost annotation '%s'", text);
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
		kc_cx_warn(fc, sz->at, KC_WARNING, "KCOST_SIZES names '%s', which is not a size parameter: ignored", s);
		return 0;
	}
	if (sz->given[sym]) {
		kc_cx_warn(fc, sz->at, KC_WARNING, "KCOST_SIZES gives '%s' a value twice: the first one is kept", s);
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
			kc_cx_warn(fc, sz->at, KC_WARNING, "KCOST_SIZES: %s: ignored", msg);
			return 0;
		}
	}
	fc->fn->syms.syms[sym].has_value = 1;
	fc->fn->syms.syms[sym].value = value;
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
		new_param(fc, p, name, kc_cx_float_prec(t) >= 0 ? KC_PARAM_SCALAR : KC_PARAM_OTHER)->is_float =
		    kc_cx_float_prec(t) >= 0;
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
	for (int i = 0; i < l.n; i++) {
		if (clang_getCursorKind(l.c[i]) != CXCursor_AnnotateAttr)
			continue;
		char *text = kc_cx_spelling(fc->fe->a, l.c[i]);
		const char *err;
		if (!strncmp(text, "kcost:extent ", 13)) {
			struct kc_rat c;
			if (kc_annot_parse_expr(fc->fe->a, text + 13, resolve_size_name, fc, &b->extent, &err) < 0) {
				kc_cx_warn(fc, l.c[i], KC_WARNING, "bad KCOST_EXTENT: %s", err);
				continue;
			}
			if (kc_poly_is_const(b->extent, &c) && c.num <= 0)
				kc_cx_warn(fc, l.c[i], KC_WARNING,
				           "KCOST_EXTENT gives '%s' no elements (0 or a negative number)", name);
			if (d->ndims <= 1)
				d->dim[0] = b->extent;
		} else if (!strcmp(text, "kcost:scratch")) {
			b->is_scratch = 1;
		}
	}
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
			kc_cx_warn(fc, sz.at, KC_WARNING, "bad KCOST_SIZES: %s", err);
	}
	for (int i = 0; i < fc->fe->opts->n_sizes; i++) {
		const struct kc_size_override *o = &fc->fe->opts->sizes[i];
		for (int s = 0; s < fc->fn->syms.n; s++)
			if (!strcmp(fc->fn->syms.syms[s].name, o->name)) {
				fc->fn->syms.syms[s].has_value = 1;
				fc->fn->syms.syms[s].value = o->value;
			}
	}
	check_extents(fc, fn, &sz);
	fc->trips_var = KC_NEW_N(fc->fe->a, const char *, an->n_trips + 1);
	fc->trips_total = KC_NEW_N(fc->fe->a, struct kc_poly *, an->n_trips + 1);
	fc->trips_at = KC_NEW_N(fc->fe->a, CXCursor, an->n_trips + 1);
	fc->trips_named = KC_NEW_N(fc->fe->a, unsigned char, an->n_trips + 1);
	for (int i = 0; i < an->n_trips; i++) {
		const char *text = an->trips[i].text, *sp = strchr(text, ' ');
		struct kc_poly *total;
		if (!sp) {
			kc_cx_warn(fc, an->trips[i].at, KC_WARNING, "bad KCOST_TRIPS '%s': expected VARIABLE, TOTAL",
			           text);
			continue;
		}
		if (kc_annot_parse_expr(fc->fe->a, sp + 1, resolve_size_name, fc, &total, &err) < 0) {
			kc_cx_warn(fc, an->trips[i].at, KC_WARNING, "bad KCOST_TRIPS: %s", err);
			continue;
		}
		const char *var = kc_arena_strndup(fc->fe->a, text, (size_t)(sp - text));
		int seen = 0;
		for (int k = 0; k < fc->n_trips && !seen; k++)
			seen = !strcmp(fc->trips_var[k], var);
		if (seen) {
			kc_cx_warn(fc, an->trips[i].at, KC_WARNING,
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
	fc->fn->params = KC_NEW_N(fc->fe->a, struct kc_param, nparams > 0 ? nparams : 1);
	for (int i = 0; i < nparams; i++)
		setup_param(fc, clang_Cursor_getArgument(fn, (unsigned)i));
	struct annots an;
	read_annotations(fc, fn, &an);
	fc->fn->skip = an.skip;
	apply_sizes(fc, fn, &an);
	return an.n_sizes > 0;
}
