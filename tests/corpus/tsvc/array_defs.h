/* Stand-in for TSVC_2 src/array_defs.h: the same arrays, defined here (tsvc.c defines them in
   the suite) so that one kernel file links on its own. */
#ifndef TSVC_ARRAY_HDR
#define TSVC_ARRAY_HDR
#define ARRAY_ALIGNMENT 64
__attribute__((aligned(ARRAY_ALIGNMENT))) real_t flat_2d_array[LEN_2D*LEN_2D];
__attribute__((aligned(ARRAY_ALIGNMENT))) real_t x[LEN_1D];
__attribute__((aligned(ARRAY_ALIGNMENT))) real_t a[LEN_1D],b[LEN_1D],c[LEN_1D],d[LEN_1D],e[LEN_1D],
                                   aa[LEN_2D][LEN_2D],bb[LEN_2D][LEN_2D],cc[LEN_2D][LEN_2D],tt[LEN_2D][LEN_2D];
__attribute__((aligned(ARRAY_ALIGNMENT))) int indx[LEN_1D];
real_t* __restrict__ xx;
real_t* yy;
/* Integer-valued, mixed-sign data (no FLOPs: conversions only), so that data-dependent control is
   exercised; the harness itself leaves file-scope arrays zero. */
__attribute__((constructor)) static void tsvc_overlay_fill(void)
{
    for (int i = 0; i < LEN_1D; i++) {
        a[i] = (real_t)((i * 37) % 19 - 9); b[i] = (real_t)((i * 11) % 13 - 4);
        c[i] = (real_t)((i * 5) % 7 - 2);   d[i] = (real_t)((i * 3) % 17 - 8);
        e[i] = (real_t)((i * 13) % 11 - 3); x[i] = (real_t)((i * 7) % 9 - 4);
        indx[i] = (i + 1) % 4 + 1;
    }
    for (int i = 0; i < LEN_2D; i++)
        for (int j = 0; j < LEN_2D; j++) {
            aa[i][j] = (real_t)((i * 7 + j * 3) % 11 - 5); bb[i][j] = (real_t)((i * 5 + j) % 9 - 4);
            cc[i][j] = (real_t)((i + j * 5) % 7 - 3);     tt[i][j] = (real_t)((i * 3 + j * 2) % 5 - 2);
            flat_2d_array[i * LEN_2D + j] = (real_t)((i * 11 + j * 7) % 13 - 6);
        }
}
#endif
