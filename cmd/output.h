/* Where a command's report goes: stdout, or -o FILE written atomically (a
 * temporary renamed over FILE once complete), with the interrupt path of
 * interrupt.h watching the temporary. Every command that writes a report
 * opens one, writes with report_write (any number of times), closes. */
#ifndef KB_OUTPUT_H
#define KB_OUTPUT_H

#include <stdio.h>
#include <sys/types.h>

#include "../common/atomic_file.h"
#include "../report/report.h"

struct cmd_output {
	FILE *fp;
	struct atomic_file af;
	int to_file;
};

/* path NULL: stdout. mode: the file's (0644; 0600 for memory). Installs the
 * signal handlers (INTERRUPT_EXIT unless the command asked for STOP). 0,
 * or prints the error and returns the exit code. */
int cmd_output_open(const char *cmd, const char *path, mode_t mode, struct cmd_output *o);

/* Writes doc in format f. */
int cmd_output_write(struct cmd_output *o, const struct report_format *f, const struct report_document *doc);

/* Commits (write_rc 0) or discards (write_rc -1, with an error line) the
 * output; returns the exit code. */
int cmd_output_close(const char *cmd, struct cmd_output *o, int write_rc);

/* Discards the output after an error already reported: no file is left
 * and nothing more is printed. */
void cmd_output_abort(struct cmd_output *o);

/* open, write, close: the whole report at once. */
int cmd_report(const char *cmd, const char *path, const struct report_format *f,
	       const struct report_document *doc);

#endif
