/* Lines read whole or cut, never split (see line_read.h). */
#include "line_read.h"

#include <limits.h>
#include <string.h>

int kb_read_line(FILE *f, char *buf, size_t size)
{
	int c;

	if (!fgets(buf, size > INT_MAX ? INT_MAX : (int)size, f))
		return 0;
	size_t n = strlen(buf);
	/* A full buffer without the line's end: drop the rest. */
	if (n + 1 == size && buf[n - 1] != '\n')
		while ((c = getc(f)) != EOF && c != '\n')
			;
	return 1;
}
