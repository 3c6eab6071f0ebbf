/* The range lists of lime-raw and lime-padded files (see lime.h): the
 * command-line form and range files, plain or /proc/iomem copies. A range
 * file is read whole but bounded (LIME_RANGE_FILE_MAX), so that /dev/zero
 * or an endless pipe fails at once instead of being read forever. */
#include "lime.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/grow.h"
#include "file_input.h"

struct range_list {
	struct lime_range *v;
	size_t n, cap;
};

static int list_push(struct range_list *l, struct lime_range r, struct kb_err *err)
{
	if (l->n == LIME_RANGES_MAX)
		return kb_fail(err, "more than %u ranges", LIME_RANGES_MAX);
	struct lime_range *v = kb_grow(l->v, &l->cap, l->n + 1, sizeof(*v), 16);
	if (!v)
		return kb_fail(err, "out of memory for ranges");
	l->v = v;
	l->v[l->n++] = r;
	return 0;
}

/* Up to 40 bytes of the text for a message, control bytes shown as '?'
 * so that a hostile file cannot write escape sequences to the terminal. */
static const char *excerpt(char out[48], const char *p, const char *end)
{
	size_t n = 0;

	for (; p < end && n < 40; p++)
		out[n++] = isprint((unsigned char)*p) ? *p : '?';
	out[n] = '\0';
	return out;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* A hexadecimal number at *p (0x optional), at most 64 bits: 0 or -1. */
static int parse_hex(const char **p, const char *end, uint64_t *out)
{
	const char *s = skip_blanks(*p, end);
	uint64_t v = 0;
	int digits = 0;

	if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; s < end && isxdigit((unsigned char)*s); s++, digits++) {
		if (v >> 60)
			return -1;
		int d = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
		v = v << 4 | (uint64_t)d;
	}
	*p = s;
	*out = v;
	return digits ? 0 : -1;
}

/* START-END at *p, leaving *p after END (blanks skipped): 0 or -1. */
static int parse_range(const char **p, const char *end, struct lime_range *r)
{
	if (parse_hex(p, end, &r->start))
		return -1;
	*p = skip_blanks(*p, end);
	if (*p == end || **p != '-')
		return -1;
	(*p)++;
	if (parse_hex(p, end, &r->end))
		return -1;
	*p = skip_blanks(*p, end);
	return 0;
}

static int check_range(const struct lime_range *r, const char *text, const char *end, struct kb_err *err)
{
	char shown[48];

	if (r->end < r->start)
		return kb_fail(err, "bad range '%s': the end is before the start", excerpt(shown, text, end));
	if (r->start == 0 && r->end == UINT64_MAX)
		return kb_fail(err, "bad range '%s': covers the whole 64-bit space", excerpt(shown, text, end));
	return 0;
}

/* "START-END,START-END": nothing else between the commas. */
static int parse_list(const char *spec, struct range_list *l, struct kb_err *err)
{
	const char *end = spec + strlen(spec);
	char shown[48];

	for (const char *p = spec; p <= end; p++) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		struct lime_range r;
		const char *q = p;
		if (skip_blanks(p, stop) == stop)
			return kb_fail(err, "empty range in '%s'", excerpt(shown, spec, end));
		if (parse_range(&q, stop, &r) || q != stop)
			return kb_fail(err, "bad range '%s': expected START-END in hexadecimal (END inclusive)",
				       excerpt(shown, p, stop));
		if (check_range(&r, p, stop, err) || list_push(l, r, err))
			return -1;
		p = stop;
	}
	return 0;
}

/* One line of a range file: a plain range, or a /proc/iomem line
 * "START-END : NAME" of which only the top-level System RAM counts. */
static int parse_line(const char *p, const char *eol, const char *name, size_t line_no,
		      struct range_list *l, size_t *iomem_lines, size_t *iomem_zero, struct kb_err *err)
{
	while (eol > p && (eol[-1] == ' ' || eol[-1] == '\t' || eol[-1] == '\r'))
		eol--;
	const char *text = skip_blanks(p, eol), *q = text;
	int indented = text != p;
	struct lime_range r;
	char shown[48];

