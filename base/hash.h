/* hash.h — FNV-1a, 64 bits: cache keys and hash tables (not for anything an adversary must not collide). */
#ifndef KC_HASH_H
#define KC_HASH_H

#include <stddef.h>

#define KC_FNV_OFFSET 14695981039346656037ULL

/* h updated with the n bytes at p. */
unsigned long long kc_fnv1a(unsigned long long h, const void *p, size_t n);
/* h updated with the string s and a separator, so that ("ab", "c") and ("a", "bc") differ. */
unsigned long long kc_fnv1a_str(unsigned long long h, const char *s);

#endif
