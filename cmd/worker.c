/* A measuring process's side of --processes (see workers.h): its share of
 * the plan, its rounds written to stdout as bench/wire.h lines. */
#include <ctype.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/clock.h"
#include "../bench/pin.h"
#include "../bench/wire.h"
#include "../hashes/alias.h"
#include "../hashes/cpu_features.h"
#include "../hashes/cpu_identity.h"
#include "cli.h"
#include "interrupt.h"
#include "workers.h"

struct worker_spec worker_spec;

void worker_cpu_signature(char *buf, size_t size)
{
	const struct cpu_identity *id = cpu_identity();
	char vendor[sizeof(id->vendor)] = "-"; /* "-": no vendor (off x86) */

	/* CPUID's vendor is 12 bytes of anything: kept to what the spec parses. */
	for (size_t i = 0; id->vendor[i] && i + 1 < sizeof(vendor); i++, vendor[i] = 0)
		vendor[i] = isalnum((unsigned char)id->vendor[i]) ? id->vendor[i] : '_';
	snprintf(buf, size, "%s.%u.%u.%x", vendor, id->family, id->model, (unsigned)cpu_features_detected());
}

/* "PROCESS,PROGRESS,HZ,OVERHEAD,STEP,SIGNATURE,PINNED,PAGES[,ALIAS=IMPL...]" */
int worker_spec_parse(const char *text)
{
	struct worker_spec s = { .active = 1 };
	struct kb_err err;
	char vendor[16];
	unsigned number[3];
	int progress, used = -1, whole = -1;

	if (sscanf(text, "%u,%d,%lf,%lf,%lf,%63[A-Za-z0-9_.-],%d,%d%n", &s.process, &progress, &s.hz,
		   &s.overhead_ticks, &s.step_ticks, s.cpu, &s.pinned, &s.pages_fd, &used) != 8 || used < 0 ||
	    s.process >= BENCH_PROCESSES_MAX || !(s.hz > 0) || s.overhead_ticks < 0 || s.step_ticks < 1 ||
	    s.pinned < 0 || s.pinned >= CPU_SETSIZE || s.pages_fd < -1 || s.pages_fd == 0)
		return -1;
	if (sscanf(s.cpu, "%15[A-Za-z0-9_-].%u.%u.%x%n", vendor, &number[0], &number[1], &number[2], &whole) != 4 ||
	    s.cpu[whole] != '\0')
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

/* "VENDOR family F model M", or the features where those agree. */
static const char *cpu_described(const char *sig, const char *other, char *buf, size_t size)
{
	char vendor[16], names[160];
	unsigned family, model, features;

	if (sscanf(sig, "%15[^.].%u.%u.%x", vendor, &family, &model, &features) != 4)
		return sig;
	/* The same up to the features' dot: only those differ. */
	size_t head = strlen(sig) - strlen(strrchr(sig, '.'));
	if (strncmp(sig, other, head + 1) != 0)
		snprintf(buf, size, "%s family %u model %u", vendor, family, model);
	else
		snprintf(buf, size, "features %s", cpu_features_names(features, names, sizeof(names)));
	return buf;
}

/* An emulator (qemu-user) or valgrind that does not follow exec runs the
 * measuring processes on the host's CPU: their rounds would be filed under
 * the CPU the report names, and run implementations chosen for it. */
static int cpu_same(const char *cmd)
{
	char here[64], a[200], b[200];

	worker_cpu_signature(here, sizeof(here));
	if (strcmp(here, worker_spec.cpu) == 0)
		return 0;
	return cli_error(cmd, "measuring process %u sees another CPU (%s) than the ksmbench that started it (%s): "
			 "an emulator or valgrind started it natively; run it under the same one (valgrind "
			 "--trace-children=yes, KSMBENCH_WORKER_EXE naming a wrapper) or measure in one process "
			 "(--processes 1)", worker_spec.process + 1, cpu_described(here, worker_spec.cpu, a, sizeof(a)),
			 cpu_described(worker_spec.cpu, here, b, sizeof(b)));
}

/* A wrapper (KSMBENCH_WORKER_EXE) that moves the process, as taskset does,
 * would have its rounds filed under the CPU the report names. */
static int pinned_still(const char *cmd)
{
	cpu_set_t set;
	char list[128];

	if (sched_getaffinity(0, sizeof(set), &set) != 0 || (CPU_COUNT(&set) == 1 && CPU_ISSET(worker_spec.pinned, &set)))
		return 0;
	return cli_error(cmd, "measuring process %u may run on CPU %s, not on CPU %d alone where it was started: "
			 "something between (KSMBENCH_WORKER_EXE's wrapper?) moved it; choose the CPU with --cpu",
			 worker_spec.process + 1, pin_cpus_text(&set, list, sizeof(list)), worker_spec.pinned);
}

int worker_serve(const char *cmd, const struct bench_plan *plan)
{
	static char buf[1 << 16];
	struct bench_sink sink = { stdout, on_set, on_progress, on_round };
	struct kb_err err;

	if (cpu_same(cmd) || pinned_still(cmd))
		return KB_EXIT_USAGE;
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
	struct bench_plan mine = *plan;
	struct page_store pages;
	if (worker_spec.pages_fd >= 0) {
		if (page_store_adopt(&pages, worker_spec.pages_fd, plan->nsteps, &err))
			return cli_fail(cmd, &err);
		mine.pages = &pages;
	}
	wire_write_header(stdout, bench_plan_measurements(plan), worker_spec.process);
	int rc = bench_run_process(&mine, worker_spec.process, &sink, &err);
	if (mine.pages)
		page_store_close(&pages);
	if (rc)
		return cli_fail(cmd, &err);
	wire_write_end(stdout, bench_stop_requested());
	return fflush(stdout) == 0 && !ferror(stdout) ? KB_EXIT_OK : KB_EXIT_USAGE;
}