	if (q == eol || *q == '#')
		return 0;
	if (parse_range(&q, eol, &r) || (q != eol && *q != ':'))
		return kb_fail(err, "range file '%s' line %zu: expected START-END in hexadecimal or a "
				    "/proc/iomem line, not '%s'", name, line_no, excerpt(shown, text, eol));
	if (q != eol) {
		const char *what = skip_blanks(q + 1, eol);
		++*iomem_lines;
		*iomem_zero += r.start == 0 && r.end == 0;
		if (indented || (size_t)(eol - what) != strlen("System RAM") ||
		    memcmp(what, "System RAM", strlen("System RAM")) != 0)
			return 0;
	}
	if (check_range(&r, text, eol, err))
		return -1;
	return list_push(l, r, err);
}

int lime_parse_range_text(const char *text, size_t len, const char *name, struct lime_range **out,
			  size_t *count, struct kb_err *err)
{
	struct range_list l = { 0 };
	size_t iomem_lines = 0, iomem_zero = 0, line_no = 0;
	const char *end = text + len;
	int rc = 0;

	*out = NULL;
	*count = 0;
	for (const char *p = text; rc == 0 && p < end; ) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		rc = parse_line(p, eol, name, ++line_no, &l, &iomem_lines, &iomem_zero, err);
		p = nl ? nl + 1 : end;
	}
	/* Without CAP_SYS_ADMIN the kernel shows every /proc/iomem range as
	 * 0-0: such a copy has lost the addresses it was made for. */
	if (rc == 0 && iomem_lines && iomem_zero == iomem_lines)
		rc = kb_fail(err, "range file '%s' lists every /proc/iomem range as 0-0: the kernel hides "
				  "the addresses from users without CAP_SYS_ADMIN; copy it as root "
				  "(sudo cat /proc/iomem > FILE)", name);
	if (rc == 0 && l.n == 0)
		rc = kb_fail(err, "range file '%s' holds no range (nor a top-level System RAM line)", name);
	if (rc) {
		free(l.v);
		return -1;
	}
	*out = l.v;
	*count = l.n;
	return (int)l.n;
}

/* At most LIME_RANGE_FILE_MAX bytes of text, no NUL byte. */
static int parse_range_file(const char *path, struct lime_range **out, size_t *count, struct kb_err *err)
{
	struct kb_err open_err;
	int fd = file_input_open(path, &open_err);
	char *buf;

	if (fd < 0)
		return kb_fail(err, "range file: %s", open_err.msg);
	if (!(buf = malloc(LIME_RANGE_FILE_MAX + 1))) {
		close(fd);
		return kb_fail(err, "out of memory reading range file '%s'", path);
	}
	ssize_t n = file_input_read_full(fd, buf, LIME_RANGE_FILE_MAX + 1, path, err);
	close(fd);
	int rc = -1;
	const char *nul = n > 0 ? memchr(buf, '\0', (size_t)n) : NULL;
	if (nul)
		kb_fail(err, "range file '%s' holds a NUL byte at offset %zu: not a text range list", path,
			(size_t)(nul - buf));
	else if (n > (ssize_t)LIME_RANGE_FILE_MAX)
		kb_fail(err, "range file '%s' is larger than %u bytes, the limit for a range list", path,
			LIME_RANGE_FILE_MAX);
	else if (n >= 0)
		rc = lime_parse_range_text(buf, (size_t)n, path, out, count, err);
	free(buf);
	return rc;
}

int lime_parse_ranges(const char *spec, struct lime_range **out, size_t *count, struct kb_err *err)
{
	struct range_list l = { 0 };

	*out = NULL;
	*count = 0;
	if (spec[0] == '@')
		return parse_range_file(spec + 1, out, count, err);
	if (*skip_blanks(spec, spec + strlen(spec)) == '\0')
		return kb_fail(err, "no ranges in '%s'", spec);
	if (parse_list(spec, &l, err)) {
		free(l.v);
		return -1;
	}
	*out = l.v;
	*count = l.n;
	return (int)l.n;
}
