/* libs.h — the shared libraries a harness runs with: OpenBLAS opened (in children of kcost only: its threads start
 * as it loads), and what identifies glibc's libm and OpenBLAS, for the keys of what their code decides (the
 * simulation cache, simcache.h: a kernel calling tanhf or cblas_sgemm executes their instructions). */
#ifndef KC_LIBS_H
#define KC_LIBS_H

#include "arena.h"

/* dlopen OpenBLAS as a harness finds it: by its soname, then in the directory kcost was built against. The handle,
 * or NULL with *why (dlerror's text). In a child process only: the library stays loaded, its threads spinning. */
void *kc_libs_open_openblas(const char **why);

/* What identifies the libraries harnesses link, as text from a:
 *   "glibc 2.36 stable; libm /lib/x86_64-linux-gnu/libm.so.6 907784 B mtime 1672531200"
 * glibc's version and release (gnu_get_libc_version, gnu_get_libc_release), and the file of the libm.so.6 the
 * dynamic loader finds (dlopen'ed here, as a harness linked with -lm finds it) by path, size and modification time:
 * a distribution's patched rebuild keeps the version but not the file. When `openblas` is set (harnesses link it:
 * build.h's blas), then "; OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64 /usr/lib/.../
 * libopenblas.so.0 ... B mtime ...": openblas_get_config() (the version and the kernels it chose for this CPU)
 * and its file, asked of the library in a child process within 30 s; or "; OpenBLAS unknown (WHY)". Nothing here
 * fails: what cannot be found is named so. */
const char *kc_libs_identity(struct kc_arena *a, int openblas);

#endif
