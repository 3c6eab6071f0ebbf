/* Report outputs (see output.h). */
#include "output.h"
#include "term.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"

int cmd_output_open(const char *cmd, const char *path, mode_t mode, struct cmd_output *o)
{
	struct kb_err err;
	sigset_t stop, saved;
	int rc;

	memset(o, 0, sizeof(*o));
	o->fp = stdout;
	interrupt_install(INTERRUPT_EXIT);
	if (!path)
		return 0;
	/* Held back from the temporary's creation until it is watched: a
	 * signal in between would end the process and leave it behind. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, &saved);
	if ((rc = atomic_file_open(&o->af, path, mode, &err)) == 0) {
		o->fp = o->af.fp;
		o->to_file = 1;
		interrupt_watch_file(o->af.tmp_path);
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return rc ? cli_fail(cmd, &err) : 0;
}

/* Text fits the terminal it goes to (COLUMNS there), else 100 columns. */
int cmd_output_write(struct cmd_output *o, const struct report_format *f, const struct report_document *doc)
{
	struct report_document fitted = *doc;

	if (!fitted.columns)
		fitted.columns = term_columns(o->fp);
	return report_write(f, &fitted, o->fp);
}

void cmd_output_abort(struct cmd_output *o)
{
	if (o->to_file)
		atomic_file_abort(&o->af);
	interrupt_watch_file(NULL);
}

int cmd_output_close(const char *cmd, struct cmd_output *o, int write_rc)
{
	struct kb_err err;
	int rc = KB_EXIT_OK;

	if (!o->to_file) {
		if (write_rc != 0 || fflush(stdout) != 0)
			rc = cli_error(cmd, "cannot write the report");
	} else if (write_rc != 0) {
		atomic_file_abort(&o->af);
		rc = cli_error(cmd, "cannot write the report");
	} else if (atomic_file_commit(&o->af, &err)) {
		rc = cli_fail(cmd, &err);
	}
	/* Watched until now: a signal during the commit removes the temporary
	 * (after the rename there is none, and the file is whole). */
	interrupt_watch_file(NULL);
	return rc;
}

int cmd_report(const char *cmd, const char *path, const struct report_format *f,
	       const struct report_document *doc)
{
	struct cmd_output out;
	int rc = cmd_output_open(cmd, path, 0644, &out);

	return rc ? rc : cmd_output_close(cmd, &out, cmd_output_write(&out, f, doc));
}
