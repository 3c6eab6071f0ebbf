/* Estimates from rounds (see estimate.h). */
#include "estimate.h"

#include <stdlib.h>
#include <string.h>

#include "interference.h"
#include "timed_loop.h"

/* pyperf warns at a standard deviation of 10% of the mean; here the
 * spread is the quartiles' (stats.h), as the headline is a median; 5 processes are
 * the fewest whose values a rank test can separate at the 5% level (2 /
 * C(10, 5) = 0.8%, while 4 give 2.9% only against 4 and 3 give 10%).
 * Disturbed rounds are left out of the estimate, so their share only says
 * when the clean rounds left are too few to stand for the machine: on this
 * 2-vCPU VM with the other vCPU idle, 45-90% of rounds still find the core
 * shared (the host's other hyperthread busy; docs/measurement.md), and a
 * share of 20% called every quiet run unstable. But the probe sees only a
 * round's edges: on the Zen 5 VM, in runs where the host's sibling was
 * busy in 64-80% of all rounds, the rounds it called free ran up to 8%
 * slower than in a quiet run (3-5% of rounds disturbed), and results with
 * half their rounds left out read up to 22% low. Rounds go in turns, so
 * the host's phases fall on every result alike: the run's share is the
 * better witness than any one result's. Half, not less: runs with 21-63%
 * of their rounds disturbed also came within 3% of quiet ones. */
const struct estimate_rules estimate_default = {
	.processes_min = 5,
	.spread_percent_max = 10,
	.disturbed_share_max = 0.75,
	.run_disturbed_share_max = 0.5,
	.timer_share_max = 0.01,
};

static int by_process(const void *x, const void *y)
{
	const struct bench_round *a = *(const struct bench_round *const *)x, *b = *(const struct bench_round *const *)y;

	if (a->process != b->process)
		return a->process < b->process ? -1 : 1;
	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return (a->sequence > b->sequence) - (a->sequence < b->sequence);
}

static double median_of(double *v, size_t n)
{
	stats_sort(v, n);
	return stats_percentile_sorted(v, n, 50);
}

/* Rounds, scratch and results of one estimate. */
struct work {
	const struct bench_round **order, **used;
	double *values, *tmp;
	size_t nused, nvalues;
};

static void work_free(struct work *w)
{
	free(w->order);
	free(w->used);
	free(w->values);
	free(w->tmp);
}

/* Each process's value: the median of its undisturbed rounds, or (all) of
 * all its rounds; the rounds used go to w->used. Returns the processes
 * with rounds used; *unresolved counts those whose median is 0 ns (rounds
 * shorter than the timer resolves), which have no rate. */
static unsigned per_process(struct bench_result *r, struct work *w, int all, unsigned *unresolved)
{
	size_t n = r->repeats;
	unsigned np = 0, with_rounds = 0;

	*unresolved = 0;

	w->nused = w->nvalues = 0;
	for (size_t g = 0; g < n;) {
		size_t e = g, k = 0;
		while (e < n && w->order[e]->process == w->order[g]->process)
			e++;
		struct bench_process_value *pv = &r->per_process[np++];
		pv->process = w->order[g]->process;
		pv->rounds = (unsigned)(e - g);
		pv->disturbed = 0;
		for (size_t i = g; i < e; i++) {
			if (w->order[i]->disturbed)
				pv->disturbed++;
			if (all || !w->order[i]->disturbed) {
				w->tmp[k++] = w->order[i]->ns_per_page;
				w->used[w->nused++] = w->order[i];
			}
		}
		pv->ns_per_page = k ? median_of(w->tmp, k) : 0;
		/* Judged as rates, as they are reported. */
		with_rounds += k > 0;
		if (k && pv->ns_per_page > 0)
			w->values[w->nvalues++] = 1e9 / pv->ns_per_page;
		else if (k)
			(*unresolved)++;
		g = e;
	}
	r->nprocesses = np;
	return with_rounds;
}

static void hardware_medians(struct bench_result *r, struct work *w)
{
	size_t k = 0, m = 0;

	for (size_t i = 0; i < w->nused; i++)
		if ((w->used[i]->known & INTERFERENCE_PMU) && w->used[i]->calls && w->used[i]->core_cycles > 0) {
			w->tmp[k++] = w->used[i]->core_cycles / (double)w->used[i]->calls;
		}
	r->core_cycles_per_page = k ? median_of(w->tmp, k) : 0;
	for (size_t i = 0; i < w->nused; i++)
		if ((w->used[i]->known & INTERFERENCE_PMU) && w->used[i]->core_cycles > 0)
			w->tmp[m++] = w->used[i]->instructions / w->used[i]->core_cycles;
	r->ipc = m ? median_of(w->tmp, m) : 0;
}

