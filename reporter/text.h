/* text.h — internal to reporter/: the terminal summary (kcost's stdout by default). */
#ifndef KC_TEXT_H
#define KC_TEXT_H

#include <stdio.h>

#include "figures.h"
#include "measure.h"

/* One aligned row per reported function (FLOPs, transcendentals, bytes under the min model, intensity per model,
 * exact flag, and measured time and throughput when measured), then one formula line per function, then the
 * compact dataflow of each function with several passes, printed to out. `color` adds ANSI colours. Prints
 * nothing when no function was analyzed. Aborts on out-of-memory, as kc_buf does. */
void kc_text_write(FILE *out, struct kc_report_figures *rf, const struct kc_measurements *m, int color);

#endif
