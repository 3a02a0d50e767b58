/* roofline.c — the roofline chart as SVG: log-log axes (FLOP/byte against GFLOP/s), the machine's compute and
 * bandwidth roofs when measured, and each function's predicted intensity (min and streaming models). Without
 * ceilings the chart shows the intensities alone, as labelled ticks on the x axis. */
#include "roofline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "format.h"

/* Geometry of the chart, in SVG user units. */
#define W       760.0
#define H       440.0
#define LEFT    72.0
#define RIGHT   24.0
#define TOP     28.0
#define BOTTOM  84.0
#define LABEL_H 14.0
#define CHAR_W  6.6 /* average width of an 11px sans-serif character, for label overlap */

/* Okabe-Ito, without yellow (too light on white): safe for the common colour-vision deficiencies. */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
#define N_COLORS (int)(sizeof palette / sizeof palette[0])

struct point {
	const struct kc_function *f;
	const char *color;
	const struct kc_cost_figures *cf;
	enum kc_prec prec;
	int has_meas;
	double x_meas, y_meas;   /* measured intensity (traffic, else min model) and GFLOP/s */
	int approx;              /* the point is derived from a FLOP count that is not exact: a hollow square */
	const char *implausible; /* faster than the ceilings allow (the runner's warning): a crossed square */
	int has_fused;
	double x_fused; /* streaming intensity with every legal fusion group fused (the what-if) */
	int order;      /* place among the functions, which breaks ties of intensity */
};

struct chart {
	struct kc_buf *b;
	const struct kc_machine *mc; /* NULL: no roofs */
	struct point *pts;
	int n;
	int xlo, xhi, ylo, yhi; /* decades shown */
	const struct kc_measurements *m;
	struct kc_arena *a; /* scratch for the tooltips' predictions */
	int n_roof_labels;  /* the compute roofs' labels: x from..to, baseline y (see roof_labels) */
	double roof_label[2][3];
	int n_slanted;                 /* the bandwidth roofs' labels, as the boxes that hold them slanted */
	double slanted[KC_LEVEL_N][4]; /* x0, y0, x1, y1 */
};

static double px(const struct chart *c, double x)
{
	return LEFT + (log10(x) - c->xlo) / (c->xhi - c->xlo) * (W - LEFT - RIGHT);
}

static double py(const struct chart *c, double y)
{
	return H - BOTTOM - (log10(y) - c->ylo) / (c->yhi - c->ylo) * (H - TOP - BOTTOM);
}

static double peak(const struct kc_machine *mc)
{
	return mc ? fmax(mc->flops_f32.value, mc->flops_f64.value) : 0;
}

/* Widen [lo, hi] (log10 values) to whole decades, at least `span` of them. */
static void decades(double lo, double hi, int span, int *dlo, int *dhi)
{
	*dlo = (int)floor(lo);
	*dhi = (int)ceil(hi);
	if (*dhi <= *dlo)
		*dhi = *dlo + 1;
	while (*dhi - *dlo < span) {
		(*dlo)--;
		if (*dhi - *dlo < span)
			(*dhi)++;
	}
}

static void extend(double *lo, double *hi, double v)
{
	if (!(v > 0) || !isfinite(v))
		return;
	*lo = fmin(*lo, log10(v));
	*hi = fmax(*hi, log10(v));
}

static void chart_ranges(struct chart *c)
{
	double xl = INFINITY, xh = -INFINITY, yl = INFINITY, yh = -INFINITY, pk = peak(c->mc);
	for (int i = 0; i < c->n; i++) {
		const struct point *p = &c->pts[i];
		for (int model = KC_MODEL_MIN; model <= KC_MODEL_STREAMING; model++)
			if (p->cf->has_intensity[model]) {
				extend(&xl, &xh, p->cf->intensity[model]);
				extend(&yl, &yh, kc_figures_roof(c->mc, p->prec, p->cf->intensity[model], NULL));
			}
		if (p->has_meas) {
			extend(&xl, &xh, p->x_meas);
			extend(&yl, &yh, p->y_meas);
		}
	}
	if (c->mc && c->mc->bandwidth[KC_LEVEL_DRAM].value > 0)
		extend(&xl, &xh, pk / c->mc->bandwidth[KC_LEVEL_DRAM].value); /* the ridge point */
	extend(&yl, &yh, pk);
	if (xl > xh)
		xl = xh = 0;
	if (yl > yh)
		yl = yh = 1;
	decades(xl, xh, 3, &c->xlo, &c->xhi);
	decades(yl - 0.3, yh + 0.3, 3, &c->ylo, &c->yhi);
}

/* "0.01", "1", "1000", "1e5" */
static void decade_label(struct kc_buf *b, int e)
{
	if (e >= -3 && e <= 3)
		kc_buf_printf(b, "%g", pow(10, e));
	else
		kc_buf_printf(b, "1e%d", e);
}

static void chart_axes(const struct chart *c)
{
	struct kc_buf *b = c->b;
	double x0 = LEFT, x1 = W - RIGHT, y0 = H - BOTTOM, y1 = TOP;
	kc_buf_printf(b, "<g class=\"axes\" stroke=\"#d0d0d0\" stroke-width=\"1\">\n");
	for (int e = c->xlo; e <= c->xhi; e++)
		kc_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", px(c, pow(10, e)), y0,
		              px(c, pow(10, e)), y1);
	for (int e = c->ylo; e <= c->yhi; e++)
		kc_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, py(c, pow(10, e)), x1,
		              py(c, pow(10, e)));
	kc_buf_printf(b,
	              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#555\"/>\n"
	              "</g>\n<g class=\"ticks\" font-size=\"11\" fill=\"#333\">\n",
	              x0, y1, x1 - x0, y0 - y1);
	for (int e = c->xlo; e <= c->xhi; e++) {
		kc_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px(c, pow(10, e)), y0 + 16);
		decade_label(b, e);
		kc_buf_puts(b, "</text>\n");
	}
	for (int e = c->ylo; e <= c->yhi; e++) {
		kc_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x0 - 6, py(c, pow(10, e)) + 4);
		decade_label(b, e);
		kc_buf_puts(b, "</text>\n");
	}
	kc_buf_printf(b,
	              "</g>\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">arithmetic "
	              "intensity (FLOP/byte, log scale)</text>\n",
	              (x0 + x1) / 2, y0 + 36);
	kc_buf_printf(b,
	              "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">"
	              "performance (GFLOP/s, log scale)</text>\n",
	              (y0 + y1) / 2);
}

