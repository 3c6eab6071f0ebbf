/* zlib pages (kdump flag 0x1: makedumpfile -c, QEMU kdump-zlib): each page
 * its own zlib stream, checked by its Adler-32. */
#include "page_codec.h"

#include <stdlib.h>
#include <zlib.h>

/* One stream per thread, set up once and reset for each page. */
static int zlib_decode(void **state, const unsigned char *src, uint32_t size, unsigned char *dst, uint32_t block)
{
	z_stream *z = *state;

	if (!z) {
		if (!(z = calloc(1, sizeof(*z))))
			return -1;
		if (inflateInit(z) != Z_OK) {
			free(z);
			return -1;
		}
		*state = z;
	} else if (inflateReset(z) != Z_OK) {
		return -1;
	}
	z->next_in = (unsigned char *)(uintptr_t)src;
	z->avail_in = size;
	z->next_out = dst;
	z->avail_out = block;
	return inflate(z, Z_FINISH) == Z_STREAM_END && z->avail_out == 0 ? 0 : -1;
}

static void zlib_state_free(void *state)
{
	if (state)
		inflateEnd(state);
	free(state);
}

const struct page_codec page_codec_zlib = {
	.name = "zlib",
	.kdump_flag = 0x1,
	.package = "zlib1g-dev",
	.decode = zlib_decode,
	.state_free = zlib_state_free,
	.version = zlibVersion,
};
