/* The select document: the results, and the choice the v2 patch would
 * make (the highest count; the first of equals). */
#include "kinds.h"
#include "result_fields.h"

#define DOC(row) ((const struct report_document *)(row)->item)

/* The patch kept the first of equals: a strictly higher count wins. */
static const struct bench_result *chosen(const struct report_document *doc)
{
	const struct bench_result *best = doc->nresults ? &doc->results[0] : NULL;

	for (size_t i = 1; i < doc->nresults; i++)
		if (doc->results[i].jiffies.kernel_mb_per_s_best > best->jiffies.kernel_mb_per_s_best)
			best = &doc->results[i];
	return best;
}

RECORD_GETTER(s_selection, record_item(v, chosen(DOC(w)) ? DOC(w) : NULL))
RECORD_GETTER(s_method, record_str(v, "v2 patch: zero page, HZ>>3 jiffies, highest count"))
RECORD_GETTER(s_choice, record_str(v, chosen(DOC(w))->hash))
RECORD_GETTER(s_kernel, record_int(v, chosen(DOC(w))->jiffies.kernel_mb_per_s_best))

static const struct record_field selection_fields[] = {
	{ .name = "method", .type = RECORD_STR, .get = s_method },
	{ .name = "choice", .type = RECORD_STR, .get = s_choice },
	{ .name = "kernel_mb_per_s", .type = RECORD_INT, .get = s_kernel },
};

static const struct record_schema selection_schema = { NULL, RECORD_FIELDS(selection_fields), NULL, 0 };

/* The results document with a "selection" object (null when the run was
 * interrupted before the first hash). */
static const struct record_field document_fields[] = {
	{ .name = "selection", .type = RECORD_OBJECT, .get = s_selection, .sub = &selection_schema },
};

const struct record_schema select_document_schema = {
	&report_results_document_schema, RECORD_FIELDS(document_fields), NULL, 0,
};

int select_report_markdown(FILE *out, const struct report_document *doc)
{
	if (!chosen(doc))
		return 0;
	if (bench_report_text(out, doc, REPORT_MARKDOWN))
		return -1;
	return fprintf(out, "\nChoice (v2 patch: highest count): **%s**\n", chosen(doc)->hash) < 0 ? -1 : 0;
}

int select_report_kernel(FILE *out, const struct report_document *doc)
{
	if (!chosen(doc))
		return 0;
	if (bench_report_kernel(out, doc))
		return -1;
	return fprintf(out, "ksm: choise %s as hash function\n", chosen(doc)->hash) < 0 ? -1 : 0;
}
