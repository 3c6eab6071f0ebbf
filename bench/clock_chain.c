/* The dependent-addition chain and the independent-addition block (see
 * clock_chain.h) timed around every round. */
#include "clock_chain.h"

#include "ceiling_probes.h"
#include "clock.h"
#include "../hashes/cpu_features.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Runs the chain of adds additions (a multiple of 8) and returns its
 * result, for the caller to publish so that it is not optimized away. The
 * ceiling's probe of the core clock is this same chain: one loop, so the
 * two figures cannot drift apart. */
static uint64_t clock_chain_run(uint64_t adds)
{
	uint64_t x = adds;

	ceiling_add_chain(adds / 8, &x);
	return x;
}

static volatile uint64_t clock_chain_sink;

/* Additions per ns of the fastest of three runs of block (an interruption
 * only makes one slower); 0 when the clock did not move. */
static double fastest_of_three(uint64_t (*block)(uint64_t), uint64_t adds)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 3; i++) {
		uint64_t t0 = clock_now_ns();
		clock_chain_sink ^= block(adds);
		uint64_t t1 = clock_now_ns();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best > 0 && best != UINT64_MAX ? (double)adds / (double)best : 0;
}

double clock_chain_hz(void)
{
	return fastest_of_three(clock_chain_run, CLOCK_CHAIN_ADDS) * 1e9;
}

#if defined(__SSE2__) && defined(__x86_64__)
/* Twelve chains of 4-lane SSE2 adds and ten of scalar adds (of a register:
 * Golden Cove and later resolve adds of an immediate in the renamer), 58
 * additions a step: 23 instructions, which the vector ALUs (four on Zen 5)
 * and the dispatch width (6-8 a cycle) take about three cycles to pass, so
 * the block binds on the width a sibling thread shares. A block of vector
 * adds alone is not enough: eight chains ran at 59 or at 33-37 additions
 * per ns on a free Zen 5 core (how the adds were bound to the ALUs, a block
 * at a time, about 30% of blocks; hashes timed between them never moved),
 * and twelve, steady on a free core, dropped by 4-21% while the host's
 * sibling took 25-40% from xxh3 and crc32c (docs/measurement.md). */
#define THROUGHPUT_STEP 58
static uint64_t throughput_block(uint64_t adds)
{
	__m128i a0 = _mm_set1_epi32(1), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
	__m128i a8 = a0, a9 = a0, a10 = a0, a11 = a0;
	const __m128i k = _mm_set1_epi32(3);
	uint64_t s0 = 1, s1 = 2, s2 = 3, s3 = 4, s4 = 5, s5 = 6, s6 = 7, s7 = 8, s8 = 9, s9 = 10, step = 1;

	__asm__ volatile("" : "+r"(step));
	for (uint64_t i = 0; i < adds / THROUGHPUT_STEP; i++) {
		a0 = _mm_add_epi32(a0, k);
		a1 = _mm_add_epi32(a1, k);
		a2 = _mm_add_epi32(a2, k);
		a3 = _mm_add_epi32(a3, k);
		a4 = _mm_add_epi32(a4, k);
		a5 = _mm_add_epi32(a5, k);
		a6 = _mm_add_epi32(a6, k);
		a7 = _mm_add_epi32(a7, k);
		a8 = _mm_add_epi32(a8, k);
		a9 = _mm_add_epi32(a9, k);
		a10 = _mm_add_epi32(a10, k);
		a11 = _mm_add_epi32(a11, k);
		s0 += step;
		s1 += step;
		s2 += step;
		s3 += step;
		s4 += step;
		s5 += step;
		s6 += step;
		s7 += step;
		s8 += step;
		s9 += step;
		__asm__ volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5), "+x"(a6), "+x"(a7),
				 "+x"(a8), "+x"(a9), "+x"(a10), "+x"(a11));
		__asm__ volatile("" : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3), "+r"(s4), "+r"(s5), "+r"(s6), "+r"(s7),
				 "+r"(s8), "+r"(s9));
	}
	a0 = _mm_add_epi32(_mm_add_epi32(_mm_add_epi32(a0, a1), _mm_add_epi32(a2, a3)),
			   _mm_add_epi32(_mm_add_epi32(a4, a5), _mm_add_epi32(a6, a7)));
	a8 = _mm_add_epi32(_mm_add_epi32(a8, a9), _mm_add_epi32(a10, a11));
	return (uint64_t)(uint32_t)_mm_cvtsi128_si32(_mm_add_epi32(a0, a8)) ^ s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ s5 ^ s6 ^ s7 ^
	       s8 ^ s9;
}
#else
/* Four independent scalar chains: 4 additions per step, in words (four
 * 64-bit values would need eight of i386's registers). */
#define THROUGHPUT_STEP 4
static uint64_t throughput_block(uint64_t adds)
{
	unsigned long a = 1, b = 2, c = 3, d = 4;

	for (uint64_t i = 0; i < adds / THROUGHPUT_STEP; i++) {
		a += 1;
		b += 3;
		c += 5;
		d += 7;
		__asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
	}
	return a ^ b ^ c ^ d;
}
#endif

double clock_chain_throughput(void)
{
	/* The block is SSE2: on dirty upper halves, as ISA-L and libxxhash's
	 * dispatch leave them on Zen 4, it ran at half speed (26.9 against 59.1
	 * additions per ns), which read as a shared core after every round of
	 * those hashes. Whatever ran before, clean them first. */
	cpu_vector_state_clean();
	return fastest_of_three(throughput_block, CLOCK_CHAIN_ADDS / THROUGHPUT_STEP * THROUGHPUT_STEP);
}
