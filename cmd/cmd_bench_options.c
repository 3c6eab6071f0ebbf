/* ksmbench bench's options (see cmd_bench.h): --help's text, the option
 * table, the swept lists (--data, --cache, --page-size, --misalign), what
 * is hashed and how it is timed, the checks that hold whatever the
 * combination, and the defaults. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../common/duration_parse.h"
#include "../common/size_parse.h"
#include "cli.h"
#include "cmd_bench.h"
#include "ksmd_settings.h"

#define BENCH_PROCESSES_DEFAULT 20u
#define BENCH_ROUNDS_DEFAULT 2u
#define BENCH_WINDOW_DEFAULT_NS 40000000u

static void usage(void)
{
	printf("usage: ksmbench bench [-H NAME[,NAME...]|all] [--data zero|random|FILE[,...]]\n"
	       "                      [--cache hot|cold[,...]] [--page-size N[,...]] [--misalign N[,...]]\n"
	       "                      [--timer window|jiffies|rdtsc|ksmd] [--apart|--back-to-back]\n"
	       "                      [--ksmd [--pages-to-scan N] [--sleep-ms S]] [--processes N]\n"
	       "                      [--format %s] [-o FILE] [--quiet] [options]\n\n"
	       "Measures page hashes in --processes fresh processes, each taking --repeat rounds\n"
	       "of every measurement in turns (shuffled per round), each round after its own\n"
	       "warm-up. Reports the median over processes with its interval (+- %%), the best\n"
	       "round, and whether each result is stable; rounds that other work disturbed are\n"
	       "kept in the JSON but left out of the figures. Lists of data, caches, page sizes\n"
	       "and misalignments sweep every combination in one run.\n\n"
	       "  -H, --hash LIST       hashes to measure (default all available: each\n"
	       "                        implementation once, with the aliases that name it);\n"
	       "                        'xxh3-*' is a glob over the names\n"
	       "  --data SRC[,...]      zero (the zero page), random (default), or a FILE's pages\n"
	       "  --input-format F      the FILE's format: %s (default auto)\n"
	       "  --lime-ranges R       ranges of a lime-raw or lime-padded FILE\n"
	       "  --seed N              seed of the random pages, the cold visiting order and the\n"
	       "                        rounds' order (default 1)\n"
	       "  --page-size N[,...]   page size (default 4K; a multiple of 64 up to 16M)\n"
	       "  --cache hot|cold[,..] hot: one page (a file: its first 256 KiB) reused (default);\n"
	       "                        cold: a working set of 4x the last-level cache, random order\n"
	       "                        (timer ksmd: 64M, each cycle's pages flushed from the caches)\n"
	       "  --working-set SIZE    size of the cold working set instead (e.g. 256M)\n"
	       "  --misalign N[,...]    start every page N bytes past a 64-byte boundary\n"
	       "  --timer NAME          window (default): calls counted in a CLOCK_MONOTONIC window;\n"
	       "                        jiffies: the kernel self-test's HZ>>3 jiffies and its MB/s;\n"
	       "                        rdtsc: calls timed with serialized TSC reads;\n"
	       "                        ksmd: ksmd's duty cycle (N pages timed, then S ms asleep)\n"
	       "  --apart               a fence after each call: each takes its whole time, as in\n"
	       "                        ksmd, where other work runs between two checksums (not\n"
	       "                        jiffies; the default of the ksmd timer and --ksmd)\n"
	       "  --back-to-back        no fence: each call starts while the last one's tail runs\n"
	       "                        (the default of the other timers)\n"
	       "  --ksmd                a cold set in ksmd's duty cycle and without the sleep\n"
	       "                        (rdtsc) beside it: the difference is what the sleep costs\n"
	       "  --pages-to-scan N     --ksmd, --timer ksmd: pages per cycle (default: /sys/kernel/mm/ksm's,\n"
	       "                        or 100)\n"
	       "  --sleep-ms S          --ksmd, --timer ksmd: the sleep between cycles (default: sysfs's, or 20)\n"
	       "  --processes N         measuring processes (default %u; 1: this process only)\n"
	       "  --repeat N            rounds per process and measurement (default %u)\n"
	       "  --window TIME         window length, rdtsc and ksmd round length (default 40ms;\n"
	       "                        jiffies times HZ>>3 jiffies: only its warm-up follows)\n"
	       "  --warmup TIME         untimed calls before each round (default a quarter of the window)\n"
	       "  --hz N                jiffies: the emulated CONFIG_HZ (default 250)\n"
	       "  --align-tick          jiffies: start on a tick edge (the patch did not)\n"
	       "  --cpu N               pin to CPU N (default: the fastest allowed)\n"
	       "  --format FMT          %s (default table;\n"
	       "                        gha: github-action-benchmark's array)\n"
	       "  -o, --output FILE     write the report to FILE (atomically)\n"
	       CMD_EXPORT_HELP
	       "  --no-ceiling          do not measure this CPU's limits first (about 1.2 s): no\n"
	       "                        ceiling and %% of ceiling in the results\n"
	       "  --selfcheck           compare the harness with a minimal loop, and rdtsc with\n"
	       "                        window, per hash on a hot page; exit 1 if a target is missed\n"
	       "                        (--format %s)\n\n"
	       "Ctrl-C (or SIGTERM) stops early: what was measured is reported, marked interrupted,\n"
	       "and the exit status is 130 (143).\n",
	       run_cli_formats(REPORT_BENCH), dump_format_names(), BENCH_PROCESSES_DEFAULT, BENCH_ROUNDS_DEFAULT,
	       run_cli_format_list(REPORT_BENCH), run_cli_formats(REPORT_SELFCHECK));
}

enum { O_DATA = 256, O_SEED, O_PAGE, O_CACHE, O_WS, O_MIS, O_IFMT, O_LIME, O_TIMER, O_WIN, O_WARM, O_REP, O_HZ,
       O_ALIGN, O_CPU, O_FMT, O_SELF, O_NOCEIL, O_PROC, O_WIDE, O_KSMD, O_PAGES, O_SLEEP, O_APART, O_B2B };

static const struct option options[] = {
	{ "hash", required_argument, NULL, 'H' },      { "data", required_argument, NULL, O_DATA },
	{ "seed", required_argument, NULL, O_SEED },   { "page-size", required_argument, NULL, O_PAGE },
	{ "cache", required_argument, NULL, O_CACHE }, { "working-set", required_argument, NULL, O_WS },
	{ "misalign", required_argument, NULL, O_MIS }, { "input-format", required_argument, NULL, O_IFMT },
	{ "lime-ranges", required_argument, NULL, O_LIME }, { "timer", required_argument, NULL, O_TIMER },
	{ "window", required_argument, NULL, O_WIN },  { "warmup", required_argument, NULL, O_WARM },
	{ "repeat", required_argument, NULL, O_REP },  { "hz", required_argument, NULL, O_HZ },
	{ "align-tick", no_argument, NULL, O_ALIGN },  { "cpu", required_argument, NULL, O_CPU },
	{ "format", required_argument, NULL, O_FMT },  { "output", required_argument, NULL, 'o' },
	{ "selfcheck", no_argument, NULL, O_SELF },    { "help", no_argument, NULL, 'h' },
	{ "quiet", no_argument, NULL, 'q' },           { "no-ceiling", no_argument, NULL, O_NOCEIL },
	{ "processes", required_argument, NULL, O_PROC }, { "wide", no_argument, NULL, O_WIDE },
	{ "ksmd", no_argument, NULL, O_KSMD },         { "pages-to-scan", required_argument, NULL, O_PAGES },
	{ "sleep-ms", required_argument, NULL, O_SLEEP }, { "apart", no_argument, NULL, O_APART },
	{ "back-to-back", no_argument, NULL, O_B2B },
	CMD_EXPORT_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

/* The comma-separated items of text, copied into buf: 0, or an exit code. */
static int split_list(const char *opt, const char *text, char *buf, size_t size, const char **items, unsigned *n)
{
	*n = 0;
	if (strlen(text) >= size)
		return cli_error("bench", "%s: the list is too long", opt);
	strcpy(buf, text);
	for (char *p = buf;; p++) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (!*p)
			return cli_error("bench", "%s '%s': an empty item in the list", opt, text);
		if (*n == SWEEP_MAX)
			return cli_error("bench", "%s '%s': at most %d values", opt, text, SWEEP_MAX);
		items[(*n)++] = p;
		if (!comma)
			return 0;
		p = comma;
	}
}

