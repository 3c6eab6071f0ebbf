/* Small x86-64 CRC-32C helpers shared by the crc32q-based implementations;
 * static inline so each including translation unit compiles them with its
 * own target flags (at least -msse4.2 -mpclmul). */
#ifndef KB_CRC32C_X86_H
#define KB_CRC32C_X86_H

#include <stdint.h>
#include <string.h>
#include <nmmintrin.h>
#include <wmmintrin.h>

#include "crc32c_consts.h"

static inline uint64_t crc32c_load64(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}

/* One crc32q stream, then the last 0..7 bytes (shaped like crc32c_sse42.c,
 * so that short inputs cost the same in every variant). */
static inline uint32_t crc32c_x86_1way(uint32_t crc, const unsigned char *p, size_t len)
{
	uint64_t c = crc;

	for (; len >= 8; len -= 8, p += 8)
		c = _mm_crc32_u64(c, crc32c_load64(p));
	crc = (uint32_t)c;
	for (; len >= 4; len -= 4, p += 4) {
		uint32_t w;
		memcpy(&w, p, 4);
		crc = _mm_crc32_u32(crc, w);
	}
	while (len--)
		crc = _mm_crc32_u8(crc, *p++);
	return crc;
}

/* One crc32q stream unrolled by four: the same dependent chain, a quarter
 * of the loop's own instructions. Timed one call at a time the chain binds
 * and both loops take as long; calls back to back overlap further the
 * fewer instructions each leaves in the out-of-order window
 * (docs/hashes.md). */
static inline uint32_t crc32c_x86_1way_x4(uint32_t crc, const unsigned char *p, size_t len)
{
	uint64_t c = crc;

	for (; len >= 32; len -= 32, p += 32) {
		c = _mm_crc32_u64(c, crc32c_load64(p));
		c = _mm_crc32_u64(c, crc32c_load64(p + 8));
		c = _mm_crc32_u64(c, crc32c_load64(p + 16));
		c = _mm_crc32_u64(c, crc32c_load64(p + 24));
	}
	return crc32c_x86_1way((uint32_t)c, p, len);
}

/* A page, what KSM hashes: each fused entry has a function of its own for
 * this length, its chunk with the layout (steps, stream length, the end's
 * multipliers) folded to constants and a frame of its own. Worked out at
 * run time, the layout's arithmetic delayed the crc32q streams' start, and
 * they bind crc32c-fused6's loop; the long path's frame (six registers
 * saved, the stack aligned for the chunk loop's spills) cost 2-3% more
 * (docs/hashes.md). */
#define CRC32C_X86_PAGE_BYTES 4096

/* Whether an entry with these thresholds takes len by its page function. */
static inline int crc32c_x86_is_page(size_t len, size_t min_bytes, size_t chunk_bytes)
{
	return len == CRC32C_X86_PAGE_BYTES && min_bytes <= len && len <= chunk_bytes;
}

/* The fused entries' long path: the input in chunks of at most chunk_bytes,
 * each keeping its crc32q streams within the recombination table: an input
 * of one chunk (a page) whole; longer ones by whole chunks while what is
 * left after them could still be fused, then the rest in one chunk, or two
 * halves when it is longer than one; a rest under min_bytes by fold (the
 * entry's folding code). Inlined, chunk and fold constants, into each
 * entry's out-of-line long path, which is `flatten`: GCC inlines the chunk
 * at both calls, so a page runs the loop straight through, with no call
 * and nothing live around it (through a call into the chunk it took 163.8
 * against 158.6 TSC cycles on Zen 4, crc32c-fused-intel 179.4 against
 * 170.3, -avx2 244.4-265.2 against 237.9-253.5; with one call site shared
 * by the page and the longer inputs, 161.2). always_inline on the chunk
 * would do the same at -O2 but is an error at -O1, where the pointer is
 * not yet resolved when it must inline. The entry tests for short inputs
 * first, so that its short path saves no registers (with the two inlined
 * together it pushed six, and 64-byte calls ran at 0.84-0.90 of
 * crc32c-sse42's). */
