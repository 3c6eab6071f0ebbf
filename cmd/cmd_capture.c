/* ksmbench capture: running processes' memory written as ELF cores, with
 * what KSM sees of each page (datasets/capture.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/duration_parse.h"
#include "../common/quote.h"
#include "../common/size_parse.h"
#include "../datasets/capture.h"
#include "../report/escape.h"
#include "../common/plural.h"
#include "../scan/ksm_sysfs.h"
#include "cli.h"
#include "interrupt.h"
#include "ksmd_settings.h"
#include "output.h"

#define CAPTURE_PIDS_MAX 64u
/* Every core's temporary is open at once (the snapshots are taken together):
 * each must be watched, or a signal leaves it behind. */
_Static_assert(CAPTURE_PIDS_MAX <= INTERRUPT_WATCH_MAX, "a signal removes every core's temporary");

static void usage(void)
{
	printf("usage: ksmbench capture --pid PID[,PID...] -o FILE [--interval T|auto] [--all] [--mergeable]\n\n"
	       "Writes the private anonymous memory of each process (what KSM can merge:\n"
	       "heap, stacks, anonymous mmap, a VM's guest RAM) as an ELF core that\n"
	       "ksmbench and gdb read. Only pages present in memory (/proc/PID/pagemap)\n"
	       "are written; untouched and swapped-out pages are recorded as holes. A\n"
	       "note records the kernel release and the KSM settings. As root, pages\n"
	       "that map the shared zero page are left out too (KSM never scans them)\n"
	       "and each page's PFN and THP/KSM state are recorded. The processes keep\n"
	       "running and are only read (process_vm_readv). FILE is created with mode\n"
	       "0600; -o - writes the core to standard output (one PID only). A summary\n"
	       "goes to stderr.\n\n"
	       "  -p, --pid LIST    the processes (up to %u, comma-separated)\n"
	       "  -o, --output F    the core file ('-': standard output); with several PIDs\n"
	       "                    F must contain %%p, replaced by each PID\n"
	       "  --interval T      read every process twice, T apart (e.g. 500ms, 2s), and mark\n"
	       "                    the pages that changed (scan counts them as pages_volatile);\n"
	       "                    auto: one full KSM scan at the current pages_to_scan and\n"
	       "                    sleep_millisecs (between 50 ms and 10 s)\n"
	       "  --all             also file-backed and shared mappings\n"
	       "  --mergeable       only mappings KSM may merge (VmFlags mg in /proc/PID/smaps)\n",
	       CAPTURE_PIDS_MAX);
}

struct capture_cli {
	pid_t pids[CAPTURE_PIDS_MAX];
	size_t npids;
	const char *output;
	struct capture_options o;
};

static int parse_pids(const char *text, struct capture_cli *s)
{
	const char *p = text;
	struct kb_err err;
	char one[32], q[KB_QUOTE_SIZE];

	while (*p) {
		size_t len = strcspn(p, ",");
		uint64_t v;
		if (len == 0 || len >= sizeof(one))
			return cli_error("capture", "bad PID list '%s'", kb_quote(text, q));
		memcpy(one, p, len);
		one[len] = '\0';
		if (kb_parse_uint(one, 0x7fffffff, &v, &err) || v == 0)
			return cli_error("capture", "bad PID '%s'", one);
		if (s->npids == CAPTURE_PIDS_MAX)
			return cli_error("capture", "at most %u PIDs", CAPTURE_PIDS_MAX);
		for (size_t i = 0; i < s->npids; i++)
			if (s->pids[i] == (pid_t)v)
				return cli_error("capture", "PID %s is given twice", one);
		s->pids[s->npids++] = (pid_t)v;
		p += len + (p[len] == ',');
		if (p[-1] == ',' && !*p)
			return cli_error("capture", "bad PID list '%s'", kb_quote(text, q));
	}
	return s->npids ? 0 : cli_error("capture", "bad PID list '%s'", kb_quote(text, q));
}

