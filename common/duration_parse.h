/* Parsing of durations given on the command line ("125ms", "2s", "500us"). */
#ifndef KB_DURATION_PARSE_H
#define KB_DURATION_PARSE_H

#include <stdint.h>

#include "err.h"

/* A whole number with a unit: ns, us, ms or s; a bare number is milliseconds.
 * Between min_ns and max_ns inclusive. */
int kb_parse_duration_ns(const char *text, uint64_t min_ns, uint64_t max_ns, uint64_t *out, struct kb_err *err);

#endif
