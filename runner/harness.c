/* harness.c — plan each function's harness run and write the harness.c that includes the user's file. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* --- the plan -------------------------------------------------------------------------------------------- */

/* The first symbol of p without a benchmark value, or NULL. */
static const char *missing_size(const struct kc_function *f, const struct kc_poly *p)
{
	for (int s = 0; s < f->syms.n; s++)
		if (kc_poly_has_sym(p, s) && !f->syms.syms[s].has_value)
			return f->syms.syms[s].name;
	return NULL;
}

static const char *not_run_eval(struct kc_arena *a, const struct kc_function *f, const struct kc_poly *p,
                                const char *what, const char *why)
{
	const char *size = missing_size(f, p);
	if (size)
		return kc_arena_printf(
		    a, "not run: size %s has no benchmark value (annotate KCOST_SIZES or pass --size)", size);
	return kc_arena_printf(a, "not run: %s: %s", what, why ? why : "cannot be evaluated");
}

/* The argument of a size parameter: its benchmark value cast to the parameter's type. */
static const char *size_arg(struct kc_arena *a, const struct kc_function *f, const struct kc_param *pr,
                            const char **error)
{
	if (pr->sym < 0 || !*pr->name) {
		*error = kc_arena_printf(a, "not run: integer parameter %s has no name to give it a size",
		                         *pr->name ? pr->name : "(unnamed)");
		return NULL;
	}
	const struct kc_sym *s = &f->syms.syms[pr->sym];
	if (!s->has_value) {
		*error = kc_arena_printf(
		    a, "not run: size %s has no benchmark value (annotate KCOST_SIZES or pass --size)", s->name);
		return NULL;
	}
	int small = s->value >= -2147483647LL && s->value <= 2147483647LL;
	if (s->value < 0)
		return kc_arena_printf(a, "(%s)(%lld%s)", pr->type, s->value, small ? "" : "LL");
	return kc_arena_printf(a, "(%s)%lld%s", pr->type, s->value, small ? "" : "LL");
}

/* Fill the table entry of a buffer parameter; NULL (with *error) when it cannot be allocated. */
static const char *buffer_arg(struct kc_arena *a, const struct kc_function *f, const struct kc_param *pr,
                              struct kc_harness_plan *p, const char **error)
{
	const struct kc_buffer *b = &f->buffers[pr->buffer];
	enum kc_elem_class cls = b->elem_class;
	long long count, lowest = 0, before = 0;
	const char *why = NULL;
	if (cls == KC_ELEM_POINTER)
		*error = kc_arena_printf(a, "not run: buffer %s holds pointers (%s), which the harness cannot fill",
		                         pr->name, b->elem_type);
	else if (!b->extent && b->unbounded_at.line)
		*error = kc_arena_printf(a,
		                         "not run: extent of %s cannot be inferred from its accesses: %s:%u:%u: %s "
		                         "(annotate KCOST_EXTENT)",
		                         pr->name, b->unbounded_at.file, b->unbounded_at.line, b->unbounded_at.col,
		                         b->unbounded_why);
	else if (!b->extent)
		*error = kc_arena_printf(a, "not run: extent of %s is unknown (annotate KCOST_EXTENT)", pr->name);
	else if (kc_function_eval(f, b->extent, &count, &why) < 0)
		*error = not_run_eval(a, f, b->extent, kc_arena_printf(a, "extent of %s", pr->name), why);
	else if (b->lowest && kc_function_eval(f, b->lowest, &lowest, &why) < 0)
		*error = not_run_eval(a, f, b->lowest, kc_arena_printf(a, "lowest index of %s", pr->name), why);
	else if (lowest < -(1LL << 61) || lowest > (1LL << 61) || count > (1LL << 61))
		*error = kc_arena_printf(a, "not run: the hull of %s's indices is too large to allocate", pr->name);
	if (*error)
		return NULL;
	/* an extent from a lowest index: the allocation runs from it, or from index 0 when it is positive. Element 0
	 * starts a 64-byte line as every buffer's does (the time model's misaligned accesses count from it): the
	 * elements before it are rounded up to a whole number of lines where the element size allows */
	if (lowest < 0) {
		before = -lowest;
		for (int more = 0; more < 64 && b->elem_size > 0 && before * b->elem_size % 64; more++)
			before++, count++;
	} else {
		count += lowest;
	}
	if (count < 0)
		*error = kc_arena_printf(a, "not run: extent of %s is negative (%lld elements)", pr->name, count);
	else if (b->elem_size > 0 &&
	         (count > (1LL << 62) / b->elem_size || p->bytes > (1LL << 62) - count * b->elem_size))
		*error = kc_arena_printf(a, "not run: the buffers would need more than 2^62 bytes (%s)", pr->name);
	if (*error)
		return NULL;
	struct kc_harness_buffer *hb = &p->buffers[p->n_buffers];
	*hb = (struct kc_harness_buffer){pr->name, b->elem_type, b->elem_size,
	                                 cls,      count,        b->role == KC_ROLE_OUTPUT || b->role == KC_ROLE_INOUT};
	p->bytes += count * b->elem_size;
	if (before) /* the parameter points `before` elements into the allocation */
		return kc_arena_printf(a, "(void *)((char *)kcost_b[%d] + %lldLL)", p->n_buffers++,
		                       before * b->elem_size);
	return kc_arena_printf(a, "kcost_b[%d]", p->n_buffers++);
}

