/* Reference implementations for the self-test's cross-checks (see reference.h). */
#include "reference.h"

#include <stdio.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY /* state types on the stack */
#include <xxhash.h>

static uint32_t crc_byte(uint32_t crc, unsigned char byte, uint32_t poly)
{
	crc ^= byte;
	for (int k = 0; k < 8; k++)
		crc = (crc >> 1) ^ (poly & (0u - (crc & 1)));
	return crc;
}

static uint32_t crc_reflected(const void *buf, size_t len, const uint32_t *table)
{
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffffu;

	while (len--)
		crc = (crc >> 8) ^ table[(crc ^ *p++) & 0xff];
	return crc ^ 0xffffffffu;
}

static void make_table(uint32_t *table, uint32_t poly)
{
	for (unsigned i = 0; i < 256; i++)
		table[i] = crc_byte(0, (unsigned char)i, poly);
}

static void crc_prefixes(const void *buf, size_t len, const uint32_t *table, uint32_t *out)
{
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffffu;

	out[0] = 0;
	for (size_t n = 1; n <= len; n++) {
		crc = (crc >> 8) ^ table[(crc ^ *p++) & 0xff];
		out[n] = crc ^ 0xffffffffu;
	}
}

/* Each polynomial's table, built on first use and shared by the one-length
 * and every-prefix references. */
static const uint32_t *crc32c_table(void)
{
	static uint32_t table[256];
	if (!table[1])
		make_table(table, 0x82f63b78u);
	return table;
}

static const uint32_t *crc32_table(void)
{
	static uint32_t table[256];
	if (!table[1])
		make_table(table, 0xedb88320u);
	return table;
}

uint32_t ref_crc32c(const void *buf, size_t len) { return crc_reflected(buf, len, crc32c_table()); }
uint32_t ref_crc32(const void *buf, size_t len) { return crc_reflected(buf, len, crc32_table()); }
void ref_crc32c_prefixes(const void *buf, size_t len, uint32_t *out) { crc_prefixes(buf, len, crc32c_table(), out); }
void ref_crc32_prefixes(const void *buf, size_t len, uint32_t *out) { crc_prefixes(buf, len, crc32_table(), out); }

#define ROT(x, k) (((x) << (k)) | ((x) >> (32 - (k))))

uint32_t ref_hashlittle(const void *buf, size_t len, uint32_t initval)
{
	const unsigned char *k = buf;
	uint32_t a, b, c;

	a = b = c = 0xdeadbeefu + (uint32_t)len + initval;
	while (len > 12) {
		a += k[0] + ((uint32_t)k[1] << 8) + ((uint32_t)k[2] << 16) + ((uint32_t)k[3] << 24);
		b += k[4] + ((uint32_t)k[5] << 8) + ((uint32_t)k[6] << 16) + ((uint32_t)k[7] << 24);
		c += k[8] + ((uint32_t)k[9] << 8) + ((uint32_t)k[10] << 16) + ((uint32_t)k[11] << 24);
		a -= c; a ^= ROT(c, 4);  c += b;
		b -= a; b ^= ROT(a, 6);  a += c;
		c -= b; c ^= ROT(b, 8);  b += a;
		a -= c; a ^= ROT(c, 16); c += b;
		b -= a; b ^= ROT(a, 19); a += c;
		c -= b; c ^= ROT(b, 4);  b += a;
		len -= 12;
		k += 12;
	}
	if (len == 0)
		return c;
	/* Tail: byte i of the last 12 goes to word i/4 at shift 8*(i%4). */
	uint32_t w[3] = { 0, 0, 0 };
	for (size_t i = 0; i < len; i++)
		w[i / 4] += (uint32_t)k[i] << (8 * (i % 4));
	a += w[0];
	b += w[1];
	c += w[2];
	c ^= b; c -= ROT(b, 14);
	a ^= c; a -= ROT(c, 11);
	b ^= a; b -= ROT(a, 25);
	c ^= b; c -= ROT(b, 16);
	a ^= c; a -= ROT(c, 4);
	b ^= a; b -= ROT(a, 14);
	c ^= b; c -= ROT(b, 24);
	return c;
}

