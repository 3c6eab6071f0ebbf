/* The digests `ksmbench sum` prints and --check verifies (see sum.h): a
 * whole file's, read in pieces; a page's, or the 32 bits KSM keeps of it;
 * and the names of --tag lines. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../datasets/file_input.h"
#include "../hashes/hash_stream.h"
#include "sum.h"

#define SUM_CHUNK_BYTES (1u << 20)

static const struct {
	const char *family, *tag, *hash;
} sum_tags[] = {
	{ "xxh32", "XXH32", "xxh32" },     { "xxh64", "XXH64", "xxh64" },    { "xxh3", "XXH3", "xxh3" },
	{ "xxh128", "XXH128", "xxh128" },  { "crc32c", "CRC32C", "crc32c" }, { "crc32", "CRC32", "crc32-zlib" },
	{ "jhash2", "JHASH2", "jhash2" },
};

const char *sum_tag_of(const struct hash_impl *h, char *buf, size_t size)
{
	const struct hash_impl *r = hash_resolve(h);
	size_t i;

	for (i = 0; r->family && i < sizeof(sum_tags) / sizeof(sum_tags[0]); i++)
		if (strcmp(r->family, sum_tags[i].family) == 0)
			return sum_tags[i].tag;
	/* A hash added later: its name, upper case. */
	for (i = 0; r->name[i] && i + 1 < size; i++)
		buf[i] = (char)toupper((unsigned char)r->name[i]);
	buf[i] = '\0';
	return buf;
}

/* A tag that names an entry this build or CPU cannot run (CRC32C-ARMV8 on
 * x86, CRC32C-FUSED without AVX-512): a whole file's digest is its
 * function's, so its family's tag hash checks it, where calling the entry
 * would call code that is not there or an instruction the CPU lacks. The
 * entry itself when its family has no tag hash that runs here (the caller
 * refuses it). */
static const struct hash_impl *runnable_of(const struct hash_impl *h)
{
	const struct hash_impl *r = hash_resolve(h);

	if (hash_available(h))
		return h;
	for (size_t i = 0; r->family && i < sizeof(sum_tags) / sizeof(sum_tags[0]); i++) {
		const struct hash_impl *t = strcmp(r->family, sum_tags[i].family) == 0 ? hash_find(sum_tags[i].hash) : NULL;
		if (t && hash_available(t))
			return t;
	}
	return h;
}

const struct hash_impl *sum_hash_of_tag(const char *tag, size_t len)
{
	for (size_t i = 0; i < sizeof(sum_tags) / sizeof(sum_tags[0]); i++)
		if (strlen(sum_tags[i].tag) == len && memcmp(sum_tags[i].tag, tag, len) == 0)
			return runnable_of(hash_find(sum_tags[i].hash));
	for (unsigned i = 0; i < hash_registry_count; i++)
		if (strlen(hash_registry[i]->name) == len && strncasecmp(hash_registry[i]->name, tag, len) == 0)
			return runnable_of(hash_registry[i]);
	return NULL;
}

/* err's message with the file's name in front. */
static int fail_in(struct kb_err *err, const char *path)
{
	struct kb_err inner = *err;

	return kb_fail(err, "'%s': %.400s", path, inner.msg);
}

int sum_file_digest(const struct hash_impl *h, const char *path, char hex[HASH_HEX_MAX], struct kb_err *err)
{
	struct hash_stream hs;
	unsigned char *buf = file_input_buffer(SUM_CHUNK_BYTES);
	int fd = buf ? file_input_open(path, err) : kb_fail(err, "out of memory");
	ssize_t n = SUM_CHUNK_BYTES;
	int rc = -1;

	if (fd >= 0 && hash_stream_init(&hs, h, err) == 0) {
		while (n == SUM_CHUNK_BYTES && (n = file_input_read_full(fd, buf, SUM_CHUNK_BYTES, path, err)) >= 0)
			if (hash_stream_update(&hs, buf, (size_t)n, err))
				n = fail_in(err, path);
		if (n < 0)
			hash_stream_free(&hs);
		else
			rc = hash_stream_final(&hs, hex, err) ? fail_in(err, path) : 0;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

void sum_page_hex(const struct sum_options *o, const unsigned char *page, char hex[HASH_HEX_MAX])
{
	if (o->ksm)
		hash_hex_of(hash_resolve(o->h)->fn(page, o->page_size), 32, hex);
	else
		hash_hex(o->h, page, o->page_size, hex);
}
