/* The ksmd timer's cycle (see timed_loop.h): the pages ksmd would hash
 * before it sleeps again, the first page timed apart and the rest in a few
 * batches. */
#include "cache_flush.h"
#include "clock.h"
#include "timed_loop.h"

/* The translations of the n pages from i in the set's order, which a
 * cycle may wrap more than once (a set smaller than the cycle): each page
 * once at most. */
static void warm_translations(const struct page_set *set, size_t i, unsigned n)
{
	size_t left = n < set->count ? n : set->count;

	while (left > 0) {
		size_t run = set->count - i < left ? set->count - i : left;
		cache_warm_translations(set->order + i, run);
		left -= run;
		i = 0;
	}
}

void loop_ksmd_cycle(hash_fn fn, const struct page_set *set, size_t *pos, unsigned pages, int apart,
		     struct ksmd_cycle_ticks *out, uint64_t *sink)
{
	const unsigned char *const *order = set->order;
	size_t count = set->count, i = *pos, len = set->page_size;
	unsigned rest = pages > 0 ? pages - 1 : 0, nb = rest < KSMD_BATCHES ? rest : KSMD_BATCHES;
	uint64_t acc = 0;

	/* The batches' sizes before the clock starts: nothing but calls and
	 * counter reads between the reads. */
	out->batches = nb;
	for (unsigned b = 0; b < nb; b++)
		out->batch_pages[b] = rest / nb + (b < rest % nb);
	uint64_t t0 = counter_start();
	acc ^= fn(order[i], len);
	uint64_t t1 = counter_end(), t = t1;
	if (++i == count)
		i = 0;
	/* ksmd reads a page through the kernel's direct map, whose few large
	 * pages keep their translations cached; here each cold page's
	 * translation would be a page walk, in a VM a nested one (about 350 ns
	 * of a 700 ns page on the Zen 5 VM, docs/measurement.md). The first
	 * page pays it as part of waking up; the others' are loaded untimed. */
	if (set->flushed && rest > 0) {
		warm_translations(set, i, rest);
		t = counter_start();
	}
	for (unsigned b = 0; b < nb; b++) {
		for (unsigned p = 0; p < out->batch_pages[b]; p++) {
			acc ^= fn(order[i], len);
			if (apart)
				bench_call_fence();
			if (++i == count)
				i = 0;
		}
		uint64_t u = counter_end();
		out->batch[b] = u - t;
		t = u;
	}
	out->first = t1 - t0;
	*pos = i;
	*sink ^= acc;
}
