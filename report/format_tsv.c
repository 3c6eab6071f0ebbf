/* The tsv format: the csv format's rows separated by tabs, for awk, cut,
 * column -t and spreadsheets; no quoting: a tab, line break or backslash in
 * a value is written \t, \n, \r or \\. */
#include "kinds.h"

static int tsv_render(FILE *out, const struct report_document *doc)
{
	return report_write_rows(out, doc, '\t');
}

const struct report_format report_format_tsv = {
	"tsv",
	{ [REPORT_BENCH] = tsv_render, [REPORT_THREAD] = tsv_render, [REPORT_SCAN] = tsv_render,
	  [REPORT_SELFCHECK] = tsv_render },
	REPORT_NO_WARNINGS | REPORT_ROWS_ONLY,
};