/* F with %p replaced by pid (and %% by %). */
static int output_path(const char *pattern, pid_t pid, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = pattern; *p && n + 16 < len; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			n += (size_t)snprintf(buf + n, len - n, "%d", (int)pid);
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			buf[n++] = '%';
			p++;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
	return n + 16 < len ? 0 : -1;
}

static void summarize(const struct capture_job *j, const char *path, int only_mergeable)
{
	const struct capture_stats *st = &j->stats;

	fprintf(stderr, "captured process %d: %llu mapping%s, %llu segment%s, %llu page%s present, %llu absent, "
		"%llu map the zero page, %llu in THPs, %llu KSM, %llu volatile, %llu byte%s -> ", (int)j->pid,
		(unsigned long long)st->mappings, kb_s(st->mappings), (unsigned long long)st->segments,
		kb_s(st->segments), (unsigned long long)st->pages_present, kb_s(st->pages_present),
		(unsigned long long)st->pages_absent, (unsigned long long)st->zero_page_mapped,
		(unsigned long long)st->pages_thp, (unsigned long long)st->pages_ksm,
		(unsigned long long)st->pages_volatile, (unsigned long long)st->bytes, kb_s(st->bytes));
	/* The name as an error line shows it: a newline in it would forge a line. */
	escape_put(stderr, strcmp(path, "-") == 0 ? "standard output" : path, ESCAPE_TERM);
	fputc('\n', stderr);
	if (st->mergeable_known && st->pages_present && st->pages_mergeable < st->pages_present)
		fprintf(stderr, "capture: KSM may merge %llu of process %d's %llu present page%s (anonymous "
			"pages in mappings with MADV_MERGEABLE or prctl PR_SET_MEMORY_MERGE); scan models every "
			"page captured as if offered\n", (unsigned long long)st->pages_mergeable, (int)j->pid,
			(unsigned long long)st->pages_present, kb_s(st->pages_present));
	else if (st->mergeable_known && !st->pages_present && st->mappings == 0)
		fprintf(stderr, "capture: process %d has no mapping to capture%s\n", (int)j->pid,
			only_mergeable ? " that KSM may merge (none has VmFlags mg: no MADV_MERGEABLE, no prctl "
					     "PR_SET_MEMORY_MERGE)" : "");
	if (st->pages_vanished)
		fprintf(stderr, "ksmbench capture: warning: %llu page%s of process %d %s unmapped while it was "
			"captured and %s written as zeros (stop it first: kill -STOP)\n",
			(unsigned long long)st->pages_vanished, kb_s(st->pages_vanished), (int)j->pid,
			st->pages_vanished == 1 ? "was" : "were", st->pages_vanished == 1 ? "is" : "are");
}

/* Said before the first snapshot: the wait can be 10 s (--interval auto)
 * or more, and the user sees what it is for. */
static void tell_interval(const struct capture_interval *iv, void *settings)
{
	const struct ksmd_settings *k = settings;

	if (iv->automatic)
		fprintf(stderr, "capture: interval %.3f s: one full KSM scan of %llu pages at pages_to_scan %ld, "
			"sleep_millisecs %ld (HZ %u)%s%s\n", (double)iv->ns / 1e9, (unsigned long long)iv->pages,
			iv->pages_to_scan, iv->sleep_ms, iv->hz,
			strcmp(k->from, "defaults") == 0 ? ", the kernel's defaults (no KSM settings, or pages_to_scan 0)"
							 : "",
			iv->clamped ? " (clamped to 50 ms .. 10 s)" : "");
	else
		fprintf(stderr, "capture: interval %.3f s between the two snapshots\n", (double)iv->ns / 1e9);
}

