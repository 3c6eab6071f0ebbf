/* Unnamed temporary files: in $TMPDIR (else /tmp), with no name from the
 * start or removed at once, so nothing is left behind however a run ends. */
#ifndef KB_TEMP_FILE_H
#define KB_TEMP_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* A read-write, close-on-exec descriptor, or -1 with errno set (a TMPDIR
 * longer than a path: ENAMETOOLONG, never the directory it names cut). */
int temp_file_unnamed(void);

/* Where temp_file_unnamed makes its files, as an error names it: "TMPDIR
 * '/x'" (the value cut, common/quote.h) where set, else "/tmp"; in buf,
 * returned. */
const char *temp_file_where(char *buf, size_t size);

/* A file with no name in directory dir (O_TMPFILE), read-write and
 * close-on-exec, of the given mode; -1 with errno set where the file
 * system (or the build) has none. */
int temp_file_in(const char *dir, mode_t mode);

#endif
