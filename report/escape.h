/* Printing strings that come from outside (a results document read back, a
 * CPU's brand string, a file name) into a target that gives some characters
 * a meaning: a terminal (control sequences), Markdown (markup), XML (markup,
 * and characters it cannot hold at all). Every renderer that prints such a
 * string goes through here; what the program writes itself does not.
 *
 * For every target, what could control or spoof a display is made visible
 * instead: C0 controls (tab and newline included), DEL, C1 controls,
 * Unicode's line separators, bidirectional overrides and noncharacters, and
 * bytes that are not UTF-8, as \xHH (a byte) or \uHHHH (a character).
 * Markdown also gets its markup characters backslash-escaped (a leading #
 * too); XML gets &, <, >, " and ' as entities (text and attributes alike).
 * The markers of GitHub Actions' workflow commands, which its runner obeys
 * in a step's output ("::" at a line's start, "##[" anywhere), are broken
 * by escaping their first character in every target, JSON's included. */
#ifndef KB_ESCAPE_H
#define KB_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

enum escape_target {
	ESCAPE_TERM,     /* a terminal, or text that may be shown on one */
	ESCAPE_MARKDOWN, /* GitHub-flavoured Markdown, a table cell or a line */
	ESCAPE_XML,      /* XML (SVG) character data and attribute values */
};

/* Writes s (NULL: nothing) escaped for target; -1 on a write error. */
int escape_put(FILE *out, const char *s, enum escape_target target);

/* JSON text as cJSON printed it, each byte that is not UTF-8 (from a file
 * name: cJSON passes them on) written as \\xHH, which a JSON reader takes
 * as the text \xHH, as the other formats show it, and the '#' that starts
 * "##[" as \u0023 (the same character to a reader); -1 on a write error. */
int escape_put_json(FILE *out, const char *json);

/* s escaped into buf (always terminated; cut before an escape that does not
 * fit); returns buf. */
const char *escape_str(const char *s, enum escape_target target, char *buf, size_t size);

/* The number of characters escape_put writes for s: the columns it takes
 * (a UTF-8 sequence counts one). */
size_t escape_width(const char *s, enum escape_target target);

#endif
