/* hash.c — FNV-1a (hash.h). */
#include "hash.h"

#include <string.h>

#define KC_FNV_PRIME 1099511628211ULL

unsigned long long kc_fnv1a(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * KC_FNV_PRIME;
	return h;
}

unsigned long long kc_fnv1a_str(unsigned long long h, const char *s)
{
	return (kc_fnv1a(h, s, strlen(s)) ^ 0xff) * KC_FNV_PRIME;
}
