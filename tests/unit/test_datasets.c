/* Unit tests of datasets/: the raw page source, page sets, and building a
 * page set from a request (zero, random, a file in a named format). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../datasets/dump.h"
#include "../../datasets/file_input.h"
#include "../../datasets/page_set.h"
#include "../../datasets/page_store.h"
#include "../../datasets/readahead.h"
#include "../../datasets/stream.h"
#include "check.h"
#include "digest_stub.h"
#include "groups.h"

static char *temp_file(const void *data, size_t len)
{
	static char path[64];
	strcpy(path, "/tmp/ksmbench-unit-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

/* Debian 12's qemu-i386 hangs in pthread_create (docs/cross-arch.md): the
 * cross test says so, and the read-ahead tests do not run there. */
static int no_threads(void)
{
	const char *nofork = getenv("KSMBENCH_TEST_NO_FORK");

	return nofork && strcmp(nofork, "1") == 0;
}

/* A file read as the raw format, through the dump table as commands do. */
static struct page_source *open_raw(const char *path, uint32_t page_size, struct kb_err *err)
{
	static const struct dump_options raw = { .format = "raw" };

	return dump_source_open(path, page_size, &raw, err);
}

void test_datasets_raw_source(void)
{
	struct kb_err err;
	struct page pg;
	size_t len = 3 * 256 + 100;
	unsigned char *data = malloc(len);

	for (size_t i = 0; i < len; i++)
		data[i] = (unsigned char)(i / 256 + 1);
	char *path = temp_file(data, len);
	CHECK(path != NULL);

	struct page_source *src = open_raw(path, 256, &err);
	CHECK(src != NULL);
	unsigned n = 0;
	int rc;
	while (src && (rc = page_source_next(src, &pg, &err)) == 1) {
		CHECK(pg.index == n && pg.addr == n * 256u);
		CHECK(pg.data[0] == n + 1 && pg.data[255] == n + 1);
		CHECK(((uintptr_t)pg.data & 63) == 0); /* read into a line-aligned buffer */
		n++;
	}
	CHECK(n == 3);
	if (src) {
		CHECK(src->stats.pages == 3 && src->stats.partial_pages == 1 && src->stats.partial_bytes == 100);
		CHECK(page_source_next(src, &pg, &err) == 0); /* stays at the end */
		page_source_close(src);
	}

	struct file_blob blob;
	CHECK(file_blob_load(path, 0, &blob, &err) == 0 && blob.len == len && blob.data[len - 1] == 4);
	file_blob_release(&blob);
	/* A limit: the file at it is read, one byte over it refused. */
	CHECK(file_blob_load(path, len, &blob, &err) == 0 && blob.len == len);
	file_blob_release(&blob);
	CHECK(file_blob_load(path, len - 1, &blob, &err) == -1 && strstr(err.msg, "is larger than") &&
	      blob.data == NULL);
	unlink(path);

	CHECK(open_raw("/nonexistent/x", 4096, &err) == NULL && strstr(err.msg, "No such file"));
	CHECK(file_input_open("/tmp", &err) == -1 && strstr(err.msg, "is a directory"));
	free(data);

	/* Read buffers start on a cache line, whatever their length (a large
	 * malloc block starts 16 bytes past one), and an impossible length
	 * is refused, not wrapped round. */
	for (size_t len_b = 1; len_b <= (3u << 20); len_b = len_b * 3 + 1) {
		unsigned char *b = file_input_buffer(len_b);
		CHECK(b != NULL && ((uintptr_t)b & 63) == 0);
		if (b)
			b[len_b - 1] = 1;
		free(b);
	}
	CHECK(file_input_buffer(SIZE_MAX - 10) == NULL);
}

/* A file of many read-ahead chunks (more than its ring holds) and a
 * partial tail: every page in order, each with the digest of its own
 * bytes, computed on the read-ahead thread, or none where the thread left
 * the chunk to the consumer: always the first (the consumer waits for it),
 * and then, the consumer being slow, seldom. */
