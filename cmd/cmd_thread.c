/* ksmbench thread (and plain ksmbench): the linux-mm thread's comparison on
 * this machine, in the two styles the thread measured: the v2 patch's
 * in-kernel self-test, and ns per page as ksmd paid it. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/kernel_release.h"
#include "../common/size_parse.h"
#include "../hashes/impls.h"
#include "../report/thread.h"
#include "../scan/ksm_model.h"
#include "cli.h"
#include "interrupt.h"
#include "ksmd_settings.h"
#include "output.h"
#include "run_cli.h"

#define THREAD_MAX 16
#define THREAD_PAGE_BYTES 4096u
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define THREAD_PROCESSES_DEFAULT 10u
#define THREAD_ROUNDS_DEFAULT 1u
#define THREAD_KSMD_WINDOW_NS 80000000u /* a round: three cycles of 100 pages and 20 ms at the defaults */
#define THREAD_WARMUP_NS 10000000u

static void usage(void)
{
	printf("usage: ksmbench thread [--format %s] [-o FILE] [--quiet] [--wide] [options]\n\n"
	       "The 2017-2018 linux-mm comparison of KSM page checksums, measured here and set\n"
	       "beside the published figures, under a verdict: what KSM uses and what it costs\n"
	       "at ksmd's settings (read from /sys/kernel/mm/ksm), the fastest the kernel has\n"
	       "on this CPU, the fastest outside the kernel, and whether it can be trusted.\n"
	       "Two blocks: what the kernel can run (xxh64, xxh32, jhash2, crc32c-generic,\n"
	       "crc32c as the kernel's own rule picks it here, and KSM's checksum where it is\n"
	       "none of these), and contenders outside the kernel (xxh3, ISA-L, our fastest\n"
	       "crc32c). Two styles:\n"
	       "  kMB/s    the v2 patch's self-test: kernel MB/s (count*4096>>17), jiffies,\n"
	       "           zero page, hot, best round\n"
	       "  ns/pg    ksmd's cost: ns per page in its duty cycle (pages_to_scan pages,\n"
	       "           then sleep_millisecs asleep), random pages, cold set, median\n"
	       "Each with its speed-up against jhash2 here (from rounds measured side by side)\n"
	       "and in the thread. Measured in --processes fresh processes, every measurement\n"
	       "taking its rounds in turns; unstable figures are named after the table.\n\n"
	       "  --processes N         measuring processes (default %u; 1: this process only)\n"
	       "  --repeat N            rounds per process and measurement (default %u)\n"
	       "  --back-to-back        the ksmd style's calls back to back, as before December\n"
	       "                        2026 (default: each call apart, a fence after it, as ksmd\n"
	       "                        calls it between its other work; docs/measurement.md)\n"
	       "  --apart               each call apart (the default; not with --back-to-back)\n"
	       "  --window TIME         ksmd-style round length (default 80ms: three cycles at ksmd's\n"
	       "                        defaults; one cycle at least)\n"
	       "  --hz N                emulated CONFIG_HZ of the self-test (default 250)\n"
	       "  --working-set SIZE    the ksmd style's set (default 64M, each cycle's pages flushed\n"
	       "                        from the caches; else 4x the last-level cache, 64M..2G)\n"
	       "  --seed N              seed of the random pages, visiting order and rounds' order\n"
	       "                        (default 1)\n"
	       "  --pages-to-scan N     ksmd's pages a batch, for its style and the verdict's price\n"
	       "                        (default: /sys/kernel/mm/ksm's, or 100; up to the kernel's\n"
	       "                        4294967295, the style's cycle clamped to %u)\n"
	       "  --sleep-ms S          ksmd's sleep after a batch (default: sysfs's, or 20; the\n"
	       "                        style's cycle sleeps at most %u)\n"
	       "  --kernel-release R    the kernel rows and verdict of release R: KSM's checksum\n"
	       "                        then, the kernel's crc32c then on this CPU, the rows it\n"
	       "                        lacks marked (default: the running kernel's)\n"
	       "  --cpu N               pin to CPU N (default: the fastest allowed)\n"
	       "  --format FMT          %s (default table)\n"
	       "  -o, --output FILE     write the report to FILE (atomically)\n"
	       CMD_EXPORT_HELP
	       "  --no-ceiling          do not measure this CPU's limits first (about 1.2 s)\n\n"
	       "Ctrl-C (or SIGTERM) stops early: what was measured is reported, marked interrupted,\n"
	       "and the exit status is 130 (143).\n",
	       run_cli_formats(REPORT_THREAD), THREAD_PROCESSES_DEFAULT, THREAD_ROUNDS_DEFAULT, BENCH_KSMD_PAGES_MAX,
	       BENCH_KSMD_SLEEP_MS_MAX, run_cli_format_list(REPORT_THREAD));
}

