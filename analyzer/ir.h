/* ir.h — the kernel IR inside the analyzer: loop trees with affine bounds, statements with their
 * per-execution costs and accesses. Plain data built by the libclang front end (frontend.c) and read by
 * the counting (count.c) and footprint (footprint.c) passes. Never exposed outside analyzer/. */
#ifndef KC_IR_H
#define KC_IR_H

#include "analysis.h"

#define KC_MAX_DIMS 8
#define KC_MAX_BOUNDS 4

enum kc_node_kind { KC_NODE_BLOCK, KC_NODE_LOOP, KC_NODE_IF, KC_NODE_STMT };

/* One array access (ndims == 0: the whole buffer, as a library call touches it). index[d] is affine in loop variables with size-symbol coefficients (i*n + j is
 * allowed); NULL when the index is not an affine function of them (data-dependent: x[col[j]]). */
struct kc_access {
	int buffer;
	int ndims;
	struct kc_poly *index[KC_MAX_DIMS];
	int is_write;
	struct kc_loc loc;
};

/* Per-execution cost of one statement: constants, not polynomials. */
struct kc_stmt_cost {
	long long ops[KC_OP_N][KC_PREC_N];
	long long cmp;
	const char **trans_name; /* [n_trans] the transcendental functions called, each once, and their counts */
	long long *trans_count;
	int n_trans;
};

/* A call to another analyzed function, inlined at count time: callee's size symbols take the values
 * of `size_args` (polynomials in the caller's symbols), callee buffer b maps to caller buffer
 * buffer_args[b] (-1 when not a buffer of the caller) at element offset buffer_offsets[b]. */
struct kc_fn_ir;
struct kc_call {
	const struct kc_function *callee;
	const struct kc_fn_ir *callee_ir;
	struct kc_poly **size_args; /* indexed by callee symbol id; NULL entries: not substituted */
	int *buffer_args;
	int n_buffers;
};

struct kc_node {
	enum kc_node_kind kind;
	struct kc_loc loc, end;
	struct kc_node *first, *last; /* children (BLOCK, LOOP body, IF then-branch) */
	struct kc_node *next;         /* sibling */
	struct kc_node *parent;

	/* LOOP: var takes the values lo .. hi with step `step` (> 0) when increasing; a decreasing loop
	 * (step < 0) starts at hi. lo = max(lower[]), hi = min(upper[]): several bounds mean a min()/max()
	 * bound (tiling). trips_annotated: KCOST_TRIPS total (all enclosing iterations together). */
	int var;
	struct kc_poly *lower[KC_MAX_BOUNDS], *upper[KC_MAX_BOUNDS];
	int n_lower, n_upper;
	long long step;
	struct kc_poly *trips_annotated;

	/* IF: the then-branch runs where every guard[g] >= 0 holds (affine guards only; a data-dependent
	 * guard makes the node "unknown": counted as always taken, flagged inexact). `orelse` is the
	 * else-branch (may be NULL). */
	struct kc_poly *guard[KC_MAX_BOUNDS];
	int n_guards;
	struct kc_node *orelse;

	/* STMT */
	struct kc_stmt_cost cost;
	struct kc_access *accesses;
	int n_accesses;
	struct kc_call *call; /* non-NULL for a call to an analyzed function */
	const char *lib_call; /* a library call with a built-in model ("cblas_sgemm") */
	struct kc_cost lib_cost;   /* its cost in the caller's symbols */
	struct kc_traffic lib_min; /* its min traffic */

	/* STMT: local scalars read and written (ids into kc_fn_ir.scalar_names, each once), for the dataflow's
	 * reduction check: a pass that leaves a scalar a later pass reads cannot be fused with it */
	int *sc_reads, n_sc_reads;
	int *sc_writes, n_sc_writes;

	int inexact;   /* this node's count is not exact (reason already reported) */
	int collapsed; /* LOOP: a tile loop folded into its point loops (see count.c); counts as a block */
};

/* The additive quantities counted per statement and summed over loops: operation counts, comparisons,
 * naive traffic, innermost-body executions, and transcendental calls by name (index into a per-function
 * name table). */
#define KC_MAX_TRANS_NAMES 16
enum {
	KC_VEC_OPS = 0,
	KC_VEC_CMP = KC_OP_N * KC_PREC_N,
	KC_VEC_NAIVE_R,
	KC_VEC_NAIVE_W,
	KC_VEC_ITER,
	KC_VEC_TRANS,
	KC_VEC_N = KC_VEC_TRANS + KC_MAX_TRANS_NAMES
};

struct kc_vec {
	struct kc_poly *v[KC_VEC_N]; /* NULL = 0 */
};

/* A rectangular hull of the elements of one buffer: per dimension lo..hi (polynomials). */
struct kc_box {
	int ndims; /* 0 = empty box */
	struct kc_poly *lo[KC_MAX_DIMS], *hi[KC_MAX_DIMS];
	int whole; /* a data-dependent index: the whole declared extent */
};

/* Declared dimensions of a buffer, outermost first (NULL entries: unknown). */
struct kc_dims {
	int ndims;
	struct kc_poly *dim[KC_MAX_DIMS];
};

/* What a function does to one of its buffers, for callers' footprints. */
struct kc_buffer_use {
	struct kc_box read, write;
	int first_is_write; /* the first access in program order is a write */
};

/* Per-function IR kept beside the model function. */
struct kc_fn_ir {
	struct kc_function *fn;
	struct kc_node *body;
	struct kc_vec total;                          /* whole function */
	const char *trans_names[KC_MAX_TRANS_NAMES];  /* names of the KC_VEC_TRANS entries */
	int n_trans_names;
	struct kc_buffer_use *uses;                   /* per buffer */
	struct kc_dims *dims;                         /* per buffer: declared dimensions */
	const char **scalar_names;                    /* local scalars (float s, m, ...) by id */
	int n_scalars;
};

#endif