static double max_bandwidth(const struct kc_machine *mc)
{
	double bw = 0;
	for (int l = 0; l < KC_LEVEL_N; l++)
		bw = fmax(bw, mc->bandwidth[l].value);
	return bw;
}

/* Horizontal compute roofs from the first ridge point (fastest memory level) to the right edge. */
static void compute_roofs(const struct chart *c)
{
	const struct kc_machine *mc = c->mc;
	const struct kc_ceiling *compute[2] = {&mc->flops_f32, &mc->flops_f64};
	static const char *const compute_name[2] = {"float", "double"};
	double xmin = pow(10, c->xlo), xmax = pow(10, c->xhi), bw = max_bandwidth(mc);
	for (int i = 0; i < 2; i++) {
		double v = compute[i]->value, from = bw > 0 ? fmax(v / bw, xmin) : xmin;
		if (v <= 0)
			continue;
		kc_buf_printf(c->b,
		              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s><title>%s peak: %.1f "
		              "GFLOP/s</title></line>\n",
		              px(c, from), py(c, v), px(c, xmax), py(c, v), i ? " stroke-dasharray=\"6 3\"" : "",
		              compute_name[i], v);
		kc_buf_printf(c->b,
		              "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"11\" fill=\"#333\" "
		              "stroke=\"none\">%s%s peak %.1f GFLOP/s</text>\n",
		              px(c, xmax) - 4, py(c, v) - 4, mc->hypothetical ? "hypothetical " : "", compute_name[i],
		              v);
	}
}

/* The on-screen angle (degrees, SVG rotation) of a slope-1 line on the log-log axes. */
static double diagonal_angle(const struct chart *c)
{
	double per_decade_y = (H - TOP - BOTTOM) / (c->yhi - c->ylo),
	       per_decade_x = (W - LEFT - RIGHT) / (c->xhi - c->xlo);
	return -atan2(per_decade_y, per_decade_x) * 180 / acos(-1.0);
}

/* Diagonal bandwidth roofs y = bw * x, from where they enter the plot up to the peak, labelled at the start. */
/* Where level l's diagonal runs, from x = from to to (0 when it is not drawn), and its label: text starting at
 * (*lx, *ly), rotated by diagonal_angle. Both the drawing and the numbered labels' placing ask. */
static int bandwidth_roof(const struct chart *c, int l, double *from, double *to, double *lx, double *ly, char *text,
                          size_t size)
{
	double xmin = pow(10, c->xlo), xmax = pow(10, c->xhi), ymin = pow(10, c->ylo), bw = c->mc->bandwidth[l].value;
	if (bw <= 0)
		return 0;
	*from = fmax(xmin, ymin / bw);
	*to = fmin(peak(c->mc) / bw, xmax);
	if (*from >= *to)
		return 0;
	*lx = px(c, *from) + 6;
	*ly = py(c, bw * *from) - 6;
	snprintf(text, size, "%s%s %.1f GB/s", c->mc->hypothetical ? "hypothetical " : "",
	         kc_level_name((enum kc_level)l), bw);
	return 1;
}

static void bandwidth_roofs(const struct chart *c)
{
	char text[96];
	for (int l = 0; l < KC_LEVEL_N; l++) {
		double bw = c->mc->bandwidth[l].value, from, to, x, y;
		if (!bandwidth_roof(c, l, &from, &to, &x, &y, text, sizeof text))
			continue;
		kc_buf_printf(c->b,
		              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-dasharray=\"%s\">"
		              "<title>%s bandwidth: %.1f GB/s</title></line>\n",
		              px(c, from), py(c, bw * from), px(c, to), py(c, bw * to),
		              l == KC_LEVEL_DRAM ? "none" : "2 3", kc_level_name((enum kc_level)l), bw);
		kc_buf_printf(c->b,
		              "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#333\" stroke=\"none\" "
		              "transform=\"rotate(%.1f %.1f %.1f)\">%s</text>\n",
		              x, y, diagonal_angle(c), x, y, text);
	}
}

static void chart_roofs(const struct chart *c)
{
	kc_buf_puts(c->b, "<g class=\"roofs\" fill=\"none\" stroke=\"#444\" stroke-width=\"1.5\">\n");
	compute_roofs(c);
	bandwidth_roofs(c);
	kc_buf_puts(c->b, "</g>\n");
}

/* Where compute_roofs puts the compute roofs' labels: right-aligned at the right edge, just above each line. */
static void roof_labels(struct chart *c)
{
	const struct kc_ceiling *compute[2] = {&c->mc->flops_f32, &c->mc->flops_f64};
	char text[96];
	c->n_roof_labels = 0;
	for (int i = 0; i < 2; i++) {
		double v = compute[i]->value;
		if (v <= 0)
			continue;
		int len = snprintf(text, sizeof text, "%s peak %.1f GFLOP/s", i ? "double" : "float", v);
		double right = px(c, pow(10, c->xhi)) - 4;
		double *box = c->roof_label[c->n_roof_labels++];
		box[0] = right - len * CHAR_W;
		box[1] = right;
		box[2] = py(c, v) - 4;
	}
	/* as bandwidth_roofs writes them: from (x, y), rotated by the diagonals' angle */
	double a = diagonal_angle(c) * acos(-1.0) / 180, cs = cos(a), sn = sin(a);
	c->n_slanted = 0;
	for (int l = 0; l < KC_LEVEL_N; l++) {
		double from, to, x, y;
		if (!bandwidth_roof(c, l, &from, &to, &x, &y, text, sizeof text))
			continue;
		double len = (double)strlen(text);
		double corner[4][2] = {{0, -11}, {len * CHAR_W, -11}, {len * CHAR_W, 3}, {0, 3}};
		double *box = c->slanted[c->n_slanted++];
		box[0] = box[1] = INFINITY;
		box[2] = box[3] = -INFINITY;
		for (int k = 0; k < 4; k++) {
			double cx = x + corner[k][0] * cs - corner[k][1] * sn,
			       cy = y + corner[k][0] * sn + corner[k][1] * cs;
			box[0] = fmin(box[0], cx), box[1] = fmin(box[1], cy);
			box[2] = fmax(box[2], cx), box[3] = fmax(box[3], cy);
		}
	}
}

