/* ceilings.h — the machine's roofline ceilings, measured once per machine and cached as JSON: peak FLOP/s per
 * precision and instruction set (kcost's peak kernels, peak.h; the best is the compute roof), OpenBLAS GEMM (the
 * achievable dense roof, in a child process, retried with OPENBLAS_CORETYPE when OpenBLAS picked kernels below
 * the CPU), dependent add/FMA latencies, libm per-call times, and bandwidth per memory level (triad/copy). */
#ifndef KC_CEILINGS_H
#define KC_CEILINGS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "arena.h"
#include "cpu.h"
#include "measure.h"

/* GEMM size and repetitions for the compute peaks (best of KC_CEILINGS_GEMM_REPS timed calls after one
 * warm-up call); large enough for OpenBLAS to saturate, small enough to take well under a second. */
#define KC_CEILINGS_GEMM_N    1536
#define KC_CEILINGS_GEMM_REPS 3
/* Bump when the method changes: older cache files are then ignored (their key differs). A file written by
 * `kcost machine --format json` from KC_CEILINGS_OLDEST on is still read by --machine: 3 lacks the bandwidth
 * kernels of each level (4), 4 the row latency and its loops were not aligned (5), 5 the median batches (6), 6
 * the column stores (7), 7 the _Float16 chains (8), 8 a half-precision add chain that gcc removed (9). */
#define KC_CEILINGS_VERSION 9
#define KC_CEILINGS_OLDEST  3

struct kc_ceilings_opts {
	const char *cache_dir; /* NULL: kc_ceilings_default_dir */
	int remeasure;         /* ignore an existing cache file (and overwrite it) */
	int verbose;           /* say on stderr where the cache is and what was measured */
	void (*progress)(const char *step, int i, int n, const char *what); /* may be NULL */
};

/* Fill m (and its strings, from a) with this machine's description and ceilings: loaded from the cache file
 * when one matches and !remeasure (m->cached = 1), else measured (a few seconds; the progress callback is told
 * each step) and written to the cache (a cache that cannot be written is not an error). A ceiling that cannot
 * be measured keeps value 0 and its method says why. Always returns 0. */
int kc_ceilings_get(struct kc_arena *a, const struct kc_ceilings_opts *o, struct kc_machine *m);

/* Measure without the cache. */
void kc_ceilings_measure(struct kc_arena *a, const struct kc_cpu *cpu, struct kc_machine *m,
                         void (*progress)(const char *step, int i, int n, const char *what));

/* The cache key: 16 lowercase hex digits of a 64-bit FNV-1a hash of KC_CEILINGS_VERSION, the core count,
 * whether kcost is built with AddressSanitizer, the CPU model and its flags line; out must hold 17 bytes. */
void kc_ceilings_key(const char *cpu, const char *flags, int cores, char *out);

/* The cache directory: $XDG_CACHE_HOME/kcost when XDG_CACHE_HOME is an absolute path, else $HOME/.cache/kcost.
 * Written to out; -1 when neither variable is usable. */
int kc_ceilings_default_dir(char *out, size_t n);

/* The cache file of a key inside dir: "<dir>/ceilings-<key>.json". */
void kc_ceilings_cache_path(const char *dir, const char *key, char *out, size_t n);

/* Write text (and a newline) to path in the cache directory dir, created with its parents as needed: through a
 * temporary file renamed into place, so a reader never sees half a file. 0, or -1 (text NULL included). */
int kc_cache_save_text(struct kc_arena *a, const char *dir, const char *path, const char *text);

/* Working-set bytes of the bandwidth test of each level, from the cache sizes (L1d, L2, L3; 0 unknown):
 * L1 half the L1d; L2 half the L2 (when larger than twice the L1d); L3 a quarter of the L3 but at least twice
 * the L2 (when the L3 exceeds twice the L2); DRAM four times the largest cache, at least 64 MiB and at most
 * 1 GiB. 0 marks a level that cannot be measured. */
void kc_ceilings_working_sets(const long long cache[3], long long ws[KC_LEVEL_N]);

/* The instruction set of an OpenBLAS kernel family as openblas_get_corename names it (case-insensitive):
 * KC_ISA_AVX512 for SkylakeX, Cooperlake, SapphireRapids; KC_ISA_AVX2 for Haswell, Skylake, Zen; KC_ISA_SSE for
 * the older ones (Prescott, Nehalem, Sandybridge, ...: AVX without FMA counts as SSE here); -1 when unknown. */
int kc_ceilings_core_isa(const char *core);

/* The machine as the cache's JSON object (with the key), and back: kc_ceilings_from_json returns 0 when j is
 * a cache object of a version from KC_CEILINGS_OLDEST to KC_CEILINGS_VERSION and this key (any key when key is NULL:
 * another machine's file,
 * --machine), strings copied into a; else -1. */
cJSON *kc_ceilings_to_json(const struct kc_machine *m, const char *key);
int kc_ceilings_from_json(struct kc_arena *a, const cJSON *j, const char *key, struct kc_machine *m);

#endif
