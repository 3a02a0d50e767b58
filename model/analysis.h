/* analysis.h — the analysis model: plain data the analyzer produces and the runner and reporter read.
 * No libclang types here. Everything is allocated from the analysis arena and freed with it. */
#ifndef KC_ANALYSIS_H
#define KC_ANALYSIS_H

#include "arena.h"
#include "diag.h"
#include "poly.h"
#include "symbols.h"

/* Floating-point precisions FLOPs are broken down by (JSON keys in kc_prec_name). */
enum kc_prec { KC_PREC_F16, KC_PREC_F32, KC_PREC_F64, KC_PREC_F80, KC_PREC_N };
/* FLOP categories. An fma is one operation in ops[KC_OP_FMA] and 2 FLOPs. */
enum kc_op { KC_OP_ADD, KC_OP_SUB, KC_OP_MUL, KC_OP_DIV, KC_OP_FMA, KC_OP_N };
/* Traffic models, see docs/counting.md. */
enum kc_model { KC_MODEL_MIN, KC_MODEL_STREAMING, KC_MODEL_NAIVE, KC_MODEL_N };
enum kc_role { KC_ROLE_INPUT, KC_ROLE_OUTPUT, KC_ROLE_INOUT, KC_ROLE_INTERMEDIATE, KC_ROLE_UNUSED };

const char *kc_prec_name(enum kc_prec p);   /* "_Float16", "float", "double", "long double" */
const char *kc_op_name(enum kc_op op);      /* "add", "sub", "mul", "div", "fma" */
const char *kc_model_name(enum kc_model m); /* "min", "streaming", "naive" */
const char *kc_role_name(enum kc_role r);   /* "input", "output", "inout", "intermediate", "unused" */

/* A named count (transcendental calls by function name). */
struct kc_named_count {
	const char *name;
	struct kc_poly *count;
	struct kc_named_count *next;
};

/* The additive cost of a region of code: operation counts as polynomials in the function's symbols. */
struct kc_cost {
	struct kc_poly *ops[KC_OP_N][KC_PREC_N];
	struct kc_poly *cmp;                    /* comparisons, fmin/fmax/fabs/copysign */
	struct kc_named_count *transcendentals; /* by function name, e.g. "tanhf" */
};

/* Bytes moved under one traffic model. write_only (streaming model only, else NULL): the part of write that
 * goes to buffers the region does not read first (their lines are brought in by the writes: write-allocate),
 * the rest of write being to buffers it reads. */
struct kc_traffic {
	struct kc_poly *read, *write;
	struct kc_poly *write_only;
};

/* What a buffer's elements are, from the clang type (resolved once by the analyzer; the harness fills and
 * compares by it): floating-point, integer (enums and _Bool included), pointers or arrays (not filled), or
 * anything else (structs, unions, complex and vector types: copied as bytes). */
enum kc_elem_class { KC_ELEM_FLOATING, KC_ELEM_INTEGER, KC_ELEM_OPAQUE, KC_ELEM_POINTER };

/* Where a buffer's extent comes from: declared (its type, KCOST_EXTENT or an allocation's size), or inferred
 * from the accesses of the function and its callees (a pointer parameter with no declared extent). */
enum kc_extent_origin { KC_EXTENT_NONE, KC_EXTENT_DECLARED, KC_EXTENT_ACCESSES, KC_EXTENT_UNUSED };
const char *kc_extent_origin_name(enum kc_extent_origin o); /* NULL, "declared", "accesses", "unused" */

/* A buffer: parameter array/pointer, local array, or heap temporary. */
struct kc_buffer {
	const char *name;
	struct kc_loc loc;
	const char *elem_type; /* C spelling, "float" */
	int elem_size;         /* bytes */
	enum kc_elem_class elem_class;
	struct kc_poly *extent; /* elements, when known (VLA type, annotation, allocation size); else NULL */
	int is_param, is_local_array, is_heap, is_scratch;
	enum kc_role role;
	enum kc_extent_origin extent_origin;
	/* KC_EXTENT_ACCESSES: the elements from index 0 to the highest index accessed; or, when kcost could not
	 * prove the lowest index accessed non-negative (x[i - 1] from i = 0), `lowest` is that index and the
	 * extent counts the elements from it to the highest (else `lowest` is NULL). first_line..last_line are
	 * the lines of the accesses. */
	struct kc_poly *lowest;
	unsigned first_line, last_line;
	/* a parameter without a declared extent whose accesses cannot be bounded: the first such access (line 0:
	 * none) and why ("its index is data-dependent ..."); the run step names it */
	struct kc_loc unbounded_at;
	const char *unbounded_why;
	int unreferenced; /* a parameter without a declared extent the body never names (`FLOAT *dummy`): of
	                   * extent 0 (KC_EXTENT_UNUSED), the harness passes it a minimal allocation */
};

