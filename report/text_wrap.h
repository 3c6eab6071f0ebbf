/* Text that fits a terminal (text_wrap.c): lines wrapped at spaces to a
 * width, continuation lines indented, so that warnings, notes and verdicts
 * stay readable in 100 columns (or COLUMNS on a terminal). */
#ifndef KB_TEXT_WRAP_H
#define KB_TEXT_WRAP_H

#include <stdio.h>

#define REPORT_WRAP_INDENT 2u /* continuation lines start this many spaces in */

/* Writes prefix and text as one line, or as several of at most width
 * characters (0: no limit) broken at spaces (a word longer than a line is
 * left whole); each ends with a newline. -1 on a write error. */
int report_wrapped(FILE *out, const char *prefix, const char *text, unsigned width);

/* The largest cut point <= n in s that is not inside a UTF-8 sequence. */
size_t report_utf8_floor(const char *s, size_t n);

/* Cuts the middle out of s when it is longer than width bytes (width 5 or
 * more), marking the cut with "...": a third of the room keeps the start,
 * the rest the end (a path keeps its file name). Never inside a UTF-8
 * sequence. */
void report_cut_middle(char *s, size_t width);

/* printf-style report_wrapped. */
int report_wrappedf(FILE *out, unsigned width, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
