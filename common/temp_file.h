/* Unnamed temporary files: in $TMPDIR (else /tmp), with no name from the
 * start or removed at once, so nothing is left behind however a run ends. */
#ifndef KB_TEMP_FILE_H
#define KB_TEMP_FILE_H

#include <stddef.h>

/* A read-write, close-on-exec descriptor, or -1 with errno set. dir gets
 * the directory tried (for the caller's error), at most size bytes. */
int temp_file_unnamed(char *dir, size_t size);

#endif
