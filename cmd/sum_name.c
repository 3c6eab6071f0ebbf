/* File names in the lines `ksmbench sum` writes and --check reads back (see
 * sum.h), escaped as GNU's sha256sum does: a line whose name holds a
 * backslash, a newline or a carriage return starts with a backslash, and in
 * its name those three are written \\, \n and \r. Any other byte is written
 * as it is: the list is data for a program, and only these three could end
 * a line early or be taken for an escape. */
#include <stdio.h>
#include <string.h>

#include "sum.h"

int sum_name_escaped(const char *name)
{
	return strpbrk(name, "\\\n\r") != NULL;
}

void sum_name_put(const char *name)
{
	if (!sum_name_escaped(name)) {
		fputs(name, stdout);
		return;
	}
	for (const char *p = name; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", stdout);
		else if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\r')
			fputs("\\r", stdout);
		else
			putchar(*p);
	}
}

int sum_name_unescape(char *name)
{
	char *to = name;

	for (const char *p = name; *p; p++) {
		if (*p != '\\') {
			*to++ = *p;
			continue;
		}
		p++;
		if (*p == '\\')
			*to++ = '\\';
		else if (*p == 'n')
			*to++ = '\n';
		else if (*p == 'r')
			*to++ = '\r';
		else
			return -1;
	}
	*to = '\0';
	return 0;
}
