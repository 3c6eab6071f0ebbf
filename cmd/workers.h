/* Processes as the unit of repetition: a measuring command (bench, thread,
 * select) with --processes N > 1 starts N measuring processes one after
 * another: ksmbench itself (/proc/self/exe, or KSMBENCH_WORKER_EXE for an
 * emulator's wrapper), re-executed with a hidden "--worker SPEC" before the
 * command and its own arguments, so that each has a fresh address layout.
 * Each is pinned to the run's CPU, measures its share of the plan
 * (bench_run_process) and writes its rounds back on a pipe (bench/wire.h);
 * this process gathers them into one bench_results. A process that
 * crashes, is killed or writes anything else gives one error line and no
 * results; a stop request (SIGINT, SIGTERM) is passed on, and what was
 * measured until then is kept. */
#ifndef KB_WORKERS_H
#define KB_WORKERS_H

#include "../bench/run.h"

/* What the hidden option tells a measuring process. */
struct worker_spec {
	int active;          /* this process is a measuring process */
	unsigned process;    /* its number, from 0 */
	int progress;        /* send progress lines */
	double hz, overhead_ticks, step_ticks; /* the parent's counter calibration */
	char cpu[64];        /* the parent's worker_cpu_signature() */
	int pinned;          /* the CPU the parent pinned it to */
	int pages_fd;        /* the files' pages the parent read (bench/run.h), or -1 */
};

extern struct worker_spec worker_spec;

/* "VENDOR.FAMILY.MODEL.FEATURES" of the CPU this process sees (CPUID, the
 * features as detected): a measuring process must see the same. */
void worker_cpu_signature(char *buf, size_t size);

/* "--worker SPEC" (main.c): 0, or -1 when SPEC is malformed. */
int worker_spec_parse(const char *text);

/* The measuring process's side: process worker_spec.process of plan,
 * written to stdout; returns the exit code (errors on stderr). */
int worker_serve(const char *cmd, const struct bench_plan *plan);

/* This process's side: the plan's processes, started one by one with
 * args (the command's argv, argv[0] its name), pinned to cpu, gathered
 * into out (bench_results_plan'd here, finished by the caller). progress
 * (NULL: none) is shown between their lines. 0, or an exit code after
 * printing the error. */
int workers_run(const char *cmd, const struct bench_plan *plan, int argc, char **argv, int cpu,
		void (*progress)(void *arg, const struct bench_progress *p), void *progress_arg,
		struct bench_results *out);

#endif
