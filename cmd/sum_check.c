/* ksmbench sum --check: verifies lists that sum wrote, as xxhsum -c does.
 * A list may mix three kinds of lines:
 *   HEX  FILE              the whole file, hashed with -H;
 *   TAG (FILE) = HEX       the whole file, hashed with the tag's hash;
 *   FILE:PAGE HEX [0xADDR] one page (--per-page), hashed with -H, or
 *                          with --ksm its KSM digest, at --page-size.
 * Consecutive page lines of one file are checked in one pass over it, to
 * its end, so their pages must be listed in ascending order (as sum writes
 * them); the lines sum adds after a file's pages (what it did not hash) are
 * skipped. A line whose name holds a backslash, a newline or a carriage
 * return starts with a backslash, as GNU's sha256sum writes it (sum_name.c).
 * A line is at most SUM_LIST_LINE_MAX bytes and holds no NUL byte: a list
 * sum wrote is far below that, and the limit keeps /dev/zero, or a pipe fed
 * by yes, from growing one line until memory runs out. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/plural.h"
#include "../common/quote.h"
#include "cli.h"
#include "sum.h"

#define SUM_LIST_LINE_MAX (64u << 10)

enum line_kind { LINE_SKIP, LINE_WHOLE, LINE_PAGE, LINE_BAD };

struct check_line {
	enum line_kind kind;
	const struct hash_impl *h; /* LINE_WHOLE: the hash to use */
	char *name;                /* the file, NUL-terminated inside the line */
	const char *hex;
	size_t hex_len;
	uint64_t index, addr;
	int has_addr;
	const char *why; /* LINE_BAD */
	char why_buf[160];
};

/* The file whose page lines are being checked. */
struct page_group {
	char *name;
	struct page_source *src;
	int unreadable;
	int ended;               /* the source has yielded its last page */
	uint64_t lines, failed;
	int have;                /* page_index / page_hex hold the last page read */
	uint64_t page_index, page_addr;
	char page_hex[HASH_HEX_MAX];
};

struct check_run {
	const struct sum_options *o;
	const char *list;
	uint64_t line_no, checked, failed, unreadable;
	struct page_group g;
};

static size_t hex_run(const char *p)
{
	size_t n = 0;

	while (isxdigit((unsigned char)p[n]))
		n++;
	return n;
}

/* "TAG (FILE) = HEX": 1 and out filled, 0 when the line is not one. */
static int parse_tagged(char *line, struct check_line *out)
{
	char *open = strstr(line, " (");
	char *close = NULL;

	if (!open || open == line)
		return 0;
	for (const char *t = line; t < open; t++)
		if (!isalnum((unsigned char)*t) && *t != '-' && *t != '_')
			return 0;
	for (char *p = strstr(open, ") = "); p; p = strstr(p + 1, ") = "))
		close = p;
	if (!close || close < open + 2 || hex_run(close + 4) == 0 || close[4 + hex_run(close + 4)] != '\0')
		return 0;
	out->h = sum_hash_of_tag(line, (size_t)(open - line));
	out->kind = out->h ? LINE_WHOLE : LINE_BAD;
	out->why = "a tag that names no hash (ksmbench sum --help lists the tags)";
	if (out->h && hash_unavailable_reason(out->h, out->why_buf, sizeof(out->why_buf))) {
		char why[sizeof(out->why_buf)];
		snprintf(why, sizeof(why), "%s", out->why_buf);
		snprintf(out->why_buf, sizeof(out->why_buf), "a tag naming %s, which is not available here (%.100s)",
			 out->h->name, why);
		out->kind = LINE_BAD;
		out->why = out->why_buf;
	}
	*close = '\0';
	out->name = open + 2;
	out->hex = close + 4;
	out->hex_len = hex_run(out->hex);
	return 1;
}

/* "FILE:PAGE HEX [0xADDR]": 1 and out filled, 0 when the line is not one. */
static int parse_page(char *line, struct check_line *out)
{
	char *sp = strrchr(line, ' ');

	if (!sp)
		return 0;
	if (strncmp(sp + 1, "0x", 2) == 0) {
		char *end;
		errno = 0;
		out->addr = strtoull(sp + 3, &end, 16);
		if (errno || end == sp + 3 || *end)
			return 0;
		out->has_addr = 1;
		*sp = '\0';
		if (!(sp = strrchr(line, ' ')))
			return 0;
	}
	size_t n = hex_run(sp + 1);
	char *colon = memrchr(line, ':', (size_t)(sp - line));
	if (n == 0 || sp[1 + n] != '\0' || !colon || colon == line || colon + 1 == sp)
		return 0;
	for (const char *d = colon + 1; d < sp; d++)
		if (!isdigit((unsigned char)*d))
			return 0;
	errno = 0;
	out->index = strtoull(colon + 1, NULL, 10);
	if (errno == ERANGE) { /* taken as ULLONG_MAX, it was checked and reported as that page */
		out->kind = LINE_BAD;
		out->why = "a page index past 2^64";
		return 1;
	}
	out->hex = sp + 1;
	out->hex_len = n;
	*colon = '\0';
	out->name = line;
	out->kind = LINE_PAGE;
	return 1;
}

