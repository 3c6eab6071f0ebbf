/* CLOCK_MONOTONIC in ns: the one clock every layer reads (the timing
 * engine's windows, capture's interval, ksm --watch's samples, the
 * aliases' start-up measurement). */
#ifndef KB_MONOTONIC_H
#define KB_MONOTONIC_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