/* ---- numbered labels ------------------------------------------------------------------------------------
 *
 * Each function is drawn with its number, the one the summary table and the chart's key give it: a name would
 * not fit beside 25 points, let alone 100. Points that fall on one spot (within CLUSTER_PX) share a label
 * ("3, 8, 13"); each label goes to the first free place of a list of candidates around its point (above or
 * below it, right or left of it, further rows away with a leader line), inside the plot and clear of every
 * other label and of the compute roofs' labels. A label with no free place is left out (its points keep their
 * tooltips, the key its number): text never overlaps. */

#define DIGIT_W       7.0 /* a digit of the 11px font, a little wider than the font's */
#define NAME_W        7.0 /* a character of a name in the key, as wide as the widest common ones */
#define CLUSTER_PX    6.0 /* points this close share a label */
#define CLUSTER_SHOWN 5   /* numbers a shared label shows; "+N" says how many more */
#define KEY_CHARS     28  /* a longer name is cut in the key ("…"), its tooltip has it whole */
#define MAX_ROWS      40  /* candidate rows above and below a point */

struct box {
	double x0, y0, x1, y1;
};

static int overlaps(struct box a, struct box b, double margin)
{
	return a.x0 < b.x1 + margin && b.x0 < a.x1 + margin && a.y0 < b.y1 + margin && b.y0 < a.y1 + margin;
}

/* The text box of an 11px label whose baseline starts at (x, y) and which is w wide. */
static struct box text_box(double x, double y, double w)
{
	return (struct box){x, y - 11, x + w, y + 3};
}

/* The anchor of p's label: its min-model point on the roof, or its tick on the x axis without roofs. */
static int anchor(const struct chart *c, const struct point *p, double *x, double *y)
{
	double ai = p->cf->intensity[KC_MODEL_MIN], roof;
	if (!p->cf->has_intensity[KC_MODEL_MIN])
		return 0;
	*x = px(c, ai);
	if (!c->mc) {
		*y = H - BOTTOM;
		return 1;
	}
	if ((roof = kc_figures_roof(c->mc, p->prec, ai, NULL)) <= 0)
		return 0;
	*y = py(c, roof);
	return 1;
}

static int box_free(const struct chart *c, const struct box *placed, int n, struct box b)
{
	if (b.x0 < LEFT + 2 || b.x1 > W - RIGHT - 2 || b.y0 < TOP - 10 || b.y1 > H - BOTTOM - 2)
		return 0;
	for (int i = 0; i < c->n_roof_labels; i++) {
		const double *r = c->roof_label[i];
		if (overlaps(b, text_box(r[0], r[2], r[1] - r[0]), 2))
			return 0;
	}
	for (int i = 0; i < c->n_slanted; i++)
		if (overlaps(b, (struct box){c->slanted[i][0], c->slanted[i][1], c->slanted[i][2], c->slanted[i][3]},
		             1))
			return 0;
	for (int i = 0; i < n; i++)
		if (overlaps(b, placed[i], 2))
			return 0;
	return 1;
}

static int by_value(const void *x, const void *y)
{
	int l = *(const int *)x, r = *(const int *)y;
	return (l > r) - (l < r);
}

/* The label of the points pts[first .. first + n - 1] (one spot): their numbers, the smallest first. */
static void label_text(const struct chart *c, int first, int n, struct kc_buf *text)
{
	int *numbers = malloc(sizeof *numbers * (size_t)n);
	if (!numbers)
		abort(); /* as kc_buf and the arena do on out-of-memory */
	for (int i = 0; i < n; i++)
		numbers[i] = c->pts[first + i].order + 1;
	qsort(numbers, (size_t)n, sizeof *numbers, by_value);
	for (int i = 0; i < n && i < CLUSTER_SHOWN; i++)
		kc_buf_printf(text, "%s%d", i ? ", " : "", numbers[i]);
	if (n > CLUSTER_SHOWN)
		kc_buf_printf(text, " +%d", n - CLUSTER_SHOWN);
	free(numbers);
}

static void marker_title(struct kc_buf *b, const struct point *p, int model)
{
	kc_buf_puts(b, "<title>");
	kc_escape_html(b, p->f->name);
	kc_buf_printf(b, ": %s model, ", kc_model_name((enum kc_model)model));
	kc_format_sig3(b, p->cf->intensity[model]);
	kc_buf_puts(b, " FLOP/B");
	if (p->cf->intensity_expr[model]) {
		kc_buf_puts(b, " = ");
		kc_escape_html(b, p->cf->intensity_expr[model]);
	}
	kc_buf_puts(b, "</title>");
}

/* A filled circle (min model) or a hollow diamond (streaming model) at (x, y). */
static void marker(struct kc_buf *b, const struct point *p, int model, double x, double y)
{
	/* as "%.1f" writes the coordinates (kc_format_fixed): thousands of markers in a large report */
	if (model == KC_MODEL_MIN) {
		kc_buf_puts(b, "<circle cx=\"");
		kc_format_fixed(b, x, 1);
		kc_buf_puts(b, "\" cy=\"");
		kc_format_fixed(b, y, 1);
		kc_buf_puts(b, "\" r=\"4.5\" fill=\"");
	} else {
		kc_buf_puts(b, "<path d=\"M");
		kc_format_fixed(b, x, 1);
		kc_buf_putc(b, ' ');
		kc_format_fixed(b, y - 9, 1);
		kc_buf_puts(b, "l9 9l-9 9l-9 -9z\" fill=\"none\" stroke=\"");
	}
	kc_buf_puts(b, p->color);
	kc_buf_puts(b, model == KC_MODEL_MIN ? "\">" : "\" stroke-width=\"2\">");
	marker_title(b, p, model);
	kc_buf_puts(b, model == KC_MODEL_MIN ? "</circle>\n" : "</path>\n");
}