/* What sum --per-page prints after a file's pages. */
static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* print_page_summary's lines, one page or byte as well as many (a dump of
 * one page, a file one byte past a page). */
static int is_page_summary(const char *line)
{
	return strstr(line, " page hashed; not hashed: ") || strstr(line, " pages hashed; not hashed: ") ||
	       (strstr(line, " partial page of ") &&
		(ends_with(line, " byte, not hashed") || ends_with(line, " bytes, not hashed")));
}

static void parse_line(char *line, const struct sum_options *o, struct check_line *out)
{
	int escaped = line[0] == '\\';
	size_t hex = hex_run(line += escaped);

	memset(out, 0, sizeof(*out));
	out->kind = LINE_BAD;
	out->why = "no checksum line: expected 'HEX  FILE', 'TAG (FILE) = HEX' or 'FILE:PAGE HEX [0xADDR]'";
	if (line[0] == '\0' && !escaped) {
		out->kind = LINE_SKIP;
	} else if (hex && (strncmp(line + hex, "  ", 2) == 0 || strncmp(line + hex, " *", 2) == 0) && line[hex + 2]) {
		out->kind = LINE_WHOLE;
		out->h = o->h;
		out->hex = line;
		out->hex_len = hex;
		out->name = line + hex + 2;
	} else if (parse_tagged(line, out) || parse_page(line, out)) {
		/* filled in */
	} else if (is_page_summary(line)) {
		out->kind = LINE_SKIP;
	}
	if (out->kind != LINE_WHOLE && out->kind != LINE_PAGE)
		return;
	if (escaped && sum_name_unescape(out->name)) {
		out->kind = LINE_BAD;
		out->why = "a backslash in an escaped name that is not \\\\, \\n or \\r";
		return;
	}
	unsigned bits = out->kind == LINE_PAGE && o->ksm ? 32 : hash_resolve(out->kind == LINE_PAGE ? o->h : out->h)->bits;
	if (out->hex_len != bits / 4) {
		int page = out->kind == LINE_PAGE;
		snprintf(out->why_buf, sizeof(out->why_buf), "a checksum of %zu hex digits where %s%s gives %u (%s)",
			 out->hex_len, page && o->ksm ? "the KSM digest of " : "",
			 (page ? o->h : out->h)->name, bits / 4,
			 page && !o->ksm && out->hex_len == 8 ? "written with --ksm? then check with --ksm"
							      : "give the hash that wrote it with -H");
		out->kind = LINE_BAD;
		out->why = out->why_buf;
	}
}

static int hex_equal(const char *a, const char *b, size_t len)
{
	return strlen(b) == len && strncasecmp(a, b, len) == 0;
}

static void verdict(const struct check_run *r, const char *name, const char *what)
{
	int ok = strcmp(what, "OK") == 0;

	if (!r->o->status && !(ok && r->o->quiet)) {
		if (sum_name_escaped(name))
			putchar('\\');
		sum_name_put(name);
		printf(": %s\n", what);
	}
}

static void check_whole(struct check_run *r, const struct check_line *l)
{
	char hex[HASH_HEX_MAX];
	struct kb_err err;

	if (sum_file_digest(l->h, l->name, hex, &err)) {
		if (!r->o->status)
			cli_fail("sum", &err);
		verdict(r, l->name, "FAILED open or read");
		r->unreadable++;
		return;
	}
	r->checked++;
	int ok = hex_equal(l->hex, hex, l->hex_len);
	r->failed += !ok;
	verdict(r, l->name, ok ? "OK" : "FAILED");
}

static void group_unreadable(struct check_run *r, const struct kb_err *err)
{
	if (!r->o->status)
		cli_fail("sum", err);
	verdict(r, r->g.name, "FAILED open or read");
	r->g.unreadable = 1;
	r->unreadable++;
}

/* The group's verdict, once its file is read to the end (to_end): a reader
 * checks what lies past the last page, such as a gzip member's trailer, only
 * when it reaches its end, and the list's last page may come before that. */
static void group_end(struct check_run *r, int to_end)
{
	struct page_group *g = &r->g;
	struct kb_err err;
	struct page pg;

	while (to_end && g->src && !g->unreadable && !g->ended) {
		int rc = page_source_next(g->src, &pg, &err);
		if (rc < 0)
			group_unreadable(r, &err);
		g->ended = rc == 0;
	}
	if (g->name && !g->unreadable)
		verdict(r, g->name, g->failed ? "FAILED" : "OK");
	page_source_close(g->src);
	free(g->name);
	memset(g, 0, sizeof(*g));
}

/* Reads the group's pages up to index: 1 (the page is there), 0 (the file
 * has no such page), -1 (unreadable, reported). */
