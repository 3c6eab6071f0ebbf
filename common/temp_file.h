/* Unnamed temporary files: in $TMPDIR (else /tmp), with no name from the
 * start or removed at once, so nothing is left behind however a run ends. */
#ifndef KB_TEMP_FILE_H
#define KB_TEMP_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* A read-write, close-on-exec descriptor, or -1 with errno set. dir gets
 * the directory tried (for the caller's error), at most size bytes. */
int temp_file_unnamed(char *dir, size_t size);

/* A file with no name in directory dir (O_TMPFILE), read-write and
 * close-on-exec, of the given mode; -1 with errno set where the file
 * system (or the build) has none. */
int temp_file_in(const char *dir, mode_t mode);

#endif