/* Without roofs: the streaming-model diamond on the x axis (drawn first, under every circle). */
static void streaming_unmeasured(const struct chart *c, const struct point *p)
{
	if (p->cf->has_intensity[KC_MODEL_STREAMING])
		marker(c->b, p, KC_MODEL_STREAMING, px(c, p->cf->intensity[KC_MODEL_STREAMING]), H - BOTTOM);
}

/* Without roofs: the min-model circle on the x axis (its label's leader line rises from it). */
static void point_unmeasured(const struct chart *c, const struct point *p)
{
	if (p->cf->has_intensity[KC_MODEL_MIN])
		marker(c->b, p, KC_MODEL_MIN, px(c, p->cf->intensity[KC_MODEL_MIN]), H - BOTTOM);
}

/* With roofs: predicted points on the roof, the measured point as a square. */
static void point_measured(const struct chart *c, const struct point *p)
{
	for (int model = KC_MODEL_STREAMING; model >= KC_MODEL_MIN; model--) {
		double ai = p->cf->intensity[model], roof;
		if (!p->cf->has_intensity[model] || (roof = kc_figures_roof(c->mc, p->prec, ai, NULL)) <= 0)
			continue;
		marker(c->b, p, model, px(c, ai), py(c, roof));
	}
	if (p->has_meas && p->implausible) {
		double x = px(c, p->x_meas), y = py(c, p->y_meas);
		kc_buf_printf(
		    c->b,
		    "<g><path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" stroke=\"#c00\" stroke-width=\"2\"/>"
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"#c00\"/><title>",
		    x - 4, y - 4, x - 4, y - 4);
		kc_escape_html(c->b, p->f->name);
		kc_buf_puts(c->b, ": not a fact: ");
		kc_escape_html(c->b, p->implausible);
		kc_buf_puts(c->b, "</title></g>\n");
	} else if (p->has_meas && p->approx) {
		kc_buf_printf(c->b,
		              "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"#fff\" stroke=\"%s\" "
		              "stroke-width=\"1.5\"><title>",
		              px(c, p->x_meas) - 4, py(c, p->y_meas) - 4, p->color);
		kc_escape_html(c->b, p->f->name);
		kc_buf_printf(
		    c->b,
		    ": approximately %.3g GFLOP/s at %.3g FLOP/B (derived from a FLOP count that is not exact, "
		    "not a measurement)</title></rect>\n",
		    p->y_meas, p->x_meas);
	} else if (p->has_meas) {
		kc_buf_printf(c->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\"><title>",
		              px(c, p->x_meas) - 4.5, py(c, p->y_meas) - 4.5, p->color);
		kc_escape_html(c->b, p->f->name);
		kc_buf_printf(c->b, ": measured %.3g GFLOP/s at %.3g FLOP/B</title></rect>\n", p->y_meas, p->x_meas);
	}
}

/* One point's line of a label's tooltip: "3 gelu_fused: 1.00 FLOP/B (min model), predicted 45.3 GFLOP/s
 * (bound: tanhf throughput), measured 0.414 GFLOP/s". */
static void point_tooltip(const struct chart *c, const struct point *p, struct kc_buf *b)
{
	kc_buf_printf(b, "%d ", p->order + 1);
	kc_escape_html(b, p->f->name);
	kc_buf_puts(b, ": ");
	kc_format_sig3(b, p->cf->intensity[KC_MODEL_MIN]);
	kc_buf_puts(b, " FLOP/B (min model)");
	if (c->mc) {
		struct kc_prediction pr;
		struct kc_arena_mark mark = kc_arena_mark(c->a);
		kc_figures_predict(c->a, c->m, p->f, &pr);
		const char *bound = NULL;
		double roof = kc_figures_roof(c->mc, p->prec, p->cf->intensity[KC_MODEL_MIN], &bound);
		if (pr.ok && pr.seconds > 0 && p->cf->flops.has_value) {
			kc_buf_printf(
			    b, ", predicted %.3g GFLOP/s (bound: ", (double)p->cf->flops.value / pr.seconds * 1e-9);
			kc_escape_html(b, pr.bound ? pr.bound : "n/a");
			kc_buf_putc(b, ')');
		} else if (roof > 0) {
			kc_buf_printf(b, ", roof %.3g GFLOP/s (%s-bound)", roof, bound ? bound : "n/a");
		}
		kc_arena_reset(c->a, mark);
	}
	if (p->has_meas)
		kc_buf_printf(b, ", %s %.3g GFLOP/s",
		              p->implausible ? "not a fact:"
		              : p->approx    ? "approximately"
		                             : "measured",
		              p->y_meas);
}

