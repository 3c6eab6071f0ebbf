/* Parsing of sizes and counts given on the command line ("4K", "64K", "4096"). */
#ifndef KB_SIZE_PARSE_H
#define KB_SIZE_PARSE_H

#include <stdint.h>

#include "err.h"

/* Accepts a decimal number with an optional K, M or G suffix (powers of 1024,
 * optional trailing "iB" or "B"). Fails on empty input, junk, or overflow. */
int kb_parse_size(const char *text, uint64_t *out, struct kb_err *err);

/* A page size: a multiple of 64 bytes from 64 B to 16 MiB. */
#define KB_PAGE_SIZE_MIN 64u
#define KB_PAGE_SIZE_MAX (16u << 20)
int kb_parse_page_size(const char *text, uint32_t *out, struct kb_err *err);

/* A plain unsigned decimal number no larger than max. */
int kb_parse_uint(const char *text, uint64_t max, uint64_t *out, struct kb_err *err);

#endif
