/* The per-call loop of the rdtsc timer (see timed_loop.h). */
#include "clock.h"
#include "timed_loop.h"

/* A read as the loop sees it: rounded down to a simulated step, if any. */
static inline uint64_t step_down(uint64_t ticks, uint64_t step)
{
	return step ? ticks - ticks % step : ticks;
}

size_t loop_time_calls(hash_fn fn, const struct page_set *set, size_t *pos, const struct loop_samples *ls,
		       uint32_t *ticks, uint64_t *sink)
{
	const unsigned char *const *order = set->order;
	size_t count = set->count, i = *pos, len = set->page_size, n = 0;
	uint64_t acc = 0, step = ls->simulated_step, batch = ls->batch ? ls->batch : 1;
	uint64_t first = counter_start(), last = first;

	while (n < ls->max_samples && last - first < ls->round_ticks && !bench_stop_requested()) {
		uint64_t s = step_down(counter_start(), step);
		acc ^= ls->apart && batch > 1 ? timed_calls_apart(fn, order, count, len, batch, &i)
					      : timed_calls(fn, order, count, len, batch, &i);
		last = counter_end();
		uint64_t d = step_down(last, step) - s;
		ticks[n++] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
	}
	*pos = i;
	*sink ^= acc;
	return n;
}