/* The labels of the points, sorted by intensity: one per spot, each at its first free candidate place. */
static void point_labels(const struct chart *c)
{
	struct box *placed = calloc((size_t)c->n + 1, sizeof *placed);
	int n_placed = 0;
	struct kc_buf text = KC_BUF_INIT, tip = KC_BUF_INIT;
	if (!placed)
		abort(); /* as kc_buf and the arena do on out-of-memory */
	for (int i = 0, n; i < c->n; i += n) {
		double ax, ay, bx, by;
		n = 1;
		if (!anchor(c, &c->pts[i], &ax, &ay))
			continue;
		while (i + n < c->n && anchor(c, &c->pts[i + n], &bx, &by) && fabs(bx - ax) <= CLUSTER_PX &&
		       fabs(by - ay) <= CLUSTER_PX)
			n++;
		kc_buf_reset(&text);
		label_text(c, i, n, &text);
		double w = (double)text.len * DIGIT_W;
		struct box at = {0};
		int found = 0, row = 0;
		for (; row < MAX_ROWS && !found; row++)
			for (int side = 0; side < 4 && !found; side++) {
				int below = side >= 2, left = side & 1;
				if (below && !c->mc)
					continue; /* under the x axis */
				double y = below ? ay + 15 + row * LABEL_H : ay - (c->mc ? 7 : 12) - row * LABEL_H;
				at = text_box(left ? ax - 6 - w : ax + 6, y, w);
				found = box_free(c, placed, n_placed, at);
			}
		if (!found)
			continue; /* no room: its points keep their tooltips, the key its numbers */
		placed[n_placed++] = at;
		const char *color = n == 1 ? c->pts[i].color : "#333";
		if (row > 1 || !c->mc) { /* a leader line from the point to the label's near edge */
			double ly = at.y1 <= ay ? at.y1 : at.y0, lx = fmin(fmax(ax, at.x0), at.x1);
			kc_buf_printf(c->b,
			              "<line class=\"leader\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			              "stroke=\"%s\" stroke-width=\"0.8\"/>\n",
			              ax, ay, lx, ly, color);
		}
		kc_buf_reset(&tip);
		for (int k = 0; k < n; k++) {
			kc_buf_puts(&tip, k ? "\n" : "");
			point_tooltip(c, &c->pts[i + k], &tip);
		}
		/* a white halo keeps the text readable where a roof or another function's line crosses it */
		kc_buf_printf(c->b,
		              "<g class=\"label\"><title>%s</title><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
		              "font-weight=\"bold\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"3\" "
		              "paint-order=\"stroke\">%s</text></g>\n",
		              kc_buf_str(&tip), at.x0, at.y1 - 3, color, kc_buf_str(&text));
	}
	kc_buf_release(&text);
	kc_buf_release(&tip);
	free(placed);
}

/* The key under the legend: each function's number and name, in columns, in the summary table's order. */
static double key_height(const struct chart *c, int *cols, double *col_w)
{
	size_t longest = 1;
	for (int i = 0; i < c->n; i++)
		longest = fmax(longest, fmin(strlen(c->pts[i].f->name), KEY_CHARS + 1));
	char digits[16];
	int nd = snprintf(digits, sizeof digits, "%d", c->n);
	*col_w = (double)nd * DIGIT_W + 6 + (double)longest * NAME_W + 18;
	*cols = (int)((W - LEFT - RIGHT) / *col_w);
	if (*cols < 1)
		*cols = 1;
	int rows = (c->n + *cols - 1) / *cols;
	return c->n ? rows * LABEL_H + 10 : 0;
}

/* The key in `cols` columns of col_w (key_height's). */
static void chart_key(const struct chart *c, int cols, double col_w)
{
	const struct point **by_number = calloc((size_t)c->n + 1, sizeof *by_number);
	if (!by_number)
		abort();
	for (int i = 0; i < c->n; i++)
		by_number[c->pts[i].order] = &c->pts[i];
	int rows = (c->n + cols - 1) / cols;
	char digits[16];
	int nd = snprintf(digits, sizeof digits, "%d", c->n);
	kc_buf_puts(c->b, "<g class=\"key\" font-size=\"11\" fill=\"#333\">\n");
	for (int k = 0; k < c->n; k++) {
		const struct point *p = by_number[k];
		double x = LEFT + (double)(k / rows) * col_w, y = H + 4 + (double)(k % rows) * LABEL_H;
		size_t len = strlen(p->f->name);
		/* a row per function: "%d" and "%.1f" without vsnprintf (kc_format_int, kc_format_fixed) */
		kc_buf_puts(c->b, "<g><title>");
		kc_format_int(c->b, k + 1);
		kc_buf_putc(c->b, ' ');
		kc_escape_html(c->b, p->f->name);
		kc_buf_puts(c->b, "</title><text x=\"");
		kc_format_fixed(c->b, x, 1);
		kc_buf_puts(c->b, "\" y=\"");
		kc_format_fixed(c->b, y, 1);
		kc_buf_puts(c->b, "\" font-weight=\"bold\" fill=\"");
		kc_buf_puts(c->b, p->color);
		kc_buf_puts(c->b, "\">");
		kc_format_int(c->b, k + 1);
		kc_buf_puts(c->b, "</text><text x=\"");
		kc_format_fixed(c->b, x + nd * DIGIT_W + 6, 1);
		kc_buf_puts(c->b, "\" y=\"");
		kc_format_fixed(c->b, y, 1);
		kc_buf_puts(c->b, "\">");
		if (len > KEY_CHARS) { /* cut at a character's start, not inside a UTF-8 sequence */
			size_t cut = KEY_CHARS - 1;
			while (cut > 0 && ((unsigned char)p->f->name[cut] & 0xC0) == 0x80)
				cut--;
			char *head = strndup(p->f->name, cut);
			kc_escape_html(c->b, head ? head : "");
			free(head);
			kc_buf_puts(c->b, "\xe2\x80\xa6");
		} else {
			kc_escape_html(c->b, p->f->name);
		}
		kc_buf_puts(c->b, "</text></g>\n");
	}
	kc_buf_puts(c->b, "</g>\n");
	free(by_number);
}

