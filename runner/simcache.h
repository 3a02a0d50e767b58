/* simcache.h — cache simulations kept by what determines them.
 *
 * A cachegrind run is deterministic: the same harness binary (whose setup fills the buffers from a fixed seed),
 * with the same shared libraries, run with the same arguments under the same valgrind with the same simulated
 * caches, counts the same misses and instructions. Its counts are kept in the cache directory (sim-<key>.json beside
 * the ceilings), keyed by all of that, so an unchanged function is simulated once. Timings are never cached. The files
 * are the user's own (a kernel, which runs with the user's rights outside --sandbox, could write them; so could it any
 * other file). */
#ifndef KC_SIMCACHE_H
#define KC_SIMCACHE_H

#include "arena.h"
#include "cachegrind.h"

/* The key: FNV-1a over the bytes of the file `binary` (resolved in dir when relative), the strings of argv
 * (NULL-terminated) and config (the simulation's options, valgrind's version, and the libraries the binary loads:
 * glibc's libm and OpenBLAS, libs.h, whose instructions a kernel calling them executes). 16 hex digits into out
 * (17 bytes); -1 when the binary cannot be read. */
int kc_simcache_key(const char *dir, const char *binary, const char *const *argv, const char *config, char *out);

/* The counts cached under key in cache_dir, into *c: 0, or -1 when there are none or the file is not a valid
 * entry (wrong key, a count missing, negative or not an integer). */
int kc_simcache_load(struct kc_arena *a, const char *cache_dir, const char *key, struct kc_cachegrind *c);

/* Cache *c under key in cache_dir. 0, or -1 when the file could not be written (not an error for the run). */
int kc_simcache_save(struct kc_arena *a, const char *cache_dir, const char *key, const struct kc_cachegrind *c);

/* The cache's bounds: an entry not used (saved, or loaded: kc_simcache_load refreshes its time) for 30 days is
 * removed, and of the others the 500 used last are kept. An entry is about 300 bytes: some 150 kB at most. A run
 * that saved entries prunes the cache after its simulations (runner/traffic_step.c). */
#define KC_SIMCACHE_MAX_ENTRIES  500
#define KC_SIMCACHE_MAX_AGE_DAYS 30

/* Remove from cache_dir the entries (files named sim-<16 hex digits>.json; nothing else is touched) last modified
 * before now - max_age_seconds, then, of those left, the oldest beyond the max_entries newest (by modification
 * time, then by name), but none modified at or after keep_since: the running kcost's own (saved or loaded since
 * it started), which a run of more than max_entries simulations would otherwise remove as it saves them. The
 * number removed, or -1 when the directory cannot be read. */
int kc_simcache_prune(const char *cache_dir, long long now, int max_entries, long long max_age_seconds,
                      long long keep_since);

#endif
