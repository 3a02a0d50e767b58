/* fe_int.h — private to the front end: the state of a translation unit (struct fe) and of the function being
 * lowered (struct fctx) that its files share. Types only; each file's functions are in its own header. */
#ifndef KC_FE_INT_H
#define KC_FE_INT_H

#include <clang-c/Index.h>
#include <regex.h>

#include "analyzer.h"
#include "ir.h"

/* A limit's value in a diagnostic's text: "more than " KC_TEXT(KC_MAX_BOUNDS) " bounds". */
#define KC_TEXT_(n) #n
#define KC_TEXT(n)  KC_TEXT_(n)

struct kc_passes;
struct kc_source;

enum fn_state { FN_UNSEEN, FN_ACTIVE, FN_DONE };

/* The sizes a function's integer parameters take from its call sites (decls.c), computed once per function
 * when first asked for. */
struct site_sizes {
	long long *value;     /* per parameter, in declaration order */
	unsigned char *known; /* value[i] holds */
	const char **why;     /* per parameter without a value at the chosen call: why (NULL: it had one already) */
	int n;
	int site;   /* index into fe->sites of the call that gave them, or -1 */
	int cut;    /* a chain of calls was longer than KC_MAX_SITE_DEPTH */
	int budget; /* the calls it could still follow when computed (KC_MAX_SITE_DEPTH minus its depth) */
	int state;  /* 1 while being computed (a cycle of calls), 2 when done */
};

/* What a function body assigns (decls.c, for the sizes of the calls it makes): each write of a variable (var
 * and at are the expansion offsets of its declaration and of the write; a taken address is a write at 0),
 * sorted, and its outermost loops' extents, sorted. */
struct write_at {
	unsigned var, at;
};
struct loop_at {
	unsigned begin, end;
};
struct write_index {
	struct write_at *writes;
	int n_writes;
	struct loop_at *loops;
	int n_loops;
};

/* A call of one of the file's functions from another (decls.c), in source order. */
struct call_site {
	CXCursor call;
	int caller, callee; /* indices into fe->funcs */
	int order;          /* its place in the walk of the file's bodies */
};

/* A call of a function the translation unit declares but does not define (a part of a file parsed in parts). */
struct undefined_call {
	int caller; /* index into fe->funcs */
	const char *name;
};

/* A function definition of the file being analyzed. */
struct tu_func {
	CXCursor cursor;
	const char *name;
	enum fn_state state;
	struct kc_fn_ir *ir;           /* NULL until analyzed (or if it failed) */
	int job;                       /* its place in the counter's queue (kc_passes_submit) */
	struct site_sizes *site_sizes; /* NULL until asked for (decls.c) */
	struct write_index *writes;    /* NULL until asked for (decls.c) */
	int in_header; /* defined in a header of the user's (not a system one): analyzed when called, reported only
	                * when cited: a caller's warning points to its diagnostics */
	int cited;
	/* a file parsed in parts (split.h): */
	int blanked;   /* this part parses the function's body blanked: it must not be lowered here */
	int foreign;   /* another part lowers the function (it may be lowered here as a callee: a header's, or one
	                * whose body every part parses) */
	int in_region; /* its body is one of this part's: no other part has the function, or its body */
	size_t at;     /* its place in the main file (an expansion offset), for the merge */
};

/* One translation unit at a time. */
struct fe {
	struct kc_analysis *an;
	struct kc_arena *a;
	const struct kc_analyze_opts *opts;
	const char *path; /* the input as the user named it */
	CXFile main_file;
	const struct kc_source *main_src; /* the main file's lines (source.h), for kc_cx_location; NULL: ask libclang */
	struct tu_func *funcs;            /* the file's function definitions (malloc'd, grown by doubling) */
	int n_funcs, cap_funcs;
	struct fctx *spare;       /* one per-function state kept for reuse (it is large) */
	struct kc_passes *passes; /* while the file's functions are lowered (kc_lower_file) */
	int depth;                /* of the lowering's recursion, callees' lowering included (kc_cx_enter) */
	regex_t re;
	int has_re;
	struct call_site *sites; /* the calls between the file's functions, by callee then source order (malloc'd) */
	int n_sites, cap_sites;
	int sites_built;   /* sites holds this translation unit's calls (built when a size first needs them) */
	CXCursor *globals; /* the file-scope arrays the functions access, entered when first met (malloc'd) */
	int n_globals, cap_globals;
	struct kc_diags *diags;           /* the file's diagnostics: fe->an->diags, or the part's own */
	int split;                        /* a part of a file parsed in parts (split.h): lowers only its functions */
	int split_wrong;                  /* the part met what the split did not foresee (a call into a blanked body) */
	struct undefined_call *undefined; /* calls of functions the part does not define (malloc'd) */
	int n_undefined, cap_undefined;
};

