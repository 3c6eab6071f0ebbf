/* ksmbench ksm: the live KSM counters and settings with their meaning,
 * and one process's KSM counters (scan/ksm_sysfs.h reads them,
 * report/ksm_report.c renders them). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/size_parse.h"
#include "../scan/ksm_sysfs.h"
#include "cli.h"
#include "run_cli.h"

static void usage(void)
{
	printf("usage: ksmbench ksm [--pid PID] [--format %s]\n\n"
	       "Prints every file of /sys/kernel/mm/ksm this kernel has, with its meaning, and\n"
	       "the scan rate it implies; with --pid, the process's /proc/PID/ksm_stat and\n"
	       "ksm_merging_pages. KSMBENCH_KSM_DIR reads another directory instead (tests).\n",
	       run_cli_formats(REPORT_KSM));
}

/* 0, an exit code, or -1 after --help. */
static int parse(int argc, char **argv, const char **format, int *pid)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_err err;
	uint64_t v;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (kb_parse_uint(optarg, 0x7fffffff, &v, &err) || v == 0)
				return cli_error("ksm", "--pid '%s' is not a process id", optarg);
			*pid = (int)v;
			break;
		case 'f': *format = optarg; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("ksm", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("ksm", "unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_ksm(int argc, char **argv)
{
	struct report_document doc = { .kind = REPORT_KSM, .ksm_dir = getenv("KSMBENCH_KSM_DIR") };
	struct ksm_value *sys = calloc(KSM_VALUES_MAX, sizeof(*sys)), *proc = calloc(KSM_VALUES_MAX, sizeof(*proc));
	const char *format = "table";
	const struct report_format *f;
	struct kb_err err;
	int rc;

	if (!doc.ksm_dir || !*doc.ksm_dir)
		doc.ksm_dir = KSM_SYSFS_DIR;
	if (!sys || !proc)
		rc = cli_error("ksm", "out of memory");
	else if ((rc = parse(argc, argv, &format, &doc.pid)) == 0 &&
		 (rc = run_cli_format("ksm", format, REPORT_KSM, &f)) == 0) {
		if (ksm_read_sysfs(doc.ksm_dir, sys, KSM_VALUES_MAX, &doc.nsysfs, &err) ||
		    (doc.pid && ksm_read_process(doc.pid, proc, KSM_VALUES_MAX, &doc.nprocess, &err)))
			rc = cli_fail("ksm", &err);
		doc.sysfs = sys;
		doc.process = proc;
		if (rc == 0 && (report_write(f, &doc, stdout) != 0 || fflush(stdout) != 0))
			rc = cli_error("ksm", "cannot write the output");
	}
	free(sys);
	free(proc);
	return rc < 0 ? KB_EXIT_OK : rc;
}
