/* Where a command's report goes: stdout, or -o FILE written atomically (a
 * temporary renamed over FILE once complete), with the interrupt path of
 * interrupt.h watching the temporary; and the exports (--export-json FILE
 * and the like): the same document in further formats, each file written
 * the same way. Every command that writes a report opens one, adds its
 * exports, writes with report_write (any number of times), closes. */
#ifndef KB_OUTPUT_H
#define KB_OUTPUT_H

#include <getopt.h>
#include <stdio.h>
#include <sys/types.h>

#include "../common/atomic_file.h"
#include "../report/report.h"

#define CMD_EXPORTS_MAX 3

/* One file written: the report (fp of the format asked) or an export. */
struct cmd_output_file {
	FILE *fp;
	struct atomic_file af;
	int to_file, watch;
	int write_errno; /* why writing it failed (cmd_output_write), 0 if it did not */
	const struct report_format *f; /* an export's format */
};

struct cmd_output {
	struct cmd_output_file main, exports[CMD_EXPORTS_MAX]; /* main.fp: the report's stream */
	unsigned nexports;
};

/* path NULL: stdout. mode: the file's (0644; 0600 for memory). Installs the
 * signal handlers (INTERRUPT_EXIT unless the command asked for STOP). 0,
 * or prints the error and returns the exit code. */
int cmd_output_open(const char *cmd, const char *path, mode_t mode, struct cmd_output *o);

/* The export options of the commands that measure, as their option values
 * (CMD_EXPORT_OPTIONS in a getopt_long table) and the paths given. */
enum { CMD_O_EXPORT_JSON = 900, CMD_O_EXPORT_CSV, CMD_O_EXPORT_MARKDOWN };
#define CMD_EXPORT_OPTIONS                                                     \
	{ "export-json", required_argument, NULL, CMD_O_EXPORT_JSON },         \
	{ "export-csv", required_argument, NULL, CMD_O_EXPORT_CSV },           \
	{ "export-markdown", required_argument, NULL, CMD_O_EXPORT_MARKDOWN }
/* Their --help lines, and those of -q and --wide, which the same commands
 * take (bench and thread). */
#define CMD_EXPORT_HELP                                                                  \
	"  --export-json FILE    also write the results as JSON to FILE (- is stdout)\n"   \
	"  --export-csv FILE     ... as CSV\n"                                              \
	"  --export-markdown FILE ... as Markdown\n"                                        \
	"  -q, --quiet           no progress line and no warnings on stderr\n"             \
	"  --wide                every column and every unstable result's reasons (the\n"  \
	"                        default table fits 100 columns, or COLUMNS on a terminal)\n"
struct cmd_exports {
	const char *path[CMD_EXPORTS_MAX]; /* json, csv, markdown; NULL: not asked */
};

/* Takes option c if it is an export option: 1, else 0. */
int cmd_exports_option(int c, const char *arg, struct cmd_exports *e);

/* Whether any export was asked for. */
int cmd_exports_given(const struct cmd_exports *e);

/* 0, or prints the error and returns the exit code: an export would
 * replace the file input (cli_output_not_file). */
int cmd_exports_not_input(const char *cmd, const struct cmd_exports *e, const char *input);

/* Opens the exports asked for beside o's report (after cmd_output_open),
 * each in its format for kind. 0, or prints the error, aborts o and returns
 * the exit code: a format kind has not, two outputs to one path, more than
 * one to standard output. */
int cmd_output_exports(const char *cmd, struct cmd_output *o, const struct cmd_exports *e, enum report_kind kind,
		       const char *report_path);

/* Writes doc in format f to the report, and in each export's format to
 * the exports. */
int cmd_output_write(struct cmd_output *o, const struct report_format *f, const struct report_document *doc);

/* Commits (write_rc 0) or discards (write_rc -1, with an error line that
 * names the file whose write failed, else the report's) the report and its
 * exports; returns the exit code. */
int cmd_output_close(const char *cmd, struct cmd_output *o, int write_rc);

/* Discards the output after an error already reported: no file is left
 * and nothing more is printed. */
void cmd_output_abort(struct cmd_output *o);

/* open, write, close: the whole report at once. */
int cmd_report(const char *cmd, const char *path, const struct report_format *f,
	       const struct report_document *doc);

#endif
