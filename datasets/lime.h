/* LiME memory images: the `lime` format (a 32-byte header before each
 * range), and the `raw` (ranges back to back) and `padded` (file offset =
 * physical address, zeros between ranges) formats, whose ranges the user
 * gives because the file does not hold them. */
#ifndef KB_LIME_H
#define KB_LIME_H

#include "page_source.h"
#include "stream.h"

#define LIME_MAGIC 0x4C694D45u

enum lime_layout { LIME_HEADERS, LIME_RAW, LIME_PADDED };

struct lime_range {
	uint64_t start, end; /* inclusive, as LiME and /proc/iomem write them */
};

/* 1 when the first bytes are a LiME range header. */
int lime_detect(const unsigned char *head, size_t len);

/* The range list of a lime-raw or lime-padded file (lime_ranges.c):
 * "START-END[,START-END...]" (hexadecimal, 0x optional, END inclusive), or
 * "@FILE", a file of at most LIME_RANGE_FILE_MAX bytes of text: one
 * START-END per line, or a /proc/iomem copy (its top-level "System RAM"
 * lines). Returns the count, -1 on error; *out is malloc'ed. */
#define LIME_RANGE_FILE_MAX (1u << 20)
#define LIME_RANGES_MAX (1u << 20)
int lime_parse_ranges(const char *spec, struct lime_range **out, size_t *count, struct kb_err *err);

/* The lines of a range file already in memory (len bytes, no NUL byte);
 * name is the file's name for messages. Same results as above. */
int lime_parse_range_text(const char *text, size_t len, const char *name, struct lime_range **out,
			  size_t *count, struct kb_err *err);

/* Takes ownership of s. For LIME_RAW and LIME_PADDED, ranges (copied) say
 * where the bytes belong; for LIME_HEADERS they must be NULL. */
struct page_source *lime_open(struct kb_stream *s, uint32_t page_size, enum lime_layout layout,
			      const struct lime_range *ranges, size_t nranges, struct kb_err *err);

#endif
