/* split.h — private to the front end: a large file parsed in parts, one per core.
 *
 * libclang parses a file on one thread, and a large file's function bodies are most of its parse. A split
 * gives each of N threads its own parse of the file in which the bodies of the other parts' functions are
 * blanked (spaces, the line ends kept: every offset, line and column stays the file's), so that each parse
 * and each lowering does about 1/N of the bodies. This file only proposes the split, from the text: where
 * the top-level brace blocks are, which ones are function bodies that can be blanked, and which bodies must
 * stay together (a body that names another function of the file is lowered with it: calls and the sizes
 * callers pass stay in one translation unit). It is not a parser: whatever it gets wrong, the front end finds
 * in libclang's parses (a blanked region that is not exactly a function's body, a diagnostic, a call into a
 * blanked body) and then parses the file whole. */
#ifndef KC_SPLIT_H
#define KC_SPLIT_H

#include <stddef.h>

#define KC_SPLIT_MAX_PARTS 8

/* A function body the split blanks in every part but its own: text[open] is its '{', text[close] its '}'.
 * When nothing outside its group names the function, the other parts blank its whole definition, from
 * text[decl] (its declaration's first token: annotations, return type), and do not parse it at all. */
struct kc_split_body {
	size_t open, close;
	size_t decl;
	int removed;
	int part;
};

struct kc_split {
	int parts;                    /* 2..KC_SPLIT_MAX_PARTS, or 0: the file is parsed whole */
	struct kc_split_body *bodies; /* [n_bodies], in file order (malloc'd) */
	int n_bodies;
	char *text[KC_SPLIT_MAX_PARTS]; /* [parts]: the file as part p parses it (malloc'd, len bytes each) */
	size_t len;
};

/* Propose a split of text[0 .. len) into at most `parts` parts (as many as its groups of bodies spread over
 * evenly enough to gain: the largest part holds at most 1/parts + 1/4 of the body text), when it has at
 * least `min_bodies` bodies that can be blanked; else s->parts is 0. */
void kc_split_plan(struct kc_split *s, const char *text, size_t len, int parts, int min_bodies);

/* The body whose '{' is at offset `open`, or NULL: a body no part blanks (every part parses it, part 0 lowers
 * it), or no body the split found. */
const struct kc_split_body *kc_split_body_at(const struct kc_split *s, size_t open);

void kc_split_release(struct kc_split *s);

#endif
