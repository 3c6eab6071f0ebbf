/* What the fence of calls timed apart costs in the timed loop (see
 * fence.h), measured once per process. Apart from fence.c because it runs
 * the timed loops, which use the fence. */
#include <stdint.h>

#include "clock.h"
#include "fence.h"
#include "timed_loop.h"

/* A hash that does nothing: what is timed is the loop, the call and the fence. */
static uint64_t no_hash(const void *buf, size_t len)
{
	return (uint64_t)(uintptr_t)buf ^ len;
}

/* Calls per batch and batches per way: a few hundred microseconds in all. */
#define FENCE_CALLS 2000u
#define FENCE_BATCHES 25u

/* Once per process: it is the core's and the loop's, the same for every
 * measurement, and the process stays on its CPU. */
static double fence_ns = -1;

double bench_fence_overhead_ns(void)
{
	if (fence_ns >= 0)
		return fence_ns;
	/* Through a volatile pointer, as the timed loops see a hash: the
	 * compiler can neither inline nor drop the calls. */
	hash_fn volatile pick = no_hash;
	hash_fn fn = pick;
	static const unsigned char page[64];
	const unsigned char *const order[1] = { page };
	double best[2] = { 0, 0 };
	uint64_t sink = 0;
	size_t i = 0;

	for (unsigned b = 0; b < FENCE_BATCHES; b++)
		for (int apart = 0; apart < 2; apart++) {
			uint64_t t0 = clock_now_ns();
			sink ^= apart ? timed_calls_apart(fn, order, 1, sizeof(page), FENCE_CALLS, &i)
				      : timed_calls(fn, order, 1, sizeof(page), FENCE_CALLS, &i);
			double d = (double)(clock_now_ns() - t0);
			if (b == 0 || d < best[apart])
				best[apart] = d;
		}
	bench_sink ^= sink;
	double v = (best[1] - best[0]) / FENCE_CALLS;
	return fence_ns = v > 0 ? v : 0;
}
