/* Opening any page file as a page source: the format (raw, ELF core, LiME,
 * kdump-compressed; any of them gzip-compressed) detected from the content
 * or named by the user. Every command that reads pages from a file goes
 * through here. */
#ifndef KB_DUMP_H
#define KB_DUMP_H

#include "page_source.h"

struct dump_options {
	const char *format;      /* NULL or "auto" to detect, or a name from dump_format_names */
	const char *lime_ranges; /* lime-raw and lime-padded: "START-END,..." or "@FILE" */
};

/* The accepted format names, for --help and error messages. */
extern const char dump_format_names[];

/* format: NULL or "auto" to detect, or a format name ("raw", "elf", ...). */
struct page_source *dump_source_open(const char *path, uint32_t page_size, const char *format,
				     struct kb_err *err);

struct page_source *dump_source_open_opts(const char *path, uint32_t page_size,
					  const struct dump_options *opts, struct kb_err *err);

/* Fails unless name is a known format (or "auto"): for option parsing. */
int dump_format_check(const char *name, struct kb_err *err);

#endif
