/* Reading ksmd's settings (see ksmd_settings.h). */
#include "ksmd_settings.h"

#include <limits.h>

#include "../bench/bench.h"
#include "../scan/ksm_sysfs.h"
#include "../scan/ksm_watch.h"

/* Any value the kernel takes (its settings are unsigned ints): 999999
 * pages is a setting, not an unreadable file. */
void ksmd_settings_read(struct ksmd_settings *k)
{
	static const char *const names[2] = { "pages_to_scan", "sleep_millisecs" };
	const char *dir = ksm_sysfs_dir();
	long long v[2];
	int got = 0;

	for (int i = 0; i < 2; i++) {
		v[i] = ksm_sysfs_number(dir, names[i]);
		got += v[i] >= (i ? 0 : 1) && v[i] <= UINT_MAX;
	}
	if (got == 2)
		*k = (struct ksmd_settings){ .pages_to_scan = (unsigned)v[0], .sleep_ms = (unsigned)v[1], .from = "sysfs",
					     .dir = dir };
	else
		*k = (struct ksmd_settings){ .pages_to_scan = BENCH_KSMD_PAGES_DEFAULT,
					     .sleep_ms = BENCH_KSMD_SLEEP_MS_DEFAULT, .from = "defaults" };
	k->off = ksm_sysfs_number(dir, "run") == 0;
}

void ksmd_settings_cycle(const struct ksmd_settings *k, struct bench_config *cfg)
{
	cfg->ksmd_pages = k->pages_to_scan < BENCH_KSMD_PAGES_MAX ? k->pages_to_scan : BENCH_KSMD_PAGES_MAX;
	cfg->ksmd_sleep_ms = k->sleep_ms < BENCH_KSMD_SLEEP_MS_MAX ? k->sleep_ms : BENCH_KSMD_SLEEP_MS_MAX;
}
