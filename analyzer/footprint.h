/* footprint.h — the min and streaming traffic of a function's IR, from the hulls of its accesses (footprint.c). */
#ifndef KC_FOOTPRINT_H
#define KC_FOOTPRINT_H

#include "ir.h"

/* Fill the min and streaming traffic of the function and its nests, and buffer roles. */
void kc_footprint_function(struct kc_arena *a, struct kc_fn_ir *ir);

/* Streaming traffic of a region — `nodes` in program order inside `outer` (or NULL) taken as one nest —
 * ignoring buffers with skip[b] != 0 (skip may be NULL); also the buffers read and written, and, when `phase`
 * is given (a pass inside `outer`), what each iteration of `outer` reads again (kc_nest.reread_bytes). */
void kc_footprint_region(struct kc_arena *a, struct kc_fn_ir *ir, const struct kc_node *outer,
                         const struct kc_node *const *nodes, int n, const char *skip, struct kc_traffic *out,
                         int **reads, int *n_reads, int **writes, int *n_writes, struct kc_nest *phase);

#endif
