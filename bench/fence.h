/* Calls timed apart (bench --apart): a fence after each call, so that no
 * instruction of the next call starts before the last one's have finished,
 * as in ksmd, which does other work between two checksums. Back to back,
 * a call's chain overlaps the next one's start as far as the out-of-order
 * window reaches, and a latency-bound hash reads faster than one call
 * takes (docs/measurement.md, "Calls apart"). */
#ifndef KB_FENCE_H
#define KB_FENCE_H

#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
#define BENCH_FENCE_AVAILABLE 1
#else
#define BENCH_FENCE_AVAILABLE 0
#endif

/* x86: lfence does not execute until every earlier instruction has
 * completed, and nothing after it starts before. arm64: isb refetches what
 * follows once every earlier instruction has retired. */
static inline void bench_call_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("lfence" ::: "memory");
#elif defined(__aarch64__)
	__asm__ volatile("isb" ::: "memory");
#endif
}

/* Whether calls can be timed apart here: a fence for this architecture and
 * (x86) the CPU has it (lfence came with SSE2). */
int bench_fence_available(void);

/* What the fence adds to a call, in ns: calls of an empty function in the
 * timed loop, fenced less back to back, each the fastest of several
 * batches; never below 0. Measured at the first call in a process (on the
 * CPU it runs on) and kept. Subtracted from every fenced call, so that a
 * figure apart is the call's own. */
double bench_fence_overhead_ns(void);

#endif