struct thread_opts {
	const char *format_name, *output;
	int cpu, quiet, no_ceiling, wide;
	struct ksmd_settings ksmd; /* the ksmd style's duty cycle and the verdict's price */
	const char *kernel_release; /* whose rules name the kernel's code (--kernel-release, else the running
				     kernel's); NULL: unknown (the newest) */
	char release_buf[128];
	struct cmd_exports exports;
	unsigned processes;
	/* The self-test style: the zero page, hot, jiffies; the ksmd style:
	 * random pages, cold, ksmd's duty cycle. */
	struct bench_step steps[2];
};

/* --pages-to-scan (pages) or --sleep-ms into k: any value the kernel
 * takes (an unsigned int; the ksmd timer's cycle is clamped to what it
 * runs, the verdict priced at the value itself), as sysfs's are. */
static int parse_setting(int pages, const char *arg, struct ksmd_settings *k)
{
	struct kb_err err;
	uint64_t v;

	if (kb_parse_uint(arg, UINT_MAX, &v, &err) || (pages && v == 0))
		return pages ? cli_error("thread", "--pages-to-scan: a count from 1 to %u", UINT_MAX)
			     : cli_error("thread", "--sleep-ms: %s", err.msg);
	*(pages ? &k->pages_to_scan : &k->sleep_ms) = (unsigned)v;
	k->given |= pages ? KSMD_GIVEN_PAGES : KSMD_GIVEN_SLEEP;
	return 0;
}

