/* format.c — numbers and units for people: SI prefixes, significant digits, seconds, intensities, exactness. */
#include "format.h"

#include <math.h>

const char *kc_format_digits(char *out, long long v)
{
	char *d = out + KC_FORMAT_DIGITS - 1;
	unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	*d = '\0';
	do
		*--d = (char)('0' + (int)(u % 10));
	while (u /= 10);
	if (v < 0)
		*--d = '-';
	return d;
}

void kc_format_int(struct kc_buf *b, long long v)
{
	char out[KC_FORMAT_DIGITS];
	const char *d = kc_format_digits(out, v);
	kc_buf_add(b, d, (size_t)(out + KC_FORMAT_DIGITS - 1 - d));
}

void kc_format_fixed(struct kc_buf *b, double v, int decimals)
{
	static const double scale[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
	if (decimals < 0 || decimals > 9 || !isfinite(v)) {
		kc_buf_printf(b, "%.*f", decimals, v);
		return;
	}
	/* r is |v| * 10^decimals rounded once (the power is exact): the exact product lies within half an ulp of
	 * r, so r rounds as it does unless it is that close to a tie; 2^52 keeps r's integer part exact */
	double r = fabs(v) * scale[decimals];
	double frac = r - floor(r);
	if (!(r < 0x1p52) || fabs(frac - 0.5) <= r * 0x1p-51 + 0x1p-1074) {
		kc_buf_printf(b, "%.*f", decimals, v);
		return;
	}
	long long t = (long long)floor(r) + (frac > 0.5);
	char out[KC_FORMAT_DIGITS + 12], *end = out + sizeof out, *d = end;
	for (int i = 0; i < decimals; i++, t /= 10)
		*--d = (char)('0' + (int)(t % 10));
	if (decimals)
		*--d = '.';
	do
		*--d = (char)('0' + (int)(t % 10));
	while (t /= 10);
	if (signbit(v))
		*--d = '-';
	kc_buf_add(b, d, (size_t)(end - d));
}

void kc_format_sig3(struct kc_buf *b, double v)
{
	double mag = fabs(v);
	if (v == 0)
		kc_buf_puts(b, "0");
	else if (mag >= 99.95)
		kc_format_fixed(b, v, 0);
	else if (mag >= 9.995)
		kc_format_fixed(b, v, 1);
	else if (mag >= 0.9995)
		kc_format_fixed(b, v, 2);
	else if (mag >= 1e-4) /* 0.100, 0.0833: keep three significant digits, trailing zeros included */
		kc_format_fixed(b, v, 2 - (int)floor(log10(mag)));
	else
		kc_buf_printf(b, "%.2e", v);
}

void kc_format_si(struct kc_buf *b, double v, const char *unit)
{
	static const char prefixes[] = " kMGTPEZY";
	double mag = fabs(v);
	int k = 0;
	/* a word is counted ("4.2M calls"); a unit takes the prefix ("4.2 MFLOP") */
	int word = *unit >= 'a' && *unit <= 'z';
	const char *space = *unit ? " " : "";
	if (mag < 999.5) {
		if (mag == floor(mag))
			kc_buf_printf(b, "%.0f", v);
		else
			kc_format_sig3(b, v);
		kc_buf_printf(b, "%s%s", space, unit);
		return;
	}
	/* one decimal after scaling; 999.96 k rounds to "1000.0", so move up a prefix first */
	while (mag >= 999.95 && prefixes[k + 1]) {
		mag /= 1000;
		k++;
	}
	if (word)
		kc_buf_printf(b, "%.1f%c %s", v < 0 ? -mag : mag, prefixes[k], unit);
	else
		kc_buf_printf(b, "%.1f%s%c%s", v < 0 ? -mag : mag, space, prefixes[k], unit);
}

void kc_format_si_figure(struct kc_buf *b, const struct kc_figure *fig, const char *unit)
{
	if (fig->has_value)
		kc_format_si(b, (double)fig->value, unit);
	else
		kc_buf_puts(b, "n/a");
}

void kc_format_seconds(struct kc_buf *b, double s)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "\xc2\xb5s"}, {1e-9, "ns"}};
	int i = 0;
	while (i < 3 && fabs(s) < units[i].scale * 0.9995)
		i++;
	kc_format_sig3(b, s / units[i].scale);
	kc_buf_printf(b, " %s", units[i].unit);
}

void kc_format_intensity(struct kc_buf *b, const struct kc_cost_figures *cf, int model)
{
	if (!cf->has_intensity[model]) {
		kc_buf_puts(b, "n/a");
		return;
	}
	kc_format_sig3(b, cf->intensity[model]);
	kc_buf_puts(b, " FLOP/B");
}

void kc_format_rate(struct kc_buf *b, double flop_per_s, int approx, const char *approx_mark)
{
	if (approx)
		kc_buf_puts(b, approx_mark);
	kc_format_si(b, flop_per_s, "FLOP/s");
}

void kc_format_extent_origin(struct kc_buf *b, const struct kc_buffer *buf, const char *dash)
{
	if (buf->extent_origin != KC_EXTENT_ACCESSES)
		return;
	kc_buf_puts(b, "extent inferred from accesses (line");
	if (buf->last_line > buf->first_line)
		kc_buf_printf(b, "s %u%s%u)", buf->first_line, dash, buf->last_line);
	else
		kc_buf_printf(b, " %u)", buf->first_line);
}

void kc_format_exactness(struct kc_buf *b, const struct kc_function *f)
{
	int n = f->diags.warnings + f->diags.errors;
	const char *what = f->exact_ops ? "traffic approx" : f->exact_flops ? "FLOPs exact" : "approx";
	if (f->exact)
		kc_buf_puts(b, "exact");
	else if (n == 0)
		kc_buf_puts(b, what);
	else
		kc_buf_printf(b, "%s: %d warning%s", what, n, n == 1 ? "" : "s");
}
