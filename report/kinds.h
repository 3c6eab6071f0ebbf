/* What each kind of document exports to the formats (one module per kind:
 * bench_report.c, thread.c, select_report.c, scan_report.c,
 * compare_report.c, list_report.c, ksm_report.c, selfcheck_report.c,
 * ceiling_report.c, svg_chart.c). The format files (format_*.c) put these
 * into their registry entries. */
#ifndef KB_KINDS_H
#define KB_KINDS_H

#include "report.h"

/* Text: plain aligned columns, or GitHub-flavoured Markdown. */
enum report_style { REPORT_PLAIN, REPORT_MARKDOWN };

/* The rows of a document's CSV (report_document_rows dispatches here). */
int bench_report_rows(const struct report_document *doc, struct record_list *rows);
int thread_report_rows(const struct report_document *doc, struct record_list *rows);
int scan_report_rows(const struct report_document *doc, struct record_list *rows);
int selfcheck_report_rows(const struct report_document *doc, struct record_list *rows);

int bench_report_text(FILE *out, const struct report_document *doc, enum report_style style);
int bench_report_kernel(FILE *out, const struct report_document *doc);
/* The name a kernel line gives a result: the hash asked for, or, for an
 * alias the kernel does not have (crc32c, xxh3), the implementation that
 * ran, which is this program's pick and not the kernel's code. */
const char *report_kernel_name(const struct bench_result *r);
/* "ksm: %-8s hash() %5ld MB/s", as the v2 patch printed it. */
int report_kernel_line(FILE *out, const char *name, long mb_per_s);

extern const struct record_schema thread_document_schema, thread_row_schema;
int thread_report_text(FILE *out, const struct report_document *doc, enum report_style style);
int thread_report_kernel(FILE *out, const struct report_document *doc);
/* The verdict's lines on top of the thread's table (thread_verdict.c), and
 * its JSON object. */
int thread_verdict_text(FILE *out, const struct report_document *doc, enum report_style style);
extern const struct record_schema thread_verdict_schema;

extern const struct record_schema select_document_schema;
int select_report_markdown(FILE *out, const struct report_document *doc);
int select_report_kernel(FILE *out, const struct report_document *doc);

extern const struct record_schema scan_document_schema;
int scan_report_table(FILE *out, const struct report_document *doc);

extern const struct record_schema compare_document_schema;
int compare_report_text(FILE *out, const struct report_document *doc, enum report_style style);

extern const struct record_schema list_document_schema;
int list_report_table(FILE *out, const struct report_document *doc);

extern const struct record_schema ksm_document_schema;
int ksm_report_table(FILE *out, const struct report_document *doc);

int svg_chart_render(FILE *out, const struct report_document *doc);

/* bench --selfcheck: its document (a row per hash) and its table, plain or Markdown. */
extern const struct record_schema selfcheck_document_schema;
int selfcheck_report_text(FILE *out, const struct report_document *doc, enum report_style style);

/* The ceiling document; the figures' fields also make a results context's
 * "ceiling" object. */
extern const struct record_schema ceiling_document_schema, ceiling_figures_schema;
int ceiling_report_table(FILE *out, const struct report_document *doc);

#endif
