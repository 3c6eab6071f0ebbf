/* The kinds of document: their names, their JSON schemas, and the rows a
 * CSV of them lists, each from the kind's own module (see report.h). */
#include "kinds.h"
#include "result_fields.h"

static const struct {
	const char *name;
	const struct record_schema *schema;
	int (*rows)(const struct report_document *doc, struct record_list *rows);
} kinds[REPORT_KINDS] = {
	[REPORT_BENCH] = { "bench", &report_results_document_schema, bench_report_rows },
	[REPORT_THREAD] = { "thread", &thread_document_schema, thread_report_rows },
	[REPORT_SELECT] = { "select", &select_document_schema, bench_report_rows },
	[REPORT_SCAN] = { "scan", &scan_document_schema, scan_report_rows },
	[REPORT_COMPARE] = { "compare", &compare_document_schema, NULL },
	[REPORT_PLOT] = { "plot", NULL, NULL },
	[REPORT_LIST] = { "list", &list_document_schema, NULL },
	[REPORT_KSM] = { "ksm", &ksm_document_schema, NULL },
	[REPORT_SELFCHECK] = { "bench --selfcheck", &selfcheck_document_schema, selfcheck_report_rows },
	[REPORT_CEILING] = { "ceiling", &ceiling_document_schema, NULL },
};

const char *report_kind_name(enum report_kind kind)
{
	return kinds[kind].name;
}

const struct record_schema *report_document_schema(enum report_kind kind)
{
	return kinds[kind].schema;
}

static int report_document_rows(const struct report_document *doc, struct record_list *rows)
{
	return kinds[doc->kind].rows ? kinds[doc->kind].rows(doc, rows) : -1;
}

int report_write_rows(FILE *out, const struct report_document *doc, char sep)
{
	struct record_list rows;

	return report_document_rows(doc, &rows) ? -1 : record_write_delimited(out, &rows, sep);
}
