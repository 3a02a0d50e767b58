/* test_simcache.c — simulations cached by what determines them (runner/simcache.h): the key follows the
 * binary's bytes, the arguments and the configuration, which names the libraries harnesses load (runner/libs.h);
 * entries round-trip; a damaged or foreign entry is not used; the cache is pruned to its bounds. Every file is in a
 * temporary directory of the test's: never the user's cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "libs.h"
#include "simcache.h"

static char dir[64];

/* text into the file name of directory in */
static void write_in(const char *in, const char *name, const char *text)
{
	char path[160];
	snprintf(path, sizeof path, "%s/%s", in, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void write_file(const char *name, const char *text)
{
	write_in(dir, name, text);
}

static void the_key_follows_what_determines_the_counts(void **state)
{
	(void)state;
	const char *argv[] = {"gelu", "once", "268500992", NULL}, *other[] = {"gelu", "none", "268500992", NULL};
	char k1[17], k2[17], k3[17], k4[17], k5[17];
	write_file("harness-cg", "\x7f"
	                         "ELF one build");
	assert_int_equal(kc_simcache_key(dir, "harness-cg", argv, "valgrind-3.19.0|--LL=1,2,64", k1), 0);
	assert_int_equal(strlen(k1), 16);
	assert_int_equal(kc_simcache_key(dir, "harness-cg", argv, "valgrind-3.19.0|--LL=1,2,64", k2), 0);
	assert_string_equal(k1, k2); /* deterministic */
	assert_int_equal(kc_simcache_key(dir, "harness-cg", other, "valgrind-3.19.0|--LL=1,2,64", k3), 0);
	assert_string_not_equal(k1, k3); /* another mode */
	assert_int_equal(kc_simcache_key(dir, "harness-cg", argv, "valgrind-3.20.0|--LL=1,2,64", k4), 0);
	assert_string_not_equal(k1, k4); /* another valgrind */
	assert_int_equal(kc_simcache_key(dir, "harness-cg", argv,
	                                 "valgrind-3.19.0|--LL=1,2,64|glibc 2.36 stable; libm /lib/libm.so.6 907784 B "
	                                 "mtime 1700000000",
	                                 k4),
	                 0);
	assert_int_equal(kc_simcache_key(dir, "harness-cg", argv,
	                                 "valgrind-3.19.0|--LL=1,2,64|glibc 2.36 stable; libm /lib/libm.so.6 907784 B "
	                                 "mtime 1710000000",
	                                 k5),
	                 0);
	assert_string_not_equal(k4, k5); /* another libm (runner/libs.h: the libraries are part of the config) */
	write_file("harness-cg", "\x7f"
	                         "ELF another build");
	assert_int_equal(kc_simcache_key(dir, "harness-cg", argv, "valgrind-3.19.0|--LL=1,2,64", k5), 0);
	assert_string_not_equal(k1, k5); /* another binary */
	/* no binary: no key */
	assert_int_equal(kc_simcache_key(dir, "missing", argv, "x", k5), -1);
}

static void entries_round_trip_and_damaged_ones_are_not_used(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_cachegrind c = {.d1_size = 49152,
	                          .ll_size = 268435456,
	                          .d1_line = 64,
	                          .ll_line = 64,
	                          .d1_assoc = 12,
	                          .ll_assoc = 16,
	                          .ir = 516070073,
	                          .dr = 97854951,
	                          .dw = 20447814,
	                          .d1mr = 2621592,
	                          .d1mw = 2097222,
	                          .dlmr = 262238,
	                          .dlmw = 2097187},
	                     got = {0};
	const char *key = "00112233aabbccdd";
	assert_int_equal(kc_simcache_load(&a, dir, key, &got), -1); /* nothing yet */
	assert_int_equal(kc_simcache_save(&a, dir, key, &c), 0);
	assert_int_equal(kc_simcache_load(&a, dir, key, &got), 0);
	assert_memory_equal(&got, &c, sizeof c);
	/* a file under another key's name, a negative count, a fraction, a zero line: not used */
	const char *bad[] = {
	    "{\"key\":\"ffffffffffffffff\",\"d1_size\":1,\"ll_size\":1,\"d1_line\":64,\"ll_line\":64,\"d1_assoc\":1,"
	    "\"ll_assoc\":1,\"ir\":1,\"dr\":1,\"dw\":1,\"d1mr\":1,\"d1mw\":1,\"dlmr\":1,\"dlmw\":1}",
	    "{\"key\":\"00112233aabbccdd\",\"d1_size\":1,\"ll_size\":1,\"d1_line\":64,\"ll_line\":64,\"d1_assoc\":1,"
	    "\"ll_assoc\":1,\"ir\":-1,\"dr\":1,\"dw\":1,\"d1mr\":1,\"d1mw\":1,\"dlmr\":1,\"dlmw\":1}",
	    "{\"key\":\"00112233aabbccdd\",\"d1_size\":1,\"ll_size\":1,\"d1_line\":64,\"ll_line\":64,\"d1_assoc\":1,"
	    "\"ll_assoc\":1,\"ir\":1.5,\"dr\":1,\"dw\":1,\"d1mr\":1,\"d1mw\":1,\"dlmr\":1,\"dlmw\":1}",
	    "{\"key\":\"00112233aabbccdd\",\"d1_size\":1,\"ll_size\":1,\"d1_line\":0,\"ll_line\":64,\"d1_assoc\":1,"
	    "\"ll_assoc\":1,\"ir\":1,\"dr\":1,\"dw\":1,\"d1mr\":1,\"d1mw\":1,\"dlmr\":1,\"dlmw\":1}",
	    "{\"key\":\"00112233aabbccdd\",\"d1_size\":1}",
	    "not json",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_file("sim-00112233aabbccdd.json", bad[i]);
		got.ir = 7;
		assert_int_equal(kc_simcache_load(&a, dir, key, &got), -1);
		assert_true(got.ir == 7); /* untouched */
	}
	kc_arena_release(&a);
}

/* The libraries' identity names glibc's version, the libm file and (asked) OpenBLAS; it is the same twice. */
static void the_libraries_are_named(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	const char *plain = kc_libs_identity(&a, 0), *blas = kc_libs_identity(&a, 1), *again = kc_libs_identity(&a, 1);
	char want[128];
	snprintf(want, sizeof want, "glibc %s %s; libm /", gnu_get_libc_version(), gnu_get_libc_release());
	assert_true(!strncmp(plain, want, strlen(want)));
	assert_non_null(strstr(plain, "/libm.so"));
	assert_non_null(strstr(plain, " B mtime "));
	assert_null(strstr(plain, "OpenBLAS"));
	/* the same glibc part, then OpenBLAS's own words (a dependency of kcost: scripts/install-deps) */
	assert_true(!strncmp(blas, plain, strlen(plain)));
	assert_true(!strncmp(blas + strlen(plain), "; OpenBLAS ", 11));
	assert_null(strstr(blas, "unknown"));
	assert_non_null(strstr(blas, "libopenblas"));
	assert_string_equal(blas, again);
	kc_arena_release(&a);
}

static char cache[96]; /* the pruned directory: dir/prune, holding nothing of the other tests */

static void set_mtime(const char *name, long long t)
{
	char path[160];
	snprintf(path, sizeof path, "%s/%s", cache, name);
	struct timespec times[2] = {{(time_t)t, 0}, {(time_t)t, 0}};
	assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

static void write_entry(const char *name, const char *text)
{
	write_in(cache, name, text);
}

static int exists(const char *name)
{
	char path[160];
	snprintf(path, sizeof path, "%s/%s", cache, name);
	return access(path, F_OK) == 0;
}

/* 510 entries used within the last day, 3 used 31 days ago, and files that are not entries: the old three go,
 * then the 10 least recently used; an entry loaded is used now; nothing else is touched. */
static void the_cache_is_pruned_to_its_bounds(void **state)
{
	(void)state;
	struct kc_arena a = KC_ARENA_INIT;
	struct kc_cachegrind c = {.d1_size = 32768, .ll_size = 1 << 20, .d1_line = 64, .ll_line = 64, .ir = 1};
	long long now = (long long)time(NULL), day = 86400;
	char name[64], key[17];
	snprintf(cache, sizeof cache, "%s/prune", dir);
	assert_int_equal(mkdir(cache, 0700), 0);
	for (int i = 0; i < 510; i++) { /* entry i was used i minutes (and 1000 s) ago */
		snprintf(key, sizeof key, "%016x", 0x1000 + i);
		assert_int_equal(kc_simcache_save(&a, cache, key, &c), 0);
		snprintf(name, sizeof name, "sim-%s.json", key);
		set_mtime(name, now - 1000 - 60LL * i);
	}
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "sim-%016x.json", 0xdead0 + i);
		write_entry(name, "{}");
		set_mtime(name, now - 31 * day);
	}
	static const char *const others[] = {"ceilings-0123456789abcdef.json", "sim-notakey.json",
	                                     "sim-0000000000001000.json.77.tmp", "sim-0000000000001000.JSON"};
	for (int i = 0; i < 4; i++) {
		write_entry(others[i], "{}");
		set_mtime(others[i], now - 400 * day);
	}
	/* the least recently used entry is loaded: used now */
	struct kc_cachegrind got;
	snprintf(key, sizeof key, "%016x", 0x1000 + 509);
	assert_int_equal(kc_simcache_load(&a, cache, key, &got), 0);
	assert_int_equal(kc_simcache_prune(cache, (long long)time(NULL), KC_SIMCACHE_MAX_ENTRIES,
	                                   KC_SIMCACHE_MAX_AGE_DAYS * day, now - 100),
	                 3 + 10);
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "sim-%016x.json", 0xdead0 + i);
		assert_false(exists(name));
	}
	for (int i = 0; i < 510; i++) {
		snprintf(name, sizeof name, "sim-%016x.json", 0x1000 + i);
		assert_int_equal(exists(name), i < 499 || i == 509); /* 499 .. 508 were the least recently used */
	}
	for (int i = 0; i < 4; i++)
		assert_true(exists(others[i]));
	/* within the bounds: nothing more to do */
	assert_int_equal(kc_simcache_prune(cache, (long long)time(NULL), KC_SIMCACHE_MAX_ENTRIES,
	                                   KC_SIMCACHE_MAX_AGE_DAYS * day, now - 100),
	                 0);
	/* a run that used more entries than the bound keeps them all: 20 entries of "this run" (modified at or
	 * after its start) and the one it loaded, the bound 5: the 499 older ones go, the run's 21 stay */
	for (int i = 0; i < 20; i++) {
		snprintf(key, sizeof key, "%016x", 0x9000 + i);
		assert_int_equal(kc_simcache_save(&a, cache, key, &c), 0);
	}
	assert_int_equal(kc_simcache_prune(cache, (long long)time(NULL), 5, KC_SIMCACHE_MAX_AGE_DAYS * day, now - 100),
	                 499);
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof name, "sim-%016x.json", 0x9000 + i);
		assert_true(exists(name));
	}
	snprintf(name, sizeof name, "sim-%016x.json", 0x1000 + 509);
	assert_true(exists(name));
	assert_int_equal(kc_simcache_prune("/nonexistent/kcost-cache", now, 500, day, now), -1);
	kc_arena_release(&a);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/kcost-test-simcache-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(the_key_follows_what_determines_the_counts),
	    cmocka_unit_test(entries_round_trip_and_damaged_ones_are_not_used),
	    cmocka_unit_test(the_libraries_are_named),
	    cmocka_unit_test(the_cache_is_pruned_to_its_bounds),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
