/* zstd pages (kdump flag 0x20: makedumpfile -z), each page one zstd frame,
 * decoded with one context per thread. */
#include "page_codec.h"

#include <stddef.h>

#ifdef KB_HAVE_ZSTD
#include <zstd.h>

static int zstd_decode(void **state, const unsigned char *src, uint32_t size, unsigned char *dst, uint32_t block)
{
	if (!*state && !(*state = ZSTD_createDCtx()))
		return -1;
	size_t out = ZSTD_decompressDCtx(*state, dst, block, src, size);
	return !ZSTD_isError(out) && out == block ? 0 : -1;
}

static void zstd_state_free(void *state)
{
	ZSTD_freeDCtx(state);
}

#define CODEC_DECODE zstd_decode
#define CODEC_STATE_FREE zstd_state_free
#define CODEC_VERSION ZSTD_versionString
#else
#define CODEC_DECODE NULL
#define CODEC_STATE_FREE NULL
#define CODEC_VERSION NULL
#endif

const struct page_codec page_codec_zstd = {
	.name = "zstd",
	.kdump_flag = 0x20,
	.package = "libzstd-dev",
	.decode = CODEC_DECODE,
	.state_free = CODEC_STATE_FREE,
	.version = CODEC_VERSION,
};
