/* annotate.c — parser for the annotation value language (see annotate.h for the grammar). */
#include "annotate.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	struct kc_arena *a;
	const char *s;
	kc_name_resolver resolve;
	void *ctx;
	const char *err;
	int depth; /* of nested parentheses: the parser recurses once per level */
};

/* Parentheses nested in one annotation value, as many as clang's own parser takes (it stops at 256). */
#define KC_ANNOT_MAX_DEPTH  256
#define KC_ANNOT_DEPTH_TEXT "256"

/* Terms of an annotation value and of each step towards it. A product of sums multiplies their numbers of
 * terms: (n + m + k) * (n - m - k) * ... written in 1 KB expands to thousands of terms, each product costing
 * the product of its operands' sizes (seconds of parsing, and as much again wherever the value is used). Real
 * extents and trip counts have a few. */
#define KC_ANNOT_MAX_TERMS  64
#define KC_ANNOT_TERMS_TEXT "64"

static void skip_space(struct parser *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static int accept(struct parser *p, const char *tok)
{
	skip_space(p);
	size_t n = strlen(tok);
	if (strncmp(p->s, tok, n) != 0)
		return 0;
	p->s += n;
	return 1;
}

static struct kc_poly *fail(struct parser *p, const char *msg)
{
	/* the rest of the text is quoted up to 40 bytes: an annotation may be 100k characters long */
	if (!p->err && !*p->s)
		p->err = kc_arena_printf(p->a, "%s at end of text", msg);
	else if (!p->err)
		p->err = kc_arena_printf(p->a, "%s at '%.40s%s'", msg, p->s, strlen(p->s) > 40 ? "..." : "");
	return NULL;
}

static struct kc_poly *parse_shift(struct parser *p);

static struct kc_poly *parse_primary(struct parser *p);

/* unary := '-' unary | primary   (a chain of signs is counted, not recursed: `- - - ... 1` is one level) */
static struct kc_poly *parse_unary(struct parser *p)
{
	int negate = 0;
	while (accept(p, "-"))
		negate = !negate;
	struct kc_poly *x = parse_primary(p);
	if (x && negate && kc_poly_neg(p->a, x, &x) < 0)
		return fail(p, "overflow");
	return x;
}

/* primary := INTEGER | NAME | '(' expr ')'   (at most KC_ANNOT_MAX_DEPTH parentheses deep) */
static struct kc_poly *parse_primary(struct parser *p)
{
	struct kc_poly *x;
	skip_space(p);
	if (accept(p, "(")) {
		if (p->depth >= KC_ANNOT_MAX_DEPTH)
			return fail(p, "parentheses nested more than " KC_ANNOT_DEPTH_TEXT " levels deep");
		p->depth++;
		x = parse_shift(p);
		p->depth--;
		return x && accept(p, ")") ? x : fail(p, "expected ')'");
	}
	if (isdigit((unsigned char)*p->s)) {
		char *end;
		errno = 0;
		long long v = strtoll(p->s, &end, 0);
		if (errno)
			return fail(p, "integer too large");
		p->s = end;
		while (*p->s == 'u' || *p->s == 'U' || *p->s == 'l' || *p->s == 'L')
			p->s++;
		return kc_poly_const(p->a, v, 1);
	}
	if (isalpha((unsigned char)*p->s) || *p->s == '_') {
		const char *start = p->s;
		while (isalnum((unsigned char)*p->s) || *p->s == '_')
			p->s++;
		x = p->resolve ? p->resolve(p->ctx, start, (size_t)(p->s - start)) : NULL;
		if (!x)
			p->err = kc_arena_printf(p->a, "unknown name '%.*s'", (int)(p->s - start), start);
		return x;
	}
	return fail(p, "expected a number, a name or '('");
}

/* x, or a failure when it has more terms than an annotation value may (a product or a sum just made) */
static struct kc_poly *small(struct parser *p, struct kc_poly *x)
{
	if (kc_poly_nterms(x) > KC_ANNOT_MAX_TERMS)
		return fail(p, "the value expands to more than " KC_ANNOT_TERMS_TEXT " terms");
	return x;
}

/* prod := unary (('*'|'/') unary)* */
static struct kc_poly *parse_prod(struct parser *p)
{
	struct kc_poly *x = parse_unary(p), *y;
	while (x) {
		if (accept(p, "*")) {
			if (!(y = parse_unary(p)) || kc_poly_mul(p->a, x, y, &x) < 0)
				return fail(p, "bad product");
			x = small(p, x);
		} else if (accept(p, "/")) {
			struct kc_rat c, inv;
			if (!(y = parse_unary(p)) || !kc_poly_is_const(y, &c) || c.num == 0)
				return fail(p, "division by a non-constant or zero");
			if (kc_rat_div(kc_rat_int(1), c, &inv) < 0 || kc_poly_scale(p->a, x, inv, &x) < 0)
				return fail(p, "overflow");
		} else {
			break;
		}
	}
	return x;
}

/* sum := prod (('+'|'-') prod)* */
static struct kc_poly *parse_sum(struct parser *p)
{
	struct kc_poly *x = parse_prod(p), *y;
	while (x) {
		skip_space(p);
		if (p->s[0] == '<')
			break;
		if (accept(p, "+")) {
			if (!(y = parse_prod(p)) || kc_poly_add(p->a, x, y, &x) < 0)
				return fail(p, "bad sum");
			x = small(p, x);
		} else if (accept(p, "-")) {
			if (!(y = parse_prod(p)) || kc_poly_sub(p->a, x, y, &x) < 0)
				return fail(p, "bad difference");
			x = small(p, x);
		} else {
			break;
		}
	}
	return x;
}

/* shift := sum ('<<' sum)*   (the shift count must be a constant in 0..62) */
static struct kc_poly *parse_shift(struct parser *p)
{
	struct kc_poly *x = parse_sum(p), *y;
	while (x && accept(p, "<<")) {
		struct kc_rat c;
		if (!(y = parse_sum(p)) || !kc_poly_is_const(y, &c) || c.den != 1 || c.num < 0 || c.num > 62)
			return fail(p, "shift by a non-constant or out-of-range count");
		if (kc_poly_scale(p->a, x, kc_rat_int(1LL << (int)c.num), &x) < 0)
			return fail(p, "overflow");
	}
	return x;
}

int kc_annot_parse_expr(struct kc_arena *a, const char *text, kc_name_resolver resolve, void *ctx, struct kc_poly **out,
                        const char **err)
{
	struct parser p = {a, text, resolve, ctx, NULL, 0};
	struct kc_poly *x = parse_shift(&p);
	skip_space(&p);
	if (x && *p.s)
		x = fail(&p, "unexpected text");
	if (!x) {
		*err = p.err ? p.err : "invalid expression";
		return -1;
	}
	*out = x;
	return 0;
}

int kc_annot_parse_sizes(struct kc_arena *a, const char *text, kc_size_setter set, void *ctx, const char **err)
{
	struct parser p = {a, text, NULL, NULL, NULL, 0};
	for (;;) {
		skip_space(&p);
		const char *name = p.s;
		while (isalnum((unsigned char)*p.s) || *p.s == '_')
			p.s++;
		size_t len = (size_t)(p.s - name);
		if (!len || isdigit((unsigned char)name[0]) || !accept(&p, "=")) {
			*err = kc_arena_printf(a, "expected NAME = VALUE at '%s'", name);
			return -1;
		}
		struct kc_poly *v = parse_shift(&p);
		struct kc_rat c;
		if (!v || !kc_poly_is_const(v, &c) || c.den != 1 || c.num < 0) {
			*err = p.err ? p.err
			             : kc_arena_printf(a, "size '%.*s' is not a non-negative integer", (int)len, name);
			return -1;
		}
		if (c.num > (__int128)0x7fffffffffffffffLL) {
			*err = kc_arena_printf(a, "size '%.*s' does not fit in 64 bits", (int)len, name);
			return -1;
		}
		if (set(ctx, name, len, (long long)c.num) < 0) {
			*err = kc_arena_printf(a, "cannot set size '%.*s'", (int)len, name);
			return -1;
		}
		if (!accept(&p, ","))
			break;
	}
	skip_space(&p);
	if (*p.s) {
		*err = kc_arena_printf(a, "unexpected text at '%s'", p.s);
		return -1;
	}
	return 0;
}
