/* ir.h — the kernel IR inside the analyzer: loop trees with affine bounds, statements with their
 * per-execution costs and accesses. Plain data built by the libclang front end (lower.c, with the
 * constructors of ir.c) or by hand (tests/unit/test_ir.c), and read by counting (count.c), footprints
 * (footprint.c) and dataflow (dataflow.c). Never exposed outside analyzer/. */
#ifndef KC_IR_H
#define KC_IR_H

#include "analysis.h"
#include <limits.h>

#define KC_MAX_DIMS   8
#define KC_MAX_BOUNDS 4

/* Statements and expressions nested in one another (the lowering recurses once per level, as clang's parser
 * does; clang itself stops at 256 nested brackets, not at long chains such as a + b + ... or else-if); the
 * passes over the IR recurse once per nesting level too. */
#define KC_MAX_DEPTH 1000
/* The stack of a thread that lowers or counts: KC_MAX_DEPTH levels of frames of a few KiB, which sanitizers
 * make several times larger, in any build (not whatever `ulimit -s` gives the main thread). */
#define KC_IR_STACK_BYTES ((size_t)KC_MAX_DEPTH * 64 * 1024)

enum kc_node_kind { KC_NODE_BLOCK, KC_NODE_LOOP, KC_NODE_IF, KC_NODE_STMT };

/* One array access (ndims == 0: the whole buffer, as a library call touches it). index[d] is affine in loop variables
 * with size-symbol coefficients (i*n + j is allowed); NULL when the index is not an affine function of them
 * (data-dependent: x[col[j]]). */
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
 * buffer_args[b] (-1 when not a buffer of the caller) at element offset buffer_offsets[b] (row-major in the
 * caller buffer's declared dimensions, in the caller's symbols and loop variables: row(C, x + r*C) gives
 * r*C; a NULL entry: an offset that is not affine; buffer_offsets NULL: every offset 0). */
struct kc_fn_ir;
struct kc_call {
	const struct kc_function *callee;
	const struct kc_fn_ir *callee_ir;
	struct kc_poly **size_args; /* indexed by callee symbol id; NULL entries: not substituted */
	int *buffer_args;
	struct kc_poly **buffer_offsets;
	int n_buffers;
};

#define KC_STEP_BY LLONG_MAX /* kc_node.step of a loop whose step is step_by */

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
	/* a step that is a positive expression of the sizes (i += inc_x, i += 2*inc_x): step is then KC_STEP_BY,
	 * an increasing non-unit step for the tests on step's sign and size; kc_ir_loop_step gives either kind
	 * as a polynomial */
	struct kc_poly *step_by;
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
	struct kc_call *call;      /* non-NULL for a call to an analyzed function */
	const char *lib_call;      /* a library call with a built-in model ("cblas_sgemm") */
	struct kc_cost lib_cost;   /* its cost in the caller's symbols */
	struct kc_traffic lib_min; /* its min traffic */

	/* STMT: local scalars read and written (ids into kc_fn_ir.scalar_names, each once), for the dataflow's
	 * reduction check: a pass that leaves a scalar a later pass reads cannot be fused with it */
	int *sc_reads, n_sc_reads;
	int *sc_writes, n_sc_writes;

	int inexact; /* this node's count is not exact (reason already reported) */
	/* LOOP, inexact: its trip count is unknown (the body is counted once), reported as a traffic warning: its
	 * operation counts are inexact only if an iteration does some operation (count.c decides) */
	int unknown_trips;
	/* LOOP, unknown_trips: its variable's start value (affine), where its body is counted (count.c), or NULL */
	struct kc_poly *once_at;
	/* LOOP, STMT holding a call: in a branch the benchmark sizes decide against (lower.c's untaken): its counts
	 * contribute nothing at the sizes, nor does its trip count's being unknown */
	int untaken;
	int collapsed; /* LOOP: a tile loop folded into its point loops (see count.c); counts as a block */
	int unrolled;  /* BLOCK: a loop lowered iteration by iteration (one BLOCK child each): one nest */
	/* IF on data whose branches do the same floating-point operations: only its then-branch is left (lower.c),
	 * and an if whose else-branch is this one (else if) can be compared with it */
	int same_arms;
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
	KC_VEC_STRIDED_R, /* the naive bytes of accesses that are not unit-stride in their innermost loop (count.c) */
	KC_VEC_STRIDED_W,
	/* the naive bytes of unit-stride accesses whose first element in their innermost loop does not start a
	 * 64-byte line, for some iteration of the loops around it (at the sizes; count.c) */
	KC_VEC_MISALIGNED_R,
	KC_VEC_MISALIGNED_W,
	KC_VEC_HALF_LINE_R, /* the same, where the offsets are all multiples of 32 bytes */
	KC_VEC_HALF_LINE_W,
	KC_VEC_COLUMN_W, /* the stores of a column walk that conflicts in the caches (count.c, kc_nest.column_stores) */
	KC_VEC_ITER,
	KC_VEC_CHAIN, /* dependent floating-point updates of one scalar, in order: the latency chain (count.c) */
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

