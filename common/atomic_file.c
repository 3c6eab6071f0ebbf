/* Output files written like `cmd > FILE`, atomically where they can be
 * (see atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "quote.h"
#include "temp_file.h"

/* Links followed before giving up, as the kernel's limit for a path. */
#define AF_MAX_LINKS 40
/* statx's mount id (Linux 5.8), for headers that predate it. */
#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x1000U
#endif
/* statfs's f_type of /proc (linux/magic.h). */
#define AF_PROC_SUPER_MAGIC 0x9fa0

static void release(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp_path);
	memset(af, 0, sizeof(*af));
	af->target_fd = -1;
}

/* The length of path's directory part, its last '/' included (0: none). */
static size_t dir_part_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/* path's directory ("." for a bare name) into dir: 0, or -1 when it does
 * not fit. */
static int dir_of(const char *path, char dir[PATH_MAX])
{
	size_t dir_len = dir_part_len(path);

	if (dir_len >= PATH_MAX)
		return -1;
	snprintf(dir, PATH_MAX, "%.*s", (int)(dir_len ? dir_len : 1), dir_len ? path : ".");
	return 0;
}

/* Whether the link path is one of /proc's, however it is spelt: its
 * directory is on procfs. /dev/fd/N is (/dev/fd is a link to
 * /proc/self/fd), though its name does not start with /proc/: until
 * 2026-12-08 it was followed as a path, and the file that descriptor N
 * had open was replaced by a new one (a deleted or O_TMPFILE file's
 * "/tmp/#123 (deleted)" could not be written at all). */
static int link_in_proc(const char *link)
{
	char dir[PATH_MAX];
	struct statfs fs;

	return dir_of(link, dir) == 0 && statfs(dir, &fs) == 0 && fs.f_type == AF_PROC_SUPER_MAGIC;
}

/* The file a chain of symbolic links ends at (malloc'ed), existing or not:
 * a relative link is relative to the directory of the link. *via_proc says
 * whether the chain passed through /proc (/dev/stdout, /dev/fd/N): what
 * such a link names is an open file of the process, to write as it is. */
