/* ksmbench ksm: the live KSM counters and settings with their meaning,
 * and one process's KSM counters (scan/ksm_sysfs.h reads them,
 * report/ksm_report.c renders them); --watch and --profile follow them
 * over time (cmd/ksm_live.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/duration_parse.h"
#include "../common/kernel_timer.h"
#include "../common/quote.h"
#include "../common/size_parse.h"
#include "../report/text_wrap.h"
#include "../scan/ksm_sysfs.h"
#include "cli.h"
#include "ksm_live.h"
#include "run_cli.h"
#include "term.h"

static void usage(void)
{
	printf("usage: ksmbench ksm [--pid PID] [--format %s] [--wide]\n"
	       "       ksmbench ksm --watch INTERVAL [--count N] [--format table|json] [--wide]\n"
	       "       ksmbench ksm --profile DURATION [--format table|json] [--wide]\n\n"
	       "Prints every file of /sys/kernel/mm/ksm this kernel has, with its meaning, and\n"
	       "the scan rate it implies; with --pid, the process's /proc/PID/ksm_stat and\n"
	       "ksm_merging_pages. KSMBENCH_KSM_DIR reads another directory instead (tests).\n\n"
	       "  --pid PID            also the process's KSM counters\n"
	       "  --watch INTERVAL     the counters every INTERVAL (e.g. 1s) and their rates: pages\n"
	       "                       scanned/s, merges/s, full-scan time, and checksumming's share\n"
	       "                       of a CPU from the cold cost of this kernel's checksum (xxhash;\n"
	       "                       jhash2 before 5.0, lookup2's before 2.6.38; the kernel is\n"
	       "                       uname's or KSMBENCH_KERNEL_RELEASE's) (json: one object a line)\n"
	       "  --count N            with --watch: N intervals (default: until Ctrl-C)\n"
	       "  --profile DURATION   sample ksmd for DURATION (e.g. 5s; root) with perf_event_open\n"
	       "                       (cycles, else cpu-clock) and report its CPU time, the pages\n"
	       "                       scanned and the share and ns per scanned page of checksum,\n"
	       "                       memcmp_pages, tree walks and the rest, beside scan's cold\n"
	       "                       checksum cost (KSMBENCH_KALLSYMS: another symbol file)\n"
	       "  --format FMT         %s (default table)\n"
	       "  --wide               the text unabridged: meanings whole, --watch's general_profit\n"
	       "                       column, long lines unwrapped (default: fits 100 columns, or\n"
	       "                       COLUMNS on a terminal)\n",
	       run_cli_formats(REPORT_KSM), run_cli_format_list(REPORT_KSM));
}

struct ksm_cli {
	const char *format;
	int pid;
	uint64_t watch_ns, profile_ns;
	unsigned count;
	int wide;
};

/* 0, an exit code, or -1 after --help. */
static int parse(int argc, char **argv, struct ksm_cli *k)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "watch", required_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "profile", required_argument, NULL, 'P' },
		{ "wide", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_err err;
	char q[KB_QUOTE_SIZE];
	uint64_t v;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (kb_parse_uint(optarg, 0x7fffffff, &v, &err) || v == 0)
				return cli_error("ksm", "--pid '%s' is not a process id", kb_quote(optarg, q));
			k->pid = (int)v;
			break;
		case 'f': k->format = optarg; break;
		case 'w':
		case 'P': /* 10 ms to an hour, each */
			if (kb_parse_duration_ns(optarg, 10000000u, 3600000000000ull, c == 'w' ? &k->watch_ns : &k->profile_ns,
						 &err))
				return cli_error("ksm", "--%s: %s", c == 'w' ? "watch" : "profile", err.msg);
			break;
		case 'c':
			if (kb_parse_uint(optarg, 1000000, &v, &err) || v == 0)
				return cli_error("ksm", "--count '%s' is not a number from 1 to 1000000",
						 kb_quote(optarg, q));
			k->count = (unsigned)v;
			break;
		case 'W': k->wide = 1; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("ksm", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("ksm", "unexpected argument '%s'", argv[optind]);
	if ((k->watch_ns != 0) + (k->profile_ns != 0) + (k->pid != 0) > 1)
		return cli_error("ksm", "--pid, --watch and --profile exclude each other");
	if (k->count && !k->watch_ns)
		return cli_error("ksm", "--count goes with --watch");
	return 0;
}

/* The width the text fits, by the documents' rule (report_columns): 0
 * with --wide, else the terminal's (COLUMNS there), else the default. */
static unsigned text_width(const struct ksm_cli *k)
{
	const struct report_document d = { .wide = k->wide, .columns = term_columns(stdout) };

	return report_columns(&d);
}

/* --watch and --profile: table or json only. */
static int live(const struct ksm_cli *k, const char *dir)
{
	int json = strcmp(k->format, "json") == 0;
	unsigned width = text_width(k);

	if (!json && strcmp(k->format, "table") != 0)
		return cli_error("ksm", "--format must be table or json with --%s", k->watch_ns ? "watch" : "profile");
	return k->watch_ns ? ksm_live_watch(dir, k->watch_ns, k->count, json, width)
			   : ksm_live_profile(dir, k->profile_ns, json, width);
}

int cmd_ksm(int argc, char **argv)
{
	struct report_document doc = { .kind = REPORT_KSM, .ksm_dir = ksm_sysfs_dir() };
	struct ksm_value *sys = calloc(KSM_VALUES_MAX, sizeof(*sys)), *proc = calloc(KSM_VALUES_MAX, sizeof(*proc));
	struct ksm_cli k = { .format = "table" };
	const struct report_format *f;
	struct kb_err err;
	int rc;

	if (!sys || !proc)
		rc = cli_error("ksm", "out of memory");
	else if ((rc = parse(argc, argv, &k)) == 0 && (k.watch_ns || k.profile_ns))
		rc = live(&k, doc.ksm_dir);
	else if (rc == 0 && (doc.pid = k.pid, rc = run_cli_format("ksm", k.format, REPORT_KSM, &f)) == 0) {
		if (ksm_read_sysfs(doc.ksm_dir, sys, KSM_VALUES_MAX, &doc.nsysfs, &err) ||
		    (doc.pid && ksm_read_process(doc.pid, proc, KSM_VALUES_MAX, &doc.nprocess, &err)))
			rc = cli_fail("ksm", &err);
		doc.ksm_page_size = ksm_page_size();
		doc.ksm_schedule = ksmd_schedule_running(0, 0);
		doc.sysfs = sys;
		doc.process = proc;
		doc.wide = k.wide;
		doc.columns = term_columns(stdout);
		if (rc == 0 && (report_write(f, &doc, stdout) != 0 || fflush(stdout) != 0))
			rc = cli_output_failed("ksm");
	}
	free(sys);
	free(proc);
	return rc < 0 ? KB_EXIT_OK : rc;
}
