/* A registry hash over a stream of any length, fed piece by piece (sum of
 * a large file or a pipe): the digest equals the hash of the whole input
 * in one buffer. xxHash streams through libxxhash's state; CRCs hash each
 * piece with the named implementation and join the pieces' CRCs (CRC-32C)
 * or carry zlib's running CRC (CRC-32). A hash without a streaming form
 * (jhash2: its length enters its first step) is given the whole input in
 * memory, at most HASH_STREAM_BUFFER_MAX bytes. */
#ifndef KB_HASH_STREAM_H
#define KB_HASH_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"

#define HASH_STREAM_BUFFER_MAX (64u << 20)

struct hash_stream {
	const struct hash_impl *h;    /* as named */
	const struct hash_impl *impl; /* what it resolves to */
	int kind;
	void *state;                  /* libxxhash's */
	uint32_t crc;
	uint64_t len;
	uint64_t shift_len;           /* x^(8*shift_len) mod P is in shift (0: none yet) */
	uint32_t shift;
	unsigned char *buf;           /* a hash without a streaming form */
	size_t buf_len, buf_cap;
};

int hash_stream_init(struct hash_stream *s, const struct hash_impl *h, struct kb_err *err);

/* Fails only for a hash without a streaming form past HASH_STREAM_BUFFER_MAX. */
int hash_stream_update(struct hash_stream *s, const void *data, size_t len, struct kb_err *err);

/* The digest as hash_hex() prints it; fails when the length does not suit
 * the hash (jhash2 takes whole words). s is released either way. */
int hash_stream_final(struct hash_stream *s, char hex[HASH_HEX_MAX], struct kb_err *err);

void hash_stream_free(struct hash_stream *s);

/* CRC-32C (standard) of A followed by B, from crc(A), crc(B) and B's length. */
uint32_t hash_crc32c_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

#endif
