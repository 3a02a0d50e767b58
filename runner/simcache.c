/* simcache.c — cache simulations kept by what determines them (simcache.h). */
#define _GNU_SOURCE
#include "simcache.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "ceilings.h"
#include "hash.h"
#include "source.h"

#define KC_SIMCACHE_FORMAT     1
#define KC_SIMCACHE_MAX_BINARY ((size_t)256 << 20)

/* The counts of struct kc_cachegrind, by name: the file's fields. */
#define KC_SIM_FIELDS(X)                                                                                               \
	X(d1_size)                                                                                                     \
	X(ll_size) X(d1_line) X(ll_line) X(d1_assoc) X(ll_assoc) X(ir) X(dr) X(dw) X(d1mr) X(d1mw) X(dlmr) X(dlmw)

int kc_simcache_key(const char *dir, const char *binary, const char *const *argv, const char *config, char *out)
{
	struct kc_buf bytes = KC_BUF_INIT, path = KC_BUF_INIT;
	if (binary[0] == '/')
		kc_buf_puts(&path, binary);
	else
		kc_buf_printf(&path, "%s/%s", dir, binary);
	int rc = kc_buf_read_file(&bytes, kc_buf_str(&path), KC_SIMCACHE_MAX_BINARY);
	unsigned long long h = kc_fnv1a_str(KC_FNV_OFFSET, "kcost-simcache");
	h = kc_fnv1a(h, &(int){KC_SIMCACHE_FORMAT}, sizeof(int));
	if (rc == 0)
		h = kc_fnv1a(h, kc_buf_str(&bytes), bytes.len);
	for (int i = 0; argv[i]; i++)
		h = kc_fnv1a_str(h, argv[i]);
	h = kc_fnv1a_str(h, config);
	snprintf(out, 17, "%016llx", h);
	kc_buf_release(&bytes);
	kc_buf_release(&path);
	return rc;
}

static const char *entry_path(struct kc_arena *a, const char *cache_dir, const char *key)
{
	return kc_arena_printf(a, "%s/sim-%s.json", cache_dir, key);
}

/* A count of the file: a finite integer in [0, 2^62]; -1 when it is not. */
static int read_count(const cJSON *j, const char *name, long long *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, name);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 || v->valuedouble > 0x1p62 ||
	    v->valuedouble != floor(v->valuedouble))
		return -1;
	*out = (long long)v->valuedouble;
	return 0;
}

int kc_simcache_load(struct kc_arena *a, const char *cache_dir, const char *key, struct kc_cachegrind *c)
{
	struct kc_buf text = KC_BUF_INIT;
	cJSON *j = kc_buf_read_file(&text, entry_path(a, cache_dir, key), 1 << 16) == 0 ? cJSON_Parse(kc_buf_str(&text))
	                                                                                : NULL;
	kc_buf_release(&text);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "key");
	int ok = cJSON_IsString(k) && !strcmp(k->valuestring, key);
	struct kc_cachegrind got = {0};
	long long v = 0;
#define KC_READ(f) ok = ok && read_count(j, #f, &v) == 0 && ((got.f = v), 1);
	KC_SIM_FIELDS(KC_READ)
#undef KC_READ
	/* the line sizes and the cache sizes divide the counts into bytes: never 0 */
	ok = ok && got.d1_line > 0 && got.ll_line > 0 && got.d1_line <= 4096 && got.ll_line <= 4096 &&
	     got.d1_size > 0 && got.ll_size > 0 && got.d1_assoc <= 1 << 20 && got.ll_assoc <= 1 << 20;
	cJSON_Delete(j);
	if (ok) {
		*c = got;
		utimensat(AT_FDCWD, entry_path(a, cache_dir, key), NULL, 0); /* used now: kept by the pruning */
	}
	return ok ? 0 : -1;
}

int kc_simcache_save(struct kc_arena *a, const char *cache_dir, const char *key, const struct kc_cachegrind *c)
{
	cJSON *j = cJSON_CreateObject();
	int ok = j && cJSON_AddStringToObject(j, "key", key);
#define KC_WRITE(f) ok = ok && cJSON_AddNumberToObject(j, #f, (double)c->f);
	KC_SIM_FIELDS(KC_WRITE)
#undef KC_WRITE
	char *text = ok ? cJSON_PrintUnformatted(j) : NULL;
	cJSON_Delete(j);
	int rc = kc_cache_save_text(a, cache_dir, entry_path(a, cache_dir, key), text);
	free(text);
	return rc;
}

/* An entry of the directory: sim-<16 hex digits>.json. */
static int is_entry(const char *name)
{
	if (strlen(name) != 4 + 16 + 5 || strncmp(name, "sim-", 4) || strcmp(name + 20, ".json"))
		return 0;
	for (int i = 4; i < 20; i++)
		if (!strchr("0123456789abcdef", name[i]))
			return 0;
	return 1;
}

struct entry {
	char name[4 + 16 + 5 + 1];
	long long mtime;
};

/* Oldest first; equal times by name. */
static int by_age(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	if (a->mtime != b->mtime)
		return a->mtime < b->mtime ? -1 : 1;
	return strcmp(a->name, b->name);
}

int kc_simcache_prune(const char *cache_dir, long long now, int max_entries, long long max_age_seconds,
                      long long keep_since)
{
	DIR *d = opendir(cache_dir);
	if (!d)
		return -1;
	struct entry *kept = NULL;
	int n = 0, cap = 0, removed = 0;
	for (struct dirent *e; (e = readdir(d));) {
		struct stat st;
		if (!is_entry(e->d_name) || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if ((long long)st.st_mtime < now - max_age_seconds) {
			removed += unlinkat(dirfd(d), e->d_name, 0) == 0;
			continue;
		}
		if (n == cap) {
			struct entry *grown = realloc(kept, sizeof *grown * (size_t)(cap = cap ? 2 * cap : 64));
			if (!grown)
				break; /* out of memory: the rest waits for the next prune */
			kept = grown;
		}
		memcpy(kept[n].name, e->d_name, sizeof kept[n].name); /* is_entry: 25 characters and the NUL */
		kept[n++].mtime = (long long)st.st_mtime;
	}
	if (n > max_entries)
		qsort(kept, (size_t)n, sizeof *kept, by_age);
	for (int i = 0; i < n - max_entries && kept[i].mtime < keep_since; i++) /* oldest first */
		removed += unlinkat(dirfd(d), kept[i].name, 0) == 0;
	free(kept);
	closedir(d);
	return removed;
}
