/* The window timer: calls counted until a CLOCK_MONOTONIC deadline, the
 * clock read once per batch (see timer.h). Nothing beyond the common
 * figures: the round's time per call. */
#include "timed_loop.h"
#include "timer.h"

static void window_round(struct bench_session *s, struct bench_round *r)
{
	struct loop_count lc;
	uint64_t t0 = clock_now_ns();

	loop_count_until(s->fn, s->set, &s->pos, t0, t0 + s->cfg->window_ns, s->batch, &lc);
	s->sink ^= lc.sink;
	r->calls = lc.calls;
	r->elapsed_ns = (double)(lc.end_ns - lc.start_ns);
	r->ns_per_page = r->elapsed_ns / (double)lc.calls;
}

const struct bench_timer_ops bench_timer_window = { .name = "window", .round = window_round };