/* A variable the body refers to. */
enum var_kind { V_SIZE, V_LOOP, V_INT, V_BUFFER, V_ALIAS, V_SCALAR, V_OTHER };

struct var {
	CXCursor decl;
	enum CXCursorKind decl_kind; /* of decl, and its location: what find_var compares */
	CXSourceLocation decl_loc;
	enum var_kind kind;
	int sym;                 /* V_SIZE, V_LOOP */
	struct kc_poly *value;   /* V_INT: known affine value (NULL: unknown) */
	struct kc_poly **minmax; /* V_INT: or a min (minmax_kind 1) / max (2) of these n_minmax affine values */
	int n_minmax, minmax_kind;
	/* an induction variable of the loop being lowered (lower.c): after statement ind_stmt of the loop's
	 * body, its value (V_INT) or offset (a pointer) is ind_after */
	struct kc_poly *ind_after;
	CXCursor ind_stmt;
	int buffer;             /* V_BUFFER, V_ALIAS */
	int scalar;             /* V_SCALAR locals: id into the IR's scalar table, else -1 */
	struct kc_poly *offset; /* V_ALIAS: flattened element offset */
};

/* Variables are kept in chunks that never move: lowering holds pointers to them while it adds others. */
#define KC_VAR_CHUNK 512

/* The function being lowered. */
struct fctx {
	struct fe *fe;
	struct kc_function *fn;
	CXCursor fn_decl; /* fn's definition */
	int func_index;   /* its entry in fe->funcs */
	struct kc_fn_ir *ir;
	int n_vars;        /* variable i is vars[i], then more[i / KC_VAR_CHUNK - 1][i % KC_VAR_CHUNK] */
	struct var **more; /* [n_more] further chunks, in the arena */
	int n_more;
	struct kc_dims *dims; /* parallel to fn->buffers */
	int cap_buffers;
	int loop_depth;
	int tail;                   /* the statement lowered next is in tail position (lower.c: early returns) */
	int switch_loops;           /* 1 + loop_depth at the innermost switch counted case by case (0: none) */
	struct ind_set *inductions; /* of the innermost loop being lowered (lower.c) */
	CXCursor skip_stmt;         /* a while loop's last statement, its increment (lower.c) */
	const char **trips_var;     /* [n_trips] KCOST_TRIPS variables and totals */
	struct kc_poly **trips_total;
	CXCursor *trips_at;         /* the attribute of each */
	unsigned char *trips_named; /* a loop of the variable was seen (an annotation for none is reported) */
	int n_trips;
	int too_deep; /* KC_MAX_DEPTH was reached (kc_cx_enter) */
	int untaken;  /* lowering a branch the benchmark sizes decide against: its warnings are notes */
	int probing;  /* deciding a condition lowering reports elsewhere: its notes are not repeated */
	struct jump { /* a return, break or continue inside a loop: reported once the function is lowered */
		CXCursor at;
		const char *fmt, *arg;
	} jumps[8];
	int n_jumps;
	int n_unrolled;                 /* iterations of loops over const tables lowered one by one (unroll_by_table) */
	struct writes *writes_memo[64]; /* the write sites of statements, by cursor (writes_in, lower.c) */
	CXCursor table_decl;            /* the const table read last (kc_affine_table_entry), its entries and size */
	long long *table_vals, table_n;
	struct kc_diag *io_note;       /* the function's one note on I/O calls in loops (kc_decl_io_call) */
	int n_io;                      /* the I/O calls in loops it counts */
	const char *io_names;          /* their distinct names, "fprintf, puts" */
	struct var vars[KC_VAR_CHUNK]; /* last: a reused state clears only what comes before (vars[n_vars..] unused) */
};

/* How an expression uses the element or scalar it names. */
enum { ROLE_READ = 1, ROLE_WRITE = 2, ROLE_RW = 3 };

#endif
