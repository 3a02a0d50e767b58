/* figures.h — internal to reporter/: the numbers every output shows (sums of counts, their formulas, their values
 * at the benchmark sizes, intensities, roofs), derived from the model once per report and shared by the outputs,
 * which only format them. Not part of kcost's interface (report.h is). */
#ifndef KC_FIGURES_H
#define KC_FIGURES_H

#include "analysis.h"
#include "arena.h"
#include "buf.h"
#include "measure.h"
#include "predict.h"

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

/* The figure of one polynomial of f (p may be NULL: not available), its formula allocated from a. For many
 * figures of one function, kc_figure_of is cheaper. */
void kc_figure_make(struct kc_arena *a, const struct kc_function *f, const struct kc_poly *p, struct kc_figure *out);

/* Figures formatted once: a function's counts repeat the same few polynomials (8*n FLOPs, 8*n bytes under
 * every model, 4*n read and written), and an output that asks for the figure of a polynomial equal to one
 * it asked for before, of the same function, gets a copy instead of formatting and evaluating it again.
 * Each output keeps its own memo (outputs may be rendered concurrently); formulas go into `a`. */
#define KC_FIGURE_MEMO_N 32
struct kc_figure_memo {
	struct kc_arena *a;
	const struct kc_function *f; /* the function of the entries */
	int n, next;
	const struct kc_poly *poly[KC_FIGURE_MEMO_N];
	struct kc_figure fig[KC_FIGURE_MEMO_N];
	struct kc_buf text; /* scratch for formulas */
};
/* An empty memo whose formulas go into a (which must outlive the figures it hands out). */
void kc_figure_memo_init(struct kc_figure_memo *m, struct kc_arena *a);
/* Forget the entries (call it when the arena they live in is reset). */
void kc_figure_memo_clear(struct kc_figure_memo *m);
/* Free the scratch text; the formulas stay in the arena. */
void kc_figure_memo_release(struct kc_figure_memo *m);
/* kc_figure_make through the memo: the memo's entries are forgotten when f is not their function. */
void kc_figure_of(struct kc_figure_memo *m, const struct kc_function *f, const struct kc_poly *p,
                  struct kc_figure *out);
/* The size of buffer buf of f in bytes (extent * element size); not available when the extent is unknown
 * or the product overflows. */
void kc_figure_buffer_bytes(struct kc_figure_memo *m, const struct kc_function *f, const struct kc_buffer *buf,
                            struct kc_figure *out);

/* The figures of one nest: its cost and its trip count. */
struct kc_nest_figures {
	struct kc_cost_figures cost;
	struct kc_figure trips;      /* "not available" for calls */
	struct kc_figure chain;      /* the dependent updates of an accumulator (kc_nest.chain); no poly: none */
	struct kc_figure chain_runs; /* the runs of its loop (kc_nest.chain_runs); no poly: not known */
};

struct kc_report_graph; /* graphs.h */

/* The figures of a whole report. Deriving them (sums of counts, formulas, reduced intensity ratios) costs far
 * more than writing them, so kc_report_write derives them once and every output reads the same ones.
 * kc_figures_init fills functions[]; a nest's figures are derived on first use (the terminal table never needs
 * them) unless kc_figures_derive was asked for them. */
struct kc_report_figures {
	const struct kc_analysis *an;
	struct kc_report_graph *graphs; /* indexed like an->functions once kc_graphs_render ran, else NULL */
	struct kc_arena arena;
	struct kc_arena helper_arena;      /* what a helper thread derived and rendered (report.c) */
	struct kc_cost_figures *functions; /* indexed like an->functions; skipped functions left zeroed */
	struct kc_nest_figures **nests;    /* nests[i][j] once derived, for function i and nest j */
};

/* Every reported function's figures (not its nests'), in rf->arena. Release with kc_figures_release. */
void kc_figures_init(struct kc_report_figures *rf, const struct kc_analysis *an);
/* The two halves of kc_figures_init: room for every function's figures, then the figures of functions
 * from .. to-1 (and of their nests when with_nests), allocated from `a`. Threads may derive disjoint ranges
 * at once, each into an arena of its own. */
