/* kcost-mutate.c — a mutant of a C file for the mutation run (scripts/mutants): `kcost-mutate FILE SEED`.
 *
 * The file is cut into libclang's tokens (clang_tokenize over the main file's extent: directives, macro
 * definitions and annotations such as KCOST_SIZES(n = 1 << 16) are tokens like the rest), and the bytes
 * between tokens are kept as they are, so comments and layout survive. 1 to 4 mutations are applied, chosen
 * by a splitmix64 generator seeded with SEED, so that a seed names one mutant on every machine: the C
 * library's rand() differs between libcs. A mutant equal to its source is retried with the next draws.
 * Mutants are broken C often, on purpose: kcost must answer them with a diagnostic, never a crash.
 * Exit status: 0 the mutant is on stdout; 2 usage error, unreadable file or no tokens.
 */
#include <clang-c/Index.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One piece of the mutant: the original bytes before a token (whitespace, comments), then its text. */
struct piece {
	char *gap;
	char *text;
	unsigned line; /* the original line of the token this piece came from (copies keep it) */
	int kind;      /* CXTokenKind of the original token, or -1 for inserted text */
};

struct mutant {
	struct piece *pieces;
	size_t count, cap;
	char *tail; /* the bytes after the last token */
};

static uint64_t rng_state;

