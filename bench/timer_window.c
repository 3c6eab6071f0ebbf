/* The window timer: calls counted until a CLOCK_MONOTONIC deadline, the
 * clock read once per batch (see timer.h). Nothing beyond the common
 * figures: the round's time per call, with and without its interrupted
 * batches. */
#include "timed_loop.h"
#include "timer.h"

static void window_round(struct bench_session *s, struct bench_round *r)
{
	struct loop_count lc;
	uint64_t t0 = clock_now_ns();

	loop_count_until(s->fn, s->set, &s->pos, t0, t0 + s->cfg->window_ns, s->batch, s->cfg->apart,
			 bench_session_log(s), &lc);
	bench_round_counted(s, &lc, r);
}

static double window_round_ns(const struct bench_session *s)
{
	return (double)s->cfg->window_ns;
}

const struct bench_timer_ops bench_timer_window = { .name = "window", .name_apart = "window apart",
						    .round_ns = window_round_ns, .round = window_round };
