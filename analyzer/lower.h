/* lower.h — private to the front end: lowering a translation unit's functions to the kernel IR. */
#ifndef KC_LOWER_H
#define KC_LOWER_H

#include "fe_int.h"

/* Lower every function of fe->funcs (a callee before its callers), each then finished by the passes (counts,
 * footprints, dataflow: see passes.h) before this returns; tf->ir is NULL for a function that could not be
 * lowered. Problems become diagnostics of the function. */
void kc_lower_file(struct fe *fe);

#endif
