/* measure.h — what the runner measures of each function: timing, equivalence with its reference, traffic.
 * Plain data read by the reporter, filled by kc_run (runner.h). A run with --no-run has no measurements and
 * the reporter says so ("not measured"). */
#ifndef KC_MEASURE_H
#define KC_MEASURE_H

#include "machine.h"

/* A libm function's per-call time swept in a kernel's own processes, between its timed calls
 * (runner/harness/kcost_driver.c): what the kernel's prediction prices its calls at. */
struct kc_libm_in_process {
	const char *name; /* "tanhf" */
	double median;    /* seconds per call, the median sweep */
	int sweeps;
};

#define KC_MEASURE_MAX_SAMPLES 1000

/* --baseline: how a function compares with itself at the baseline revision (report.json functions[].baseline;
 * the figures are reporter/diff.h's, the verdict model/compare.h's) */
struct kc_baseline_result {
	const char *revision; /* the baseline's commit */
	const char *change;   /* "same", "changed", "added" (not at the baseline) */
	const char *verdict;  /* "slower", "faster", "unchanged", "inconclusive", or why there is none */
	int tested;           /* ci_low .. n_head are set */
	double ratio;         /* head / base median time; NAN when not both measured */
	double ci_low, ci_high, p_value;
	int n_base, n_head;
	double base_seconds;        /* the baseline's median; NAN when not measured */
	double instructions_change; /* head / base - 1 of one call's instructions; NAN when not counted or the same */
	int regressed;              /* beyond --fail-on-regression */
};

/* One function's measurement. `error` non-NULL means the kernel could not be measured (compile error,
 * crash, timeout, mismatch with its reference); the other fields are then partial or zero. */
struct kc_measurement {
	const char *function;
	const char *file; /* the function's file as the analysis spells it (function names repeat across files) */
	double seconds_min, seconds_median, seconds_p90;
	int samples;
	/* the timed samples (seconds per call) in the order taken, every k-th of them when there are more than
	 * KC_MEASURE_MAX_SAMPLES: what kcost diff and --baseline compare (model/compare.h) */
	const double *sample_seconds;
	int n_sample_seconds;
	/* the median of each slice (one harness process) in the order timed: the independent runs --baseline's
	 * verdict compares, and kcost diff's when both reports have KC_DIFF_MIN_SLICES or more */
	const double *slice_seconds;
	int n_slice_seconds;
	double cv;
	const char *compiler;         /* exact command used to build the harness */
	const char *reference;        /* NULL when no reference declared */
	int equivalent;               /* 1 ok, 0 mismatch, -1 not checked */
	const char *equivalence_note; /* equivalent == -1 with a reference: why it was not checked */
	double max_rel_err;           /* max over outputs of |out - ref| / max(|ref|, 1e-5) */
	double checksum;              /* sum of the output buffers after the timed calls (keeps the work observable) */
	const char *traffic_source;   /* "counters", "cachegrind", "unavailable" */
	const char *traffic_why; /* the method (tool, cache configuration, what was subtracted), or why unavailable */
	double traffic_bytes;    /* last-level (DRAM) bytes; 0 when unavailable */
	double traffic_l2_bytes;
	double traffic_seconds; /* wall-clock time the traffic measurement took */
	/* instructions one call executes, counted by the cache simulation (the run with the call minus the same
	 * setup without it): deterministic for one binary and its inputs; 0 when not counted */
	double instructions;
	const char *error;
	/* what the compiler said it vectorized in the function's file (its remarks): vec_known 0 when they were not
	 * read (another compiler, or the harness did not build) */
	int vec_known;
	const int *vec_lines;
	int n_vec_lines;
	/* the libm functions it calls, swept in its processes (KC_BESIDE_MIN_SAMPLES sweeps or more each) */
	struct kc_libm_in_process *libm;
	int n_libm;
	/* non-NULL: the timing is faster than the machine's ceilings allow (the warning's text); the point is marked */
	const char *implausible;
	const struct kc_baseline_result *baseline; /* --baseline only */
};

/* items[i] is the measurement of the analysis's functions[i] (n == kc_analysis.n_functions); the items of
 * functions that were not to be measured (skipped) have function NULL. n_measured counts the others. */
struct kc_measurements {
	struct kc_machine *machine; /* NULL when the machine was not measured (--no-run) */
	struct kc_measurement *items;
	int n;
	int n_measured;
	/* how kernels were isolated: sandbox 1 in the sandbox (sandbox_note: what it isolates), 0 not asked
	 * (kernels ran with the user's rights), -1 asked but not available (sandbox_note: why; nothing ran) */
	int sandbox;
	const char *sandbox_note;
};

#endif
