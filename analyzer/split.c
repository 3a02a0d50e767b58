/* split.c — proposing a split of a large file into parts parsed on several threads (split.h).
 *
 * A lexer of C's surface, enough to find the top-level brace blocks: comments, string and character
 * literals, and preprocessor lines are skipped whole. Two passes: the first finds the blocks (a block opened
 * right after a parameter list's ')' is a function body, named by the identifier before that list's '(')
 * and the macros; the second unites each block with the functions and macros its text names, so that a
 * caller and its callee land in one part. A body holding a directive other than a loop's pragma, or a
 * _Pragma, or inside a top-level #if, is not blanked (it stays in every part, and its group stays in part 0);
 * a file using __COUNTER__ is not split. A function whose
 * group nothing else names (no other top-level block, no top-level declaration) is removed whole from the
 * other parts, its declaration too: the parts do not parse the other parts' declarations either. */
#define _GNU_SOURCE /* memmem */
#include "split.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"

/* ---- lexing --------------------------------------------------------------------------------------------- */

enum tok { T_EOF, T_IDENT, T_PUNCT, T_DIRECTIVE, T_OTHER };

/* Character classes, a table for the lexer's inner loops. */
enum { CL_SPACE = 1, CL_LINE = 2, CL_ID = 4, CL_DIGIT = 8 };
static unsigned char classes[256];

static void init_classes(void)
{
	for (int c = 0; c < 256; c++) {
		unsigned char k = 0;
		if (c == ' ' || c == '\t' || c == '\f' || c == '\v')
			k = CL_SPACE;
		else if (c == '\n' || c == '\r')
			k = CL_LINE;
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80)
			k = CL_ID;
		else if (c >= '0' && c <= '9')
			k = CL_DIGIT;
		classes[c] = k;
	}
}

#define CLASS(c) classes[(unsigned char)(c)]

struct lex {
	const char *t;
	size_t n, i;
	int bol; /* only white space since the last line end: a '#' starts a directive */
};

struct token {
	enum tok kind;
	size_t at, end;
	char c; /* T_PUNCT */
};

static int line_end(char c)
{
	return c == '\n' || c == '\r';
}

/* i just past a backslash-newline at i, or i */
static size_t splice(const struct lex *lx, size_t i)
{
	if (i < lx->n && lx->t[i] == '\\') {
		if (i + 1 < lx->n && lx->t[i + 1] == '\n')
			return i + 2;
		if (i + 1 < lx->n && lx->t[i + 1] == '\r')
			return i + 2 < lx->n && lx->t[i + 2] == '\n' ? i + 3 : i + 2;
	}
	return i;
}

/* past the quoted literal opening at i (an unterminated one ends at its line) */
static size_t skip_quoted(const struct lex *lx, size_t i)
{
	char q = lx->t[i++];
	while (i < lx->n && lx->t[i] != q && !line_end(lx->t[i]))
		i += lx->t[i] == '\\' && i + 1 < lx->n ? 2 : 1;
	return i < lx->n && lx->t[i] == q ? i + 1 : i;
}

/* past the block comment opening at i */
static size_t skip_block_comment(const struct lex *lx, size_t i)
{
	const char *end = lx->t + lx->n;
	for (const char *p = lx->t + i + 2; p < end; p++) {
		p = memchr(p, '*', (size_t)(end - p));
		if (!p)
			break;
		if (p + 1 < end && p[1] == '/')
			return (size_t)(p - lx->t) + 2;
	}
	return lx->n;
}

/* past the line comment opening at i, up to its line end (a backslash-newline continues it) */
static size_t skip_line_comment(const struct lex *lx, size_t i)
{
	while (i < lx->n && !line_end(lx->t[i])) {
		size_t j = lx->t[i] == '\\' ? splice(lx, i) : i;
		i = j != i ? j : i + 1;
	}
	return i;
}

/* past a directive starting at i: to the line end, across backslash-newlines and comments */
static size_t skip_directive(const struct lex *lx, size_t j)
{
	const char *t = lx->t;
	while (j < lx->n && !line_end(t[j])) {
		if (t[j] == '\\' && splice(lx, j) != j)
			j = splice(lx, j);
		else if (t[j] == '/' && j + 1 < lx->n && t[j + 1] == '*')
			j = skip_block_comment(lx, j);
		else if (t[j] == '/' && j + 1 < lx->n && t[j + 1] == '/')
			j = skip_line_comment(lx, j);
		else if (t[j] == '"' || t[j] == '\'')
			j = skip_quoted(lx, j);
		else
			j++;
	}
	return j;
}