static const char *param_arg(struct kc_arena *a, const struct kc_function *f, const struct kc_param *pr,
                             struct kc_harness_plan *p, const char **error)
{
	switch (pr->kind) {
	case KC_PARAM_SIZE:
		return size_arg(a, f, pr, error);
	case KC_PARAM_BUFFER:
		return buffer_arg(a, f, pr, p, error);
	case KC_PARAM_SCALAR:
		if (pr->is_float) {
			struct kc_buf t = KC_BUF_INIT;
			kc_buf_double(&t, pr->value);
			const char *arg = kc_arena_printf(a, "(%s)%s", pr->type, kc_buf_str(&t));
			kc_buf_release(&t);
			return arg;
		}
		break;
	case KC_PARAM_OTHER:
		break;
	}
	*error = kc_arena_printf(a,
	                         "not run: parameter %s of type '%s' is neither a size, a buffer nor a "
	                         "floating-point scalar",
	                         *pr->name ? pr->name : "(unnamed)", pr->type);
	return NULL;
}

static const struct kc_param *param_named(const struct kc_function *f, const char *name)
{
	for (int i = 0; i < f->n_params; i++)
		if (*name && !strcmp(f->params[i].name, name))
			return &f->params[i];
	return NULL;
}

/* Why ref's parameters do not match f's (same names and kinds, buffers of the same element size and class),
 * or NULL when they do. */
static const char *ref_mismatch(struct kc_arena *a, const struct kc_function *f, const struct kc_function *ref)
{
	if (ref->n_params != f->n_params)
		return kc_arena_printf(a, "%s has %d parameters, %s has %d", ref->name, ref->n_params, f->name,
		                       f->n_params);
	for (int i = 0; i < ref->n_params; i++) {
		const struct kc_param *rp = &ref->params[i], *fp = param_named(f, rp->name);
		if (!fp)
			return kc_arena_printf(a, "%s has no parameter named '%s'", f->name, rp->name);
		if (fp->kind != rp->kind || fp->is_float != rp->is_float)
			return kc_arena_printf(a, "parameter %s is of another kind in %s", rp->name, ref->name);
		if (fp->kind != KC_PARAM_BUFFER)
			continue;
		const struct kc_buffer *fb = &f->buffers[fp->buffer], *rb = &ref->buffers[rp->buffer];
		if (fb->elem_size != rb->elem_size || fb->elem_class != rb->elem_class)
			return kc_arena_printf(a, "buffer %s holds %s in %s but %s in %s", rp->name, fb->elem_type,
			                       f->name, rb->elem_type, ref->name);
	}
	return NULL;
}

static void plan_reference(struct kc_arena *a, const struct kc_function *f, const struct kc_function *ref,
                           struct kc_harness_plan *p)
{
	if (!ref) {
		p->reference_note = kc_arena_printf(a,
		                                    "reference %s not checked: it was not analyzed (KCOST_SKIP, or no "
		                                    "loops), so its signature is unknown",
		                                    f->reference);
		return;
	}
	const char *why = ref_mismatch(a, f, ref);
	if (why) {
		p->reference_note =
		    kc_arena_printf(a, "reference %s not checked: incompatible signature: %s", f->reference, why);
		return;
	}
	p->ref_args = KC_NEW_N(a, const char *, ref->n_params > 0 ? ref->n_params : 1);
	for (int i = 0; i < ref->n_params; i++)
		p->ref_args[i] = p->args[param_named(f, ref->params[i].name) - f->params];
	p->n_ref_args = ref->n_params;
}