static int capture_all(struct capture_cli *s)
{
	struct ksmd_settings ks = { .from = "sysfs" };
	struct cmd_output outs[CAPTURE_PIDS_MAX];
	struct capture_job jobs[CAPTURE_PIDS_MAX];
	static char paths[CAPTURE_PIDS_MAX][4096]; /* 256 KiB: not on the stack */
	struct capture_interval iv;
	struct kb_err err;
	size_t opened = 0;
	int rc = 0;

	/* Before any output is opened: a setting that cannot be read is an
	 * error, not a default the interval would silently be built on. */
	if (s->o.snapshots == 2 && !s->o.interval_ns) {
		if (ksmd_settings_read_checked(&ks, &err))
			return cli_error("capture", "--interval auto: %s (give --interval T)", err.msg);
		s->o.pages_to_scan = ks.pages_to_scan;
		s->o.sleep_ms = ks.sleep_ms;
	}
	struct capture_options o = s->o;
	o.interval_chosen = tell_interval;
	o.interval_arg = &ks;
	for (size_t i = 0; i < s->npids; i++) {
		if (output_path(s->output, s->pids[i], paths[i], sizeof(paths[i])))
			return cli_error("capture", "output path too long");
		/* Each core a file of its own: "%%p" is a literal "%p". */
		for (size_t j = 0; j < i; j++)
			if (strcmp(paths[i], paths[j]) == 0)
				return cli_error("capture", "with several PIDs, -o must contain %%p (replaced by each "
							    "PID): '%s' would hold two cores", paths[i]);
	}
	for (size_t i = 0; i < s->npids && rc == 0; i++) {
		if ((rc = cmd_output_open("capture", paths[i], 0600, &outs[i])) == 0)
			opened++;
		jobs[i].pid = s->pids[i];
		jobs[i].out = rc == 0 ? outs[i].main.fp : NULL;
	}
	if (rc == 0 && capture_processes(jobs, s->npids, &o, &iv, &err))
		rc = cli_fail("capture", &err);
	for (size_t i = 0; i < opened; i++) {
		if (rc) {
			cmd_output_abort(&outs[i]);
			continue;
		}
		if ((rc = cmd_output_close("capture", &outs[i], 0)) != 0)
			for (size_t k = i + 1; k < opened; k++)
				cmd_output_abort(&outs[k]);
	}
	if (rc)
		return rc;
	for (size_t i = 0; i < s->npids; i++)
		summarize(&jobs[i], paths[i], (s->o.flags & CAPTURE_MERGEABLE) != 0);
	if (!jobs[0].stats.pfn_known)
		fprintf(stderr, "ksmbench capture: note: without CAP_SYS_ADMIN the PFNs and /proc/kpageflags "
			"cannot be read: pages mapping the shared zero page are captured as zero pages, THP "
			"membership and pages already shared (fork, KSM) are unknown, so scan may predict "
			"more zero pages, merges and saving than the kernel will show (run as root)\n");
	return KB_EXIT_OK;
}

static int parse(int argc, char **argv, struct capture_cli *s)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "interval", required_argument, NULL, 'i' },
		{ "all", no_argument, NULL, 'a' },
		{ "mergeable", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_err err;
	int c, rc;

	opterr = 0;
	optind = 1;
	s->o.ksm_dir = ksm_sysfs_dir();
	while ((c = cli_getopt_long(argc, argv, "p:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			s->npids = 0; /* the last --pid counts: lists do not add up across repeats */
			if ((rc = parse_pids(optarg, s)) != 0)
				return rc;
			break;
		case 'o': s->output = optarg; break;
		case 'i':
			s->o.snapshots = 2;
			s->o.interval_ns = 0; /* the last --interval counts, "auto" too */
			if (strcmp(optarg, "auto") != 0 &&
			    kb_parse_duration_ns(optarg, 1000000u, 3600000000000ull, &s->o.interval_ns, &err))
				return cli_error("capture", "--interval: %s", err.msg);
			break;
		case 'a': s->o.flags |= CAPTURE_ALL; break;
		case 'm': s->o.flags |= CAPTURE_MERGEABLE; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("capture", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("capture", "unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_capture(int argc, char **argv)
{
	struct capture_cli s = { .o = { .snapshots = 1 } };
	int rc = parse(argc, argv, &s);

	if (rc)
		return rc < 0 ? KB_EXIT_OK : rc;
	if (!s.npids || !s.output)
		return cli_error("capture", "--pid and -o are required (see ksmbench capture --help)");
	if (strcmp(s.output, "-") == 0 && isatty(STDOUT_FILENO))
		return cli_error("capture", "refusing to write a core to a terminal (redirect it, or give -o FILE)");
	return capture_all(&s);
}
