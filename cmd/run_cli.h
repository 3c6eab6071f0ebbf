/* Pieces shared by the commands that measure (bench, thread, select, scan):
 * their option values, choosing the CPU, the progress line, the report's
 * format, and what an interruption changes. Each function that can fail
 * prints its error and returns the exit code, or returns 0. */
#ifndef KB_RUN_CLI_H
#define KB_RUN_CLI_H

#include <stdint.h>

#include "../bench/context.h"
#include "../bench/run.h"
#include "../report/report.h"

int run_cli_parse_cpu(const char *cmd, const char *text, int *cpu);           /* --cpu N */
int run_cli_parse_repeat(const char *cmd, const char *text, unsigned max, unsigned *repeat); /* --repeat 1..max */
int run_cli_parse_hz(const char *cmd, const char *text, unsigned *hz);         /* --hz 8..10000 */
int run_cli_parse_working_set(const char *cmd, const char *text, uint64_t *bytes); /* 64K..64G */
int run_cli_parse_window(const char *cmd, const char *text, uint64_t *ns);     /* --window */
int run_cli_parse_processes(const char *cmd, const char *text, unsigned *n);   /* --processes 1..100 */
int run_cli_parse_seed(const char *cmd, const char *text, uint64_t *seed);     /* --seed */
/* --kernel-release R: a release with KSM (2.6.32 on), as *release (text itself). */
int run_cli_parse_kernel_release(const char *cmd, const char *text, const char **release);
/* --apart and --back-to-back (each given or not) into cfg->apart: the one
 * given, else the default of timer (bench_apart_by_default); both given is
 * an error. */
int run_cli_spacing(const char *cmd, int apart, int back_to_back, enum bench_timer timer, struct bench_config *cfg);

/* A measuring command's run: its plan, and what its measuring processes
 * are started with (cmd/workers.h). */
struct run_cli_run {
	const char *cmd;
	struct bench_plan plan;
	int argc;       /* the command's arguments, argv[0] its name */
	char **argv;
	int quiet;
	int cpu;        /* the CPU chosen (run_cli_cpu) */
};

/* In a measuring process (ksmbench --worker ...): serves run's plan and
 * returns the exit code. -1 in any other process. */
int run_cli_serve(const struct run_cli_run *run);

/* The report format called name for kind. */
int run_cli_format(const char *cmd, const char *name, enum report_kind kind, const struct report_format **f);

/* The CPU for requested (-1: the default rule, bench/pin.h) in *cpu and
 * *rule; pinned there too unless only_choose. */
int run_cli_cpu(const char *cmd, int requested, int only_choose, int *cpu, const char **rule);

/* The run's context, gathered for the CPU chosen and the hashes measured
 * (counter: how the command uses the cycle counter); NULL after
 * printing the error. Freed with free(). */
struct bench_context *run_cli_context(const char *cmd, int cpu, const char *rule,
				      const struct hash_impl *const *hashes, unsigned n, enum context_counter counter);

/* This process's limits (bench/ceiling.h, about 1.2 s) into ctx->ceiling,
 * measured on the pinned CPU before anything is timed, with a progress
 * note on a terminal; a warning in ctx if the probes could not run. */
void run_cli_ceiling(const char *cmd, struct bench_context *ctx, int quiet);

/* Runs the plan, in this process (--processes 1) or in measuring
 * processes, with a progress line on a terminal (none with quiet); out
 * gets what was measured, estimated, also when a stop request ends it
 * early. */
int run_cli_measure(const struct run_cli_run *run, struct bench_results *out);

/* After the run: bounds each result by ctx's ceiling (if measured),
 * records in ctx whether a stop request cut the run short (says so on
 * stderr when it did), and prints the context's warnings and one line per
 * unstable result on stderr for a format that has no place for them (not
 * with quiet). */
void run_cli_finish(const char *cmd, struct bench_context *ctx, struct bench_results *r,
		    const struct report_format *f, int quiet);

/* The context's warnings on stderr when f has no place for them (csv, tsv,
 * kernel) and not quiet; returns whether they went there. */
int run_cli_warnings(const char *cmd, const struct bench_context *ctx, const struct report_format *f, int quiet);

/* The exit code after the report was written with close_rc: an interrupted
 * run exits 128 + the signal (130 for SIGINT), report written or not. */
int run_cli_exit_code(int close_rc);

/* For --help: the formats that write kind, "table|kernel|..." (a usage
 * line) or, with list, "table, kernel, ... or markdown". */
const char *run_cli_formats(enum report_kind kind);
const char *run_cli_format_list(enum report_kind kind);

#endif