void kc_harness_plan(struct kc_arena *a, const struct kc_function *f, const struct kc_function *ref,
                     struct kc_harness_plan *p)
{
	memset(p, 0, sizeof *p);
	p->fn = f;
	p->reference = f->reference;
	p->args = KC_NEW_N(a, const char *, f->n_params > 0 ? f->n_params : 1);
	p->buffers = KC_NEW_N(a, struct kc_harness_buffer, f->n_params > 0 ? f->n_params : 1);
	const char *error = NULL;
	for (int i = 0; i < f->n_params && !error; i++)
		p->args[p->n_args++] = param_arg(a, f, &f->params[i], p, &error);
	if (error) {
		p->error = error;
		return;
	}
	if (f->reference)
		plan_reference(a, f, ref, p);
}

/* --- the source ------------------------------------------------------------------------------------------ */

/* Distinct element types of the runnable plans; their index names kcost_fill_<i> / kcost_get_<i>. Grows as
 * needed (malloc'd): a type without accessors would leave its buffers unfilled and unchecked. */
struct type_list {
	const char **types;
	enum kc_elem_class *cls;
	int n, cap;
};

/* The index of type, added when new; -1 only when there is no memory to add it. */
static int type_index(struct type_list *tl, const char *type, enum kc_elem_class cls)
{
	for (int i = 0; i < tl->n; i++)
		if (!strcmp(tl->types[i], type))
			return i;
	if (tl->n == tl->cap) {
		int cap = tl->cap ? 2 * tl->cap : 16;
		const char **types = realloc(tl->types, sizeof *types * (size_t)cap);
		if (types)
			tl->types = types;
		enum kc_elem_class *classes = types ? realloc(tl->cls, sizeof *classes * (size_t)cap) : NULL;
		if (!classes)
			return -1;
		tl->cls = classes, tl->cap = cap;
	}
	tl->types[tl->n] = type;
	tl->cls[tl->n] = cls;
	return tl->n++;
}

static void type_list_release(struct type_list *tl)
{
	free(tl->types);
	free(tl->cls);
}

static void emit_accessors(struct kc_buf *b, const char *type, enum kc_elem_class cls, int i)
{
	if (cls == KC_ELEM_FLOATING)
		kc_buf_printf(b,
		              "static void kcost_fill_%d(void *p, unsigned long long n, unsigned long long *s)\n{\n"
		              "\t%s *v = p;\n\tfor (unsigned long long i = 0; i < n; i++)\n"
		              "\t\tv[i] = (%s)kcost_uniform(s);\n}\n\n",
		              i, type, type);
	kc_buf_printf(b,
	              "static double kcost_get_%d(const void *p, unsigned long long i)\n{\n"
	              "\treturn (double)((const %s *)p)[i];\n}\n\n",
	              i, type);
}

/* The wrapper that calls callee with args. What a function returns is stored in a volatile: a call whose result
 * is unused (a dot product that stores nothing) could otherwise be removed by the compiler and "run" in 30 ns. */
static void emit_call(struct kc_buf *b, const char *wrapper, int k, const char *callee, const char *const *args,
                      int n_args, const char *return_type)
{
	if (return_type)
		kc_buf_printf(b, "static volatile __typeof__(%s) kcost_%s_result_%d;\n", return_type, wrapper, k);
	kc_buf_printf(b, "static void kcost_%s_%d(void *const *kcost_b)\n{\n", wrapper, k);
	int uses_b = 0;
	for (int i = 0; i < n_args; i++)
		uses_b |= strstr(args[i], "kcost_b[") != NULL;
	if (!uses_b)
		kc_buf_puts(b, "\t(void)kcost_b;\n");
	if (return_type)
		kc_buf_printf(b, "\tkcost_%s_result_%d = %s(", wrapper, k, callee);
	else
		kc_buf_printf(b, "\t%s(", callee);
	for (int i = 0; i < n_args; i++)
		kc_buf_printf(b, "%s%s", i ? ", " : "", args[i]);
	kc_buf_puts(b, ");\n}\n\n");
}

