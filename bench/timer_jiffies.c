/* The jiffies timer: the v2 KSM patch's self-test, HZ>>3 emulated jiffies
 * per round, its MB/s figure and that figure's bias (see timer.h). */
#include <stdlib.h>

#include "jiffies.h"
#include "timed_loop.h"
#include "timer.h"

struct jiffies_state {
	uint64_t phase;  /* PRNG state of the start delay (not aligned to a tick) */
	double *kernel;  /* per round: the kernel's MB/s */
	double *bias;    /* per round: its bias in percent */
	double *window;  /* per round: the window's true length, ns */
};

static int jiffies_begin(struct bench_session *s, struct kb_err *err)
{
	unsigned n = s->cfg->repeat;
	struct jiffies_state *j;

	if (!jiffies_hz_valid(s->cfg->hz))
		return kb_fail(err, "HZ %u is out of range (8 to 10000)", s->cfg->hz);
	j = calloc(1, sizeof(*j));
	if (j) {
		j->phase = 0x9e3779b97f4a7c15ull;
		j->kernel = calloc(n, sizeof(double));
		j->bias = calloc(n, sizeof(double));
		j->window = calloc(n, sizeof(double));
	}
	s->timer = j;
	if (!j || !j->kernel || !j->bias || !j->window)
		return kb_fail(err, "out of memory for %u rounds", n);
	return 0;
}

/* Where the round's window starts: anywhere in a tick, as a boot-time
 * self-test sees it (a round ends on a tick edge, so the next would start
 * just after one: a pseudo-random delay of up to one jiffy, spent hashing,
 * untimed); or on a tick edge, raid6's way, so the window is whole. */
static uint64_t window_start(struct bench_session *s, struct jiffies_state *j, unsigned long *j0)
{
	unsigned hz = s->cfg->hz;
	uint64_t t0 = clock_now_ns();

	*j0 = jiffies_from_ns(t0, hz);
	if (!s->cfg->align_tick) {
		struct loop_count skip;
		uint64_t jiffy_ns = 1000000000u / hz;
		j->phase = j->phase * 6364136223846793005ull + 1442695040888963407ull;
		loop_count_until(s->fn, s->set, &s->pos, t0, t0 + (j->phase >> 33) % jiffy_ns, 1, &skip);
		s->sink ^= skip.sink;
		t0 = clock_now_ns();
		*j0 = jiffies_from_ns(t0, hz);
	} else {
		unsigned long next;
		while ((next = jiffies_from_ns(t0 = clock_now_ns(), hz)) == *j0)
			;
		*j0 = next;
	}
	return t0;
}

static uint64_t jiffies_round(struct bench_session *s, unsigned r)
{
	struct jiffies_state *j = s->timer;
	unsigned hz = s->cfg->hz;
	struct loop_count lc;
	unsigned long j0;
	uint64_t t0 = window_start(s, j, &j0);

	/* The patch: je = jiffies + (HZ >> 3); while (time_before(jiffies, je)) ... */
	unsigned long je = j0 + jiffies_window(hz);
	loop_count_until(s->fn, s->set, &s->pos, t0, jiffies_start_ns(je, hz), s->batch, &lc);
	s->sink ^= lc.sink;
	uint64_t elapsed_ns = lc.end_ns - lc.start_ns;
	uint32_t ps = s->set->page_size;
	s->ns_per_page[r] = (double)elapsed_ns / (double)lc.calls;
	j->kernel[r] = (double)jiffies_kernel_mb_per_s(lc.calls, ps);
	j->bias[r] = jiffies_bias_percent(lc.calls, ps, elapsed_ns);
	j->window[r] = (double)elapsed_ns;
	return lc.calls;
}

static void jiffies_finish(struct bench_session *s, unsigned rounds, struct bench_result *out)
{
	struct jiffies_state *j = s->timer;
	struct bench_jiffies_part *p = &out->jiffies;

	p->hz = s->cfg->hz;
	p->window_jiffies = jiffies_window(s->cfg->hz);
	p->align_tick = s->cfg->align_tick;
	p->kernel_mb_per_s_median = (long)bench_median(j->kernel, rounds);
	p->kernel_mb_per_s_best = (long)j->kernel[rounds - 1]; /* sorted by bench_median */
	p->bias_percent_median = bench_median(j->bias, rounds);
	p->window_ns_median = bench_median(j->window, rounds);
}

static void jiffies_end(struct bench_session *s)
{
	struct jiffies_state *j = s->timer;

	if (j) {
		free(j->kernel);
		free(j->bias);
		free(j->window);
	}
	free(j);
}

const struct bench_timer_ops bench_timer_jiffies = {
	"jiffies", jiffies_begin, jiffies_round, jiffies_finish, jiffies_end,
};
