/* The flattened makedumpfile layout (makedumpfile -F, QEMU's kdump formats
 * written to a pipe): a 4096-byte header starting "makedumpfile", then
 * records {big-endian i64 offset, i64 size, size bytes} that place pieces of
 * a kdump-compressed file. This layer presents that file again. */
#ifndef KB_KDUMP_FLAT_H
#define KB_KDUMP_FLAT_H

#include "stream.h"

/* 1 when the first bytes are a flattened header. */
int kdump_flat_detect(const unsigned char *head, size_t len);

/* Takes ownership of inner. Reads move forward through the records; a read
 * of an earlier piece scans again from the first record (a bounded number
 * of times, then an error). */
struct kb_stream *kdump_flat_open(struct kb_stream *inner, struct kb_err *err);

#endif
