/* CLOCK_MONOTONIC in ns: the one clock every layer reads (the timing
 * engine's windows, capture's interval, ksm --watch's samples, the
 * aliases' start-up measurement), a sleep of ns, and the thread's CPU
 * clock. */
#ifndef KB_MONOTONIC_H
#define KB_MONOTONIC_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The calling thread's CPU time in ns (0 if it cannot be read): against
 * the monotonic clock, how long the thread was off the CPU. */
static inline uint64_t clock_thread_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleeps ns, resumed after a signal (a handler that stops the run sets a
 * flag the caller reads after). */
static inline void clock_sleep_ns(uint64_t ns)
{
	struct timespec t = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&t, &t) != 0 && errno == EINTR)
		;
}

#endif
