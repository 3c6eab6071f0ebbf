/* ksmbench capture: a running process's memory written as an ELF core. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/size_parse.h"
#include "../datasets/capture.h"
#include "cli.h"
#include "output.h"

static void usage(void)
{
	printf("usage: ksmbench capture --pid PID -o FILE [--all] [--mergeable]\n\n"
	       "Writes the private anonymous memory of process PID (what KSM can merge:\n"
	       "heap, stacks, anonymous mmap, a VM's guest RAM) as an ELF core that\n"
	       "ksmbench and gdb read. Only pages present in memory (/proc/PID/pagemap)\n"
	       "are written; untouched and swapped-out pages are recorded as holes.\n"
	       "The process keeps running and is only read (process_vm_readv); stop it\n"
	       "first (kill -STOP) for a consistent image. FILE is created with mode 0600.\n\n"
	       "  -p, --pid PID   the process\n"
	       "  -o, --output F  the core file to write\n"
	       "  --all           also file-backed and shared mappings\n"
	       "  --mergeable     only mappings KSM may merge (VmFlags mg in /proc/PID/smaps)\n");
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
	while ((c = getopt_long(argc, argv, "p:o:h", opts, NULL)) != -1) {
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

	struct cmd_output out;
	struct capture_stats st;
	int rc = cmd_output_open("capture", output, 0600, &out);
	if (rc)
		return rc;
	if (capture_process((pid_t)pid, all, out.fp, &st, &err)) {
		cmd_output_abort(&out);
		return cli_fail("capture", &err);
	}
	if ((rc = cmd_output_close("capture", &out, 0)) != 0)
		return rc;
	printf("captured process %llu: %llu mappings, %llu segments, %llu pages present, "
	       "%llu absent, %llu bytes -> %s\n", (unsigned long long)pid,
	       (unsigned long long)st.mappings, (unsigned long long)st.segments,
	       (unsigned long long)st.pages_present, (unsigned long long)st.pages_absent,
	       (unsigned long long)st.bytes, output);
	return KB_EXIT_OK;
}
