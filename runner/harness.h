/* harness.h — the generated harness: which kernels can run and with what arguments (the plan), and the C source
 * that runs them. The fixed part of the harness (allocation, timing, checks) is runner/harness/kcost_driver.c,
 * embedded into kcost at build time; see runner/harness/kcost_driver.h for the program's command line. */
#ifndef KC_HARNESS_H
#define KC_HARNESS_H

#include "analysis.h"

/* The fixed driver sources (NUL-terminated), written next to each generated harness.c. */
extern const unsigned char kc_harness_kcost_driver_c[];
extern const unsigned char kc_harness_kcost_driver_h[];
extern const unsigned char kc_harness_kcost_libm_h[];
extern const size_t kc_harness_kcost_driver_c_len, kc_harness_kcost_driver_h_len, kc_harness_kcost_libm_h_len;

/* How the harness fills a buffer's elements, from the element type's canonical C spelling:
 * floating ("float", "double", "long double", "_Float16", ...) with values in [0.5, 1.5);
 * integer ("int", "unsigned long", "enum e", "_Bool", ...) and opaque (struct, union) with zeros;
 * pointer ("float *", function pointers) cannot be filled, so such a kernel is not run. */

struct kc_harness_buffer {
	const char *name;      /* the parameter's name */
	const char *elem_type; /* canonical C spelling, "float" */
	int elem_size;
	enum kc_elem_class cls;
	long long count; /* elements at the benchmark sizes */
	int is_output;   /* role output or inout: checksummed and compared with the reference */
};

/* What the harness does with one function. Everything is allocated from the arena given to kc_harness_plan. */
struct kc_harness_plan {
	const struct kc_function *fn;
	/* Non-NULL: the function cannot run, and why: "not run: size n has no benchmark value (annotate
	 * KCOST_SIZES or pass --size)", "not run: extent of p is unknown (annotate KCOST_EXTENT)", ... The fields
	 * below are then unset. */
	const char *error;
	struct kc_harness_buffer *buffers; /* the buffer parameters, in parameter order */
	int n_buffers;
	const char **args; /* the call's argument expressions in parameter order: "(int)4194304", "kcost_b[0]" */
	int n_args;
	const char *reference; /* fn->reference */
	const char **ref_args; /* the reference's arguments (matched by parameter name); NULL: not checked */
	int n_ref_args;
	const char *reference_note; /* why a declared reference is not checked */
	long long bytes;            /* sum of the buffers' bytes */
};

/* Plan the harness of f at its benchmark sizes: sizes get their values, buffers their extents (kc_function_eval
 * on the extent) and a slot in the buffer table, float scalars their kc_param.value. ref is the analyzed
 * function f->reference names, or NULL when it was not analyzed; it is checked only when its parameters have
 * the same names and kinds (buffers: the same element size and class) as f's, in any order. */
void kc_harness_plan(struct kc_arena *a, const struct kc_function *f, const struct kc_function *ref,
                     struct kc_harness_plan *p);

/* Append to b the harness.c of one input file: includes kcost_driver.h, then `#define main kcost_user_main_`,
 * `#include "<user_path>"`, `#undef main`, then a call wrapper and a buffer table per runnable plan (plans
 * with an error are left out) and main(), which hands everything to kcost_driver_main. user_path should be
 * absolute. Returns -1 with *why set when user_path cannot appear in an #include line (it holds '"', '\\' or
 * a newline), or when memory runs out. */
int kc_harness_source(struct kc_buf *b, const char *user_path, const struct kc_harness_plan *plans, int n,
                      const char **why);

#endif
