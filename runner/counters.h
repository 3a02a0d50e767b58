/* counters.h — hardware cache-miss counters (perf_event_open), detected at run time, never assumed. */
#ifndef KC_COUNTERS_H
#define KC_COUNTERS_H

#include <stddef.h>

/* 1 when this process can open and read PERF_COUNT_HW_CACHE_MISSES (last-level cache misses, user space only)
 * with perf_event_open; 0 when it cannot, with the reason in why (size n), e.g. "perf_event_open for
 * last-level cache misses failed: No such file or directory (no such hardware event; perf_event_paranoid
 * = 2)". The event is opened, enabled, read and closed; nothing stays open. */
int kc_counters_available(char *why, size_t n);

/* Bytes moved for a number of cache misses: misses × line size (a double, so no overflow). Negative inputs
 * (a counter that could not be read) give 0. */
double kc_counters_bytes(long long misses, int line_size);

#endif