/* splitmix64 (Steele, Lea, Flood 2014): a full-period 64-bit generator, the same on every platform. */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A uniform draw in [0, n), n > 0 (the modulo bias is irrelevant for n this small). */
static size_t rng_below(size_t n)
{
	return (size_t)(rng_next() % n);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("kcost-mutate: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* A new string: a, then b, then c. */
static char *concat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *p = xmalloc(la + lb + lc + 1);
	memcpy(p, a, la);
	memcpy(p + la, b, lb);
	memcpy(p + la + lb, c, lc + 1);
	return p;
}

static void mutant_insert(struct mutant *m, size_t at, const char *gap, const char *text, unsigned line, int kind)
{
	if (m->count == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 256;
		struct piece *grown = realloc(m->pieces, m->cap * sizeof *grown);
		if (!grown) {
			fputs("kcost-mutate: out of memory\n", stderr);
			exit(2);
		}
		m->pieces = grown;
	}
	memmove(&m->pieces[at + 1], &m->pieces[at], (m->count - at) * sizeof *m->pieces);
	m->pieces[at] = (struct piece){xstrdup(gap), xstrdup(text), line, kind};
	m->count++;
}

static void piece_set_text(struct piece *p, char *text)
{
	free(p->text);
	p->text = text;
}

static void mutant_release(struct mutant *m)
{
	for (size_t i = 0; i < m->count; i++) {
		free(m->pieces[i].gap);
		free(m->pieces[i].text);
	}
	free(m->pieces);
	free(m->tail);
	*m = (struct mutant){0};
}

static void mutant_copy(struct mutant *to, const struct mutant *from)
{
	*to = (struct mutant){0};
	for (size_t i = 0; i < from->count; i++) {
		const struct piece *p = &from->pieces[i];
		mutant_insert(to, i, p->gap, p->text, p->line, p->kind);
	}
	to->tail = xstrdup(from->tail);
}

/* The mutant's bytes, as one new string of *len bytes. */
static char *mutant_render(const struct mutant *m, size_t *len)
{
	size_t n = strlen(m->tail);
	for (size_t i = 0; i < m->count; i++)
		n += strlen(m->pieces[i].gap) + strlen(m->pieces[i].text);
	char *out = xmalloc(n + 1), *at = out;
	for (size_t i = 0; i < m->count; i++) {
		at = stpcpy(stpcpy(at, m->pieces[i].gap), m->pieces[i].text);
	}
	stpcpy(at, m->tail);
	*len = n;
	return out;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap + 1);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			char *grown = realloc(buf, cap + 1);
			if (!grown) {
				fclose(f);
				free(buf);
				return NULL;
			}
			buf = grown;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The tokens of PATH (whose bytes are SRC, LEN long) as pieces. Only the lexer's view matters: the parse is
 * there to give libclang a file to tokenize, and its errors (a missing header, a broken mutant) are ignored. */
static int mutant_tokenize(struct mutant *m, const char *path, const char *src, size_t len)
{
	CXIndex index = clang_createIndex(0, 0);
	const char *args[] = {"-xc", "-std=c17", "-w"};
	CXTranslationUnit tu = NULL;
	enum CXErrorCode err = clang_parseTranslationUnit2(
	    index, path, args, 3, NULL, 0, CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_Incomplete, &tu);
	int status = -1;
	if (err != CXError_Success || !tu) {
		fprintf(stderr, "kcost-mutate: %s: libclang could not read the file (error %d)\n", path, (int)err);
		goto end;
	}
	CXFile file = clang_getFile(tu, path);
	if (!file)
		goto end;
	CXSourceRange all = clang_getRange(clang_getLocationForOffset(tu, file, 0),
	                                   clang_getLocationForOffset(tu, file, (unsigned)len));
	CXToken *tokens = NULL;
	unsigned ntokens = 0;
	clang_tokenize(tu, all, &tokens, &ntokens);
	size_t pos = 0;
	for (unsigned i = 0; i < ntokens; i++) {
		CXSourceRange extent = clang_getTokenExtent(tu, tokens[i]);
		unsigned begin, end, line;
		clang_getSpellingLocation(clang_getRangeStart(extent), NULL, &line, NULL, &begin);
		clang_getSpellingLocation(clang_getRangeEnd(extent), NULL, NULL, NULL, &end);
		if (begin < pos || end < begin || end > len)
			continue; /* cannot happen for one file's tokens; a piece out of order would garble it */
		char *gap = xstrndup(src + pos, begin - pos), *text = xstrndup(src + begin, end - begin);
		mutant_insert(m, m->count, gap, text, line, (int)clang_getTokenKind(tokens[i]));
		free(gap);
		free(text);
		pos = end;
	}
	clang_disposeTokens(tu, tokens, ntokens);
	m->tail = xstrndup(src + pos, len - pos);
	status = m->count ? 0 : -1;
	if (!m->count)
		fprintf(stderr, "kcost-mutate: %s: no tokens\n", path);
end:
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(index);
	return status;
}

static const char *const hostile_numbers[] = {
    "0",
    "-1",
    "1",
    "2147483647",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615u",
    "99999999999999999999",
    "1e308",
    "1e-320",
    "0x7fffffff",
    "-0.0",
    "3.5",
};
static const char *const operators[] = {
    "+",  "-",  "*",  "/",  "%",  "<<", ">>", "<",  "<=", ">",  ">=",
    "==", "!=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=",
};
static const char *const control[] = {
    "for (;;) ", "goto kc_mutant_label; ", "return; ", "break; ", "continue; ", "kc_mutant_label:; ", "return 0; ",
};
/* What an annotation's value may become: the hostile numbers, and expressions the annotation language
 * must refuse or bound (overflow, division by zero, a name it does not know, nothing at all). */
static const char *const annotation_values[] = {
    "0", "-1",        "1 << 62",        "1 << 64", "n * n * n * n", "1 / 0", "n",   "nosuchname",
    "",  "((((1))))", "2147483647 + 1", "1e308",   "\"x\"",         "1,",    "= 1",
};
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static int is_number(const struct piece *p)
{
	return p->kind == CXToken_Literal && (p->text[0] == '.' || (p->text[0] >= '0' && p->text[0] <= '9'));
}

static int is_operator(const struct piece *p)
{
	if (p->kind != CXToken_Punctuation)
		return 0;
	for (size_t i = 0; i < COUNT_OF(operators); i++)
		if (strcmp(p->text, operators[i]) == 0)
			return 1;
	return 0;
}

static int is_operand(const struct piece *p)
{
	return p->kind == CXToken_Identifier || p->kind == CXToken_Literal;
}

static int is_statement_end(const struct piece *p)
{
	return p->kind == CXToken_Punctuation && (strcmp(p->text, ";") == 0 || strcmp(p->text, "{") == 0);
}

/* A random piece that satisfies WANT, or -1 when none does (a draw over the matching ones, not retries). */
static long pick(const struct mutant *m, int (*want)(const struct piece *))
{
	size_t matching = 0;
	for (size_t i = 0; i < m->count; i++)
		matching += want(&m->pieces[i]) != 0;
	if (!matching)
		return -1;
	size_t nth = rng_below(matching);
	for (size_t i = 0; i < m->count; i++)
		if (want(&m->pieces[i]) && nth-- == 0)
			return (long)i;
	return -1;
}

/* Whether piece I is a number or a name inside a KCOST_* annotation's parentheses: what an annotation
 * mutation edits. */
static int in_annotation(const struct mutant *m, size_t i)
{
	if (!is_operand(&m->pieces[i]))
		return 0;
	int depth = 0;
	for (size_t j = i; j-- > 0;) {
		const char *t = m->pieces[j].text;
		depth += strcmp(t, ")") == 0;
		if (strcmp(t, "(") == 0 && depth-- == 0)
			return j > 0 && m->pieces[j - 1].kind == CXToken_Identifier &&
			       strncmp(m->pieces[j - 1].text, "KCOST_", 6) == 0;
	}
	return 0;
}

static long pick_annotation_value(const struct mutant *m)
{
	size_t matching = 0;
	for (size_t i = 0; i < m->count; i++)
		matching += in_annotation(m, i);
	if (!matching)
		return -1;
	size_t nth = rng_below(matching);
	for (size_t i = 0; i < m->count; i++)
		if (in_annotation(m, i) && nth-- == 0)
			return (long)i;
	return -1;
}

/* A string of N copies of UNIT. */
static char *repeat(const char *unit, size_t n)
{
	size_t len = strlen(unit);
	char *s = xmalloc(n * len + 1);
	for (size_t i = 0; i < n; i++)
		memcpy(s + i * len, unit, len);
	s[n * len] = '\0';
	return s;
}

/* (((x))) or - - - x around a run of 1 to 3 pieces from an operand, a few hundred deep. */
static int mutate_wrap(struct mutant *m)
{
	long at = pick(m, is_operand);
	if (at < 0)
		return -1;
	size_t last = (size_t)at + rng_below(3);
	if (last >= m->count)
		last = m->count - 1;
	size_t depth = 100 + rng_below(400);
	int minus = rng_below(2);
	char *open = repeat(minus ? "- " : "(", depth), *close = repeat(minus ? "" : ")", depth);
	piece_set_text(&m->pieces[at], concat3(open, m->pieces[at].text, ""));
	piece_set_text(&m->pieces[last], concat3("", m->pieces[last].text, close));
	free(open);
	free(close);
	return 0;
}

/* The pieces of 1 to 6 whole original lines copied after the last of them: deeper nests, repeated statements. */
static int mutate_duplicate_lines(struct mutant *m)
{
	size_t first = rng_below(m->count);
	unsigned from = m->pieces[first].line, to = from + (unsigned)rng_below(6);
	while (first > 0 && m->pieces[first - 1].line == from)
		first--;
	size_t end = first;
	while (end < m->count && m->pieces[end].line >= from && m->pieces[end].line <= to)
		end++;
	for (size_t i = first, at = end; i < end; i++, at++) {
		const struct piece *p = &m->pieces[i];
		/* the copy's first piece starts a line of its own, whatever came before the original */
		const char *gap = i == first && !strchr(p->gap, '\n') ? "\n" : p->gap;
		char *text = xstrdup(p->text), *gap_copy = xstrdup(gap);
		mutant_insert(m, at, gap_copy, text, p->line, p->kind);
		free(text);
		free(gap_copy);
	}
	return 0;
}

static int mutate_once(struct mutant *m, const struct mutant *orig)
{
	size_t i = rng_below(m->count);
	long at;
	switch (rng_below(10)) {
	case 0: /* delete a token */
		piece_set_text(&m->pieces[i], xstrdup(""));
		return 0;
	case 1: /* duplicate a token */
		mutant_insert(m, i + 1, " ", m->pieces[i].text, m->pieces[i].line, m->pieces[i].kind);
		return 0;
	case 2: { /* swap two adjacent tokens */
		if (i + 1 >= m->count)
			return -1;
		char *t = m->pieces[i].text;
		m->pieces[i].text = m->pieces[i + 1].text;
		m->pieces[i + 1].text = t;
		return 0;
	}
	case 3: /* another token of the same file */
		piece_set_text(&m->pieces[i], xstrdup(orig->pieces[rng_below(orig->count)].text));
		return 0;
	case 4:
		if ((at = pick(m, is_number)) < 0)
			return -1;
		piece_set_text(&m->pieces[at], xstrdup(hostile_numbers[rng_below(COUNT_OF(hostile_numbers))]));
		return 0;
	case 5:
		if ((at = pick(m, is_operator)) < 0)
			return -1;
		piece_set_text(&m->pieces[at], xstrdup(operators[rng_below(COUNT_OF(operators))]));
		return 0;
	case 6:
		return mutate_wrap(m);
	case 7:
		return mutate_duplicate_lines(m);
	case 8: /* a statement of control flow after a ';' or a '{' */
		if ((at = pick(m, is_statement_end)) < 0)
			return -1;
		mutant_insert(m, (size_t)at + 1, " ", control[rng_below(COUNT_OF(control))], m->pieces[at].line, -1);
		return 0;
	default:
		if ((at = pick_annotation_value(m)) < 0)
			return -1;
		piece_set_text(&m->pieces[at], xstrdup(annotation_values[rng_below(COUNT_OF(annotation_values))]));
		return 0;
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: kcost-mutate FILE SEED\n", stderr);
		return 2;
	}
	char *end;
	errno = 0;
	uint64_t seed = strtoull(argv[2], &end, 10);
	if (errno || end == argv[2] || *end || argv[2][0] == '-') {
		fprintf(stderr, "kcost-mutate: bad seed '%s' (a decimal number)\n", argv[2]);
		return 2;
	}
	size_t len;
	char *src = read_file(argv[1], &len);
	if (!src) {
		fprintf(stderr, "kcost-mutate: %s: %s\n", argv[1], strerror(errno ? errno : EIO));
		return 2;
	}
	struct mutant orig = {0};
	if (mutant_tokenize(&orig, argv[1], src, len) != 0) {
		free(src);
		mutant_release(&orig);
		return 2;
	}
	rng_state = seed;
	char *out = NULL;
	size_t out_len = 0;
	/* a mutant equal to its source (a token swapped with its twin, a number replaced by itself) is drawn again */
	for (int attempt = 0; attempt < 1000; attempt++) {
		struct mutant m;
		mutant_copy(&m, &orig);
		size_t mutations = 1 + rng_below(4), applied = 0;
		for (int tries = 0; applied < mutations && tries < 100; tries++)
			applied += mutate_once(&m, &orig) == 0;
		free(out);
		out = mutant_render(&m, &out_len);
		mutant_release(&m);
		if (out_len != len || memcmp(out, src, len) != 0)
			break;
	}
	int status = 0;
	if (fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout) != 0) {
		fputs("kcost-mutate: cannot write the mutant\n", stderr);
		status = 2;
	}
	free(out);
	free(src);
	mutant_release(&orig);
	return status;
}
