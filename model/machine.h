/* machine.h — the machine as the runner describes and measures it: caches, and the roofline ceilings (peak
 * FLOP/s per precision, bandwidth per memory level), each with the method that measured it. Plain data,
 * filled by the runner's ceilings module and read by the reporter. */
#ifndef KC_MACHINE_H
#define KC_MACHINE_H

/* One ceiling with the method that measured it ("cblas_sgemm n=2048, 1 thread"). */
struct kc_ceiling {
	double value; /* GFLOP/s for compute roofs, GB/s for bandwidth roofs; 0 = not measured */
	int threads;
	const char *method;
};

enum kc_level { KC_LEVEL_L1, KC_LEVEL_L2, KC_LEVEL_L3, KC_LEVEL_DRAM, KC_LEVEL_N };

struct kc_machine {
	const char *cpu; /* model name from /proc/cpuinfo */
	int cores;
	long long cache_bytes[3]; /* L1d, L2, L3 as used for sizing and cache simulation; 0 when unknown */
	int cache_line;           /* last-level line size, bytes */
	int cache_ll_assoc;       /* last-level associativity */
	const char *cache_source; /* where the sizes come from, and any replacement ("sysfs", "sysconf (CPUID; ...") */
	struct kc_ceiling flops_f32, flops_f64;                         /* one thread: the roofs kernels run under */
	struct kc_ceiling flops_f32_all_threads, flops_f64_all_threads; /* threads = cores */
	struct kc_ceiling bandwidth[KC_LEVEL_N];                        /* one thread */
	const char *measured_at;                                        /* ISO-8601 */
	double measure_seconds; /* how long measuring the ceilings took (when they were measured) */
	int cached;             /* loaded from the cache rather than measured in this run */
};

const char *kc_level_name(enum kc_level l); /* "L1", "L2", "L3", "DRAM" */

#endif