static int group_seek(struct check_run *r, uint64_t index)
{
	struct page_group *g = &r->g;
	struct kb_err err;
	struct page pg;

	while (!g->have || g->page_index < index) {
		int rc = page_source_next(g->src, &pg, &err);
		if (rc < 0) {
			group_unreadable(r, &err);
			return -1;
		}
		if (rc == 0) {
			g->ended = 1;
			return 0;
		}
		g->have = 1;
		g->page_index = pg.index;
		g->page_addr = pg.addr;
		sum_page_hex(r->o, pg.data, g->page_hex);
	}
	return g->page_index == index;
}

/* One page line: 0, or 2 when the list is out of order. */
static int check_page(struct check_run *r, const struct check_line *l)
{
	struct page_group *g = &r->g;
	struct kb_err err;

	if (!g->name || strcmp(g->name, l->name) != 0) {
		group_end(r, 1);
		if (!(g->name = strdup(l->name)))
			return cli_error("sum", "out of memory");
		if (!(g->src = dump_source_open(l->name, r->o->page_size, &r->o->dump, &err)))
			group_unreadable(r, &err);
	}
	if (g->unreadable)
		return 0;
	if (g->lines++ && g->have && l->index <= g->page_index)
		return cli_error("sum", "%s:%llu: the pages of '%s' are not listed in ascending order", r->list,
				 (unsigned long long)r->line_no, l->name);
	int found = group_seek(r, l->index);
	if (found < 0)
		return 0;
	int ok = found && hex_equal(l->hex, g->page_hex, l->hex_len) && (!l->has_addr || l->addr == g->page_addr);
	r->checked++;
	if (!ok) {
		r->failed++;
		g->failed++;
		if (!r->o->status) {
			if (sum_name_escaped(l->name))
				putchar('\\');
			sum_name_put(l->name);
			printf(":%llu: FAILED%s\n", (unsigned long long)l->index, found ? "" : " (no such page)");
		}
	}
	return 0;
}

/* One line of f into line (SUM_LIST_LINE_MAX + 1 bytes), without its end
 * of line: its length, -1 at the end of f or on a read error, -2 when it is
 * too long, -3 when it holds a NUL byte. */
static long read_line(FILE *f, char *line)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0')
			return -3;
		if (n == SUM_LIST_LINE_MAX)
			return -2;
		line[n++] = (char)c;
	}
	line[n] = '\0';
	return c == EOF && n == 0 ? -1 : (long)n;
}

static int check_list(struct check_run *r, FILE *f)
{
	char *line = malloc(SUM_LIST_LINE_MAX + 1), q[KB_QUOTE_SIZE];
	long n;
	struct check_line l;
	int rc = line ? 0 : cli_error("sum", "out of memory");

	while (rc == 0 && (n = read_line(f, line)) != -1) {
		r->line_no++;
		if (n < -1) {
			rc = cli_error("sum", "%s:%llu: %s: not a list that sum wrote", r->list,
				       (unsigned long long)r->line_no,
				       n == -2 ? "a line longer than 64 KiB" : "a NUL byte");
			break;
		}
		while (n > 0 && line[n - 1] == '\r')
			line[--n] = '\0';
		parse_line(line, r->o, &l);
		if (l.kind == LINE_BAD)
			rc = cli_error("sum", "%s:%llu: %s", r->list, (unsigned long long)r->line_no, l.why);
		else if (l.kind == LINE_PAGE)
			rc = check_page(r, &l);
		else if (l.kind == LINE_WHOLE) {
			group_end(r, 1);
			check_whole(r, &l);
		}
	}
	if (rc == 0 && ferror(f))
		rc = cli_error("sum", "cannot read '%s': %s", kb_quote(r->list, q), strerror(errno));
	group_end(r, rc == 0);
	free(line);
	return rc;
}

int sum_check_lists(const struct sum_options *o, char **lists, int nlists)
{
	struct check_run r = { .o = o };
	char q[KB_QUOTE_SIZE];

	for (int i = 0; i < nlists; i++) {
		int is_stdin = strcmp(lists[i], "-") == 0;
		FILE *f = is_stdin ? stdin : fopen(lists[i], "r");
		if (!f)
			return cli_error("sum", "cannot open '%s': %s", kb_quote(lists[i], q), strerror(errno));
		r.list = is_stdin ? "standard input" : lists[i];
		r.line_no = 0;
		uint64_t before = r.checked + r.unreadable;
		int rc = check_list(&r, f);
		if (!is_stdin)
			fclose(f);
		if (rc)
			return rc;
		if (r.checked + r.unreadable == before)
			return cli_error("sum", "%s: no checksum lines found", r.list);
	}
	if (!o->status && r.failed)
		fprintf(stderr, "ksmbench sum: WARNING: %llu computed checksum%s did NOT match\n",
			(unsigned long long)r.failed, kb_s(r.failed));
	if (!o->status && r.unreadable)
		fprintf(stderr, "ksmbench sum: WARNING: %llu listed file%s could not be read\n",
			(unsigned long long)r.unreadable, kb_s(r.unreadable));
	return r.failed || r.unreadable ? KB_EXIT_FAIL : KB_EXIT_OK;
}