void test_datasets_raw_read_ahead(void)
{
	const size_t ps = 4096, pages = 2000, len = pages * ps + 10;
	struct kb_err err;
	struct page pg;

	if (no_threads())
		return;
	unsigned char *data = malloc(len);
	CHECK(data != NULL);
	if (!data)
		return;
	for (size_t i = 0; i < len; i++)
		data[i] = (unsigned char)(i % ps < 8 ? (i / ps) >> (8 * (i % ps)) : i * 7);
	char *path = temp_file(data, len);
	CHECK(path != NULL);
	for (int digest = 0; path && digest < 2; digest++) {
		struct page_source *src = open_raw(path, (uint32_t)ps, &err);
		CHECK(src != NULL);
		if (!src)
			break;
		if (digest)
			CHECK(page_source_set_digest(src, stub_digest, (void *)(uintptr_t)2) == 1);
		size_t n = 0, bad = 0, ahead = 0, chunk_pages = READAHEAD_CHUNK_BYTES / ps;
		int rc, chunk_digested = 0;
		while ((rc = page_source_next(src, &pg, &err)) == 1) {
			uint64_t want = digest ? stub_digest_key((void *)(uintptr_t)2, data + n * ps) : 0;
			if (n % chunk_pages == 0) {
				chunk_digested = pg.digest.key != 0;
				bad += n == 0 && chunk_digested;
				if (digest)
					nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
			}
			bad += pg.index != n || pg.locator != n * ps || memcmp(pg.data, data + n * ps, ps) != 0 ||
			       pg.digest.key != (chunk_digested ? want : 0) ||
			       (chunk_digested && pg.digest.sum != stub_digest_sum(want));
			/* The digest ahead, where the chunk has it, is that page's. */
			if (pg.digest_ahead) {
				ahead++;
				bad += !digest || n + PAGE_DIGEST_AHEAD >= pages ||
				       pg.digest_ahead !=
					       stub_digest_key((void *)(uintptr_t)2, data + (n + PAGE_DIGEST_AHEAD) * ps);
			}
			/* Too late once pages have been read. */
			if (n == 0)
				CHECK(page_source_set_digest(src, stub_digest, NULL) == 0);
			n++;
		}
		CHECK(rc == 0 && n == pages && bad == 0 && (ahead > pages / 2) == digest);
		CHECK(src->stats.partial_pages == 1 && src->stats.partial_bytes == 10);
		page_source_close(src);
	}
	if (path)
		unlink(path);
	free(data);
}

/* Counts the pages digested with time to spare; their sums only are set.
 * ctx is the count: written on the read-ahead thread, read after it is
 * joined (page_source_close). */
static void spare_digest(void *ctx, const unsigned char *data, int spare, struct page_digest *out)
{
	out->key = stub_digest_key(NULL, data);
	out->sum = spare ? stub_digest_sum(out->key) : 0;
	*(size_t *)ctx += spare != 0;
}

/* A consumer that falls behind (it sleeps at its first chunks) lets the
 * read-ahead thread fill its ring, and the thread then digests with time
 * to spare (the census: the first checksum too): some pages carry the
 * sum, every page either the right sum or none. */
void test_datasets_read_ahead_spare(void)
{
	const size_t ps = 4096, pages = 2048, chunk_pages = READAHEAD_CHUNK_BYTES / 4096;
	struct kb_err err;
	struct page pg;

	if (no_threads())
		return;
	unsigned char *data = malloc(pages * ps);
	CHECK(data != NULL);
	if (!data)
		return;
	for (size_t i = 0; i < pages * ps; i++)
		data[i] = (unsigned char)(i % ps < 8 ? (i / ps) >> (8 * (i % ps)) : i * 13);
	char *path = temp_file(data, pages * ps);
	struct page_source *src = path ? open_raw(path, (uint32_t)ps, &err) : NULL;
	size_t spared = 0, with_sum = 0, n = 0, bad = 0;
	CHECK(src != NULL && page_source_set_digest(src, spare_digest, &spared) == 1);
	int rc = 0;
	while (src && (rc = page_source_next(src, &pg, &err)) == 1) {
		if (n % chunk_pages == 0 && n < 12 * chunk_pages)
			nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
		uint64_t key = pg.digest.key ? stub_digest_key(NULL, data + n * ps) : 0; /* 0: left to us */
		bad += pg.digest.key != key || (pg.digest.sum != 0 && pg.digest.sum != stub_digest_sum(key));
		with_sum += pg.digest.sum != 0;
		n++;
	}
	if (src)
		page_source_close(src);
	CHECK(rc == 0 && n == pages && bad == 0);
	CHECK(with_sum > 0 && with_sum == spared);
	if (path)
		unlink(path);
	free(data);
}

