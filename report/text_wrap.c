/* Wrapping lines to a terminal's width (see text_wrap.h), and the width a
 * document's tables are fitted to. Widths count bytes: ksmbench's own text
 * is ASCII but for "±", which counts one column too many here (the lines
 * come out at most one column short). */
#include "text_wrap.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

unsigned report_columns(const struct report_document *doc)
{
	if (doc->wide)
		return 0;
	return doc->columns ? doc->columns : REPORT_COLUMNS_DEFAULT;
}

static int utf8_continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

size_t report_utf8_floor(const char *s, size_t n)
{
	while (n > 0 && utf8_continuation(s[n]))
		n--;
	return n;
}

void report_cut_middle(char *s, size_t width)
{
	size_t len = strlen(s);

	if (len <= width || width < 5)
		return;
	size_t head = report_utf8_floor(s, (width - 3) / 3), tail = len - (width - 3 - (width - 3) / 3);
	while (tail < len && utf8_continuation(s[tail]))
		tail++;
	memcpy(s + head, "...", 3);
	memmove(s + head + 3, s + tail, len - tail + 1);
}

/* Where the line of text starting at s, with room for room bytes, ends:
 * the last space within room, or the first after it for a longer word. */
static size_t line_end(const char *s, size_t room)
{
	size_t len = strlen(s), cut = 0;

	if (len <= room)
		return len;
	for (size_t i = 1; i <= room; i++)
		if (s[i] == ' ')
			cut = i;
	if (cut)
		return cut;
	const char *space = strchr(s, ' ');
	return space ? (size_t)(space - s) : len;
}

int report_wrapped(FILE *out, const char *prefix, const char *text, unsigned width)
{
	size_t lead = strlen(prefix);
	int first = 1;

	if (width == 0 || lead + strlen(text) <= width)
		return fprintf(out, "%s%s\n", prefix, text) < 0 ? -1 : 0;
	while (*text) {
		size_t indent = first ? lead : REPORT_WRAP_INDENT;
		size_t room = width > indent + 1 ? width - indent : 1;
		size_t n = line_end(text, room);
		fprintf(out, "%*s%.*s\n", first ? 0 : (int)indent, first ? prefix : "", (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
		first = 0;
	}
	return ferror(out) ? -1 : 0;
}

int report_wrappedf(FILE *out, unsigned width, const char *prefix, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	int n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	int rc = report_wrapped(out, prefix, text, width);
	free(text);
	return rc;
}
