/* vecadd.c — c = a + b, the smallest memory-bound kernel: 1 FLOP per 12 bytes.
 *
 * vecadd_unrolled does the same work four elements per iteration plus a remainder loop; kcost should
 * count exactly the same FLOPs and bytes for both.
 */
#include "../annotations/kcost.h"

KCOST_SIZES(n = 1 << 24)
void vecadd(int n, const float a[restrict n], const float b[restrict n], float c[restrict n])
{
	for (int i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

KCOST_SIZES(n = 1 << 24) KCOST_REFERENCE(vecadd)
void vecadd_unrolled(int n, const float a[restrict n], const float b[restrict n], float c[restrict n])
{
	int i;
	for (i = 0; i + 4 <= n; i += 4) {
		c[i] = a[i] + b[i];
		c[i + 1] = a[i + 1] + b[i + 1];
		c[i + 2] = a[i + 2] + b[i + 2];
		c[i + 3] = a[i + 3] + b[i + 3];
	}
	for (; i < n; i++)
		c[i] = a[i] + b[i];
}