double estimate_timer_share(const struct bench_result *r)
{
	if (r->timer == BENCH_TIMER_RDTSC)
		return r->rdtsc.resolution_ticks > 0 && r->rdtsc.ticks_per_call_median > 0
			       ? r->rdtsc.resolution_ticks / r->rdtsc.ticks_per_call_median
			       : r->rdtsc.resolution_ticks > 0; /* every sample within one step */
	if (r->timer != BENCH_TIMER_KSMD || r->counter.step_ticks <= 0 || r->counter.hz <= 0)
		return 0;
	/* A cycle's first page is timed alone, the rest in up to KSMD_BATCHES
	 * batches: the step against the mean span. One page a cycle of a fast
	 * hash read 30, 40 and 50 ns, multiples of this VM's 10 ns step. */
	unsigned pages = r->ksmd.pages_to_scan, rest = pages ? pages - 1 : 0;
	unsigned spans = 1 + (rest < KSMD_BATCHES ? rest : KSMD_BATCHES);
	double span_ns = r->ns_per_page.median * pages / spans;
	return span_ns > 0 ? bench_ticks_ns(&r->counter, r->counter.step_ticks) / span_ns : 0;
}

static unsigned verdict(const struct bench_result *r, const struct estimate_rules *rules)
{
	unsigned bits = 0;

	if (r->processes_used < rules->processes_min)
		bits |= STABILITY_FEW_PROCESSES;
	if (r->over_processes.n >= 2 && r->over_processes.spread * 100 > rules->spread_percent_max)
		bits |= STABILITY_SPREAD;
	if ((double)r->rounds_disturbed > rules->disturbed_share_max * (double)r->repeats)
		bits |= STABILITY_DISTURBED;
	if (estimate_timer_share(r) > rules->timer_share_max)
		bits |= STABILITY_TIMER;
	return bits;
}

int estimate_result(struct bench_result *r, const struct estimate_rules *rules)
{
	size_t n = r->repeats;
	struct work w = { 0 };

	free(r->per_process);
	r->per_process = NULL;
	r->nprocesses = r->processes_used = r->rounds_disturbed = 0;
	memset(&r->over_processes, 0, sizeof(r->over_processes));
	if (n == 0)
		return 0;
	w.order = malloc(n * sizeof(*w.order));
	w.used = malloc(n * sizeof(*w.used));
	w.values = malloc(n * sizeof(double));
	w.tmp = malloc(n * sizeof(double));
	r->per_process = calloc(n, sizeof(*r->per_process));
	if (!w.order || !w.used || !w.values || !w.tmp || !r->per_process) {
		work_free(&w);
		return -1;
	}
	r->calls = 0;
	for (size_t i = 0; i < n; i++) {
		w.order[i] = &r->rounds[i];
		r->calls += r->rounds[i].calls;
		r->rounds_disturbed += r->rounds[i].disturbed != 0;
	}
	qsort(w.order, n, sizeof(*w.order), by_process);
	unsigned unresolved;
	r->processes_used = per_process(r, &w, 0, &unresolved);
	if (w.nused == 0) /* every round disturbed: the figures from all, and unstable */
		per_process(r, &w, 1, &unresolved);
	/* A process faster than its timer resolves has no rate, and the median
	 * of the others' would lean to the slow ones: the result has none (0
	 * ns, no rate), and its timer is too coarse. */
	if (unresolved)
		w.nvalues = 0;
	const struct bench_round *best = NULL;
	for (size_t i = 0; i < w.nused; i++) {
		w.tmp[i] = w.used[i]->ns_per_page;
		if (!best || w.used[i]->ns_per_page < best->ns_per_page)
			best = w.used[i];
	}
	r->uninterrupted_ns_best = best ? best->uninterrupted_ns_per_page : 0;
	memset(&r->over_processes, 0, sizeof(r->over_processes));
	if ((w.nvalues && stats_median_interval(w.values, w.nvalues, &r->over_processes)) ||
	    stats_summarize(w.tmp, w.nused, &r->ns_per_page)) {
		work_free(&w);
		return -1;
	}
	/* The rate and back lose an ulp now and then: kept within the rounds'
	 * range. */
	double median = w.nvalues ? 1e9 / r->over_processes.median : r->ns_per_page.median;
	r->ns_per_page.median = unresolved		       ? 0
				: median < r->ns_per_page.min ? r->ns_per_page.min
				: median > r->ns_per_page.max ? r->ns_per_page.max
							      : median;
	bench_timer_aggregate(r, w.used, w.nused);
	hardware_medians(r, &w);
	r->unstable = verdict(r, rules) | (unresolved ? STABILITY_TIMER : 0);
	work_free(&w);
	return 0;
}

