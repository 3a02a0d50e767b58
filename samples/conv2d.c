/* conv2d.c — direct 2-D convolution of one NCHW image, stride 1, no padding.
 *
 * input C×H×W, weights K×C×R×S, output K×P×Q with P = H-R+1, Q = W-S+1: one multiply-add per
 * (k, oh, ow, c, r, s), i.e. 2·K·P·Q·C·R·S FLOPs. The default sizes are a ResNet 3×3 layer on a 56×56 map.
 */
#include "../annotations/kcost.h"

KCOST_SIZES(C = 64, H = 58, W = 58, K = 64, R = 3, S = 3)
void conv2d(int C, int H, int W, int K, int R, int S, const float in[restrict C][H][W],
	    const float wt[restrict K][C][R][S], float out[restrict K][H - R + 1][W - S + 1])
{
	for (int k = 0; k < K; k++)
		for (int oh = 0; oh < H - R + 1; oh++)
			for (int ow = 0; ow < W - S + 1; ow++) {
				float acc = 0.0f;
				for (int c = 0; c < C; c++)
					for (int r = 0; r < R; r++)
						for (int s = 0; s < S; s++)
							acc += in[c][oh + r][ow + s] * wt[k][c][r][s];
				out[k][oh][ow] = acc;
			}
}
