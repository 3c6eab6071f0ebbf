/* The kinds of document: their names, their JSON schemas, and which rows
 * a CSV of them lists (see report.h). */
#include <string.h>

#include "kinds.h"
#include "result_fields.h"
#include "../scan/scan.h"
#include "thread.h"

static const struct {
	const char *name;
	const struct record_schema *schema;
} kinds[REPORT_KINDS] = {
	[REPORT_BENCH] = { "bench", &report_results_document_schema },
	[REPORT_THREAD] = { "thread", &thread_document_schema },
	[REPORT_SELECT] = { "select", &select_document_schema },
	[REPORT_SCAN] = { "scan", &scan_document_schema },
	[REPORT_COMPARE] = { "compare", &compare_document_schema },
	[REPORT_PLOT] = { "plot", NULL },
	[REPORT_LIST] = { "list", &list_document_schema },
	[REPORT_KSM] = { "ksm", &ksm_document_schema },
	[REPORT_SELFCHECK] = { "bench --selfcheck", NULL },
};

const char *report_kind_name(enum report_kind kind)
{
	return kinds[kind].name;
}

const struct record_schema *report_document_schema(enum report_kind kind)
{
	return kinds[kind].schema;
}

int report_document_rows(const struct report_document *doc, struct record_list *rows)
{
	memset(rows, 0, sizeof(*rows));
	rows->up.item = doc;
	switch (doc->kind) {
	case REPORT_BENCH:
	case REPORT_SELECT:
		rows->schema = &report_result_schema;
		rows->items = doc->results;
		rows->count = doc->nresults;
		rows->stride = sizeof(*doc->results);
		return 0;
	case REPORT_THREAD:
		rows->schema = &thread_row_schema;
		rows->items = doc->rows;
		rows->count = doc->nrows;
		rows->stride = sizeof(*doc->rows);
		return 0;
	case REPORT_SCAN:
		rows->schema = &scan_csv_schema;
		rows->items = doc->scan->hashes;
		rows->count = doc->scan->nhashes;
		rows->stride = sizeof(*doc->scan->hashes);
		return 0;
	default:
		return -1;
	}
}
