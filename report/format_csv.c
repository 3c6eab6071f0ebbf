/* The csv format: a header row of the JSON's field names, then one row per
 * result (per thread row, per scan hash, per hash self-checked), empty
 * where a field does not apply; RFC 4180 quoting. */
#include "kinds.h"

static int csv_render(FILE *out, const struct report_document *doc)
{
	return report_write_rows(out, doc, ',');
}

const struct report_format report_format_csv = {
	"csv",
	{ [REPORT_BENCH] = csv_render, [REPORT_THREAD] = csv_render, [REPORT_SCAN] = csv_render,
	  [REPORT_SELFCHECK] = csv_render },
	REPORT_NO_WARNINGS | REPORT_ROWS_ONLY,
};
