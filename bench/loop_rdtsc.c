/* The per-call loop of the rdtsc timer (see timed_loop.h). */
#include "clock.h"
#include "timed_loop.h"

size_t loop_time_calls(hash_fn fn, const struct page_set *set, size_t *pos, uint64_t round_ticks,
		       uint32_t *ticks, size_t max_calls, uint64_t *sink)
{
	const unsigned char *const *order = set->order;
	size_t count = set->count, i = *pos, len = set->page_size, n = 0;
	uint64_t acc = 0, first = counter_start(), last = first;

	while (n < max_calls && last - first < round_ticks && !bench_stop_requested()) {
		uint64_t s = counter_start();
		acc ^= fn(order[i], len);
		last = counter_end();
		uint64_t d = last - s;
		ticks[n++] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
		if (++i == count)
			i = 0;
	}
	*pos = i;
	*sink ^= acc;
	return n;
}
