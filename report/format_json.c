/* The json format: each kind's document as its schema describes it
 * (schema string, context, records; null where a field does not apply). */
#include "kinds.h"
#include "record_json.h"

static int json_render(FILE *out, const struct report_document *doc)
{
	struct record_row top = { doc, NULL, 0 };

	return record_json_print(out, record_json(report_document_schema(doc->kind), &top));
}

const struct report_format report_format_json = {
	"json",
	{
		[REPORT_BENCH] = json_render,
		[REPORT_THREAD] = json_render,
		[REPORT_SELECT] = json_render,
		[REPORT_SCAN] = json_render,
		[REPORT_COMPARE] = json_render,
		[REPORT_LIST] = json_render,
		[REPORT_KSM] = json_render,
		[REPORT_SELFCHECK] = json_render,
		[REPORT_CEILING] = json_render,
	},
	0,
};
