/* figures.h — internal to reporter/: the numbers every output shows, derived from the model once per report
 * and shared by its outputs, and their human-readable formatting. Not part of kcost's interface (report.h is). */
#ifndef KC_FIGURES_H
#define KC_FIGURES_H

#include <pthread.h>

#include "buf.h"
#include "measure.h"
#include "analysis.h"
#include "report.h"

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
void kc_figure_memo_init(struct kc_figure_memo *m, struct kc_arena *a);
/* Forget the entries (call it when the arena they live in is reset). */
void kc_figure_memo_clear(struct kc_figure_memo *m);
void kc_figure_memo_release(struct kc_figure_memo *m);
/* kc_report_figure through the memo. */
void kc_figure_of(struct kc_figure_memo *m, const struct kc_function *f, const struct kc_poly *p, struct kc_figure *out);

/* The figures of one nest: its cost and its trip count. */
struct kc_nest_figures {
	struct kc_cost_figures cost;
	struct kc_figure trips; /* "not available" for calls */
};

/* A function's rendered dataflow graph: written to <out>/<base>.svg and .dot, inlined in the page. */
struct kc_report_graph {
	const char *base;  /* "graphs/gelu_unfused" */
	const char *svg, *dot;
	const char *error; /* why it could not be rendered; svg and dot are then NULL */
};

/* The figures of a whole report. Deriving them (sums of counts, formulas, reduced intensity ratios) costs far
 * more than writing them, so kc_report_write derives them once and every output reads the same ones.
 * kc_report_figures_init fills functions[]; a nest's figures are derived on first use (the terminal table
 * never needs them) unless kc_report_figures_derive was asked for them. */
struct kc_report_figures {
	const struct kc_analysis *an;
	struct kc_report_graph *graphs;    /* indexed like an->functions, once kc_report_graphs ran */
	struct kc_arena arena;
	struct kc_arena helper_arena;      /* what a helper thread derived (kc_report_write) */
	struct kc_cost_figures *functions; /* indexed like an->functions; skipped functions left zeroed */
	struct kc_nest_figures **nests;    /* nests[i][j] once derived, for function i and nest j */
};

void kc_report_figures_init(struct kc_report_figures *rf, const struct kc_analysis *an);
/* The two halves of kc_report_figures_init: room for every function's figures, then the figures of functions
 * from .. to-1 (and of their nests when with_nests), allocated from `a`. Threads may derive disjoint ranges
 * at once, each into an arena of its own. */
void kc_report_figures_alloc(struct kc_report_figures *rf, const struct kc_analysis *an);
void kc_report_figures_derive(struct kc_report_figures *rf, struct kc_arena *a, int from, int to, int with_nests);
/* The figures of nest j of function i (an index into an->functions). */
const struct kc_nest_figures *kc_report_nest_figures(struct kc_report_figures *rf, int i, int j);
void kc_report_figures_release(struct kc_report_figures *rf);
/* Where function i's graph goes, without extension: "graphs/<name>", or "graphs/<name>-<i>" when another
 * reported function has the same name. */
const char *kc_report_graph_base(struct kc_arena *a, const struct kc_analysis *an, int i);
/* Render the dataflow graphs (once); rf->graphs is then set. */
void kc_report_graphs(struct kc_report_figures *rf);

/* Where a long output goes: text is appended to *b, and when out is not NULL, kc_report_drain empties b into
 * out as it fills. The files of a large report run to megabytes; a buffer that held one whole would touch
 * fresh memory at every doubling, which costs more than writing the file. */
struct kc_report_sink {
	struct kc_buf *b;
	FILE *out;  /* NULL: everything stays in b */
	int errnum; /* of the first failed write; 0 if none */
};

#define KC_REPORT_CHUNK (64u << 10)
/* Write what b holds to out and empty b: always when `all`, else once it passes KC_REPORT_CHUNK. */
void kc_report_drain(struct kc_report_sink *s, int all);

