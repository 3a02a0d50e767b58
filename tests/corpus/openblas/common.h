/* A stand-in for OpenBLAS's common.h (not from OpenBLAS): only the types and macros the kernels copied
 * under kernel/ use, as OpenBLAS defines them for an x86_64 build. DOUBLE (with -DDOUBLE) selects
 * double precision; CNAME (with -DCNAME=name) names the kernel, as OpenBLAS's build does. */
#ifndef CORPUS_OPENBLAS_COMMON_H
#define CORPUS_OPENBLAS_COMMON_H
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>

typedef long BLASLONG;
#ifdef DOUBLE
#define FLOAT double
#define ZERO 0.e0
#define ONE 1.e0
#else
#define FLOAT float
#define ZERO 0.e0f
#define ONE 1.e0f
#endif
#define IFLOAT FLOAT

#ifndef MAX
#define MAX(a, b) (((a) > (b)) ? (a) : (b))
#endif
#ifndef MIN
#define MIN(a, b) (((a) < (b)) ? (a) : (b))
#endif
#endif