void kc_figures_alloc(struct kc_report_figures *rf, const struct kc_analysis *an);
void kc_figures_derive(struct kc_report_figures *rf, struct kc_arena *a, int from, int to, int with_nests);
/* The figures of nest j of function i (an index into an->functions), derived into rf->arena on first use:
 * not thread-safe unless kc_figures_derive derived them with_nests. */
const struct kc_nest_figures *kc_figures_nest(struct kc_report_figures *rf, int i, int j);
/* Free both arenas (figures, graphs, the helper's texts). */
void kc_figures_release(struct kc_report_figures *rf);

/* Number of functions reported (those not skipped). */
int kc_figures_n_functions(const struct kc_analysis *an);
/* Index in an->functions of the reported function named `name`, or -1 (also when name is NULL). */
int kc_figures_function_index(const struct kc_analysis *an, const char *name);
/* f's measurement, or NULL when m is NULL or has none for f. */
const struct kc_measurement *kc_figures_measurement(const struct kc_measurements *m, const struct kc_function *f);
/* The machine, or NULL when not measured (m NULL or without a machine). */
const struct kc_machine *kc_figures_machine(const struct kc_measurements *m);

/* What a function's measurement comes to against its figures: every output shows some of these, all derived by
 * the same rule. */
struct kc_measured_figures {
	const struct kc_measurement *me; /* NULL when f was not measured: the rest is then zero */
	int timed;                       /* a median time and no error */
	int has_rate;                    /* timed, and the FLOPs have a value */
	double flop_per_s;               /* FLOPs / median time, when has_rate */
	double gflops;                   /* flop_per_s / 1e9 */
	int has_traffic;                 /* DRAM bytes were measured */
	double byte_per_s;               /* DRAM bytes / median time, when timed and has_traffic */
	double intensity;                /* FLOPs / DRAM bytes, when has_rate and has_traffic */
	double at;                       /* where its roof is read: that intensity, else the min model's (0: none) */
	double roof;                     /* attainable GFLOP/s at `at` (kc_figures_roof); 0 without ceilings */
	int has_fraction;                /* has_rate and roof > 0 */
	double fraction;                 /* gflops / roof: how close to its roof it ran */
	/* has_rate, and f's FLOP count is not exact (or its traffic is not, where the point's intensity is the
	 * min model's, no traffic being measured): the rate, the intensity and the fraction are derived from a
	 * count that is not exact, so every output marks them approximate rather than measured */
	int approx;
};
/* The measured figures of f (whose figures are cf) from m, which may be NULL. */
void kc_figures_measured(const struct kc_measurements *m, const struct kc_function *f, const struct kc_cost_figures *cf,
                         struct kc_measured_figures *out);

/* The time model's prediction of f on m's machine (model/predict.h), with what the compiler said it vectorized
 * when the measurement carries it; from a. out->ok 0 (and why) when it cannot be predicted. */
/* Whether the compiler command cc (a harness's: "cc -O3 -march=native ...") contracts a*b + c into an FMA: one
 * that targets FMA (-march=, -mfma), and clang unless -ffp-contract=off, gcc in its GNU modes (no -std=c..), with
 * -ffast-math or -Ofast, or -ffp-contract=fast (gcc before 14 takes =on as =off); the last word of each kind
 * decides. */
int kc_figures_contracts(const char *cc);

void kc_figures_predict(struct kc_arena *a, const struct kc_measurements *m, const struct kc_function *f,
                        struct kc_prediction *out);

/* The precision with the most FLOPs (float when there are none). */
enum kc_prec kc_figures_main_prec(const struct kc_cost_figures *cf);
/* Attainable GFLOP/s at `intensity` FLOP/B on machine mc for precision p: min(peak, intensity * DRAM GB/s).
 * 0 when mc is NULL or lacks the ceilings. *bound (may be NULL) is set to "compute" or "memory". */
double kc_figures_roof(const struct kc_machine *mc, enum kc_prec p, double intensity, const char **bound);

#endif
