/* format.h — internal to reporter/: numbers and units as every output writes them for people (SI prefixes,
 * FLOP, B, FLOP/B, seconds, FLOP/s), and the short words the outputs share about a function. */
#ifndef KC_FORMAT_H
#define KC_FORMAT_H

#include "analysis.h"
#include "buf.h"
#include "figures.h"

/* v in decimal, as "%lld" writes it but several times faster: the formatting of a large report is mostly small
 * integers and fixed text, where kc_buf_printf (vsnprintf twice) costs more than everything else in a row.
 * kc_format_digits writes them NUL-terminated at the end of out[KC_FORMAT_DIGITS] and returns where they begin;
 * kc_format_int appends them to b. */
#define KC_FORMAT_DIGITS 24
const char *kc_format_digits(char *out, long long v);
void kc_format_int(struct kc_buf *b, long long v);

/* v with `decimals` digits after the point (0 to 9), as "%.*f" writes it, correctly rounded (ties to even on
 * v's exact value), but without vsnprintf where the rounding is clear (all but values within a few ulps of a
 * tie, which go to vsnprintf): the roofline's coordinates and the reports' significant digits are thousands
 * of such numbers, and printf's exact decimal conversion cost more than the rest of the chart. */
void kc_format_fixed(struct kc_buf *b, double v, int decimals);

/* v with an SI prefix (powers of 1000) and the unit, appended to b: "33.6 MFLOP", "16.8 MB", "512 B", "0.5 B".
 * A unit that is a lowercase word counts things: "4.2M calls", "512 elements"; an empty unit gives "4.2M",
 * "512". Whole numbers below 1000 are written as integers, others with three significant digits. */
void kc_format_si(struct kc_buf *b, double v, const char *unit);

/* A figure's value with kc_format_si, or "n/a" when it has none. */
void kc_format_si_figure(struct kc_buf *b, const struct kc_figure *fig, const char *unit);

/* Three significant digits, trailing zeros kept: "1.00", "0.111", "12.3", "456"; below 1e-4, "1.23e-05". */
void kc_format_sig3(struct kc_buf *b, double v);

/* Seconds in the largest unit that keeps the number at 1 or more (s, ms, µs, ns), three significant digits:
 * "1.23 ms", "45.6 µs". */
void kc_format_seconds(struct kc_buf *b, double s);

/* The intensity of one traffic model: "0.111 FLOP/B", or "n/a" when cf has none for it. */
void kc_format_intensity(struct kc_buf *b, const struct kc_cost_figures *cf, int model);

/* "exact", "approx" or "approx: 2 warnings" (warnings and errors of f counted together); "traffic approx"
 * instead of "approx" when only the traffic is not exact (f->exact_ops), "FLOPs exact" when the comparisons
 * (and maybe the traffic) are not but the FLOPs and transcendentals are (f->exact_flops). */
void kc_format_exactness(struct kc_buf *b, const struct kc_function *f);

/* A measured rate derived from a count: "7.1 GFLOP/s", or with `approx_mark` before it ("≈ ", "~") when the
 * count is not exact (kc_measured_figures.approx). */
void kc_format_rate(struct kc_buf *b, double flop_per_s, int approx, const char *approx_mark);

/* Where an extent inferred from the accesses comes from: "extent inferred from accesses (lines 12–14)" or
 * "(line 6)", with `dash` between the lines ("–", or "-" in a terminal); nothing for other origins. */
void kc_format_extent_origin(struct kc_buf *b, const struct kc_buffer *buf, const char *dash);

#endif
