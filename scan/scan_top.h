/* scan --top's second pass: where the most duplicated contents lie. */
#ifndef KB_SCAN_TOP_H
#define KB_SCAN_TOP_H

#include "../common/err.h"
#include "scan_types.h"

/* The second pass of --top (scan_top.c): fills where, nwhere,
 * dumps_with_copies and located of the ntop contents, whose bytes are at
 * pages (ntop * page_size); dumps[] are the first pass's (which pages it
 * left out, which it took as volatile). */
int scan_top_locate(const struct scan_options *o, const struct scan_dump *dumps, struct scan_top *top, size_t ntop,
		    const unsigned char *pages, struct kb_err *err);

#endif
