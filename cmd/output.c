/* Report outputs and exports (see output.h). */
#include "output.h"
#include "term.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/quote.h"
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
	 * signal in between would end the process and leave it behind. Not
	 * for a target written directly, which has no temporary: its open()
	 * waits for a FIFO's reader, and held back there Ctrl-C and SIGTERM
	 * could not end a run that no one reads; nor could a stop request, in
	 * a command that measures. */
	int direct = atomic_file_is_direct(path);
	if (direct && interrupt_wait_begin())
		return kb_fail(err, "stopped before '%s' was opened", path);
	interrupt_signals(&stop);
	if (!direct)
		pthread_sigmask(SIG_BLOCK, &stop, &saved);
	if ((rc = atomic_file_open(&file->af, path, mode, err)) == 0) {
		file->fp = file->af.fp;
		file->to_file = 1;
		file->watch = interrupt_watch(file->af.tmp_path);
	}
	if (!direct)
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
	else
		interrupt_wait_end();
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

/* The line that says where writing failed: the file's path, or standard
 * output, and why (errno as the failed write left it). */
static int write_error(const char *cmd, const struct cmd_output_file *file)
{
	const char *why = strerror(file->write_errno ? file->write_errno : EIO);
	char q[KB_QUOTE_SIZE];

	if (!file->to_file)
		return cli_error(cmd, "cannot write the report to standard output: %s", why);
	return cli_error(cmd, "cannot write '%s': %s", kb_quote(file->af.path, q), why);
}

/* Sends one file's buffered output on (standard output's to it, a file's
 * to its temporary, synced); nothing is put in place yet. 0, or prints the
 * error and returns the exit code. */
static int file_flush(const char *cmd, struct cmd_output_file *file)
{
	struct kb_err err;

	if (!file->to_file) {
		if (fflush(stdout) == 0)
			return 0;
		file->write_errno = errno;
		return write_error(cmd, file);
	}
	return atomic_file_flush(&file->af, &err) ? cli_fail(cmd, &err) : 0;
}

/* Puts one flushed file in place; the exit code. */
static int file_commit(const char *cmd, struct cmd_output_file *file)
{
	struct kb_err err;
	int rc = KB_EXIT_OK;
	sigset_t stop, saved;

	/* An unnamed temporary takes a name during the commit, which no
	 * handler watches: the signals wait until it is renamed (or removed). */
	interrupt_signals(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &saved);
	if (file->to_file && atomic_file_commit(&file->af, &err))
		rc = cli_fail(cmd, &err);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	file->to_file = 0;
	/* Watched until now (a named temporary); after the rename there is
	 * none, and the file is whole. */
	interrupt_unwatch(file->watch);
	file->watch = -1;
	return rc;
}

/* The report's file (0), then each export's. */
static struct cmd_output_file *file_at(struct cmd_output *o, unsigned i)
{
	return i == 0 ? &o->main : &o->exports[i - 1];
}

int cmd_output_open(const char *cmd, const char *path, mode_t mode, struct cmd_output *o)
{
	struct kb_err err;

	memset(o, 0, sizeof(*o));
	interrupt_install(INTERRUPT_EXIT);
	if (file_open(path, mode, &o->main, &err))
		return interrupt_exit_code() ? interrupt_exit_code() : cli_fail(cmd, &err);
	return 0;
}

int cmd_exports_option(int c, const char *arg, struct cmd_exports *e)
{
	if (c < CMD_O_EXPORT_JSON || c > CMD_O_EXPORT_MARKDOWN)
		return 0;
	e->path[c - CMD_O_EXPORT_JSON] = arg;
	return 1;
}

int cmd_exports_given(const struct cmd_exports *e)
{
	for (unsigned i = 0; i < CMD_EXPORTS_MAX; i++)
		if (e->path[i])
			return 1;
	return 0;
}

/* Where an output goes: the file (or standard output's) it is, or, for a
 * file yet to be made, its directory and name. */
struct output_place {
	struct stat st;
	const char *name; /* NULL: st is the file's own */
};

static int output_place(const char *path, struct output_place *p)
{
	char dir[4096];
	const char *slash = path ? strrchr(path, '/') : NULL;

	p->name = NULL;
	if (!path || strcmp(path, "-") == 0)
		return fstat(STDOUT_FILENO, &p->st);
	if (stat(path, &p->st) == 0)
		return 0;
	p->name = slash ? slash + 1 : path;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
	return stat(dir, &p->st);
}

