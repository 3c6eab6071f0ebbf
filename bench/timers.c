/* The timers (timer.h): the table of them, their names, the settings a
 * measurement is checked against, and what every timer shares once its
 * rounds are in: the medians of rounds, process by process, and a timer's
 * part of a result. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cache_flush.h"
#include "fence.h"
#include "timer.h"

static const struct bench_timer_ops *const timers[BENCH_TIMERS] = {
	[BENCH_TIMER_WINDOW] = &bench_timer_window,
	[BENCH_TIMER_JIFFIES] = &bench_timer_jiffies,
	[BENCH_TIMER_RDTSC] = &bench_timer_rdtsc,
	[BENCH_TIMER_KSMD] = &bench_timer_ksmd,
};

const struct bench_timer_ops *bench_timer_ops_of(enum bench_timer t)
{
	return timers[t];
}

const char *bench_timer_name(enum bench_timer t)
{
	return timers[t]->name;
}

const char *bench_timer_label(enum bench_timer t, int apart)
{
	return apart && timers[t]->name_apart ? timers[t]->name_apart : timers[t]->name;
}

int bench_timer_parse(const char *name, enum bench_timer *out, struct kb_err *err)
{
	for (unsigned i = 0; i < BENCH_TIMERS; i++)
		if (strcmp(name, timers[i]->name) == 0) {
			*out = (enum bench_timer)i;
			return 0;
		}
	return kb_fail(err, "unknown timer '%s' (window, jiffies, rdtsc or ksmd)", name);
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
	cfg->ksmd_pages = BENCH_KSMD_PAGES_DEFAULT;
	cfg->ksmd_sleep_ms = BENCH_KSMD_SLEEP_MS_DEFAULT;
}

int bench_config_check(const struct bench_config *cfg, struct kb_err *err)
{
	if (cfg->timer >= BENCH_TIMERS)
		return kb_fail(err, "unknown timer %d", (int)cfg->timer);
	if (cfg->repeat == 0 || cfg->repeat > BENCH_REPEAT_MAX)
		return kb_fail(err, "the number of rounds must be from 1 to %u", BENCH_REPEAT_MAX);
	/* jiffies: the kernel self-test's loop, as it ran. */
	if (cfg->apart && !timers[cfg->timer]->name_apart)
		return kb_fail(err, "calls apart: the %s timer calls back to back", timers[cfg->timer]->name);
	if (cfg->apart && !bench_fence_available())
		return kb_fail(err, "calls apart need a fence this machine lacks (x86 with SSE2, or arm64)");
	return 0;
}

int bench_apart_by_default(enum bench_timer t)
{
	return t == BENCH_TIMER_KSMD && bench_fence_available();
}

int bench_timer_flushes(const struct bench_config *cfg)
{
	return cfg->timer == BENCH_TIMER_KSMD && cache_flush_available();
}

double bench_rounds_median(const struct bench_round *const *used, size_t n, size_t offset)
{
	double *v = malloc(2 * n * sizeof(double)), m;
	size_t np = 0;

	if (!v)
		return 0;
	/* As the headline is taken: each process's median, then their median.
	 * Taken alike, a per-round p10 <= median <= p90 holds for the result
	 * too; pooled, the rounds of one process could outweigh the others. */
	double *proc = v + n;
	for (size_t g = 0; g < n;) {
		size_t e = g;
		while (e < n && used[e]->process == used[g]->process)
			e++;
		for (size_t i = g; i < e; i++)
			memcpy(&v[i - g], (const char *)used[i] + offset, sizeof(double));
		proc[np++] = bench_median(v, e - g);
		g = e;
	}
	m = np ? bench_median(proc, np) : 0;
	free(v);
	return m;
}

double bench_median(double *v, size_t n)
{
	stats_sort(v, n);
	return stats_percentile_sorted(v, n, 50);
}

void bench_timer_aggregate(struct bench_result *r, const struct bench_round *const *used, size_t n)
{
	const struct bench_timer_ops *t = r->timer < BENCH_TIMERS ? timers[r->timer] : NULL;

	if (n)
		r->fence_ns = bench_rounds_median(used, n, offsetof(struct bench_round, fence_ns));
	if (t && t->aggregate && n)
		t->aggregate(r, used, n);
}
