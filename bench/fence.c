/* The fence of calls timed apart: whether this machine has one (see
 * fence.h; its cost in the timed loop is fence_cost.c's). */
#include "fence.h"

#include "../hashes/cpu_features.h"

int bench_fence_available(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return (cpu_features_detected() & CPU_SSE2) != 0;
#else
	return BENCH_FENCE_AVAILABLE;
#endif
}