static char *follow_links(const char *path, int *via_proc, struct kb_err *err)
{
	char *cur = strdup(path);

	*via_proc = 0;
	for (int hops = 0; cur; hops++) {
		struct stat st;
		char target[PATH_MAX];
		*via_proc |= strncmp(cur, "/proc/", 6) == 0;
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		*via_proc |= link_in_proc(cur);
		if (hops == AF_MAX_LINKS) {
			free(cur);
			return kb_fail(err, "cannot write '%s': too many levels of symbolic links", path), NULL;
		}
		ssize_t n = readlink(cur, target, sizeof(target) - 1);
		if (n < 0) {
			int e = errno;
			free(cur);
			return kb_fail_errno(err, e, "cannot write '%s'", path), NULL;
		}
		target[n] = '\0';
		size_t dir_len = target[0] != '/' ? dir_part_len(cur) : 0;
		char *next = malloc(dir_len + (size_t)n + 1);
		if (next) {
			memcpy(next, cur, dir_len);
			memcpy(next + dir_len, target, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	return kb_fail(err, "out of memory"), NULL;
}

static int open_direct(struct atomic_file *af, const char *path, int flags, struct kb_err *err)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags);

	if (fd < 0 || !(af->fp = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		release(af);
		return kb_fail_errno(err, e, "cannot write '%s'", path);
	}
	af->kind = ATOMIC_FILE_DIRECT;
	return 0;
}

/* The new file may take the old one's place when it can have its owner
 * and its links: one link, and ours or we are root (the group is tried by
 * fchown in make_temporary), and not a mount point (mount_point).
 * Otherwise the output is copied into it. */
static int can_replace(const struct stat *st)
{
	uid_t me = geteuid();

	return st->st_nlink == 1 && (me == 0 || st->st_uid == me);
}

/* Whether the existing file at path is a mount point of its own (a file
 * bind-mounted over another, as `docker run -v host.json:/out.json` and
 * Kubernetes' subPath volumes do): rename() cannot replace it (EBUSY, or
 * EXDEV from another file system), so the output is copied into it, as
 * the shell's '>' writes it. Until 2026-12-08 the rename failed after the
 * run, its output lost. By the mount's id where the kernel gives it
 * (statx, 5.8), else by the device. */
static int mount_point(const char *path)
{
	char dir[PATH_MAX];
	struct statx f, d;

	if (dir_of(path, dir))
		return 0;
	if (statx(AT_FDCWD, path, 0, STATX_INO | STATX_MNT_ID, &f) != 0 ||
	    statx(AT_FDCWD, dir, 0, STATX_INO | STATX_MNT_ID, &d) != 0) {
		struct stat fs, ds; /* a kernel before statx (4.11) */
		return stat(path, &fs) == 0 && stat(dir, &ds) == 0 && fs.st_dev != ds.st_dev;
	}
	if ((f.stx_mask & d.stx_mask & STATX_MNT_ID) && f.stx_mnt_id != d.stx_mnt_id)
		return 1;
	return f.stx_dev_major != d.stx_dev_major || f.stx_dev_minor != d.stx_dev_minor;
}

/* An unnamed file in the target's directory (common/temp_file.h), where
 * the file system has them and /proc/self/fd can name it at the end
 * (linkat); -1 elsewhere. A run that is killed (kill -9, the OOM killer, a
 * CI job's timeout) then leaves nothing behind: a named temporary stayed. */
static int open_unnamed(const char *path, mode_t mode)
{
	char dir[PATH_MAX];

	if (dir_of(path, dir) || access("/proc/self/fd", X_OK) != 0)
		return -1;
	return temp_file_in(dir, mode);
}

/* The name a temporary takes beside the target (its last six X's to be
 * made unique): same directory, so that rename() stays atomic; a name too
 * long to take the suffix (NAME_MAX) gets a short hidden one. */
static char *temporary_name(const char *path)
{
	size_t n = strlen(path) + 32, dir_len = dir_part_len(path);
	char *name = malloc(n);

	if (name && strlen(path + dir_len) + sizeof(".tmp-XXXXXX") - 1 <= NAME_MAX)
		snprintf(name, n, "%s.tmp-XXXXXX", path);
	else if (name)
		snprintf(name, n, "%.*s.ksmbench.tmp-XXXXXX", (int)dir_len, path);
	return name;
}

/* The temporary beside the target: a new file's mode, or the old file's
 * mode and owner (a group we may not give it: copied into place instead).
 * Unnamed where it can be (open_unnamed); else named, and removed when the
 * run ends or fails. */
static int make_temporary(struct atomic_file *af, const struct stat *old, mode_t mode, struct kb_err *err)
{
	size_t dir_len = dir_part_len(af->path);
	int fd = -1, e = 0;

	/* A name no file can have: refused now, not by rename() after the run. */
	if (strlen(af->path + dir_len) > NAME_MAX) {
		kb_fail_errno(err, ENAMETOOLONG, "cannot write '%s'", af->path);
		release(af);
		return -1;
	}
	if ((fd = open_unnamed(af->path, mode)) >= 0) {
		af->unnamed = 1;
	} else if (!(af->tmp_path = temporary_name(af->path))) {
		release(af);
		return kb_fail(err, "out of memory");
	} else if ((fd = mkostemp(af->tmp_path, O_CLOEXEC)) < 0) { /* not a measuring process's */
		e = errno;
		free(af->tmp_path);
		af->tmp_path = NULL;
	}
	if (fd >= 0) {
		if (old && af->kind == ATOMIC_FILE_RENAME && fchown(fd, old->st_uid, old->st_gid) < 0)
			af->kind = ATOMIC_FILE_COPY;
		if (fchmod(fd, mode) < 0 || !(af->fp = fdopen(fd, "w+")))
			e = errno;
	}
	if (e) {
		if (fd >= 0) {
			close(fd);
			if (af->tmp_path)
				unlink(af->tmp_path);
		}
		kb_fail_errno(err, e, "cannot create a temporary file beside '%s'", af->path);
		release(af);
		return -1;
	}
	return 0;
}

/* Whether a temporary may be made beside path: its directory is ours to
 * write (as the effective user). */
static int dir_writable(const char *path)
{
	char dir[PATH_MAX];

	if (dir_of(path, dir))
		return 1; /* make_temporary says what is wrong */
	return faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) == 0;
}

/* An existing file we may write in a directory we may not: as the shell's
 * '>' would, the output is copied into it at the end, from an unnamed
 * temporary in $TMPDIR (a rename needs the directory; this refused it). */
static int make_outside_temporary(struct atomic_file *af, struct kb_err *err)
{
	char where[KB_QUOTE_SIZE + 16];
	int fd = temp_file_unnamed();

	if (fd < 0 || !(af->fp = fdopen(fd, "w+"))) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		kb_fail_errno(err, e, "cannot create a temporary file in %s for '%s'",
			      temp_file_where(where, sizeof(where)), af->path);
		release(af);
		return -1;
	}
	af->kind = ATOMIC_FILE_COPY;
	return 0;
}

