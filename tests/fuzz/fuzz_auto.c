/* libFuzzer target: format detection and the gzip and flattened layers
 * under every reader (what `sum --per-page FILE` does). */
#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read(data, size, "auto", NULL);
	return 0;
}
