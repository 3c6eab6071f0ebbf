/* Unit tests of the dump readers on small inputs crafted here: how a
 * segment's pages are counted, the checked reads, parked streams, the LiME
 * range parser and range files, byte-order fields; the format table (names,
 * detection, options); and the ELF, LiME and kdump readers, each on a valid
 * file (every page's address and bytes, the holes, partial and excluded
 * pages) and on broken ones. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../../datasets/dump.h"
#include "../../datasets/lime.h"
#include "../../datasets/page_codec.h"
#include "../../datasets/readahead.h"
#include "../../datasets/segment_pager.h"
#include "../../datasets/stream.h"
#include "check.h"
#include "digest_stub.h"
#include "groups.h"

static void count(uint64_t file_len, uint64_t mem_len, uint64_t skip, struct page_stats *st,
		  uint64_t *yield, uint64_t *first_addr)
{
	struct segment_pager p;

	memset(st, 0, sizeof(*st));
	segment_pager_init(&p, NULL, 64);
	segment_pager_begin(&p, st, 0x1000, 0, file_len, mem_len, skip, "test");
	*yield = p.remaining;
	*first_addr = p.addr;
	segment_pager_free(&p);
}

void test_dump_readers_segment_pager(void)
{
	struct page_stats st;
	uint64_t y, a;

	count(640, 640, 0, &st, &y, &a); /* 10 whole 64-byte pages */
	CHECK(y == 10 && a == 0x1000 && st.partial_pages == 0 && st.holes == 0);
	count(650, 650, 0, &st, &y, &a); /* a 10-byte tail */
	CHECK(y == 10 && st.partial_pages == 1 && st.partial_bytes == 10 && st.holes == 0);
	count(640, 640 + 200, 0, &st, &y, &a); /* p_memsz past p_filesz: 4 holes (3 + a short one) */
	CHECK(y == 10 && st.holes == 4 && st.partial_pages == 0);
	count(650, 640 + 200, 0, &st, &y, &a); /* tail page partly in the file: partial, then holes */
	CHECK(y == 10 && st.partial_pages == 1 && st.partial_bytes == 10 && st.holes == 3);
	count(0, 1ull << 62, 0, &st, &y, &a); /* counted, not walked */
	CHECK(y == 0 && st.holes == (1ull << 62) / 64);
	count(640, 640, 128, &st, &y, &a); /* two pages yielded before by another segment */
	CHECK(y == 8 && a == 0x1000 + 128 && st.overlap == 2 && st.partial_pages == 0);
	count(640, 640, 100, &st, &y, &a); /* straddles: page 1 has 28 new bytes */
	CHECK(y == 8 && a == 0x1000 + 128 && st.overlap == 1 && st.partial_pages == 1 && st.partial_bytes == 28);
	count(640, 640, 640, &st, &y, &a);
	CHECK(y == 0 && st.overlap == 10 && st.partial_pages == 0);
	count(650, 650, 645, &st, &y, &a); /* only the tail is new */
	CHECK(y == 0 && st.overlap == 10 && st.partial_pages == 1 && st.partial_bytes == 5);
}