/* Nothing to replace: a FIFO or a device is written as it is, and so is
 * a /proc link (/dev/stdout), which names an open file, not a path. */
static int written_directly(int exists, const struct stat *st, int via_proc)
{
	return (exists && !S_ISREG(st->st_mode)) || via_proc;
}

int atomic_file_is_direct(const char *path)
{
	struct stat st;
	struct kb_err err;
	int via_proc;
	char *target;

	if (path[0] == '\0' || strcmp(path, "-") == 0)
		return 0;
	int exists = stat(path, &st) == 0;
	if ((exists && S_ISDIR(st.st_mode)) || !(target = follow_links(path, &via_proc, &err)))
		return 0;
	free(target);
	return written_directly(exists, &st, via_proc);
}

int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode, struct kb_err *err)
{
	struct stat st;
	char q[KB_QUOTE_SIZE];

	memset(af, 0, sizeof(*af));
	af->target_fd = -1;
	/* Refused here, before the measurement, not when it is put in place. */
	if (path[0] == '\0')
		return kb_fail(err, "cannot write '': the file name is empty");
	if (strcmp(path, "-") == 0) {
		af->fp = stdout;
		af->kind = ATOMIC_FILE_STDOUT;
		return 0;
	}
	int exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return kb_fail(err, "cannot write '%s': it is a directory", kb_quote(path, q));
	int via_proc;
	if (!(af->path = follow_links(path, &via_proc, err))) {
		release(af);
		return -1;
	}
	if (written_directly(exists, &st, via_proc))
		return open_direct(af, path, exists && S_ISREG(st.st_mode) ? O_TRUNC : 0, err);
	if (!exists) {
		mode_t mask = umask(0);
		umask(mask);
		af->kind = ATOMIC_FILE_RENAME;
		return make_temporary(af, NULL, mode & ~mask, err);
	}
	af->kind = can_replace(&st) && !mount_point(af->path) ? ATOMIC_FILE_RENAME : ATOMIC_FILE_COPY;
	if (!dir_writable(af->path) && faccessat(AT_FDCWD, af->path, W_OK, AT_EACCESS) == 0) {
		if (make_outside_temporary(af, err))
			return -1;
	} else if (make_temporary(af, &st, st.st_mode & 0777, err)) {
		return -1;
	}
	if (af->kind == ATOMIC_FILE_COPY && (af->target_fd = open(af->path, O_WRONLY | O_CLOEXEC)) < 0) {
		int e = errno;
		atomic_file_abort(af);
		return kb_fail_errno(err, e, "cannot write '%s'", path);
	}
	return 0;
}

