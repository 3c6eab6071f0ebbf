/* An input file as the readers see it: the path and the layers found on it
 * (gzip, flattened makedumpfile), from which a reader opens as many
 * independent cursors as it needs. */
#ifndef KB_DUMP_INPUT_H
#define KB_DUMP_INPUT_H

#include "stream.h"

struct dump_input {
	const char *path;
	int gzip; /* the file is gzip-compressed */
	int flat; /* the (decompressed) data is a flattened makedumpfile */
	int reopenable; /* a regular file: more cursors can be opened */
};

/* A new cursor with the input's layers. Fails for a pipe or standard input
 * (one pass only) with a message saying so. */
struct kb_stream *dump_input_cursor(const struct dump_input *in, struct kb_err *err);

/* Opens path and detects the layers (the flattened layout only when
 * allow_flat): fills in and returns the first cursor. */
struct kb_stream *dump_input_open(struct dump_input *in, const char *path, int allow_flat,
				  struct kb_err *err);

#endif
