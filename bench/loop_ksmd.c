/* The ksmd timer's cycle (see timed_loop.h): the pages ksmd would hash
 * before it sleeps again, timed as one sample with the first page apart. */
#include "clock.h"
#include "timed_loop.h"

void loop_ksmd_cycle(hash_fn fn, const struct page_set *set, size_t *pos, unsigned pages, uint64_t *first_ticks,
		     uint64_t *all_ticks, uint64_t *sink)
{
	const unsigned char *const *order = set->order;
	size_t count = set->count, i = *pos, len = set->page_size;
	uint64_t acc = 0;

	uint64_t t0 = counter_start();
	acc ^= fn(order[i], len);
	uint64_t t1 = counter_end();
	if (++i == count)
		i = 0;
	for (unsigned p = 1; p < pages; p++) {
		acc ^= fn(order[i], len);
		if (++i == count)
			i = 0;
	}
	uint64_t t2 = counter_end();
	*first_ticks = t1 - t0;
	*all_ticks = t2 - t0;
	*pos = i;
	*sink ^= acc;
}