/* The rest of from (from its start) into the descriptor to. */
static int copy_stream(FILE *from, int to)
{
	char buf[1 << 16];
	size_t n;

	if (fseeko(from, 0, SEEK_SET) != 0)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		for (size_t done = 0; done < n;) {
			ssize_t w = write(to, buf + done, n - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -1;
			done += (size_t)w;
		}
	return ferror(from) ? -1 : 0;
}

/* The finished temporary into the existing file, which keeps its inode. */
/* The old content stays until the new is in: the space is reserved first
 * (where the file system can), so that a full disk fails before the first
 * byte changes (it had truncated the file and left it half-written); then
 * the new bytes go over the old and the rest is cut. */
static int copy_into_target(struct atomic_file *af)
{
	struct stat st;

	if (fstat(fileno(af->fp), &st) != 0 || lseek(af->target_fd, 0, SEEK_SET) != 0)
		return -1;
	if (st.st_size > 0 && fallocate(af->target_fd, FALLOC_FL_KEEP_SIZE, 0, st.st_size) != 0 &&
	    errno != EOPNOTSUPP && errno != ENOSYS)
		return -1;
	if (copy_stream(af->fp, af->target_fd) || ftruncate(af->target_fd, st.st_size) != 0 ||
	    fsync(af->target_fd) != 0)
		return -1;
	return 0;
}

static int commit_unnamed(struct atomic_file *af, struct kb_err *err)
{
	int failed = ferror(af->fp) || fflush(af->fp) != 0;
	int e = errno;

	if (af->kind == ATOMIC_FILE_DIRECT && fclose(af->fp) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (failed)
		kb_fail_errno(err, e, "cannot write '%s'", af->kind == ATOMIC_FILE_STDOUT ? "standard output" : af->path);
	release(af);
	return failed ? -1 : 0;
}

/* Gives the unnamed temporary a name beside the target, for rename():
 * linked from /proc/self/fd, as an unprivileged process can (AT_EMPTY_PATH
 * needs CAP_DAC_READ_SEARCH), under a name made unique as mkstemp's are. */
static int link_unnamed(struct atomic_file *af)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char proc[64];
	struct timespec now;
	uint64_t x;

	if (!(af->tmp_path = temporary_name(af->path))) {
		errno = ENOMEM;
		return -1;
	}
	size_t len = strlen(af->tmp_path);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fileno(af->fp));
	clock_gettime(CLOCK_REALTIME, &now);
	x = ((uint64_t)now.tv_nsec << 20) ^ (uint64_t)now.tv_sec ^ ((uint64_t)getpid() << 40);
	for (int tries = 0; tries < 100; tries++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t y = x >> 16;
		for (size_t i = len - 6; i < len; i++, y /= 62)
			af->tmp_path[i] = letters[y % 62];
		if (linkat(AT_FDCWD, proc, AT_FDCWD, af->tmp_path, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	int e = errno;
	free(af->tmp_path);
	af->tmp_path = NULL;
	errno = e;
	return -1;
}

/* Where the unnamed temporary cannot be linked (a policy that lets a
 * process create files but not link them: EPERM), a named one beside the
 * target, with its owner and mode, the output copied into it: the run's
 * work is not lost to the way the file is made. */
static int copy_to_named(struct atomic_file *af)
{
	struct stat st;
	int fd, e;

	if (fstat(fileno(af->fp), &st) != 0)
		return -1;
	if (!(af->tmp_path = temporary_name(af->path))) {
		errno = ENOMEM;
		return -1;
	}
	if ((fd = mkostemp(af->tmp_path, O_CLOEXEC)) < 0) {
		e = errno;
		free(af->tmp_path);
		af->tmp_path = NULL;
		errno = e;
		return -1;
	}
	int rc = fchown(fd, st.st_uid, st.st_gid) || fchmod(fd, st.st_mode & 07777) || copy_stream(af->fp, fd) ||
		 fsync(fd);
	e = errno;
	if (close(fd) != 0 && !rc) {
		rc = -1;
		e = errno;
	}
	errno = e;
	return rc ? -1 : 0; /* a named temporary left is removed by the commit */
}

int atomic_file_flush(struct atomic_file *af, struct kb_err *err)
{
	if (ferror(af->fp) || fflush(af->fp) != 0 || (af->kind == ATOMIC_FILE_RENAME && fsync(fileno(af->fp)) < 0))
		return kb_fail_errno(err, errno ? errno : EIO, "cannot write '%s'",
				     af->kind == ATOMIC_FILE_STDOUT ? "standard output" : af->path);
	return 0;
}

int atomic_file_commit(struct atomic_file *af, struct kb_err *err)
{
	if (af->kind == ATOMIC_FILE_STDOUT || af->kind == ATOMIC_FILE_DIRECT)
		return commit_unnamed(af, err);
	int failed = ferror(af->fp) || fflush(af->fp) != 0;
	int e = errno;

	if (!failed && af->kind == ATOMIC_FILE_COPY && copy_into_target(af) != 0) {
		failed = 1;
		e = errno;
	}
	if (!failed && af->kind == ATOMIC_FILE_RENAME && fsync(fileno(af->fp)) < 0) {
		failed = 1;
		e = errno;
	}
	if (!failed && af->kind == ATOMIC_FILE_RENAME && af->unnamed && link_unnamed(af) != 0 &&
	    copy_to_named(af) != 0) {
		failed = 1;
		e = errno;
	}
	if (fclose(af->fp) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	af->fp = NULL;
	if (af->kind == ATOMIC_FILE_COPY && close(af->target_fd) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	if (!failed && af->kind == ATOMIC_FILE_RENAME && rename(af->tmp_path, af->path) < 0) {
		failed = 1;
		e = errno;
	}
	if ((failed || af->kind == ATOMIC_FILE_COPY) && af->tmp_path)
		unlink(af->tmp_path);
	if (failed)
		kb_fail_errno(err, e, "cannot write '%s'", af->path);
	release(af);
	return failed ? -1 : 0;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp && af->kind != ATOMIC_FILE_STDOUT)
		fclose(af->fp);
	else if (af->fp)
		fflush(stdout);
	if (af->kind == ATOMIC_FILE_COPY && af->target_fd >= 0)
		close(af->target_fd);
	if (af->tmp_path)
		unlink(af->tmp_path);
	release(af);
}
