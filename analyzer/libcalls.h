/* libcalls.h — private to the front end: the built-in cost models of library calls, as plain data (no
 * libclang): libm functions by name, CBLAS routines as a table of argument positions and cost formulas. */
#ifndef KC_LIBCALLS_H
#define KC_LIBCALLS_H

#include "analysis.h"

/* What a libm call costs. */
enum kc_libm_kind {
	KC_LIBM_NONE,           /* not a libm function with a model */
	KC_LIBM_TRANSCENDENTAL, /* exp, tanh, sqrt, ... in their f, l and __builtin_ forms: one call of its name */
	KC_LIBM_COMPARE,        /* fmin, fmax, fabs, copysign; isnan, isinf, isfinite, signbit: one comparison */
	KC_LIBM_FMA,            /* fma, fmaf, fmal: one fused multiply-add */
	KC_LIBM_ROUNDING,       /* floor, ceil, trunc, round, rint, nearbyint, lround, lrint, ...: no operation */
};
enum kc_libm_kind kc_libcall_math(const char *name);

/* The name a transcendental call is counted under: name without a __builtin_ prefix (a suffix of name). */
const char *kc_libcall_math_name(const char *name);

/* 1 for the allocation functions (malloc, calloc, free, aligned_alloc, posix_memalign): no FLOPs. */
int kc_libcall_is_alloc(const char *name);

/* 1 for the stdio functions that read or write a stream (printf, fprintf, puts, fwrite, fgets, scanf, ...): I/O,
 * not arithmetic (sprintf and snprintf, which write a buffer, are not among them). */
int kc_libcall_is_io(const char *name);

/* 1 for the C library's and POSIX's functions that do no floating-point arithmetic on the kernel's behalf:
 * memory and strings (memset, memcpy, strlen, ...), integer and process helpers (abs, rand, exit, abort, ...),
 * parsing numbers (atoi, strtol, strtod: the conversion is the library's work, not the kernel's),
 * files, processes and time (open, fork, kill, clock_gettime, ...). Any other
 * function neither the file nor a header of the user's defines is unknown: a warning, in or out of loops. */
int kc_libcall_is_free(const char *name);

/* 1 for what a failed assertion calls (__assert_fail, __assert_rtn, ...) and __builtin_unreachable: calls that do
 * not return, which a correct program never makes; no note at them (kcost notes the other ones: exit, abort). */
int kc_libcall_is_assert(const char *name);

/* How a CBLAS routine uses a buffer argument. */
enum { KC_LIB_READ = 1, KC_LIB_WRITE = 2, KC_LIB_RW = 3, KC_LIB_OUT = 4 /* written; read unless beta is 0 */ };

#define KC_LIB_MAX_ARGS 3

/* A CBLAS routine: where its sizes (m, n, k: the ones it has, in this order), its beta and its buffers are in
 * the argument list, and its cost. */
struct kc_libcall {
	const char *op; /* the name after the precision prefix: "gemm" */
	int nargs;
	int n_sizes, size_arg[KC_LIB_MAX_ARGS];
	int beta_arg; /* -1: none */
	int n_buffers, buffer_arg[KC_LIB_MAX_ARGS], buffer_role[KC_LIB_MAX_ARGS];
	/* cost of one call with the given sizes, elements of es bytes, and C read (beta != 0) or not: FLOPs into
	 * cost->ops[..][prec], the minimum traffic into *min; -1 on overflow */
	int (*cost)(struct kc_arena *a, struct kc_poly *const *size, long long es, int reads_c, int prec,
	            struct kc_cost *cost, struct kc_traffic *min);
};

/* 0 if name is no CBLAS routine (it does not start with cblas_s or cblas_d). Else 1, with *prec its precision
 * and *model its model for a call with nargs arguments, or NULL when there is none (the call is not counted). */
int kc_libcall_find(const char *name, int nargs, int *prec, const struct kc_libcall **model);

#endif
