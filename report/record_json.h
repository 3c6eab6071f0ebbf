/* JSON from the results model (record_json.c): an object per record with
 * every field of its schema, null where a field does not apply, so that
 * consumers can rely on the shape. */
#ifndef KB_RECORD_JSON_H
#define KB_RECORD_JSON_H

#include <stdio.h>

#include <cJSON.h>

#include "record.h"

/* The object of row under s; NULL when memory runs out. */
cJSON *record_json(const struct record_schema *s, const struct record_row *row);

/* Prints and frees doc; -1 if it could not be built or written. */
int record_json_print(FILE *out, cJSON *doc);

#endif
