/***************************************************************************
Copyright (c) 2021, The OpenBLAS Project
All rights reserved.
Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are
met:
1. Redistributions of source code must retain the above copyright
notice, this list of conditions and the following disclaimer.
2. Redistributions in binary form must reproduce the above copyright
notice, this list of conditions and the following disclaimer in
the documentation and/or other materials provided with the
distribution.
3. Neither the name of the OpenBLAS project nor the names of
its contributors may be used to endorse or promote products
derived from this software without specific prior written permission.
THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
ARE DISCLAIMED. IN NO EVENT SHALL THE OPENBLAS PROJECT OR CONTRIBUTORS BE
LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE
USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
*****************************************************************************/

#include "common.h"

int CNAME(BLASLONG rows, BLASLONG cols, FLOAT alpha, FLOAT *a, BLASLONG lda, FLOAT *b, BLASLONG ldb)
{
    BLASLONG i, j;
    FLOAT *a_offset, *a_offset1, *a_offset2, *a_offset3, *a_offset4;
    FLOAT *b_offset, *b_offset1, *b_offset2, *b_offset3, *b_offset4;

    if (rows <= 0)  return 0;
    if (cols <= 0)  return 0;

    a_offset = a;
    b_offset = b;

    i = (rows >> 2);
    if (i > 0) {
        do {
            a_offset1 = a_offset;
            a_offset2 = a_offset1 + lda;
            a_offset3 = a_offset2 + lda;
            a_offset4 = a_offset3 + lda;
            a_offset += 4 * lda;

            b_offset1 = b_offset;
            b_offset2 = b_offset1 + ldb;
            b_offset3 = b_offset2 + ldb;
            b_offset4 = b_offset3 + ldb;
            b_offset += 4;

            j = (cols >> 2);
            if (j > 0) {
                do {
                /* Column 1 of MAT_B */
                *(b_offset1 + 0) = *(a_offset1 + 0)*alpha; // Row 1 of MAT_A
                *(b_offset2 + 0) = *(a_offset1 + 1)*alpha;
                *(b_offset3 + 0) = *(a_offset1 + 2)*alpha;
                *(b_offset4 + 0) = *(a_offset1 + 3)*alpha;

                /* Column 2 of MAT_B */
                *(b_offset1 + 1) = *(a_offset2 + 0)*alpha; // Row 2 of MAT_A
                *(b_offset2 + 1) = *(a_offset2 + 1)*alpha;
                *(b_offset3 + 1) = *(a_offset2 + 2)*alpha;
                *(b_offset4 + 1) = *(a_offset2 + 3)*alpha;

                /* Column 3 of MAT_B */
                *(b_offset1 + 2) = *(a_offset3 + 0)*alpha; // Row 3 of MAT_A
                *(b_offset2 + 2) = *(a_offset3 + 1)*alpha;
                *(b_offset3 + 2) = *(a_offset3 + 2)*alpha;
                *(b_offset4 + 2) = *(a_offset3 + 3)*alpha;

                /* Column 4 of MAT_B */
                *(b_offset1 + 3) = *(a_offset4 + 0)*alpha; // Row 4 of MAT_A
                *(b_offset2 + 3) = *(a_offset4 + 1)*alpha;
                *(b_offset3 + 3) = *(a_offset4 + 2)*alpha;
                *(b_offset4 + 3) = *(a_offset4 + 3)*alpha;

                a_offset1 += 4;
                a_offset2 += 4;
                a_offset3 += 4;
                a_offset4 += 4;
                b_offset1 += ldb * 4;
                b_offset2 += ldb * 4;
                b_offset3 += ldb * 4;
                b_offset4 += ldb * 4;
                
                j--;
                } while (j > 0);
            } // if(j > 0)


            if (cols & 2) {
                *(b_offset1 + 0) = *(a_offset1 + 0)*alpha;
                *(b_offset2 + 0) = *(a_offset1 + 1)*alpha;

                *(b_offset1 + 1) = *(a_offset2 + 0)*alpha;
                *(b_offset2 + 1) = *(a_offset2 + 1)*alpha;

                *(b_offset1 + 2) = *(a_offset3 + 0)*alpha;
                *(b_offset2 + 2) = *(a_offset3 + 1)*alpha;

                *(b_offset1 + 3) = *(a_offset4 + 0)*alpha;
                *(b_offset2 + 3) = *(a_offset4 + 1)*alpha;

                a_offset1 += 2;
                a_offset2 += 2;
                a_offset3 += 2;
                a_offset4 += 2;

                b_offset1 += ldb*2;

            }

            if (cols & 1) {
                *(b_offset1 + 0) = *(a_offset1 + 0)*alpha;

                *(b_offset1 + 1) = *(a_offset2 + 0)*alpha;

                *(b_offset1 + 2) = *(a_offset3 + 0)*alpha;

                *(b_offset1 + 3) = *(a_offset4 + 0)*alpha;
            }

            i--;
        } while (i > 0);
    }


    if (rows & 2) {
        a_offset1 = a_offset;
        a_offset2 = a_offset1 + lda;
        a_offset += 2 * lda;

        b_offset1 = b_offset;
        b_offset2 = b_offset1 + ldb;
        b_offset3 = b_offset2 + ldb;
        b_offset4 = b_offset3 + ldb;
        b_offset += 2;

        j = (cols >> 2);
        if (j > 0){
            do {
                *(b_offset1 + 0) = *(a_offset1 + 0)*alpha;
                *(b_offset2 + 0) = *(a_offset1 + 1)*alpha;
                *(b_offset3 + 0) = *(a_offset1 + 2)*alpha;
                *(b_offset4 + 0) = *(a_offset1 + 3)*alpha;

                *(b_offset1 + 1) = *(a_offset2 + 0)*alpha;
                *(b_offset2 + 1) = *(a_offset2 + 1)*alpha;
                *(b_offset3 + 1) = *(a_offset2 + 2)*alpha;
                *(b_offset4 + 1) = *(a_offset2 + 3)*alpha;
                
                a_offset1 += 4;
                a_offset2 += 4;
                b_offset1 += ldb * 4;
                b_offset2 += ldb * 4;
                b_offset3 += ldb * 4;
                b_offset4 += ldb * 4;

                j--;
            } while (j > 0);
        }


        if (cols & 2){
            *(b_offset1 + 0) = *(a_offset1 + 0)*alpha;
            *(b_offset2 + 0) = *(a_offset1 + 1)*alpha;

            *(b_offset1 + 1) = *(a_offset2 + 0)*alpha;
            *(b_offset2 + 1) = *(a_offset2 + 1)*alpha;

            a_offset1 += 2;
            a_offset2 += 2;
            b_offset1 += ldb*2;

        }


        if (cols & 1){
            *(b_offset1 + 0) = *(a_offset1 + 0)*alpha;
            *(b_offset1 + 1) = *(a_offset2 + 0)*alpha;
        }
    } // if (rows & 2)


    if (rows & 1) {
        a_offset1 = a_offset;
        a_offset += lda;

        b_offset1 = b_offset;
        b_offset2 = b_offset1 + ldb;
        b_offset3 = b_offset2 + ldb;
        b_offset4 = b_offset3 + ldb;

        j = (cols >> 2);
        if (j > 0){
            do {
                *(b_offset1 + 0) = *(a_offset1 + 0)*alpha;
                *(b_offset2 + 0) = *(a_offset1 + 1)*alpha;
                *(b_offset3 + 0) = *(a_offset1 + 2)*alpha;
                *(b_offset4 + 0) = *(a_offset1 + 3)*alpha;
                
                a_offset1 += 4;
                b_offset1 += ldb * 4;
                b_offset2 += ldb * 4;
                b_offset3 += ldb * 4;
                b_offset4 += ldb * 4;
                
                j--;
            } while (j > 0);
        }

        if (cols & 2){
            *(b_offset1 + 0) = *(a_offset1 + 0)*alpha;
            *(b_offset2 + 0) = *(a_offset1 + 1)*alpha;

            a_offset1 += 2;
            b_offset1 += ldb * 2;
        }

        if (cols & 1){
            *(b_offset1 + 0) = *(a_offset1 + 0)*alpha;
        }
    }

    return 0;
}

