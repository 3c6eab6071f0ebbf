/* Format names, and the kernel's MB/s figure shared by several formats. */
#include <string.h>

#include "results.h"

int report_format_parse(const char *name, enum report_format *out, struct kb_err *err)
{
	static const char *const names[] = { "table", "kernel", "csv", "json", "gha", "markdown" };

	for (unsigned i = 0; i < 6; i++)
		if (strcmp(name, names[i]) == 0) {
			*out = (enum report_format)i;
			return 0;
		}
	return kb_fail(err, "unknown format '%s' (table, kernel, csv, json, gha or markdown)", name);
}

long report_kernel_mb_per_s(const struct bench_result *r)
{
	if (r->timer == BENCH_TIMER_JIFFIES)
		return r->kernel_mb_per_s_best;
	return (long)(r->bytes_per_second_best / (1 << 20));
}

const char *report_clock_name(const struct bench_result *r)
{
	return r->timer == BENCH_TIMER_RDTSC && r->counter_is_tsc ? "tsc" : "monotonic";
}

const char *report_stable_data(const char *data)
{
	if (strncmp(data, "file:", 5) == 0) {
		const char *slash = strrchr(data, '/');
		return slash ? slash + 1 : data + 5;
	}
	return data;
}
