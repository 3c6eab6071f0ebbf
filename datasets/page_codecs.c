/* The table of page codecs (see page_codec.h). */
#include "page_codec.h"

#include <stddef.h>

const struct page_codec *const page_codecs[] = {
	&page_codec_zlib,
	&page_codec_lzo,
	&page_codec_snappy,
	&page_codec_zstd,
	NULL,
};

_Static_assert(sizeof(page_codecs) / sizeof(page_codecs[0]) == PAGE_CODECS_MAX + 1, "PAGE_CODECS_MAX");

const struct page_codec *page_codec_for_kdump(uint32_t flags, uint32_t *others)
{
	for (unsigned i = 0; page_codecs[i]; i++)
		if (flags & page_codecs[i]->kdump_flag) {
			*others = flags & ~page_codecs[i]->kdump_flag; /* a second codec's bit stays unknown */
			return page_codecs[i];
		}
	*others = flags;
	return NULL;
}

unsigned page_codec_index(const struct page_codec *c)
{
	unsigned i = 0;

	while (page_codecs[i] && page_codecs[i] != c)
		i++;
	return i;
}