static void chart_legend(const struct chart *c)
{
	struct kc_buf *b = c->b;
	double y = H - 22;
	kc_buf_printf(b,
	              "<g class=\"legend\" font-size=\"11\" fill=\"#333\">\n"
	              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#555\"/><text x=\"%.1f\" y=\"%.1f\">min model "
	              "(compulsory bytes)</text>\n"
	              "<path d=\"M%.1f %.1fl9 9l-9 9l-9 -9z\" fill=\"none\" stroke=\"#555\" stroke-width=\"2\"/>"
	              "<text x=\"%.1f\" y=\"%.1f\">streaming model</text>\n",
	              LEFT + 5, y - 4, LEFT + 14, y, LEFT + 207, y - 13, LEFT + 220, y);
	int approx = 0;
	for (int i = 0; i < c->n; i++)
		approx |= c->pts[i].has_meas && c->pts[i].approx;
	if (c->mc)
		kc_buf_printf(b,
		              "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"#555\"/><text x=\"%.1f\" "
		              "y=\"%.1f\">measured</text>\n",
		              LEFT + 340, y - 8.5, LEFT + 354, y);
	if (c->mc && approx) /* only when there is such a point: a chart without one stays as it was */
		kc_buf_printf(
		    b,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"#fff\" stroke=\"#555\" "
		    "stroke-width=\"1.5\"/><text x=\"%.1f\" y=\"%.1f\">approximate (inexact FLOP count)</text>\n",
		    LEFT + 430, y - 8, LEFT + 444, y);
	else if (!c->mc)
		kc_buf_printf(b,
		              "<text x=\"%.1f\" y=\"%.1f\" font-style=\"italic\">machine not measured: predicted "
		              "intensity only</text>\n",
		              LEFT + 340, y);
	kc_buf_puts(b, "</g>\n");
}

/* The dataflow's what-if: the function's FLOPs over its streaming bytes once every fusion group is fused. */
static void fused_intensity(struct kc_arena *a, struct point *p)
{
	const struct kc_dataflow *df = &p->f->dataflow;
	struct kc_poly *before, *after;
	long long vb, va;
	const char *why;
	if (!df->n_groups || !p->cf->flops.has_value || !df->after.read || !df->before.read ||
	    kc_traffic_total(a, &df->before, &before) < 0 || kc_traffic_total(a, &df->after, &after) < 0 ||
	    kc_function_eval(p->f, before, &vb, &why) < 0 || kc_function_eval(p->f, after, &va, &why) < 0 || va <= 0 ||
	    va >= vb)
		return;
	p->has_fused = 1;
	p->x_fused = (double)p->cf->flops.value / (double)va;
}

/* An arrow from the function's streaming intensity to its intensity after fusion, on the roof when there is
 * one, else just above the x axis. */
static void fusion_arrow(const struct chart *c, const struct point *p)
{
	if (!p->has_fused || !p->cf->has_intensity[KC_MODEL_STREAMING])
		return;
	double x0 = p->cf->intensity[KC_MODEL_STREAMING], x1 = p->x_fused, y0, y1;
	if (c->mc) {
		y0 = py(c, kc_figures_roof(c->mc, p->prec, x0, NULL));
		y1 = py(c, kc_figures_roof(c->mc, p->prec, x1, NULL));
	} else {
		y0 = y1 = H - BOTTOM - 8;
	}
	kc_buf_printf(c->b,
	              "<g class=\"fusion-arrow\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
	              "stroke-width=\"2\" stroke-dasharray=\"5 3\" marker-end=\"url(#roofline-arrow)\"/><title>",
	              px(c, x0), y0, px(c, x1), y1, p->color);
	kc_escape_html(c->b, p->f->name);
	kc_buf_printf(c->b,
	              ": fusing its passes would raise the streaming intensity from %.3g to %.3g FLOP/B</title></g>\n",
	              x0, x1);
}

/* The measured square joined to the function's streaming-model prediction. */
static void measured_link(const struct chart *c, const struct point *p)
{
	double ai = p->cf->intensity[KC_MODEL_STREAMING], roof;
	if (!p->has_meas || !p->cf->has_intensity[KC_MODEL_STREAMING] ||
	    (roof = kc_figures_roof(c->mc, p->prec, ai, NULL)) <= 0)
		return;
	kc_buf_printf(c->b,
	              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\" "
	              "stroke-dasharray=\"2 2\"/>\n",
	              px(c, ai), py(c, roof), px(c, p->x_meas), py(c, p->y_meas), p->color);
}

static void collect(struct chart *c, struct kc_arena *a, const struct kc_analysis *an,
                    const struct kc_cost_figures *figs, const struct kc_measurements *m)
{
	c->pts = KC_NEW_N(a, struct point, an->n_functions + 1);
	for (int i = 0; i < an->n_functions; i++) {
		const struct kc_function *f = an->functions[i];
		struct point *p = &c->pts[c->n];
		struct kc_measured_figures mf;
		if (f->skip)
			continue;
		p->f = f;
		p->order = c->n;
		p->color = palette[c->n % N_COLORS];
		p->cf = &figs[i];
		p->prec = kc_figures_main_prec(p->cf);
		fused_intensity(a, p);
		kc_figures_measured(m, f, p->cf, &mf);
		if (c->mc && mf.has_rate) {
			p->x_meas = mf.at;
			p->y_meas = mf.gflops;
			p->has_meas = p->x_meas > 0 && p->y_meas > 0;
			p->approx = mf.approx;
			p->implausible = mf.me ? mf.me->implausible : NULL;
		}
		c->n++;
	}
}

static double sort_key(const struct point *p)
{
	return p->cf->has_intensity[0] ? p->cf->intensity[0] : 0;
}

static int by_intensity(const void *x, const void *y)
{
	const struct point *l = x, *r = y;
	double kl = sort_key(l), kr = sort_key(r);
	return kl < kr ? -1 : kl > kr ? 1 : l->order - r->order;
}

/* Sort points by min-model intensity, ties in function order, for the labels' clusters (a report may have
 * thousands of functions: not an insertion sort). */
static void sort_points(struct chart *c)
{
	if (c->n > 1)
		qsort(c->pts, (size_t)c->n, sizeof c->pts[0], by_intensity);
}

