/* Unit tests: the pieces under the dump readers: how a segment's pages are
 * counted, the checked reads, parked streams, the LiME range parser,
 * byte-order fields. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../datasets/lime.h"
#include "../../datasets/segment_pager.h"
#include "../../datasets/stream.h"
#include "check.h"
#include "groups.h"

static void count(uint64_t file_len, uint64_t mem_len, uint64_t skip, struct page_stats *st,
		  uint64_t *yield, uint64_t *first_addr)
{
	struct segment_pager p;
	struct kb_err err;

	memset(st, 0, sizeof(*st));
	segment_pager_init(&p, NULL, 64, &err);
	segment_pager_begin(&p, st, 0x1000, 0, file_len, mem_len, skip, "test");
	*yield = p.remaining;
	*first_addr = p.addr;
	segment_pager_free(&p);
}

void test_segment_pager(void)
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

void test_stream_checks(void)
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

void test_lime_ranges(void)
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

void test_lime_range_files(void)
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
void test_stream_park(void)
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