/* The outputs of report.h from figures already derived (kc_report_write shares one set among all of them). */
struct cJSON *kc_report_json_with(struct kc_report_figures *rf, const struct kc_measurements *m,
                                  const struct kc_report_opts *o);
/* Functions of an output that another thread renders. The writing thread renders the functions claim(ctx)
 * hands it, in order from the first, until it returns -1; after wait(ctx), text[i] holds function i's
 * piece (JSON object or HTML section) for every later function (s NULL: the writing thread renders it). */
struct kc_report_text {
	const char *s;
	size_t len;
};
struct kc_report_pieces {
	int (*claim)(void *ctx);
	void (*wait)(void *ctx);
	const struct kc_report_text *text;
	void *ctx;
};

/* Go through the reported functions of an (skipped ones left out) in order, calling emit(ctx, i, text) with
 * text NULL for those this thread renders (those p->claim hands it, or all when p is NULL), and after
 * p->wait with the other thread's text of the rest (NULL where it has none). Stops at the first emit that
 * returns < 0 and returns that, else 0. */
int kc_report_each_piece(const struct kc_report_pieces *p, const struct kc_analysis *an,
                         int (*emit)(void *ctx, int i, const struct kc_report_text *text), void *ctx);

/* report.json's text (without the final newline), the same bytes as cJSON_Print of kc_report_json_with's
 * document; built and printed one function at a time, so a large report never holds the whole tree. The
 * objects of pieces' functions come from pieces (p may be NULL). 0, or -1 on out-of-memory (the sink then
 * holds a partial text). */
int kc_report_json_text(struct kc_report_sink *s, struct kc_report_figures *rf, const struct kc_measurements *m,
                        const struct kc_report_opts *o, const struct kc_report_pieces *p);

/* One function's object, for a thread that renders some of them. kc_json_hooks(1) makes cJSON allocate from
 * the building thread's scratch memory (and 0 undoes it): set it around the whole writing, while no other
 * code uses cJSON. Each thread opens its own kc_json_text; kc_json_text_function appends function i's object
 * (no separator: ", " goes between them) and returns 0, or -1 on out-of-memory. */
struct kc_json_text;
void kc_json_hooks(int on);
struct kc_json_text *kc_json_text_open(void);
void kc_json_text_close(struct kc_json_text *t);
int kc_json_text_function(struct kc_json_text *t, struct kc_buf *out, struct kc_report_figures *rf, int i,
                          const struct kc_measurements *m);
/* The page; the sections of pieces' functions (when pieces is not NULL) come from pieces. */
void kc_report_html_with(struct kc_report_sink *s, struct kc_report_figures *rf, const struct kc_measurements *m,
                         const struct kc_report_opts *o, const struct kc_report_pieces *pieces);
/* The section of function i, for a thread that renders some of them: each thread opens its own. */
struct kc_html_sections;
struct kc_html_sections *kc_html_sections_open(struct kc_report_figures *rf, const struct kc_measurements *m,
                                               const struct kc_report_opts *o);
void kc_html_section(struct kc_html_sections *hs, struct kc_buf *out, int i);
void kc_html_sections_close(struct kc_html_sections *hs);
void kc_report_markdown_with(struct kc_buf *b, struct kc_report_figures *rf, const struct kc_measurements *m);
void kc_report_text_with(FILE *out, struct kc_report_figures *rf, const struct kc_measurements *m, int color);
void kc_report_roofline_svg_with(struct kc_buf *b, struct kc_report_figures *rf, const struct kc_measurements *m);
/* The size of buffer buf in bytes (extent * element size); not available when the extent is unknown. */
void kc_report_buffer_bytes(struct kc_figure_memo *m, const struct kc_function *f, const struct kc_buffer *buf,
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

/* The report time as ISO-8601 UTC ("2025-01-31T12:00:00Z"): o_created if not NULL, else $SOURCE_DATE_EPOCH
 * when set, else now. Written into out[size]. */
void kc_report_created(const char *o_created, char *out, size_t size);

#endif
