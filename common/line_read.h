/* One line of a text file into a fixed buffer, an over-long line cut
 * rather than split: fgets hands back the rest of a line longer than its
 * buffer as if it were the next line, and in /proc/PID/maps the rest of a
 * long file name is text the mapped file's owner chose. */
#ifndef KB_LINE_READ_H
#define KB_LINE_READ_H

#include <stddef.h>
#include <stdio.h>

/* The next line of f in buf (size >= 2), with its '\n' when it had one and
 * fitted; a longer line is cut to size - 1 bytes and the rest of it read
 * and dropped. 1 when a line was read, 0 at the end of f or an error. */
int kb_read_line(FILE *f, char *buf, size_t size);

#endif
