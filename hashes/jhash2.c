/* jhash2 exactly as the kernel's include/linux/jhash.h computes it since
 * 2.6.38 (Bob Jenkins' lookup3 hashword), called as KSM called it until
 * 5.0: jhash2(page, PAGE_SIZE / 4, 17). Before 2.6.38 jhash2 was lookup2
 * (jhash2_lookup2.c). */
#include <string.h>

#include "hash.h"
#include "impls.h"

#define JHASH_INITVAL 0xdeadbeefu
#define KSM_JHASH_SEED 17u

static inline uint32_t rol32(uint32_t w, unsigned s)
{
	return (w << s) | (w >> (32 - s));
}

/* The kernel reads native 32-bit words; memcpy keeps unaligned pages legal. */
static inline uint32_t load_word(const unsigned char *p)
{
	uint32_t w;
	memcpy(&w, p, sizeof(w));
	return w;
}

static uint32_t jhash2_words(const unsigned char *k, size_t words, uint32_t initval)
{
	/* The kernel takes the length as u32 words: truncate the same way. */
	uint32_t a, b, c;
	a = b = c = JHASH_INITVAL + ((uint32_t)words << 2) + initval;

	while (words > 3) {
		a += load_word(k);
		b += load_word(k + 4);
		c += load_word(k + 8);
		a -= c; a ^= rol32(c, 4);  c += b;
		b -= a; b ^= rol32(a, 6);  a += c;
		c -= b; c ^= rol32(b, 8);  b += a;
		a -= c; a ^= rol32(c, 16); c += b;
		b -= a; b ^= rol32(a, 19); a += c;
		c -= b; c ^= rol32(b, 4);  b += a;
		words -= 3;
		k += 12;
	}
	if (words == 0)
		return c;
	if (words == 3)
		c += load_word(k + 8);
	if (words >= 2)
		b += load_word(k + 4);
	a += load_word(k);
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

uint32_t jhash2_kernel(const void *buf, size_t words, uint32_t initval)
{
	return jhash2_words(buf, words, initval);
}

/* Callers check len % 4 == 0 first (hash_check_len); a stray tail is ignored. */
static uint64_t ksm_jhash2(const void *buf, size_t len)
{
	return jhash2_words(buf, len / 4, KSM_JHASH_SEED);
}

const struct hash_impl hash_jhash2 = {
	.name = "jhash2",
	.description = "kernel jhash2(page, len/4, 17): KSM's checksum until Linux 4.20",
	.family = "jhash2",
	.bits = 32,
	.provenance = "ksmbench",
	/* jhash.h keeps jhash2() after KSM left it: the kernel still has it. */
	.kernel = { "jhash2()", "2.6.38", NULL,
		    "KSM's page checksum, jhash2(page, PAGE_SIZE / 4, 17), from 2.6.38 (jhash.h became lookup3; "
		    "jhash2-lookup2 before) until commit 59e1a2f4bf83 moved it to xxhash() in 5.0 (4.20 the last); "
		    "jhash2() itself stays in include/linux/jhash.h" },
	.len_multiple = 4,
	.fn = ksm_jhash2,
};
