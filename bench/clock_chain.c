/* The dependent-addition chain and the independent-addition block (see
 * clock_chain.h) timed around every round. */
#include "clock_chain.h"

#include "ceiling_probes.h"
#include "clock.h"
#include "../hashes/cpu_features.h"

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

#if defined(__x86_64__)
/* Twelve chains of 4-lane SSE2 adds and ten of scalar adds (of a register:
 * Golden Cove and later resolve adds of an immediate in the renamer), 58
 * additions a step: 24 instructions, which the vector ALUs (four on Zen 5)
 * and the dispatch width (6-8 a cycle) take about three cycles to pass, so
 * the block binds on the width a sibling thread shares. A block of vector
 * adds alone is not enough: eight chains ran at 59 or at 33-37 additions
 * per ns on a free Zen 5 core (how the adds were bound to the ALUs, a block
 * at a time, about 30% of blocks; hashes timed between them never moved),
 * and twelve, steady on a free core, dropped by 4-21% while the host's
 * sibling took 25-40% from xxh3 and crc32c (docs/measurement.md).
 *
 * Bound by the width, the loop is as fast as the front end delivers it,
 * and that depends on where it lies: on the Zen 5 VM this 96-byte loop ran
 * at 65.5 additions per ns when it began 16-36 or 56-63 bytes into a
 * 64-byte line, and at 50 from 0-12 or 40-52. Compiled from C, its place
 * moved with any change to the code before it, and builds read as cores
 * shared for a whole run (docs/measurement.md, "The probe's own code").
 * So it is written out here, registers and encodings fixed, and begins 24
 * bytes into a line in every build (the middle of the fast range there;
 * another CPU may favour another place, but no build moves it). */
#define THROUGHPUT_STEP 58
static uint64_t throughput_block(uint64_t adds)
{
	uint64_t steps = adds / THROUGHPUT_STEP;

	if (steps == 0)
		return 0;
	/* The accumulators start from whatever the registers hold: only the
	 * additions' count matters, and integer adds cost the same on any
	 * value. The padding before the loop is jumped over. */
	__asm__ volatile(
		"mov %[steps], %%r12\n\t"
		"mov $1, %%r13d\n\t"
		"pcmpeqd %%xmm12, %%xmm12\n\t"
		"jmp 1f\n\t"
		".p2align 6\n\t"
		".skip 24, 0x90\n"
		"1:\n\t"
		"paddd %%xmm12, %%xmm0\n\t"
		"paddd %%xmm12, %%xmm1\n\t"
		"add %%r13, %%rax\n\t"
		"add %%r13, %%rcx\n\t"
		"paddd %%xmm12, %%xmm2\n\t"
		"paddd %%xmm12, %%xmm3\n\t"
		"add %%r13, %%rdx\n\t"
		"add %%r13, %%rsi\n\t"
		"paddd %%xmm12, %%xmm4\n\t"
		"paddd %%xmm12, %%xmm5\n\t"
		"add %%r13, %%rdi\n\t"
		"add %%r13, %%r8\n\t"
		"paddd %%xmm12, %%xmm6\n\t"
		"paddd %%xmm12, %%xmm7\n\t"
		"add %%r13, %%r9\n\t"
		"add %%r13, %%r10\n\t"
		"paddd %%xmm12, %%xmm8\n\t"
		"paddd %%xmm12, %%xmm9\n\t"
		"add %%r13, %%r11\n\t"
		"add %%r13, %%rbx\n\t"
		"paddd %%xmm12, %%xmm10\n\t"
		"paddd %%xmm12, %%xmm11\n\t"
		"sub $1, %%r12\n\t"
		"jne 1b\n\t"
		:
		: [steps] "r"(steps)
		: "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "xmm0", "xmm1",
		  "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "cc");
	return steps;
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
