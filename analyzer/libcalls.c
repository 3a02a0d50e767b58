/* libcalls.c — the built-in cost models of library calls: libm functions by name, CBLAS level 1-3 routines
 * (row- or column-major alike) by a table. */
#include <string.h>

#include "libcalls.h"

static const char *const transcendental_names[] = {
    "exp",   "exp2",  "expm1", "log",  "log2", "log10",  "log1p",  "pow",   "sqrt",  "cbrt",
    "sin",   "cos",   "tan",   "asin", "acos", "atan",   "atan2",  "sinh",  "cosh",  "tanh",
    "asinh", "acosh", "atanh", "erf",  "erfc", "tgamma", "lgamma", "hypot", "rsqrt", NULL};
static const char *const cmp_names[] = {"fmin", "fmax", "fabs", "copysign", NULL};
/* classification: one comparison each, whatever the suffix (glibc's isnan(x) is __builtin_isnan(x)) */
static const char *const class_names[] = {"isnan", "isinf", "isinf_sign", "isfinite", "signbit", "isnormal", NULL};
/* rounding to an integral value or an integer: no FLOP (a conversion, as a cast is) */
static const char *const rounding_names[] = {"floor",  "ceil",    "trunc", "round",  "rint", "nearbyint",
                                             "lround", "llround", "lrint", "llrint", NULL};

/* 1 if name is base, basef or basel (and the __builtin_ forms). */
static int math_family(const char *name, const char *const *bases)
{
	name = kc_libcall_math_name(name);
	size_t n = strlen(name);
	for (int i = 0; bases[i]; i++) {
		size_t b = strlen(bases[i]);
		if (strncmp(name, bases[i], b) == 0 && (n == b || (n == b + 1 && (name[b] == 'f' || name[b] == 'l'))))
			return 1;
	}
	return 0;
}

const char *kc_libcall_math_name(const char *name)
{
	return strncmp(name, "__builtin_", 10) == 0 ? name + 10 : name;
}

enum kc_libm_kind kc_libcall_math(const char *name)
{
	if (math_family(name, transcendental_names))
		return KC_LIBM_TRANSCENDENTAL;
	if (math_family(name, cmp_names) || math_family(name, class_names))
		return KC_LIBM_COMPARE;
	if (math_family(name, rounding_names))
		return KC_LIBM_ROUNDING;
	if (strcmp(name, "fma") == 0 || strcmp(name, "fmaf") == 0 || strcmp(name, "fmal") == 0)
		return KC_LIBM_FMA;
	return KC_LIBM_NONE;
}

int kc_libcall_is_alloc(const char *name)
{
	return !strcmp(name, "malloc") || !strcmp(name, "calloc") || !strcmp(name, "free") ||
	       !strcmp(name, "aligned_alloc") || !strcmp(name, "posix_memalign");
}

