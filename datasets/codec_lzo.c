/* LZO pages (kdump flag 0x2: makedumpfile -l, the default core_collector
 * of Fedora's and RHEL's kdump, and QEMU kdump-lzo), LZO1X as both write
 * it, decoded with liblzo2's bounds-checked decompressor. */
#include "page_codec.h"

#include <stddef.h>

#ifdef KB_HAVE_LZO
#include <lzo/lzo1x.h>

/* The library's own check of its build against the header's types, once
 * per thread (the state only marks it done). */
static int lzo_decode(void **state, const unsigned char *src, uint32_t size, unsigned char *dst, uint32_t block)
{
	static char done;
	lzo_uint out = block;

	if (!*state) {
		if (lzo_init() != LZO_E_OK)
			return -1;
		*state = &done;
	}
	return lzo1x_decompress_safe(src, size, dst, &out, NULL) == LZO_E_OK && out == block ? 0 : -1;
}

static const char *lzo_library_version(void)
{
	return lzo_version_string();
}
#define CODEC_DECODE lzo_decode
#define CODEC_VERSION lzo_library_version
#else
#define CODEC_DECODE NULL
#define CODEC_VERSION NULL
#endif

const struct page_codec page_codec_lzo = {
	.name = "lzo",
	.kdump_flag = 0x2,
	.package = "liblzo2-dev",
	.decode = CODEC_DECODE,
	.version = CODEC_VERSION,
};