static struct token next(struct lex *lx)
{
	const char *t = lx->t;
	size_t i = lx->i, n = lx->n;
	for (;;) {
		while (i < n && CLASS(t[i]) & (CL_SPACE | CL_LINE)) {
			if (CLASS(t[i]) == CL_LINE)
				lx->bol = 1;
			i++;
		}
		if (i >= n)
			break;
		char c = t[i];
		if (c == '\\' && splice(lx, i) != i) {
			i = splice(lx, i);
			continue;
		}
		if (c == '/' && i + 1 < n && t[i + 1] == '/') {
			i = skip_line_comment(lx, i);
			continue;
		}
		if (c == '/' && i + 1 < n && t[i + 1] == '*') {
			i = skip_block_comment(lx, i);
			continue;
		}
		if ((c == '#' || (c == '%' && i + 1 < n && t[i + 1] == ':')) && lx->bol) { /* '%:' is '#' too */
			lx->i = skip_directive(lx, i + (c == '#' ? 1 : 2));
			return (struct token){T_DIRECTIVE, i, lx->i, '#'};
		}
		lx->bol = 0;
		unsigned char k = CLASS(c);
		if (k == CL_ID) {
			size_t j = i + 1;
			while (j < n && CLASS(t[j]) & (CL_ID | CL_DIGIT))
				j++;
			if (j < n && (t[j] == '"' || t[j] == '\'') &&
			    ((j - i == 1 && (c == 'L' || c == 'u' || c == 'U')) ||
			     (j - i == 2 && !memcmp(t + i, "u8", 2)))) {
				lx->i = skip_quoted(lx, j); /* an encoding prefix */
				return (struct token){T_OTHER, i, lx->i, 0};
			}
			lx->i = j;
			return (struct token){T_IDENT, i, j, 0};
		}
		if (k == CL_DIGIT || (c == '.' && i + 1 < n && CLASS(t[i + 1]) == CL_DIGIT)) {
			size_t j = i + 1;
			while (j < n && (CLASS(t[j]) & (CL_ID | CL_DIGIT) || t[j] == '.' ||
			                 ((t[j] == '+' || t[j] == '-') && strchr("eEpP", t[j - 1]))))
				j++;
			lx->i = j;
			return (struct token){T_OTHER, i, j, 0};
		}
		if (c == '"' || c == '\'') {
			lx->i = skip_quoted(lx, i);
			return (struct token){T_OTHER, i, lx->i, 0};
		}
		lx->i = i + 1;
		return (struct token){T_PUNCT, i, i + 1, c};
	}
	lx->i = n;
	return (struct token){T_EOF, n, n, 0};
}

/* The directive's name ("define", "pragma"; empty for a null directive) as [*at, *end), and the lexer left
 * past it (comments may come between the '#' and the name). */
static struct lex directive_name(const char *t, struct token d, size_t *at, size_t *end)
{
	struct lex lx = {t, d.end, d.at + (t[d.at] == '#' ? 1 : 2), 0};
	struct token name = next(&lx);
	*at = *end = name.at;
	if (name.kind == T_IDENT)
		*end = name.end;
	return lx;
}

static int is_word(const char *t, size_t at, size_t end, const char *w)
{
	return end - at == strlen(w) && !memcmp(t + at, w, end - at);
}

/* ---- blocks and names ----------------------------------------------------------------------------------- */

struct block {
	size_t open, close;
	int fn;              /* after a ')': a function's body, its declaration's end */
	int body;            /* a function body the split may blank */
	size_t name, nl;     /* its function's name, text[name .. name + nl), or nl 0 */
	size_t decl;         /* where its declaration begins */
	int whole;           /* no directive between decl and open: the definition may be removed whole */
	int first_id, n_ids; /* the identifiers of its declaration and block: plan.ids[first_id ..] */
};

/* A top-level declaration without a block of its own (a prototype, a variable): the functions its
 * identifiers name, but for the name it declares, cannot be removed from any part. */
struct top {
	int first_id, n_ids;
	size_t declared; /* the declared name's offset (the identifier before its first '('), or 0 */
};

struct macro {
	size_t name, nl;     /* the macro's name */
	int first_id, n_ids; /* the identifiers of its replacement list */
};

struct ident {
	size_t at, nl;
	unsigned hash;
};

struct names { /* open addressing: a name's hash to a node (a block, or a macro after the blocks) */
	int *slot;
	unsigned mask;
};

