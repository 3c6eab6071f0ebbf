/* Output files (-o) written the way `cmd > FILE` would leave them, but
 * atomically where a file can be: the output goes to a temporary file
 * beside the target and is renamed over it only when everything was
 * written, so a failed or interrupted run leaves the old file (or none).
 * The temporary is unnamed (O_TMPFILE) where the file system allows, and
 * takes a name only for the instant before the rename, so that a killed
 * run leaves nothing either; elsewhere it is named and removed on failure
 * or a signal (cmd/interrupt.c).
 * What the path names decides the rest:
 *   "-"                    standard output, written directly;
 *   a symbolic link        followed: the temporary goes beside the file it
 *                          points to (created if the link dangles), the
 *                          link stays;
 *   a FIFO, a character or block device, a /proc path (/dev/stdout,
 *   /dev/fd/N)
 *                          opened and written directly, never replaced;
 *   an existing file       keeps its mode and owner; when the new file
 *                          could not get them (not ours, and we are not
 *                          root), it has other hard links or it is a
 *                          mount point (a bind-mounted file), the finished
 *                          output is copied into it at the end instead;
 *                          so too when its directory is not ours to write
 *                          (the temporary then in $TMPDIR);
 *   a directory            refused.
 * A new file gets the mode asked for, less the umask. */
#ifndef KB_ATOMIC_FILE_H
#define KB_ATOMIC_FILE_H

#include <stdio.h>
#include <sys/types.h>

#include "err.h"

enum atomic_file_kind {
	ATOMIC_FILE_RENAME,  /* temporary renamed over the target */
	ATOMIC_FILE_COPY,    /* temporary copied into the existing target */
	ATOMIC_FILE_DIRECT,  /* written straight to the target (FIFO, device) */
	ATOMIC_FILE_STDOUT,  /* "-" */
};

struct atomic_file {
	FILE *fp;       /* write here */
	char *path;     /* the target (symbolic links followed) */
	char *tmp_path; /* the temporary beside it, or NULL (unnamed, direct, stdout) */
	int unnamed;    /* the temporary is an O_TMPFILE, named only at commit */
	enum atomic_file_kind kind;
	int target_fd;  /* ATOMIC_FILE_COPY: the existing file, opened for writing */
};

/* Whether atomic_file_open would open path as it is (a FIFO, a device, a
 * /proc link): no temporary is made, and the open may wait (a FIFO that no
 * one reads yet). */
int atomic_file_is_direct(const char *path);

/* Opens path for writing; mode is a new file's (0644, 0600 for memory). */
int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode, struct kb_err *err);

/* Flushes what is buffered (and, for a temporary, syncs it) without putting
 * it in place: where several files make one output, what can fail for want
 * of space fails here, before any of them is committed. 0, or -1 with err
 * and af left for atomic_file_abort. */
int atomic_file_flush(struct atomic_file *af, struct kb_err *err);

/* Flushes and puts the output in place (fsync, then rename or copy); on
 * failure removes the temporary. Either way af is released. */
int atomic_file_commit(struct atomic_file *af, struct kb_err *err);

/* Removes the temporary and releases af (safe on an unopened af). What a
 * direct target was sent cannot be taken back. */
void atomic_file_abort(struct atomic_file *af);

#endif