/* A value twice in a sweep would measure the same thing twice: two results
 * that compare could not tell apart (and '-' read twice, the second time
 * empty). 0, or the exit code of the error naming it. */
static int once_each(const char *opt, const char *text, const char *const *items, const uint32_t *values,
		     unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = 0; j < i; j++)
			if (values ? values[i] == values[j] : strcmp(items[i], items[j]) == 0)
				return cli_error("bench", "%s '%s': '%s' is named twice", opt, text, items[i]);
	return 0;
}

/* The name a dataset's results are matched by: a file's base name (a run's
 * files may lie elsewhere in the next), else zero or random. */
static const char *match_name(const char *data)
{
	const char *slash = strrchr(data, '/');

	return page_set_data_is_file(data) && slash ? slash + 1 : data;
}

/* --data's datasets each named whole and once: a file's path must fit the
 * result's name ("file:PATH"; a longer one was cut, and two files in a long
 * directory took one name), and no two may share the name compare and the
 * gha entries match them by (two files of one base name, or a file named
 * random beside the built-in set). 0, or the exit code of the error. */
static int data_names_usable(const char *text, const char *const *items, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (page_set_data_is_file(items[i]) && strlen(items[i]) + strlen("file:") >= PAGE_SET_DATA_MAX)
			return cli_error("bench", "--data '%.40s...': a path of more than %zu bytes cannot name its "
					 "results", items[i], PAGE_SET_DATA_MAX - 1 - strlen("file:"));
		for (unsigned j = 0; j < i; j++)
			if (strcmp(match_name(items[i]), match_name(items[j])) == 0)
				return cli_error("bench", "--data '%s': '%s' and '%s' have one name, by which "
						 "compare matches datasets: their results could not be told apart", text,
						 items[j], items[i]);
	}
	return 0;
}

