/* Output files written atomically: a temporary file beside the target,
 * renamed over it only when everything was written. A failed or interrupted
 * run leaves no file and no partial output. */
#ifndef KB_ATOMIC_FILE_H
#define KB_ATOMIC_FILE_H

#include <stdio.h>
#include <sys/types.h>

#include "err.h"

struct atomic_file {
	FILE *fp;       /* write here */
	char *path;     /* the target */
	char *tmp_path; /* the temporary beside it */
};

/* Creates the temporary with the given mode (e.g. 0644, 0600 for memory). */
int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode, struct kb_err *err);

/* Flushes, fsyncs and renames onto the target; on failure removes the
 * temporary. Either way af is released. */
int atomic_file_commit(struct atomic_file *af, struct kb_err *err);

/* Removes the temporary and releases af (safe on an unopened af). */
void atomic_file_abort(struct atomic_file *af);

#endif
