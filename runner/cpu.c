/* cpu.c — CPU model, flags, core count and cache sizes of this machine. */
#define _GNU_SOURCE
#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The value of the first "key : value" line of /proc/cpuinfo, malloc'd; NULL when absent. */
static char *cpuinfo_value(const char *key)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return NULL;
	char *line = NULL, *value = NULL;
	size_t cap = 0, len = strlen(key);
	while (!value && getline(&line, &cap, f) > 0) {
		if (strncmp(line, key, len) != 0 || !strchr(line + len, ':'))
			continue;
		if (strspn(line + len, " \t") != strcspn(line + len, ":"))
			continue; /* "flags" must not match "flagsx" */
		char *v = strchr(line + len, ':') + 1;
		v += strspn(v, " \t");
		v[strcspn(v, "\n")] = '\0';
		value = strdup(v);
	}
	free(line);
	fclose(f);
	return value;
}

static int read_sysfs(const char *dir, const char *name, char *out, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(out, (int)n, f) != NULL;
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	return ok ? 0 : -1;
}

/* "48K", "1024K", "32M" -> bytes */
static long long parse_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	return *end == 'K' ? v << 10 : *end == 'M' ? v << 20 : *end == 'G' ? v << 30 : v;
}

/* Data/unified caches of cpu0 from /sys/devices/system/cpu/cpu0/cache/index*; 0 when there are none. */
static int caches_from_sysfs(struct kc_cpu *c)
{
	int found = 0;
	for (int i = 0; i < 16; i++) {
		char dir[128], level[16], type[32], size[32], line[16], ways[16];
		snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		if (read_sysfs(dir, "level", level, sizeof level) < 0 ||
		    read_sysfs(dir, "type", type, sizeof type) < 0 || read_sysfs(dir, "size", size, sizeof size) < 0)
			continue;
		int l = atoi(level);
		if (l < 1 || l > 3 || !strcmp(type, "Instruction"))
			continue;
		c->cache[l - 1] = parse_size(size);
		found = 1;
		if (read_sysfs(dir, "coherency_line_size", line, sizeof line) == 0 && atoi(line) > 0)
			c->line = atoi(line);
		if (read_sysfs(dir, "ways_of_associativity", ways, sizeof ways) == 0 && atoi(ways) > 0)
			c->ll_assoc = atoi(ways);
	}
	return found;
}

static void caches_from_sysconf(struct kc_cpu *c)
{
#ifdef _SC_LEVEL1_DCACHE_SIZE
	long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), line = sysconf(_SC_LEVEL3_CACHE_LINESIZE);
	long ways = sysconf(l3 > 0 ? _SC_LEVEL3_CACHE_ASSOC : _SC_LEVEL2_CACHE_ASSOC);
	c->cache[0] = l1 > 0 ? l1 : 0;
	c->cache[1] = l2 > 0 ? l2 : 0;
	c->cache[2] = l3 > 0 ? l3 : 0;
	if (line > 0)
		c->line = (int)line;
	if (ways > 0)
		c->ll_assoc = (int)ways;
#else
	(void)c;
#endif
}

long long kc_cpu_plausible_l3(long long l3, const char *source, char *note, unsigned n)
{
	note[0] = '\0';
	if (!strcmp(source, "sysfs") || l3 <= KC_CPU_IMPLAUSIBLE_L3)
		return l3;
	snprintf(note, n,
	         "; its L3 of %lld MiB exceeds %lld MiB, taken for a package-wide total no core can use, "
	         "replaced by %lld MiB",
	         l3 >> 20, KC_CPU_IMPLAUSIBLE_L3 >> 20, KC_CPU_ASSUMED_L3 >> 20);
	return KC_CPU_ASSUMED_L3;
}

void kc_cpu_probe(struct kc_cpu *c)
{
	memset(c, 0, sizeof *c);
	char *model = cpuinfo_value("model name");
	snprintf(c->model, sizeof c->model, "%s", model ? model : "unknown");
	free(model);
	c->flags = cpuinfo_value("flags");
	if (!c->flags)
		c->flags = strdup("");
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	c->cores = cores > 0 ? (int)cores : 1;
	c->line = 64;
	c->ll_assoc = 16;
	const char *source = caches_from_sysfs(c) ? "sysfs" : "sysconf (CPUID; no cache topology in sysfs)";
	if (strcmp(source, "sysfs") != 0)
		caches_from_sysconf(c);
	c->l3_reported = c->cache[2];
	char note[160];
	c->cache[2] = kc_cpu_plausible_l3(c->cache[2], source, note, sizeof note);
	if (*note)
		c->ll_assoc = 16;
	snprintf(c->cache_source, sizeof c->cache_source, "%s%s", source, note);
}

void kc_cpu_release(struct kc_cpu *c)
{
	free(c->flags);
	c->flags = NULL;
}
