/* Plain decimal numbers (see decimal_parse.h). */
#include "decimal_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* strtod alone also takes hex (0x10 as 16), a leading blank or sign (-0
 * shown as "-0%"), inf and nan, and turns a value too small to hold
 * (1e-400) into 0 without a word. */
int kb_parse_decimal(const char *text, int percent_ok, double lo, double hi, double *out)
{
	char *end;

	if (!isdigit((unsigned char)text[0]) && text[0] != '.')
		return -1;
	if (strpbrk(text, "xX"))
		return -1;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || errno == ERANGE)
		return -1;
	if (percent_ok && *end == '%')
		end++;
	if (*end != '\0' || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}
