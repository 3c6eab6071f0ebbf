/* ksmbench select: the v2 KSM patch's choice at boot, made here: every
 * available hash hashes the zero page for HZ>>3 jiffies, the patch's lines
 * are printed, and the fastest is chosen. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../bench/bench.h"
#include "../bench/context.h"
#include "../common/size_parse.h"
#include "../report/results.h"
#include "bench_cli.h"
#include "cli.h"
#include "interrupt.h"
#include "term.h"

#define SELECT_MAX 64

static void usage(void)
{
	printf("usage: ksmbench select [--format kernel|json|gha|markdown] [--repeat N] [--hz N] [--align-tick]\n"
	       "                       [--cpu N] [-o FILE] [--quiet]\n\n"
	       "Times every available hash (aliases excluded) as the v2 KSM patch did: the zero\n"
	       "page hashed for HZ>>3 emulated jiffies, 'ksm: NAME hash() N MB/s' per hash,\n"
	       "then 'ksm: choise NAME as hash function' (the patch's spelling) for the fastest.\n\n"
	       "  --repeat N        rounds per hash, the best counts (default 1, as the patch)\n"
	       "  --hz N            emulated CONFIG_HZ (default 250)\n"
	       "  --align-tick      start each window on a tick edge (the patch did not)\n"
	       "  --cpu N           pin to CPU N (default: the CPU it starts on)\n"
	       "  --format FMT      kernel (default), json, gha or markdown\n"
	       "  -o, --output FILE write the report to FILE (atomically)\n"
	       "  -q, --quiet       no progress line and no warnings on stderr\n\n"
	       "Ctrl-C (or SIGTERM) stops early: the hashes measured so far are reported and\n"
	       "the choice made among them, marked interrupted; exit status 130 (143).\n");
}

static int write_report(FILE *out, const char *format, const struct bench_context *ctx,
			const struct bench_result *r, unsigned n, unsigned choice)
{
	if (n == 0) /* interrupted before the first hash was measured */
		return strcmp(format, "json") == 0 ? report_json_print(out, report_json_document(ctx, r, 0)) : 0;
	if (strcmp(format, "gha") == 0)
		return report_gha(out, ctx, r, n);
	if (strcmp(format, "markdown") == 0)
		return report_markdown(out, ctx, r, n) ||
		       fprintf(out, "\nChoice (v2 patch: highest count): **%s**\n", r[choice].hash) < 0;
	if (strcmp(format, "json") == 0) {
		cJSON *doc = report_json_document(ctx, r, n);
		if (doc) {
			cJSON *sel = cJSON_AddObjectToObject(doc, "selection");
			cJSON_AddStringToObject(sel, "method", "v2 patch: zero page, HZ>>3 jiffies, highest count");
			cJSON_AddStringToObject(sel, "choice", r[choice].hash);
			cJSON_AddNumberToObject(sel, "kernel_mb_per_s", (double)r[choice].kernel_mb_per_s_best);
		}
		return report_json_print(out, doc);
	}
	if (report_kernel(out, r, n))
		return -1;
	return fprintf(out, "ksm: choise %s as hash function\n", r[choice].hash) < 0 ? -1 : 0;
}

int cmd_select(int argc, char **argv)
{
	enum { O_REP = 256, O_HZ, O_ALIGN, O_CPU, O_FMT };
	static const struct option opts[] = {
		{ "repeat", required_argument, NULL, O_REP }, { "hz", required_argument, NULL, O_HZ },
		{ "align-tick", no_argument, NULL, O_ALIGN }, { "cpu", required_argument, NULL, O_CPU },
		{ "format", required_argument, NULL, O_FMT }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },           { "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_set_request req = { .data = "zero", .page_size = 4096, .seed = 1 };
	const char *format = "kernel", *output = NULL;
	struct bench_config cfg;
	int cpu = -1, c, rc, pinned, quiet = 0;

	bench_config_default(&cfg);
	cfg.timer = BENCH_TIMER_JIFFIES;
	cfg.repeat = 1;
	cfg.warmup_ns = 10000000u;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:hq", opts, NULL)) != -1) {
		switch (c) {
		case O_REP:
			if (bench_cli_parse_repeat("select", optarg, &cfg.repeat))
				return KB_EXIT_USAGE;
			break;
		case O_HZ:
			if (bench_cli_parse_hz("select", optarg, &cfg.hz))
				return KB_EXIT_USAGE;
			break;
		case O_ALIGN: cfg.align_tick = 1; break;
		case O_CPU:
			if (bench_cli_parse_cpu("select", optarg, &cpu))
				return KB_EXIT_USAGE;
			break;
		case O_FMT: format = optarg; break;
		case 'o': output = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		case 'q': quiet = 1; break;
		default: return cli_bad_option("select", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("select", "unexpected argument '%s'", argv[optind]);
	if (strcmp(format, "kernel") != 0 && strcmp(format, "json") != 0 && strcmp(format, "gha") != 0 &&
	    strcmp(format, "markdown") != 0)
		return cli_error("select", "unknown format '%s' (kernel, json, gha or markdown)", format);

	const struct hash_impl *hashes[SELECT_MAX];
	unsigned n = 0;
	for (unsigned i = 0; i < hash_registry_count && n < SELECT_MAX; i++) {
		const struct hash_impl *h = hash_registry[i];
		if (!h->alias_of && hash_available(h) && !hash_check_len(h, req.page_size, NULL))
			hashes[n++] = h;
	}
	interrupt_install();
	if ((rc = bench_cli_pin("select", cpu, &pinned)) != 0)
		return rc;
	struct bench_context ctx;
	bench_context_gather(&ctx, pinned, hashes, n, 0);
	struct bench_output out;
	if ((rc = bench_cli_output_open("select", output, &out)) != 0)
		return rc;
	struct page_set set;
	if ((rc = bench_cli_build_set("select", &req, &set)) != 0) {
		bench_cli_output_abort(&out);
		return rc;
	}
	struct bench_result results[SELECT_MAX];
	struct progress progress;
	unsigned choice = 0, measured = 0;
	progress_init(&progress, "select", quiet);
	rc = bench_cli_measure("select", hashes, n, &set, &cfg, &progress, results, &measured);
	page_set_release(&set);
	if (rc != 0) {
		bench_cli_output_abort(&out);
		return rc;
	}
	/* The patch kept the first of equals: a strictly higher count wins. */
	for (unsigned i = 0; i < measured; i++)
		if (results[i].kernel_mb_per_s_best > results[choice].kernel_mb_per_s_best)
			choice = i;
	bench_cli_note_interruption("select", &ctx, n, measured);
	if (strcmp(format, "kernel") == 0 && !quiet)
		bench_cli_warnings_to_stderr("select", &ctx);
	return bench_cli_exit_code(bench_cli_output_close(
		"select", &out, write_report(out.fp, format, &ctx, results, measured, choice)));
}
