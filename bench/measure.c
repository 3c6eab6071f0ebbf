/* One measurement: warm-up, rounds with the chosen timer, statistics
 * (see bench.h). The loops themselves live in loop_count.c and loop_rdtsc.c. */
#include <stdlib.h>
#include <string.h>

#include "../hashes/cpu_features.h"
#include "bench.h"
#include "clock.h"
#include "jiffies.h"
#include "timed_loop.h"

/* Every result ends here, so no call can be dropped as dead code. */
volatile uint64_t bench_sink;

/* A clock read per this much hashing: its cost is ~0.1% of the time, and a
 * jiffies window overshoots its deadline by at most this. */
#define BATCH_TARGET_NS 20000.0

static const char *const timer_names[] = { "window", "jiffies", "rdtsc" };

const char *bench_timer_name(enum bench_timer t)
{
	return timer_names[t];
}

int bench_timer_parse(const char *name, enum bench_timer *out, struct kb_err *err)
{
	for (unsigned i = 0; i < 3; i++)
		if (strcmp(name, timer_names[i]) == 0) {
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

static double median_of(double *v, size_t n)
{
	stats_sort(v, n);
	return stats_percentile_sorted(v, n, 50);
}

struct round_buffers {
	double *ns;       /* per round: ns per page */
	double *kernel;   /* jiffies: the kernel's MB/s */
	double *bias;     /* jiffies: bias in percent */
	double *window;   /* jiffies: true window length */
	uint32_t *ticks;  /* rdtsc: every call of every round */
};

static void buffers_free(struct round_buffers *b)
{
	free(b->ns);
	free(b->kernel);
	free(b->bias);
	free(b->window);
	free(b->ticks);
}

static int run_jiffies_round(hash_fn fn, const struct page_set *set, size_t *pos, const struct bench_config *cfg,
			     uint64_t batch, uint64_t *phase_state, uint64_t *calls, uint64_t *elapsed_ns,
			     uint64_t *sink)
{
	struct loop_count lc;
	uint64_t t0 = clock_now_ns();
	unsigned long j0 = jiffies_from_ns(t0, cfg->hz);

	if (!cfg->align_tick) {
		/* A round ends on a tick edge, so the next would start just after
		 * one: a fresh phase per round, as a boot-time self-test sees it,
		 * comes from a pseudo-random delay of up to one jiffy (spent
		 * hashing, untimed). */
		struct loop_count skip;
		uint64_t jiffy_ns = 1000000000u / cfg->hz;
		*phase_state = *phase_state * 6364136223846793005ull + 1442695040888963407ull;
		loop_count_until(fn, set, pos, t0, t0 + (*phase_state >> 33) % jiffy_ns, 1, &skip);
		*sink ^= skip.sink;
		t0 = clock_now_ns();
		j0 = jiffies_from_ns(t0, cfg->hz);
	} else {
		/* raid6's way: wait for the next tick, so the window is whole. */
		unsigned long j;
		while ((j = jiffies_from_ns(t0 = clock_now_ns(), cfg->hz)) == j0)
			;
		j0 = j;
	}
	/* The patch: je = jiffies + (HZ >> 3); while (time_before(jiffies, je)) ... */
	unsigned long je = j0 + jiffies_window(cfg->hz);
	loop_count_until(fn, set, pos, t0, jiffies_start_ns(je, cfg->hz), batch, &lc);
	*calls = lc.calls;
	*elapsed_ns = lc.end_ns - lc.start_ns;
	*sink ^= lc.sink;
	return 0;
}

int bench_measure(const struct hash_impl *h, const struct page_set *set, const struct bench_config *cfg,
		  struct bench_result *out, struct kb_err *err)
{
	const struct hash_impl *impl = hash_resolve(h);
	const struct counter_info *ci = counter_info();
	struct round_buffers b = { 0 };
	uint64_t sink = 0, phase_state = 0x9e3779b97f4a7c15ull;
	size_t pos = 0, all_calls = 0;

	memset(out, 0, sizeof(*out));
	if (hash_check_len(h, set->page_size, err))
		return -1;
	if (cfg->repeat == 0 || cfg->repeat > BENCH_REPEAT_MAX)
		return kb_fail(err, "the number of rounds must be from 1 to %u", BENCH_REPEAT_MAX);
	if (cfg->timer == BENCH_TIMER_JIFFIES && !jiffies_hz_valid(cfg->hz))
		return kb_fail(err, "HZ %u is out of range (8 to 10000)", cfg->hz);
	b.ns = calloc(cfg->repeat, sizeof(double));
	b.kernel = calloc(cfg->repeat, sizeof(double));
	b.bias = calloc(cfg->repeat, sizeof(double));
	b.window = calloc(cfg->repeat, sizeof(double));
	if (cfg->timer == BENCH_TIMER_RDTSC)
		b.ticks = malloc((size_t)cfg->repeat * BENCH_RDTSC_CALLS_MAX * sizeof(uint32_t));
	if (!b.ns || !b.kernel || !b.bias || !b.window || (cfg->timer == BENCH_TIMER_RDTSC && !b.ticks)) {
		buffers_free(&b);
		return kb_fail(err, "out of memory for %u rounds", cfg->repeat);
	}

	out->hash = h->name;
	out->impl = impl->name;
	memcpy(out->data, set->data, sizeof(out->data));
	out->cache = set->cache;
	out->page_size = set->page_size;
	out->misalign = set->misalign;
	out->working_set_bytes = set->working_set_bytes;
	out->set_pages = set->count;
	out->timer = cfg->timer;
	out->repeats_requested = cfg->repeat;
	out->window_ns = cfg->window_ns;
	out->counter_is_tsc = ci->is_tsc;
	out->counter_hz = ci->hz;
	out->overhead_ticks = ci->overhead_ticks;

	/* The previous hash may have left dirty upper vector state behind. */
	if (cfg->clean_vector_state)
		cpu_vector_state_clean();

	/* Warm-up: caches, branch predictors, clock frequency; and the batch size. */
	struct loop_count warm;
	uint64_t t0 = clock_now_ns();
	loop_count_until(impl->fn, set, &pos, t0, t0 + (cfg->warmup_ns ? cfg->warmup_ns : 1), 1, &warm);
	sink ^= warm.sink;
	double est_ns = (double)(warm.end_ns - warm.start_ns) / (double)warm.calls;
	uint64_t batch = est_ns > 0 && est_ns < BATCH_TARGET_NS ? (uint64_t)(BATCH_TARGET_NS / est_ns) : 1;

	unsigned done = 0;
	for (unsigned r = 0; r < cfg->repeat && !bench_stop_signal; r++) {
		uint64_t calls = 0, elapsed_ns = 0;

		if (cfg->on_round)
			cfg->on_round(cfg->on_round_arg, h, r, cfg->repeat);

		if (cfg->timer == BENCH_TIMER_WINDOW) {
			struct loop_count lc;
			t0 = clock_now_ns();
			loop_count_until(impl->fn, set, &pos, t0, t0 + cfg->window_ns, batch, &lc);
			calls = lc.calls;
			elapsed_ns = lc.end_ns - lc.start_ns;
			sink ^= lc.sink;
			b.ns[r] = (double)elapsed_ns / (double)calls;
		} else if (cfg->timer == BENCH_TIMER_JIFFIES) {
			run_jiffies_round(impl->fn, set, &pos, cfg, batch, &phase_state, &calls, &elapsed_ns, &sink);
			b.ns[r] = (double)elapsed_ns / (double)calls;
			b.kernel[r] = (double)jiffies_kernel_mb_per_s(calls, set->page_size);
			b.bias[r] = jiffies_bias_percent(calls, set->page_size, elapsed_ns);
			b.window[r] = (double)elapsed_ns;
		} else {
			uint32_t *ticks = b.ticks + all_calls;
			uint64_t round_ticks = (uint64_t)((double)cfg->window_ns * ci->hz / 1e9);
			calls = loop_time_calls(impl->fn, set, &pos, round_ticks, ticks, BENCH_RDTSC_CALLS_MAX, &sink);
			double med = stats_percentile_u32(ticks, calls, 50) - ci->overhead_ticks;
			b.ns[r] = (med > 0 ? med : 0) * 1e9 / ci->hz;
			if (!bench_stop_signal)
				all_calls += calls;
		}
		/* A round a stop request cut short is not a round: dropped. */
		if (bench_stop_signal)
			break;
		out->calls += calls;
		done++;
	}
	if (cfg->clean_vector_state)
		cpu_vector_state_clean();
	bench_sink ^= sink;
	out->repeats = done;
	out->interrupted = done < cfg->repeat;
	if (done == 0) {
		buffers_free(&b);
		return 0;
	}
	memcpy(out->ns_per_page_rounds, b.ns, done * sizeof(b.ns[0]));

	if (stats_summarize(b.ns, done, &out->ns_per_page)) {
		buffers_free(&b);
		return kb_fail(err, "out of memory");
	}
	if (out->ns_per_page.best > 0) {
		out->bytes_per_second_best = set->page_size * 1e9 / out->ns_per_page.best;
		out->bytes_per_second_median = set->page_size * 1e9 / out->ns_per_page.median;
	}
	if (cfg->timer == BENCH_TIMER_JIFFIES) {
		out->hz = cfg->hz;
		out->window_jiffies = jiffies_window(cfg->hz);
		out->align_tick = cfg->align_tick;
		out->kernel_mb_per_s_median = (long)median_of(b.kernel, done);
		out->kernel_mb_per_s_best = (long)b.kernel[done - 1]; /* sorted by median_of */
		out->bias_percent_median = median_of(b.bias, done);
		out->window_ns_median = median_of(b.window, done);
	}
	if (cfg->timer == BENCH_TIMER_RDTSC) {
		double sum = 0;
		for (size_t i = 0; i < all_calls; i++)
			sum += b.ticks[i];
		double mean = sum / (double)all_calls - ci->overhead_ticks;
		out->ticks_per_call_mean = mean > 0 ? mean : 0;
		double p10 = stats_percentile_u32(b.ticks, all_calls, 10) - ci->overhead_ticks;
		double p50 = stats_percentile_u32(b.ticks, all_calls, 50) - ci->overhead_ticks;
		double p90 = stats_percentile_u32(b.ticks, all_calls, 90) - ci->overhead_ticks;
		out->ticks_per_call_p10 = p10 > 0 ? p10 : 0;
		out->ticks_per_call_median = p50 > 0 ? p50 : 0;
		out->ticks_per_call_p90 = p90 > 0 ? p90 : 0;
	}
	buffers_free(&b);
	return 0;
}
