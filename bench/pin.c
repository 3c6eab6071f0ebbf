/* CPU choice and pinning with sched_getaffinity / sched_setaffinity (see pin.h). */
#include "pin.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock_chain.h"
#include "stats.h"
#include "../common/monotonic.h"

/* The mask pin_choose last saw (before pinning: it is called first). */
static cpu_set_t allowed;
static int allowed_known;

static struct pin_probe probes[CPU_SETSIZE];
static unsigned nprobes;

/* A core that was idle may still be raising its clock, while the one this
 * process ran on is up already: each is kept busy for PIN_WARM_NS before
 * it is read, PIN_READINGS times (~2 us each), the median kept. First the
 * thread yields PIN_YIELDS times: another task runnable on the CPU then
 * runs (for milliseconds), one that is not leaves it at once, and the
 * share of the whole timing the thread was off the CPU tells which. */
#define PIN_WARM_NS 1000000u
#define PIN_READINGS 15
#define PIN_YIELDS 3

/* The yields let another task run only where the scheduler finds it
 * due. A thread that had just waited on one CPU (a test suite's short
 * processes there) then ran its whole timing on the next, where a shell
 * loop was pinned: 0-0.3% off the CPU, free, and it was chosen (11 of
 * 80 runs; the probe alone in a small program, 19 of 100; never after a
 * CPU where it had not waited). Linux's EEVDF (6.6+) keeps a thread's
 * lag, the CPU time it is owed for having waited, when it moves to
 * another CPU, and picks no task behind it there, even at a yield,
 * until the thread has run about as long as it waited (the lag is
 * capped at two slices or a tick: against a task of equal weight, 20 ms
 * of running at most). So a CPU is first settled: the thread runs
 * there, yielding every PIN_SETTLE_STEP_NS, for as long as it waited
 * before (PIN_SETTLE_MAX_NS at most), or until it finds itself off the
 * CPU for PIN_TURN_NS in one step (another task took its turn: the
 * timing starts with that step). On a free CPU every yield returns in a
 * few us: settling adds no share there, only its time. */
#define PIN_SETTLE_MAX_NS 20000000u
#define PIN_SETTLE_STEP_NS 100000u
#define PIN_TURN_NS 50000u

uint64_t pin_settle_ns(uint64_t waited_ns)
{
	return waited_ns < PIN_SETTLE_MAX_NS ? waited_ns : PIN_SETTLE_MAX_NS;
}

/* The time this thread waited runnable for a CPU since it started (the
 * second field of /proc/thread-self/schedstat, kernels with
 * CONFIG_SCHED_INFO), 0 if unknown. */
static uint64_t thread_waited_ns(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	unsigned long long on = 0, waited = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &on, &waited) != 2)
		waited = 0;
	fclose(f);
	return waited;
}

/* Times the CPU the thread is on after settling it for settle_ns (see
 * above); returns how long the thread was off the CPU meanwhile, the time
 * it waited, which the next CPU is settled for. */
static uint64_t probe_here(struct pin_probe *p, uint64_t settle_ns)
{
	double r[PIN_READINGS];
	uint64_t start = clock_now_ns(), cpu_start = clock_thread_ns();
	uint64_t wall0 = start, cpu0 = cpu_start;
	int turn = 0;

	/* Without a thread clock there is nothing to settle by (nor a share). */
	for (uint64_t ran = 0; cpu_start && ran < settle_ns && !turn; ran = clock_thread_ns() - cpu_start) {
		uint64_t before = clock_now_ns(), cpu_before = clock_thread_ns();
		sched_yield();
		while (clock_now_ns() < before + PIN_SETTLE_STEP_NS)
			(void)clock_chain_throughput();
		/* Off the CPU at the yield or later in the step (a tick gave
		 * another task its turn): the timing starts with this step. */
		int64_t off = (int64_t)(clock_now_ns() - before) - (int64_t)(clock_thread_ns() - cpu_before);
		if (off >= (int64_t)PIN_TURN_NS) {
			wall0 = before;
			cpu0 = cpu_before;
			turn = 1;
		}
	}
	if (settle_ns && !turn) {
		wall0 = clock_now_ns();
		cpu0 = clock_thread_ns();
	}
	for (unsigned i = 0; i < PIN_YIELDS; i++)
		sched_yield();
	uint64_t end = clock_now_ns() + PIN_WARM_NS;
	while (clock_now_ns() < end)
		(void)clock_chain_throughput();
	for (unsigned i = 0; i < PIN_READINGS; i++)
		r[i] = clock_chain_throughput();
	stats_sort(r, PIN_READINGS);
	p->adds_per_ns = r[PIN_READINGS / 2];
	uint64_t now = clock_now_ns(), cpu_now = clock_thread_ns();
	uint64_t wall = now - wall0, cpu = cpu_now - cpu0;
	p->busy_share = cpu0 && wall ? (cpu < wall ? 1 - (double)cpu / (double)wall : 0) : -1;
	uint64_t all = now - start, ran = cpu_now - cpu_start;
	return cpu_start && ran < all ? all - ran : 0;
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

/* The allowed CPUs into p, in increasing order, each not yet timed. */
static unsigned list_allowed(struct pin_probe *p)
{
	unsigned n = 0;

	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &allowed))
			p[n++] = (struct pin_probe){ .cpu = cpu, .busy_share = -1 };
	return n;
}

