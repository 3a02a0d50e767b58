/* counters.c — perf_event_open detection and the misses-to-bytes arithmetic. */
#define _GNU_SOURCE
#include "counters.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

double kc_counters_bytes(long long misses, int line_size)
{
	if (misses < 0 || line_size <= 0)
		return 0;
	return (double)misses * (double)line_size;
}

#ifdef __linux__
static int paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = -100;
	if (f && fscanf(f, "%d", &level) != 1)
		level = -100;
	if (f)
		fclose(f);
	return level;
}

static const char *errno_hint(int e)
{
	switch (e) {
	case ENOENT:
		return "no such hardware event: no PMU, e.g. in a virtual machine";
	case EOPNOTSUPP:
		return "the hardware does not support it";
	case EACCES:
	case EPERM:
		return "not permitted";
	case ENOSYS:
		return "the kernel has no perf events";
	default:
		return "";
	}
}

int kc_counters_available(char *why, size_t n)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CACHE_MISSES;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		int e = errno, level = paranoid_level();
		const char *hint = errno_hint(e);
		int w = snprintf(why, n, "perf_event_open for last-level cache misses failed: %s (%s%s", strerror(e),
		                 hint, *hint ? "; " : "");
		if (w >= 0 && (size_t)w < n && level > -100)
			snprintf(why + w, n - (size_t)w, "perf_event_paranoid = %d)", level);
		else if (w >= 0 && (size_t)w < n)
			snprintf(why + w, n - (size_t)w, "perf_event_paranoid unreadable)");
		return 0;
	}
	long long count = 0;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	int ok = read(fd, &count, sizeof count) == (ssize_t)sizeof count;
	close(fd);
	if (!ok)
		snprintf(why, n, "perf_event_open succeeded but the counter could not be read");
	else
		snprintf(why, n, "perf_event_open: last-level cache misses can be counted");
	return ok;
}
#else
int kc_counters_available(char *why, size_t n)
{
	snprintf(why, n, "perf_event_open exists only on Linux");
	return 0;
}
#endif
