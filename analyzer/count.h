/* count.h — exact operation counts, comparisons, naive traffic and trip counts of a function's IR (count.c). */
#ifndef KC_COUNT_H
#define KC_COUNT_H

#include "ir.h"

/* Fill fn->cost, fn->traffic[KC_MODEL_NAIVE], the nests' costs, trips and naive traffic.
 * Inexact constructs add diagnostics to fn->diags and clear fn->exact. */
void kc_count_function(struct kc_arena *a, struct kc_fn_ir *ir);

/* A callee's polynomial p with its symbols replaced by the call's arguments (all at once), in arena a; derived
 * symbols it adds to the caller go into `keep` (see kc_sym_floor). */
int kc_call_compose(struct kc_arena *a, struct kc_arena *keep, struct kc_function *caller, const struct kc_call *call,
                    const struct kc_poly *p, struct kc_poly **out);

/* The cost of `node` summed over `outer` (an enclosing loop, or NULL at top level). Diagnostics for inexact
 * constructs were already given by kc_count_function. */
void kc_count_region(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer, const struct kc_node *node,
                     struct kc_vec *out);

/* Fill nest's counts from v, the counts of `node` (a top-level nest, or a pass of kc_count_region inside loop
 * `outer`, else NULL): its location and callee, cost, naive traffic, trips, latency chain and strided bytes,
 * kept in a. The streaming traffic and the buffers read and written are the footprint's (not filled). */
void kc_count_nest(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer, const struct kc_node *node,
                   const struct kc_vec *v, struct kc_nest *nest);

#endif
