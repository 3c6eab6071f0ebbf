/* The run's context in text reports: a line above a table, warnings and
 * the interruption note below it (context_text.c). */
#ifndef KB_CONTEXT_TEXT_H
#define KB_CONTEXT_TEXT_H

#include <stdio.h>

#include "../bench/context.h"
#include "kinds.h"
#include "table.h"

/* "# ksmbench V (git R), CPU, CPU N pinned (rule), TSC ..., kernel K",
 * wrapped to width (0: one line). */
int report_context_line(FILE *out, const struct bench_context *ctx, unsigned width);

/* Markdown's context: a line and a blank one. */
int report_context_markdown(FILE *out, const struct bench_context *ctx);

/* A line per warning after prefix ("warning: "), each wrapped to width
 * (0: not wrapped). */
int report_warnings(FILE *out, const struct bench_context *ctx, const char *prefix, unsigned width);

/* "interrupted by SIGINT: ..." after prefix when a stop request cut the run
 * short; nothing otherwise. */
int report_interruption(FILE *out, const struct bench_context *ctx, const char *prefix);

/* The warnings and the interruption note after a table: plain (wrapped to
 * width) or a Markdown list. */
int report_table_notes(FILE *out, const struct bench_context *ctx, enum report_style style, unsigned width);

/* The context, then t, then (notes) the warnings and the interruption:
 * plain, or Markdown (the context a line above, notes a list below); the
 * plain context and notes wrapped to width (0: not wrapped). */
int report_table_in_context(FILE *out, const struct bench_context *ctx, const struct table *t,
			    enum report_style style, int notes, unsigned width);

#endif