/* --data, --page-size, --cache, --misalign: lists. 0, an exit code, or -1
 * when c is not one of them. A FILE whose name has a comma is one item. */
static int parse_sweep(int c, const char *arg, struct sweep *s)
{
	static char buf[1024];
	const char *items[SWEEP_MAX];
	struct kb_err err;
	unsigned n;
	uint64_t v;
	int rc;

	switch (c) {
	case O_DATA:
		if (strchr(arg, ',') && access(arg, F_OK) == 0) {
			snprintf(s->data_text, sizeof(s->data_text), "%s", arg);
			s->data[0] = s->data_text;
			s->ndata = 1;
			return data_names_usable(arg, s->data, 1);
		}
		if ((rc = split_list("--data", arg, s->data_text, sizeof(s->data_text), s->data, &s->ndata)) != 0)
			return rc;
		if ((rc = once_each("--data", arg, s->data, NULL, s->ndata)) != 0)
			return rc;
		return data_names_usable(arg, s->data, s->ndata);
	case O_PAGE:
		if ((rc = split_list("--page-size", arg, buf, sizeof(buf), items, &n)) != 0)
			return rc;
		for (s->npage = 0; s->npage < n; s->npage++)
			if ((rc = cli_parse_page_size("bench", items[s->npage], &s->page[s->npage])) != 0)
				return rc;
		return once_each("--page-size", arg, items, s->page, n);
	case O_CACHE:
		/* Each named once, a third name is not hot or cold: refused
		 * before it would be stored. */
		if ((rc = split_list("--cache", arg, buf, sizeof(buf), items, &n)) != 0 ||
		    (rc = once_each("--cache", arg, items, NULL, n)) != 0)
			return rc;
		for (s->ncache = 0; s->ncache < n; s->ncache++) {
			if (strcmp(items[s->ncache], "hot") != 0 && strcmp(items[s->ncache], "cold") != 0)
				return cli_error("bench", "unknown cache mode '%s' (hot or cold)", items[s->ncache]);
			s->cold[s->ncache] = strcmp(items[s->ncache], "cold") == 0;
		}
		return 0;
	case O_MIS:
		if ((rc = split_list("--misalign", arg, buf, sizeof(buf), items, &n)) != 0)
			return rc;
		for (s->nmisalign = 0; s->nmisalign < n; s->nmisalign++) {
			if (kb_parse_uint(items[s->nmisalign], KB_PAGE_SIZE_MAX, &v, &err))
				return cli_error("bench", "--misalign: %s", err.msg);
			s->misalign[s->nmisalign] = (uint32_t)v;
		}
		return once_each("--misalign", arg, items, s->misalign, n);
	default: return -1;
	}
}

/* What is hashed besides the swept options: 0, an exit code, or -1 when c
 * is not such an option. */
static int parse_set(int c, const char *arg, struct page_set_request *set)
{
	struct kb_err err;

	switch (c) {
	case O_SEED: return run_cli_parse_seed("bench", arg, &set->seed);
	case O_WS: return run_cli_parse_working_set("bench", arg, &set->working_set_bytes);
	case O_IFMT:
		set->dump.format = arg;
		return dump_format_check(arg, &err) ? cli_fail("bench", &err) : 0;
	case O_LIME: set->dump.lime.ranges = arg; return 0;
	default: return -1;
	}
}

