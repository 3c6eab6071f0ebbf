/* Error lines and option diagnostics shared by the subcommands. */
#include "cli.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

int cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ksmbench%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return KB_EXIT_USAGE;
}

int cli_fail(const char *cmd, const struct kb_err *err)
{
	return cli_error(cmd, "%s", err->msg);
}

int cli_bad_option(const char *cmd, char **argv, int optopt_value)
{
	/* getopt_long leaves the offending word at argv[optind - 1]. */
	const char *word = argv[optind - 1];

	if (optopt_value && word[0] == '-' && word[1] != '-' && word[1] == optopt_value && word[2] == '\0')
		return cli_error(cmd, "option '-%c' needs a value (see ksmbench %s --help)", optopt_value, cmd);
	if (optopt_value)
		return cli_error(cmd, "unknown option '-%c' (see ksmbench %s --help)", optopt_value, cmd);
	return cli_error(cmd, "unknown option or missing value in '%s' (see ksmbench %s --help)", word, cmd);
}
