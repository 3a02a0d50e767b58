/* cpu.h — what the machine is, read from /proc/cpuinfo, sysfs and sysconf (nothing measured). */
#ifndef KC_CPU_H
#define KC_CPU_H

/* Without sysfs cache topology, an L3 larger than this that CPUID reports is taken for a package-wide total no
 * single core can use (a hypervisor's view of a multi-CCD part), and KC_CPU_ASSUMED_L3 is used instead. */
#define KC_CPU_IMPLAUSIBLE_L3 (64LL << 20)
#define KC_CPU_ASSUMED_L3     (32LL << 20)

struct kc_cpu {
	char model[256];        /* "model name" of /proc/cpuinfo ("unknown" when absent); CPUID's is 48 bytes */
	char *flags;            /* its "flags" line, malloc'd ("" when absent) */
	int cores;              /* online processors */
	long long cache[3];     /* L1d, L2, L3 bytes as used for sizing and simulation; 0 when unknown */
	long long l3_reported;  /* the L3 size as reported, before any replacement */
	int line;               /* line size of the last level, bytes (64 when unknown) */
	int ll_assoc;           /* associativity of the last level (16 when unknown) */
	char cache_source[256]; /* "sysfs", or "sysconf (CPUID)", plus any replacement stated (under 160 bytes) */
};

/* Describe this machine. Never fails: what cannot be read is left unknown. Release with kc_cpu_release. */
void kc_cpu_probe(struct kc_cpu *c);
void kc_cpu_release(struct kc_cpu *c);

/* Sizes from caches: the replacement rule above, applied to an L3 of `l3` bytes found in `source` ("sysfs"
 * trusts any size). Returns the size to use; writes a note to note (size n, "" when nothing was replaced). */
long long kc_cpu_plausible_l3(long long l3, const char *source, char *note, unsigned n);

#endif
