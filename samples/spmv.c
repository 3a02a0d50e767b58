/* spmv.c — sparse matrix-vector product y = A·x with A in CSR form.
 *
 * The inner loop's bounds come from rowptr, so its trip count is data-dependent: KCOST_TRIPS tells kcost
 * that the j loop runs nnz times per call in total, and KCOST_INIT builds a valid CSR structure before
 * timing. spmv_csr_unannotated is the same code without KCOST_TRIPS, for which kcost must warn that it
 * cannot bound the trip count.
 */
#include "../annotations/kcost.h"

KCOST_SIZES(n = 1 << 16, nnz = 1 << 20) KCOST_TRIPS(j, nnz) KCOST_INIT(spmv_csr_init)
void spmv_csr(int n, int nnz, const int rowptr[restrict n + 1], const int col[restrict nnz],
	      const float val[restrict nnz], const float x[restrict n], float y[restrict n])
{
	for (int i = 0; i < n; i++) {
		float sum = 0.0f;
		for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
			sum += val[j] * x[col[j]];
		y[i] = sum;
	}
}

KCOST_SIZES(n = 1 << 16, nnz = 1 << 20) KCOST_INIT(spmv_csr_init)
void spmv_csr_unannotated(int n, int nnz, const int rowptr[restrict n + 1], const int col[restrict nnz],
			  const float val[restrict nnz], const float x[restrict n], float y[restrict n])
{
	for (int i = 0; i < n; i++) {
		float sum = 0.0f;
		for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
			sum += val[j] * x[col[j]];
		y[i] = sum;
	}
}

/* Deterministic CSR matrix with exactly nnz nonzeros (requires n >= 1 and nnz <= n·n): every row gets
 * nnz/n entries and the first nnz%n rows one more. Row i's columns are i, i + stride, i + 2·stride, ...
 * (mod n), distinct within the row. Values and x are in [0.5, 1.5); y is zeroed.
 */
KCOST_SKIP
void spmv_csr_init(int n, int nnz, int rowptr[restrict n + 1], int col[restrict nnz], float val[restrict nnz],
		   float x[restrict n], float y[restrict n])
{
	int per_row = nnz / n;
	int extra = nnz % n;
	int longest = per_row + (extra > 0);
	int stride = longest > 0 && n / longest > 0 ? n / longest : 1;

	int j = 0;
	for (int i = 0; i < n; i++) {
		rowptr[i] = j;
		int len = per_row + (i < extra);
		for (int e = 0; e < len; e++, j++) {
			col[j] = (i + e * stride) % n;
			val[j] = 0.5f + (float)(j % 1024 * 389 % 1024) / 1024.0f;
		}
	}
	rowptr[n] = j;

	for (int i = 0; i < n; i++) {
		x[i] = 0.5f + (float)(i % 1024 * 601 % 1024) / 1024.0f;
		y[i] = 0.0f;
	}
}
