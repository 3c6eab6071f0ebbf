/* Reading ksmd's settings (see ksmd_settings.h). */
#include "ksmd_settings.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "../bench/bench.h"
#include "../scan/ksm_sysfs.h"
#include "../scan/ksm_watch.h"

static const char *const names[2] = { "pages_to_scan", "sleep_millisecs" };

/* Any value the kernel takes (its settings are unsigned ints): 999999
 * pages is a setting, not an unreadable file. pages_to_scan 0 (ksmd
 * scans nothing) has no duty cycle: the defaults stand in for it. */
static void settings_from(const char *dir, const long long v[2], struct ksmd_settings *k)
{
	int got = 0;

	for (int i = 0; i < 2; i++)
		got += v[i] >= (i ? 0 : 1) && v[i] <= UINT_MAX;
	if (got == 2)
		*k = (struct ksmd_settings){ .pages_to_scan = (unsigned)v[0], .sleep_ms = (unsigned)v[1], .from = "sysfs",
					     .dir = dir };
	else
		*k = (struct ksmd_settings){ .pages_to_scan = BENCH_KSMD_PAGES_DEFAULT,
					     .sleep_ms = BENCH_KSMD_SLEEP_MS_DEFAULT, .from = "defaults" };
	k->off = ksm_sysfs_number(dir, "run") == 0;
}

void ksmd_settings_read(struct ksmd_settings *k)
{
	const char *dir = ksm_sysfs_dir();
	long long v[2];

	for (int i = 0; i < 2; i++)
		v[i] = ksm_sysfs_number(dir, names[i]);
	settings_from(dir, v, k);
}

int ksmd_settings_read_checked(struct ksmd_settings *k, struct kb_err *err)
{
	const char *dir = ksm_sysfs_dir();
	char path[4096], named[KSM_DIR_NAMED_SIZE];
	long long v[2];

	for (int i = 0; i < 2; i++) {
		v[i] = ksm_sysfs_number(dir, names[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		/* Absent (no KSM in this kernel): the defaults, as ksmd_settings_read. */
		if (v[i] == KSM_SYSFS_MISSING && access(path, F_OK) != 0 && errno == ENOENT)
			continue;
		if (v[i] == KSM_SYSFS_MISSING || v[i] < 0 || v[i] > UINT_MAX)
			return kb_fail(err, "%s in %s does not hold a whole number from 0 to %u, as the kernel writes it",
				       names[i], ksm_sysfs_dir_named(dir, named), UINT_MAX);
	}
	settings_from(dir, v, k);
	return 0;
}

void ksmd_settings_cycle(const struct ksmd_settings *k, struct bench_config *cfg)
{
	cfg->ksmd_pages = k->pages_to_scan < BENCH_KSMD_PAGES_MAX ? k->pages_to_scan : BENCH_KSMD_PAGES_MAX;
	cfg->ksmd_sleep_ms = k->sleep_ms < BENCH_KSMD_SLEEP_MS_MAX ? k->sleep_ms : BENCH_KSMD_SLEEP_MS_MAX;
}
