/* CPU choice and pinning with sched_getaffinity / sched_setaffinity (see pin.h). */
#include "pin.h"

#include <errno.h>
#include <sched.h>
#include <time.h>

#include "clock_chain.h"
#include "interference.h"
#include "stats.h"
#include "../common/monotonic.h"

/* The mask pin_choose last saw (before pinning: it is called first). */
static cpu_set_t allowed;
static int allowed_known;

static struct pin_probe probes[CPU_SETSIZE];
static unsigned nprobes;

/* A core that was idle may still be raising its clock, while the one this
 * process ran on is up already: each is kept busy for PIN_WARM_NS before
 * it is read, PIN_READINGS times (~2 us each), the median kept. */
#define PIN_WARM_NS 1000000u
#define PIN_READINGS 15

static double probe_here(void)
{
	double r[PIN_READINGS];
	uint64_t end = clock_now_ns() + PIN_WARM_NS;

	while (clock_now_ns() < end)
		(void)clock_chain_throughput();
	for (unsigned i = 0; i < PIN_READINGS; i++)
		r[i] = clock_chain_throughput();
	stats_sort(r, PIN_READINGS);
	return r[PIN_READINGS / 2];
}

static int busy(const struct pin_probe *p)
{
	return p->busy_share >= PIN_BUSY_SHARE;
}

unsigned pin_pick(const struct pin_probe *p, unsigned n)
{
	double best = 0;
	int all_busy = 1;
	unsigned pick = 0;

	for (unsigned i = 0; i < n; i++)
		all_busy &= busy(&p[i]);
	for (unsigned i = 0; i < n; i++)
		if ((all_busy || !busy(&p[i])) && p[i].adds_per_ns > best)
			best = p[i].adds_per_ns;
	for (unsigned i = 0; i < n; i++)
		if ((all_busy || !busy(&p[i])) && p[i].adds_per_ns >= (1 - PIN_EQUAL_SHARE) * best)
			pick = i;
	return pick;
}

const struct pin_probe *pin_probes(unsigned *n)
{
	*n = nprobes;
	return probes;
}

/* Each CPU's busy share between two readings of /proc/stat. */
static void busy_shares(const uint64_t *busy0, const uint64_t *total0, const uint64_t *busy1,
			const uint64_t *total1)
{
	for (unsigned i = 0; i < nprobes; i++) {
		uint64_t total = total1[i] > total0[i] ? total1[i] - total0[i] : 0;
		uint64_t busy = busy1[i] > busy0[i] ? busy1[i] - busy0[i] : 0;
		/* Fewer than three ticks tell too little. */
		probes[i].busy_share = total >= 3 ? (double)(busy < total ? busy : total) / (double)total : -1;
	}
}

/* Times every allowed CPU in turn and reads how busy each was meanwhile,
 * then gives the process its mask back. */
static int choose_fastest(void)
{
	static int cpus[CPU_SETSIZE];
	static uint64_t ticks[4][CPU_SETSIZE];
	uint64_t start = clock_now_ns();

	nprobes = 0;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed)) {
			cpus[nprobes] = cpu;
			probes[nprobes++] = (struct pin_probe){ .cpu = cpu, .busy_share = -1 };
		}
	if (nprobes == 1) {
		nprobes = 0;
		return probes[0].cpu;
	}
	int stat_ok = interference_cpu_ticks(cpus, nprobes, ticks[0], ticks[1]) == 0;
	for (unsigned i = 0; i < nprobes; i++) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(probes[i].cpu, &one);
		/* A CPU taken away meanwhile (a cpuset changed) keeps 0. */
		if (sched_setaffinity(0, sizeof(one), &one) == 0)
			probes[i].adds_per_ns = probe_here();
	}
	sched_setaffinity(0, sizeof(allowed), &allowed);
	if (stat_ok) {
		uint64_t spent = clock_now_ns() - start;
		if (spent < PIN_BUSY_WINDOW_NS) {
			uint64_t rest = PIN_BUSY_WINDOW_NS - spent;
			nanosleep(&(struct timespec){ .tv_sec = (time_t)(rest / 1000000000u),
						      .tv_nsec = (long)(rest % 1000000000u) }, NULL);
		}
		if (interference_cpu_ticks(cpus, nprobes, ticks[2], ticks[3]) == 0)
			busy_shares(ticks[0], ticks[1], ticks[2], ticks[3]);
	}
	return probes[pin_pick(probes, nprobes)].cpu;
}

int pin_choose(int requested, const char **rule, struct kb_err *err)
{
	if (requested >= CPU_SETSIZE)
		return kb_fail(err, "CPU %d does not exist", requested);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return kb_fail_errno(err, errno, "cannot read this process's CPU affinity");
	allowed_known = 1;
	nprobes = 0;
	if (requested >= 0) {
		if (!CPU_ISSET(requested, &allowed))
			return kb_fail(err, "CPU %d is not available to this process", requested);
		*rule = PIN_RULE_ASKED;
		return requested;
	}
	if (CPU_COUNT(&allowed) == 0)
		return kb_fail(err, "this process may run on no CPU");
	*rule = PIN_RULE_DEFAULT;
	return choose_fastest();
}

int pin_to_cpu(int cpu, struct kb_err *err)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return kb_fail(err, "CPU %d does not exist", cpu);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		if (errno == EINVAL)
			return kb_fail(err, "CPU %d is not available to this process", cpu);
		return kb_fail_errno(err, errno, "cannot pin to CPU %d", cpu);
	}
	return 0;
}

void pin_away_from(int cpu)
{
	cpu_set_t others = allowed;

	if (!allowed_known || cpu < 0 || cpu >= CPU_SETSIZE)
		return;
	CPU_CLR(cpu, &others);
	if (CPU_COUNT(&others) > 0)
		sched_setaffinity(0, sizeof(others), &others);
}
