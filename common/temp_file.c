/* Unnamed temporary files (see temp_file.h). glibc's tmpfile() ignores
 * $TMPDIR; O_TMPFILE needs a file system that has it, else a named file is
 * made and unlinked at once. */
#include "temp_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

int temp_file_unnamed(char *dir, size_t size)
{
	const char *env = getenv("TMPDIR");
	char path[4096];
	int fd;

	snprintf(dir, size, "%s", env && *env ? env : "/tmp");
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
