/* softmax.c — row-wise softmax of a rows×cols matrix, three passes versus online.
 *
 * softmax_three_pass reads each row three times (max, exp-and-sum, normalize). softmax_online uses the
 * online-softmax recurrence to find the max and the rescaled sum in a single pass, then writes the output
 * in a second: one fewer sweep over the row, at the price of an extra expf per element.
 */
#include <math.h>

#include "../annotations/kcost.h"

KCOST_SIZES(rows = 1024, cols = 4096)
void softmax_three_pass(int rows, int cols, const float x[restrict rows][cols], float y[restrict rows][cols])
{
	for (int i = 0; i < rows; i++) {
		float m = -INFINITY;
		for (int j = 0; j < cols; j++)
			m = fmaxf(m, x[i][j]);

		float s = 0.0f;
		for (int j = 0; j < cols; j++) {
			float e = expf(x[i][j] - m);
			y[i][j] = e;
			s += e;
		}

		float inv = 1.0f / s;
		for (int j = 0; j < cols; j++)
			y[i][j] *= inv;
	}
}

KCOST_SIZES(rows = 1024, cols = 4096) KCOST_REFERENCE(softmax_three_pass)
void softmax_online(int rows, int cols, const float x[restrict rows][cols], float y[restrict rows][cols])
{
	for (int i = 0; i < rows; i++) {
		float m = -INFINITY;
		float s = 0.0f;
		for (int j = 0; j < cols; j++) {
			float v = x[i][j];
			float m_new = fmaxf(m, v);
			s = s * expf(m - m_new) + expf(v - m_new);
			m = m_new;
		}

		for (int j = 0; j < cols; j++)
			y[i][j] = expf(x[i][j] - m) / s;
	}
}