/* The same file twice would be written by two temporaries, the last
 * rename winning: refused, as is standard output twice. By what the names
 * lead to, not their spelling: out.txt and ./out.txt, or /dev/stdout and
 * - redirected to a file or a pipe, are one file. A character device
 * (/dev/null, a terminal) takes each output in turn: no clash. */
static int same_output(const char *a, const char *b)
{
	struct output_place x, y;
	int placed = output_place(a, &x) == 0 && output_place(b, &y) == 0;

	if (strcmp(a ? a : "-", "-") == 0 && strcmp(b ? b : "-", "-") == 0)
		return 1;
	if (placed && !x.name && S_ISCHR(x.st.st_mode))
		return 0;
	if (strcmp(a ? a : "-", b ? b : "-") == 0)
		return 1;
	return placed && x.st.st_dev == y.st.st_dev && x.st.st_ino == y.st.st_ino && !x.name == !y.name &&
	       (!x.name || strcmp(x.name, y.name) == 0);
}

/* The exports in cmd_exports's order: each --export-NAME's format. */
static const char *const export_names[CMD_EXPORTS_MAX] = { "json", "csv", "markdown" };

int cmd_exports_not_input(const char *cmd, const struct cmd_exports *e, const char *input)
{
	char opt[32];
	int rc = 0;

	for (unsigned i = 0; i < CMD_EXPORTS_MAX && !rc; i++) {
		snprintf(opt, sizeof(opt), "--export-%s", export_names[i]);
		rc = cli_output_not_file(cmd, opt, e->path[i], input);
	}
	return rc;
}

int cmd_output_exports(const char *cmd, struct cmd_output *o, const struct cmd_exports *e, enum report_kind kind,
		       const char *report_path)
{
	const char *const *names = export_names;
	struct kb_err err;
	char q[KB_QUOTE_SIZE];

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
					 kb_quote(path, q));
		}
		struct cmd_output_file *x = &o->exports[o->nexports];
		if (file_open(strcmp(path, "-") == 0 ? NULL : path, 0644, x, &err)) {
			cmd_output_abort(o);
			return interrupt_exit_code() ? interrupt_exit_code() : cli_fail(cmd, &err);
		}
		x->f = f;
		o->nexports++;
	}
	return 0;
}

/* Text fits the terminal it goes to (COLUMNS there), else 100 columns. A
 * failure is kept with the file, for the error to name it. */
static int fitted_write(const struct report_format *f, const struct report_document *doc,
			struct cmd_output_file *file)
{
	struct report_document fitted = *doc;

	if (!fitted.columns)
		fitted.columns = term_columns(file->fp);
	errno = 0;
	if (report_write(f, &fitted, file->fp) == 0)
		return 0;
	file->write_errno = errno ? errno : EIO;
	return -1;
}

int cmd_output_write(struct cmd_output *o, const struct report_format *f, const struct report_document *doc)
{
	int rc = fitted_write(f, doc, &o->main);

	for (unsigned i = 0; rc == 0 && i < o->nexports; i++)
		rc = fitted_write(o->exports[i].f, doc, &o->exports[i]);
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
	int rc = KB_EXIT_OK;

	/* A report not written takes its exports with it, and every file is
	 * flushed before any is put in place: nothing half done. */
	if (write_rc != 0) {
		/* The file whose write failed; the report's when none says. */
		const struct cmd_output_file *failed = &o->main;
		for (unsigned i = 0; i <= o->nexports; i++)
			if (file_at(o, i)->write_errno) {
				failed = file_at(o, i);
				break;
			}
		rc = write_error(cmd, failed);
	}
	for (unsigned i = 0; rc == KB_EXIT_OK && i <= o->nexports; i++)
		rc = file_flush(cmd, file_at(o, i));
	if (rc != KB_EXIT_OK) {
		cmd_output_abort(o);
		return rc;
	}
	for (unsigned i = 0; i <= o->nexports; i++) {
		if (rc != KB_EXIT_OK)
			file_abort(file_at(o, i));
		else
			rc = file_commit(cmd, file_at(o, i));
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
