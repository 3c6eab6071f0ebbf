/* Shared pieces of the command line: exit codes, error lines, subcommands. */
#ifndef KB_CLI_H
#define KB_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "../common/err.h"

enum {
	KB_EXIT_OK = 0,
	KB_EXIT_FAIL = 1,  /* verification failure or regression */
	KB_EXIT_USAGE = 2, /* usage or input error */
	KB_EXIT_INCONCLUSIVE = 3, /* compare: no regression, but results that cannot tell */
};

struct cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand's name */
};

/* Prints "ksmbench CMD: message" on stderr; returns KB_EXIT_USAGE. */
int cli_error(const char *cmd, const char *fmt, ...) KB_PRINTF(2, 3);

/* "cannot write the output" with the reason errno gives (EIO if none). */
int cli_output_failed(const char *cmd);

/* Prints an error value the same way; returns KB_EXIT_USAGE. */
int cli_fail(const char *cmd, const struct kb_err *err);

/* --page-size's TEXT (kb_parse_page_size): 0, or prints the error naming
 * the option and returns its code. */
int cli_parse_page_size(const char *cmd, const char *text, uint32_t *page_size);

/* Standard input ('-') at most once among a command's n input paths: read
 * again, it would be empty. 0, or prints the error and returns its code. */
int cli_stdin_once(const char *cmd, char *const *paths, size_t n);

/* No file twice among n input paths, by name or through another name (a
 * link): for scan, whose dumps are one memory, where a file twice would
 * find each of its pages a duplicate of itself. Paths that cannot be
 * looked at are left to the open that follows. 0, or prints the error and
 * returns its code. */
int cli_files_distinct(const char *cmd, char *const *paths, size_t n);

/* The report's file (-o output; NULL or '-': standard output) is none of
 * the n input paths: written in place of an input (scan -o a.raw a.raw),
 * it would replace what it came from. 0, or prints the error and returns
 * its code. */
int cli_output_not_input(const char *cmd, const char *output, char *const *paths, size_t n);

/* The same for one output named by option opt ("-o", "--export-json") and
 * one input path (bench --data FILE -o FILE would replace the dump). */
int cli_output_not_file(const char *cmd, const char *opt, const char *output, const char *input);

/* The one line for an option getopt_long rejected (opterr is 0 everywhere):
 * "option '--repeat' needs a value", "unknown option '-x'", "option '--all'
 * takes no value", "ambiguous option '--w' (--window, --warmup)". */
int cli_bad_option(const char *cmd, char **argv, int optopt_value);

/* getopt_long, remembering the option tables it was given: getopt returns
 * the same '?' for an unknown option and for one without its value, and
 * cli_bad_option needs the tables to tell them apart. Every subcommand
 * parses its options with it, never with getopt_long itself. */
int cli_getopt_long(int argc, char *const argv[], const char *shortopts,
		    const struct option *longopts, int *longindex);

/* Subcommands, each in its own file. */
int cmd_list(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_sum(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_thread(int argc, char **argv);
int cmd_select(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_ksm(int argc, char **argv);
int cmd_ceiling(int argc, char **argv);

#endif
