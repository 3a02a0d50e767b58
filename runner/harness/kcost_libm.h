/* kcost_libm.h — the libm functions kcost times, each with the arguments it sweeps: one list for the ceilings
 * (runner/peak.c, in kcost's own process) and for the harness driver (kcost_driver.c, which sweeps the ones a
 * kernel calls in the kernel's own process, between its timed calls). Included by the driver's translation unit,
 * never by harness.c: the user's file sees none of it.
 *
 * KCOST_LIBM_FUNCTIONS(X) calls X(kind, name, lo, hi, lo2, hi2) once per function: kind F1 float(float),
 * D1 double(double), F2 float(float, float), D2 double(double, double); the first argument is spread over
 * [lo, hi), the second (F2, D2) over [lo2, hi2). */
#ifndef KCOST_LIBM_H
#define KCOST_LIBM_H

#define KCOST_LIBM_PI 3.14159265358979323846

#define KCOST_LIBM_FUNCTIONS(X)                                                                                        \
	X(F1, expf, -10, 10, 0, 0)                                                                                     \
	X(D1, exp, -10, 10, 0, 0)                                                                                      \
	X(F1, exp2f, -10, 10, 0, 0)                                                                                    \
	X(D1, exp2, -10, 10, 0, 0)                                                                                     \
	X(F1, expm1f, -1, 1, 0, 0)                                                                                     \
	X(D1, expm1, -1, 1, 0, 0)                                                                                      \
	X(F1, logf, 0.01, 100, 0, 0)                                                                                   \
	X(D1, log, 0.01, 100, 0, 0)                                                                                    \
	X(F1, log2f, 0.01, 100, 0, 0)                                                                                  \
	X(D1, log2, 0.01, 100, 0, 0)                                                                                   \
	X(F1, log10f, 0.01, 100, 0, 0)                                                                                 \
	X(D1, log10, 0.01, 100, 0, 0)                                                                                  \
	X(F1, log1pf, -0.5, 10, 0, 0)                                                                                  \
	X(D1, log1p, -0.5, 10, 0, 0)                                                                                   \
	X(F2, powf, 0.5, 2, -4, 4)                                                                                     \
	X(D2, pow, 0.5, 2, -4, 4)                                                                                      \
	X(F1, sqrtf, 0, 100, 0, 0)                                                                                     \
	X(D1, sqrt, 0, 100, 0, 0)                                                                                      \
	X(F1, cbrtf, -100, 100, 0, 0)                                                                                  \
	X(D1, cbrt, -100, 100, 0, 0)                                                                                   \
	X(F1, sinf, -KCOST_LIBM_PI, KCOST_LIBM_PI, 0, 0)                                                               \
	X(D1, sin, -KCOST_LIBM_PI, KCOST_LIBM_PI, 0, 0)                                                                \
	X(F1, cosf, -KCOST_LIBM_PI, KCOST_LIBM_PI, 0, 0)                                                               \
	X(D1, cos, -KCOST_LIBM_PI, KCOST_LIBM_PI, 0, 0)                                                                \
	X(F1, tanf, -1.5, 1.5, 0, 0)                                                                                   \
	X(D1, tan, -1.5, 1.5, 0, 0)                                                                                    \
	X(F1, asinf, -1, 1, 0, 0)                                                                                      \
	X(D1, asin, -1, 1, 0, 0)                                                                                       \
	X(F1, acosf, -1, 1, 0, 0)                                                                                      \
	X(D1, acos, -1, 1, 0, 0)                                                                                       \
	X(F1, atanf, -10, 10, 0, 0)                                                                                    \
	X(D1, atan, -10, 10, 0, 0)                                                                                     \
	X(F2, atan2f, -1, 1, 0.5, 2)                                                                                   \
	X(D2, atan2, -1, 1, 0.5, 2)                                                                                    \
	X(F1, sinhf, -5, 5, 0, 0)                                                                                      \
	X(D1, sinh, -5, 5, 0, 0)                                                                                       \
	X(F1, coshf, -5, 5, 0, 0)                                                                                      \
	X(D1, cosh, -5, 5, 0, 0)                                                                                       \
	X(F1, tanhf, -5, 5, 0, 0)                                                                                      \
	X(D1, tanh, -5, 5, 0, 0)                                                                                       \
	X(F1, asinhf, -10, 10, 0, 0)                                                                                   \
	X(D1, asinh, -10, 10, 0, 0)                                                                                    \
	X(F1, acoshf, 1, 10, 0, 0)                                                                                     \
	X(D1, acosh, 1, 10, 0, 0)                                                                                      \
	X(F1, atanhf, -0.99, 0.99, 0, 0)                                                                               \
	X(D1, atanh, -0.99, 0.99, 0, 0)                                                                                \
	X(F1, erff, -3, 3, 0, 0)                                                                                       \
	X(D1, erf, -3, 3, 0, 0)                                                                                        \
	X(F1, erfcf, -3, 3, 0, 0)                                                                                      \
	X(D1, erfc, -3, 3, 0, 0)                                                                                       \
	X(F1, tgammaf, 0.5, 10, 0, 0)                                                                                  \
	X(D1, tgamma, 0.5, 10, 0, 0)                                                                                   \
	X(F1, lgammaf, 0.5, 10, 0, 0)                                                                                  \
	X(D1, lgamma, 0.5, 10, 0, 0)                                                                                   \
	X(F2, hypotf, -10, 10, -10, 10)                                                                                \
	X(D2, hypot, -10, 10, -10, 10)

/* The next argument in [lo, hi): a 64-bit linear congruential generator (Knuth's MMIX constants), the harness's
 * (kcost_uniform): uniform at random, so a libm function's branches on its argument's magnitude are predicted as
 * badly as over a kernel's data. Both sweeps draw x then y for each argument from one state, starting at
 * KCOST_LIBM_SEED. */
#define KCOST_LIBM_SEED 0x9E3779B97F4A7C15ULL
static inline double kcost_libm_arg(unsigned long long *state, double lo, double hi)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lo + (hi - lo) * ((double)(*state >> 11) * (1.0 / 9007199254740992.0));
}

#endif
