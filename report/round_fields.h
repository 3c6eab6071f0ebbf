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

#endif