static void emit_buffers(struct kc_buf *b, const struct kc_harness_plan *p, int k, struct type_list *tl)
{
	if (!p->n_buffers)
		return;
	kc_buf_printf(b, "static const struct kcost_buffer kcost_buffers_%d[] = {\n", k);
	for (int i = 0; i < p->n_buffers; i++) {
		const struct kc_harness_buffer *hb = &p->buffers[i];
		int t = hb->cls == KC_ELEM_OPAQUE ? -1 : type_index(tl, hb->elem_type, hb->cls);
		const char *cls = hb->cls == KC_ELEM_FLOATING  ? "KCOST_FLOATING"
		                  : hb->cls == KC_ELEM_INTEGER ? "KCOST_INTEGER"
		                                               : "KCOST_OPAQUE";
		kc_buf_printf(b, "\t{\"%s\", %lldULL, %dULL, %s, %d, ", hb->name, hb->count, hb->elem_size, cls,
		              hb->is_output);
		if (t >= 0 && hb->cls == KC_ELEM_FLOATING)
			kc_buf_printf(b, "kcost_fill_%d, kcost_get_%d},\n", t, t);
		else if (t >= 0)
			kc_buf_printf(b, "0, kcost_get_%d},\n", t);
		else
			kc_buf_puts(b, "0, 0},\n");
	}
	kc_buf_puts(b, "};\n\n");
}

static void emit_function(struct kc_buf *b, const struct kc_harness_plan *p, int k, struct type_list *tl)
{
	const struct kc_function *f = p->fn;
	kc_buf_printf(b, "/* %s */\n", f->name);
	emit_call(b, "call", k, f->name, p->args, p->n_args, f->return_type);
	if (f->init)
		emit_call(b, "init", k, f->init, p->args, p->n_args, NULL); /* KCOST_INIT: the same arguments */
	if (p->ref_args)
		emit_call(b, "ref", k, p->reference, p->ref_args, p->n_ref_args,
		          p->fn->reference_fn ? p->fn->reference_fn->return_type : NULL);
	emit_buffers(b, p, k, tl);
}

static void emit_table(struct kc_buf *b, const struct kc_harness_plan *plans, int n)
{
	kc_buf_puts(b, "static const struct kcost_function kcost_functions[] = {\n");
	int any = 0;
	for (int k = 0; k < n; k++) {
		const struct kc_harness_plan *p = &plans[k];
		if (p->error)
			continue;
		any = 1;
		kc_buf_printf(b, "\t{\"%s\", kcost_call_%d, ", p->fn->name, k);
		if (p->fn->init)
			kc_buf_printf(b, "kcost_init_%d, ", k);
		else
			kc_buf_puts(b, "0, ");
		if (p->ref_args)
			kc_buf_printf(b, "kcost_ref_%d, \"%s\", ", k, p->reference);
		else
			kc_buf_puts(b, "0, 0, ");
		if (p->n_buffers)
			kc_buf_printf(b, "kcost_buffers_%d, %d},\n", k, p->n_buffers);
		else
			kc_buf_puts(b, "0, 0},\n");
	}
	if (!any)
		kc_buf_puts(b, "\t{\"\", 0, 0, 0, 0, 0, 0},\n");
	kc_buf_puts(b, "};\n\n");
}

int kc_harness_source(struct kc_buf *b, const char *user_path, const struct kc_harness_plan *plans, int n,
                      const char **why)
{
	if (strpbrk(user_path, "\"\\\n")) {
		*why = "the file's path holds a '\"', a '\\' or a newline, which an #include line cannot name";
		return -1;
	}
	kc_buf_puts(
	    b, "/* harness.c — generated by kcost for the file included below: do not edit. See kcost_driver.h. */\n");
	kc_buf_puts(b, "#include \"kcost_driver.h\"\n\n");
	kc_buf_printf(b, "#define main kcost_user_main_\n#include \"%s\"\n#undef main\n\n", user_path);
	struct type_list tl = {NULL, NULL, 0, 0};
	for (int k = 0; k < n; k++)
		for (int i = 0; !plans[k].error && i < plans[k].n_buffers; i++)
			if (plans[k].buffers[i].cls != KC_ELEM_OPAQUE &&
			    type_index(&tl, plans[k].buffers[i].elem_type, plans[k].buffers[i].cls) < 0) {
				type_list_release(&tl);
				*why = "out of memory listing the buffers' element types";
				return -1;
			}
	for (int i = 0; i < tl.n; i++)
		emit_accessors(b, tl.types[i], tl.cls[i], i);
	for (int k = 0; k < n; k++)
		if (!plans[k].error)
			emit_function(b, &plans[k], k, &tl);
	emit_table(b, plans, n);
	kc_buf_puts(b, "int main(int argc, char **argv)\n{\n\treturn kcost_driver_main(argc, argv, kcost_functions,\n"
	               "\t                         (int)(sizeof kcost_functions / sizeof kcost_functions[0]));\n}\n");
	type_list_release(&tl);
	return 0;
}