/* A top-level statement of a function body that costs something: a loop nest or a call. */
struct kc_nest {
	struct kc_loc begin, end;            /* source range (lines used in reports) */
	const char *callee;                  /* non-NULL when the nest is a call to an analyzed or library function */
	const struct kc_function *callee_fn; /* the analyzed function it calls, else NULL */
	struct kc_cost cost;
	struct kc_poly *trips; /* innermost statement executions (iterations of the body); NULL for calls */
	/* dependent floating-point updates of a scalar, one after another (s += x[i] in a loop over i: one per
	 * iteration; the longest chain of an iteration when it updates several scalars); NULL: none */
	struct kc_poly *chain;
	/* the line of the loop each of whose runs is one chain: the outermost loop whose iterations update such a
	 * scalar, inside the loop where it is declared or set afresh (conv2d: the c loop around r and s; 0: none) */
	unsigned chain_line;
	/* every update of the chain is a multiply-add (acc += x*y, or an fma() call): a compiler that contracts
	 * it (gcc in its GNU modes, clang) makes the chain one of FMAs */
	int chain_madd;
	/* how many times that loop runs (a chain each time: matvec's rows), in the sizes; NULL when not known (a
	 * triangle's runs are a sum of trip counts, not a product) */
	struct kc_poly *chain_runs;
	/* the chain's loop reads, at elements that move with it, a buffer the nest writes (trsv's x[j]): its runs
	 * may wait on one another through memory, so no compiler runs them side by side */
	int chain_carried;
	/* the bytes each iteration of the nest's outermost loop reads again (the read hulls of the buffers whose
	 * accesses do not move with its variable: matmul_ikj's B under i), and that loop's trip count; NULL: none,
	 * or not known (footprint.c) */
	struct kc_poly *reread_bytes, *outer_trips;
	struct kc_traffic traffic[KC_MODEL_N]; /* MIN is not defined per nest: left NULL */
	/* the part of the naive traffic whose accesses step by other than 0 or 1 element as their innermost loop's
	 * variable steps (b[j*n + i] in a loop over j): a vectorized loop reaches them element by element. NULL for
	 * a call */
	struct kc_traffic strided;
	/* the part of the naive traffic whose unit-stride accesses start their innermost loop off a 64-byte line
	 * (x[i + 1] from i = 0 in a 64-byte-aligned buffer, or rows of 36 floats): a vector access then spans two
	 * lines. Decided at the sizes (unknown: counted aligned); NULL for a call */
	struct kc_traffic misaligned;
	/* the part of those off by multiples of 32 bytes only (rows of 40 floats): a 32-byte vector never spans two
	 * lines there, a 64-byte one always; not in `misaligned` */
	struct kc_traffic half_line;
	/* the trip count of its first innermost loop, in the sizes and the variables of the loops around it (a
	 * vectorized loop's remainder goes to its epilogue); NULL for a call, or a loop not stepping by 1 from one
	 * bound to one bound */
	struct kc_poly *inner_trips;
	/* the stores of a column walk that conflicts in the caches (count.c's column_walk; NULL: none): a store
	 * that moves by `column_pitch` bytes, a multiple of 128, as its innermost loop steps (b[j*n + i] over j, n a
	 * power of two), back to the same lines at the next iteration of a loop around it (i + 1). Its lines take
	 * the same few of the 64 line slots of a 4 KiB page, so every cache (indexed by address) keeps them in as
	 * few of its sets: to keep the column until it comes back, a cache needs column_lines lines (the column's
	 * lines times 64 over the slots they take), and one that has fewer misses at every store. Decided at the
	 * sizes; the lines, pitch, place, buffer and slots are those of the store whose column needs the most */
	struct kc_poly *column_stores;
	long long column_pitch, column_lines;
	struct kc_loc column_at;
	int column_buffer, column_slots; /* that store's buffer, and the line slots of a page its lines take */
	/* buffers (indices into the function's buffers) read and written by this nest */
	int *reads, n_reads, *writes, n_writes;
};