struct plan {
	const char *t;
	struct block *blocks;
	int n_blocks, cap_blocks;
	struct macro *macros;
	int n_macros, cap_macros;
	struct ident *ids;
	int n_ids, cap_ids;
	struct top *tops;
	int n_tops, cap_tops;
	int *parent; /* union-find over blocks, then macros, then one node for the top-level declarations */
	struct names funcs, macro_names;
};

static int grow(void **p, int *cap, int n, size_t size)
{
	if (n < *cap)
		return 0;
	int c = *cap ? 2 * *cap : 64;
	void *g = realloc(*p, size * (size_t)c);
	if (!g)
		return -1;
	*p = g;
	*cap = c;
	return 0;
}

static unsigned hash_name(const char *t, size_t at, size_t nl)
{
	return (unsigned)kc_fnv1a(0xcbf29ce484222325ULL, t + at, nl);
}

static int add_id(struct plan *pl, struct token k)
{
	if (grow((void **)&pl->ids, &pl->cap_ids, pl->n_ids, sizeof *pl->ids) < 0)
		return -1;
	pl->ids[pl->n_ids++] = (struct ident){k.at, k.end - k.at, hash_name(pl->t, k.at, k.end - k.at)};
	return 0;
}

/* 1 when the #pragma whose words lx is at acts on the next loop only (omp, acc, unroll, ivdep, clang loop): a
 * body holding it may be blanked. Any other (pack, push_macro/pop_macro, clang diagnostic, ...) acts on the
 * text after it. */
static int loop_pragma(struct lex *lx)
{
	static const char *const alone[] = {"omp",  "acc",    "unroll",   "nounroll",  "ivdep",
	                                    "simd", "vector", "novector", "loop_count"};
	struct token w = next(lx);
	if (w.kind != T_IDENT)
		return 0;
	for (size_t i = 0; i < sizeof alone / sizeof *alone; i++)
		if (is_word(lx->t, w.at, w.end, alone[i]))
			return 1;
	struct token w2 = next(lx);
	if (w2.kind != T_IDENT)
		return 0;
	return (is_word(lx->t, w.at, w.end, "GCC") &&
	        (is_word(lx->t, w2.at, w2.end, "unroll") || is_word(lx->t, w2.at, w2.end, "ivdep"))) ||
	       (is_word(lx->t, w.at, w.end, "clang") && is_word(lx->t, w2.at, w2.end, "loop"));
}

/* 1 when text[at .. at + nl) names an attribute or a kcost annotation: a '(' group that may precede a
 * declarator without defining anything. */
static int annotation(const char *t, size_t at, size_t nl)
{
	static const char *const names[] = {"__attribute__", "__attribute", "__declspec", "_Alignas", "alignas"};
	if (nl > 6 && !memcmp(t + at, "KCOST_", 6))
		return 1;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strlen(names[i]) == nl && !memcmp(t + at, names[i], nl))
			return 1;
	return 0;
}

