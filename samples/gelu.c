/* gelu.c — tanh-approximated GELU, eager versus fused.
 *
 * gelu_unfused is what an eager framework executes: one kernel per operator, each reading and writing a
 * full-size heap temporary. gelu_fused computes the same expression in a single pass. The FLOPs are
 * identical (6 mul + 2 add + 1 tanhf per element); fusion removes the 7 intermediates and the memory
 * traffic they cost, which is what separates the two in the report.
 */
#include <math.h>
#include <stdlib.h>

#include "../annotations/kcost.h"

KCOST_SIZES(n = 1 << 22) KCOST_REFERENCE(gelu_fused)
void gelu_unfused(int n, const float x[restrict n], float y[restrict n])
{
	size_t bytes = (size_t)n * sizeof(float);
	float *t1 = malloc(bytes);
	float *t2 = malloc(bytes);
	float *t3 = malloc(bytes);
	float *t4 = malloc(bytes);
	float *t5 = malloc(bytes);
	float *t6 = malloc(bytes);
	float *t7 = malloc(bytes);
	if (!t1 || !t2 || !t3 || !t4 || !t5 || !t6 || !t7) {
		free(t1);
		free(t2);
		free(t3);
		free(t4);
		free(t5);
		free(t6);
		free(t7);
		return;
	}

	for (int i = 0; i < n; i++)
		t1[i] = x[i] * x[i] * x[i];
	for (int i = 0; i < n; i++)
		t2[i] = 0.044715f * t1[i];
	for (int i = 0; i < n; i++)
		t3[i] = x[i] + t2[i];
	for (int i = 0; i < n; i++)
		t4[i] = 0.7978845608f * t3[i];
	for (int i = 0; i < n; i++)
		t5[i] = tanhf(t4[i]);
	for (int i = 0; i < n; i++)
		t6[i] = 1.0f + t5[i];
	for (int i = 0; i < n; i++)
		t7[i] = x[i] * t6[i];
	for (int i = 0; i < n; i++)
		y[i] = 0.5f * t7[i];

	free(t1);
	free(t2);
	free(t3);
	free(t4);
	free(t5);
	free(t6);
	free(t7);
}

KCOST_SIZES(n = 1 << 22)
void gelu_fused(int n, const float x[restrict n], float y[restrict n])
{
	for (int i = 0; i < n; i++) {
		float v = x[i];
		y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
	}
}
