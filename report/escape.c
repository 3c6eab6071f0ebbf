/* Escaping foreign strings for a terminal, Markdown or XML (see escape.h). */
#include "escape.h"

#include <string.h>

#define PIECE_MAX 8 /* the longest escape: "\u202e", "&quot;" */

/* The code point s starts with, *len its bytes; -1 (and *len 1) when s does
 * not start a well-formed UTF-8 sequence: a stray continuation byte, a cut
 * sequence, an overlong form, a surrogate or a value past U+10FFFF. */
static long utf8_decode(const unsigned char *s, int *len)
{
	static const long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	long cp;
	int n;

	*len = 1;
	if (s[0] < 0x80)
		return s[0];
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return -1;
	/* The terminating NUL is no continuation byte: a cut sequence stops here. */
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = n;
	return cp;
}

/* Characters that control a terminal, break a line or reorder what is
 * shown (Trojan Source's bidirectional overrides), and noncharacters. */
static int shown_as_code(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfffe || cp == 0xffff;
}

/* s starts the marker of a GitHub Actions workflow command: "##[", which
 * the runner obeys anywhere in a line of a step's output, or (any_place
 * 0) "::" too, which it obeys at the start of a line after white space.
 * A string does not know where its line starts (a table's first column, a
 * line wrapped), so the first character of either is escaped wherever it is. */
static int starts_command(const unsigned char *s, int any_place)
{
	return (s[0] == '#' && s[1] == '#' && s[2] == '[') || (!any_place && s[0] == ':' && s[1] == ':');
}

/* cp is one of set's ASCII characters. */
static int ascii_in(long cp, const char *set)
{
	return cp > 0 && cp < 0x80 && strchr(set, (int)cp);
}

/* The escaped form of the character at s into piece; returns its length,
 * with the bytes of s it stands for in *used and its columns in *cols.
 * first: s is the start of the string (a Markdown heading starts there). */
static size_t next_piece(const unsigned char *s, enum escape_target target, int first, char piece[PIECE_MAX],
			 size_t *used, size_t *cols)
{
	int len;
	long cp = utf8_decode(s, &len);
	size_t n;

	*used = (size_t)len;
	if (cp < 0)
		n = (size_t)snprintf(piece, PIECE_MAX, "\\x%02x", s[0]);
	else if (shown_as_code(cp) || (target == ESCAPE_TERM && starts_command(s, 0)))
		n = (size_t)snprintf(piece, PIECE_MAX, cp < 0x80 ? "\\x%02lx" : "\\u%04lx", cp);
	else if (target == ESCAPE_XML && starts_command(s, 0))
		n = (size_t)snprintf(piece, PIECE_MAX, "&#%ld;", cp);
	else if (target == ESCAPE_XML && ascii_in(cp, "&<>\"'"))
		n = (size_t)snprintf(piece, PIECE_MAX, "%s",
				     cp == '&' ? "&amp;" : cp == '<' ? "&lt;" : cp == '>' ? "&gt;" : cp == '"' ? "&quot;"
														: "&#39;");
	else if (target == ESCAPE_MARKDOWN && (ascii_in(cp, "\\`*_[]<>|~&$") || (first && cp == '#') ||
					       starts_command(s, 0)))
		n = (size_t)snprintf(piece, PIECE_MAX, "\\%c", (int)cp);
	else {
		memcpy(piece, s, (size_t)len);
		piece[len] = '\0';
		*cols = 1;
		return (size_t)len;
	}
	*cols = n;
	return n;
}

int escape_put(FILE *out, const char *s, enum escape_target target)
{
	const unsigned char *p = (const unsigned char *)s;
	char piece[PIECE_MAX];
	size_t used, cols;

	for (; p && *p; p += used) {
		size_t n = next_piece(p, target, p == (const unsigned char *)s, piece, &used, &cols);
		if (fwrite(piece, 1, n, out) != n)
			return -1;
	}
	return 0;
}

int escape_put_json(FILE *out, const char *json)
{
	const unsigned char *p = (const unsigned char *)json;
	int len;

	for (;;) {
		const unsigned char *run = p;
		while (*p && utf8_decode(p, &len) >= 0 && !starts_command(p, 1))
			p += len;
		if (p > run && fwrite(run, 1, (size_t)(p - run), out) != (size_t)(p - run))
			return -1;
		if (!*p)
			return 0;
		/* cJSON writes no '#' outside a string, nor a line that starts
		 * in one: "##[" is within a string, its '#' escaped as JSON reads
		 * it back, the same character. */
		if (starts_command(p, 1) ? fprintf(out, "\\u%04x", *p++) < 0 : fprintf(out, "\\\\x%02x", *p++) < 0)
			return -1;
	}
}

const char *escape_str(const char *s, enum escape_target target, char *buf, size_t size)
{
	const unsigned char *p = (const unsigned char *)s;
	char piece[PIECE_MAX];
	size_t used, cols, len = 0;

	if (size == 0)
		return buf;
	for (; p && *p; p += used) {
		size_t n = next_piece(p, target, p == (const unsigned char *)s, piece, &used, &cols);
		if (len + n >= size)
			break;
		memcpy(buf + len, piece, n);
		len += n;
	}
	buf[len] = '\0';
	return buf;
}

size_t escape_width(const char *s, enum escape_target target)
{
	const unsigned char *p = (const unsigned char *)s;
	char piece[PIECE_MAX];
	size_t used, cols, width = 0;

	for (; p && *p; p += used) {
		next_piece(p, target, p == (const unsigned char *)s, piece, &used, &cols);
		width += cols;
	}
	return width;
}
