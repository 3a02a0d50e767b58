#!/bin/sh
# gen_kernels.sh N: print a C file with N kernel functions of the shapes users write (elementwise,
# reduction, matmul-like, stencil, triangular), each with its own loop nest.
n=${1:-1000}
echo '#include <math.h>'
i=0
while [ "$i" -lt "$n" ]; do
	case $((i % 5)) in
	0) cat <<K
void k$i(int n, const float x[restrict n], float y[restrict n])
{
	for (int i = 0; i < n; i++)
		y[i] = 0.5f * x[i] * (1.0f + tanhf(0.79788f * (x[i] + 0.044715f * x[i] * x[i] * x[i])));
}
K
	;;
	1) cat <<K
float k$i(int n, const float x[restrict n], const float y[restrict n])
{
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += x[i] * y[i];
	return s;
}
K
	;;
	2) cat <<K
void k$i(int m, int n, int k, const float A[restrict m][k], const float B[restrict k][n], float C[restrict m][n])
{
	for (int i = 0; i < m; i++)
		for (int j = 0; j < n; j++) {
			float acc = 0.0f;
			for (int p = 0; p < k; p++)
				acc += A[i][p] * B[p][j];
			C[i][j] = acc;
		}
}
K
	;;
	3) cat <<K
void k$i(int n, const float A[restrict n][n], float B[restrict n][n])
{
	for (int i = 1; i < n - 1; i++)
		for (int j = 1; j < n - 1; j++)
			B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i - 1][j] + A[i + 1][j]);
}
K
	;;
	4) cat <<K
void k$i(int n, const double L[restrict n][n], const double x[restrict n], double y[restrict n])
{
	for (int i = 0; i < n; i++) {
		double s = 0.0;
		for (int j = 0; j <= i; j++)
			s += L[i][j] * x[j];
		y[i] = s;
	}
}
K
	;;
	esac
	i=$((i + 1))
done
