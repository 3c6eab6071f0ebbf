/* Disturbed rounds (see disturb.h). */
#include "disturb.h"

#include "interference.h"
#include "stats.h"

#include <stdlib.h>

/* Chosen on a 2-vCPU VM (docs/measurement.md): a build or a vector loop on
 * the other vCPU keeps it 90-100% busy and slows vector code on this one by
 * up to 40%, while an idle system shows 0-20% (a tick or two of 10 ms in a
 * round of 50-125 ms). /proc/stat counts 10 ms ticks, so any steal tick in
 * a round shorter than 0.5 s is above 2%. A pinned, otherwise idle CPU
 * gives the thread 99.9% of the wall time and a handful of switches. */
const struct disturb_thresholds disturb_default = {
	.busy_share = 0.5,
	.steal_share = 0.02,
	.off_cpu_share = 0.02,
	.switches = 10,
	.migrations = 0,
	.clock_drop = 0.05,
	.throughput_drop = 0.15,
};

static const char *const names[DISTURB_KINDS] = { "busy", "steal", "off-cpu", "switches", "migrated", "clock",
						    "shared-core" };

int disturb_shared_from_outside(const struct bench_round *q)
{
	return (q->disturbed & DISTURB_SHARED) && (q->known & INTERFERENCE_BUSY) &&
	       !(q->disturbed & (DISTURB_BUSY | DISTURB_OFF_CPU | DISTURB_SWITCHES));
}

const char *disturb_name(unsigned i)
{
	return i < DISTURB_KINDS ? names[i] : "?";
}

/* A round that sleeps on purpose (the ksmd timer's cycles): its clock and
 * throughput are read just after a cycle that followed a wake-up. On the
 * Zen 3 VM (docs/measurement.md) a core that wakes ran narrower and slower
 * for milliseconds: the block read 22-27 additions per ns at the edges of
 * such rounds against 32-44 for the same hashes in hot loops, and after 40
 * ms asleep xxh64 took 603 ns a call, 457 three milliseconds on (450 hot):
 * what ksmd meets, not a disturbance. So the clock is not judged, neither
 * figure enters the hot rounds' reference, and the throughput is judged
 * only where the woken rounds' own decile shows no such slowing (on the Zen
 * 5 VM free woken rounds read 64-69 against a hot decile of 68, and those
 * the host shared 35-50, their pages 5-30% slower). */
static int asleep(const struct bench_round *r)
{
	return r->slept_ns > 0;
}

unsigned disturb_round(const struct bench_round *r, const struct disturb_reference *ref,
		       const struct disturb_thresholds *t)
{
	double reference_hz = ref ? ref->clock_hz : 0, reference_tp = ref ? ref->throughput : 0;
	unsigned bits = 0;

	if ((r->known & INTERFERENCE_BUSY) && r->other_busy_share > t->busy_share)
		bits |= DISTURB_BUSY;
	if ((r->known & INTERFERENCE_STEAL) && r->steal_share > t->steal_share)
		bits |= DISTURB_STEAL;
	if ((r->known & INTERFERENCE_OFF_CPU) && r->off_cpu_share > t->off_cpu_share)
		bits |= DISTURB_OFF_CPU;
	if ((r->known & INTERFERENCE_SWITCHES) && r->involuntary_switches > t->switches)
		bits |= DISTURB_SWITCHES;
	if ((r->known & INTERFERENCE_MIGRATIONS) && r->migrations > t->migrations)
		bits |= DISTURB_MIGRATED;
	if (asleep(r) && !(ref && disturb_reference_woken_judged(ref, t)))
		return bits;
	if (!asleep(r) && (r->known & INTERFERENCE_CLOCK) && reference_hz > 0 &&
	    r->clock_hz < (1 - t->clock_drop) * reference_hz)
		bits |= DISTURB_CLOCK;
	if ((r->known & INTERFERENCE_THROUGHPUT) && reference_tp > 0 &&
	    r->throughput < (1 - t->throughput_drop) * reference_tp)
		bits |= DISTURB_SHARED;
	return bits;
}

/* The p-th percentile (interpolated) of the figure over every round of the
 * run that has one and slept or not as slept says; without memory for the
 * copy, the highest (the stricter reference: it marks more rounds, never
 * fewer). */
