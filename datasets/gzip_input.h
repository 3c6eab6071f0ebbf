/* A gzip-compressed stream read as its decompressed bytes (zlib), so that
 * every dump format can also be read gzip-compressed. */
#ifndef KB_GZIP_INPUT_H
#define KB_GZIP_INPUT_H

#include "stream.h"

/* 1 when the first bytes are the gzip magic. */
int gzip_input_detect(const unsigned char *head, size_t len);

/* Takes ownership of inner (closed with the result, or on failure). The
 * decompressed size is unknown; reads forward are cheap, a read before the
 * retained first 64 KiB restarts decompression (allowed a bounded number of
 * times, then an error, so a hostile file cannot make it quadratic). */
struct kb_stream *gzip_input_open(struct kb_stream *inner, struct kb_err *err);

#endif
