/* trsv.c — triangular solve and triangular matrix-vector product, double precision.
 *
 * trsv_lower solves L·x = b by forward substitution; trmv_lower computes y = L·x. Both walk only the lower
 * triangle, so their inner trip counts depend on the outer index (j < i, j <= i) and the FLOP counts are
 * about n² rather than 2n². trsv_lower divides by the diagonal, so KCOST_INIT makes L diagonally dominant.
 */
#include "../annotations/kcost.h"

KCOST_SIZES(n = 2048) KCOST_INIT(trsv_init)
void trsv_lower(int n, const double L[restrict n][n], const double b[restrict n], double x[restrict n])
{
	for (int i = 0; i < n; i++) {
		double s = b[i];
		for (int j = 0; j < i; j++)
			s -= L[i][j] * x[j];
		x[i] = s / L[i][i];
	}
}

KCOST_SIZES(n = 2048)
void trmv_lower(int n, const double L[restrict n][n], const double x[restrict n], double y[restrict n])
{
	for (int i = 0; i < n; i++) {
		double s = 0.0;
		for (int j = 0; j <= i; j++)
			s += L[i][j] * x[j];
		y[i] = s;
	}
}

/* Lower-triangular L with off-diagonal entries in [0, 1/n) and diagonal entries in [1, 2), so every row is
 * strictly diagonally dominant; zero upper triangle; b in [0.5, 1.5); x zeroed.
 */
KCOST_SKIP
void trsv_init(int n, double L[restrict n][n], double b[restrict n], double x[restrict n])
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			double u = (double)(((i % 1024) * 131 + (j % 1024) * 37) % 1024) / 1024.0;
			if (j < i)
				L[i][j] = u / n;
			else if (j == i)
				L[i][j] = 1.0 + u;
			else
				L[i][j] = 0.0;
		}
		b[i] = 0.5 + (double)(i % 1024 * 577 % 1024) / 1024.0;
		x[i] = 0.0;
	}
}