int estimate_results_against(struct bench_result *results, size_t n, const struct disturb_reference *ref,
			     const struct disturb_thresholds *t, const struct estimate_rules *rules)
{
	int rc = 0;
	unsigned rounds = 0, disturbed = 0, outside = 0;

	for (size_t i = 0; i < n; i++) {
		struct disturb_reference own = disturb_reference_for(ref, &results[i]);
		for (unsigned j = 0; j < results[i].repeats; j++) {
			results[i].rounds[j].disturbed = disturb_round(&results[i].rounds[j], &own, t);
			outside += (unsigned)disturb_shared_from_outside(&results[i].rounds[j]);
		}
		rc |= estimate_result(&results[i], rules);
		rounds += results[i].repeats;
		disturbed += results[i].rounds_disturbed;
	}
	for (size_t i = 0; i < n; i++) {
		results[i].run_rounds = rounds;
		results[i].run_rounds_disturbed = disturbed;
		results[i].run_rounds_outside = outside;
		results[i].run_shared_throughout = disturb_reference_shared_throughout(ref, t);
		if ((double)disturbed > rules->run_disturbed_share_max * (double)rounds)
			results[i].unstable |= STABILITY_RUN_DISTURBED;
	}
	return rc;
}

int estimate_results(struct bench_result *results, size_t n, const struct disturb_thresholds *t,
		     const struct estimate_rules *rules)
{
	struct disturb_reference ref = disturb_reference_of(results, n, 0);

	return estimate_results_against(results, n, &ref, t, rules);
}

/* Rounds of b sorted by (process, round), to pair with a's. */
static const struct bench_round *find_pair(const struct bench_round *const *sorted, size_t n,
					   const struct bench_round *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bench_round *m = sorted[mid];
		int c = m->process != key->process ? (m->process < key->process ? -1 : 1)
			: m->round != key->round ? (m->round < key->round ? -1 : 1) : 0;
		if (c == 0)
			return m;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The pairs' ratios, process by process (a's rounds sorted): per-process
 * medians into values; only undisturbed pairs unless all. */
static size_t ratio_values(const struct bench_round *const *as, size_t na, const struct bench_round *const *bs,
			   size_t nb, int all, double *tmp, double *values)
{
	size_t nv = 0;

	for (size_t g = 0; g < na;) {
		size_t e = g, k = 0;
		while (e < na && as[e]->process == as[g]->process)
			e++;
		for (size_t i = g; i < e; i++) {
			const struct bench_round *b = find_pair(bs, nb, as[i]);
			if (b && as[i]->ns_per_page > 0 && (all || (!as[i]->disturbed && !b->disturbed)))
				tmp[k++] = b->ns_per_page / as[i]->ns_per_page;
		}
		if (k)
			values[nv++] = median_of(tmp, k);
		g = e;
	}
	return nv;
}

/* Processes with a clean pair below which every pair counts. The clean
 * pair of one process among disturbed ones was a draw of when the
 * disturbance paused (plain ksmbench's crc32c at 11.8x jhash2 that way,
 * 8.2-8.7x in every other run, Zen 3, 2026-12-01); the median of three
 * resists one such process. Disturbed pairs do not measure the ratio: a
 * sibling sharing the core takes more from vector code than from jhash2
 * (Zen 5, 2026-12-04, the host busy: three processes with clean pairs gave
 * crc32c-vpclmul 18.6-19.0x and xxh3 39.3-39.7x, a quiet run's 18.3x and
 * 40.0x; every pair, 13.2x and 26.9x). */
#define RATIO_CLEAN_PROCESSES_MIN 3

int estimate_ratio(const struct bench_result *a, const struct bench_result *b, struct stats_interval *out)
{
	size_t na = a->repeats, nb = b->repeats, nv = 0;
	const struct bench_round **as = malloc((na + 1) * sizeof(*as)), **bs = malloc((nb + 1) * sizeof(*bs));
	double *tmp = malloc((na + 1) * sizeof(double)), *values = malloc((na + 1) * sizeof(double));

	memset(out, 0, sizeof(*out));
	if (as && bs && tmp && values && na && nb) {
		for (size_t i = 0; i < na; i++)
			as[i] = &a->rounds[i];
		for (size_t i = 0; i < nb; i++)
			bs[i] = &b->rounds[i];
		qsort(as, na, sizeof(*as), by_process);
		qsort(bs, nb, sizeof(*bs), by_process);
		nv = ratio_values(as, na, bs, nb, 0, tmp, values);
		if (nv < RATIO_CLEAN_PROCESSES_MIN)
			nv = ratio_values(as, na, bs, nb, 1, tmp, values);
		if (nv && stats_median_interval(values, nv, out))
			nv = 0;
	}
	free(as);
	free(bs);
	free(tmp);
	free(values);
	return nv ? 0 : -1;
}

double estimate_clock_hz(const struct bench_result *r)
{
	double *v = malloc((r->repeats + 1) * sizeof(*v)), hz = 0;
	size_t k = 0;

	if (!v)
		return 0;
	for (unsigned i = 0; i < r->repeats; i++) {
		const struct bench_round *b = &r->rounds[i];
		if ((b->known & INTERFERENCE_CLOCK) && (!b->disturbed || r->processes_used == 0))
			v[k++] = b->clock_hz;
	}
	if (k)
		hz = median_of(v, k);
	free(v);
	return hz;
}

double estimate_half_width_percent(const struct stats_interval *iv)
{
	if (iv->n < 2 || iv->median <= 0)
		return -1;
	return (iv->high - iv->low) / 2 / iv->median * 100;
}
