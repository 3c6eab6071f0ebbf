/* MemAvailable from /proc/meminfo (see meminfo.h). */
#include "meminfo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line_read.h"

#define MEMINFO_KEY "MemAvailable:"

long long meminfo_available_bytes(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[256];
	long long kib = -1;

	if (!f)
		return -1;
	while (kib < 0 && kb_read_line(f, line, sizeof(line))) {
		char *end;
		if (strncmp(line, MEMINFO_KEY, strlen(MEMINFO_KEY)) != 0)
			continue;
		errno = 0;
		long long v = strtoll(line + strlen(MEMINFO_KEY), &end, 10);
		/* A figure past what bytes can hold, or no figure: none to judge by. */
		if (errno == 0 && end != line + strlen(MEMINFO_KEY) && v >= 0 && v <= LLONG_MAX / 1024)
			kib = v;
		break;
	}
	fclose(f);
	return kib >= 0 ? kib * 1024 : -1;
}
