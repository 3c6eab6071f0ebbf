/* ksmbench capture: a running process's memory written as an ELF core. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/size_parse.h"
#include "../datasets/capture.h"
#include "cli.h"
#include "output.h"
#include "../common/plural.h"

static void usage(void)
{
	printf("usage: ksmbench capture --pid PID -o FILE [--all] [--mergeable]\n\n"
	       "Writes the private anonymous memory of process PID (what KSM can merge:\n"
	       "heap, stacks, anonymous mmap, a VM's guest RAM) as an ELF core that\n"
	       "ksmbench and gdb read. Only pages present in memory (/proc/PID/pagemap)\n"
	       "are written; untouched and swapped-out pages are recorded as holes.\n"
	       "The process keeps running and is only read (process_vm_readv); stop it\n"
	       "first (kill -STOP) for a consistent image. FILE is created with mode 0600;\n"
	       "-o - writes the core to standard output (headers first: it streams, e.g.\n"
	       "into gzip or ksmbench sum --per-page -). A summary line goes to stderr.\n\n"
	       "  -p, --pid PID   the process\n"
	       "  -o, --output F  the core file to write ('-': standard output)\n"
	       "  --all           also file-backed and shared mappings\n"
	       "  --mergeable     only mappings KSM may merge (VmFlags mg in /proc/PID/smaps)\n");
}

/* The summary goes to stderr: standard output may be the core itself. */
static int capture_to(pid_t pid, int all, const char *output)
{
	struct cmd_output out;
	struct capture_stats st;
	struct kb_err err;
	int rc = cmd_output_open("capture", output, 0600, &out);

	if (rc)
		return rc;
	if (capture_process(pid, all, out.fp, &st, &err)) {
		cmd_output_abort(&out);
		return cli_fail("capture", &err);
	}
	if ((rc = cmd_output_close("capture", &out, 0)) != 0)
		return rc;
	fprintf(stderr, "captured process %d: %llu mapping%s, %llu segment%s, %llu page%s present, "
		"%llu absent, %llu byte%s -> %s\n", (int)pid, (unsigned long long)st.mappings, kb_s(st.mappings),
		(unsigned long long)st.segments, kb_s(st.segments), (unsigned long long)st.pages_present,
		kb_s(st.pages_present), (unsigned long long)st.pages_absent, (unsigned long long)st.bytes,
		kb_s(st.bytes), strcmp(output, "-") == 0 ? "standard output" : output);
	if (st.pages_vanished)
		fprintf(stderr, "ksmbench capture: warning: %llu page%s %s unmapped by the process while "
			"it was captured and %s written as zeros (stop it first: kill -STOP)\n",
			(unsigned long long)st.pages_vanished, kb_s(st.pages_vanished),
			st.pages_vanished == 1 ? "was" : "were", st.pages_vanished == 1 ? "is" : "are");
	return KB_EXIT_OK;
}

int cmd_capture(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "all", no_argument, NULL, 'a' },
		{ "mergeable", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	uint64_t pid = 0;
	int all = 0, c;
	struct kb_err err;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "p:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (kb_parse_uint(optarg, 0x7fffffff, &pid, &err) || pid == 0)
				return cli_error("capture", "bad PID '%s'", optarg);
			break;
		case 'o': output = optarg; break;
		case 'a': all |= CAPTURE_ALL; break;
		case 'm': all |= CAPTURE_MERGEABLE; break;
		case 'h': usage(); return KB_EXIT_OK;
		default: return cli_bad_option("capture", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("capture", "unexpected argument '%s'", argv[optind]);
	if (!pid || !output)
		return cli_error("capture", "--pid and -o are required (see ksmbench capture --help)");

	if (strcmp(output, "-") == 0 && isatty(STDOUT_FILENO))
		return cli_error("capture", "refusing to write a core to a terminal (redirect it, or give -o FILE)");
	return capture_to((pid_t)pid, all, output);
}
