/* Multipliers for CRC-32C folding and stream recombination, all of the form
 * x^n mod P for the Castagnoli polynomial in the reflected bit order the
 * crc32 and (v)pclmulqdq instructions use. Computed once at start-up by
 * crc32c_consts.c from their definitions; nothing here is a magic literal.
 *
 * Conventions (derived in crc32c_consts.c):
 * - shifting a 32-bit CRC value c forward by n bytes is
 *   crc32q(0, clmul(c, x^(8n-33) mod P)), because a reflected carry-less
 *   product carries one extra factor x and crc32q(0, v) multiplies by x^32;
 * - folding a 128-bit block forward by F bits multiplies its low quadword by
 *   x^(F+31) mod P and its high quadword by x^(F-33) mod P. */
#ifndef KB_CRC32C_CONSTS_H
#define KB_CRC32C_CONSTS_H

#include <stddef.h>
#include <stdint.h>

/* Streams of at most this many quadwords are recombined by table lookup. */
#define CRC32C_SHIFT_MAX_QWORDS 176

/* crc32c_shift_qwords[q][k-1] = x^(64*q*k - 33) mod P for k = 1, 2, 3:
 * the multiplier that moves a CRC forward over k streams of q quadwords. */
extern uint32_t crc32c_shift_qwords[CRC32C_SHIFT_MAX_QWORDS + 1][3];

/* crc32c_shift_n[n] = x^(64*n - 33) mod P, n = 1 .. CRC32C_SHIFT_N_MAX:
 * the multiplier that moves a CRC forward over n quadwords, for lanes of
 * unequal length (crc32c_3way_fit.c: up to 3 * CRC32C_SHIFT_MAX_QWORDS)
 * and the end of crc32c-fused6's chunks (up to half a 32 KiB chunk and a
 * lane fold's 7 more, crc32c_avx512.h). */
#define CRC32C_SHIFT_N_MAX 2080
extern uint32_t crc32c_shift_n[CRC32C_SHIFT_N_MAX + 1];

/* Folding pairs {x^(F+31), x^(F-33)} mod P as 64-bit lanes, for F bits. */
struct crc32c_fold_pair {
	uint64_t lo, hi;
};

struct crc32c_fold_consts {
	struct crc32c_fold_pair f2048; /* 4 x 512-bit accumulators, one step */
	struct crc32c_fold_pair f1024; /* 2 accumulators apart */
	struct crc32c_fold_pair f512;  /* one 512-bit register forward */
	struct crc32c_fold_pair f256;  /* one 256-bit register forward */
	/* 128-bit lanes 0..3 of a 512-bit register folded onto lane 3:
	 * lane i moves forward by (3 - i) * 128 bits; lane 3 by nothing (zero). */
	struct crc32c_fold_pair lanes[4];
	struct crc32c_fold_pair f128;  /* one 128-bit block forward */
};

extern struct crc32c_fold_consts crc32c_fold;

/* x^n mod P, reflected (bit 31 is x^0), by plain shift-and-reduce. */
uint32_t crc32c_xpow_mod(uint64_t n);

/* The product a*b mod P of two reflected 32-bit residues, bit by bit. */
uint32_t crc32c_mulmod(uint32_t a, uint32_t b);

/* Moves a CRC register value forward over len zero bytes (portable). */
uint32_t crc32c_shift_bytes(uint32_t crc, size_t len);

#endif
