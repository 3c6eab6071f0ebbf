/* The gha format: the JSON array github-action-benchmark's
 * customBiggerIsBetter tool reads, one object per result (bench_report.c). */
#include "kinds.h"

const struct report_format report_format_gha = {
	"gha",
	{ [REPORT_BENCH] = bench_report_gha, [REPORT_THREAD] = bench_report_gha, [REPORT_SELECT] = bench_report_gha },
	0,
};
