/* dataflow.h — a function's passes, the legality of fusing consecutive ones, and the fusion groups (dataflow.c). */
#ifndef KC_DATAFLOW_H
#define KC_DATAFLOW_H

#include "ir.h"

/* Fill fn->dataflow: passes, fusion legality and groups of the function. Needs its counts and footprints. */
void kc_dataflow_function(struct kc_arena *a, struct kc_fn_ir *ir);

#endif
