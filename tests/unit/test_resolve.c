/* test_resolve.c — what the analyzer resolves once for the later stages: each buffer's element class from
 * its clang type, each function's reference, its index and its file's index. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyzer.h"

static const char types_text[] =
    "#include <kcost.h>\n"
    "typedef float real;\n"
    "enum color { RED, GREEN };\n"
    "struct particle { float x, v; };\n"
    "typedef void (*callback)(int);\n"
    "void ref(int n, const real a[n], long double b[n], _Float16 c[n], unsigned long long d[n],\n"
    "         enum color e[n], struct particle p[n], int *q[n], callback cb[n], _Bool f[n])\n"
    "{\n"
    "\tfor (int i = 0; i < n; i++) { b[i] = a[i]; d[i] = e[i]; f[i] = p[i].x > 0; (void)c; (void)q; (void)cb; }\n"
    "}\n"
    "KCOST_REFERENCE(ref)\n"
    "void impl(int n, const real a[n], long double b[n], _Float16 c[n], unsigned long long d[n],\n"
    "          enum color e[n], struct particle p[n], int *q[n], callback cb[n], _Bool f[n])\n"
    "{\n"
    "\tref(n, a, b, c, d, e, p, q, cb, f);\n"
    "}\n"
    "KCOST_REFERENCE(missing)\n"
    "void orphan(int n, float x[n]) { for (int i = 0; i < n; i++) x[i] = 0; }\n";

static const struct kc_function *named(const struct kc_analysis *an, const char *name)
{
	for (int i = 0; i < an->n_functions; i++)
		if (!strcmp(an->functions[i]->name, name))
			return an->functions[i];
	return NULL;
}

static const struct kc_buffer *buffer(const struct kc_function *f, const char *name)
{
	for (int i = 0; i < f->n_buffers; i++)
		if (!strcmp(f->buffers[i].name, name))
			return &f->buffers[i];
	return NULL;
}

static void test_resolved_once(void **state)
{
	(void)state;
	char dir[] = "/tmp/kc_test_resolve_XXXXXX", path[2][64];
	assert_non_null(mkdtemp(dir));
	for (int k = 0; k < 2; k++) {
		snprintf(path[k], sizeof path[k], "%s/t%d.c", dir, k);
		FILE *f = fopen(path[k], "w");
		assert_non_null(f);
		fputs(k ? "void other(int n, double y[n]) { for (int i = 0; i < n; i++) y[i] *= 2; }\n" : types_text,
		      f);
		fclose(f);
	}
	const char *files[] = {path[0], path[1]};
	struct kc_analysis an = {0};
	struct kc_analyze_opts o = {.include_dir = KCOST_SOURCE_DIR "/annotations"};
	assert_int_equal(kc_analyze(&an, files, 2, &o), 0);

	const struct kc_function *ref = named(&an, "ref"), *impl = named(&an, "impl"), *orphan = named(&an, "orphan"),
	                         *other = named(&an, "other");
	assert_non_null(ref);
	assert_non_null(impl);
	assert_non_null(orphan);
	assert_non_null(other);
	static const struct {
		const char *name;
		enum kc_elem_class cls;
	} want[] = {{"a", KC_ELEM_FLOATING}, {"b", KC_ELEM_FLOATING}, {"c", KC_ELEM_FLOATING},
	            {"d", KC_ELEM_INTEGER},  {"e", KC_ELEM_INTEGER},  {"p", KC_ELEM_OPAQUE},
	            {"q", KC_ELEM_POINTER},  {"cb", KC_ELEM_POINTER}, {"f", KC_ELEM_INTEGER}};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct kc_buffer *b = buffer(ref, want[i].name);
		assert_non_null(b);
		if (b->elem_class != want[i].cls)
			fail_msg("buffer %s (%s): class %d, want %d", b->name, b->elem_type, (int)b->elem_class,
			         (int)want[i].cls);
	}
	assert_string_equal(buffer(ref, "a")->elem_type, "float"); /* the canonical spelling, typedef resolved */

	assert_ptr_equal(impl->reference_fn, ref);
	assert_null(orphan->reference_fn); /* KCOST_REFERENCE(missing): the name stays, nothing to point at */
	assert_string_equal(orphan->reference, "missing");
	assert_null(ref->reference_fn);

	for (int i = 0; i < an.n_functions; i++)
		assert_int_equal(an.functions[i]->index, i);
	assert_int_equal(ref->file_index, 0);
	assert_int_equal(orphan->file_index, 0);
	assert_int_equal(other->file_index, 1);
	kc_analysis_release(&an);
	remove(path[0]);
	remove(path[1]);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_resolved_once)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