/* A digest slower than the consumer: some 20 us a page, 1.3 ms a chunk. */
static void slow_digest(void *ctx, const unsigned char *data, int spare, struct page_digest *out)
{
	nanosleep(&(struct timespec){ 0, 20000 }, NULL);
	stub_digest(ctx, data, spare, out);
}

/* A read-ahead of a file of len bytes whose 4 KiB pages start with their
 * number from 1, digested by dg: for the tests of the digest policy. */
struct ra_fixture {
	unsigned char *data;
	char *path;
	struct kb_stream *s;
	struct readahead *ra;
};

static void ra_fixture_end(struct ra_fixture *f)
{
	readahead_stop(f->ra);
	kb_stream_close(f->s);
	if (f->path)
		unlink(f->path);
	free(f->data);
}

/* 0, or -1 (nothing left to end) where it cannot run here or failed (a
 * check said so). */
static int ra_fixture_start(struct ra_fixture *f, size_t len, const struct readahead_digest *dg)
{
	struct kb_err err;

	memset(f, 0, sizeof(*f));
	if (no_threads())
		return -1;
	f->data = calloc(1, len);
	CHECK(f->data != NULL);
	if (!f->data)
		return -1;
	for (size_t p = 0; p < len / 4096; p++)
		memcpy(f->data + p * 4096, &(uint64_t){ p + 1 }, 8);
	f->path = temp_file(f->data, len);
	f->s = f->path ? kb_stream_open_file(f->path, &err) : NULL;
	f->ra = f->s ? readahead_start(f->s, 0, READAHEAD_TO_END, READAHEAD_CHUNK_BYTES, dg, &err) : NULL;
	CHECK(f->ra != NULL);
	if (f->ra)
		return 0;
	ra_fixture_end(f);
	return -1;
}

/* Where the consumer is the faster (0.2 ms a chunk against the thread's
 * 1.3 ms of digests), it waits for the chunk it is on: the thread leaves
 * that chunk's digests to it (keys 0) rather than make it wait longer. The
 * first chunk is always left (nothing is ready yet), and so is the second
 * (the consumer holds the first at most); later ones too (measured: 17 of
 * 32). Were only an empty ring hungry, the first alone would be left.
 * Only "some" is asserted: load and valgrind change the count, not that. */
