/* libFuzzer target: the kdump reader on arbitrary bytes. */
#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read(data, size, "kdump", NULL);
	return 0;
}
