/* The kernel format: dmesg-style lines, byte for byte as the v2 KSM patch
 * printed them ("ksm: %-8s hash() %5ld MB/s"). */
#include "kinds.h"

const struct report_format report_format_kernel = {
	"kernel",
	{
		[REPORT_BENCH] = bench_report_kernel,
		[REPORT_THREAD] = thread_report_kernel,
		[REPORT_SELECT] = select_report_kernel,
	},
	REPORT_NO_WARNINGS,
};
