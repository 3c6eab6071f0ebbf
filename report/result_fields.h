/* The field tables of a result and of the run's context (result_fields.c),
 * and of the results document that holds them (results_doc.c). */
#ifndef KB_RESULT_FIELDS_H
#define KB_RESULT_FIELDS_H

#include "record.h"

/* Rows: a struct bench_result; read back into a struct loaded_result. */
extern const struct record_schema report_result_schema;
/* Rows: a struct bench_context; read back into a struct loaded_context. */
extern const struct record_schema report_context_schema;
/* Rows: a struct report_document of results (bench, and what thread and
 * select extend): {schema, interrupted, context, results}; read back into
 * a struct loaded_doc. */
extern const struct record_schema report_results_document_schema;

#endif