void test_datasets_read_ahead_hungry(void)
{
	const size_t ps = 4096, len = 8u << 20, cap = READAHEAD_CHUNK_BYTES;
	const struct readahead_digest dg = { .fn = slow_digest, .ctx = NULL, .page_size = (uint32_t)ps };
	struct ra_fixture f;
	struct kb_err err;

	if (ra_fixture_start(&f, len, &dg))
		return;
	const unsigned char *data = f.data;
	size_t chunks = 0, left = 0, bad = 0;
	ssize_t n = 0;
	unsigned char *buf;
	const struct page_digest *dig;
	while ((n = readahead_next(f.ra, &buf, &dig, &err)) > 0) {
		int chunk_left = dig[0].key == 0;
		left += chunk_left;
		for (size_t i = 0; i < (size_t)n / ps; i++)
			bad += dig[i].key != (chunk_left ? 0 : stub_digest_key(NULL, data + chunks * cap + i * ps));
		chunks++;
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
	CHECK(n == 0 && chunks == len / cap && bad == 0);
	CHECK(left >= 2);
	ra_fixture_end(&f);
}

/* Counts the pages the read-ahead thread digests (read on this thread
 * while that one writes it: atomic); the sum only with time to spare. */
static void counting_digest(void *ctx, const unsigned char *data, int spare, struct page_digest *out)
{
	out->key = stub_digest_key(NULL, data);
	out->sum = spare ? stub_digest_sum(out->key) : 0;
	__atomic_add_fetch((size_t *)ctx, 1, __ATOMIC_RELEASE);
}

/* The policy by the chunks waiting in the ring, made deterministic: the
 * consumer holds the first chunk until the thread has filled every slot,
 * so that it decides the first eight chunks with 0 to 7 of them full. At
 * most one (RA_HUNGRY: the consumer waits for this chunk) leaves the
 * digests to the consumer (keys 0); from four (RA_SPARE_FULL) the thread
 * has time to spare (sums); between, it digests without the spare part. */
void test_datasets_read_ahead_policy(void)
{
	const size_t ps = 4096, cap = READAHEAD_CHUNK_BYTES, chunk_pages = cap / ps, len = 12 * cap;
	size_t digested = 0;
	const struct readahead_digest dg = { .fn = counting_digest, .ctx = &digested, .page_size = (uint32_t)ps };
	struct ra_fixture f;
	struct kb_err err;

	if (ra_fixture_start(&f, len, &dg))
		return;
	const unsigned char *data = f.data;
	char kinds[9] = "";
	size_t chunks = 0, bad = 0;
	ssize_t n = 0;
	unsigned char *buf;
	const struct page_digest *dig;
	while ((n = readahead_next(f.ra, &buf, &dig, &err)) > 0) {
		/* Chunks 2 to 7 digested: the ring is full (10 s at most). */
		for (int ms = 0; chunks == 0 && ms < 10000 &&
				 __atomic_load_n(&digested, __ATOMIC_ACQUIRE) < 6 * chunk_pages; ms++)
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
		char kind = dig[0].key == 0 ? 'h' : dig[0].sum ? 's' : 'd';
		for (size_t i = 0; i < (size_t)n / ps; i++) {
			uint64_t key = stub_digest_key(NULL, data + chunks * cap + i * ps);
			bad += kind == 'h' ? dig[i].key != 0
					   : dig[i].key != key || dig[i].sum != (kind == 's' ? stub_digest_sum(key) : 0);
		}
		if (chunks < 8)
			kinds[chunks] = kind;
		chunks++;
	}
	CHECK(n == 0 && chunks == len / cap && bad == 0);
	CHECK_STR(kinds, "hhddssss");
	ra_fixture_end(&f);
}

/* An end before the start reads nothing (not to the end of the file, as
 * end - off wrapped round would). */
void test_datasets_read_ahead_range(void)
{
	static unsigned char data[128 << 10];
	struct kb_err err;

	if (no_threads())
		return;
	char *path = temp_file(data, sizeof(data));
	struct kb_stream *s = path ? kb_stream_open_file(path, &err) : NULL;
	struct readahead *ra = s ? readahead_start(s, 8192, 4096, 64 << 10, NULL, &err) : NULL;
	unsigned char *buf = NULL;
	const struct page_digest *dig = NULL;
	CHECK(ra != NULL && readahead_next(ra, &buf, &dig, &err) == 0);
	readahead_stop(ra);
	kb_stream_close(s);
	if (path)
		unlink(path);
}

void test_datasets_page_set(void)
{
	struct page_content c;
	struct page_set s;
	struct kb_err err;

	CHECK(page_content_random(&c, 4096, 42, &err) == 0 && c.pages == 1);
	CHECK(page_set_hot(&s, &c, 0, &err) == 0);
	CHECK(s.count == 1 && memcmp(s.order[0], c.bytes, 4096) == 0 && strcmp(s.cache, "hot") == 0);
	CHECK(((uintptr_t)s.order[0] & 63) == 0);
	page_set_release(&s);

	CHECK(page_set_hot(&s, &c, 5, &err) == 0 && ((uintptr_t)s.order[0] & 63) == 5);
	page_set_release(&s);
	CHECK(page_set_hot(&s, &c, 4096, &err) == -1 && strstr(err.msg, "smaller than the page size"));

	/* Cold: every page once, in a shuffled order, every page different. */
	CHECK(page_set_cold(&s, &c, 1u << 20, 3, 7, &err) == 0);
	CHECK(s.count == 256 && s.working_set_bytes == (1u << 20) && strcmp(s.cache, "cold") == 0);
	const unsigned char *lowest = s.order[0];
	size_t in_order = 0, slot = 4096 + 64;
	unsigned char seen[256] = { 0 };
	for (size_t i = 0; i < s.count; i++)
		if (s.order[i] < lowest)
			lowest = s.order[i];
	for (size_t i = 0; i < s.count; i++) {
		size_t k = (size_t)(s.order[i] - lowest) / slot;
		CHECK(k < 256 && (size_t)(s.order[i] - lowest) % slot == 0);
		if (k < 256)
			seen[k]++;
		if (i && s.order[i] == s.order[i - 1] + slot)
			in_order++;
	}
	int all_once = 1;
	for (size_t k = 0; k < 256; k++)
		all_once &= seen[k] == 1;
	CHECK(all_once);
	CHECK(in_order < 16);
	CHECK(memcmp(s.order[0], s.order[1], 4096) != 0);
	page_set_release(&s);
	page_content_release(&c);

	CHECK(page_content_zero(&c, 64, &err) == 0 && c.bytes[0] == 0 && c.bytes[63] == 0);
	CHECK(page_set_cold(&s, &c, 64 * 10, 0, 1, &err) == 0 && s.count == 10);
	page_set_release(&s);
	/* A cold set asked for one page has two, its floor (page_set_cold). */
	CHECK(page_set_cold(&s, &c, 64, 0, 1, &err) == 0 && s.count == 2);
	page_set_release(&s);
	page_content_release(&c);

	/* A file's content of 3 distinct pages over a set of 12: each page
	 * copied 4 times (page i % 3 in slot i), not page 0 everywhere. */
	c = (struct page_content){ .bytes = malloc(3 * 64), .pages = 3, .page_size = 64, .data = "file:x" };
	CHECK(c.bytes != NULL);
	if (c.bytes) {
		for (size_t i = 0; i < 3 * 64; i++)
			c.bytes[i] = (unsigned char)(i / 64 + 1);
		CHECK(page_set_cold(&s, &c, 12 * 64, 0, 1, &err) == 0 && s.count == 12);
		unsigned copies[3] = { 0 }, other = 0;
		for (size_t i = 0; i < s.count; i++) {
			int k = -1;
			for (int j = 0; j < 3; j++)
				if (memcmp(s.order[i], c.bytes + j * 64, 64) == 0)
					k = j;
			if (k < 0)
				other++;
			else
				copies[k]++;
		}
		CHECK(copies[0] == 4 && copies[1] == 4 && copies[2] == 4 && other == 0);
		page_set_release(&s);
	}
	page_content_release(&c);

	CHECK(page_set_cold_default_bytes(0) == 64ull << 20);
	CHECK(page_set_cold_default_bytes(32ull << 20) == 128ull << 20);
	/* Emerald Rapids' L3: 4x it, under the cap of 64-bit builds (32-bit: the cap) */
	CHECK(page_set_cold_default_bytes(260ull << 20) ==
	      (PAGE_SET_COLD_MAX_BYTES < (1040ull << 20) ? PAGE_SET_COLD_MAX_BYTES : 1040ull << 20));
	CHECK(page_set_cold_default_bytes(1ull << 30) == PAGE_SET_COLD_MAX_BYTES);

	CHECK(page_content_file(&c, "/nonexistent/ksmbench", 4096, NULL, 1 << 20, &err) == -1);
}

void test_datasets_page_set_build(void)
{
	struct page_set_request req = { .data = "zero", .page_size = 4096, .seed = 1 };
	unsigned char pages[3 * 1024];
	struct page_set s;
	struct kb_err err;

	CHECK(page_set_build(&req, &s, &err) == 0 && s.count == 1 && strcmp(s.data, "zero") == 0 &&
	      s.order[0][0] == 0 && strcmp(s.cache, "hot") == 0);
	page_set_release(&s);
	req.data = "random";
	req.cold = 1;
	req.working_set_bytes = 1 << 20;
	CHECK(page_set_build(&req, &s, &err) == 0 && s.count == 256 && strcmp(s.cache, "cold") == 0);
	page_set_release(&s);

	/* Cold by size only at 4x the last-level cache, else warm; a flushed
	 * set is cold at any size, and defaults to 64 MiB. */
	req.llc_bytes = 1 << 20;
	CHECK(strcmp(page_set_cache_label(&req), "warm") == 0 && page_set_cold_by(&req) == NULL);
	req.working_set_bytes = 4 << 20;
	CHECK(strcmp(page_set_cache_label(&req), "cold") == 0 && strcmp(page_set_cold_by(&req), "size") == 0);
	req.working_set_bytes = 1 << 20;
	req.flushed = 1;
	CHECK(strcmp(page_set_cache_label(&req), "cold") == 0 && strcmp(page_set_cold_by(&req), "flush") == 0);
	CHECK(page_set_build(&req, &s, &err) == 0 && s.flushed == 1 && s.count == 256);
	page_set_release(&s);
	req.working_set_bytes = 0;
	req.llc_bytes = 256ull << 20;
	CHECK(page_set_request_ws_bytes(&req) == PAGE_SET_FLUSHED_DEFAULT_BYTES &&
	      PAGE_SET_FLUSHED_DEFAULT_BYTES == 64ull << 20);
	req.flushed = 0;
	CHECK(page_set_request_ws_bytes(&req) == page_set_cold_default_bytes(256ull << 20));
	/* Past PAGE_SET_COLD_PAGES_MAX pages the set is that many: judged warm
	 * by its size built (4M pages of 64 bytes, 256 MiB), not the 4 GiB asked. */
	uint32_t page_size = req.page_size;
	req.page_size = 64;
	req.working_set_bytes = 4ull << 30;
	req.llc_bytes = 128ull << 20;
	CHECK(page_set_request_ws_bytes(&req) == (uint64_t)PAGE_SET_COLD_PAGES_MAX * 64 &&
	      strcmp(page_set_cache_label(&req), "warm") == 0);
	/* Whole pages, two at least, as page_set_cold builds it: 64 KiB of
	 * 16 MiB pages is two of them, judged cold by those 32 MiB. */
	req.page_size = 16u << 20;
	req.working_set_bytes = 64u << 10;
	req.llc_bytes = 4u << 20;
	CHECK(page_set_request_ws_bytes(&req) == 32u << 20 && strcmp(page_set_cache_label(&req), "cold") == 0);
	req.page_size = 4096;
	req.working_set_bytes = (64u << 10) + 100;
	CHECK(page_set_request_ws_bytes(&req) == 64u << 10);
	req.page_size = page_size;
	req.working_set_bytes = 0;
	req.cold = 0;
	req.flushed = 1; /* a hot set is never flushed */
	CHECK(strcmp(page_set_cache_label(&req), "hot") == 0 && page_set_cold_by(&req) == NULL);
	CHECK(page_set_build(&req, &s, &err) == 0 && s.flushed == 0);
	page_set_release(&s);

	/* A file's pages, in its detected format or one named. */
	for (size_t i = 0; i < sizeof(pages); i++)
		pages[i] = (unsigned char)(i / 1024 + 7);
	char *path = temp_file(pages, sizeof(pages));
	char name[64];
	snprintf(name, sizeof(name), "%s", path ? path : "");
	req = (struct page_set_request){ .data = name, .page_size = 1024, .seed = 1 };
	CHECK(page_set_build(&req, &s, &err) == 0 && s.count == 3 && s.order[2][0] == 9 &&
	      strncmp(s.data, "file:", 5) == 0);
	page_set_release(&s);
	req.dump.format = "raw";
	CHECK(page_set_build(&req, &s, &err) == 0 && s.count == 3);
	page_set_release(&s);
	req.dump.format = "lime-raw";
	req.dump.lime.ranges = "0-3ff";
	CHECK(page_set_build(&req, &s, &err) == 0 && s.count == 1 && s.order[0][0] == 7);
	page_set_release(&s);
	req.dump.format = "elf";
	req.dump.lime.ranges = NULL;
	CHECK(page_set_build(&req, &s, &err) == -1 && strstr(err.msg, name));
	req.dump.format = "raw";
	req.dump.lime.ranges = "0-3ff";
	CHECK(page_set_build(&req, &s, &err) == -1 && strstr(err.msg, "LiME ranges"));
	unlink(name);
}

/* Pages read once into a store, shared between slots, and found again
 * through its descriptor as a measuring process finds them; a descriptor
 * that holds anything else is refused. */
void test_datasets_page_store(void)
{
	unsigned char pages[5 * 1024];
	struct page_store s, got;
	struct page_content c;
	struct kb_err err;
	struct dump_options raw = { .format = "raw" };

	for (size_t i = 0; i < sizeof(pages); i++)
		pages[i] = (unsigned char)(i / 1024 + 1);
	char *path = temp_file(pages, sizeof(pages));
	char name[64];
	snprintf(name, sizeof(name), "%s", path ? path : "");
	CHECK(page_store_init(&s, 5, &err) == 0 && !page_store_holds(&s, 0));
	CHECK(page_store_fill(&s, 1, name, 1024, &raw, 3 * 1024, UINT64_MAX, &err) == 0);
	CHECK(page_store_fill(&s, 2, name, 2048, &raw, 1 << 20, 4096, &err) == 0);
	/* More than the room left: the slot stays empty, for the processes. */
	CHECK(page_store_fill(&s, 4, name, 1024, &raw, 1 << 20, 4096, &err) == 0 && !page_store_holds(&s, 4));
	page_store_share(&s, 3, 1);
	CHECK(page_store_fill(&s, 0, "/nonexistent/ksmbench", 1024, &raw, 4096, UINT64_MAX, &err) == -1 &&
	      strstr(err.msg, "/nonexistent/ksmbench"));
	CHECK(page_store_seal(&s, &err) == 0);
	CHECK(page_store_adopt(&got, dup(s.fd), 5, &err) == 0);
	CHECK(!page_store_holds(&got, 0) && page_store_holds(&got, 1) && page_store_holds(&got, 3) &&
	      !page_store_holds(&got, 4));
	CHECK(page_store_content(&got, 1, name, 1024, &c, &err) == 0 && c.pages == 3 && c.bytes[0] == 1 &&
	      c.bytes[2 * 1024] == 3 && strncmp(c.data, "file:", 5) == 0);
	page_content_release(&c);
	CHECK(page_store_content(&got, 2, name, 2048, &c, &err) == 0 && c.pages == 2 && c.bytes[2048] == 3);
	page_content_release(&c);
	CHECK(page_store_content(&got, 3, name, 1024, &c, &err) == 0 && c.pages == 3);
	page_content_release(&c);
	CHECK(page_store_content(&got, 2, name, 1024, &c, &err) == -1 && strstr(err.msg, "unreadable"));
	page_store_close(&got);
	/* The count of slots is the plan's: another plan is refused. */
	CHECK(page_store_adopt(&got, s.fd, 4, &err) == -1 && strstr(err.msg, "unreadable"));
	/* Sealed: nothing can write to it any more. */
	CHECK(pwrite(s.fd, "x", 1, 0) == -1);
	/* The same bytes (a valid index) in a memfd without seals: refused,
	 * as a store anyone could still write to under the processes. Where no
	 * memfd can be made there is nothing to try. */
	struct stat st;
	int copy = memfd_create("ksmbench-unit-unsealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (copy >= 0 && fstat(s.fd, &st) == 0) {
		unsigned char *bytes = malloc((size_t)st.st_size);
		CHECK(bytes && pread(s.fd, bytes, (size_t)st.st_size, 0) == st.st_size &&
		      pwrite(copy, bytes, (size_t)st.st_size, 0) == st.st_size);
		free(bytes);
		CHECK(page_store_adopt(&got, copy, 5, &err) == -1 && strstr(err.msg, "unreadable (not the index expected)"));
	}
	if (copy >= 0)
		close(copy);
	page_store_close(&s);

	/* Not a store: a file, an unsealed copy, a slot past the end. */
	int fd = open(name, O_RDONLY);
	CHECK(page_store_adopt(&got, fd, 5, &err) == -1 && strstr(err.msg, "unreadable"));
	close(fd);
	CHECK(page_store_init(&s, 1, &err) == 0 && page_store_fill(&s, 0, name, 1024, &raw, 4096, UINT64_MAX, &err) == 0);
	CHECK(page_store_adopt(&got, s.fd, 1, &err) == -1);
	s.slot[0].pages = 1000;
	CHECK(page_store_seal(&s, &err) == 0 && page_store_adopt(&got, s.fd, 1, &err) == -1 &&
	      strstr(err.msg, "outside"));
	page_store_close(&s);
	unlink(name);
}
