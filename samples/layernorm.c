/* layernorm.c — layer normalization over the last dimension of a rows×cols matrix.
 *
 * Three passes per row: mean, variance (two-pass, numerically safe), then normalize, scale by gamma and
 * shift by beta. The per-row scalars (mean, 1/sqrt(var + eps)) cost O(rows); everything else is O(rows·cols).
 */
#include <math.h>

#include "../annotations/kcost.h"

KCOST_SIZES(rows = 1024, cols = 4096)
void layernorm(int rows, int cols, const float x[restrict rows][cols], const float gamma[restrict cols],
	       const float beta[restrict cols], float eps, float y[restrict rows][cols])
{
	for (int i = 0; i < rows; i++) {
		float sum = 0.0f;
		for (int j = 0; j < cols; j++)
			sum += x[i][j];
		float mean = sum / (float)cols;

		float sq = 0.0f;
		for (int j = 0; j < cols; j++) {
			float d = x[i][j] - mean;
			sq += d * d;
		}
		float var = sq / (float)cols;
		float rstd = 1.0f / sqrtf(var + eps);

		for (int j = 0; j < cols; j++)
			y[i][j] = (x[i][j] - mean) * rstd * gamma[j] + beta[j];
	}
}
