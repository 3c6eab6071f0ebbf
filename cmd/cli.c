/* Error lines and option diagnostics shared by the subcommands. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/quote.h"
#include "../common/size_parse.h"
#include "../datasets/file_input.h"
#include "../report/escape.h"

/* The tables of the getopt_long call in progress (one parse at a time). */
static const char *cli_shortopts = "";
static const struct option *cli_longopts;

int cli_getopt_long(int argc, char *const argv[], const char *shortopts,
		    const struct option *longopts, int *longindex)
{
	cli_shortopts = shortopts;
	cli_longopts = longopts;
	return getopt_long(argc, argv, shortopts, longopts, longindex);
}

/* The message may quote a file's content or name: one line on stderr, its
 * control characters shown, never obeyed, by a terminal. */
int cli_error(const char *cmd, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "ksmbench%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	escape_put(stderr, msg, ESCAPE_TERM);
	fputc('\n', stderr);
	return KB_EXIT_USAGE;
}

int cli_output_failed(const char *cmd)
{
	return cli_error(cmd, "cannot write the output: %s", strerror(errno ? errno : EIO));
}

int cli_fail(const char *cmd, const struct kb_err *err)
{
	return cli_error(cmd, "%s", err->msg);
}

int cli_parse_page_size(const char *cmd, const char *text, uint32_t *page_size)
{
	struct kb_err err;

	return kb_parse_page_size(text, page_size, &err) ? cli_error(cmd, "--page-size: %s", err.msg) : 0;
}

int cli_stdin_once(const char *cmd, char *const *paths, size_t n)
{
	unsigned seen = 0;

	for (size_t i = 0; i < n; i++)
		if (strcmp(paths[i], "-") == 0 && seen++)
			return cli_error(cmd, "standard input ('-') is named twice: it can be read only once");
	return 0;
}

#define SELF_DUPLICATE "each of its pages would be a duplicate of itself"

int cli_files_distinct(const char *cmd, char *const *paths, size_t n)
{
	struct stat *st = calloc(n + 1, sizeof(*st));
	char q[2][KB_QUOTE_SIZE];
	int rc = 0;

	if (!st)
		return cli_error(cmd, "out of memory");
	for (size_t i = 0; i < n && !rc; i++) {
		if (!file_input_rereadable(paths[i], &st[i])) { /* a pipe, or left to the open */
			st[i].st_ino = 0; /* not compared */
			continue;
		}
		for (size_t j = 0; j < i && !rc; j++)
			if (st[j].st_ino == st[i].st_ino && st[j].st_dev == st[i].st_dev && st[j].st_ino)
				rc = strcmp(paths[i], paths[j]) == 0
					     ? cli_error(cmd, "'%s' is named twice: %s", kb_quote(paths[i], q[0]),
							 SELF_DUPLICATE)
					     : cli_error(cmd, "'%s' and '%s' are the same file: %s", kb_quote(paths[j], q[0]),
							 kb_quote(paths[i], q[1]), SELF_DUPLICATE);
	}
	free(st);
	return rc;
}

int cli_output_not_file(const char *cmd, const char *opt, const char *output, const char *input)
{
	struct stat out, in;
	char q[2][KB_QUOTE_SIZE];

	if (!output || strcmp(output, "-") == 0 || !file_input_rereadable(output, &out))
		return 0;
	if (file_input_rereadable(input, &in) && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
		return cli_error(cmd, "%s '%s' is the input '%s': the %s would replace it", opt, kb_quote(output, q[0]),
				 kb_quote(input, q[1]), strcmp(opt, "-o") == 0 ? "report" : "export");
	return 0;
}

int cli_output_not_input(const char *cmd, const char *output, char *const *paths, size_t n)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++)
		rc = cli_output_not_file(cmd, "-o", output, paths[i]);
	return rc;
}

/* A long option getopt_long rejected: word is "--name" or "--name=value". */
static int bad_long_option(const char *cmd, const char *word, int optopt_value)
{
	const char *name = word + 2;
	size_t len = strcspn(name, "=");
	const struct option *hit = NULL;
	char matches[256] = "";
	unsigned nmatches = 0;

	for (const struct option *o = cli_longopts; o && o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len || (optopt_value && o->val == optopt_value && !hit))
			hit = o;
		size_t used = strlen(matches);
		snprintf(matches + used, sizeof(matches) - used, "%s--%s", nmatches++ ? ", " : "", o->name);
	}
	/* getopt_long names the option in optopt when it knew it: a missing
	 * value, or a value given to an option that takes none. */
	if (optopt_value && hit && name[len] == '=' && hit->has_arg == no_argument)
		return cli_error(cmd, "option '--%s' takes no value (see ksmbench %s --help)", hit->name, cmd);
	if (optopt_value && hit)
		return cli_error(cmd, "option '--%s' needs a value (see ksmbench %s --help)", hit->name, cmd);
	if (nmatches > 1)
		return cli_error(cmd, "ambiguous option '--%.*s' (%s)", (int)len, name, matches);
	return cli_error(cmd, "unknown option '--%.*s' (see ksmbench %s --help)", (int)len, name, cmd);
}

int cli_bad_option(const char *cmd, char **argv, int optopt_value)
{
	/* getopt_long leaves the offending word at argv[optind - 1]. */
	const char *word = argv[optind - 1], *next = argv[optind];
	const char *known = optopt_value > 0 && optopt_value != ':' ? strchr(cli_shortopts, optopt_value) : NULL;
	size_t len = strlen(word);

	/* getopt moves past a cluster only after its last letter: a letter
	 * refused before that (unknown: a known one would take the rest as its
	 * value), such as the first byte of "-é", is in argv[optind], and
	 * argv[optind - 1] is the word before, which quoted misled, and which
	 * as a long option ("list --names -zq") was blamed for it. A long
	 * option refused leaves optopt 0, its value past a byte, or a letter
	 * it shares with a short option. (A byte past 127 is negative where
	 * char is signed, as getopt stores it.) */
	int in_next = optopt_value != 0 && optopt_value >= -128 && optopt_value < 256 && !known && next &&
		      next[0] == '-' && next[1] != '-' && strchr(next + 1, (char)optopt_value);
	if (in_next && !(word[0] == '-' && word[1] != '-' && len > 1 && word[len - 1] == (char)optopt_value))
		word = next;
	if (strncmp(word, "--", 2) == 0 && word[2])
		return bad_long_option(cmd, word, optopt_value);
	if (known && known[1] == ':')
		return cli_error(cmd, "option '-%c' needs a value (see ksmbench %s --help)", optopt_value, cmd);
	if (optopt_value > ' ' && optopt_value < 127)
		return cli_error(cmd, "unknown option '-%c' (see ksmbench %s --help)", optopt_value, cmd);
	return cli_error(cmd, "unknown option in '%s' (see ksmbench %s --help)", word, cmd);
}