/* One piece of a function's count (count.c): its cost where every cons[c] >= 0 holds, constraints in the
 * function's sizes only (bit c of alt: cons[c] chooses between alternatives, an if's branch; else it says a
 * loop runs). The total is the sum of the pieces whose constraints hold at the sizes' values; a call adds the
 * callee's pieces with their constraints in the caller's sizes, so that each call decides its own branches. */
struct kc_total_piece {
	struct kc_poly **cons;
	int n_cons;
	unsigned alt;
	struct kc_vec cost;
};

/* Per-function IR kept beside the model function. */
struct kc_fn_ir {
	struct kc_function *fn;
	struct kc_node *body;
	struct kc_vec total;           /* whole function */
	struct kc_total_piece *pieces; /* the same, as pieces (NULL with n_pieces -1: too many) */
	int n_pieces;
	const char *trans_names[KC_MAX_TRANS_NAMES]; /* names of the KC_VEC_TRANS entries */
	int n_trans_names;
	struct kc_buffer_use *uses; /* per buffer */
	struct kc_dims *dims;       /* per buffer: declared dimensions */
	const char **scalar_names;  /* local scalars (float s, m, ...) by id */
	int *scalar_depth;          /* the loops around each one's declaration (its loop depth) */
	int n_scalars;
};

/* ------------------------------------------------------------------------------------------------ */
/* Construction (ir.c), for the front end and for IR built by hand (tests/unit/test_ir.c). Everything is
 * allocated from the arena given and lives as long as it; nothing is freed individually. The functions that
 * add to a fixed per-node capacity (KC_MAX_BOUNDS, the 8 transcendental names of a kc_stmt_cost,
 * KC_MAX_SCALAR_USES) return -1 when it is full and change nothing: the caller reports it. */

/* Add a derived symbol floor(p / div) to f's symbol table (reusing an equal one); -1 if the table is full. The
 * symbol's name and a copy of p go into `keep`, an arena that lives as long as f. */
int kc_sym_floor(struct kc_arena *keep, struct kc_function *f, const struct kc_poly *p, long long div);
/* The same, floor(p / q) for a divisor q in sizes (C / NH). */
int kc_sym_floor_by(struct kc_arena *keep, struct kc_function *f, const struct kc_poly *p, const struct kc_poly *q);
/* Add a symbol named `name` (reusing an existing one of that name); -1 if the table is full. */
int kc_sym_named(struct kc_function *f, const char *name);

/* A function named `name` at loc with an empty body block: exact until a pass says otherwise, no
 * symbols, buffers, scalars or nests yet. */
struct kc_fn_ir *kc_ir_function_new(struct kc_arena *a, const char *name, struct kc_loc loc);

/* A size symbol of the function with benchmark value `value`; its id, or -1 if the symbol table is full. */
int kc_ir_size_sym(struct kc_fn_ir *ir, const char *name, long long value);
/* A loop-variable symbol (summed away in every count); its id, or -1 if the symbol table is full. */
int kc_ir_loop_sym(struct kc_fn_ir *ir, const char *name);

/* A buffer of elem_size-byte elements (elem_type spells them), a parameter when is_param; declared
 * dimensions dims[0 .. ndims-1], outermost first (NULL entries: unknown; ndims 0: none), its extent their
 * product when every one is known. Strings are not copied. Returns the buffer's index. The arrays grow:
 * pointers into ir->fn->buffers and ir->dims are invalidated by the next call. */
int kc_ir_buffer_add(struct kc_arena *a, struct kc_fn_ir *ir, const char *name, const char *elem_type, int elem_size,
                     int is_param, int ndims, struct kc_poly *const *dims);
/* A local scalar for the dataflow's reduction check and the latency chains, declared inside `depth` loops
 * (kc_ir_loop_depth of the node its declaration goes into); its id. */
int kc_ir_scalar_add(struct kc_arena *a, struct kc_fn_ir *ir, const char *name, int depth);
/* The loops around n and n itself when it is one (the IR's, not the source's: a loop over a table lowered
 * iteration by iteration is none). */
int kc_ir_loop_depth(const struct kc_node *n);

/* A node of `kind` appended to parent's children (parent may be NULL: a detached node, as an else-branch). */
struct kc_node *kc_ir_node_new(struct kc_arena *a, enum kc_node_kind kind, struct kc_node *parent, struct kc_loc loc,
                               struct kc_loc end);
