/* Renderers of benchmark results: one file per format, each taking the run's
 * context and the array of results. Nothing here decides what to measure. */
#ifndef KB_RESULTS_H
#define KB_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include <cJSON.h>

#include "../bench/bench.h"
#include "../bench/context.h"

#define REPORT_SCHEMA "ksmbench-results/1"

enum report_format { REPORT_TABLE, REPORT_KERNEL, REPORT_CSV, REPORT_JSON, REPORT_GHA, REPORT_MARKDOWN };

int report_format_parse(const char *name, enum report_format *out, struct kb_err *err);

/* A dataset name that stays the same across CI runs: a file's base name
 * ("file:/tmp/x/guest.core" -> "guest.core"), else the name itself. */
const char *report_stable_data(const char *data);

/* The kernel's figure for a result: its own for the jiffies timer, else the
 * best rate in the same unit (MiB/s, as count * PAGE_SIZE >> 17 is). */
long report_kernel_mb_per_s(const struct bench_result *r);

/* The clock a result was timed with: "tsc" (rdtsc timer with a TSC) or
 * "monotonic" (CLOCK_MONOTONIC: window, jiffies, rdtsc without a TSC). */
const char *report_clock_name(const struct bench_result *r);

/* "# ksmbench ..., CPU, pinned CPU, TSC, kernel" and "warning: ..." lines,
 * shared by the text reports (results_table.c). */
int report_context_line(FILE *out, const struct bench_context *ctx);
int report_warnings(FILE *out, const struct bench_context *ctx);

/* "note: interrupted ..." when a stop request cut the run short (nothing
 * otherwise); prefix starts the line. */
int report_interruption(FILE *out, const struct bench_context *ctx, const char *prefix);

/* The context line, then t; warnings are left to the caller. */
struct table;
int report_table_under_context(FILE *out, const struct bench_context *ctx, const struct table *t);

/* Aligned columns, context line above, warnings below (results_table.c). */
int report_table(FILE *out, const struct bench_context *ctx, const struct bench_result *r, size_t n);

/* The same table for a review: a GitHub-flavoured Markdown table, the
 * context in a line above, warnings as a list below (results_table.c). */
int report_markdown(FILE *out, const struct bench_context *ctx, const struct bench_result *r, size_t n);
/* The context line and warnings around any Markdown table. */
int report_markdown_under_context(FILE *out, const struct bench_context *ctx, const struct table *t);

/* The JSON array github-action-benchmark's customBiggerIsBetter tool reads:
 * {name, unit, value, range, extra} per result, unit MB/s (gha.c). */
int report_gha(FILE *out, const struct bench_context *ctx, const struct bench_result *r, size_t n);
/* The stable name of a result there: "HASH DATA CACHE PAGEB TIMER". */
void report_gha_name(char *buf, size_t size, const struct bench_result *r);

/* "ksm: %-8s hash() %5ld MB/s" per result, as the v2 patch printed (kernel_lines.c). */
int report_kernel_line(FILE *out, const char *name, long mb_per_s);
int report_kernel(FILE *out, const struct bench_result *r, size_t n);

/* A header row, then one row per result (csv.c). */
int report_csv(FILE *out, const struct bench_result *r, size_t n);
/* One CSV field, quoted when it holds a comma, quote or line break. */
void report_csv_field(FILE *out, const char *text, int last);

/* The JSON document {schema, context, results} (json.c). */
cJSON *report_json_document(const struct bench_context *ctx, const struct bench_result *r, size_t n);

/* The "context" object alone, for other documents (scan's) to share. */
cJSON *report_json_context(const struct bench_context *c);
cJSON *report_json_result(const struct bench_result *r);
/* key: value when present, else null. */
void report_json_number_or_null(cJSON *o, const char *key, int present, double value);
/* Prints and frees doc; -1 if it could not be built or written. */
int report_json_print(FILE *out, cJSON *doc);

/* ksmbench bench --selfcheck's table (selfcheck_table.c). */
struct selfcheck_row;
int report_selfcheck(FILE *out, const struct bench_context *ctx, const struct selfcheck_row *rows, size_t n);

#endif
