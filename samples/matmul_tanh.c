/* matmul_tanh.c — Y = tanh(A·B) in single and half precision, at a small (32×16·16×8) size.
 *
 * The same loop nest over float and over _Float16: both do m·n·k mul + m·n·k add + m·n tanh, but the
 * f16 version accumulates in _Float16, so its multiply-adds are half-precision FLOPs, and it moves half
 * the bytes. The tanh itself is evaluated in float (tanhf) in both.
 */
#include <math.h>

#include "../annotations/kcost.h"

KCOST_SIZES(m = 32, k = 16, n = 8)
void matmul_tanh_f32(int m, int k, int n, const float A[restrict m][k], const float B[restrict k][n],
		     float Y[restrict m][n])
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			float acc = 0.0f;
			for (int p = 0; p < k; p++)
				acc += A[i][p] * B[p][j];
			Y[i][j] = tanhf(acc);
		}
}

KCOST_SIZES(m = 32, k = 16, n = 8)
void matmul_tanh_f16(int m, int k, int n, const _Float16 A[restrict m][k], const _Float16 B[restrict k][n],
		     _Float16 Y[restrict m][n])
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			_Float16 acc = 0;
			for (int p = 0; p < k; p++)
				acc += A[i][p] * B[p][j];
			Y[i][j] = (_Float16)tanhf((float)acc);
		}
}