void test_dump_readers_stream_checks(void)
{
	struct kb_stream s = { NULL, 1000, "f", 0 };
	struct kb_err err;
	unsigned char be[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	CHECK(kb_stream_check_range(&s, 0, 1000, "x", &err) == 0);
	CHECK(kb_stream_check_range(&s, 1, 1000, "x", &err) == -1 && strstr(err.msg, "past the end"));
	CHECK(kb_stream_check_range(&s, UINT64_MAX - 5, 10, "x", &err) == -1 && strstr(err.msg, "overflows"));
	s.size = KB_STREAM_SIZE_UNKNOWN;
	CHECK(kb_stream_check_range(&s, 1ull << 60, 1ull << 60, "x", &err) == 0);
	CHECK(kb_get16(be, 1) == 0x0102 && kb_get16(be, 0) == 0x0201);
	CHECK(kb_get32(be, 1) == 0x01020304u && kb_get32(be, 0) == 0x04030201u);
	CHECK(kb_get64(be, 1) == 0x0102030405060708ull && kb_get64(be, 0) == 0x0807060504030201ull);
}

void test_dump_readers_lime_ranges(void)
{
	struct lime_range *r;
	size_t n;
	struct kb_err err;

	CHECK(lime_parse_ranges("0x1000-0x1fff,100000-7fffffff", &r, &n, &err) == 2);
	CHECK(n == 2 && r[0].start == 0x1000 && r[0].end == 0x1fff && r[1].start == 0x100000 &&
	      r[1].end == 0x7fffffff);
	free(r);
	CHECK(lime_parse_ranges("0x10-0x5", &r, &n, &err) == -1 && strstr(err.msg, "before the start"));
	CHECK(lime_parse_ranges("12", &r, &n, &err) == -1 && strstr(err.msg, "START-END"));
	CHECK(lime_parse_ranges("1-2x", &r, &n, &err) == -1);
	CHECK(lime_parse_ranges("0-ffffffffffffffff", &r, &n, &err) == -1);
	CHECK(lime_parse_ranges("1-10000000000000000", &r, &n, &err) == -1);
	CHECK(lime_parse_ranges("", &r, &n, &err) == -1 && strstr(err.msg, "no ranges"));
	CHECK(lime_parse_ranges("@/nonexistent", &r, &n, &err) == -1 && strstr(err.msg, "range file"));
	/* Nothing but blanks may follow a range on the command line. */
	CHECK(lime_parse_ranges("0-fff:junk", &r, &n, &err) == -1 && strstr(err.msg, "START-END"));
	CHECK(lime_parse_ranges("0-fff,", &r, &n, &err) == -1 && strstr(err.msg, "empty range"));
	CHECK(lime_parse_ranges(" 0 - fff , 2000-2fff ", &r, &n, &err) == 2 && r[1].start == 0x2000);
	free(r);
}

void test_dump_readers_lime_range_files(void)
{
	static const char iomem[] = "00000000-00000fff : Reserved\n"
				    "00001000-0009fbff : System RAM\n"
				    "  00001000-00001fff : Kernel code\n"
				    "100000000-17fffffff : System RAM\r\n"
				    "fd000000-fdffffff : PCI Bus 0000:00\n";
	static const char hidden[] = "00000000-00000000 : Reserved\n00000000-00000000 : System RAM\n";
	static const char plain[] = "# ranges\n\n1000-1fff\n  0x3000-0x3fff  \n";
	struct lime_range *r;
	size_t n;
	struct kb_err err;

	CHECK(lime_parse_range_text(iomem, strlen(iomem), "iomem", &r, &n, &err) == 2);
	CHECK(r[0].start == 0x1000 && r[0].end == 0x9fbff && r[1].start == 0x100000000ull &&
	      r[1].end == 0x17fffffffull);
	free(r);
	CHECK(lime_parse_range_text(plain, strlen(plain), "plain", &r, &n, &err) == 2 && r[1].end == 0x3fff);
	free(r);
	/* /proc/iomem read without CAP_SYS_ADMIN: every address 0. */
	CHECK(lime_parse_range_text(hidden, strlen(hidden), "h", &r, &n, &err) == -1 &&
	      strstr(err.msg, "0-0") && strstr(err.msg, "root"));
	static const char junk[] = "1000-1fff\njunk\n", escape[] = "\x1b[31mred\n";
	static const char reserved[] = "00000000-00000fff : Reserved\n";
	CHECK(lime_parse_range_text(junk, strlen(junk), "j", &r, &n, &err) == -1 && strstr(err.msg, "line 2"));
	/* A terminal escape in the file is not copied into the message. */
	CHECK(lime_parse_range_text(escape, strlen(escape), "e", &r, &n, &err) == -1 &&
	      strstr(err.msg, "?[31mred") && !strchr(err.msg, 0x1b));
	CHECK(lime_parse_range_text(reserved, strlen(reserved), "r", &r, &n, &err) == -1 &&
	      strstr(err.msg, "System RAM"));
	CHECK(lime_parse_range_text("", 0, "empty", &r, &n, &err) == -1 && strstr(err.msg, "no range"));
	/* Bounded and text only: /dev/zero fails at once. */
	CHECK(lime_parse_ranges("@/dev/zero", &r, &n, &err) == -1 && strstr(err.msg, "NUL"));
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Parked streams hold no descriptor; reads reopen them, at most
 * KB_STREAM_REOPEN_MAX at once; a file replaced meanwhile is refused. */
void test_dump_readers_stream_park(void)
{
	enum { N = KB_STREAM_REOPEN_MAX + 5 };
	struct kb_stream *s[N];
	char path[N][64];
	struct kb_err err;
	unsigned char b;
	int before = open_fds(), ok = 1;

	for (int i = 0; i < N; i++) {
		snprintf(path[i], sizeof(path[i]), "/tmp/ksmbench-park-%d-%d", (int)getpid(), i);
		FILE *f = fopen(path[i], "w");
		fprintf(f, "%c", 'a' + i);
		fclose(f);
		s[i] = kb_stream_open_file(path[i], &err);
		CHECK(s[i] && s[i]->random_access);
		kb_stream_park(s[i]);
	}
	CHECK(open_fds() == before);
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < N; i++)
			ok &= kb_stream_read(s[i], 0, &b, 1, &err) == 1 && b == 'a' + i &&
			      open_fds() <= before + KB_STREAM_REOPEN_MAX;
	CHECK(ok);
	FILE *f = fopen("/tmp/ksmbench-park-new", "w");
	fclose(f);
	CHECK(rename("/tmp/ksmbench-park-new", path[0]) == 0);
	for (int i = 1; i <= KB_STREAM_REOPEN_MAX; i++) /* push path[0]'s descriptor out */
		kb_stream_read(s[i], 0, &b, 1, &err);
	CHECK(kb_stream_read(s[0], 0, &b, 1, &err) == -1 && strstr(err.msg, "was replaced"));
	for (int i = 0; i < N; i++) {
		kb_stream_close(s[i]);
		unlink(path[i]);
	}
	CHECK(open_fds() == before);
}

#define PS 1024u /* page size of the crafted files */

/* A file of len bytes, path in path[64]. */
static int write_file(char path[64], const void *data, size_t len)
{
	strcpy(path, "/tmp/ksmbench-dump-XXXXXX");
	int fd = mkstemp(path);
	int ok = fd >= 0 && write(fd, data, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* A page of bytes tag, tag+1, ... */
static void fill(unsigned char *p, size_t len, unsigned tag)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(tag + i);
}

static void put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put32(unsigned char *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(unsigned char *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

struct read_back {
	struct page_stats stats;
	const char *format;
	uint64_t addr[8];
	unsigned tag[8]; /* each page's first byte */
	int ok_bytes;    /* every byte follows its first as fill() writes them */
	unsigned n;
	char err[512];
};

/* Reads path (format NULL: detected) to the end; -1 if it cannot be read. */
static int read_all(const char *path, const char *format, const char *ranges, struct read_back *b)
{
	struct dump_options opts = { .format = format, .lime = { ranges } };
	struct kb_err err;
	struct page pg;
	int rc;

	memset(b, 0, sizeof(*b));
	b->ok_bytes = 1;
	struct page_source *src = dump_source_open(path, PS, &opts, &err);
	if (!src) {
		snprintf(b->err, sizeof(b->err), "%s", err.msg);
		return -1;
	}
	while ((rc = page_source_next(src, &pg, &err)) == 1 && b->n < 8) {
		b->addr[b->n] = pg.addr;
		b->tag[b->n] = pg.data[0];
		for (size_t i = 1; i < PS; i++)
			b->ok_bytes &= pg.data[i] == (unsigned char)(pg.data[0] + i);
		b->n++;
	}
	if (rc < 0)
		snprintf(b->err, sizeof(b->err), "%s", err.msg);
	b->stats = src->stats;
	b->format = src->format;
	page_source_close(src);
	return rc < 0 ? -1 : 0;
}

void test_dump_readers_table(void)
{
	struct kb_err err;
	struct read_back b;
	char path[64];
	unsigned char pages[2 * PS];

	CHECK_STR(dump_format_names(), "auto, raw, elf, lime, lime-raw, lime-padded, kdump");
	CHECK(dump_format_check("auto", &err) == 0 && dump_format_check("lime-padded", &err) == 0);
	CHECK(dump_format_check("vmdk", &err) == -1 && strstr(err.msg, "unknown input format 'vmdk' (known: auto,"));
	/* Nothing recognised: raw; the LiME ranges belong to two formats only. */
	fill(pages, PS, 1);
	fill(pages + PS, PS, 2);
	CHECK(write_file(path, pages, sizeof(pages)) == 0);
	CHECK(read_all(path, NULL, NULL, &b) == 0 && strcmp(b.format, "raw") == 0 && b.n == 2 && b.ok_bytes);
	CHECK(read_all(path, "raw", "0-3ff", &b) == -1 && strstr(b.err, "takes no LiME ranges"));
	CHECK(read_all(path, "lime-raw", NULL, &b) == -1 && strstr(b.err, "--lime-ranges"));
	CHECK(read_all(path, "lime-raw", "0x5000-0x53ff,0x9000-0x93ff", &b) == 0 && b.n == 2 &&
	      b.addr[0] == 0x5000 && b.addr[1] == 0x9000 && b.tag[1] == 2);
	CHECK(read_all(path, "nosuch", NULL, &b) == -1 && strstr(b.err, "unknown input format"));
	unlink(path);
}

/* An ELF64 little-endian core's header: x86-64, its phnum program
 * headers of phentsize bytes right after it. */
static void put_elf_header(unsigned char *f, uint16_t phentsize, uint16_t phnum)
{
	memcpy(f, "\177ELF\2\1\1", 7);
	put16(f + 16, 4);  /* ET_CORE */
	put16(f + 18, 62); /* x86-64 */
	put32(f + 20, 1);
	put64(f + 32, 64);
	put16(f + 52, 64);
	put16(f + 54, phentsize);
	put16(f + 56, phnum);
}

/* ELF64 little-endian core: a note, then two PT_LOADs right after it (not
 * page aligned): 0x100000 with two pages and one more of p_memsz (a hole),
 * 0x200000 with one page and 100 bytes (a partial page). */
static size_t craft_elf(unsigned char *f)
{
	const size_t phoff = 64, note = phoff + 3 * 56, data = note + 4;
	size_t len = data + 3 * PS + 100;

	memset(f, 0, len);
	put_elf_header(f, 56, 3);
	static const uint64_t ph[3][5] = { /* type, offset (set below), paddr, filesz, memsz */
		{ 4, 0, 0, 4, 4 },
		{ 1, 0, 0x100000, 2 * PS, 3 * PS },
		{ 1, 0, 0x200000, PS + 100, PS + 100 },
	};
	for (unsigned i = 0; i < 3; i++) {
		unsigned char *p = f + phoff + i * 56;
		put32(p, (uint32_t)ph[i][0]);
		put64(p + 8, i == 0 ? note : i == 1 ? data : data + 2 * PS);
		put64(p + 24, ph[i][2]);
		put64(p + 32, ph[i][3]);
		put64(p + 40, ph[i][4]);
	}
	memcpy(f + note, "NOTE", 4);
	for (unsigned k = 0; k < 3; k++)
		fill(f + data + k * PS, PS, 10 * (k + 1));
	fill(f + data + 3 * PS, 100, 99);
	return len;
}

void test_dump_readers_elf(void)
{
	static unsigned char f[4096 + 3 * PS];
	struct read_back b;
	char path[64];
	size_t len = craft_elf(f);

	CHECK(write_file(path, f, len) == 0);
	CHECK(read_all(path, NULL, NULL, &b) == 0 && strcmp(b.format, "elf") == 0);
	CHECK(b.n == 3 && b.addr[0] == 0x100000 && b.addr[1] == 0x100000 + PS && b.addr[2] == 0x200000);
	CHECK(b.tag[0] == 10 && b.tag[1] == 20 && b.tag[2] == 30 && b.ok_bytes);
	CHECK(b.stats.pages == 3 && b.stats.holes == 1 && b.stats.partial_pages == 1 && b.stats.partial_bytes == 100);
	unlink(path);

	/* No program headers, and e_phentsize 0 (found by fuzz_elf): no pages. */
	put16(f + 54, 0);
	put16(f + 56, 0);
	CHECK(write_file(path, f, len) == 0);
	CHECK(read_all(path, "elf", NULL, &b) == 0 && b.n == 0 && b.stats.holes == 0);
	unlink(path);
	put16(f + 54, 56);
	put16(f + 56, 3);

	/* A segment past the end of the file; a header cut short. */
	put64(f + 64 + 2 * 56 + 8, 1u << 30);
	CHECK(write_file(path, f, len) == 0);
	CHECK(read_all(path, "elf", NULL, &b) == -1 && b.err[0]);
	unlink(path);
	CHECK(write_file(path, f, 60) == 0);
	CHECK(read_all(path, "elf", NULL, &b) == -1 && strstr(b.err, path));
	unlink(path);
}

/* LiME: two ranges, each after its 32-byte header (end inclusive). */
static size_t craft_lime(unsigned char *f, uint32_t version)
{
	static const uint64_t range[2][2] = { { 0x1000, 0x1000 + 2 * PS - 1 }, { 0x4000, 0x4000 + PS - 1 } };
	size_t len = 0;

	for (unsigned r = 0; r < 2; r++) {
		memset(f + len, 0, 32);
		put32(f + len, LIME_MAGIC);
		put32(f + len + 4, version);
		put64(f + len + 8, range[r][0]);
		put64(f + len + 16, range[r][1]);
		len += 32;
		for (uint64_t a = range[r][0]; a <= range[r][1]; a += PS, len += PS)
			fill(f + len, PS, (unsigned)(a >> 8));
	}
	return len;
}

void test_dump_readers_lime(void)
{
	static unsigned char f[64 + 3 * PS];
	struct read_back b;
	char path[64];
	size_t len = craft_lime(f, 1);

	CHECK(write_file(path, f, len) == 0);
	CHECK(read_all(path, NULL, NULL, &b) == 0 && strcmp(b.format, "lime") == 0);
	CHECK(b.n == 3 && b.addr[0] == 0x1000 && b.addr[1] == 0x1000 + PS && b.addr[2] == 0x4000);
	CHECK(b.tag[0] == 0x10 && b.tag[1] == 0x14 && b.tag[2] == 0x40 && b.ok_bytes && b.stats.holes == 0);
	unlink(path);

	/* Cut in the second range; a header of an unknown version. */
	CHECK(write_file(path, f, len - 10) == 0);
	CHECK(read_all(path, "lime", NULL, &b) == -1 && b.err[0]);
	unlink(path);
	craft_lime(f, 2);
	CHECK(write_file(path, f, len) == 0);
	CHECK(read_all(path, "lime", NULL, &b) == -1 && strstr(b.err, "version 2"));
	unlink(path);
}

/* kdump-compressed, 64-bit little-endian, version 6, 1 KiB blocks: pfn 1
 * stored raw, pfn 2 zlib-compressed, pfn 3 left out by the dump tool
 * (bitmap 1 only), 64 pfns in all. */
static size_t craft_kdump(unsigned char *f, uint64_t max_mapnr)
{
	const size_t bs = PS, desc = 4 * bs, data = 5 * bs;
	unsigned char page[PS];
	uLongf packed = 2 * PS;

	memset(f, 0, 8 * bs);
	memcpy(f, "KDUMP   ", 8);
	put32(f + 8, 6);
	put32(f + 428, (uint32_t)bs); /* block size */
	put32(f + 432, 1);            /* sub-header blocks */
	put32(f + 436, 2);            /* bitmap blocks: two bitmaps of one block */
	put32(f + 440, (uint32_t)max_mapnr);
	put64(f + bs + 96, max_mapnr);
	f[2 * bs] = 1 << 1 | 1 << 2 | 1 << 3; /* bitmap 1: memory */
	f[3 * bs] = 1 << 1 | 1 << 2;          /* bitmap 2: dumped */
	fill(f + data, PS, 50);
	put64(f + desc, data);
	put32(f + desc + 8, PS);
	fill(page, PS, 60);
	CHECK(compress2(f + data + PS, &packed, page, PS, 9) == Z_OK && packed < PS);
	put64(f + desc + 24, data + PS);
	put32(f + desc + 32, (uint32_t)packed);
	put32(f + desc + 36, 1); /* zlib */
	return data + PS + packed;
}

void test_dump_readers_kdump(void)
{
	static unsigned char f[8 * PS + 2 * PS];
	struct read_back b;
	char path[64];
	size_t len = craft_kdump(f, 64);

	CHECK(write_file(path, f, len) == 0);
	CHECK(read_all(path, NULL, NULL, &b) == 0 && strcmp(b.format, "kdump") == 0);
	CHECK(b.n == 2 && b.addr[0] == PS && b.addr[1] == 2 * PS && b.tag[0] == 50 && b.tag[1] == 60 && b.ok_bytes);
	CHECK(b.stats.pages == 2 && b.stats.excluded == 1);
	unlink(path);

	/* A compression it does not read; more pfns than the bitmaps hold. */
	put32(f + 4 * PS + 36, 0x20);
	CHECK(write_file(path, f, len) == 0);
	CHECK(read_all(path, "kdump", NULL, &b) == -1 && strstr(b.err, "zstd"));
	unlink(path);
	craft_kdump(f, 1u << 20);
	CHECK(write_file(path, f, len) == 0);
	CHECK(read_all(path, "kdump", NULL, &b) == -1 && strstr(b.err, path));
	unlink(path);
}

/* The page codec table: each kdump flag finds its codec, two at once or a
 * bit no codec has are unknown; zlib (always built) decodes one block and
 * refuses a stream that gives less; every built decoder refuses bytes that
 * are not its data, with its state given back. */
void test_dump_readers_page_codecs(void)
{
	static const struct {
		uint32_t flags;
		const char *name;
		uint32_t unknown;
	} cases[] = {
		{ 0, NULL, 0 },       { 1, "zlib", 0 },        { 2, "lzo", 0 },   { 4, "snappy", 0 },
		{ 0x20, "zstd", 0 },  { 0x22, "lzo", 0x20 },   { 0x8, NULL, 0x8 }, { 0x41, "zlib", 0x40 },
	};
	unsigned char page[PS], out[PS], packed[2 * PS];
	uLongf packed_len = sizeof(packed);
	uint32_t unknown;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct page_codec *c = page_codec_for_kdump(cases[i].flags, &unknown);
		CHECK(cases[i].name ? c && strcmp(c->name, cases[i].name) == 0 : !c);
		CHECK(unknown == cases[i].unknown);
	}
	for (unsigned i = 0; page_codecs[i]; i++) {
		CHECK(page_codec_index(page_codecs[i]) == i && i < PAGE_CODECS_MAX);
		CHECK(!page_codecs[i]->decode == !page_codecs[i]->version);
	}
	CHECK(page_codec_zlib.decode != NULL);

	fill(page, PS, 70);
	memset(page, 7, PS / 2);
	CHECK(compress2(packed, &packed_len, page, PS, 6) == Z_OK && packed_len < PS);
	void *state = NULL;
	CHECK(page_codec_zlib.decode(&state, packed, (uint32_t)packed_len, out, PS) == 0 && memcmp(out, page, PS) == 0);
	/* the same stream into a block twice the size: short, refused */
	static unsigned char big[2 * PS];
	CHECK(page_codec_zlib.decode(&state, packed, (uint32_t)packed_len, big, 2 * PS) == -1);
	page_codec_zlib.state_free(state);

	memset(packed, 0xff, 64);
	for (unsigned i = 0; page_codecs[i]; i++) {
		const struct page_codec *c = page_codecs[i];
		if (!c->decode)
			continue;
		state = NULL;
		CHECK(c->decode(&state, packed, 64, out, PS) == -1);
		if (c->state_free)
			c->state_free(state);
	}
}

/* Page k of the read-ahead files: its index in the first 8 bytes. */
static void fill_indexed(unsigned char *p, uint64_t k)
{
	put64(p, k);
	for (size_t i = 8; i < PS; i++)
		p[i] = (unsigned char)(i * 7 + k);
}

struct ahead_seg {
	uint64_t paddr, off, pages; /* pages whole in the file */
	int digested;               /* large enough to be read ahead */
};

/* Reads path and checks every page against segs: its address, bytes,
 * locator (file offset where fetchable) and, with a digest asked for, the
 * digest of a read-ahead segment's pages (0 in small ones, and in chunks
 * the thread left to the reader, which is slow here so that few are) and
 * the digest of the page PAGE_DIGEST_AHEAD on. Returns the error, if any,
 * in err. */
static int read_ahead_check(const char *path, const struct ahead_seg *segs, size_t nsegs, int digest, int fetchable,
			    struct kb_err *err)
{
	struct dump_options opts = { 0 };
	struct page_source *src = dump_source_open(path, PS, &opts, err);
	uint64_t k = 0, bad = 0, ahead = 0, chunk_pages = READAHEAD_CHUNK_BYTES / PS;
	struct page pg;
	int rc = 0, chunk_digested = 0;

	if (!src)
		return -1;
	if (digest)
		CHECK(page_source_set_digest(src, stub_digest, (void *)(uintptr_t)3) == 1);
	for (size_t s = 0; s < nsegs; s++)
		for (uint64_t i = 0; i < segs[s].pages; i++, k++) {
			unsigned char want[PS];
			if ((rc = page_source_next(src, &pg, err)) != 1)
				goto out;
			fill_indexed(want, k);
			if (i % chunk_pages == 0) {
				chunk_digested = pg.digest.key != 0;
				if (digest)
					nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
			}
			uint64_t dg = digest && segs[s].digested && chunk_digested ?
					      stub_digest_key((void *)(uintptr_t)3, want) :
					      0;
			bad += pg.addr != segs[s].paddr + i * PS || memcmp(pg.data, want, PS) != 0 ||
			       pg.locator != (fetchable ? segs[s].off + i * PS : PAGE_LOCATOR_NONE) || pg.digest.key != dg ||
			       (dg && pg.digest.sum != stub_digest_sum(dg));
			if (pg.digest_ahead) {
				ahead++;
				fill_indexed(want, k + PAGE_DIGEST_AHEAD);
				bad += !dg || i + PAGE_DIGEST_AHEAD >= segs[s].pages ||
				       pg.digest_ahead != stub_digest_key((void *)(uintptr_t)3, want);
			}
			if (k == 0 && digest) /* too late once a page is out */
				CHECK(page_source_set_digest(src, stub_digest, NULL) == 0);
		}
	rc = page_source_next(src, &pg, err);
	CHECK(rc == 0 && bad == 0 && (ahead > 0) == digest);
out:
	page_source_close(src);
	return rc;
}

static int write_gz(char path[64], const unsigned char *data, size_t len)
{
	strcpy(path, "/tmp/ksmbench-dump-XXXXXX");
	int fd = mkstemp(path);
	gzFile gz = fd >= 0 ? gzdopen(fd, "wb1") : NULL;
	int ok = gz && gzwrite(gz, data, (unsigned)len) == (int)len;

	if (gz)
		ok &= gzclose(gz) == Z_OK;
	else if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Segments of READAHEAD_MIN_BYTES or more are read on the read-ahead
 * thread, which digests their pages; a small one between them is read in
 * line; the thread's ring serves the next large segment again. The same
 * pages through gzip (no locators), a gzip file cut inside a large segment
 * (the error of a read in line), and a LiME range. */
void test_dump_readers_read_ahead(void)
{
	const uint64_t big = READAHEAD_MIN_BYTES / PS;
	const size_t data = 64 + 3 * 56 + 3; /* not page aligned */
	struct ahead_seg segs[3] = {
		{ 0x1000000, data, big + 1000, 1 }, { 0x3000000, 0, 2, 0 }, { 0x4000000, 0, big, 1 },
	};
	const char *nofork = getenv("KSMBENCH_TEST_NO_FORK");
	struct kb_err err;
	char path[64];

	/* Debian 12's qemu-i386 hangs in pthread_create (docs/cross-arch.md). */
	if (nofork && strcmp(nofork, "1") == 0)
		return;
	segs[1].off = segs[0].off + segs[0].pages * PS + 100; /* segment 0 ends in a partial page */
	segs[2].off = segs[1].off + segs[1].pages * PS;
	size_t len = segs[2].off + segs[2].pages * PS;
	unsigned char *f = calloc(1, len);
	CHECK(f != NULL);
	if (!f)
		return;
	put_elf_header(f, 56, 3);
	uint64_t k = 0;
	for (unsigned s = 0; s < 3; s++) {
		unsigned char *p = f + 64 + s * 56;
		uint64_t filesz = segs[s].pages * PS + (s == 0 ? 100 : 0);
		put32(p, 1);
		put64(p + 8, segs[s].off);
		put64(p + 24, segs[s].paddr);
		put64(p + 32, filesz);
		put64(p + 40, filesz);
		for (uint64_t i = 0; i < segs[s].pages; i++)
			fill_indexed(f + segs[s].off + i * PS, k++);
	}
	for (int digest = 0; digest < 2; digest++) {
		CHECK(write_file(path, f, len) == 0);
		CHECK(read_ahead_check(path, segs, 3, digest, 1, &err) == 0);
		unlink(path);
		CHECK(write_gz(path, f, len) == 0);
		CHECK(read_ahead_check(path, segs, 3, digest, 0, &err) == 0);
		unlink(path);
	}
	CHECK(write_gz(path, f, segs[0].off + big / 2 * PS) == 0);
	CHECK(read_ahead_check(path, segs, 3, 1, 0, &err) == -1 && strstr(err.msg, "is truncated: the data of segment 0"));
	unlink(path);

	/* LiME: one range after its 32-byte header. */
	struct ahead_seg range = { 0x100000, 32, big, 1 };
	memset(f, 0, 32);
	put32(f, 0x4C694D45);
	put32(f + 4, 1);
	put64(f + 8, range.paddr);
	put64(f + 16, range.paddr + big * PS - 1);
	for (uint64_t i = 0; i < big; i++)
		fill_indexed(f + 32 + i * PS, i);
	CHECK(write_file(path, f, 32 + big * PS) == 0);
	CHECK(read_ahead_check(path, &range, 1, 1, 1, &err) == 0);
	unlink(path);
	free(f);
}

/* A capture's shape: thousands of one-page segments one after another (the
 * program headers take more than one read, each of 64 bytes here, and the
 * pages are read through a window of many segments); after segment 999 an
 * 8-byte gap puts the rest off the window's 64-byte grid, and the window is
 * read again from segment 1000. Every page's address, bytes, locator and
 * alignment (64 bytes, as a read of its own gives), in order. */
void test_dump_readers_many_segments(void)
{
	const uint32_t nsegs = 1500, phentsize = 64;
	const size_t data = 64 + (size_t)nsegs * phentsize;
	size_t len = data + nsegs * PS + 8;
	unsigned char *f = calloc(1, len);
	struct dump_options opts = { 0 };
	struct kb_err err;
	struct page pg;
	char path[64];

	CHECK(f != NULL);
	if (!f)
		return;
	put_elf_header(f, (uint16_t)phentsize, (uint16_t)nsegs);
	for (uint32_t s = 0; s < nsegs; s++) {
		unsigned char *p = f + 64 + (size_t)s * phentsize;
		uint64_t off = data + (uint64_t)s * PS + (s >= 1000 ? 8 : 0); /* 8 bytes between 999 and 1000 */
		put32(p, 1);
		put64(p + 8, off);
		put64(p + 16, 0x400000 + (uint64_t)s * 2 * PS); /* p_vaddr: a hole between segments */
		put64(p + 32, PS);
		put64(p + 40, PS);
		fill_indexed(f + off, s);
	}
	CHECK(write_file(path, f, len) == 0);
	struct page_source *src = dump_source_open(path, PS, &opts, &err);
	CHECK(src != NULL);
	uint32_t n = 0, bad = 0;
	int rc = -1;
	while (src && (rc = page_source_next(src, &pg, &err)) == 1) {
		unsigned char want[PS];
		fill_indexed(want, n);
		bad += pg.addr != 0x400000 + (uint64_t)n * 2 * PS || memcmp(pg.data, want, PS) != 0 ||
		       pg.locator != data + (uint64_t)n * PS + (n >= 1000 ? 8 : 0) || (uintptr_t)pg.data % 64;
		n++;
	}
	CHECK(rc == 0 && n == nsegs && bad == 0);
	if (src)
		page_source_close(src);
	unlink(path);
	free(f);
}
