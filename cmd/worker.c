/* A measuring process's side of --processes (see workers.h): its share of
 * the plan, its rounds written to stdout as bench/wire.h lines. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/clock.h"
#include "../bench/wire.h"
#include "../hashes/alias.h"
#include "cli.h"
#include "interrupt.h"
#include "workers.h"

struct worker_spec worker_spec;

/* "PROCESS,PROGRESS,HZ,OVERHEAD,STEP[,ALIAS=IMPL...]" */
int worker_spec_parse(const char *text)
{
	struct worker_spec s = { .active = 1 };
	struct kb_err err;
	int progress, used = -1;

	if (sscanf(text, "%u,%d,%lf,%lf,%lf%n", &s.process, &progress, &s.hz, &s.overhead_ticks, &s.step_ticks,
		   &used) != 5 || used < 0 || s.process >= BENCH_PROCESSES_MAX || !(s.hz > 0) || s.overhead_ticks < 0 ||
	    s.step_ticks < 1)
		return -1;
	/* The parent's alias choices (workers.c), each taken as it is. */
	for (const char *p = text + used; *p;) {
		char alias[32], impl[32]; /* the %31 below */
		int n = -1;
		if (sscanf(p, ",%31[^=,]=%31[^=,]%n", alias, impl, &n) != 2 || n < 0 || alias_adopt(alias, impl, &err))
			return -1;
		p += n;
	}
	s.progress = progress != 0;
	worker_spec = s;
	return 0;
}

static void on_set(void *arg, unsigned m, uint64_t set_pages, uint64_t ws_bytes)
{
	wire_write_set(arg, m, set_pages, ws_bytes);
}

/* With progress asked for, each line goes out at once (and with it the
 * rounds before it); otherwise everything leaves with the end line. */
static void on_progress(void *arg, const struct bench_progress *p)
{
	FILE *out = arg;

	if (!worker_spec.progress)
		return;
	if (p->note)
		wire_write_note(out, p->step ? p->step - 1 : 0);
	else
		wire_write_progress(out, p->measurement, p->round, p->rounds, p->slot, p->slots);
	fflush(out);
}

static int on_round(void *arg, unsigned m, const struct bench_round *r, struct kb_err *err)
{
	return wire_write_round(arg, m, r) ? kb_fail(err, "cannot write to the ksmbench that started it") : 0;
}

int worker_serve(const char *cmd, const struct bench_plan *plan)
{
	static char buf[1 << 16];
	struct bench_sink sink = { stdout, on_set, on_progress, on_round };
	struct kb_err err;

	/* A terminal's Ctrl-C reaches the whole process group: the parent
	 * passes it on as SIGTERM, once. */
	interrupt_install(INTERRUPT_WORKER);
	signal(SIGINT, SIG_IGN);
	/* The parent's stop, held back since the fork (workers.c), now stops
	 * the rounds instead of the process. */
	sigset_t term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGHUP);
	sigprocmask(SIG_UNBLOCK, &term, NULL);
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	counter_info_adopt(worker_spec.hz, worker_spec.overhead_ticks, worker_spec.step_ticks);
	wire_write_header(stdout, bench_plan_measurements(plan), worker_spec.process);
	if (bench_run_process(plan, worker_spec.process, &sink, &err))
		return cli_fail(cmd, &err);
	wire_write_end(stdout, bench_stop_requested());
	return fflush(stdout) == 0 && !ferror(stdout) ? KB_EXIT_OK : KB_EXIT_USAGE;
}