/* 0, an exit code, or -1 after --help. */
static int parse(int argc, char **argv, struct thread_opts *o)
{
	enum { O_REP = 256, O_WIN, O_HZ, O_WS, O_SEED, O_CPU, O_FMT, O_NOCEIL, O_PROC, O_WIDE, O_APART, O_B2B, O_KREL,
	       O_PAGES, O_SLEEP };
	static const struct option opts[] = {
		{ "repeat", required_argument, NULL, O_REP },  { "window", required_argument, NULL, O_WIN },
		{ "hz", required_argument, NULL, O_HZ },       { "working-set", required_argument, NULL, O_WS },
		{ "seed", required_argument, NULL, O_SEED },   { "cpu", required_argument, NULL, O_CPU },
		{ "format", required_argument, NULL, O_FMT },  { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },            { "quiet", no_argument, NULL, 'q' },
		{ "no-ceiling", no_argument, NULL, O_NOCEIL }, { "processes", required_argument, NULL, O_PROC },
		{ "wide", no_argument, NULL, O_WIDE },         { "apart", no_argument, NULL, O_APART },
		{ "back-to-back", no_argument, NULL, O_B2B }, { "kernel-release", required_argument, NULL, O_KREL },
		{ "pages-to-scan", required_argument, NULL, O_PAGES }, { "sleep-ms", required_argument, NULL, O_SLEEP },
		CMD_EXPORT_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct bench_step *kernel = &o->steps[0], *ksm = &o->steps[1];
	int c, rc = 0, apart = 0, back_to_back = 0;

	opterr = 0;
	optind = 1;
	while (rc == 0 && (c = cli_getopt_long(argc, argv, "o:hq", opts, NULL)) != -1) {
		switch (c) {
		case O_REP: rc = run_cli_parse_repeat("thread", optarg, BENCH_REPEAT_MAX, &kernel->cfg.repeat); break;
		case O_WIN: rc = run_cli_parse_window("thread", optarg, &ksm->cfg.window_ns); break;
		case O_HZ: rc = run_cli_parse_hz("thread", optarg, &kernel->cfg.hz); break;
		case O_WS: rc = run_cli_parse_working_set("thread", optarg, &ksm->set.working_set_bytes); break;
		case O_SEED: rc = run_cli_parse_seed("thread", optarg, &ksm->set.seed); break;
		case O_PROC: rc = run_cli_parse_processes("thread", optarg, &o->processes); break;
		case O_CPU: rc = run_cli_parse_cpu("thread", optarg, &o->cpu); break;
		case O_FMT: o->format_name = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h': usage(); return -1;
		case 'q': o->quiet = 1; break;
		case O_NOCEIL: o->no_ceiling = 1; break;
		case O_WIDE: o->wide = 1; break;
		case O_APART: apart = 1; break;
		case O_B2B: back_to_back = 1; break;
		case O_KREL: rc = run_cli_parse_kernel_release("thread", optarg, &o->kernel_release); break;
		case O_PAGES:
		case O_SLEEP: rc = parse_setting(c == O_PAGES, optarg, &o->ksmd); break;
		default:
			if (!cmd_exports_option(c, optarg, &o->exports))
				return cli_bad_option("thread", argv, optopt);
		}
	}
	if (rc == 0 && optind < argc)
		rc = cli_error("thread", "unexpected argument '%s'", argv[optind]);
	ksmd_settings_cycle(&o->ksmd, &ksm->cfg);
	if (rc == 0)
		rc = run_cli_spacing("thread", apart, back_to_back, ksm->cfg.timer, &ksm->cfg);
	struct kb_err err;
	if (rc == 0 && bench_config_check(&ksm->cfg, &err))
		rc = cli_fail("thread", &err);
	ksm->cfg.repeat = kernel->cfg.repeat;
	kernel->set.seed = ksm->set.seed;
	/* Each round's warm-up: the caches and predictors after another hash. */
	kernel->cfg.warmup_ns = THREAD_WARMUP_NS;
	ksm->cfg.warmup_ns = THREAD_WARMUP_NS;
	return rc;
}

/* Adds name's implementation (impl where given) as the next row, unless
 * there is no room or this build lacks it (a note when say); a kernel row
 * says whether release (NULL: the newest) has it. */
static unsigned add_row(const struct hash_impl **hashes, struct thread_contender *c, unsigned n, const char *name,
			const struct hash_impl *impl, const struct thread_published *p, int in_kernel,
			const struct kernel_release *release, int say)
{
	struct kb_err err;

	if (n == THREAD_MAX)
		return n;
	hashes[n] = impl ? impl : hash_select(name, &err);
	if (!hashes[n]) {
		if (say)
			cli_error("thread", "note: %s; its row is left out", err.msg);
		return n;
	}
	c[n] = (struct thread_contender){ p ? hashes[n]->name : name, p, in_kernel,
					  in_kernel && !kernel_release_at_least(release, hash_resolve(hashes[n])->kernel.since) };
	return n + 1;
}

/* The thread's hashes, its crc32c as the kernel's own rule picks it on this
 * CPU (not the alias, which may choose code of ours), KSM's checksum on the
 * running kernel where the thread had none of it (2.6.32-2.6.37's lookup2
 * jhash2), then contenders outside the kernel: XXH3, ISA-L and our fastest
 * crc32c (the alias; the rest of ours are in bench, for the 20 s this
 * command takes). A contender this build lacks (ISA-L is not packaged for
 * every architecture) is left out, with a note when say. */
static unsigned contenders(const struct thread_opts *o, const struct hash_impl **hashes, struct thread_contender *c,
			   int say)
{
	static const char *const outside[] = { "xxh3", "crc32c-isal", "crc32c" };
	struct kernel_release r;
	const struct kernel_release *release = kernel_release_or_newest(o->kernel_release, &r);
	const struct hash_impl *kernel_crc32c = hash_kernel_crc32c(THREAD_PAGE_BYTES, release, NULL);
	const struct hash_impl *today = hash_resolve(ksm_checksum_in(o->kernel_release));
	unsigned n = 0, has_today = 0;

	for (unsigned i = 0; i < thread_published_count; i++) {
		const struct thread_published *p = &thread_published[i];
		int crc32c = strcmp(p->hash, "crc32c") == 0;
		if (strcmp(p->hash, "crc32c-generic") == 0 && kernel_crc32c == &hash_crc32c_generic)
			continue; /* the kernel's crc32c is the generic one here: one row */
		n = add_row(hashes, c, n, p->hash, crc32c ? kernel_crc32c : NULL, p, 1, release, say);
		has_today |= n && hash_resolve(hashes[n - 1]) == today;
	}
	if (!has_today)
		n = add_row(hashes, c, n, today->name, today, NULL, 1, release, say);
	for (unsigned i = 0; i < ARRAY_SIZE(outside); i++)
		n = add_row(hashes, c, n, outside[i], NULL, NULL, 0, release, say);
	return n;
}

static int report(const struct thread_opts *o, struct bench_context *ctx, struct bench_results *r,
		  const struct thread_contender *c, unsigned n, const struct report_format *f,
		  struct cmd_output *out)
{
	struct thread_row rows[THREAD_MAX];
	struct thread_verdict verdict;
	struct kernel_release release;
	struct thread_ksmd ksmd = { ksmd_schedule_running(o->ksmd.pages_to_scan, o->ksmd.sleep_ms), o->ksmd.from,
				    o->ksmd.dir, o->ksmd.off, o->ksmd.given };
	/* The timers of the release the verdict is of. */
	ksmd_schedule_rules(&ksmd.s, kernel_release_or_newest(o->kernel_release, &release));

	/* After an interruption the rows not measured have no figures. */
	thread_rows_build(c, n, r->items, r->n, rows);
	run_cli_finish("thread", ctx, r, f, o->quiet);
	const struct hash_impl *today = ksm_checksum_in(o->kernel_release);
	thread_verdict_build(rows, n, r->items, r->n, today->name, hash_resolve(today)->name, &ksmd, &verdict);
	struct report_document doc = { .kind = REPORT_THREAD, .ctx = ctx, .results = r->items, .nresults = r->n,
				       .rows = rows, .nrows = n, .verdict = &verdict, .wide = o->wide,
				       .kernel_release = o->kernel_release };
	return run_cli_exit_code(cmd_output_close("thread", out, cmd_output_write(out, f, &doc)));
}

/* The two steps: the self-test style (the zero page, hot, jiffies), and
 * the ksmd style (random pages, cold, rdtsc). */
static void defaults(struct thread_opts *o)
{
	*o = (struct thread_opts){ .format_name = "table", .cpu = -1, .processes = THREAD_PROCESSES_DEFAULT };
	o->kernel_release = kernel_release_running(o->release_buf, sizeof(o->release_buf));
	for (int i = 0; i < 2; i++) {
		bench_config_default(&o->steps[i].cfg);
		o->steps[i].cfg.repeat = THREAD_ROUNDS_DEFAULT;
		o->steps[i].set = (struct page_set_request){ .data = i ? "random" : "zero", .page_size = 4096,
							     .seed = 1, .cold = i };
	}
	o->steps[0].cfg.timer = BENCH_TIMER_JIFFIES;
	o->steps[0].name = "self-test MB/s";
	ksmd_settings_read(&o->ksmd);
	o->steps[1].cfg.timer = BENCH_TIMER_KSMD;
	o->steps[1].cfg.window_ns = THREAD_KSMD_WINDOW_NS;
	o->steps[1].set.flushed = bench_timer_flushes(&o->steps[1].cfg);
	o->steps[1].name = "ksmd ns/page";
	o->steps[1].building_note = "building the cold working set";
}

static int measure(const struct thread_opts *o, struct run_cli_run *run, const struct thread_contender *c,
		   const struct report_format *f)
{
	struct bench_results results = { 0 };
	struct cmd_output out;
	const char *rule;
	int rc;

	interrupt_install(INTERRUPT_STOP);
	if ((rc = run_cli_cpu("thread", o->cpu, 0, &run->cpu, &rule)) != 0)
		return rc;
	/* The notes once the options are known good (a bad one is the only line), never in a worker. */
	contenders(o, (const struct hash_impl *[THREAD_MAX]){ NULL }, (struct thread_contender[THREAD_MAX]){ { 0 } }, 1);
	struct bench_context *ctx = run_cli_context("thread", run->cpu, rule, run->plan.hashes, run->plan.nhashes,
						    CONTEXT_COUNTER_REPORTED);
	if (!ctx)
		return KB_EXIT_USAGE;
	bench_context_note_plan(ctx, &run->plan);
	if ((rc = cmd_output_open("thread", o->output, 0644, &out)) == 0 &&
	    (rc = cmd_output_exports("thread", &out, &o->exports, REPORT_THREAD, o->output)) == 0) {
		if (!o->no_ceiling)
			run_cli_ceiling("thread", ctx, o->quiet);
		rc = run_cli_measure(run, &results);
		rc = rc ? (cmd_output_abort(&out), rc)
			: report(o, ctx, &results, c, run->plan.nhashes, f, &out);
	}
	bench_results_free(&results);
	free(ctx);
	return rc;
}

int cmd_thread(int argc, char **argv)
{
	static struct thread_opts o;
	const struct hash_impl *hashes[THREAD_MAX];
	struct thread_contender c[THREAD_MAX];
	const struct report_format *f;
	struct cpu_description cpu;
	int rc;

	defaults(&o);
	if ((rc = parse(argc, argv, &o)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	if ((rc = run_cli_format("thread", o.format_name, REPORT_THREAD, &f)) != 0)
		return rc;
	cpu_describe(&cpu);
	o.steps[1].set.llc_bytes = cpu_llc_bytes(&cpu);
	struct run_cli_run run = { .cmd = "thread", .argc = argc, .argv = argv, .quiet = o.quiet,
				   .plan = { .steps = o.steps, .nsteps = 2, .hashes = hashes,
					     .nhashes = contenders(&o, hashes, c, 0), .processes = o.processes,
					     .seed = o.steps[1].set.seed } };
	if ((rc = run_cli_serve(&run)) >= 0)
		return rc;
	return measure(&o, &run, c, f);
}
