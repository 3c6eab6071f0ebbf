/* libFuzzer target: the lime-raw and lime-padded readers, the ranges taken
 * from the input's first line (so the range parser is fuzzed too). */
#include <string.h>

#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char ranges[256];
	const uint8_t *nl = memchr(data, '\n', size < sizeof(ranges) ? size : sizeof(ranges));

	if (!nl)
		return 0;
	size_t n = (size_t)(nl - data);
	memcpy(ranges, data, n);
	ranges[n] = '\0';
	if (memchr(ranges, '@', n)) /* no range files from fuzz input */
		return 0;
	fuzz_read(nl + 1, size - n - 1, n % 2 ? "lime-raw" : "lime-padded", ranges);
	return 0;
}