/* Times the n CPUs of p in turn, then gives the process its mask back;
 * returns the CPU pin_pick chose. */
static int choose_fastest(struct pin_probe *p, unsigned n)
{
	/* The first CPU is settled for what the thread waited since the last
	 * choice (or its start), each next for what it waited on the one before. */
	static uint64_t waited_before;
	uint64_t waited_now = thread_waited_ns();
	uint64_t waited = waited_now > waited_before ? waited_now - waited_before : 0;

	for (unsigned i = 0; i < n; i++) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(p[i].cpu, &one);
		/* A CPU taken away meanwhile (a cpuset changed) keeps 0. */
		if (sched_setaffinity(0, sizeof(one), &one) == 0)
			waited = probe_here(&p[i], pin_settle_ns(waited));
	}
	sched_setaffinity(0, sizeof(allowed), &allowed);
	waited_before = thread_waited_ns();
	return p[pin_pick(p, n)].cpu;
}

/* Whether a ranks before b among the CPUs to time again. */
static int ranks_before(const struct pin_probe *a, const struct pin_probe *b)
{
	if (busy(a) != busy(b))
		return !busy(a);
	if (a->adds_per_ns != b->adds_per_ns)
		return a->adds_per_ns > b->adds_per_ns;
	return a->cpu > b->cpu;
}

unsigned pin_again_list(const struct pin_probe *first, unsigned n, struct pin_probe *out)
{
	unsigned k = 0;

	/* A CPU with fewer than PIN_AGAIN_MAX ranked before it is one of the
	 * best (every one when n <= PIN_AGAIN_MAX); taken in CPU order. */
	for (unsigned i = 0; i < n && k < PIN_AGAIN_MAX; i++) {
		unsigned ahead = 0;
		for (unsigned j = 0; j < n && ahead < PIN_AGAIN_MAX; j++)
			ahead += j != i && ranks_before(&first[j], &first[i]);
		if (ahead < PIN_AGAIN_MAX)
			out[k++] = (struct pin_probe){ .cpu = first[i].cpu, .busy_share = -1 };
	}
	return k;
}

int pin_choose_again(void)
{
	static struct pin_probe again[PIN_AGAIN_MAX];

	return nprobes ? choose_fastest(again, pin_again_list(probes, nprobes, again)) : -1;
}

/* Whether cpu is in the kernel's CPU list file (such as "0-3,8\n"), the
 * list read into text: 1, 0, or -1 when it cannot be read or parsed. */
static int cpu_listed(const char *path, int cpu, char *text, size_t size)
{
	FILE *f = fopen(path, "r");
	int in = 0, any = 0;

	if (!f)
		return -1;
	size_t n = fread(text, 1, size - 1, f);
	fclose(f);
	text[n] = '\0';
	text[strcspn(text, "\n")] = '\0';
	for (char *p = text, *end; *p; p = end + 1) {
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p)
			return -1;
		if (*end == '-' && (p = end + 1, hi = strtol(p, &end, 10), end == p))
			return -1;
		in |= cpu >= lo && cpu <= hi;
		any = 1;
		if (*end != ',')
			return *end ? -1 : in;
	}
	return any ? in : -1;
}

const char *pin_cpus_text(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		int last = cpu;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		int w = last > cpu ? snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", cpu, last)
				   : snprintf(buf + len, size - len, "%s%d", len ? "," : "", cpu);
		if (w < 0 || (size_t)w >= size - len) {
			snprintf(buf + (len < size - 4 ? len : size - 4), 4, "...");
			return buf;
		}
		len += (size_t)w;
		cpu = last;
	}
	return buf;
}

/* Why this process may not run on cpu: it does not exist, is offline, or
 * lies outside the affinity mask (taskset, a cpuset). */
static int not_allowed(int cpu, struct kb_err *err)
{
	char text[256], mask[128];
	int possible = cpu_listed("/sys/devices/system/cpu/possible", cpu, text, sizeof(text));

	if (possible == 0)
		return kb_fail(err, "CPU %d does not exist (CPUs %s here)", cpu, text);
	if (cpu >= CPU_SETSIZE)
		return kb_fail(err, "CPU %d does not exist", cpu);
	if (cpu_listed("/sys/devices/system/cpu/online", cpu, text, sizeof(text)) == 0)
		return kb_fail(err, "CPU %d is offline (CPUs %s online)", cpu, text);
	return kb_fail(err, "CPU %d is not available to this process: its affinity (taskset, a cpuset) allows %s", cpu,
		       pin_cpus_text(&allowed, mask, sizeof(mask)));
}

int pin_choose(int requested, const char **rule, struct kb_err *err)
{
	if (requested >= CPU_SETSIZE)
		return not_allowed(requested, err);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return kb_fail_errno(err, errno, "cannot read this process's CPU affinity");
	allowed_known = 1;
	nprobes = 0;
	if (requested >= 0) {
		if (!CPU_ISSET(requested, &allowed))
			return not_allowed(requested, err);
		*rule = PIN_RULE_ASKED;
		return requested;
	}
	unsigned n = list_allowed(probes);
	if (n == 0)
		return kb_fail(err, "this process may run on no CPU");
	if (n == 1) {
		*rule = PIN_RULE_ONLY;
		return probes[0].cpu; /* nothing to choose: not timed, no probes */
	}
	*rule = PIN_RULE_DEFAULT;
	nprobes = n;
	return choose_fastest(probes, n);
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
