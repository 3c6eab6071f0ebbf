/* The table format (the default): aligned columns with units in the
 * headers, a context line above, warnings and notes below. */
#include "kinds.h"

static int bench_table(FILE *out, const struct report_document *doc)
{
	return bench_report_text(out, doc, REPORT_PLAIN);
}

static int thread_table(FILE *out, const struct report_document *doc)
{
	return thread_report_text(out, doc, REPORT_PLAIN);
}

static int selfcheck_table(FILE *out, const struct report_document *doc)
{
	return selfcheck_report_text(out, doc, REPORT_PLAIN);
}

static int compare_table(FILE *out, const struct report_document *doc)
{
	return compare_report_text(out, doc, REPORT_PLAIN);
}

const struct report_format report_format_table = {
	"table",
	{
		[REPORT_BENCH] = bench_table,
		[REPORT_THREAD] = thread_table,
		[REPORT_SCAN] = scan_report_table,
		[REPORT_COMPARE] = compare_table,
		[REPORT_LIST] = list_report_table,
		[REPORT_KSM] = ksm_report_table,
		[REPORT_SELFCHECK] = selfcheck_table,
		[REPORT_CEILING] = ceiling_report_table,
	},
	0,
};
