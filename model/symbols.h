/* symbols.h — the size symbols of one function, whose ids are the symbol ids of its polynomials. */
#ifndef KC_SYMBOLS_H
#define KC_SYMBOLS_H

#include "poly.h"

/* A size symbol of one function: a parameter or annotated name (n, m, k, nnz), or a derived atom such as
 * floor((n - 4)/4) that a quasi-polynomial count needs. Symbol ids index kc_symtab.syms and are the
 * polynomial symbol ids of every kc_poly of that function. */
struct kc_sym {
	const char *name; /* as shown in formulas: "n" or "floor(n/4)" */
	int has_value;    /* a benchmark value is known (annotation, --size, or derived) */
	int is_loop;      /* a loop variable (summed away in every count), not a size */
	long long value;
	struct kc_poly *floor_of; /* derived: value = floor(floor_of / floor_div), */
	long long floor_div;
	struct kc_poly *floor_by; /* or floor(floor_of / floor_by), a divisor in sizes (floor_div 0) */
};

struct kc_symtab {
	struct kc_sym syms[KC_POLY_MAX_SYMS];
	const char *names[KC_POLY_MAX_SYMS]; /* syms[i].name, for kc_poly_format */
	int n;
};

#endif
