/* measure.h — what the runner measures: the machine's ceilings and each function's timing and traffic.
 * Plain data read by the reporter, filled by kc_run (runner.h). A run with --no-run has no measurements and
 * the reporter says so ("not measured"). */
#ifndef KC_MEASURE_H
#define KC_MEASURE_H

/* One ceiling with the method that measured it ("cblas_sgemm n=2048, 1 thread"). */
struct kc_ceiling {
	double value;       /* GFLOP/s for compute roofs, GB/s for bandwidth roofs; 0 = not measured */
	int threads;
	const char *method;
};

enum kc_level { KC_LEVEL_L1, KC_LEVEL_L2, KC_LEVEL_L3, KC_LEVEL_DRAM, KC_LEVEL_N };

struct kc_machine {
	const char *cpu;          /* model name from /proc/cpuinfo */
	int cores;
	long long cache_bytes[3]; /* L1d, L2, L3 as used for sizing and cache simulation; 0 when unknown */
	int cache_line;           /* last-level line size, bytes */
	int cache_ll_assoc;       /* last-level associativity */
	const char *cache_source; /* where the sizes come from, and any replacement ("sysfs", "sysconf (CPUID; ...") */
	struct kc_ceiling flops_f32, flops_f64;                         /* one thread: the roofs kernels run under */
	struct kc_ceiling flops_f32_all_threads, flops_f64_all_threads; /* threads = cores */
	struct kc_ceiling bandwidth[KC_LEVEL_N];                        /* one thread */
	const char *measured_at;  /* ISO-8601 */
	double measure_seconds;   /* how long measuring the ceilings took (when they were measured) */
	int cached;               /* loaded from the cache rather than measured in this run */
};

const char *kc_level_name(enum kc_level l); /* "L1", "L2", "L3", "DRAM" */

/* One function's measurement. `error` non-NULL means the kernel could not be measured (compile error,
 * crash, timeout, mismatch with its reference); the other fields are then partial or zero. */
struct kc_measurement {
	const char *function;
	const char *file;     /* the function's file as the analysis spells it (function names repeat across files) */
	double seconds_min, seconds_median, seconds_p90;
	int samples;
	double cv;
	const char *compiler; /* exact command used to build the harness */
	const char *reference; /* NULL when no reference declared */
	int equivalent;        /* 1 ok, 0 mismatch, -1 not checked */
	const char *equivalence_note; /* equivalent == -1 with a reference: why it was not checked */
	double max_rel_err;    /* max over outputs of |out - ref| / max(|ref|, 1e-5) */
	double checksum;       /* sum of the output buffers after the timed calls (keeps the work observable) */
	const char *traffic_source; /* "counters", "cachegrind", "unavailable" */
	const char *traffic_why;    /* the method (tool, cache configuration, what was subtracted), or why unavailable */
	double traffic_bytes;       /* last-level (DRAM) bytes; 0 when unavailable */
	double traffic_l2_bytes;
	double traffic_seconds;     /* wall-clock time the traffic measurement took */
	const char *error;
};

struct kc_measurements {
	struct kc_machine *machine; /* NULL when the machine was not measured (--no-run) */
	struct kc_measurement *items;
	int n;
};

#endif
