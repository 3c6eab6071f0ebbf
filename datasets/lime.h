/* LiME memory images: the `lime` format (a 32-byte header before each
 * range), and the `raw` (ranges back to back) and `padded` (file offset =
 * physical address, zeros between ranges) formats, whose ranges the user
 * gives because the file does not hold them. */
#ifndef KB_LIME_H
#define KB_LIME_H

#include "page_source.h"
#include "stream.h"

#define LIME_MAGIC 0x4C694D45u

struct lime_range {
	uint64_t start, end; /* inclusive, as LiME and /proc/iomem write them */
};

/* The LiME formats' option: where the ranges of a headerless file are. */
struct lime_options {
	const char *ranges; /* lime-raw and lime-padded: "START-END,..." or "@FILE" */
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

/* The three formats of the dump table (dump.h), each taking over a->stream:
 * `lime`; `lime-raw` and `lime-padded`, whose ranges come from
 * a->opts->lime.ranges (parsed with lime_parse_ranges). */
struct dump_open;
struct page_source *lime_open_headers(const struct dump_open *a, struct kb_err *err);
struct page_source *lime_open_raw(const struct dump_open *a, struct kb_err *err);
struct page_source *lime_open_padded(const struct dump_open *a, struct kb_err *err);

#endif
