/* How long a kernel sleep of S milliseconds takes, and so ksmd's period:
 * msecs_to_jiffies() rounds S up to whole jiffies, and the timer wheel
 * (kernel/time/timer.c, 4.8 and later) fires a timer at the first tick of
 * its level's granularity after the jiffy it is due, never at it. ksmd
 * sleeps so after each batch (wait_event_freezable_timeout), so at HZ=250
 * its default 20 ms is a batch every 24 ms (measured on 6.18:
 * docs/scan-model.md). Every figure that turns KSM's settings into time
 * uses it: scan's model, thread's share of a CPU, ksm's scan rate,
 * capture's automatic interval. */
#ifndef KB_KERNEL_TIMER_H
#define KB_KERNEL_TIMER_H

#include <stdint.h>

/* CONFIG_HZ's default, taken where the kernel's HZ is not known. */
#define KERNEL_HZ_DEFAULT 250u
#define KERNEL_HZ_MIN 24u /* the lowest CONFIG_HZ an architecture offers */
#define KERNEL_HZ_MAX 10000u
/* The release whose timer wheel began to round timers up (no cascading). */
#define KERNEL_TIMER_WHEEL_ROUNDS_UP_SINCE "4.8"
/* The release from which ksmd waits with wait_event_*_timeout(), which
 * does not sleep at all for a timeout of 0; schedule_timeout() before it
 * slept to the next tick. */
#define KERNEL_KSMD_ZERO_SLEEP_SKIPS_SINCE "5.0"

/* The running kernel's HZ: CLOCK_MONOTONIC_COARSE ticks once a jiffy, its
 * resolution is TICK_NSEC. 0 when that cannot be read or is out of range. */
unsigned kernel_hz_running(void);

/* msecs_to_jiffies(ms) at hz: rounded up. */
uint64_t kernel_msecs_to_jiffies(uint64_t ms, unsigned hz);

/* ksmd's schedule: pages_to_scan pages a batch, then sleep_ms. */
struct ksmd_schedule {
	uint64_t pages_to_scan; /* the kernel's is 32-bit; a test's sysfs may hold more */
	unsigned sleep_ms;
	unsigned hz;          /* 0: unknown, sleep_ms taken as it is */
	int wheel_rounds_up;  /* the kernel's timer wheel rounds up (4.8+) */
	int zero_sleep_skips; /* a sleep of 0 ms does not sleep (5.0+) */
};

struct kernel_release;

/* The two rules of release r (NULL: the newest) into k. */
void ksmd_schedule_rules(struct ksmd_schedule *k, const struct kernel_release *r);

/* The running kernel's schedule at these settings: its HZ (the default
 * where it cannot be read) and its rules by its release (the newest where
 * that does not parse). */
struct ksmd_schedule ksmd_schedule_running(uint64_t pages_to_scan, unsigned sleep_ms);

/* ns from the start of one batch to the next: the batch's work_ns from the
 * tick that woke ksmd, then the sleep, armed in the jiffy the work ended
 * in. The timer fires at the first tick of its wheel level's granularity
 * (1 jiffy below 63 jiffies, then 8, 64, 512 ...) after the jiffy it is
 * due, counted from a multiple of it (the tick the last one fired on);
 * without wheel_rounds_up (a cascading wheel, before 4.8) at the jiffy
 * due. The levels stop at the wheel's last (8 at HZ 100 or less, else 9):
 * a longer sleep is cut at its cutoff and slept again, modelled here as
 * rounded to the last level's granularity. For sleep_ms 0 the work alone
 * where zero_sleep_skips (ksmd does not sleep), else to the next tick. */
double ksmd_batch_period_ns(const struct ksmd_schedule *k, double work_ns);

/* The share of ksmd's time spent on pages_to_scan * fraction pages of
 * page_ns each a batch: work / period (1 with sleep_ms 0 since 5.0). */
double ksmd_cpu_share(const struct ksmd_schedule *k, double page_ns, double fraction);

#endif
