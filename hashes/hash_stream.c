/* Streaming digests of registry hashes (see hash_stream.h). */
#include "hash_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <zlib.h>

#include "../common/grow.h"
#include "crc32c_consts.h"

/* XXH3 and XXH128 stream through libxxhash's own run-time dispatch where
 * the library has one (x86-64): its plain update is the SSE2 build, which
 * held sum -H xxh3 of a cached 2 GiB file to 0.37 s where xxhsum -H3, built
 * with the same dispatch, took 0.30 (Zen 3 VM, 2026-12-05). The digest is
 * the same either way. */
#if defined(__x86_64__)
#define XXH_DISPATCH_DISABLE_REPLACE
#include <xxh_x86dispatch.h>
#define STREAM_XXH3_UPDATE XXH3_64bits_update_dispatch
#define STREAM_XXH128_UPDATE XXH3_128bits_update_dispatch
#else
#define STREAM_XXH3_UPDATE XXH3_64bits_update
#define STREAM_XXH128_UPDATE XXH3_128bits_update
#endif

enum { HS_XXH32, HS_XXH64, HS_XXH3, HS_XXH128, HS_CRC32, HS_CRC32C, HS_BUFFERED };

/* The standard CRC of A followed by B: crc(A) shifted past B's bytes, plus
 * crc(B) (the two parts' inversions cancel). */
uint32_t hash_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b)
{
	return crc32c_mulmod(crc_a, crc32c_xpow_mod(8 * len_b)) ^ crc_b; /* 64-bit lengths on i386 too */
}

static int kind_of(const struct hash_impl *impl)
{
	static const struct {
		const char *family;
		int kind;
	} kinds[] = { { "xxh32", HS_XXH32 }, { "xxh64", HS_XXH64 }, { "xxh3", HS_XXH3 },
		      { "xxh128", HS_XXH128 }, { "crc32", HS_CRC32 }, { "crc32c", HS_CRC32C } };

	for (size_t i = 0; impl->family && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(impl->family, kinds[i].family) == 0)
			return kinds[i].kind;
	return HS_BUFFERED;
}

int hash_stream_init(struct hash_stream *s, const struct hash_impl *h, struct kb_err *err)
{
	memset(s, 0, sizeof(*s));
	s->h = h;
	s->impl = hash_resolve(h);
	s->kind = kind_of(s->impl);
	int ok = 1;
	switch (s->kind) {
	case HS_XXH32:
		ok = (s->state = XXH32_createState()) && XXH32_reset(s->state, 0) == XXH_OK;
		break;
	case HS_XXH64:
		ok = (s->state = XXH64_createState()) && XXH64_reset(s->state, 0) == XXH_OK;
		break;
	case HS_XXH3:
		ok = (s->state = XXH3_createState()) && XXH3_64bits_reset(s->state) == XXH_OK;
		break;
	case HS_XXH128:
		ok = (s->state = XXH3_createState()) && XXH3_128bits_reset(s->state) == XXH_OK;
		break;
	default:
		break;
	}
	if (!ok) {
		hash_stream_free(s);
		return kb_fail(err, "out of memory for the %s state", h->name);
	}
	return 0;
}

static int buffer_more(struct hash_stream *s, const void *data, size_t len, struct kb_err *err)
{
	if (len > HASH_STREAM_BUFFER_MAX - s->buf_len)
		return kb_fail(err, "%s has no streaming form and is computed in memory, on at most %u MiB: "
				    "this input is longer (use --per-page, or another hash)", s->h->name,
			       HASH_STREAM_BUFFER_MAX >> 20);
	unsigned char *buf = kb_grow(s->buf, &s->buf_cap, s->buf_len + len, 1, 1u << 16);
	if (!buf)
		return kb_fail(err, "out of memory for %zu bytes of input", s->buf_len + len);
	s->buf = buf;
	memcpy(s->buf + s->buf_len, data, len);
	s->buf_len += len;
	return 0;
}

/* Pieces of one size (sum reads whole chunks) reuse their shift. */
static void crc32c_update(struct hash_stream *s, const void *data, size_t len)
{
	uint32_t piece = (uint32_t)s->impl->fn(data, len);
	uint64_t n = len;

	if (n != s->shift_len) {
		s->shift = crc32c_xpow_mod(8 * n);
		s->shift_len = n;
	}
	s->crc = crc32c_mulmod(s->crc, s->shift) ^ piece;
}

int hash_stream_update(struct hash_stream *s, const void *data, size_t len, struct kb_err *err)
{
	if (len == 0)
		return 0;
	s->len += len;
	switch (s->kind) {
	case HS_XXH32: XXH32_update(s->state, data, len); break;
	case HS_XXH64: XXH64_update(s->state, data, len); break;
	case HS_XXH3: STREAM_XXH3_UPDATE(s->state, data, len); break;
	case HS_XXH128: STREAM_XXH128_UPDATE(s->state, data, len); break;
	case HS_CRC32:
		for (size_t done = 0; done < len; ) {
			uInt n = len - done > (1u << 30) ? 1u << 30 : (uInt)(len - done);
			s->crc = (uint32_t)crc32(s->crc, (const Bytef *)data + done, n);
			done += n;
		}
		break;
	case HS_CRC32C: crc32c_update(s, data, len); break;
	default: return buffer_more(s, data, len, err);
	}
	return 0;
}

int hash_stream_final(struct hash_stream *s, char hex[HASH_HEX_MAX], struct kb_err *err)
{
	int rc = 0;

	switch (s->kind) {
	case HS_XXH32: hash_hex_of(XXH32_digest(s->state), 32, hex); break;
	case HS_XXH64: hash_hex_of(XXH64_digest(s->state), 64, hex); break;
	case HS_XXH3: hash_hex_of(XXH3_64bits_digest(s->state), 64, hex); break;
	case HS_XXH128: {
		XXH128_canonical_t c;
		XXH128_canonicalFromHash(&c, XXH3_128bits_digest(s->state));
		hash_hex_of_bytes(c.digest, 16, hex);
		break;
	}
	case HS_CRC32:
	case HS_CRC32C: hash_hex_of(s->crc, 32, hex); break;
	default:
		if ((rc = hash_check_len(s->h, s->buf_len, err)) == 0)
			hash_hex(s->h, s->buf ? s->buf : (const unsigned char *)"", s->buf_len, hex);
		break;
	}
	hash_stream_free(s);
	return rc;
}

void hash_stream_free(struct hash_stream *s)
{
	switch (s->kind) {
	case HS_XXH32: XXH32_freeState(s->state); break;
	case HS_XXH64: XXH64_freeState(s->state); break;
	case HS_XXH3:
	case HS_XXH128: XXH3_freeState(s->state); break;
	default: break;
	}
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->kind = HS_BUFFERED;
}