/* A parameter of a function, in declaration order (what a harness needs to call it). */
enum kc_param_kind { KC_PARAM_SIZE, KC_PARAM_BUFFER, KC_PARAM_SCALAR, KC_PARAM_OTHER };
struct kc_param {
	const char *name;
	const char *type; /* the parameter's type as clang spells it: "const float *restrict", "int" */
	enum kc_param_kind kind;
	int sym;      /* KC_PARAM_SIZE: its symbol id */
	int buffer;   /* KC_PARAM_BUFFER: index into buffers */
	int is_float; /* KC_PARAM_SCALAR: a floating-point scalar (eps, alpha) */
	/* is_float: the value the run passes and conditions on it are decided at (KC_FLOAT_SCALAR_DEFAULT, or
	 * --scalar NAME=VALUE: value_given) */
	double value;
	int value_given;
};

/* The value of a floating-point scalar parameter without --scalar: small, positive, finite (an eps), and
 * neither 0 nor 1, the values kernels test alpha and beta against. */
#define KC_FLOAT_SCALAR_DEFAULT 1e-5

/* Dataflow (analyzer/dataflow.c). The passes of a function are: its top-level loop nests and
 * calls — or, when the body is a single loop holding several loops (softmax's passes inside the row
 * loop, Jacobi's sweeps inside the time loop), the statements of that loop's body. */
struct kc_pass {
	struct kc_loc begin, end;
	const char *callee;          /* a call to an analyzed function or a library, else NULL */
	struct kc_poly *flops;       /* per call of the function */
	struct kc_traffic streaming; /* this op alone under the streaming model */
	int *reads, n_reads;         /* buffers (indices into kc_function.buffers) */
	int *writes, n_writes;
	const char **scalars_out; /* local scalars it leaves for later passes (a reduction's result) */
	int n_scalars_out;
	/* passes inside one loop (kc_dataflow.in_loop): this pass as a nest of its own, its counts summed over
	 * that loop's iterations, for the time model (its passes run one after another); else NULL */
	struct kc_nest *phase;
};

/* Why two consecutive passes can or cannot be fused. */
enum kc_fusion_kind {
	KC_FUSE_ELEMENTWISE, /* same space, the consumer reads what the producer wrote at the same iteration */
	KC_FUSE_EPILOGUE,    /* legal per output element; the producer's inner reduction loop stays inside */
	KC_FUSE_INDEPENDENT, /* same space, no data flows between them */
	KC_FUSE_REDUCTION,   /* not legal: the consumer needs a reduction the producer completes */
	KC_FUSE_SHIFTED,     /* not legal: the consumer reads neighbours (stencil) of what was written */
	KC_FUSE_SPACE,       /* not legal: different iteration spaces or access patterns */
	KC_FUSE_UNKNOWN      /* not legal: something kcost cannot see through (data-dependent, inexact) */
};

struct kc_fusion_edge {
	int from, to; /* pass indices: to == from + 1 */
	enum kc_fusion_kind kind;
	int legal;
	const char *reason;      /* human-readable, names the buffer/scalar involved */
	int *buffers, n_buffers; /* buffers flowing from -> to */
};

/* A maximal chain of legal fusions. */
struct kc_fusion_group {
	int first, last;                 /* pass range, inclusive */
	int *removes, n_removes;         /* intermediates that fusing the chain removes */
	struct kc_traffic before, after; /* streaming bytes of the chain's passes, unfused and fused */
};

const char *kc_fusion_kind_name(enum kc_fusion_kind k); /* "elementwise", "epilogue", "independent", ... */

struct kc_dataflow {
	struct kc_pass *passes;
	int n_passes;
	int in_loop; /* the passes are inside one outer loop (its lines: loop_begin..loop_end) */
	struct kc_loc loop_begin, loop_end;
	int *intermediates, n_intermediates;
	struct kc_fusion_edge *edges; /* n_passes - 1 */
	struct kc_fusion_group *groups;
	int n_groups;
	struct kc_traffic before, after; /* the whole function's streaming bytes, unfused and with every group fused */
};

/* Where a size's benchmark value came from (kc_function.size_origin), in the order of precedence. */
enum kc_size_origin { KC_SIZE_NONE, KC_SIZE_OPTION, KC_SIZE_ANNOTATION, KC_SIZE_CALL };