static inline uint32_t crc32c_x86_fused(uint32_t crc, const unsigned char *p, size_t len, size_t chunk_bytes,
					size_t min_bytes, uint32_t (*chunk)(uint32_t, const unsigned char *, size_t),
					uint32_t (*fold)(uint32_t, const unsigned char *, size_t))
{
	/* A whole chunk is inlined with its length a constant, as the page
	 * path's is: its steps, stream lengths and end are then fixed at
	 * compile time, where a run-time length kept them in registers and
	 * spilled (docs/hashes.md, "Long inputs"). */
	if (len >= min_bytes && len <= chunk_bytes)
		return len == chunk_bytes ? chunk(crc, p, chunk_bytes) : chunk(crc, p, len);
	while (len >= min_bytes) {
		size_t piece = len <= chunk_bytes ? len : len >= chunk_bytes + min_bytes ? chunk_bytes : len / 2;
		crc = piece == chunk_bytes ? chunk(crc, p, chunk_bytes) : chunk(crc, p, piece);
		p += piece;
		len -= piece;
	}
	return len ? fold(crc, p, len) : crc;
}

/* a*ka + b*kb carry-less, in the low quadword: two CRCs (or 32-bit
 * values) and their multipliers, one pair to a register. */
static inline __m128i crc32c_x86_mul2(uint64_t a, uint64_t ka, uint64_t b, uint64_t kb)
{
	__m128i ab = _mm_set_epi64x((long long)b, (long long)a), kab = _mm_set_epi64x((long long)kb, (long long)ka);
	return _mm_xor_si128(_mm_clmulepi64_si128(ab, kab, 0x00), _mm_clmulepi64_si128(ab, kab, 0x11));
}

/* a*ka + b*kb + c*kc, reduced mod P by one crc32q (see crc32c_consts.c):
 * with each k = x^(8n-33) this moves a, b and c forward by their n bytes. */
static inline uint32_t crc32c_x86_recombine3(uint32_t a, uint32_t ka, uint32_t b, uint32_t kb, uint32_t c, uint32_t kc)
{
	__m128i m = crc32c_x86_mul2(a, ka, b, kb);
	m = _mm_xor_si128(m, _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)c), _mm_cvtsi32_si128((int)kc), 0x00));
	return (uint32_t)_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(m));
}

/* The end of a fused chunk: the vector part's CRC cv, then S streams (3 or
 * 6) of q quadwords each with CRCs c[0..S) (from zero), then tail_len bytes
 * at tail. cv moves over all S streams, stream i over the S-1-i after it:
 * three at a time, each triple reduced by one crc32q. */
static inline uint32_t crc32c_x86_streams_join(uint32_t cv, size_t q, unsigned S, const uint64_t *c,
					       const unsigned char *tail, size_t tail_len)
{
	const uint32_t *sh = crc32c_shift_n;
	uint32_t crc = crc32c_x86_recombine3(cv, sh[S * q], (uint32_t)c[0], sh[(S - 1) * q], (uint32_t)c[1],
					     sh[(S - 2) * q]);

	if (S == 6)
		crc ^= crc32c_x86_recombine3((uint32_t)c[2], sh[3 * q], (uint32_t)c[3], sh[2 * q], (uint32_t)c[4],
					     sh[q]);
	return crc32c_x86_1way(crc ^ (uint32_t)c[S - 1], tail, tail_len);
}

/* The end of a block whose last lane still has its last quadword `last` to
 * go: crc32q(c, last ^ m) = crc32q(c, last) ^ crc32q(0, m), so the products
 * a*ka + b*kb ride along in that one crc32q (the kernel's combining step). */
static inline uint32_t crc32c_x86_combine2(uint32_t a, uint32_t ka, uint32_t b, uint32_t kb, uint32_t c, uint64_t last)
{
	__m128i m = crc32c_x86_mul2(a, ka, b, kb);
	return (uint32_t)_mm_crc32_u64(c, (uint64_t)_mm_cvtsi128_si64(m) ^ last);
}