static double run_percentile(const struct bench_result *results, size_t n, unsigned known, int slept,
			     double (*figure)(const struct bench_round *), double p)
{
	size_t count = 0, k = 0;
	double best = 0, reference;

	for (size_t i = 0; i < n; i++)
		for (unsigned j = 0; j < results[i].repeats; j++)
			count += (results[i].rounds[j].known & known) && asleep(&results[i].rounds[j]) == slept;
	if (count == 0)
		return 0;
	double *v = malloc(count * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		for (unsigned j = 0; j < results[i].repeats; j++) {
			const struct bench_round *r = &results[i].rounds[j];
			if (!(r->known & known) || asleep(r) != slept)
				continue;
			if (figure(r) > best)
				best = figure(r);
			if (v)
				v[k++] = figure(r);
		}
	if (!v)
		return best;
	stats_sort(v, count);
	reference = stats_percentile_sorted(v, count, p);
	free(v);
	return reference;
}

static double round_clock(const struct bench_round *r)
{
	return r->clock_hz;
}

static double round_throughput(const struct bench_round *r)
{
	return r->throughput;
}

/* The clock against the run's median: a clock drop is a departure from the
 * usual, and turbo bursts above it are not the yardstick. On the model-167
 * VM of docs/measurement.md most idle rounds read 3.59 GHz and a fifth to
 * a third of them 3.64-3.89 GHz: against the fastest round, or even the
 * upper decile, nearly every round was "disturbed" by a clock that had not
 * dropped. The throughput against the
 * upper decile: a shared core halves it, and the host may share it for
 * half a run or more, so the usual level is no reference; the decile still
 * ignores a few fast readings, and turbo moves it by under 8%, well inside
 * the 15% threshold. */
struct disturb_reference disturb_reference_of(const struct bench_result *results, size_t n, double free_core)
{
	struct disturb_reference ref = {
		.clock_hz = run_percentile(results, n, INTERFERENCE_CLOCK, 0, round_clock, 50),
		.measured = run_percentile(results, n, INTERFERENCE_THROUGHPUT, 0, round_throughput, 90),
		.woken = run_percentile(results, n, INTERFERENCE_THROUGHPUT, 1, round_throughput, 90),
	};
	/* The upper decile is of the run's own rounds: when the host shares
	 * the core from start to end it is the shared level, and no round
	 * falls below it (docs/measurement.md, "A run shared throughout").
	 * The clock chain is one dependent addition a cycle, which a sibling
	 * does not slow, so the clock times the free core's additions a cycle
	 * is what this core would do free. */
	if (ref.measured > 0 && free_core > 0)
		ref.floor = free_core * ref.clock_hz / 1e9;
	ref.throughput = ref.measured > ref.floor ? ref.measured : ref.floor;
	return ref;
}

/* Whether a woken core reads as the hot rounds do: against their decile
 * as measured, not as raised to the floor, which a run shared from start
 * to end (woken 52.6, hot 52.0, floor 63.7) would have failed, leaving its
 * ksmd results stable on a shared core. */
int disturb_reference_woken_judged(const struct disturb_reference *ref, const struct disturb_thresholds *t)
{
	return ref->woken > 0 && ref->measured > 0 && ref->woken >= (1 - t->throughput_drop) * ref->measured;
}

/* Only as far as a round would be marked: a quiet host of the kind a few
 * percent slower than the table's (18.0 is 3% under the measured 18.59)
 * is raised to the floor, but nothing of its run is shared, and saying
 * "shared the whole run" of it would be a false alarm on every run. */
int disturb_reference_shared_throughout(const struct disturb_reference *ref, const struct disturb_thresholds *t)
{
	return ref->floor > 0 && ref->measured < (1 - t->throughput_drop) * ref->floor;
}

/* The block reads what ran before it, not only a sibling: on the Zen 3 VM
 * (docs/measurement.md) it read 20% low for milliseconds after a long run of
 * one dependent crc32q chain (crc32c-sse42: 25-39 of 40 rounds "shared" on a
 * quiet machine, 0-11 for every other hash). Each result is judged against
 * the usual level of its own rounds; the floor keeps a result measured
 * wholly on a shared core from taking that as its usual (shared reads
 * 0.46-0.62 of a free core), and so does the free core's where it is
 * known (on Zen 5 every result's own reached it, crc32c-sse42's too).
 * Rounds go in turns, so the host's phases fall on every result alike and
 * the run's reference still bounds each. */
struct disturb_reference disturb_reference_for(const struct disturb_reference *run, const struct bench_result *r)
{
	struct disturb_reference ref = *run;

	if (run->throughput > 0) {
		int slept = r->repeats > 0 && asleep(&r->rounds[0]);
		double own = run_percentile(r, 1, INTERFERENCE_THROUGHPUT, slept, round_throughput, 90);
		double floor = DISTURB_OWN_FLOOR * run->throughput;
		if (floor < run->floor)
			floor = run->floor;
		ref.throughput = own > run->throughput ? run->throughput : own > floor ? own : floor;
	}
	return ref;
}
