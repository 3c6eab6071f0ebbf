/* snappy pages (kdump flag 0x4: makedumpfile -p, QEMU kdump-snappy),
 * decoded with libsnappy's C interface after checking the length the data
 * claims, so that nothing is written past the block. */
#include "page_codec.h"

#include <stddef.h>

#ifdef KB_HAVE_SNAPPY
#include <snappy-c.h>

static int snappy_decode(void **state, const unsigned char *src, uint32_t size, unsigned char *dst, uint32_t block)
{
	size_t out = 0;

	(void)state;
	if (snappy_uncompressed_length((const char *)src, size, &out) != SNAPPY_OK || out != block)
		return -1;
	return snappy_uncompress((const char *)src, size, (char *)dst, &out) == SNAPPY_OK && out == block ? 0 : -1;
}

/* libsnappy reports no version at run time: the one pkg-config gave. */
static const char *snappy_library_version(void)
{
	return KB_SNAPPY_VERSION;
}
#define CODEC_DECODE snappy_decode
#define CODEC_VERSION snappy_library_version
#else
#define CODEC_DECODE NULL
#define CODEC_VERSION NULL
#endif

const struct page_codec page_codec_snappy = {
	.name = "snappy",
	.kdump_flag = 0x4,
	.package = "libsnappy-dev",
	.decode = CODEC_DECODE,
	.version = CODEC_VERSION,
};
