/* ksmbench select: the v2 KSM patch's choice at boot, made here: every
 * available hash hashes the zero page for HZ>>3 jiffies, the patch's lines
 * are printed, and the fastest is chosen. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"
#include "output.h"
#include "run_cli.h"

#define SELECT_MAX 64
#define SELECT_PROCESSES_DEFAULT 5u

static void usage(void)
{
	printf("usage: ksmbench select [-H LIST] [--format %s] [--repeat N] [--processes N] [--hz N]\n"
	       "                       [--align-tick] [--cpu N] [--seed N] [-o FILE] [--export-json F]\n"
	       "                       [--export-markdown F] [--quiet] [--no-ceiling]\n\n"
	       "Times every available hash (aliases excluded) as the v2 KSM patch did: the zero\n"
	       "page hashed for HZ>>3 emulated jiffies, 'ksm: NAME hash() N MB/s' per hash,\n"
	       "then 'ksm: choise NAME as hash function' (the patch's spelling) for the fastest:\n"
	       "the highest median over processes of each process's best round, the hashes\n"
	       "measured side by side (in turns, shuffled per round).\n\n"
	       "  -H, --hash LIST   the candidates (default or all: every available hash), no\n"
	       "                    implementation twice (an alias and its target); the patch's\n"
	       "                    own: jhash2,xxhash and the kernel's crc32c here (list's\n"
	       "                    kernel_crc32c: crc32c-3way on most x86-64)\n"
	       "  --repeat N        rounds per hash and process, the best counts (default 1, as the patch)\n"
	       "  --processes N     measuring processes (default %u; 1: this process only)\n"
	       "  --seed N          seed of the rounds' order (default 1)\n"
	       "  --hz N            emulated CONFIG_HZ (default 250)\n"
	       "  --align-tick      start each window on a tick edge (the patch did not)\n"
	       "  --cpu N           pin to CPU N (default: the fastest allowed)\n"
	       "  --format FMT      %s (default kernel)\n"
	       "  -o, --output FILE write the report to FILE (atomically)\n"
	       "  --export-json FILE, --export-markdown FILE\n"
	       "                    also write the results as JSON, Markdown to FILE (- is stdout)\n"
	       "  -q, --quiet       no progress line and no warnings on stderr\n"
	       "  --no-ceiling      do not measure this CPU's limits first (about 1.2 s)\n\n"
	       "Ctrl-C (or SIGTERM) stops early: the hashes measured so far are reported and\n"
	       "the choice made among them, marked interrupted; exit status 130 (143).\n",
	       run_cli_formats(REPORT_SELECT), SELECT_PROCESSES_DEFAULT, run_cli_format_list(REPORT_SELECT));
}

struct select_opts {
	const char *format_name, *output, *hashes;
	int cpu, quiet, no_ceiling;
	unsigned processes;
	struct bench_step step;
	struct cmd_exports exports;
};

/* 0, an exit code, or -1 after --help. */
static int parse(int argc, char **argv, struct select_opts *o)
{
	enum { O_REP = 256, O_HZ, O_ALIGN, O_CPU, O_FMT, O_NOCEIL, O_PROC, O_SEED };
	static const struct option opts[] = {
		{ "repeat", required_argument, NULL, O_REP }, { "hz", required_argument, NULL, O_HZ },
		{ "align-tick", no_argument, NULL, O_ALIGN }, { "cpu", required_argument, NULL, O_CPU },
		{ "format", required_argument, NULL, O_FMT }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },           { "quiet", no_argument, NULL, 'q' },
		{ "no-ceiling", no_argument, NULL, O_NOCEIL }, { "processes", required_argument, NULL, O_PROC },
		{ "seed", required_argument, NULL, O_SEED },  { "hash", required_argument, NULL, 'H' },
		CMD_EXPORT_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	opterr = 0;
	optind = 1;
	while (rc == 0 && (c = cli_getopt_long(argc, argv, "H:o:hq", opts, NULL)) != -1) {
		switch (c) {
		case 'H': o->hashes = optarg; break;
		case O_REP: rc = run_cli_parse_repeat("select", optarg, BENCH_REPEAT_MAX, &o->step.cfg.repeat); break;
		case O_HZ: rc = run_cli_parse_hz("select", optarg, &o->step.cfg.hz); break;
		case O_ALIGN: o->step.cfg.align_tick = 1; break;
		case O_PROC: rc = run_cli_parse_processes("select", optarg, &o->processes); break;
		case O_SEED: rc = run_cli_parse_seed("select", optarg, &o->step.set.seed); break;
		case O_CPU: rc = run_cli_parse_cpu("select", optarg, &o->cpu); break;
		case O_FMT: o->format_name = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h': usage(); return -1;
		case 'q': o->quiet = 1; break;
		case O_NOCEIL: o->no_ceiling = 1; break;
		default:
			if (!cmd_exports_option(c, optarg, &o->exports))
				return cli_bad_option("select", argv, optopt);
		}
	}
	if (rc == 0 && optind < argc)
		rc = cli_error("select", "unexpected argument '%s'", argv[optind]);
	return rc;
}

