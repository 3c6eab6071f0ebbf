/* XSAVE + XRSTOR of this CPU's enabled state (see xsave_probe.h): inline
 * assembly, so no target flags are needed; the buffer is 64-byte aligned
 * as the instructions require, and saved before it is restored. */
#include "xsave_probe.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"

#define XSAVE_PAIRS 256u   /* per timed batch */
#define XSAVE_BATCHES 8u   /* the fastest batch counts */

#if defined(__x86_64__)
#include "../common/cpuid.h"

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static void save_restore(void *area, uint64_t mask)
{
	uint32_t lo = (uint32_t)mask, hi = (uint32_t)(mask >> 32);

	__asm__ volatile("xsave64 (%0)" : : "r"(area), "a"(lo), "d"(hi) : "memory");
	__asm__ volatile("xrstor64 (%0)" : : "r"(area), "a"(lo), "d"(hi) : "memory");
}

void xsave_measure(struct xsave_cost *out)
{
	unsigned r[4];

	memset(out, 0, sizeof(*out));
	if (!kb_cpuid(1, 0, r) || !(r[2] & (1u << 27)) || !kb_cpuid(0xd, 0, r)) /* OSXSAVE; the XSAVE leaf */
		return;
	size_t size = (r[1] + 63u) & ~(size_t)63u;
	void *area = size ? aligned_alloc(64, size) : NULL;
	if (!area)
		return;
	memset(area, 0, size);
	uint64_t mask = xgetbv0(); /* XCR0: the state components saved */
	double best = 0;
	for (unsigned k = 0; k < XSAVE_BATCHES; k++) {
		uint64_t t0 = clock_now_ns();
		for (unsigned i = 0; i < XSAVE_PAIRS; i++)
			save_restore(area, mask);
		double ns = (double)(clock_now_ns() - t0) / XSAVE_PAIRS;
		if (k == 0 || ns < best)
			best = ns;
	}
	free(area);
	*out = (struct xsave_cost){ r[1], best };
}
#else
void xsave_measure(struct xsave_cost *out)
{
	memset(out, 0, sizeof(*out));
}
#endif
