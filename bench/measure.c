/* One measurement (see bench.h): checks, warm-up, the rounds of the chosen
 * timer (timer_*.c behind timer.h), statistics. The loops themselves live
 * in loop_count.c and loop_rdtsc.c. */
#include <stdlib.h>
#include <string.h>

#include "../hashes/cpu_features.h"
#include "timed_loop.h"
#include "timer.h"

/* Every result ends here, so no call can be dropped as dead code. */
volatile uint64_t bench_sink;

/* A clock read per this much hashing: its cost is ~0.1% of the time, and a
 * jiffies window overshoots its deadline by at most this. */
#define BATCH_TARGET_NS 20000.0

static const struct bench_timer_ops *const timers[BENCH_TIMERS] = {
	[BENCH_TIMER_WINDOW] = &bench_timer_window,
	[BENCH_TIMER_JIFFIES] = &bench_timer_jiffies,
	[BENCH_TIMER_RDTSC] = &bench_timer_rdtsc,
};

const char *bench_timer_name(enum bench_timer t)
{
	return timers[t]->name;
}

int bench_timer_parse(const char *name, enum bench_timer *out, struct kb_err *err)
{
	for (unsigned i = 0; i < BENCH_TIMERS; i++)
		if (strcmp(name, timers[i]->name) == 0) {
			*out = (enum bench_timer)i;
			return 0;
		}
	return kb_fail(err, "unknown timer '%s' (window, jiffies or rdtsc)", name);
}

void bench_config_default(struct bench_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->timer = BENCH_TIMER_WINDOW;
	cfg->window_ns = BENCH_WINDOW_NS_DEFAULT;
	cfg->warmup_ns = BENCH_WINDOW_NS_DEFAULT / 4;
	cfg->repeat = BENCH_REPEAT_DEFAULT;
	cfg->hz = BENCH_HZ_DEFAULT;
	cfg->clean_vector_state = 1;
}

double bench_median(double *v, size_t n)
{
	stats_sort(v, n);
	return stats_percentile_sorted(v, n, 50);
}

void bench_result_release(struct bench_result *r)
{
	free(r->rounds);
	r->rounds = NULL;
}

/* What the result says before anything is timed. */
static void result_begin(struct bench_result *out, const struct hash_impl *h, const struct page_set *set,
			 const struct bench_config *cfg, const struct counter_info *ci)
{
	memset(out, 0, sizeof(*out));
	out->hash = h->name;
	out->impl = hash_resolve(h)->name;
	memcpy(out->data, set->data, sizeof(out->data));
	out->cache = set->cache;
	out->page_size = set->page_size;
	out->misalign = set->misalign;
	out->working_set_bytes = set->working_set_bytes;
	out->set_pages = set->count;
	out->timer = cfg->timer;
	out->repeats_requested = cfg->repeat;
	out->window_ns = cfg->window_ns;
	out->counter.is_tsc = ci->is_tsc;
	out->counter.hz = ci->hz;
	out->counter.overhead_ticks = ci->overhead_ticks;
}

/* Warm-up: caches, branch predictors, clock frequency; and the batch size. */
static void warm_up(struct bench_session *s)
{
	struct loop_count warm;
	uint64_t t0 = clock_now_ns();

	loop_count_until(s->fn, s->set, &s->pos, t0, t0 + (s->cfg->warmup_ns ? s->cfg->warmup_ns : 1), 1, &warm);
	s->sink ^= warm.sink;
	double est_ns = (double)(warm.end_ns - warm.start_ns) / (double)warm.calls;
	s->batch = est_ns > 0 && est_ns < BATCH_TARGET_NS ? (uint64_t)(BATCH_TARGET_NS / est_ns) : 1;
}

/* The rounds until done or stopped; a round a stop request cut short is
 * not a round: dropped. Returns the rounds completed. */
static unsigned run_rounds(struct bench_session *s, const struct bench_timer_ops *t, const struct hash_impl *h,
			   struct bench_result *out)
{
	const struct bench_config *cfg = s->cfg;
	unsigned done = 0;

	for (unsigned r = 0; r < cfg->repeat && !bench_stop_requested(); r++) {
		if (cfg->on_round)
			cfg->on_round(cfg->on_round_arg, h, r, cfg->repeat);
		uint64_t calls = t->round(s, r);
		if (bench_stop_requested())
			break;
		out->calls += calls;
		done++;
	}
	return done;
}

/* The statistics of the rounds done, and the timer's own figures. */
static int result_finish(struct bench_result *out, struct bench_session *s, const struct bench_timer_ops *t,
			 unsigned done, struct kb_err *err)
{
	out->repeats = done;
	out->interrupted = done < s->cfg->repeat;
	if (done == 0)
		return 0;
	out->rounds = calloc(done, sizeof(*out->rounds));
	if (!out->rounds || stats_summarize(s->ns_per_page, done, &out->ns_per_page)) {
		bench_result_release(out);
		return kb_fail(err, "out of memory");
	}
	for (unsigned r = 0; r < done; r++)
		out->rounds[r].ns_per_page = s->ns_per_page[r];
	if (t->finish)
		t->finish(s, done, out);
	return 0;
}

int bench_measure(const struct hash_impl *h, const struct page_set *set, const struct bench_config *cfg,
		  struct bench_result *out, struct kb_err *err)
{
	const struct bench_timer_ops *t = cfg->timer < BENCH_TIMERS ? timers[cfg->timer] : NULL;
	struct bench_session s = { .fn = hash_resolve(h)->fn, .set = set, .cfg = cfg, .counter = counter_info() };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!t)
		return kb_fail(err, "unknown timer %d", (int)cfg->timer);
	if (hash_check_len(h, set->page_size, err))
		return -1;
	if (cfg->repeat == 0 || cfg->repeat > BENCH_REPEAT_MAX)
		return kb_fail(err, "the number of rounds must be from 1 to %u", BENCH_REPEAT_MAX);
	s.ns_per_page = calloc(cfg->repeat, sizeof(double));
	if (!s.ns_per_page)
		kb_fail(err, "out of memory for %u rounds", cfg->repeat);
	else if (!t->begin || t->begin(&s, err) == 0) {
		result_begin(out, h, set, cfg, s.counter);
		/* The previous hash may have left dirty upper vector state behind. */
		if (cfg->clean_vector_state)
			cpu_vector_state_clean();
		warm_up(&s);
		unsigned done = run_rounds(&s, t, h, out);
		if (cfg->clean_vector_state)
			cpu_vector_state_clean();
		bench_sink ^= s.sink;
		rc = result_finish(out, &s, t, done, err);
	}
	if (t->end)
		t->end(&s);
	free(s.ns_per_page);
	return rc;
}
