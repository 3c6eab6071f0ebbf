/* The timed loops, in their own translation units so the compiler cannot see
 * the hash behind the function pointer: every call happens, its result is
 * folded into a sink the caller publishes. */
#ifndef KB_TIMED_LOOP_H
#define KB_TIMED_LOOP_H

#include <stddef.h>
#include <stdint.h>

#include "../datasets/page_set.h"
#include "../hashes/hash.h"
#include "batch_log.h"
#include "fence.h"
#include "stop.h"

/* Where every timed result ends (measure.c), so that no call can be
 * dropped as dead code. */
extern volatile uint64_t bench_sink;

/* batch calls of fn on the set's pages from order[*i] on, their results
 * xor-ed. A set of one page (every hot set but a file's) is called with the
 * page's address in a register, in a loop of nothing but the call, as
 * `bench --selfcheck`'s minimal loop does: with the address and the loop's
 * bounds loaded from memory around each call, the fastest hashes read
 * slower than that loop on Zen 5, by several per cent and once by a third,
 * for no cause in the loop's few instructions (docs/measurement.md). */
static inline uint64_t timed_calls(hash_fn fn, const unsigned char *const *order, size_t count, size_t len,
				   uint64_t batch, size_t *i)
{
	uint64_t sink = 0;

	if (count == 1) {
		const unsigned char *page = order[0];
		for (uint64_t b = 0; b < batch; b++)
			sink ^= fn(page, len);
		return sink;
	}
	size_t k = *i;
	for (uint64_t b = 0; b < batch; b++) {
		sink ^= fn(order[k], len);
		if (++k == count)
			k = 0;
	}
	*i = k;
	return sink;
}

/* timed_calls with a fence after each call (bench/fence.h): a loop of its
 * own, so that the loop back to back stays as it is. One page's address
 * stays in a register here too: loaded after the fence, it would delay
 * the next call's first load by the load's latency, which the empty calls
 * that measure the fence do not wait for. */
static inline uint64_t timed_calls_apart(hash_fn fn, const unsigned char *const *order, size_t count, size_t len,
					 uint64_t batch, size_t *i)
{
	uint64_t sink = 0;

	if (count == 1) {
		const unsigned char *page = order[0];
		for (uint64_t b = 0; b < batch; b++) {
			sink ^= fn(page, len);
			bench_call_fence();
		}
		return sink;
	}
	size_t k = *i;
	for (uint64_t b = 0; b < batch; b++) {
		sink ^= fn(order[k], len);
		bench_call_fence();
		if (++k == count)
			k = 0;
	}
	*i = k;
	return sink;
}

/* A round that counts calls until a CLOCK_MONOTONIC deadline. The clock is
 * read once per batch of calls, not per call, so its cost stays out of the
 * rate (batch: calls per clock read). pos: where in the set's order to
 * continue. log (or NULL): each batch's time, from start_ns on, is logged
 * there (emptied first). apart: a fence after each call. */
struct loop_count {
	uint64_t calls;
	uint64_t start_ns, end_ns; /* first and last clock read */
	uint64_t sink;
};

void loop_count_until(hash_fn fn, const struct page_set *set, size_t *pos, uint64_t start_ns,
		      uint64_t deadline_ns, uint64_t batch, int apart, struct batch_log *log, struct loop_count *out);
/* A stop request also ends the round (after the current batch). */

/* How a round of timed samples is taken: a sample is batch calls between
 * two counter reads (1: every call timed alone), until round_ticks have
 * passed or max_samples were taken. simulated_step rounds every read down
 * to its multiples (0: none): how the batched fallback is tested. apart: a
 * fence after each call of a batch (a call timed alone has the counter's
 * reads for fences). */
struct loop_samples {
	uint64_t round_ticks, batch, simulated_step;
	size_t max_samples;
	int apart;
};

/* The samples' raw tick counts (overhead included) go to ticks[]; returns
 * how many were taken. A stop request ends the round too. */
size_t loop_time_calls(hash_fn fn, const struct page_set *set, size_t *pos, const struct loop_samples *ls,
		       uint32_t *ticks, uint64_t *sink);

/* One ksmd cycle: pages calls on the next pages of the set's order, the
 * first timed alone and the rest in up to KSMD_BATCHES batches (raw ticks,
 * overhead included). An interrupt or a host exit costs 10-70 us in a VM,
 * as much as a whole cycle of a fast hash: timed in batches, the batch it
 * fell in can be left out of the cycle's figure (ksmd_cycle_ticks_per_page,
 * timer.h), at the cost of a counter read between batches. apart: a fence
 * after each call of the batches (the first has the reads). */
#define KSMD_BATCHES 4
struct ksmd_cycle_ticks {
	uint64_t first;
	uint64_t batch[KSMD_BATCHES];
	unsigned batch_pages[KSMD_BATCHES];
	unsigned batches;
};

void loop_ksmd_cycle(hash_fn fn, const struct page_set *set, size_t *pos, unsigned pages, int apart,
		     struct ksmd_cycle_ticks *out, uint64_t *sink);

#endif
