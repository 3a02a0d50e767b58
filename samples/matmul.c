/* matmul.c — single-precision C = A·B (row-major; A is m×k, B is k×n, C is m×n), four ways.
 *
 * All four do the same 2·m·n·k FLOPs. matmul_ijk walks B down a column in its inner loop; matmul_ikj
 * streams rows of B and C instead; matmul_tiled blocks all three loops so the working set stays in cache;
 * matmul_cblas hands the problem to an optimized BLAS. The differences kcost reports are in bytes moved
 * and in achieved time, not in FLOPs.
 */
#include <cblas.h>

#include "../annotations/kcost.h"

#define TILE 64

static inline int min_int(int a, int b) { return a < b ? a : b; }

KCOST_SIZES(m = 512, n = 512, k = 512)
void matmul_ijk(int m, int n, int k, const float A[restrict m][k], const float B[restrict k][n],
		float C[restrict m][n])
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			float sum = 0.0f;
			for (int p = 0; p < k; p++)
				sum += A[i][p] * B[p][j];
			C[i][j] = sum;
		}
}

KCOST_SIZES(m = 512, n = 512, k = 512) KCOST_REFERENCE(matmul_ijk)
void matmul_ikj(int m, int n, int k, const float A[restrict m][k], const float B[restrict k][n],
		float C[restrict m][n])
{
	for (int i = 0; i < m; i++) {
		for (int j = 0; j < n; j++)
			C[i][j] = 0.0f;
		for (int p = 0; p < k; p++) {
			float a = A[i][p];
			for (int j = 0; j < n; j++)
				C[i][j] += a * B[p][j];
		}
	}
}

KCOST_SIZES(m = 512, n = 512, k = 512) KCOST_REFERENCE(matmul_ijk)
void matmul_tiled(int m, int n, int k, const float A[restrict m][k], const float B[restrict k][n],
		  float C[restrict m][n])
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			C[i][j] = 0.0f;

	for (int ii = 0; ii < m; ii += TILE)
		for (int pp = 0; pp < k; pp += TILE)
			for (int jj = 0; jj < n; jj += TILE)
				for (int i = ii; i < min_int(ii + TILE, m); i++)
					for (int p = pp; p < min_int(pp + TILE, k); p++) {
						float a = A[i][p];
						for (int j = jj; j < min_int(jj + TILE, n); j++)
							C[i][j] += a * B[p][j];
					}
}

KCOST_SIZES(m = 512, n = 512, k = 512) KCOST_REFERENCE(matmul_ijk)
void matmul_cblas(int m, int n, int k, const float A[restrict m][k], const float B[restrict k][n],
		  float C[restrict m][n])
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, &A[0][0], k, &B[0][0], n, 0.0f,
		    &C[0][0], n);
}