/* lookup2's mix, written out as its nine steps. */
static void lookup2_mix(uint32_t *a, uint32_t *b, uint32_t *c)
{
	static const int shift[9] = { -13, 8, -13, -12, 16, -5, -3, 10, -15 }; /* < 0: right */
	uint32_t *v[3] = { a, b, c };

	for (int i = 0; i < 9; i++) {
		uint32_t *x = v[i % 3], *y = v[(i + 1) % 3], *z = v[(i + 2) % 3];
		*x -= *y;
		*x -= *z;
		*x ^= shift[i] < 0 ? *z >> -shift[i] : *z << shift[i];
	}
}

uint32_t ref_lookup2(const void *buf, size_t len, uint32_t initval)
{
	const unsigned char *k = buf;
	uint32_t w[3] = { 0x9e3779b9u, 0x9e3779b9u, initval };
	size_t left = len;

	/* Every byte of a block adds to word i/4 at shift 8*(i%4); in the last,
	 * partial one the low byte of c is left for the length. */
	for (; left >= 12; left -= 12, k += 12) {
		for (size_t i = 0; i < 12; i++)
			w[i / 4] += (uint32_t)k[i] << (8 * (i % 4));
		lookup2_mix(&w[0], &w[1], &w[2]);
	}
	w[2] += (uint32_t)len;
	for (size_t i = 0; i < left; i++)
		w[i / 4] += (uint32_t)k[i] << (8 * (i % 4) + (i >= 8 ? 8 : 0));
	lookup2_mix(&w[0], &w[1], &w[2]);
	return w[2];
}

/* Uneven piece sizes exercise the streaming buffers' boundaries. */
static const size_t pieces[] = { 1, 7, 31, 64, 3, 255, 1024 };
#define NPIECES (sizeof(pieces) / sizeof(pieces[0]))

#define FEED(update, state)                                                        \
	do {                                                                       \
		const unsigned char *p_ = buf;                                     \
		for (size_t i_ = 0, left_ = len; left_;) {                         \
			size_t n_ = pieces[i_++ % NPIECES];                        \
			if (n_ > left_)                                            \
				n_ = left_;                                        \
			update(state, p_, n_);                                     \
			p_ += n_;                                                  \
			left_ -= n_;                                               \
		}                                                                  \
	} while (0)

uint32_t ref_xxh32(const void *buf, size_t len)
{
	XXH32_state_t s;
	XXH32_reset(&s, 0);
	FEED(XXH32_update, &s);
	return XXH32_digest(&s);
}

uint64_t ref_xxh64(const void *buf, size_t len)
{
	XXH64_state_t s;
	XXH64_reset(&s, 0);
	FEED(XXH64_update, &s);
	return XXH64_digest(&s);
}

uint64_t ref_xxh3(const void *buf, size_t len)
{
	XXH3_state_t s;
	XXH3_64bits_reset(&s);
	FEED(XXH3_64bits_update, &s);
	return XXH3_64bits_digest(&s);
}

void ref_xxh128(const void *buf, size_t len, uint8_t out[16])
{
	XXH3_state_t s;
	XXH128_canonical_t c;

	XXH3_128bits_reset(&s);
	FEED(XXH3_128bits_update, &s);
	XXH128_canonicalFromHash(&c, XXH3_128bits_digest(&s));
	for (int i = 0; i < 16; i++)
		out[i] = c.digest[i];
}

int ref_hex(const char *family, const void *buf, size_t len, char hex[HASH_HEX_MAX])
{
	if (strcmp(family, "crc32c") == 0)
		hash_hex_of(ref_crc32c(buf, len), 32, hex);
	else if (strcmp(family, "crc32") == 0)
		hash_hex_of(ref_crc32(buf, len), 32, hex);
	else if (strcmp(family, "jhash2") == 0)
		hash_hex_of(ref_hashlittle(buf, len, 17), 32, hex);
	else if (strcmp(family, "jhash2-lookup2") == 0)
		hash_hex_of(ref_lookup2(buf, len, 17), 32, hex);
	else if (strcmp(family, "xxh32") == 0)
		hash_hex_of(ref_xxh32(buf, len), 32, hex);
	else if (strcmp(family, "xxh64") == 0)
		hash_hex_of(ref_xxh64(buf, len), 64, hex);
	else if (strcmp(family, "xxh3") == 0)
		hash_hex_of(ref_xxh3(buf, len), 64, hex);
	else if (strcmp(family, "xxh128") == 0) {
		uint8_t d[16];
		ref_xxh128(buf, len, d);
		hash_hex_of_bytes(d, 16, hex);
	} else
		return -1;
	return 0;
}
