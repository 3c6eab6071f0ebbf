/* Report outputs and exports (see output.h). */
#include "output.h"
#include "term.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"

/* Opens one file (NULL: stdout) and has its temporary watched. */
static int file_open(const char *path, mode_t mode, struct cmd_output_file *file, struct kb_err *err)
{
	sigset_t stop, saved;
	int rc;

	file->fp = stdout;
	file->watch = -1;
	if (!path)
		return 0;
	/* Held back from the temporary's creation until it is watched: a
	 * signal in between would end the process and leave it behind. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, &saved);
	if ((rc = atomic_file_open(&file->af, path, mode, err)) == 0) {
		file->fp = file->af.fp;
		file->to_file = 1;
		file->watch = interrupt_watch(file->af.tmp_path);
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return rc;
}

static void file_abort(struct cmd_output_file *file)
{
	if (file->to_file)
		atomic_file_abort(&file->af);
	file->to_file = 0;
	interrupt_unwatch(file->watch);
	file->watch = -1;
}

/* Puts one file in place; the exit code. */
static int file_close(const char *cmd, struct cmd_output_file *file, int write_rc)
{
	struct kb_err err;
	int rc = KB_EXIT_OK;

	if (!file->to_file) {
		if (write_rc != 0 || fflush(stdout) != 0)
			rc = cli_error(cmd, "cannot write the report");
	} else if (write_rc != 0) {
		atomic_file_abort(&file->af);
		rc = cli_error(cmd, "cannot write the report");
	} else if (atomic_file_commit(&file->af, &err)) {
		rc = cli_fail(cmd, &err);
	}
	file->to_file = 0;
	/* Watched until now: a signal during the commit removes the temporary
	 * (after the rename there is none, and the file is whole). */
	interrupt_unwatch(file->watch);
	file->watch = -1;
	return rc;
}

int cmd_output_open(const char *cmd, const char *path, mode_t mode, struct cmd_output *o)
{
	struct kb_err err;

	memset(o, 0, sizeof(*o));
	interrupt_install(INTERRUPT_EXIT);
	if (file_open(path, mode, &o->main, &err))
		return cli_fail(cmd, &err);
	o->fp = o->main.fp;
	return 0;
}

int cmd_exports_option(int c, const char *arg, struct cmd_exports *e)
{
	if (c < CMD_O_EXPORT_JSON || c > CMD_O_EXPORT_MARKDOWN)
		return 0;
	e->path[c - CMD_O_EXPORT_JSON] = arg;
	return 1;
}

/* The same file twice would be written by two temporaries, the last
 * rename winning: refused, as is standard output twice. */
static int same_output(const char *a, const char *b)
{
	return strcmp(a ? a : "-", b ? b : "-") == 0;
}

int cmd_output_exports(const char *cmd, struct cmd_output *o, const struct cmd_exports *e, enum report_kind kind,
		       const char *report_path)
{
	static const char *const names[CMD_EXPORTS_MAX] = { "json", "csv", "markdown" };
	struct kb_err err;

	for (unsigned i = 0; i < CMD_EXPORTS_MAX; i++) {
		const char *path = e->path[i];
		const struct report_format *f = path ? report_format_find(names[i], kind, &err) : NULL;
		int clash = path && same_output(path, report_path);
		for (unsigned j = 0; path && j < i; j++)
			clash |= e->path[j] && same_output(path, e->path[j]);
		if (!path)
			continue;
		if (clash || !f) {
			cmd_output_abort(o);
			if (!f)
				return cli_error(cmd, "--export-%s: %s", names[i], err.msg);
			return cli_error(cmd, "--export-%s: '%s' is written by another output already", names[i],
					 path);
		}
		struct cmd_output_file *x = &o->exports[o->nexports];
		if (file_open(strcmp(path, "-") == 0 ? NULL : path, 0644, x, &err)) {
			cmd_output_abort(o);
			return cli_fail(cmd, &err);
		}
		x->f = f;
		o->nexports++;
	}
	return 0;
}

/* Text fits the terminal it goes to (COLUMNS there), else 100 columns. */
static int fitted_write(const struct report_format *f, const struct report_document *doc, FILE *fp)
{
	struct report_document fitted = *doc;

	if (!fitted.columns)
		fitted.columns = term_columns(fp);
	return report_write(f, &fitted, fp);
}

int cmd_output_write(struct cmd_output *o, const struct report_format *f, const struct report_document *doc)
{
	int rc = fitted_write(f, doc, o->main.fp);

	for (unsigned i = 0; rc == 0 && i < o->nexports; i++)
		rc = fitted_write(o->exports[i].f, doc, o->exports[i].fp);
	return rc;
}

void cmd_output_abort(struct cmd_output *o)
{
	file_abort(&o->main);
	for (unsigned i = 0; i < o->nexports; i++)
		file_abort(&o->exports[i]);
	o->nexports = 0;
}

int cmd_output_close(const char *cmd, struct cmd_output *o, int write_rc)
{
	int rc = file_close(cmd, &o->main, write_rc);

	/* A report not written takes its exports with it: nothing half done. */
	for (unsigned i = 0; i < o->nexports; i++) {
		if (rc != KB_EXIT_OK)
			file_abort(&o->exports[i]);
		else
			rc = file_close(cmd, &o->exports[i], 0);
	}
	o->nexports = 0;
	return rc;
}

int cmd_report(const char *cmd, const char *path, const struct report_format *f,
	       const struct report_document *doc)
{
	struct cmd_output out;
	int rc = cmd_output_open(cmd, path, 0644, &out);

	return rc ? rc : cmd_output_close(cmd, &out, cmd_output_write(&out, f, doc));
}