/* name is one of list's (NULL-terminated) */
static int named_in(const char *name, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

int kc_libcall_is_io(const char *name)
{
	static const char *const io[] = {"printf",  "fprintf", "vprintf", "vfprintf", "dprintf", "puts",   "fputs",
	                                 "putchar", "putc",    "fputc",   "fwrite",   "fflush",  "perror", "fread",
	                                 "fgets",   "fgetc",   "getc",    "getchar",  "scanf",   "fscanf", NULL};
	return named_in(name, io);
}

int kc_libcall_is_free(const char *name)
{
	/* clang-format off */
	static const char *const free_names[] = {
	    "memset", "memcpy", "memmove", "memcmp", "memchr", "strlen", "strcpy", "strncpy", "strcmp", "strncmp",
	    "strcat", "strchr", "strrchr", "strstr", "strdup", "sprintf", "snprintf", "abs", "labs", "llabs",
	    "rand", "srand", "random", "srandom", "drand48", "srand48", "atoi", "atol", "atoll", "atof", "strtol",
	    "strtoul", "strtoll", "strtoull", "strtod", "strtof", "exit", "_Exit", "abort", "assert", "__assert_fail",
	    "__assert_rtn",
	    "__builtin_memset", "__builtin_memcpy", "__builtin_memmove", "__builtin_expect",
	    "__builtin_unreachable", "__builtin_trap", "__builtin_prefetch",
	    /* POSIX: files, processes, time (system calls, no floating-point work of the kernel's) */
	    "open", "close", "read", "write", "lseek", "unlink", "remove", "fopen", "fclose", "fseek", "ftell",
	    "rewind", "mkdir", "access", "stat", "fstat", "pipe", "dup", "dup2", "fork", "waitpid", "wait", "kill",
	    "raise", "signal", "sigaction", "setsid", "getpid", "getppid", "_exit", "atexit", "getenv", "setenv",
	    "sleep", "usleep", "nanosleep", "time", "clock", "clock_gettime", "gettimeofday", "mmap", "munmap",
	    "mprotect", "sysconf", "execv", "execve", "execvp", "execl", "execlp", NULL};
	/* clang-format on */
	return named_in(name, free_names);
}

int kc_libcall_is_assert(const char *name)
{
	static const char *const names[] = {"__assert_fail",
	                                    "__assert_perror_fail",
	                                    "__assert_rtn",
	                                    "__assert",
	                                    "_assert",
	                                    "_wassert",
	                                    "__builtin_unreachable",
	                                    NULL};
	return named_in(name, names);
}

/* ------------------------------------------------------------------------------------------------ */
/* CBLAS */

/* gemm: C = alpha*A*B + beta*C: m*n*k fused multiply-adds (2*m*n*k FLOPs); reads A (m*k) and B (k*n), and C
 * (m*n) unless beta == 0; writes C */
static int gemm_cost(struct kc_arena *a, struct kc_poly *const *size, long long es, int reads_c, int prec,
                     struct kc_cost *cost, struct kc_traffic *min)
{
	struct kc_poly *m = size[0], *n = size[1], *k = size[2], *mn, *mk, *kn, *ab;
	if (kc_poly_mul(a, m, n, &mn) < 0 || kc_poly_mul(a, mn, k, &cost->ops[KC_OP_FMA][prec]) < 0 ||
	    kc_poly_mul(a, m, k, &mk) < 0 || kc_poly_mul(a, k, n, &kn) < 0 || kc_poly_add(a, mk, kn, &ab) < 0 ||
	    (reads_c && kc_poly_add(a, ab, mn, &ab) < 0) || kc_poly_scale(a, ab, kc_rat_int(es), &min->read) < 0 ||
	    kc_poly_scale(a, mn, kc_rat_int(es), &min->write) < 0)
		return -1;
	return 0;
}

/* gemv: y = alpha*A*x + beta*y: m*n fused multiply-adds; reads A (m*n), x (n) and y (m); writes y */
static int gemv_cost(struct kc_arena *a, struct kc_poly *const *size, long long es, int reads_c, int prec,
                     struct kc_cost *cost, struct kc_traffic *min)
{
	(void)reads_c;
	struct kc_poly *m = size[0], *n = size[1], *mn, *sum;
	if (kc_poly_mul(a, m, n, &mn) < 0 || kc_poly_add(a, m, n, &sum) < 0 || kc_poly_add(a, mn, sum, &sum) < 0 ||
	    kc_poly_scale(a, sum, kc_rat_int(es), &min->read) < 0 ||
	    kc_poly_scale(a, m, kc_rat_int(es), &min->write) < 0)
		return -1;
	cost->ops[KC_OP_FMA][prec] = mn;
	return 0;
}

/* axpy: y = alpha*x + y: n fused multiply-adds; reads x and y, writes y */
static int axpy_cost(struct kc_arena *a, struct kc_poly *const *size, long long es, int reads_c, int prec,
                     struct kc_cost *cost, struct kc_traffic *min)
{
	(void)reads_c;
	struct kc_poly *n = size[0];
	if (kc_poly_scale(a, n, kc_rat_int(2 * es), &min->read) < 0 ||
	    kc_poly_scale(a, n, kc_rat_int(es), &min->write) < 0)
		return -1;
	cost->ops[KC_OP_FMA][prec] = n;
	return 0;
}

/* dot: n fused multiply-adds; reads x and y */
static int dot_cost(struct kc_arena *a, struct kc_poly *const *size, long long es, int reads_c, int prec,
                    struct kc_cost *cost, struct kc_traffic *min)
{
	(void)reads_c;
	struct kc_poly *n = size[0];
	if (kc_poly_scale(a, n, kc_rat_int(2 * es), &min->read) < 0)
		return -1;
	min->write = kc_poly_zero(a);
	cost->ops[KC_OP_FMA][prec] = n;
	return 0;
}

/* scal: x = alpha*x: n multiplications; reads and writes x */
static int scal_cost(struct kc_arena *a, struct kc_poly *const *size, long long es, int reads_c, int prec,
                     struct kc_cost *cost, struct kc_traffic *min)
{
	(void)reads_c;
	struct kc_poly *n = size[0];
	if (kc_poly_scale(a, n, kc_rat_int(es), &min->read) < 0 || kc_poly_scale(a, n, kc_rat_int(es), &min->write) < 0)
		return -1;
	cost->ops[KC_OP_MUL][prec] = n;
	return 0;
}

/* Argument positions as in the CBLAS prototypes, e.g. cblas_sgemm(layout, transA, transB, M, N, K, alpha, A,
 * lda, B, ldb, beta, C, ldc). */
static const struct kc_libcall cblas[] = {
    {"gemm", 14, 3, {3, 4, 5}, 11, 3, {7, 9, 12}, {KC_LIB_READ, KC_LIB_READ, KC_LIB_OUT}, gemm_cost},
    {"gemv", 12, 2, {2, 3}, -1, 3, {5, 7, 10}, {KC_LIB_READ, KC_LIB_READ, KC_LIB_RW}, gemv_cost},
    {"axpy", 6, 1, {0}, -1, 2, {2, 4}, {KC_LIB_READ, KC_LIB_RW}, axpy_cost},
    {"dot", 5, 1, {0}, -1, 2, {1, 3}, {KC_LIB_READ, KC_LIB_READ}, dot_cost},
    {"scal", 4, 1, {0}, -1, 1, {2}, {KC_LIB_RW}, scal_cost},
};

int kc_libcall_find(const char *name, int nargs, int *prec, const struct kc_libcall **model)
{
	if (!strncmp(name, "cblas_s", 7))
		*prec = KC_PREC_F32;
	else if (!strncmp(name, "cblas_d", 7))
		*prec = KC_PREC_F64;
	else
		return 0;
	*model = NULL;
	for (size_t i = 0; i < sizeof cblas / sizeof cblas[0]; i++)
		if (!strcmp(name + 7, cblas[i].op) && nargs == cblas[i].nargs)
			*model = &cblas[i];
	return 1;
}
