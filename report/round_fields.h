/* The field tables of a result's rounds and processes, and of the
 * thresholds and rules in a results context (round_fields.c). */
#ifndef KB_ROUND_FIELDS_H
#define KB_ROUND_FIELDS_H

#include "record.h"

/* Rows: a struct bench_round nested in its struct bench_result's row. */
extern const struct record_schema report_round_schema;
/* Rows: a struct bench_process_value nested in its result's row. */
extern const struct record_schema report_process_schema;
/* Rows: a struct disturb_thresholds; a struct estimate_rules. */
extern const struct record_schema report_thresholds_schema, report_rules_schema;

/* What a document read back may say of a rate (0 to a petabyte a second; a
 * process's value or a median above 0), a core clock (1 MHz to 1 THz), the
 * core's throughput reference (up to 10^6 additions a ns): compare reads
 * rounds' and the context's from the JSON itself, so they are checked
 * where the document is read (docs/input-limits.md). */
extern const struct record_range report_rate_range, report_positive_rate_range, report_clock_range,
	report_adds_range;

#endif
