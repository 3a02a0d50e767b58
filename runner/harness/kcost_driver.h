/* kcost_driver.h — the interface between a generated harness.c and the fixed driver, kcost_driver.c.
 *
 * kcost writes this file, kcost_driver.c and a generated harness.c into a temporary directory and builds them
 * into one program. harness.c includes this header first, then the user's file (with `main` renamed away), then
 * defines one call wrapper per kernel and the table the driver runs. Because it comes before the user's code,
 * this header includes nothing and declares only kcost_-prefixed names: it cannot change how the user's file
 * compiles. The driver is a separate translation unit so that its feature macros (_GNU_SOURCE for
 * clock_gettime and perf_event_open) cannot change the user's file either.
 *
 * Command line of the built program: harness FUNCTION MODE [ARGS]
 *   time BUDGET MAX [NAME=CALLS ...]
 *                     warm-up call, then timed calls until BUDGET seconds of them are timed and at least 10
 *                     samples exist (at most 10000 samples; stop anyway after MAX seconds); between them, rounds
 *                     of sweeps of each libm function NAME (kcost_libm.h, at most 16) over as many arguments as
 *                     the kernel's CALLS of it in one call (16,384 to 262,144), one after each sample while the
 *                     rounds have taken at most a quarter of the timed time (the first always), 3 rounds at least;
 *                     their seconds per call in "libm":{NAME:[...]}
 *   check             run the kernel and its reference on identical inputs and compare the outputs
 *   once FLUSH        setup, sweep FLUSH bytes to evict the caches, one call (for cache simulation)
 *   none FLUSH        setup and the sweep only: the baseline subtracted from `once`
 *   count FLUSH       as once, counting last-level and L1D misses of the call with perf_event_open
 * Each mode writes one JSON line, tagged {"function":F,"mode":M,...}, to its result channel: the file descriptor
 * whose number kcost puts in KCOST_RESULT_FD (a pipe only kcost reads; stdout when the variable is absent, as when
 * the harness is run by hand). The driver removes the variable and marks the descriptor close-on-exec before
 * main calls any kernel code, and ends the process with _exit right after closing the channel, so neither the
 * kernel's output nor its atexit handlers and destructors can add a line. Exit status 0 when the line was
 * written, KCOST_EXIT_USAGE for a bad command line, KCOST_EXIT_ALLOC when an allocation failed (the line is then
 * {"function":F,"mode":M,"error":"alloc","bytes":N}).
 */
#ifndef KCOST_DRIVER_H
#define KCOST_DRIVER_H

#define KCOST_EXIT_USAGE 85
#define KCOST_EXIT_ALLOC 86

enum kcost_elem_class { KCOST_FLOATING, KCOST_INTEGER, KCOST_OPAQUE };

/* One buffer parameter of a kernel. */
struct kcost_buffer {
	const char *name;
	unsigned long long count;     /* elements */
	unsigned long long elem_size; /* bytes */
	int elem_class;               /* enum kcost_elem_class */
	int is_output;                /* output or inout: checksummed, and compared with the reference */
	/* KCOST_FLOATING: store n values from kcost_uniform */
	void (*fill)(void *p, unsigned long long n, unsigned long long *state);
	/* element i as a double; NULL for KCOST_OPAQUE */
	double (*get)(const void *p, unsigned long long i);
};

/* One kernel: wrappers that call it (and its initializer and reference) with the buffers in table order. */
struct kcost_function {
	const char *name;
	void (*call)(void *const *buffers);
	void (*init)(void *const *buffers);      /* KCOST_INIT, or 0 */
	void (*reference)(void *const *buffers); /* KCOST_REFERENCE with a compatible signature, or 0 */
	const char *reference_name;
	const struct kcost_buffer *buffers;
	int n_buffers;
};

/* The next value of a 64-bit linear congruential generator (Knuth's MMIX constants), mapped to [0.5, 1.5):
 * inputs that keep exp, tanh and divisions finite. Inline, so that filling large buffers stays cheap even under
 * cache simulation. */
static inline double kcost_uniform(unsigned long long *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return 0.5 + (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

/* Run the mode argv asks for on the kernel it names and end the process with its exit status (never returns). */
int kcost_driver_main(int argc, char **argv, const struct kcost_function *functions, int n_functions);

#endif
