/* The compressions a dump may store its pages in (kdump's per-page flags),
 * as one table: each codec's name, its flag, the library that decodes it
 * and, where ksmbench was built with that library, its decoder. Adding one
 * is a codec_NAME.c and a line in page_codecs.c. */
#ifndef KB_PAGE_CODEC_H
#define KB_PAGE_CODEC_H

#include <stdint.h>

struct page_codec {
	const char *name;    /* "zlib", "lzo", ...: as errors and --version name it */
	uint32_t kdump_flag; /* DUMP_DH_COMPRESSED_* in makedumpfile's and QEMU's headers */
	const char *package; /* Debian's -dev package, named when the decoder was not built */
	/* Decodes size bytes at src into exactly block bytes at dst: 0, or -1
	 * when the data is corrupt or does not give one block. *state is the
	 * codec's own for one thread (NULL at first, set on first use); NULL
	 * decode: not built in. */
	int (*decode)(void **state, const unsigned char *src, uint32_t size, unsigned char *dst, uint32_t block);
	void (*state_free)(void *state); /* NULL: the codec keeps no state */
	const char *(*version)(void);    /* the library's, NULL where not built */
};

/* The table, in kdump flag order, NULL-terminated, and its entries (one
 * file each: codec_zlib.c, ...). */
extern const struct page_codec *const page_codecs[];
extern const struct page_codec page_codec_zlib, page_codec_lzo, page_codec_snappy, page_codec_zstd;

/* The codec whose kdump flag is set in flags, NULL for none (the page is
 * stored as it is); *others gets the bits of flags no codec has, or a
 * second codec's, which no dump writer sets. */
const struct page_codec *page_codec_for_kdump(uint32_t flags, uint32_t *others);

/* A codec's slot in the table, for per-codec state arrays. */
unsigned page_codec_index(const struct page_codec *c);

#define PAGE_CODECS_MAX 4u

#endif
