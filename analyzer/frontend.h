/* frontend.h — private interface between the libclang front end and the counting passes. */
#ifndef KC_FRONTEND_H
#define KC_FRONTEND_H

#include "ir.h"

/* count.c: fill fn->cost, fn->traffic[KC_MODEL_NAIVE], the nests' costs, trips and naive traffic.
 * Inexact constructs add diagnostics to fn->diags and clear fn->exact. */
void kc_count_function(struct kc_arena *a, struct kc_fn_ir *ir);

/* footprint.c: fill the min and streaming traffic of the function and its nests, and buffer roles. */
void kc_footprint_function(struct kc_arena *a, struct kc_fn_ir *ir);

/* Add a derived symbol floor(p / div) to f's symbol table (reusing an equal one); -1 if the table is full. The
 * symbol's name and a copy of p go into `keep`, an arena that lives as long as f. */
int kc_sym_floor(struct kc_arena *keep, struct kc_function *f, const struct kc_poly *p, long long div);
/* Add a symbol named `name` (reusing an existing one of that name); -1 if the table is full. */
int kc_sym_named(struct kc_function *f, const char *name);

/* A callee's polynomial p with its symbols replaced by the call's arguments (all at once), in arena a; derived
 * symbols it adds to the caller go into `keep` (see kc_sym_floor). */
int kc_call_compose(struct kc_arena *a, struct kc_arena *keep, struct kc_function *caller, const struct kc_call *call,
                    const struct kc_poly *p, struct kc_poly **out);

/* count.c: the cost of `node` summed over `outer` (an enclosing loop, or NULL at top level). Diagnostics
 * for inexact constructs were already given by kc_count_function. */
void kc_count_region(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer, const struct kc_node *node,
                     struct kc_vec *out);
void kc_vec_to_cost(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_vec *v, struct kc_cost *c);

/* footprint.c: streaming traffic of a region — `nodes` in program order inside `outer` (or NULL) taken as
 * one nest — ignoring buffers with skip[b] != 0 (skip may be NULL); also the buffers read and written. */
void kc_footprint_region(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer,
                         const struct kc_node *const *nodes, int n, const char *skip, struct kc_traffic *out,
                         int **reads, int *n_reads, int **writes, int *n_writes);

/* dataflow.c: passes, fusion legality and groups of the function (fn->dataflow). */
void kc_dataflow_function(struct kc_arena *a, struct kc_fn_ir *ir);

#endif
