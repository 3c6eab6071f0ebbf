/* The memory the kernel says is available for a new allocation without
 * swapping (MemAvailable in /proc/meminfo), so that a set too large for
 * the machine is refused with an error instead of built page by page until
 * the OOM killer ends the process. */
#ifndef KB_MEMINFO_H
#define KB_MEMINFO_H

#define MEMINFO_PATH "/proc/meminfo"

/* MemAvailable of the file at path, in bytes; -1 when the file cannot be
 * read or has no such line (kernels before 3.14, some containers). */
long long meminfo_available_bytes(const char *path);

#endif
