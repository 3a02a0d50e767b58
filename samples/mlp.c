/* mlp.c — the up-projection of a transformer MLP block: Y = GELU(X·W + b).
 *
 * mlp_forward runs it the way an unfused framework does: a matmul into a heap temporary H, a bias pass
 * over H, then a GELU pass from H into Y. The matmul dominates the FLOPs (2·m·k·n); the bias and GELU
 * passes are memory-bound and each re-reads all of H, which is what fusing them into the matmul's
 * epilogue would save.
 */
#include <math.h>
#include <stdlib.h>

#include "../annotations/kcost.h"

KCOST_SIZES(m = 256, k = 512, n = 1024)
void mlp_matmul(int m, int k, int n, const float X[restrict m][k], const float W[restrict k][n],
		float H[restrict m][n])
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			float sum = 0.0f;
			for (int p = 0; p < k; p++)
				sum += X[i][p] * W[p][j];
			H[i][j] = sum;
		}
}

KCOST_SIZES(m = 256, n = 1024)
void mlp_bias(int m, int n, const float b[restrict n], float H[restrict m][n])
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++)
			H[i][j] += b[j];
}

KCOST_SIZES(m = 256, n = 1024)
void mlp_gelu(int m, int n, const float H[restrict m][n], float Y[restrict m][n])
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			float v = H[i][j];
			Y[i][j] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
		}
}

KCOST_SIZES(m = 256, k = 512, n = 1024)
void mlp_forward(int m, int k, int n, const float X[restrict m][k], const float W[restrict k][n],
		 const float b[restrict n], float Y[restrict m][n])
{
	float (*H)[n] = malloc((size_t)m * sizeof *H);
	if (!H)
		return;

	mlp_matmul(m, k, n, X, W, H);
	mlp_bias(m, n, b, H);
	mlp_gelu(m, n, H, Y);

	free(H);
}