void kc_roofline_chart(struct kc_buf *b, struct kc_arena *a, const struct kc_analysis *an,
                       const struct kc_cost_figures *figs, const struct kc_measurements *m)
{
	struct chart c = {.b = b, .mc = kc_figures_machine(m), .m = m, .a = a};
	if (c.mc && peak(c.mc) <= 0)
		c.mc = NULL; /* a machine without compute ceilings has no roof to draw */
	collect(&c, a, an, figs, m);
	chart_ranges(&c);
	sort_points(&c);
	if (c.mc)
		roof_labels(&c);
	int key_cols;
	double key_w, height = H + key_height(&c, &key_cols, &key_w);
	kc_buf_printf(b,
	              "<svg id=\"roofline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
	              "width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-labelledby=\"roofline-title roofline-desc\" "
	              "font-family=\"'DejaVu Sans', 'Segoe UI', Helvetica, Arial, sans-serif\">\n"
	              "<title id=\"roofline-title\">Roofline: arithmetic intensity (FLOP/byte) against "
	              "performance (GFLOP/s)</title>\n<desc id=\"roofline-desc\">%s</desc>\n"
	              "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	              W, height, W, height,
	              c.mc ? "Compute and bandwidth roofs of the measured machine; predicted points on the "
	                     "roof, measured points as squares"
	                   : "machine not measured: predicted intensity only");
	kc_buf_puts(b, "<defs><marker id=\"roofline-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
	               "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" "
	               "fill=\"context-stroke\"/></marker></defs>\n");
	chart_axes(&c);
	kc_buf_printf(b,
	              "<clipPath id=\"roofline-plot\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
	              "</clipPath>\n<g clip-path=\"url(#roofline-plot)\">\n",
	              LEFT, TOP - 12, W - LEFT - RIGHT, H - BOTTOM - TOP + 20);
	if (c.mc)
		chart_roofs(&c);
	kc_buf_puts(b, "<g class=\"points\">\n");
	for (int i = 0; i < c.n; i++)
		fusion_arrow(&c, &c.pts[i]);
	for (int i = 0; c.mc && i < c.n; i++)
		measured_link(&c, &c.pts[i]);
	for (int i = 0; !c.mc && i < c.n; i++)
		streaming_unmeasured(&c, &c.pts[i]);
	for (int i = 0; i < c.n; i++)
		(c.mc ? point_measured : point_unmeasured)(&c, &c.pts[i]);
	kc_buf_puts(b, "</g>\n</g>\n");
	point_labels(&c); /* over everything, and inside the plot by their placing */
	chart_legend(&c);
	chart_key(&c, key_cols, key_w);
	kc_buf_puts(b, "</svg>\n");
}

void kc_roofline_document(struct kc_buf *b, struct kc_report_figures *rf, const struct kc_measurements *m)
{
	struct kc_arena a = KC_ARENA_INIT;
	kc_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	kc_roofline_chart(b, &a, rf->an, rf->functions, m);
	kc_arena_release(&a);
}

/* ---- one function's small roofline ---------------------------------------------------------------------- */

#define MW 380.0
#define MH 230.0
#define ML 52.0
#define MR 10.0
#define MT 12.0
#define MB 76.0

struct mini {
	struct kc_buf *b;
	double xlo, xhi, ylo, yhi; /* log10 ranges */
};

static double mx(const struct mini *c, double x)
{
	return ML + (log10(x) - c->xlo) / (c->xhi - c->xlo) * (MW - ML - MR);
}

static double my(const struct mini *c, double y)
{
	return MH - MB - (log10(y) - c->ylo) / (c->yhi - c->ylo) * (MH - MT - MB);
}

struct mini_roof {
	double gflops; /* a horizontal roof's rate */
	const char *name;
	double label_y;
};

/* A bound's name up to its parenthesis ("tanhf throughput (scalar libm)": "tanhf throughput"), for the small
 * chart's width; the section's table and the tooltip give it whole. */
static void short_name(struct kc_buf *b, const char *name)
{
	const char *paren = strstr(name, " (");
	char *cut = paren ? strndup(name, (size_t)(paren - name)) : NULL;
	kc_escape_html(b, cut ? cut : name);
	free(cut);
}

static int by_rate(const void *x, const void *y)
{
	const struct mini_roof *l = x, *r = y;
	return (l->gflops < r->gflops) - (l->gflops > r->gflops); /* the highest first: labels from the top */
}

