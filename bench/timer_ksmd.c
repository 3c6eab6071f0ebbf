/* The ksmd timer: ksmd's duty cycle instead of a hot loop. A cycle sleeps
 * sleep_millisecs, then hashes pages_to_scan pages of the (cold) set, as
 * ksmd's scan does between its sleeps; the sleep lets caches, the branch
 * predictors, the vector units and the core clock go cold as they do for
 * ksmd. A round is as many cycles as fit its window (at least one); its
 * figure is the median over cycles of a cycle's time per page (less the
 * batches an interrupt fell in: timed_loop.h), and the
 * first page after each sleep is kept apart (see timer.h). A set made cold
 * by flushing (page_set.h) has the coming cycle's pages flushed from the
 * caches before the sleep, outside the timed part, and all but the first
 * one's translations loaded after the first (loop_ksmd.c). */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "cache_flush.h"
#include "clock.h"
#include "timed_loop.h"
#include "timer.h"

static int ksmd_begin(struct bench_session *s, struct kb_err *err)
{
	const struct bench_config *c = s->cfg;

	if (c->ksmd_pages == 0 || c->ksmd_pages > BENCH_KSMD_PAGES_MAX)
		return kb_fail(err, "pages to scan must be from 1 to %u", BENCH_KSMD_PAGES_MAX);
	if (c->ksmd_sleep_ms > BENCH_KSMD_SLEEP_MS_MAX)
		return kb_fail(err, "the sleep must be at most %u ms", BENCH_KSMD_SLEEP_MS_MAX);
	return 0;
}

/* Sleeps ms (resumed after a signal unless a stop was asked); the time
 * actually asleep, in ns. */
static double ksmd_sleep(unsigned ms)
{
	struct timespec left = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	uint64_t t0 = clock_now_ns();

	while (nanosleep(&left, &left) == -1 && errno == EINTR && !bench_stop_requested())
		;
	return (double)(clock_now_ns() - t0);
}

/* The pages the next cycle visits, out of every cache: before the sleep,
 * so that the write-backs are over when it wakes. */
static void flush_cycle(const struct page_set *set, size_t pos, unsigned pages)
{
	for (unsigned p = 0; p < pages; p++) {
		cache_flush(set->order[pos], set->page_size);
		if (++pos == set->count)
			pos = 0;
	}
}

static double less_overhead(const struct bench_session *s, uint64_t ticks, unsigned calls)
{
	double v = (double)ticks - s->counter->overhead_ticks;
	return v > 0 ? v / calls : 0;
}

static unsigned cycles_per_round(const struct bench_session *s)
{
	double cycle_ns = s->cfg->ksmd_sleep_ms * 1e6 + s->cfg->ksmd_pages * (s->call_ns > 0 ? s->call_ns : 1000);
	double n = (double)s->cfg->window_ns / cycle_ns;

	return n < 1 ? 1 : n > BENCH_KSMD_CYCLES_MAX ? BENCH_KSMD_CYCLES_MAX : (unsigned)n;
}

double ksmd_cycle_ticks_per_page(const struct ksmd_cycle_ticks *t, double overhead, double fence,
				 unsigned *left_out)
{
	double per[KSMD_BATCHES], ticks = 0, m = 0;
	unsigned nb = t->batches < KSMD_BATCHES ? t->batches : KSMD_BATCHES, pages = 0, fenced = 0;

	for (unsigned b = 0; b < nb; b++)
		per[b] = t->batch_pages[b] ? (double)t->batch[b] / t->batch_pages[b] : 0;
	if (nb > 0) {
		double sorted[KSMD_BATCHES];
		memcpy(sorted, per, nb * sizeof(per[0]));
		m = bench_median(sorted, nb);
	}
	if (nb > 0 && (double)t->first > KSMD_FIRST_INTERRUPTED_FACTOR * m) {
		*left_out += 1;
	} else {
		ticks += (double)t->first;
		pages++;
	}
	for (unsigned b = 0; b < nb; b++) {
		if (per[b] > BATCH_INTERRUPTED_FACTOR * m) {
			*left_out += t->batch_pages[b];
			continue;
		}
		ticks += (double)t->batch[b];
		pages += t->batch_pages[b];
		fenced += t->batch_pages[b];
	}
	ticks -= overhead + fence * fenced;
	return ticks > 0 && pages > 0 ? ticks / pages : 0;
}

static void ksmd_round(struct bench_session *s, struct bench_round *r)
{
	static double per_page[BENCH_KSMD_CYCLES_MAX], first[BENCH_KSMD_CYCLES_MAX];
	unsigned want = cycles_per_round(s), pages = s->cfg->ksmd_pages, n = 0;
	double all = 0, sum = 0, fence = s->cfg->apart ? s->fence_ns * s->counter->hz / 1e9 : 0;
	uint64_t t0 = clock_now_ns();

	/* As many cycles as fit the window, by the clock too: a sleep of 0 ms
	 * is still a system call (some 70 us in a VM), which the estimate
	 * leaves out, and 4096 cycles of it took 0.3 s of a 5 ms window. */
	while (n < want && !bench_stop_requested() && (n == 0 || clock_now_ns() - t0 < s->cfg->window_ns)) {
		struct ksmd_cycle_ticks t;
		if (s->set->flushed)
			flush_cycle(s->set, s->pos, pages);
		r->slept_ns += ksmd_sleep(s->cfg->ksmd_sleep_ms);
		if (bench_stop_requested())
			break;
		loop_ksmd_cycle(s->fn, s->set, &s->pos, pages, s->cfg->apart, &t, &s->sink);
		per_page[n] = ksmd_cycle_ticks_per_page(&t, s->counter->overhead_ticks, fence, &r->interrupted_pages);
		first[n] = less_overhead(s, t.first, 1);
		all += (double)t.first;
		for (unsigned b = 0; b < t.batches; b++)
			all += (double)t.batch[b];
		sum += per_page[n++];
	}
	if (n == 0)
		return;
	r->calls = (uint64_t)n * pages;
	r->batch = pages;
	r->fence_ns = s->cfg->apart ? s->fence_ns : 0;
	r->elapsed_ns = all * 1e9 / s->counter->hz;
	r->ticks_mean = sum / n;
	r->first_ticks = bench_median(first, n);
	r->ticks_median = bench_median(per_page, n); /* sorts per_page */
	r->ticks_p10 = per_page[(size_t)((n - 1) * 0.1 + 0.5)];
	r->ticks_p90 = per_page[(size_t)((n - 1) * 0.9 + 0.5)];
	r->ns_per_page = r->ticks_median * 1e9 / s->counter->hz;
}

static void ksmd_aggregate(struct bench_result *out, const struct bench_round *const *used, size_t n)
{
	struct bench_ksmd_part *k = &out->ksmd;

	k->first_page_ticks = bench_rounds_median(used, n, offsetof(struct bench_round, first_ticks));
	k->ticks_per_page_p10 = bench_rounds_median(used, n, offsetof(struct bench_round, ticks_p10));
	k->ticks_per_page_median = bench_rounds_median(used, n, offsetof(struct bench_round, ticks_median));
	k->ticks_per_page_p90 = bench_rounds_median(used, n, offsetof(struct bench_round, ticks_p90));
}

const struct bench_timer_ops bench_timer_ksmd = {
	.name = "ksmd", .name_apart = "ksmd apart", .begin = ksmd_begin, .round = ksmd_round,
	.aggregate = ksmd_aggregate,
};