/* One quadword of each lane (c0, c1, c2 and p, b, c are the caller's),
 * written out so that the unrolled loop has no inner loop bookkeeping. */
#define CRC32C_LANES3_STEP(j)                                        \
	do {                                                         \
		c0 = _mm_crc32_u64(c0, crc32c_load64(p + 8 * (j))); \
		c1 = _mm_crc32_u64(c1, crc32c_load64(b + 8 * (j))); \
		c2 = _mm_crc32_u64(c2, crc32c_load64(c + 8 * (j))); \
	} while (0)

/* Three lanes of q, q and q + d quadwords (q + d <= the shift table's
 * CRC32C_SHIFT_MAX_QWORDS; d = 0 is the kernel's 3-way block): lane 0
 * carries the running CRC, lanes 1 and 2 start from zero, lane 2's last d
 * quadwords run alone, and its very last rides in the combining crc32q.
 * Returns the running CRC. Inlined, so that a constant d leaves no trace
 * of the others. */
static inline __attribute__((always_inline)) uint32_t crc32c_x86_3lanes(uint32_t crc, const unsigned char *p,
									 size_t q, size_t d)
{
	const unsigned char *b = p + 8 * q, *c = p + 16 * q;
	uint64_t c0 = crc, c1 = 0, c2 = 0;
	size_t i = 0, all = d ? q : q - 1; /* steps of all three lanes */

	/* Unrolled by four, as the kernel does, so that loop bookkeeping
	 * does not compete with crc32q for the ALUs. */
	for (; i + 4 <= all; i += 4) {
		CRC32C_LANES3_STEP(i);
		CRC32C_LANES3_STEP(i + 1);
		CRC32C_LANES3_STEP(i + 2);
		CRC32C_LANES3_STEP(i + 3);
	}
	for (; i < all; i++)
		CRC32C_LANES3_STEP(i);
	if (!d) {
		c0 = _mm_crc32_u64(c0, crc32c_load64(p + 8 * i));
		c1 = _mm_crc32_u64(c1, crc32c_load64(b + 8 * i));
	}
	for (; i < q + d - 1; i++)
		c2 = _mm_crc32_u64(c2, crc32c_load64(c + 8 * i));
	/* Lane 0 moves over lanes 1 and 2, lane 1 over lane 2. */
	return crc32c_x86_combine2((uint32_t)c0, crc32c_shift_n[2 * q + d], (uint32_t)c1, crc32c_shift_n[q + d],
				   (uint32_t)c2, crc32c_load64(c + 8 * i));
}

/* The CRC register contribution of a 128-bit folded block: its low lane
 * stands for the higher powers, so it goes into crc32q first. */
static inline uint32_t crc32c_x86_reduce128(__m128i v)
{
	uint64_t lo = (uint64_t)_mm_cvtsi128_si64(v), hi = (uint64_t)_mm_extract_epi64(v, 1);
	return (uint32_t)_mm_crc32_u64(_mm_crc32_u64(0, lo), hi);
}

/* The last 16-byte blocks folded into v with pclmulqdq, then v and the
 * last 0..15 bytes to a CRC: the end of every folding variant. */
static inline uint32_t crc32c_x86_fold16_finish(__m128i v, const unsigned char *p, size_t len)
{
	__m128i k128 = _mm_loadu_si128((const __m128i *)(const void *)&crc32c_fold.f128);

	for (; len >= 16; len -= 16, p += 16) {
		__m128i f = _mm_xor_si128(_mm_clmulepi64_si128(v, k128, 0x00), _mm_clmulepi64_si128(v, k128, 0x11));
		v = _mm_xor_si128(f, _mm_loadu_si128((const __m128i *)(const void *)p));
	}
	return crc32c_x86_1way(crc32c_x86_reduce128(v), p, len);
}

#endif
