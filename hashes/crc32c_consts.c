/* Computes the CRC-32C folding and recombination multipliers (see
 * crc32c_consts.h) from their definition, x^n mod P.
 *
 * Reflected representation: a 32-bit value r stands for the polynomial
 * sum of x^(31-i) over its set bits i; a 64-bit lane stands for
 * sum x^(63-i). pclmulqdq of two 64-bit lanes a and b yields a 128-bit value
 * standing for x*a*b (bit i+j stands for x^(127-i-j), the product term is
 * x^(126-i-j)). A 32-bit residue placed in the low half of a lane stands for
 * r * x^32. crc32q(c, d) computes c*x^64 + d*x^32 mod P.
 *
 * Shift of a CRC value c by n bytes: clmul(c, r) has its result in the low
 * lane, standing for x * c*x^32 * r*x^32 / x^64 = c*r*x as a 64-bit lane,
 * and crc32q(0, that) = c*r*x^33; so r = x^(8n-33).
 *
 * Fold of a 128-bit block B = L*x^64 + H (L its low lane, H its high lane)
 * forward by F bits, B*x^F: clmul(L, r) stands for L*r*x^33 as a 128-bit
 * value, so r = x^(F+31) gives L*x^(F+64); likewise r = x^(F-33) for H. */
#include "crc32c_consts.h"

#define CRC32C_POLY_REFLECTED 0x82f63b78u

uint32_t crc32c_shift_qwords[CRC32C_SHIFT_MAX_QWORDS + 1][3];
uint32_t crc32c_shift_n[CRC32C_SHIFT_N_MAX + 1];
struct crc32c_fold_consts crc32c_fold;

/* r * x mod P in the reflected order: x^31 (bit 0) overflows into P. */
static uint32_t mulx(uint32_t r)
{
	return (r >> 1) ^ (CRC32C_POLY_REFLECTED & (0u - (r & 1)));
}

uint32_t crc32c_mulmod(uint32_t a, uint32_t b)
{
	uint32_t acc = 0;

	/* Horner over b's coefficients from x^31 (bit 0) down to x^0 (bit 31). */
	for (int i = 0; i < 32; i++) {
		acc = mulx(acc);
		if (b & (1u << i))
			acc ^= a;
	}
	return acc;
}

uint32_t crc32c_xpow_mod(uint64_t n)
{
	uint32_t result = 0x80000000u; /* x^0 */
	uint32_t sq = 0x40000000u;     /* x^1, then x^2, x^4, ... */

	for (; n; n >>= 1) {
		if (n & 1)
			result = crc32c_mulmod(result, sq);
		sq = crc32c_mulmod(sq, sq);
	}
	return result;
}

uint32_t crc32c_shift_bytes(uint32_t crc, size_t len)
{
	return crc32c_mulmod(crc, crc32c_xpow_mod(8 * (uint64_t)len));
}

static struct crc32c_fold_pair fold_pair(unsigned bits)
{
	struct crc32c_fold_pair p = { crc32c_xpow_mod(bits + 31), crc32c_xpow_mod(bits - 33) };
	return p;
}

__attribute__((constructor)) static void crc32c_consts_init(void)
{
	for (unsigned k = 1; k <= 3; k++) {
		/* Successive q differ by the factor x^(64k): multiply along. */
		uint32_t step = crc32c_xpow_mod(64 * k);
		uint32_t r = crc32c_xpow_mod(64 * k - 33);
		crc32c_shift_qwords[0][k - 1] = 0; /* unused: no stream is empty */
		for (unsigned q = 1; q <= CRC32C_SHIFT_MAX_QWORDS; q++) {
			crc32c_shift_qwords[q][k - 1] = r;
			r = crc32c_mulmod(r, step);
		}
	}
	uint32_t step = crc32c_xpow_mod(64), r = crc32c_xpow_mod(64 - 33);
	for (unsigned n = 1; n <= CRC32C_SHIFT_N_MAX; n++, r = crc32c_mulmod(r, step))
		crc32c_shift_n[n] = r;
	crc32c_fold.f2048 = fold_pair(2048);
	crc32c_fold.f1024 = fold_pair(1024);
	crc32c_fold.f512 = fold_pair(512);
	crc32c_fold.f256 = fold_pair(256);
	for (unsigned i = 0; i < 3; i++)
		crc32c_fold.lanes[i] = fold_pair((3 - i) * 128);
	crc32c_fold.lanes[3].lo = crc32c_fold.lanes[3].hi = 0;
	crc32c_fold.f128 = fold_pair(128);
}