/* How it is timed: 0, an exit code, or -1 when c is not such an option. */
static int parse_timing(int c, const char *arg, struct bench_opts *o)
{
	struct bench_config *cfg = &o->base.cfg;
	struct kb_err err;
	uint64_t v;

	switch (c) {
	case O_TIMER: o->timer_name = arg; o->timer_given = 1; return 0;
	case O_WIN: return run_cli_parse_window("bench", arg, &cfg->window_ns);
	case O_WARM:
		o->warmup_given = 1;
		if (kb_parse_duration_ns(arg, 0, 60000000000u, &cfg->warmup_ns, &err))
			return cli_error("bench", "--warmup: %s", err.msg);
		return 0;
	case O_REP: return run_cli_parse_repeat("bench", arg, BENCH_REPEAT_MAX, &cfg->repeat);
	case O_HZ: o->jiffies_given = 1; return run_cli_parse_hz("bench", arg, &cfg->hz);
	case O_ALIGN: o->jiffies_given = cfg->align_tick = 1; return 0;
	case O_APART: o->apart_given = 1; return 0;
	case O_B2B: o->back_to_back_given = 1; return 0;
	case O_CPU: return run_cli_parse_cpu("bench", arg, &o->cpu);
	case O_PROC: o->processes_given = 1; return run_cli_parse_processes("bench", arg, &o->processes);
	case O_KSMD: o->ksmd = 1; return 0;
	case O_PAGES:
		o->ksmd_given = 1;
		if (kb_parse_uint(arg, BENCH_KSMD_PAGES_MAX, &v, &err) || v == 0)
			return cli_error("bench", "--pages-to-scan: a count from 1 to %u", BENCH_KSMD_PAGES_MAX);
		cfg->ksmd_pages = (unsigned)v;
		return 0;
	case O_SLEEP:
		o->ksmd_given = 1;
		if (kb_parse_uint(arg, BENCH_KSMD_SLEEP_MS_MAX, &v, &err))
			return cli_error("bench", "--sleep-ms: %s", err.msg);
		cfg->ksmd_sleep_ms = (unsigned)v;
		return 0;
	default: return -1;
	}
}

/* Checks that hold whatever the combination. */
static int check_sweep(const struct bench_opts *o)
{
	const struct sweep *s = &o->sweep;
	int files = 0;

	for (unsigned i = 0; i < s->ndata; i++)
		files += page_set_data_is_file(s->data[i]);
	if ((o->base.set.dump.format || o->base.set.dump.lime.ranges) && !files)
		return cli_error("bench", "--input-format and --lime-ranges are for --data FILE");
	for (unsigned m = 0; m < s->nmisalign; m++)
		for (unsigned p = 0; p < s->npage; p++)
			if (s->misalign[m] >= s->page[p])
				return cli_error("bench", "--misalign %u must be smaller than the page size %u",
						 s->misalign[m], s->page[p]);
	unsigned steps = s->ndata * s->ncache * s->npage * s->nmisalign;
	if (steps > STEPS_MAX)
		return cli_error("bench", "the sweep has %u combinations (at most %d)", steps, STEPS_MAX);
	int cold = 0;
	for (unsigned c = 0; c < s->ncache; c++)
		cold |= s->cold[c];
	/* An option that changes nothing would read as if it had. */
	if (o->jiffies_given && (o->ksmd || o->base.cfg.timer != BENCH_TIMER_JIFFIES))
		return cli_error("bench", "--hz and --align-tick are for --timer jiffies");
	if (o->base.set.working_set_bytes && !cold) /* given: 0 is the default's mark */
		return cli_error("bench", "--working-set is for --cache cold (or --ksmd)");
	if (o->ksmd_given && !o->ksmd && o->base.cfg.timer != BENCH_TIMER_KSMD)
		return cli_error("bench", "--pages-to-scan and --sleep-ms are for --ksmd and --timer ksmd");
	if (o->ksmd && (o->selfcheck || o->timer_given))
		return cli_error("bench", "--ksmd is its own timer (with rdtsc beside): no --timer or --selfcheck");
	for (unsigned c = 0; o->ksmd && c < s->ncache; c++)
		if (!s->cold[c])
			return cli_error("bench", "--ksmd hashes a cold working set, as ksmd does: no --cache hot");
	if (o->ksmd && 2 * steps > STEPS_MAX)
		return cli_error("bench", "--ksmd doubles the sweep to %u combinations (at most %d)", 2 * steps, STEPS_MAX);
	if (o->selfcheck && steps > 1)
		return cli_error("bench", "--selfcheck takes one data set, cache, page size and misalignment");
	/* The patch's line names the hash alone: a sweep, or --ksmd's two
	 * timers, would print lines nothing tells apart. */
	if (strcmp(o->format_name, "kernel") == 0 && (steps > 1 || o->ksmd))
		return cli_error("bench", "--format kernel names only the hash on each line: give one data set, cache, "
				 "page size and misalignment, and no --ksmd (--format table tells them apart)");
	/* It measures in this process: more were asked for and not started,
	 * and its context said 20 processes (the default) all the same. */
	if (o->selfcheck && o->processes_given && o->processes > 1)
		return cli_error("bench", "--selfcheck measures in this process: no --processes (but 1)");
	if (o->selfcheck && o->apart_given)
		return cli_error("bench", "--selfcheck checks the loop that calls back to back: no --apart");
	if (o->selfcheck && (o->timer_given || cold))
		return cli_error("bench", "--selfcheck checks the window and rdtsc timers on a hot set: no --timer or "
				 "--cache cold");
	return 0;
}

