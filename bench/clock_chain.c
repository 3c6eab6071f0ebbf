/* The dependent-addition chain (see clock_chain.h), in its own translation
 * unit: the empty asm after each addition makes the compiler keep every
 * one, in order, in a register. */
#include "clock_chain.h"

#include "clock.h"

#define ADD1 x += 1; __asm__ volatile("" : "+r"(x));
#define ADD8 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
#define ADD64 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8

uint64_t clock_chain_run(uint64_t adds)
{
	uint64_t x = adds;

	for (uint64_t i = 0; i < adds / 64; i++) {
		ADD64
	}
	return x;
}

volatile uint64_t clock_chain_sink;

double clock_chain_hz(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 3; i++) {
		uint64_t t0 = clock_now_ns();
		clock_chain_sink ^= clock_chain_run(CLOCK_CHAIN_ADDS);
		uint64_t t1 = clock_now_ns();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best > 0 && best != UINT64_MAX ? (double)CLOCK_CHAIN_ADDS * 1e9 / (double)best : 0;
}