/* The -H list's hashes, else (or -H all) every implementation this CPU
 * runs, once each (aliases left out); -1 after an error line (a bad list,
 * or two names of one implementation: its lines could not be told apart
 * and the choice between them would be noise). */
static int candidates(const char *list, const struct hash_impl **hashes, uint32_t page_size)
{
	struct kb_err err;
	int n = 0;

	if (list && strcmp(list, "all") != 0) {
		n = hash_select_list(list, hashes, SELECT_MAX, &err);
		if (n < 0)
			return cli_fail("select", &err), -1;
		for (int i = 1; i < n; i++)
			for (int j = 0; j < i; j++)
				if (hash_resolve(hashes[i]) == hash_resolve(hashes[j]))
					return cli_error("select", "-H: '%s' and '%s' are one implementation here (%s): "
							 "name one of them", hashes[j]->name, hashes[i]->name,
							 hash_resolve(hashes[i])->name), -1;
		return n;
	}
	for (unsigned i = 0; i < hash_registry_count && n < SELECT_MAX; i++) {
		const struct hash_impl *h = hash_registry[i];
		if (!h->alias_of && hash_available(h) && !hash_check_len(h, page_size, NULL))
			hashes[n++] = h;
	}
	return n;
}

static int measure_and_report(const struct select_opts *o, const struct run_cli_run *run,
			      struct bench_context *ctx, const struct report_format *f)
{
	struct bench_results results = { 0 };
	struct cmd_output out;
	int rc = cmd_output_open("select", o->output, 0644, &out);

	if (rc == 0)
		rc = cmd_output_exports("select", &out, &o->exports, REPORT_SELECT, o->output);
	if (rc == 0 && !o->no_ceiling)
		run_cli_ceiling("select", ctx, o->quiet);
	if (rc == 0 && (rc = run_cli_measure(run, &results)) != 0)
		cmd_output_abort(&out);
	if (rc == 0) {
		run_cli_finish("select", ctx, &results, f, o->quiet);
		struct report_document doc = { .kind = REPORT_SELECT, .ctx = ctx, .results = results.items,
					       .nresults = results.n };
		rc = run_cli_exit_code(cmd_output_close("select", &out, cmd_output_write(&out, f, &doc)));
	}
	bench_results_free(&results);
	return rc;
}

int cmd_select(int argc, char **argv)
{
	struct select_opts o = { .format_name = "kernel", .cpu = -1, .processes = SELECT_PROCESSES_DEFAULT,
				 .step.set = { .data = "zero", .page_size = 4096, .seed = 1 } };
	const struct hash_impl *hashes[SELECT_MAX];
	const struct report_format *f;
	const char *rule;
	int rc;

	bench_config_default(&o.step.cfg);
	o.step.cfg.timer = BENCH_TIMER_JIFFIES;
	o.step.cfg.repeat = 1;
	o.step.cfg.warmup_ns = 10000000u;
	if ((rc = parse(argc, argv, &o)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	if ((rc = run_cli_format("select", o.format_name, REPORT_SELECT, &f)) != 0)
		return rc;
	int n = candidates(o.hashes, hashes, o.step.set.page_size);
	if (n < 0)
		return KB_EXIT_USAGE;
	struct run_cli_run run = { .cmd = "select", .argc = argc, .argv = argv, .quiet = o.quiet,
				   .plan = { .steps = &o.step, .nsteps = 1, .hashes = hashes, .nhashes = (unsigned)n,
					     .processes = o.processes, .seed = o.step.set.seed } };
	if ((rc = run_cli_serve(&run)) >= 0)
		return rc;
	interrupt_install(INTERRUPT_STOP);
	if ((rc = run_cli_cpu("select", o.cpu, 0, &run.cpu, &rule)) != 0)
		return rc;
	struct bench_context *ctx = run_cli_context("select", run.cpu, rule, hashes, run.plan.nhashes,
						    CONTEXT_COUNTER_CALIBRATED);
	if (!ctx)
		return KB_EXIT_USAGE;
	bench_context_note_plan(ctx, &run.plan);
	rc = measure_and_report(&o, &run, ctx, f);
	free(ctx);
	return rc;
}