/* A loop over var = lo .. hi (both inclusive) by `step` (!= 0; a decreasing loop starts at hi), appended
 * to parent. Further min()/max() bounds come with kc_ir_loop_bound. */
struct kc_node *kc_ir_loop_new(struct kc_arena *a, struct kc_node *parent, struct kc_loc loc, int var,
                               struct kc_poly *lo, struct kc_poly *hi, long long step);
/* The step of a loop as a polynomial: its constant step, or step_by. */
struct kc_poly *kc_ir_loop_step(struct kc_arena *a, const struct kc_node *loop);
/* Another lower (upper == 0) or upper bound of a loop: lo = max(lower[]), hi = min(upper[]). */
int kc_ir_loop_bound(struct kc_node *loop, int upper, struct kc_poly *bound);
/* An affine guard g >= 0 of an IF node (all of them hold in the then-branch). */
int kc_ir_guard_add(struct kc_node *n, struct kc_poly *g);
/* The else-branch block of an IF node, created on the first call. */
struct kc_node *kc_ir_else(struct kc_arena *a, struct kc_node *n, struct kc_loc loc);

/* An access of statement st (copied; its index polynomials are shared). A second access identical to
 * one the statement already has (same buffer, direction and affine indices) is not added: repeated
 * identical accesses in one statement count once, the naive model's rule. */
void kc_ir_access_add(struct kc_arena *a, struct kc_node *st, const struct kc_access *acc);
/* `count` more calls of the transcendental `name` (not copied) per execution of st; the names grow in a. */
void kc_ir_trans_add(struct kc_arena *a, struct kc_node *st, const char *name, long long count);
/* st reads (is_write == 0) or writes the local scalar `id`: a set, growing in a. */
void kc_ir_scalar_use(struct kc_arena *a, struct kc_node *st, int id, int is_write);

/* A top-level statement that is a nest of the model (and a pass of the dataflow): a loop, a call, or an if
 * with a statement in either branch. */
int kc_ir_is_nest(const struct kc_node *c);
/* An if whose guards are in sizes only, decided at their values: 1 the then-branch runs, 0 the else-branch;
 * -1 for any other node, or guards on loop variables or sizes without values (both branches may run). */
int kc_ir_if_taken(const struct kc_function *fn, const struct kc_node *n);

/* Room for the model's nests, at most one per top-level statement of the body (kc_count_function fills
 * them): call once the body is complete, before the passes. */
void kc_ir_reserve_nests(struct kc_arena *a, struct kc_fn_ir *ir);

/* ------------------------------------------------------------------------------------------------ */
/* Loops and limits (ir.c) */

/* The trip count of a strided loop, as its last step index:
 *   for (v = start; v <= end; v += s), s > 0   ->  v = start + s*u,  u = 0 .. floor((end - start) / s)
 *   for (v = start; v >= end; v += s), s < 0   ->  v = start + s*u,  u = 0 .. floor((start - end) / -s)
 * so a loop that runs at all takes trips = last + 1 = ceil((hi - lo) / |s|) iterations, hi and lo being
 * its exclusive upper and inclusive lower bound (hi = end + 1 for s > 0). `start` is the loop's single
 * bound on the side it starts from (lower[0] for s > 0, upper[0] for s < 0), `end` one of the bounds on
 * the other side (a min()/max() bound has several).
 * *last = floor(|end - start| / |s|): a polynomial when |s| divides every coefficient of the distance, an
 * integer when the distance is a constant, else the derived size symbol floor(dist/|s|) of fn
 * (kc_sym_floor: name and copy in keep; intermediate polynomials in a).
 * Returns -1 and leaves *last alone when there is no such closed form: several start bounds, a floor of a
 * distance that contains a symbol s with loop_vars[s] set (the floor of a loop variable is no size;
 * loop_vars may be NULL), a full symbol table, or overflow. Then *limit (when limit is not NULL) is set to a
 * message for the caller to report when a capacity or exact arithmetic was the reason, to NULL otherwise. */
int kc_ir_loop_last_step(struct kc_arena *a, struct kc_arena *keep, struct kc_function *fn, const struct kc_node *loop,
                         const struct kc_poly *end, const int *loop_vars, struct kc_poly **last, const char **limit);

/* A fixed capacity or exact arithmetic stopped a pass: a warning at loc in fn's diagnostics (given once
 * per location and message, as passes may meet the same limit several times) and fn->exact cleared.
 * The message is printf-formatted into keep. */
void kc_ir_limit(struct kc_arena *keep, struct kc_function *fn, struct kc_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The same for a limit of a traffic pass (footprints, dataflow): fn->exact cleared, fn->exact_ops kept. */
void kc_ir_limit_traffic(struct kc_arena *keep, struct kc_function *fn, struct kc_loc loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
