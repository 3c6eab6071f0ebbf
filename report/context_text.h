/* The run's context in text reports: a line above a table, warnings and
 * the interruption note below it (context_text.c). */
#ifndef KB_CONTEXT_TEXT_H
#define KB_CONTEXT_TEXT_H

#include <stdio.h>

#include "../bench/context.h"
#include "kinds.h"
#include "table.h"

/* "# ksmbench V (git R), CPU, CPU N pinned (rule), TSC ..., kernel K". */
int report_context_line(FILE *out, const struct bench_context *ctx);

/* "warning: ..." lines. */
int report_warnings(FILE *out, const struct bench_context *ctx);

/* "interrupted by SIGINT: ..." after prefix when a stop request cut the run
 * short; nothing otherwise. */
int report_interruption(FILE *out, const struct bench_context *ctx, const char *prefix);

/* The context, then t, then (notes) the warnings and the interruption:
 * plain, or Markdown (the context a line above, notes a list below). */
int report_table_in_context(FILE *out, const struct bench_context *ctx, const struct table *t,
			    enum report_style style, int notes);

#endif