struct kc_function {
	const char *name;
	int index;      /* its place in kc_analysis.functions */
	int file_index; /* the input (kc_analysis.files) whose translation unit defined it */
	struct kc_loc loc, end;
	int is_static; /* internal linkage: a harness must include the file to call it */
	struct kc_param *params;
	int n_params;
	const char *return_type; /* unqualified, as clang spells it; NULL for void */
	struct kc_symtab syms;
	int n_size_params; /* syms[0 .. n_size_params-1] are the function's own size parameters */
	unsigned char size_origin[KC_POLY_MAX_SYMS]; /* enum kc_size_origin of each symbol with a value */
	/* The call of this function (in the same file) whose constant arguments gave sizes the values marked
	 * KC_SIZE_CALL: its location and the function it is in; sizes_caller is NULL when none did. */
	struct kc_loc sizes_call;
	const char *sizes_caller;
	struct kc_buffer *buffers;
	int n_buffers;
	/* the buffers that are file-scope arrays (`float aa[LEN][LEN];`, of their declared extent), ascending;
	 * their is_param is set too: like a parameter's, their memory is outside the function (counted in the
	 * min model, an input or an output). See kc_buffer_is_global. */
	int *globals;
	int n_globals;
	struct kc_nest *nests;
	int n_nests;
	struct kc_cost cost; /* whole function */
	struct kc_traffic traffic[KC_MODEL_N];
	int exact;     /* every count above is an exact closed form */
	int exact_ops; /* the operation counts are (FLOPs, transcendentals, comparisons): exact implies it, and a
	                * function whose only inexact figure is its traffic (a gather, an untraced pointer, an
	                * unknown extent) has exact_ops set and exact cleared */
	/* some piece of its count does an operation, at some sizes (count.c): a function whose total is free of them at
	 * its own sizes (g(m) that computes only where m > 100, at m = 10) is not free of them at a call's */
	int ops_somewhere;
	int exact_flops; /* FLOPs and transcendentals are: exact_ops implies it, and a function whose comparisons
	                  * alone are not (a data-dependent branch that compares but computes nothing, a ?: whose
	                  * arms differ in comparisons only) has exact_flops set and exact_ops cleared */
	/* the first loop whose trip count kcost does not know, its body counted once (the warning says so), in a
	 * branch the benchmark sizes take, here or in a function it calls (counted_once_in: that function's name;
	 * NULL: this one); line 0: none. Its counts are one iteration's: no time is predicted from them (kc_predict
	 * says why instead) */
	struct kc_loc counted_once;
	const char *counted_once_in;
	int has_loops;
	int skip;              /* not reported: KCOST_SKIP, a helper without loops, or excluded by --function */
	const char *reference; /* KCOST_REFERENCE */
	const struct kc_function *reference_fn; /* the reference as analyzed (same file), or NULL when it was not */
	const char *init;                       /* KCOST_INIT */
	const char **assumptions;               /* KCOST_ASSUME texts */
	int n_assumptions;
	struct kc_diags diags; /* this function's diagnostics (also printed at the end of the run) */
	struct kc_dataflow dataflow;
};

/* 1 when f's operation counts are exact and all 0: no FLOP, comparison or transcendental at any size (a copy
 * kernel, a guarded load). */
int kc_function_ops_free(const struct kc_function *f);

struct kc_analysis {
	struct kc_arena arena;
	struct kc_arena arena2; /* what the front end's counter thread allocated (counts, footprints, dataflow) */
	const char **files;     /* inputs as given on the command line */
	int n_files;
	struct kc_function **functions;
	int n_functions;
	struct kc_diags diags; /* file-level diagnostics: parse errors, libclang's own */
	int parse_failed;      /* at least one input could not be analyzed at all */
	int parsed_in_parts;   /* inputs parsed in parts on several threads (analyzer/split.h): reported nowhere */
};

/* Total FLOPs of a cost: sum over categories and precisions, fma counted twice. NULL-safe: missing
 * entries count as zero. Returns -1 on overflow. */
int kc_cost_flops(struct kc_arena *a, const struct kc_cost *c, struct kc_poly **out);
/* FLOPs of one precision / one category. */
int kc_cost_flops_prec(struct kc_arena *a, const struct kc_cost *c, enum kc_prec p, struct kc_poly **out);
int kc_cost_flops_op(struct kc_arena *a, const struct kc_cost *c, enum kc_op op, struct kc_poly **out);
/* Sum of all transcendental calls. */
int kc_cost_transcendentals(struct kc_arena *a, const struct kc_cost *c, struct kc_poly **out);
/* Total bytes of a traffic (read + write). */
int kc_traffic_total(struct kc_arena *a, const struct kc_traffic *t, struct kc_poly **out);

/* Evaluate a count of function f at its benchmark sizes. Returns 0 and sets *out on success; -1 when a size
 * has no value (msg "size n has no benchmark value") or on overflow ("overflows 64 bits"); *why is set. */
int kc_function_eval(const struct kc_function *f, const struct kc_poly *p, long long *out, const char **why);
/* 1 if buffer b of f is a file-scope array (listed in f->globals). */
int kc_buffer_is_global(const struct kc_function *f, int b);
/* Format a count of f into b with f's symbol names. */
void kc_function_format(const struct kc_function *f, const struct kc_poly *p, struct kc_buf *b);

#endif
