/* machine.h — the machine as the runner describes and measures it: caches, and the roofline ceilings (peak
 * FLOP/s per precision and instruction set, OpenBLAS's dense GEMM, dependent-op latencies, libm per-call times,
 * bandwidth per memory level), each with the method that measured it. Plain data,
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

/* The bandwidth kernels, by their mix of reads and writes: load (reads only), copy (one read stream, one written
 * stream it does not read), triad (two and one), update (a[i] += b[i]: a written stream it also reads). */
/* The adds of a row of the row-latency ceiling (latency_add_rows; "add_rows_of_64" in the cache) */
#define KC_CHAIN_RUN 64

enum kc_stream { KC_STREAM_LOAD, KC_STREAM_COPY, KC_STREAM_TRIAD, KC_STREAM_UPDATE, KC_STREAM_N };

/* The instruction sets kcost's peak kernels are built for (runner/peak.h). */
enum kc_isa { KC_ISA_SCALAR, KC_ISA_SSE, KC_ISA_AVX2, KC_ISA_AVX512, KC_ISA_N };

/* The per-call time of one libm function, measured scalar over an argument range. */
struct kc_libm_cost {
	const char *name;   /* "tanhf" */
	double seconds;     /* per call, one thread: the best run (the roof) */
	double median;      /* the median run, what the prediction of a function that was not measured uses (a measured
	                     * one's are swept in its process: kc_measurement.libm); 0: not measured (before version 6) */
	const char *method; /* how, with the argument range */
};

struct kc_machine {
	const char *cpu; /* model name from /proc/cpuinfo */
	int cores;
	long long cache_bytes[3]; /* L1d, L2, L3 as used for sizing and cache simulation; 0 when unknown */
	int cache_line;           /* last-level line size, bytes */
	int cache_ll_assoc;       /* last-level associativity */
	const char *cache_source; /* where the sizes come from, and any replacement ("sysfs", "sysconf (CPUID; ...") */
	/* one thread: the compute roofs kernels run under, the best of the peak kernels (vector FMA on most CPUs) */
	struct kc_ceiling flops_f32, flops_f64;
	struct kc_ceiling flops_f32_all_threads, flops_f64_all_threads; /* threads = cores */
	struct kc_ceiling dense_f32, dense_f64; /* OpenBLAS GEMM, one thread: the achievable dense roof */
	/* OpenBLAS GEMM as the harness runs it, [double]: with the kernels OpenBLAS chooses in this environment
	 * (below the roof when it chose kernels below the CPU: blas_note), what a cblas_* call is predicted at;
	 * value 0: not known, the roof is used */
	struct kc_ceiling dense_run[2];
	/* every peak kernel, one thread: [double][isa][fma]; value 0 where the CPU lacks it (method says so) */
	struct kc_ceiling peak[2][KC_ISA_N][2];
	double latency_add[2], latency_fma[2]; /* seconds of one dependent scalar add / FMA, [double]; 0: unknown */
	double latency_max[2]; /* seconds of one dependent fmaxf / fmax call (a max reduction), [double]; 0: unknown */
	/* seconds of one dependent update of a _Float16 accumulator, an add and a multiply-add (contracted), and how
	 * the CPU does it (latency_half_how: native instructions, or conversions to float and back); 0 and NULL:
	 * not measured (before ceilings version 8) */
	double latency_half_add, latency_half_madd;
	const char *latency_half_how;
	/* seconds of one add of rows of KC_CHAIN_RUN dependent adds, summed one row after another: less than
	 * latency_add where the out-of-order window overlaps a row's adds with the next's; [double]; 0: unknown */
	double latency_add_rows[2];
	/* the median runs of latency_add and latency_max, [double], sampled beside the kernels' timings
	 * (runner/beside.h) in this run: what a prediction waits on when measured (the best runs above are the
	 * ceilings; the rows' overlap stays the ratio of the best add and rows); 0: not sampled
	 * (latency_beside_runs runs of each: 0) */
	double latency_add_median[2], latency_max_median[2];
	int latency_beside_runs;
	struct kc_libm_cost *libm; /* per-call times of the transcendentals kcost counts */
	int n_libm;
	const char *blas_note; /* OpenBLAS chose kernels below the CPU: what OPENBLAS_CORETYPE changes; else NULL */
	/* seconds to bring in one 4 KiB page of a fresh allocation (malloc, a first write, free: the kernel's page
	 * fault and zeroing), one thread; 0: not measured */
	struct kc_ceiling fresh_page;
	/* seconds per store of a column walk, with the load of the element it stores (a transpose's;
	 * runner/bandwidth.h, kc_column_measure), the fastest batch and the median batch (what a prediction uses),
	 * per level: at L1 down a column that L1 keeps (what a strided store costs where its line is at hand), beyond
	 * it down one whose lines conflict in the caches above the level they come from (kc_nest.column_stores);
	 * 0: not measured (a cache before version 7, --bandwidth, a cache level the walk cannot single out) */
	double column_store[KC_LEVEL_N], column_store_median[KC_LEVEL_N];
	const char *column_method;
	struct kc_ceiling bandwidth[KC_LEVEL_N]; /* one thread */
	/* each bandwidth kernel's GB/s per level (STREAM's counting), one thread; 0: not measured (a cache of an
	 * older kcost, --bandwidth, --machine FILE without them): the prediction then prices every byte at
	 * the level's one bandwidth (bandwidth_median[], else bandwidth[]) */
	double stream[KC_LEVEL_N][KC_STREAM_N];
	/* the median batch of each ceiling above, where the best is the roof: what a kernel's median call is
	 * predicted at (on a machine shared with other tenants its calls are slower most of the time than its
	 * fastest, and so are the ceilings' batches); 0: not measured (version 5 and older), the best is used */
	double bandwidth_median[KC_LEVEL_N];
	double stream_median[KC_LEVEL_N][KC_STREAM_N];
	/* batches of each bandwidth kernel sampled beside the kernels' timings (runner/beside.h) whose medians
	 * replaced the ceilings' in the two arrays above; 0: the ceilings' medians (not run, or too few) */
	int beside_batches[KC_LEVEL_N];
	const char *measured_at; /* ISO-8601 */
	double measure_seconds;  /* how long measuring the ceilings took (when they were measured) */
	int cached;              /* loaded from the cache rather than measured in this run */
	int hypothetical;        /* --peak/--bandwidth: budgets the user gave, not measurements */
	const char
	    *from_file; /* --machine FILE: ceilings another machine measured (its `kcost machine --format json`) */
};

const char *kc_level_name(enum kc_level l);   /* "L1", "L2", "L3", "DRAM" */
const char *kc_stream_name(enum kc_stream k); /* "load", "copy", "triad", "update" */
const char *kc_isa_name(enum kc_isa isa);     /* "scalar", "SSE", "AVX2", "AVX-512" */

/* The per-call time of libm function `name` on m, or NULL when it was not measured. */
const struct kc_libm_cost *kc_machine_libm(const struct kc_machine *m, const char *name);

#endif
