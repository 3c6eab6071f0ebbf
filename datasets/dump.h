/* Opening any page file as a page source: the format (raw, and the dump
 * formats) detected from the content or named by the user. Every command
 * that reads pages from a file goes through here. */
#ifndef KB_DUMP_H
#define KB_DUMP_H

#include "page_source.h"

/* format: NULL or "auto" to detect, or a format name ("raw"). */
struct page_source *dump_source_open(const char *path, uint32_t page_size, const char *format,
				     struct kb_err *err);

#endif
