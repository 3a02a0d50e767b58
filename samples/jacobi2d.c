/* jacobi2d.c — the PolyBench 2-D Jacobi stencil: a 5-point average swept from A into B and back.
 *
 * Each time step does two sweeps over the (n-2)×(n-2) interior, 4 adds + 1 multiply per point per sweep.
 * The boundary rows and columns of both A and B are read but never written.
 */
#include "../annotations/kcost.h"

KCOST_SIZES(tsteps = 20, n = 1000)
void jacobi2d(int tsteps, int n, float A[restrict n][n], float B[restrict n][n])
{
	for (int t = 0; t < tsteps; t++) {
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i - 1][j] + A[i + 1][j]);
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				A[i][j] = 0.2f * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i - 1][j] + B[i + 1][j]);
	}
}
