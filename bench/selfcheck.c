/* The harness checked against a minimal loop and against its other timer
 * (see selfcheck.h). */
#include "selfcheck.h"

#include <math.h>
#include <stdio.h>

#include "../hashes/cpu_features.h"
#include "clock.h"
#include "timed_loop.h"

/* The minimal loop: calls calls of fn on one page between two clock reads;
 * returns ns per call. */
static double selfcheck_minimal_loop(hash_fn fn, const unsigned char *page, size_t len, uint64_t calls)
{
	uint64_t sink = 0, t0 = clock_now_ns();

	for (uint64_t i = 0; i < calls; i++)
		sink ^= fn(page, len);
	uint64_t t1 = clock_now_ns();
	bench_sink ^= sink;
	return (double)(t1 - t0) / (double)calls;
}

int selfcheck_run(const struct hash_impl *h, const struct page_set *set, const struct bench_config *cfg,
		  struct selfcheck_row *row, struct kb_err *err)
{
	struct bench_config c = *cfg;
	struct bench_result window, rdtsc;

	row->hash = h->name;
	snprintf(row->data, sizeof(row->data), "%s", set->data);
	row->page_size = set->page_size;
	row->misalign = set->misalign;
	c.timer = BENCH_TIMER_WINDOW;
	if (bench_measure(h, set, &c, &window, err))
		return -1;
	c.timer = BENCH_TIMER_RDTSC;
	if (bench_measure(h, set, &c, &rdtsc, err)) {
		bench_result_release(&window);
		return -1;
	}
	bench_result_release(&window);
	bench_result_release(&rdtsc);
	if (window.repeats == 0 || rdtsc.repeats == 0) /* stopped: the caller abandons the check */
		return 0;

	/* The same number of calls per round as the harness made. */
	uint64_t calls = window.calls / window.repeats ? window.calls / window.repeats : 1;
	hash_fn fn = hash_resolve(h)->fn;
	cpu_vector_state_clean();
	selfcheck_minimal_loop(fn, set->order[0], set->page_size, calls / 4 + 1); /* warm-up */
	double best = INFINITY;
	for (unsigned r = 0; r < cfg->repeat; r++) {
		double ns = selfcheck_minimal_loop(fn, set->order[0], set->page_size, calls);
		if (ns < best)
			best = ns;
	}
	cpu_vector_state_clean();

	row->minimal_ns_per_page = best;
	row->harness_ns_per_page = window.ns_per_page.best;
	row->harness_diff_percent = (window.ns_per_page.best / best - 1) * 100;
	row->harness_ok = fabs(row->harness_diff_percent) <= SELFCHECK_HARNESS_TARGET_PERCENT;
	row->window_ns_per_page_median = window.ns_per_page.median;
	row->rdtsc_ns_per_page_median = rdtsc.ns_per_page.median;
	/* Like for like: a window's time includes every interruption of the
	 * rounds, and so does the mean call; the median call does not. */
	row->rdtsc_ns_per_page_mean = bench_ticks_ns(&rdtsc.counter, rdtsc.rdtsc.ticks_per_call_mean);
	row->rdtsc_diff_percent = (row->rdtsc_ns_per_page_mean / window.ns_per_page.median - 1) * 100;
	row->compute_bound =
		bench_bytes_per_s(set->page_size, window.ns_per_page.median) < SELFCHECK_COMPUTE_BOUND_BYTES_PER_S;
	row->rdtsc_ok = fabs(row->rdtsc_diff_percent) <= SELFCHECK_RDTSC_TARGET_PERCENT;
	return 0;
}

int selfcheck_row_passed(const struct selfcheck_row *row)
{
	return row->harness_ok && (!row->compute_bound || row->rdtsc_ok);
}

int selfcheck_all_passed(const struct selfcheck_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!selfcheck_row_passed(&rows[i]))
			return 0;
	return 1;
}
