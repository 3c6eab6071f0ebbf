/* The document of ksmbench bench --selfcheck: one row per hash, each with
 * its two comparisons, their targets and whether they were met; fields
 * for JSON and CSV, columns for the text and Markdown table. */
#include <string.h>

#include "../bench/selfcheck.h"
#include "context_text.h"
#include "escape.h"
#include "record_table.h"
#include "result_fields.h"

#define DOC(row) ((const struct report_document *)(row)->item)
#define ROW(row) ((const struct selfcheck_row *)(row)->item)

/* Rows: compute-bound or not; the rdtsc target applies to the first only. */
enum { COMPUTE_BOUND = 1 };

static unsigned check_class(const struct record_row *w)
{
	return ROW(w)->compute_bound ? COMPUTE_BOUND : 0;
}

RECORD_GETTER(c_hash, record_str(v, ROW(w)->hash))
RECORD_GETTER(c_data, record_str(v, ROW(w)->data))
RECORD_GETTER(c_page, record_uint(v, ROW(w)->page_size))
RECORD_GETTER(c_misalign, record_uint(v, ROW(w)->misalign))
RECORD_GETTER(c_minimal, record_real(v, ROW(w)->minimal_ns_per_page))
RECORD_GETTER(c_harness, record_real(v, ROW(w)->harness_ns_per_page))
RECORD_GETTER(c_harness_diff, record_real(v, ROW(w)->harness_diff_percent))
RECORD_GETTER(c_harness_target, record_real(v, SELFCHECK_HARNESS_TARGET_PERCENT))
RECORD_GETTER(c_harness_ok, record_bool(v, ROW(w)->harness_ok))
RECORD_GETTER(c_window, record_real(v, ROW(w)->window_ns_per_page_median))
/* The rate compute_bound was decided by. */
RECORD_GETTER(c_window_rate, record_real(v, bench_bytes_per_s(ROW(w)->page_size,
							       ROW(w)->window_ns_per_page_median)))
RECORD_GETTER(c_bound_below, record_real(v, SELFCHECK_COMPUTE_BOUND_BYTES_PER_S))
RECORD_GETTER(c_bound, record_bool(v, ROW(w)->compute_bound))
RECORD_GETTER(c_rdtsc_mean, record_real(v, ROW(w)->rdtsc_ns_per_page_mean))
RECORD_GETTER(c_rdtsc_median, record_real(v, ROW(w)->rdtsc_ns_per_page_median))
RECORD_GETTER(c_rdtsc_diff, record_real(v, ROW(w)->rdtsc_diff_percent))
RECORD_GETTER(c_rdtsc_target, record_real(v, SELFCHECK_RDTSC_TARGET_PERCENT))
RECORD_GETTER(c_rdtsc_ok, record_bool(v, ROW(w)->rdtsc_ok))
RECORD_GETTER(c_passed, record_bool(v, selfcheck_row_passed(ROW(w))))

/* Every field is a CSV column: a row is flat. rdtsc_within_target is said
 * for every hash (the table shows it), rdtsc_target_percent only where it
 * counts, so that null says "no target". */
static const struct record_field check_fields[] = {
	{ .name = "hash", .type = RECORD_STR, .flags = RECORD_CSV, .get = c_hash },
	{ .name = "data", .type = RECORD_STR, .flags = RECORD_CSV, .get = c_data },
	{ .name = "page_size_bytes", .type = RECORD_UINT, .flags = RECORD_CSV, .get = c_page },
	{ .name = "misalign_bytes", .type = RECORD_UINT, .flags = RECORD_CSV, .get = c_misalign },
	{ .name = "minimal_ns_per_page", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_minimal },
	{ .name = "harness_ns_per_page", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_harness },
	{ .name = "harness_diff_percent", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_harness_diff },
	{ .name = "harness_target_percent", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_harness_target },
	{ .name = "harness_within_target", .type = RECORD_BOOL, .flags = RECORD_CSV, .get = c_harness_ok },
	{ .name = "window_ns_per_page_median", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_window },
	{ .name = "window_bytes_per_second_median", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_window_rate },
	{ .name = "compute_bound_below_bytes_per_second", .type = RECORD_REAL, .flags = RECORD_CSV,
	  .get = c_bound_below },
	{ .name = "compute_bound", .type = RECORD_BOOL, .flags = RECORD_CSV, .get = c_bound },
	{ .name = "rdtsc_ns_per_page_mean", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_rdtsc_mean },
	{ .name = "rdtsc_ns_per_page_median", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_rdtsc_median },
	{ .name = "rdtsc_diff_percent", .type = RECORD_REAL, .flags = RECORD_CSV, .get = c_rdtsc_diff },
	{ .name = "rdtsc_target_percent", .type = RECORD_REAL, .applies = COMPUTE_BOUND, .flags = RECORD_CSV,
	  .get = c_rdtsc_target },
	{ .name = "rdtsc_within_target", .type = RECORD_BOOL, .flags = RECORD_CSV, .get = c_rdtsc_ok },
	{ .name = "passed", .type = RECORD_BOOL, .flags = RECORD_CSV, .get = c_passed },
};

static const struct record_schema selfcheck_row_schema = { NULL, RECORD_FIELDS(check_fields), check_class, 0 };

static int all_bound(const struct report_document *doc)
{
	for (size_t i = 0; i < doc->nchecks; i++)
		if (!doc->checks[i].compute_bound)
			return 0;
	return 1;
}

static size_t n_checks(const struct record_row *w)
{
	return DOC(w)->nchecks;
}

