/* ksmbench list: the registered hashes, whether this CPU runs them, whether
 * the kernel runs them, and where they come from (report/list_report.c
 * renders them). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../common/kernel_release.h"
#include "../hashes/hash.h"
#include "cli.h"
#include "output.h"
#include "run_cli.h"
#include "term.h"

static void usage(void)
{
	printf("usage: ksmbench list [--format %s] [--wide] [--kernel-release R]\n"
	       "                     [--names [--available]]\n\n"
	       "Lists every registered hash: whether this CPU can run it (and why not),\n"
	       "whether and since when the kernel runs it, provenance, and for the aliases\n"
	       "which implementation they stand for and how that was chosen (the CPU table\n"
	       "of docs/hashes.md, or a measurement at start-up). The table fits 100\n"
	       "columns; --wide adds bits, the kernel function, the rule and the description.\n"
	       "The kernel's crc32c line follows the running kernel's release, or R's.\n"
	       "--names prints only the names, one per line; --available only those this CPU\n"
	       "can run (the shell completion's -H values).\n",
	       run_cli_formats(REPORT_LIST));
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "names", no_argument, NULL, 'n' },
		{ "available", no_argument, NULL, 'a' },
		{ "wide", no_argument, NULL, 'w' },
		{ "kernel-release", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 },
	};
	const struct report_format *f;
	const char *format = NULL, *release = NULL;
	char running[128];
	int c, names = 0, wide = 0, available = 0;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "h", opts, NULL)) != -1) { /* --format: no -f, as no other command has one */
		switch (c) {
		case 'f': format = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		case 'n': names = 1; break;
		case 'a': available = 1; break;
		case 'w': wide = 1; break;
		case 'k':
			if (run_cli_parse_kernel_release("list", optarg, &release))
				return KB_EXIT_USAGE;
			break;
		default: return cli_bad_option("list", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("list", "unexpected argument '%s'", argv[optind]);
	int rc = run_cli_format("list", format ? format : "table", REPORT_LIST, &f);
	if (rc != 0)
		return rc;
	if (available && !names)
		return cli_error("list", "--available goes with --names");
	if (names && (format || wide || release))
		return cli_error("list", "--names prints one name a line: no --format, --wide or --kernel-release");
	if (names) { /* for shell completion */
		for (unsigned i = 0; i < hash_registry_count; i++)
			if (!available || hash_available(hash_registry[i]))
				printf("%s\n", hash_registry[i]->name);
		return KB_EXIT_OK; /* main's flush says if it could not be written */
	}
	struct report_document doc = { .kind = REPORT_LIST, .wide = wide, .columns = term_columns(stdout),
					.kernel_release = release ? release : kernel_release_running(running, sizeof(running)) };
	if (report_write(f, &doc, stdout) != 0 || fflush(stdout) != 0)
		return cli_error("list", "cannot write the list: %s", strerror(errno));
	return KB_EXIT_OK;
}