/* No output in place of a --data FILE: the report would replace the dump it
 * measured (scan, compare and plot refuse the same). 0, or an exit code. */
static int outputs_not_data(const struct bench_opts *o)
{
	int rc = 0;

	for (unsigned i = 0; i < o->sweep.ndata && !rc; i++) {
		if (!page_set_data_is_file(o->sweep.data[i]))
			continue;
		if (!(rc = cli_output_not_file("bench", "-o", o->output, o->sweep.data[i])))
			rc = cmd_exports_not_input("bench", &o->exports, o->sweep.data[i]);
	}
	return rc;
}

/* 0, an exit code, or -1 after --help. */
int cmd_bench_parse(int argc, char **argv, struct bench_opts *o)
{
	struct kb_err err;
	int c, rc;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "H:o:hq", options, NULL)) != -1) {
		o->cache_given |= c == O_CACHE;
		if ((rc = parse_sweep(c, optarg, &o->sweep)) >= 0 || (rc = parse_set(c, optarg, &o->base.set)) >= 0 ||
		    (rc = parse_timing(c, optarg, o)) >= 0) {
			if (rc)
				return rc;
			continue;
		}
		if (cmd_exports_option(c, optarg, &o->exports))
			continue;
		switch (c) {
		case 'H': o->hashes = optarg; break;
		case O_FMT: o->format_name = optarg; break;
		case 'o': o->output = optarg; break;
		case O_SELF: o->selfcheck = 1; break;
		case O_NOCEIL: o->no_ceiling = 1; break;
		case O_WIDE: o->wide = 1; break;
		case 'q': o->quiet = 1; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("bench", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("bench", "unexpected argument '%s'", argv[optind]);
	if (bench_timer_parse(o->timer_name, &o->base.cfg.timer, &err))
		return cli_fail("bench", &err);
	if (o->ksmd && !o->cache_given)
		o->sweep.cold[0] = 1; /* ksmd's pages are cold */
	if ((rc = check_sweep(o)) != 0 || (rc = outputs_not_data(o)) != 0)
		return rc;
	/* --ksmd's rows both: the sleep is then all that differs. --selfcheck
	 * checks the loop back to back. */
	if ((rc = run_cli_spacing("bench", o->apart_given, o->back_to_back_given || o->selfcheck,
				  o->ksmd ? BENCH_TIMER_KSMD : o->base.cfg.timer, &o->base.cfg)) != 0)
		return rc;
	if (bench_config_check(&o->base.cfg, &err))
		return cli_fail("bench", &err);
	if (!o->warmup_given)
		o->base.cfg.warmup_ns = o->base.cfg.window_ns / 4;
	return 0;
}

void cmd_bench_defaults(struct bench_opts *o)
{
	*o = (struct bench_opts){ .hashes = "all", .format_name = "table", .timer_name = "window", .cpu = -1,
				  .processes = BENCH_PROCESSES_DEFAULT,
				  .base.set = { .data = "random", .page_size = 4096, .seed = 1 },
				  .sweep = { .data = { "random" }, .page = { 4096 }, .ndata = 1, .npage = 1,
					     .nmisalign = 1, .ncache = 1 } };
	bench_config_default(&o->base.cfg);
	o->base.cfg.repeat = BENCH_ROUNDS_DEFAULT;
	o->base.cfg.window_ns = BENCH_WINDOW_DEFAULT_NS;
	struct ksmd_settings k;
	ksmd_settings_read(&k);
	ksmd_settings_cycle(&k, &o->base.cfg);
}
