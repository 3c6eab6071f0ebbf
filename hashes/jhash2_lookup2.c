/* The jhash2 of Linux 2.6.32-2.6.37, KSM's checksum in its first releases,
 * called as KSM called it: jhash2(page, PAGE_SIZE / 4, 17). Until 2.6.38
 * include/linux/jhash.h was Bob Jenkins' lookup2 (hash2 over 32-bit words);
 * 2.6.38 replaced it with lookup3 (jhash2.c), a different function under
 * the same name, so the checksums of those releases differ from later ones
 * (on every one of 4,105 pages checked, docs/hashes.md). */
#include <string.h>

#include "hash.h"
#include "impls.h"

#define LOOKUP2_GOLDEN_RATIO 0x9e3779b9u
#define KSM_JHASH_SEED 17u

/* lookup2's mix: nine rounds of subtract, subtract, shift-xor. */
#define LOOKUP2_MIX(a, b, c)                                 \
	do {                                                 \
		a -= b; a -= c; a ^= c >> 13;                \
		b -= c; b -= a; b ^= a << 8;                 \
		c -= a; c -= b; c ^= b >> 13;                \
		a -= b; a -= c; a ^= c >> 12;                \
		b -= c; b -= a; b ^= a << 16;                \
		c -= a; c -= b; c ^= b >> 5;                 \
		a -= b; a -= c; a ^= c >> 3;                 \
		b -= c; b -= a; b ^= a << 10;                \
		c -= a; c -= b; c ^= b >> 15;                \
	} while (0)

/* Native 32-bit words, as the kernel read the page; memcpy keeps unaligned
 * input legal. */
static inline uint32_t load_word(const unsigned char *p)
{
	uint32_t w;
	memcpy(&w, p, sizeof(w));
	return w;
}

static uint32_t lookup2_words(const unsigned char *k, size_t words, uint32_t initval)
{
	/* The kernel takes the length as u32 words: truncate the same way. */
	uint32_t n = (uint32_t)words, left = n;
	uint32_t a = LOOKUP2_GOLDEN_RATIO, b = LOOKUP2_GOLDEN_RATIO, c = initval;

	for (; left >= 3; left -= 3, k += 12) {
		a += load_word(k);
		b += load_word(k + 4);
		c += load_word(k + 8);
		LOOKUP2_MIX(a, b, c);
	}
	/* Unlike lookup3, the length enters at the end and a last mix always
	 * runs, even with no word left. */
	c += n << 2;
	if (left == 2)
		b += load_word(k + 4);
	if (left >= 1)
		a += load_word(k);
	LOOKUP2_MIX(a, b, c);
	return c;
}

/* Callers check len % 4 == 0 first (hash_check_len); a stray tail is ignored. */
static uint64_t ksm_jhash2_lookup2(const void *buf, size_t len)
{
	return lookup2_words(buf, len / 4, KSM_JHASH_SEED);
}

const struct hash_impl hash_jhash2_lookup2 = {
	.name = "jhash2-lookup2",
	.description = "kernel jhash2(page, len/4, 17) as in Linux 2.6.32-2.6.37 (lookup2): KSM's first checksum",
	.family = "jhash2-lookup2",
	.bits = 32,
	.provenance = "ksmbench",
	.kernel = { "jhash2()", "2.6.32", "2.6.37",
		    "KSM's page checksum in its first releases: jhash.h was Bob Jenkins' lookup2 until 2.6.38 "
		    "replaced it with lookup3 (the jhash2 entry)" },
	.len_multiple = 4,
	.fn = ksm_jhash2_lookup2,
};