/* Pass one: the top-level blocks and the macros; -1 when the braces do not balance (or out of memory). */
static int find_blocks(struct plan *pl, size_t len)
{
	struct lex lx = {pl->t, len, 0, 1};
	const char *t = pl->t;
	int depth = 0, parens = 0, cond = 0, dirty = 0;
	enum tok prev = T_EOF;
	char prev_c = 0;
	size_t last_id = 0, last_nl = 0, cand = 0, cand_nl = 0;
	size_t decl = SIZE_MAX; /* the current top-level declaration's first token (SIZE_MAX: none yet) */
	int decl_dirty = 0, decl_id = 0;
	size_t group = 0, group_nl = 0; /* the identifier before the declaration's last top-level '(' group */
	struct block cur = {0};
	for (struct token k; (k = next(&lx)).kind != T_EOF;) {
		if (k.kind == T_DIRECTIVE && depth == 0 && decl != SIZE_MAX)
			decl_dirty = 1;
		if (k.kind == T_DIRECTIVE) {
			size_t a, e;
			struct lex ml = directive_name(t, k, &a, &e);
			if (is_word(t, a, e, "define")) {
				struct token name = next(&ml);
				if (name.kind == T_IDENT) {
					if (grow((void **)&pl->macros, &pl->cap_macros, pl->n_macros,
					         sizeof *pl->macros) < 0)
						return -1;
					struct macro *m = &pl->macros[pl->n_macros++];
					*m = (struct macro){name.at, name.end - name.at, pl->n_ids, 0};
					for (struct token r; (r = next(&ml)).kind != T_EOF;)
						if (r.kind == T_IDENT && add_id(pl, r) < 0)
							return -1;
					m->n_ids = pl->n_ids - m->first_id;
				}
			}
			if (depth > 0) {
				if (e > a && !(is_word(t, a, e, "pragma") && loop_pragma(&ml)))
					dirty = 1;
			} else if (is_word(t, a, e, "if") || is_word(t, a, e, "ifdef") || is_word(t, a, e, "ifndef")) {
				cond++;
			} else if (is_word(t, a, e, "endif") && cond > 0) {
				cond--;
			}
			continue;
		}
		char c = k.kind == T_PUNCT ? k.c : 0;
		if (depth > 0) {
			if (k.kind == T_IDENT && add_id(pl, k) < 0)
				return -1;
			if (k.kind == T_IDENT && is_word(t, k.at, k.end, "_Pragma"))
				dirty = 1; /* (it may be one that acts past the body: pack, push_macro) */
			if (c == '{')
				depth++;
			else if (c == '}' && --depth == 0) {
				cur.close = k.at;
				cur.n_ids = pl->n_ids - cur.first_id;
				if (dirty)
					cur.body = 0;
				if (grow((void **)&pl->blocks, &pl->cap_blocks, pl->n_blocks, sizeof *pl->blocks) < 0)
					return -1;
				pl->blocks[pl->n_blocks++] = cur;
				prev = T_PUNCT;
				prev_c = '}';
				/* a body ends its declaration; a struct's or an initializer's goes on to its ';' */
				if (cur.fn)
					decl = SIZE_MAX;
				decl_id = pl->n_ids;
			}
			continue;
		}
		if (c == '}')
			return -1;
		if (decl == SIZE_MAX) {
			decl = k.at;
			decl_dirty = 0;
			decl_id = pl->n_ids;
			group_nl = 0;
		}
		if (c == '{') {
			int fn = prev == T_PUNCT && prev_c == ')' && parens == 0, body = fn && cond == 0;
			cur = (struct block){.open = k.at,
			                     .fn = fn,
			                     .body = body,
			                     .name = body ? cand : 0,
			                     .nl = body ? cand_nl : 0,
			                     .decl = decl,
			                     .whole = !decl_dirty,
			                     .first_id = decl_id};
			depth = 1;
			dirty = 0;
			continue;
		}
		if (k.kind == T_IDENT) {
			if (add_id(pl, k) < 0)
				return -1;
			last_id = k.at;
			last_nl = k.end - k.at;
		} else if (c == '(') {
			/* a macro before the declarator (`DEFINE_KERNEL(square) void f(...)`) may define what the
			 * definition's removal would take with it: only attributes and kcost's annotations may */
			if (parens == 0 && group_nl && !annotation(t, group, group_nl))
				decl_dirty = 1;
			if (parens == 0 && prev == T_IDENT) {
				group = last_id;
				group_nl = last_nl;
			}
			if (parens++ == 0) {
				cand = prev == T_IDENT ? last_id : 0;
				cand_nl = prev == T_IDENT ? last_nl : 0;
			}
		} else if (c == ')') {
			if (parens > 0)
				parens--;
		} else if (c == ';') {
			if (grow((void **)&pl->tops, &pl->cap_tops, pl->n_tops, sizeof *pl->tops) < 0)
				return -1;
			pl->tops[pl->n_tops++] = (struct top){decl_id, pl->n_ids - decl_id, cand_nl ? cand : 0};
			cand_nl = 0;
			decl = SIZE_MAX;
		}
		prev = k.kind;
		prev_c = c;
	}
	return depth == 0 ? 0 : -1;
}

static int names_init(struct names *h, int n)
{
	unsigned size = 16;
	while (size < 2u * (unsigned)n + 1)
		size *= 2;
	h->slot = malloc(sizeof *h->slot * size);
	if (!h->slot)
		return -1;
	memset(h->slot, -1, sizeof *h->slot * size);
	h->mask = size - 1;
	return 0;
}

/* The node named text[at .. at + nl) in h (each node's name given by name_of), or -1; with `add` >= 0, enter
 * `add` under that name when none is there. */
static int names_find(struct names *h, const struct plan *pl, size_t at, size_t nl, unsigned hash, int add,
                      void (*name_of)(const struct plan *, int, size_t *, size_t *))
{
	for (unsigned i = hash & h->mask;; i = (i + 1) & h->mask) {
		int s = h->slot[i];
		if (s < 0) {
			if (add >= 0)
				h->slot[i] = add;
			return -1;
		}
		size_t sa, sn;
		name_of(pl, s, &sa, &sn);
		if (sn == nl && !memcmp(pl->t + sa, pl->t + at, nl))
			return s;
	}
}

