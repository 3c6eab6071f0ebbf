/* A kernel sleep in time: jiffies and the timer wheel (see kernel_timer.h). */
#include "kernel_timer.h"

#include <math.h>
#include <time.h>

#include "kernel_release.h"

/* The timer wheel's levels (kernel/time/timer.c): LVL_CLK_SHIFT 3, 64
 * buckets a level; level n (n >= 1) takes timers due 63 << 3(n-1) jiffies
 * ahead or more, in buckets of 8^n jiffies. */
#define WHEEL_LEVEL_SHIFT 3u
#define WHEEL_LEVEL_FIRST 63u
#define WHEEL_DEPTH(hz) ((hz) > 100 ? 9u : 8u) /* LVL_DEPTH */

unsigned kernel_hz_running(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) != 0 || res.tv_sec != 0 || res.tv_nsec <= 0)
		return 0;
	double hz = 1e9 / (double)res.tv_nsec;
	if (!(hz >= KERNEL_HZ_MIN - 0.5 && hz <= KERNEL_HZ_MAX + 0.5))
		return 0;
	return (unsigned)lround(hz);
}

void ksmd_schedule_rules(struct ksmd_schedule *k, const struct kernel_release *r)
{
	k->wheel_rounds_up = !r || kernel_release_at_least(r, KERNEL_TIMER_WHEEL_ROUNDS_UP_SINCE);
	k->zero_sleep_skips = !r || kernel_release_at_least(r, KERNEL_KSMD_ZERO_SLEEP_SKIPS_SINCE);
}

struct ksmd_schedule ksmd_schedule_running(uint64_t pages_to_scan, unsigned sleep_ms)
{
	char buf[128];
	struct kernel_release r;
	unsigned hz = kernel_hz_running();
	struct ksmd_schedule k = { .pages_to_scan = pages_to_scan, .sleep_ms = sleep_ms,
				   .hz = hz ? hz : KERNEL_HZ_DEFAULT }; /* the rules below */

	ksmd_schedule_rules(&k, kernel_release_or_newest(kernel_release_running(buf, sizeof(buf)), &r));
	return k;
}

uint64_t kernel_msecs_to_jiffies(uint64_t ms, unsigned hz)
{
	return (ms * hz + 999) / 1000;
}

static uint64_t wheel_granularity(uint64_t delta, unsigned hz)
{
	uint64_t g = 1, start = WHEEL_LEVEL_FIRST;

	for (unsigned level = 1; level < WHEEL_DEPTH(hz) && delta >= start; level++, start <<= WHEEL_LEVEL_SHIFT)
		g <<= WHEEL_LEVEL_SHIFT;
	return g;
}

double ksmd_batch_period_ns(const struct ksmd_schedule *k, double work_ns)
{
	if (!(work_ns > 0))
		work_ns = 0;
	if (k->hz == 0)
		return work_ns + k->sleep_ms * 1e6;
	if (k->sleep_ms == 0 && k->zero_sleep_skips)
		return work_ns;
	double jiffy_ns = 1e9 / k->hz;
	uint64_t due = kernel_msecs_to_jiffies(k->sleep_ms, k->hz), worked = (uint64_t)(work_ns / jiffy_ns);
	uint64_t g = wheel_granularity(due, k->hz);
	/* A timer due in the jiffy it is armed in fires on the next tick. */
	uint64_t period = k->wheel_rounds_up ? ((worked + due) / g + 1) * g : worked + (due ? due : 1);
	return (double)period * jiffy_ns;
}

double ksmd_cpu_share(const struct ksmd_schedule *k, double page_ns, double fraction)
{
	double work_ns = (double)k->pages_to_scan * fraction * page_ns;
	double period_ns = ksmd_batch_period_ns(k, work_ns);

	return work_ns > 0 && period_ns > 0 ? work_ns / period_ns : 0;
}
