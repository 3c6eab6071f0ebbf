/* libFuzzer target: the LiME range parser, on the input as the text of a
 * range file (plain lists, /proc/iomem copies) and, NUL-terminated, as a
 * --lime-ranges list from the command line. */
#include <stdlib.h>
#include <string.h>

#include "../../datasets/lime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_ranges(const struct lime_range *r, size_t n, int count)
{
	if (count < 0)
		return;
	if ((size_t)count != n || n == 0)
		abort();
	for (size_t i = 0; i < n; i++)
		if (r[i].end < r[i].start || (r[i].start == 0 && r[i].end == UINT64_MAX))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lime_range *r;
	size_t n;
	struct kb_err err;
	char *spec;

	if (size > LIME_RANGE_FILE_MAX)
		return 0;
	int count = lime_parse_range_text((const char *)data, size, "fuzz", &r, &n, &err);
	check_ranges(r, n, count);
	free(r);
	if (!(spec = malloc(size + 1)))
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (spec[0] != '@') { /* no range files named by fuzz input */
		count = lime_parse_ranges(spec, &r, &n, &err);
		check_ranges(r, n, count);
		free(r);
	}
	free(spec);
	return 0;
}
