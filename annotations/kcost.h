/* kcost.h — annotations for kcost, the loop-nest cost analyzer.
 *
 * Include this header in kernels you analyze with kcost. Under clang every macro becomes
 * __attribute__((annotate("kcost:..."))), which kcost reads through libclang; under any other compiler
 * (gcc, MSVC, ...) the macros expand to nothing, so annotated code builds unchanged with -Wall -Wextra -Werror.
 * Unannotated functions are analyzed too: annotations only add what the source cannot say.
 *
 * On a function (write the macro before the declaration):
 *   KCOST_SIZES(n = 1 << 20, m = 512)  benchmark sizes of the size symbols (parameters or extent names);
 *                                      the values may use + - * / << and parentheses
 *   KCOST_REFERENCE(fn)                fn computes the same outputs; the runner checks them against each other
 *   KCOST_ASSUME(lda >= k)             an assumption kcost may rely on (recorded in the report)
 *   KCOST_TRIPS(j, nnz)                every data-dependent loop over variable j runs nnz iterations in total
 *                                      per call (summed over all enclosing loops), e.g. CSR row loops
 *   KCOST_INIT(fn)                     fn(same arguments) fills the inputs before timing (index structure)
 *   KCOST_SKIP                         do not analyze or run this function (helpers, initializers)
 *
 * On a pointer parameter (write the macro after the parameter name):
 *   KCOST_EXTENT(n * k)                number of elements the pointer addresses
 *   KCOST_SCRATCH                      workspace: neither input nor output, an intermediate for fusion
 *
 * VLA parameter types (const float x[restrict n], float a[m][k]) give extents without annotation.
 */
#ifndef KCOST_H
#define KCOST_H

#if defined(__clang__)
#define KCOST_ANNOTATE_(text) __attribute__((annotate("kcost:" text)))
#else
#define KCOST_ANNOTATE_(text)
#endif

#define KCOST_SIZES(...)        KCOST_ANNOTATE_("sizes " #__VA_ARGS__)
#define KCOST_REFERENCE(fn)     KCOST_ANNOTATE_("reference " #fn)
#define KCOST_ASSUME(...)       KCOST_ANNOTATE_("assume " #__VA_ARGS__)
#define KCOST_TRIPS(var, total) KCOST_ANNOTATE_("trips " #var " " #total)
#define KCOST_INIT(fn)          KCOST_ANNOTATE_("init " #fn)
#define KCOST_SKIP              KCOST_ANNOTATE_("skip")
#define KCOST_EXTENT(...)       KCOST_ANNOTATE_("extent " #__VA_ARGS__)
#define KCOST_SCRATCH           KCOST_ANNOTATE_("scratch")

#endif
