/* measure.h — what the runner measures: the machine's ceilings and each function's timing and traffic.
 * Plain data read by the reporter. Filled by the runner issue; until then a run has no measurements and
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
	long long cache_bytes[3]; /* L1d, L2, L3; 0 when unknown */
	struct kc_ceiling flops_f32, flops_f64;
	struct kc_ceiling bandwidth[KC_LEVEL_N];
	const char *measured_at;  /* ISO-8601 */
	int cached;               /* loaded from the cache rather than measured in this run */
};

const char *kc_level_name(enum kc_level l); /* "L1", "L2", "L3", "DRAM" */

/* One function's measurement. `error` non-NULL means the kernel could not be measured (compile error,
 * crash, timeout, mismatch with its reference); the other fields are then partial or zero. */
struct kc_measurement {
	const char *function;
	double seconds_min, seconds_median, seconds_p90;
	int samples;
	double cv;
	const char *compiler; /* exact command used to build the harness */
	const char *reference; /* NULL when no reference declared */
	int equivalent;        /* 1 ok, 0 mismatch, -1 not checked */
	double max_rel_err;
	const char *traffic_source; /* "counters", "cachegrind", "unavailable" */
	const char *traffic_why;    /* why unavailable */
	double traffic_bytes;       /* last-level (DRAM) bytes; 0 when unavailable */
	double traffic_l2_bytes;
	const char *error;
};

struct kc_measurements {
	struct kc_machine *machine; /* NULL when the machine was not measured (--no-run) */
	struct kc_measurement *items;
	int n;
};

#endif
