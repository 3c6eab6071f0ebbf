/* Parsing of plain decimal numbers given on the command line or in the
 * environment ("5", "2.5", "1e1", "18.6"). */
#ifndef KB_DECIMAL_PARSE_H
#define KB_DECIMAL_PARSE_H

/* 0 and *out set when text is a plain decimal number from lo to hi (with a
 * trailing '%' when percent_ok), else -1. */
int kb_parse_decimal(const char *text, int percent_ok, double lo, double hi, double *out);

#endif