static void block_name(const struct plan *pl, int b, size_t *at, size_t *nl)
{
	*at = pl->blocks[b].name;
	*nl = pl->blocks[b].nl;
}

static void macro_name(const struct plan *pl, int m, size_t *at, size_t *nl)
{
	*at = pl->macros[m - pl->n_blocks].name;
	*nl = pl->macros[m - pl->n_blocks].nl;
}

static int find_root(int *parent, int x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

static void unite(int *parent, int x, int y)
{
	x = find_root(parent, x);
	y = find_root(parent, y);
	if (x != y) /* the earlier node is the root: a group is known by its first block */
		parent[x > y ? x : y] = x < y ? x : y;
}

/* Unite node `self` with every function and macro its identifiers plan.ids[first .. first + n) name. */
static void unite_mentions(struct plan *pl, int self, int first, int n)
{
	for (int i = first; i < first + n; i++) {
		const struct ident *k = &pl->ids[i];
		int f = names_find(&pl->funcs, pl, k->at, k->nl, k->hash, -1, block_name);
		if (f >= 0)
			unite(pl->parent, self, f);
		int m = names_find(&pl->macro_names, pl, k->at, k->nl, k->hash, -1, macro_name);
		if (m >= 0)
			unite(pl->parent, self, m);
	}
}

/* Pass two: group the blocks. -1 on out-of-memory. */
static int group(struct plan *pl)
{
	int nodes = pl->n_blocks + pl->n_macros + 1, top = nodes - 1;
	pl->parent = malloc(sizeof *pl->parent * (size_t)(nodes + 1));
	if (!pl->parent || names_init(&pl->funcs, pl->n_blocks) < 0 || names_init(&pl->macro_names, pl->n_macros) < 0)
		return -1;
	for (int i = 0; i < nodes; i++)
		pl->parent[i] = i;
	for (int b = 0; b < pl->n_blocks; b++) {
		const struct block *k = &pl->blocks[b];
		if (!k->body || !k->nl)
			continue;
		int same = names_find(&pl->funcs, pl, k->name, k->nl, hash_name(pl->t, k->name, k->nl), b, block_name);
		if (same >= 0) /* two bodies of one name (a macro's expansion): together */
			unite(pl->parent, same, b);
	}
	for (int m = 0; m < pl->n_macros; m++)
		names_find(&pl->macro_names, pl, pl->macros[m].name, pl->macros[m].nl,
		           hash_name(pl->t, pl->macros[m].name, pl->macros[m].nl), pl->n_blocks + m, macro_name);
	for (int m = 0; m < pl->n_macros; m++)
		unite_mentions(pl, pl->n_blocks + m, pl->macros[m].first_id, pl->macros[m].n_ids);
	for (int b = 0; b < pl->n_blocks; b++)
		unite_mentions(pl, b, pl->blocks[b].first_id, pl->blocks[b].n_ids);
	for (int d = 0; d < pl->n_tops; d++) {
		const struct top *k = &pl->tops[d];
		for (int i = k->first_id; i < k->first_id + k->n_ids; i++)
			if (pl->ids[i].at != k->declared)
				unite_mentions(pl, top, i, 1);
	}
	return 0;
}

/* ---- the plan ------------------------------------------------------------------------------------------- */

static void plan_release(struct plan *pl)
{
	free(pl->blocks);
	free(pl->macros);
	free(pl->ids);
	free(pl->tops);
	free(pl->parent);
	free(pl->funcs.slot);
	free(pl->macro_names.slot);
}

/* Assign each group to a part: a group holding a block the split does not blank to part 0 (that block is
 * in every part's text, lowered by part 0), the others, in file order, to the part with the least body text
 * so far. Fills s->bodies; returns the largest part's share of the body text (1 when nothing is assigned). */
static double assign(struct plan *pl, struct kc_split *s, int parts)
{
	int n = pl->n_blocks;
	int *part = malloc(sizeof *part * (size_t)(n + 1));
	char *pin = calloc((size_t)n + 1, 1);
	s->bodies = malloc(sizeof *s->bodies * (size_t)(n + 1));
	if (!part || !pin || !s->bodies) {
		free(part);
		free(pin);
		return 1;
	}
	double weight[KC_SPLIT_MAX_PARTS] = {0}, total = 0;
	for (int b = 0; b < n; b++)
		part[b] = -1;
	int top = find_root(pl->parent, n + pl->n_macros);
	for (int b = 0; b < n; b++)
		if (!pl->blocks[b].body || find_root(pl->parent, b) == top) {
			int r = find_root(pl->parent, b);
			part[r] = 0;
			pin[r] = 1;
		}
	for (int b = 0; b < n; b++) { /* the pinned groups first: part 0 holds them whatever comes */
		const struct block *k = &pl->blocks[b];
		if (k->body && pin[find_root(pl->parent, b)])
			weight[0] += (double)(k->close - k->open);
	}
	for (int b = 0; b < n; b++) {
		const struct block *k = &pl->blocks[b];
		if (!k->body)
			continue;
		int r = find_root(pl->parent, b);
		if (part[r] < 0) { /* a group's first body: to the lightest part so far */
			int p = 0;
			for (int q = 1; q < parts; q++)
				if (weight[q] < weight[p])
					p = q;
			part[r] = p;
			weight[p] += 1e-9; /* (a tie goes on to the next part) */
		}
		double w = (double)(k->close - k->open);
		if (!pin[r])
			weight[part[r]] += w;
		total += w;
		s->bodies[s->n_bodies++] =
		    (struct kc_split_body){k->open, k->close, k->decl, k->whole && !pin[r], part[r]};
	}
	free(part);
	free(pin);
	double most = 0;
	for (int p = 0; p < parts; p++)
		if (weight[p] > most)
			most = weight[p];
	return total > 0 ? most / total : 1;
}

/* Spaces over text[from .. to), its line ends kept ('\r' too when the text has one). */
static void blank(char *text, size_t from, size_t to, int has_cr)
{
	while (from < to) {
		size_t end = from;
		if (has_cr)
			while (end < to && !line_end(text[end]))
				end++;
		else {
			char *nl = memchr(text + from, '\n', to - from);
			end = nl ? (size_t)(nl - text) : to;
		}
		memset(text + from, ' ', end - from);
		from = end + 1;
	}
}

void kc_split_plan(struct kc_split *s, const char *text, size_t len, int parts, int min_bodies)
{
	memset(s, 0, sizeof *s);
	if (parts > KC_SPLIT_MAX_PARTS)
		parts = KC_SPLIT_MAX_PARTS;
	if (parts < 2 || !text)
		return;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, init_classes);
	struct plan pl = {.t = text};
	int bodies = 0;
	/* __COUNTER__ counts its uses in the order parsed: a blanked body would change the values after it */
	if (!memmem(text, len, "__COUNTER__", 11) && find_blocks(&pl, len) == 0 && group(&pl) == 0) {
		for (int b = 0; b < pl.n_blocks; b++)
			bodies += pl.blocks[b].body;
		/* fewer parts when the groups do not spread over as many (a file of few large groups on many cores) */
		for (int p = parts; p >= 2 && bodies >= min_bodies && !s->parts; p--) {
			free(s->bodies);
			s->bodies = NULL;
			s->n_bodies = 0;
			if (assign(&pl, s, p) <= 1.0 / p + 0.25)
				s->parts = p;
		}
	}
	plan_release(&pl);
	int has_cr = s->parts && memchr(text, '\r', len) != NULL;
	for (int p = 0; p < s->parts; p++) {
		s->text[p] = malloc(len + 1);
		if (!s->text[p]) {
			kc_split_release(s);
			return;
		}
		memcpy(s->text[p], text, len);
		s->text[p][len] = 0;
		for (int i = 0; i < s->n_bodies; i++) {
			if (s->bodies[i].part == p)
				continue;
			const struct kc_split_body *b = &s->bodies[i];
			if (b->removed)
				blank(s->text[p], b->decl, b->close + 1, has_cr);
			else
				blank(s->text[p], b->open + 1, b->close, has_cr);
		}
	}
	s->len = len;
	if (!s->parts) {
		free(s->bodies);
		s->bodies = NULL;
		s->n_bodies = 0;
	}
}

const struct kc_split_body *kc_split_body_at(const struct kc_split *s, size_t open)
{
	int lo = 0, hi = s->n_bodies;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->bodies[mid].open < open)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n_bodies && s->bodies[lo].open == open ? &s->bodies[lo] : NULL;
}

void kc_split_release(struct kc_split *s)
{
	free(s->bodies);
	for (int p = 0; p < KC_SPLIT_MAX_PARTS; p++)
		free(s->text[p]);
	memset(s, 0, sizeof *s);
}
