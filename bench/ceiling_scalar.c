/* The portable micro-loops of bench/ceiling.c: a dependent add chain (the
 * core clock: one add retires per cycle on every CPU this targets) and a
 * streamed 64-bit read (one page, and memory bandwidth over several streams),
 * plus the L1 buffer the vector probes share. */
#include "ceiling_probes.h"

#include <string.h>

unsigned char ceiling_l1_buf[CEILING_L1_BYTES + 256] __attribute__((aligned(64)));

void ceiling_add_chain(uint64_t iters, uint64_t *sink)
{
	uint64_t x = *sink, step = 1;

	/* The addend is a register the compiler cannot see into: Intel cores
	 * since Golden Cove (Sapphire and Emerald Rapids among them) resolve a
	 * chain of adds of an immediate in the renamer, about four a cycle
	 * (an Emerald Rapids VM read 11.6 GHz by it), but not adds of a
	 * register. The empty asm after each add keeps the compiler from
	 * folding them: eight real adds, each waiting for the last. */
	__asm__ volatile("" : "+r"(step));
	for (uint64_t i = 0; i < iters; i++) {
#define CEIL_ADD1 x += step; __asm__ volatile("" : "+r"(x))
		CEIL_ADD1; CEIL_ADD1; CEIL_ADD1; CEIL_ADD1;
		CEIL_ADD1; CEIL_ADD1; CEIL_ADD1; CEIL_ADD1;
#undef CEIL_ADD1
	}
	*sink = x;
}

uint64_t ceiling_read_u64(const unsigned char *buf, size_t bytes)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;

	for (size_t off = 0; off + 32 <= bytes; off += 32) {
		uint64_t w[4];
		memcpy(w, buf + off, sizeof(w));
		a0 ^= w[0];
		a1 ^= w[1];
		a2 ^= w[2];
		a3 ^= w[3];
	}
	return a0 ^ a1 ^ a2 ^ a3;
}

uint64_t ceiling_read_streams(const unsigned char *buf, size_t bytes)
{
	size_t part = bytes / CEILING_STREAMS & ~(size_t)63;
	uint64_t acc[CEILING_STREAMS] = { 0 };

	/* One load a line: the line is what memory delivers, and eight loads a
	 * line made the loop, not memory, the limit (37 against 45 GB/s on the
	 * Zen 5 VM of docs/ceilings.md). */
	for (size_t off = 0; off < part; off += 64)
		for (unsigned s = 0; s < CEILING_STREAMS; s++) {
			uint64_t w;
			memcpy(&w, buf + s * part + off, sizeof(w));
			acc[s] ^= w;
		}
	uint64_t x = 0;
	for (unsigned s = 0; s < CEILING_STREAMS; s++)
		x ^= acc[s];
	return x;
}
