/* The counting loop shared by the window and jiffies timers (see timed_loop.h). */
#include "clock.h"
#include "timed_loop.h"

void loop_count_until(hash_fn fn, const struct page_set *set, size_t *pos, uint64_t start_ns,
		      uint64_t deadline_ns, uint64_t batch, int apart, struct batch_log *log, struct loop_count *out)
{
	const unsigned char *const *order = set->order;
	size_t count = set->count, i = *pos, len = set->page_size;
	uint64_t calls = 0, sink = 0, now, last = start_ns;

	if (log)
		log->n = 0;
	do {
		sink ^= apart ? timed_calls_apart(fn, order, count, len, batch, &i)
			      : timed_calls(fn, order, count, len, batch, &i);
		calls += batch;
		now = clock_now_ns();
		if (log)
			batch_log_add(log, now - last);
		last = now;
	} while (now < deadline_ns && !bench_stop_requested());
	*pos = i;
	out->calls = calls;
	out->start_ns = start_ns;
	out->end_ns = now;
	out->sink = sink;
}
