/* cachegrind.c — the cachegrind invocation's --LL option and the parsing of its output. */
#include "cachegrind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"

/* "desc: D1 cache:         49152 B, 64 B, 12-way associative" (also "desc: LL: 8388608 B, 64 B, 16-way ..."):
 * the cache named `name`, or 0 when the line is about another. */
static int parse_desc(const char *line, const char *name, long long *size, int *line_size, int *assoc)
{
	const char *p = line + strlen("desc:");
	p += strspn(p, " \t");
	size_t len = strlen(name);
	if (strncmp(p, name, len) != 0 || (p[len] != ' ' && p[len] != ':'))
		return 0;
	p = strchr(p, ':');
	if (!p)
		return 0;
	char *end;
	long long s = strtoll(p + 1, &end, 10);
	const char *comma = strchr(end, ',');
	if (!comma || s <= 0)
		return 0;
	long l = strtol(comma + 1, &end, 10);
	const char *comma2 = strchr(end, ',');
	long ways = comma2 ? strtol(comma2 + 1, &end, 10) : 0;
	*size = s;
	*line_size = (int)l;
	*assoc = comma2 && !strncmp(end, "-way", 4) ? (int)ways : 0;
	return 1;
}

/* The value of event `name` on a summary line, given the events line; 0 if the event is absent. */
static long long event_value(const char *events, const char *summary, const char *name)
{
	size_t len = strlen(name);
	const char *e = events, *s = summary;
	for (;;) {
		e += strspn(e, " \t");
		s += strspn(s, " \t");
		if (!*e || *e == '\n')
			return 0;
		size_t elen = strcspn(e, " \t\n");
		char *end;
		long long v = strtoll(s, &end, 10);
		if (elen == len && !strncmp(e, name, len))
			return end == s ? 0 : v;
		e += elen;
		s = end;
	}
}

static int count_fields(const char *p)
{
	int n = 0;
	for (;;) {
		p += strspn(p, " \t");
		if (!*p || *p == '\n')
			return n;
		n++;
		p += strcspn(p, " \t\n");
	}
}

/* The text after "key:" at the start of a line of `text`, or NULL. */
static const char *line_value(const char *text, const char *key)
{
	size_t len = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, len))
			return p + len;
	return NULL;
}

static void parse_descs(const char *text, struct kc_cachegrind *c)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "desc:", 5) != 0)
			continue;
		if (!parse_desc(p, "D1", &c->d1_size, &c->d1_line, &c->d1_assoc))
			parse_desc(p, "LL", &c->ll_size, &c->ll_line, &c->ll_assoc);
	}
}

int kc_cachegrind_parse(const char *text, struct kc_cachegrind *out, const char **why)
{
	memset(out, 0, sizeof *out);
	const char *events = line_value(text, "events:");
	const char *summary = line_value(text, "summary:");
	if (!summary)
		summary = line_value(text, "totals:");
	*why = !events ? "no events line" : !summary ? "no summary line" : NULL;
	if (*why)
		return -1;
	if (count_fields(events) != count_fields(summary)) {
		*why = "the summary line does not have one count per event";
		return -1;
	}
	parse_descs(text, out);
	if (!out->ll_line || !out->d1_line) {
		*why = "no D1 or LL cache description";
		return -1;
	}
	static const char *const names[] = {"Ir", "Dr", "Dw", "D1mr", "D1mw", "DLmr", "DLmw"};
	long long *fields[] = {&out->ir, &out->dr, &out->dw, &out->d1mr, &out->d1mw, &out->dlmr, &out->dlmw};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		*fields[i] = event_value(events, summary, names[i]);
	return 0;
}

double kc_cachegrind_dram_bytes(const struct kc_cachegrind *c)
{
	return ((double)c->dlmr + (double)c->dlmw) * c->ll_line;
}

double kc_cachegrind_l2_bytes(const struct kc_cachegrind *c)
{
	return ((double)c->d1mr + (double)c->d1mw) * c->d1_line;
}

int kc_cachegrind_ll_option(long long size, int assoc, int line, char *out, size_t n, long long *simulated)
{
	if (size <= 0 || assoc <= 0 || line <= 0 || size < (long long)assoc * line)
		return -1;
	long long sets = size / ((long long)assoc * line), pow2 = 1;
	while (pow2 * 2 <= sets)
		pow2 *= 2;
	*simulated = pow2 * assoc * line;
	return (size_t)snprintf(out, n, "--LL=%lld,%d,%d", *simulated, assoc, line) < n ? 0 : -1;
}

const char **kc_cachegrind_argv(struct kc_arena *a, const char *valgrind, const char *ll_option, const char *out_file,
                                const char *const *program)
{
	int n = 0;
	while (program[n])
		n++;
	const char **argv = KC_NEW_N(a, const char *, n + 6);
	argv[0] = valgrind, argv[1] = "--tool=cachegrind", argv[2] = "--cache-sim=yes", argv[3] = ll_option;
	argv[4] = kc_arena_printf(a, "--cachegrind-out-file=%s", out_file);
	for (int i = 0; i <= n; i++)
		argv[5 + i] = program[i];
	return argv;
}

int kc_cachegrind_read(struct kc_arena *a, const char *path, struct kc_cachegrind *out, const char **why)
{
	struct kc_buf text = KC_BUF_INIT;
	kc_buf_read_file(&text, path, (size_t)-1); /* a missing file parses as empty: kc_cachegrind_parse says so */
	int rc = kc_cachegrind_parse(kc_buf_str(&text), out, why);
	if (rc < 0)
		*why = kc_arena_printf(a, "cannot read %s: %s", path, *why);
	kc_buf_release(&text);
	return rc;
}
