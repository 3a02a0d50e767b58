/* text.h — internal to reporter/: the terminal summary (kcost's stdout by default). */
#ifndef KC_TEXT_H
#define KC_TEXT_H

#include <stdio.h>

#include "analysis.h"
#include "buf.h"
#include "figures.h"
#include "measure.h"

/* One aligned row per reported function (FLOPs, transcendentals, bytes under the min model, intensity per model,
 * exact flag, and measured time and throughput when measured), then one formula line per function, then the
 * compact dataflow of each function with several passes, printed to out. `color` adds ANSI colours. Prints
 * nothing when no function was analyzed. Aborts on out-of-memory, as kc_buf does. */
void kc_text_write(FILE *out, struct kc_report_figures *rf, const struct kc_measurements *m, int color);

/* Append the compact text form of f's dataflow, each line indented two spaces, names padded to a column;
 * passes and groups numbered from 1:
 *   "  pass 1  lines 35-36  2*n FLOP  8*n B (streaming)  reads x  writes t1"
 *   "  t1      intermediate float[n] 16.8 MB  removed by fusion (group 1)"
 *   "  group 1 passes 1-8  streaming 72*n -> 8*n B (302.0 MB -> 33.6 MB)  0.111 -> 1.00 FLOP/B  removes 7"
 *   "  pass 1 -> 2  not fusable (reduction): <reason>"
 * one line per pass, per intermediate (f->dataflow.intermediates), per fusion group, and per non-fusable or
 * epilogue-only pair; "  no passes" when there are none. User text goes through kc_visible_puts, so no
 * terminal escape sequence can pass. Indices out of range are written as "?" rather than read. */
void kc_text_dataflow(const struct kc_function *f, struct kc_buf *out);

#endif
