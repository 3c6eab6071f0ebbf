/* Unnamed temporary files (see temp_file.h). glibc's tmpfile() ignores
 * $TMPDIR; O_TMPFILE needs a file system that has it, else a named file is
 * made and unlinked at once. */
#include "temp_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "quote.h"

int temp_file_in(const char *dir, mode_t mode)
{
#ifdef O_TMPFILE
	return open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
#else
	(void)dir, (void)mode;
	errno = EOPNOTSUPP;
	return -1;
#endif
}

/* $TMPDIR where set and not empty; NULL (then /tmp) where not. */
static const char *temp_dir(void)
{
	const char *env = getenv("TMPDIR");

	return env && *env ? env : NULL;
}

const char *temp_file_where(char *buf, size_t size)
{
	char q[KB_QUOTE_SIZE];

	if (temp_dir())
		snprintf(buf, size, "TMPDIR '%s'", kb_quote(temp_dir(), q));
	else
		snprintf(buf, size, "/tmp");
	return buf;
}

int temp_file_unnamed(void)
{
	/* Used as it is: copied into a buffer of 4 KiB, a longer TMPDIR was
	 * cut and named another directory (the kernel refuses it whole). */
	const char *dir = temp_dir() ? temp_dir() : "/tmp";
	char path[4096];
	int fd;

	if ((fd = temp_file_in(dir, 0600)) >= 0)
		return fd;
	if ((size_t)snprintf(path, sizeof(path), "%s/ksmbench-XXXXXX", dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = mkostemp(path, O_CLOEXEC)) >= 0)
		unlink(path);
	return fd;
}
