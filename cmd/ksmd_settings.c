/* Reading ksmd's settings (see ksmd_settings.h). */
#include "ksmd_settings.h"

#include <stdio.h>
#include <stdlib.h>

#include "../bench/bench.h"

void ksmd_settings_read(struct ksmd_settings *k)
{
	static const char *const names[2] = { "pages_to_scan", "sleep_millisecs" };
	const unsigned long max[2] = { BENCH_KSMD_PAGES_MAX, BENCH_KSMD_SLEEP_MS_MAX };
	const char *dir = getenv("KSMBENCH_KSM_DIR");
	unsigned long v[2] = { 0, 0 };
	char path[512];
	int got = 0;

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : "/sys/kernel/mm/ksm", names[i]);
		FILE *f = fopen(path, "r");
		got += f && fscanf(f, "%lu", &v[i]) == 1 && v[i] <= max[i] && (i || v[i] > 0);
		if (f)
			fclose(f);
	}
	if (got == 2)
		*k = (struct ksmd_settings){ (unsigned)v[0], (unsigned)v[1], 1 };
	else
		*k = (struct ksmd_settings){ BENCH_KSMD_PAGES_DEFAULT, BENCH_KSMD_SLEEP_MS_DEFAULT, 0 };
}
