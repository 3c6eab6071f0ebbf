/* Shared body of the libFuzzer targets: the input becomes a file (a memfd
 * reached through /proc/self/fd, so that readers can reopen it for more
 * cursors) and is read to the end with one format, every page touched. */
#ifndef KB_FUZZ_READER_H
#define KB_FUZZ_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../datasets/dump.h"

static int fuzz_fd = -1;
static char fuzz_path[64];

static void fuzz_read(const uint8_t *data, size_t size, const char *format, const char *ranges)
{
	struct dump_options opts = { .format = format, .lime = { ranges } };
	struct kb_err err;
	struct page pg;
	volatile unsigned char sink = 0;

	if (fuzz_fd < 0) {
		fuzz_fd = memfd_create("ksmbench-fuzz", 0);
		if (fuzz_fd < 0)
			abort();
		snprintf(fuzz_path, sizeof(fuzz_path), "/proc/self/fd/%d", fuzz_fd);
	}
	if (ftruncate(fuzz_fd, 0) != 0 || pwrite(fuzz_fd, data, size, 0) != (ssize_t)size)
		abort();
	/* 512-byte pages: more pages per input byte, and a divisor of the
	 * kdump block sizes in the seeds. */
	struct page_source *src = dump_source_open(fuzz_path, 512, &opts, &err);
	if (!src)
		return;
	while (page_source_next(src, &pg, &err) == 1)
		sink ^= pg.data[0] ^ pg.data[511];
	page_source_close(src);
	(void)sink;
}

#endif
