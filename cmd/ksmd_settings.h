/* ksmd's duty cycle as this system has it set: pages_to_scan and
 * sleep_millisecs from /sys/kernel/mm/ksm (KSMBENCH_KSM_DIR in tests),
 * else the kernel's defaults (ksmd_settings.c). Used by thread (its ksmd
 * style and the verdict's price) and bench --ksmd. */
#ifndef KB_KSMD_SETTINGS_H
#define KB_KSMD_SETTINGS_H

#include "../common/err.h"

struct ksmd_settings {
	unsigned pages_to_scan, sleep_ms;
	const char *from; /* "sysfs" or "defaults": where those not given come from */
	const char *dir;  /* with "sysfs": the directory they were read from */
	int off;          /* KSM's run reads 0: ksmd scans nothing at these settings now */
	unsigned given;   /* KSMD_GIVEN_* (report/thread.h): the settings a command's options set */
};

void ksmd_settings_read(struct ksmd_settings *k);

/* The same, but a file that is there and holds no whole number from 0 to
 * UINT_MAX (junk, a negative or a huge number) is an error naming it, not
 * taken as absent: for capture --interval auto, whose interval these
 * settings decide. */
int ksmd_settings_read_checked(struct ksmd_settings *k, struct kb_err *err);

struct bench_config;

/* The ksmd timer's duty cycle from k, within what the timer runs (at most
 * BENCH_KSMD_PAGES_MAX pages and BENCH_KSMD_SLEEP_MS_MAX ms a cycle: the
 * time per page is the same at more, the cost share is k's own). */
void ksmd_settings_cycle(const struct ksmd_settings *k, struct bench_config *cfg);

#endif