void kc_roofline_mini(struct kc_buf *b, struct kc_arena *a, const struct kc_function *f,
                      const struct kc_cost_figures *cf, const struct kc_measurements *m)
{
	const struct kc_machine *mc = kc_figures_machine(m);
	struct kc_prediction pr;
	if (!mc || !cf->flops.has_value || cf->flops.value <= 0 || !cf->has_intensity[KC_MODEL_STREAMING])
		return;
	kc_figures_predict(a, m, f, &pr);
	if (!pr.ok || !(pr.seconds > 0))
		return;
	double flops = (double)cf->flops.value, ai = cf->intensity[KC_MODEL_STREAMING];
	double t[KC_RES_N] = {0};
	const char *named[KC_RES_N] = {NULL};
	for (int i = 0; i < pr.n_nests; i++)
		for (int r = 0; r < KC_RES_N; r++) {
			t[r] += pr.nests[i].seconds[r];
			if (pr.nests[i].resource == (enum kc_resource)r && pr.nests[i].bound)
				named[r] = pr.nests[i].bound;
		}
	t[KC_RES_ALLOCATION] = pr.seconds_allocation;
	/* the horizontal roofs: what each resource alone would allow the whole function */
	static const char *const plain[KC_RES_N] = {"compute peak", "add latency chain",   "libm calls",
	                                            NULL,           "L1 loads and stores", "page faults"};
	struct mini_roof roofs[KC_RES_N];
	int n = 0;
	for (int r = 0; r < KC_RES_N; r++)
		if (r != KC_RES_DATA && t[r] > 0)
			roofs[n++] = (struct mini_roof){flops / t[r] * 1e-9, named[r] ? named[r] : plain[r], 0};
	qsort(roofs, (size_t)n, sizeof *roofs, by_rate);
	double bw = mc->bandwidth[pr.level].value, predicted = flops / pr.seconds * 1e-9;
	struct kc_measured_figures mf;
	kc_figures_measured(m, f, cf, &mf);
	int measured = mf.has_rate && mf.at > 0 && mf.gflops > 0;
	/* ranges: a decade either side of the points, the roofs inside */
	double xl = log10(ai), xh = xl, yl = log10(predicted), yh = yl;
	if (measured) {
		xl = fmin(xl, log10(mf.at)), xh = fmax(xh, log10(mf.at));
		yl = fmin(yl, log10(mf.gflops)), yh = fmax(yh, log10(mf.gflops));
	}
	for (int i = 0; i < n; i++)
		yl = fmin(yl, log10(roofs[i].gflops)), yh = fmax(yh, log10(roofs[i].gflops));
	struct mini c = {b, floor(xl) - 1, ceil(xh) + 1, floor(yl - 0.3), ceil(yh + 0.3)};
	if (c.yhi - c.ylo < 2)
		c.ylo = c.yhi - 2;
	kc_buf_printf(b,
	              "<svg class=\"mini-roofline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
	              "width=\"%.0f\" height=\"%.0f\" role=\"img\" font-family=\"'DejaVu Sans', 'Segoe UI', "
	              "Helvetica, Arial, sans-serif\" font-size=\"10\">\n<title>",
	              MW, MH, MW, MH);
	kc_escape_html(b, f->name);
	kc_buf_puts(b, ": the roofs that bound it on this machine</title>\n<rect width=\"100%\" height=\"100%\" "
	               "fill=\"#fff\"/>\n");
	/* frame and decade ticks */
	kc_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#999\"/>\n",
	              ML, MT, MW - ML - MR, MH - MT - MB);
	char tick[32];
	for (int e = (int)c.xlo; e <= (int)c.xhi; e++) {
		snprintf(tick, sizeof tick, "%g", pow(10, e));
		kc_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"#555\">%s</text>\n",
		              mx(&c, pow(10, e)), MH - MB + 16, e == (int)c.xhi ? "end" : "middle", tick);
	}
	for (int e = (int)c.ylo; e <= (int)c.yhi; e++) {
		snprintf(tick, sizeof tick, "%g", pow(10, e));
		kc_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>\n", ML - 4,
		              my(&c, pow(10, e)) + 3, tick);
	}
	kc_buf_printf(b,
	              "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#333\">FLOP/byte (streaming "
	              "model) &#8594; GFLOP/s &#8593;</text>\n",
	              (ML + MW - MR) / 2, MH - MB + 29);
	kc_buf_printf(b,
	              "<clipPath id=\"mini-plot-%d\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
	              "</clipPath>\n<g clip-path=\"url(#mini-plot-%d)\" fill=\"none\" stroke-width=\"1.5\">\n",
	              f->index, ML, MT, MW - ML - MR, MH - MT - MB, f->index);
	/* the memory roof of its level, and the horizontal ones */
	double x0 = pow(10, c.xlo), x1 = pow(10, c.xhi);
	if (bw > 0)
		kc_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n",
		              mx(&c, x0), my(&c, bw * x0), mx(&c, x1), my(&c, bw * x1));
	for (int i = 0; i < n; i++)
		kc_buf_printf(b,
		              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" "
		              "stroke-dasharray=\"%s\"/>\n",
		              ML, my(&c, roofs[i].gflops), MW - MR, my(&c, roofs[i].gflops), i ? "4 3" : "none");
	kc_buf_puts(b, "</g>\n");
	/* the points: predicted (circle) on the lowest roof at its intensity, measured (square) */
	kc_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"#0072B2\"><title>predicted ", mx(&c, ai),
	              my(&c, predicted));
	kc_format_sig3(b, predicted);
	kc_buf_puts(b, " GFLOP/s, bound: ");
	kc_escape_html(b, pr.bound ? pr.bound : "n/a");
	kc_buf_puts(b, "</title></circle>\n");
	if (measured) {
		kc_buf_printf(b,
		              "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\" stroke=\"#D55E00\">"
		              "<title>%s ",
		              mx(&c, mf.at) - 4.5, my(&c, mf.gflops) - 4.5, mf.approx ? "#fff" : "#D55E00",
		              mf.approx ? "approximately" : "measured");
		kc_format_sig3(b, mf.gflops);
		kc_buf_puts(b, " GFLOP/s</title></rect>\n");
	}
	/* roof labels at the right, inside the plot, above their lines, pushed apart where they would touch */
	double prev = -INFINITY;
	for (int i = 0; i < n; i++) {
		double y = fmax(my(&c, roofs[i].gflops) - 3, MT + 10);
		if (y < prev + 12)
			y = prev + 12;
		roofs[i].label_y = prev = y;
	}
	for (int i = 0; i < n; i++) {
		if (roofs[i].label_y > MH - MB - 4)
			continue; /* no room left in the plot: the line's tooltip-free label is dropped, never
			             overlapped */
		kc_buf_printf(b,
		              "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#333\" stroke=\"#fff\" "
		              "stroke-width=\"3\" paint-order=\"stroke\">",
		              MW - MR - 3, roofs[i].label_y);
		short_name(b, roofs[i].name);
		kc_buf_puts(b, " ");
		kc_format_sig3(b, roofs[i].gflops);
		kc_buf_puts(b, " GFLOP/s</text>\n");
	}
	/* the bound, and the measurement beside the prediction, under the axis title */
	kc_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">bound: <tspan font-weight=\"bold\">", ML,
	              MH - MB + 44);
	short_name(b, pr.bound ? pr.bound : "n/a");
	kc_buf_printf(b, "</tspan></text>\n<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">predicted ", ML, MH - MB + 57);
	kc_format_sig3(b, predicted);
	kc_buf_puts(b, " GFLOP/s (circle)");
	if (measured) {
		kc_buf_puts(b, mf.approx ? ", approximately " : ", measured ");
		kc_format_sig3(b, mf.gflops);
		kc_buf_puts(b, " (square)");
	}
	kc_buf_printf(b, "</text>\n<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">diagonal: %s bandwidth ", ML, MH - MB + 70,
	              kc_level_name(pr.level));
	kc_format_sig3(b, bw);
	kc_buf_puts(b, " GB/s, where its working set lives</text>\n</svg>\n");
}
