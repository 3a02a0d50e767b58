/* figures.h — internal to reporter/: the numbers every output shows, derived once per call from the model,
 * and their human-readable formatting. Not part of kcost's interface (report.h is). */
#ifndef KC_FIGURES_H
#define KC_FIGURES_H

#include "buf.h"
#include "measure.h"
#include "model.h"

/* One count: its polynomial, its formula, and its value at the function's benchmark sizes. */
struct kc_figure {
	const struct kc_poly *poly; /* NULL when not available (the model is not defined, or summing overflowed) */
	const char *expr;           /* formula in the function's symbols; NULL when poly is NULL */
	int has_value;
	long long value; /* valid when has_value */
	const char *why; /* why there is no value; NULL when has_value */
};

/* The cost figures of a whole function or of one nest. */
struct kc_cost_figures {
	struct kc_figure flops, transcendentals, cmp;
	struct kc_figure by_op[KC_OP_N];     /* FLOPs per category; fma counted twice */
	struct kc_figure by_prec[KC_PREC_N]; /* FLOPs per precision */
	struct kc_figure bytes[KC_MODEL_N], read[KC_MODEL_N], write[KC_MODEL_N];
	int has_intensity[KC_MODEL_N];          /* flops and bytes have values and bytes > 0 */
	double intensity[KC_MODEL_N];           /* FLOP/byte */
	const char *intensity_expr[KC_MODEL_N]; /* "n/6"; NULL when bytes is zero or not available */
};

/* Figures of f's cost `c` and traffic `t` (an array of KC_MODEL_N); a model whose read and write are both
 * NULL is "not available". Everything is allocated from `a`. */
void kc_report_cost_figures(struct kc_arena *a, const struct kc_function *f, const struct kc_cost *c,
                            const struct kc_traffic *t, struct kc_cost_figures *out);
/* The figure of one polynomial of f (p may be NULL: not available). */
void kc_report_figure(struct kc_arena *a, const struct kc_function *f, const struct kc_poly *p, struct kc_figure *out);

/* The figures of every function of an, indexed like an->functions (skipped functions left zeroed). */
struct kc_cost_figures *kc_report_function_figures(struct kc_arena *a, const struct kc_analysis *an);
/* The size of buffer buf in bytes (extent * element size); not available when the extent is unknown. */
void kc_report_buffer_bytes(struct kc_arena *a, const struct kc_function *f, const struct kc_buffer *buf,
                            struct kc_figure *out);

/* Number of functions reported (those not skipped). */
int kc_report_n_functions(const struct kc_analysis *an);
/* Index in an->functions of the reported function named `name`, or -1. */
int kc_report_function_index(const struct kc_analysis *an, const char *name);
/* f's measurement, or NULL when m is NULL or has none for f. */
const struct kc_measurement *kc_report_find_measurement(const struct kc_measurements *m, const struct kc_function *f);
/* The machine, or NULL when not measured. */
const struct kc_machine *kc_report_machine(const struct kc_measurements *m);

/* The precision with the most FLOPs (float when there are none). */
enum kc_prec kc_report_main_prec(const struct kc_cost_figures *cf);
/* Attainable GFLOP/s at `intensity` FLOP/B on machine mc for precision p: min(peak, intensity * DRAM GB/s).
 * 0 when the machine lacks the ceilings. *bound (may be NULL) is set to "compute" or "memory". */
double kc_report_roof(const struct kc_machine *mc, enum kc_prec p, double intensity, const char **bound);

/* Human-readable numbers. */
/* v with an SI prefix (powers of 1000) and the unit: "33.6 MFLOP", "16.8 MB", "512 B", "0.5 B". A unit that is a
 * lowercase word counts things: "4.2M calls", "512 elements"; an empty unit gives "4.2M", "512". */
void kc_report_si(struct kc_buf *b, double v, const char *unit);
/* A figure's value with kc_report_si, or "n/a" when it has none. */
void kc_report_si_figure(struct kc_buf *b, const struct kc_figure *fig, const char *unit);
/* Three significant digits, trailing zeros kept: "1.00", "0.111", "12.3", "456". */
void kc_report_sig3(struct kc_buf *b, double v);
/* Seconds with a fitting unit: "1.23 ms", "45.6 µs". */
void kc_report_seconds(struct kc_buf *b, double s);
/* "exact" or "approx: 2 warnings". */
void kc_report_exactness(struct kc_buf *b, const struct kc_function *f);

/* The report time as ISO-8601 UTC ("2025-01-31T12:00:00Z"): o_created if not NULL, else $SOURCE_DATE_EPOCH
 * when set, else now. Written into out[size]. */
void kc_report_created(const char *o_created, char *out, size_t size);

#endif
