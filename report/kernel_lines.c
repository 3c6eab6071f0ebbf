/* dmesg-style lines, byte for byte as the v2 KSM patch printed them. */
#include "results.h"

int report_kernel_line(FILE *out, const char *name, long mb_per_s)
{
	return fprintf(out, "ksm: %-8s hash() %5ld MB/s\n", name, mb_per_s) < 0 ? -1 : 0;
}

int report_kernel(FILE *out, const struct bench_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (report_kernel_line(out, r[i].hash, report_kernel_mb_per_s(&r[i])))
			return -1;
	return ferror(out) ? -1 : 0;
}
