/* Atomically written output files (see atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void release(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp_path);
	memset(af, 0, sizeof(*af));
}

int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode, struct kb_err *err)
{
	struct stat st;
	size_t n = strlen(path) + 32;

	memset(af, 0, sizeof(*af));
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return kb_fail(err, "cannot write '%s': it is a directory", path);
	af->path = strdup(path);
	af->tmp_path = malloc(n);
	if (!af->path || !af->tmp_path) {
		release(af);
		return kb_fail(err, "out of memory");
	}
	/* Same directory as the target, so that rename() stays atomic. */
	snprintf(af->tmp_path, n, "%s.tmp-XXXXXX", path);
	int fd = mkstemp(af->tmp_path);
	if (fd < 0) {
		int e = errno;
		release(af);
		return kb_fail_errno(err, e, "cannot create '%s'", path);
	}
	if (fchmod(fd, mode) < 0 || !(af->fp = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(af->tmp_path);
		release(af);
		return kb_fail_errno(err, e, "cannot create '%s'", path);
	}
	return 0;
}

int atomic_file_commit(struct atomic_file *af, struct kb_err *err)
{
	int failed = ferror(af->fp) || fflush(af->fp) != 0;
	int e = errno;

	if (!failed && fsync(fileno(af->fp)) < 0) {
		failed = 1;
		e = errno;
	}
	if (fclose(af->fp) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	af->fp = NULL;
	if (!failed && rename(af->tmp_path, af->path) < 0) {
		failed = 1;
		e = errno;
	}
	if (failed) {
		unlink(af->tmp_path);
		kb_fail_errno(err, e, "cannot write '%s'", af->path);
	}
	release(af);
	return failed ? -1 : 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp)
		fclose(af->fp);
	if (af->tmp_path)
		unlink(af->tmp_path);
	release(af);
}