RECORD_GETTER(d_schema, record_str(v, "ksmbench-selfcheck/1"))
RECORD_GETTER(d_context, record_item(v, DOC(w)->ctx))
RECORD_GETTER(d_passed, record_bool(v, selfcheck_all_passed(DOC(w)->checks, DOC(w)->nchecks)))
RECORD_GETTER(d_check, record_item(v, &DOC(w)->checks[w->index]))

/* passed is the exit status's answer: false when any row missed a target. */
static const struct record_field document_fields[] = {
	{ .name = "schema", .type = RECORD_STR, .get = d_schema },
	{ .name = "context", .type = RECORD_OBJECT, .get = d_context, .sub = &report_context_schema },
	{ .name = "passed", .type = RECORD_BOOL, .get = d_passed },
	{ .name = "checks", .type = RECORD_OBJECT, .get = d_check, .count = n_checks, .sub = &selfcheck_row_schema },
};

const struct record_schema selfcheck_document_schema = { NULL, RECORD_FIELDS(document_fields), NULL, 0 };

int selfcheck_report_rows(const struct report_document *doc, struct record_list *rows)
{
	*rows = (struct record_list){ &selfcheck_row_schema, doc->checks, doc->nchecks, sizeof(*doc->checks),
				      { .item = doc } };
	return 0;
}

static int harness_verdict(const struct record_row *w, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ROW(w)->harness_ok ? "yes" : "NO");
	return 1;
}

/* "*": not compute-bound, so no target (said under the table), which in
 * the cell made the table 120 columns wide. */
static int rdtsc_verdict(const struct record_row *w, char *buf, size_t size)
{
	const struct selfcheck_row *x = ROW(w);

	if (!x->compute_bound)
		snprintf(buf, size, "%s", x->rdtsc_ok ? "yes*" : "no*");
	else
		snprintf(buf, size, "%s", x->rdtsc_ok ? "yes" : "NO");
	return 1;
}

/* The headers name the targets as the fields hold them ("within 3%"). */
#define PCT_(x) #x "%"
#define PCT(x) PCT_(x)

static const struct record_column columns[] = {
	{ .header = "HASH", .align = 'l', .field = "hash" },
	{ .header = "minimal", .align = 'r', .field = "minimal_ns_per_page" },
	{ .header = "harness", .align = 'r', .field = "harness_ns_per_page" },
	{ .header = "diff %", .align = 'r', .field = "harness_diff_percent", .format = "%+.2f" },
	{ .header = "within " PCT(SELFCHECK_HARNESS_TARGET_PERCENT), .align = 'l', .cell = harness_verdict },
	{ .header = "window", .align = 'r', .field = "window_ns_per_page_median" },
	{ .header = "rdtsc mean", .align = 'r', .field = "rdtsc_ns_per_page_mean" },
	{ .header = "diff %", .align = 'r', .field = "rdtsc_diff_percent", .format = "%+.2f" },
	{ .header = "within " PCT(SELFCHECK_RDTSC_TARGET_PERCENT), .align = 'l', .cell = rdtsc_verdict },
	{ .header = "rdtsc median", .align = 'r', .field = "rdtsc_ns_per_page_median" },
};

/* Under the table, one paragraph each; plain text keeps these line breaks
 * (under 100 columns), Markdown makes each a list item. */
static const char *const notes[] = {
	"ns/page. harness: the window timer's best round; minimal: a bare loop around the same\n"
	"calls; window: its median round.",
	"rdtsc mean: the mean call, timer overhead subtracted, interruptions included as in a\n"
	"window's wall time (compared with the window's median round); rdtsc median leaves\n"
	"them out, so the gap between the two is time lost to interrupts and preemption.",
};

static int note(FILE *out, const char *text, enum report_style style)
{
	char line[512];

	if (style == REPORT_PLAIN)
		return fprintf(out, "%s\n", text) < 0 ? -1 : 0;
	/* One line per item; its own "*" is markup to Markdown. */
	snprintf(line, sizeof(line), "%s", text);
	for (char *p = line; (p = strchr(p, '\n')) != NULL; p++)
		*p = ' ';
	return fputs("- ", out) == EOF || escape_put(out, line, ESCAPE_MARKDOWN) || fputc('\n', out) == EOF ? -1 : 0;
}

static int notes_text(FILE *out, const struct report_document *doc, enum report_style style)
{
	char star[256];
	int rc = fputc('\n', out) == EOF ? -1 : 0;

	for (size_t i = 0; rc == 0 && i < sizeof(notes) / sizeof(notes[0]); i++)
		rc = note(out, notes[i], style);
	snprintf(star, sizeof(star), "*: not compute-bound (over %.0f GB/s, where call overhead and rdtsc's\n"
		 "serialisation are a visible share of a call): no target.", SELFCHECK_COMPUTE_BOUND_BYTES_PER_S / 1e9);
	return rc == 0 && !all_bound(doc) ? note(out, star, style) : rc;
}

int selfcheck_report_text(FILE *out, const struct report_document *doc, enum report_style style)
{
	struct record_list rows;

	selfcheck_report_rows(doc, &rows);
	struct table *t = record_table(RECORD_COLUMNS(columns), &rows);
	int rc = t ? report_table_in_context(out, doc->ctx, t, style, 0, report_columns(doc)) : -1;

	table_free(t);
	if (rc == 0)
		rc = notes_text(out, doc, style);
	return rc ? rc : report_table_notes(out, doc->ctx, style, report_columns(doc));
}
