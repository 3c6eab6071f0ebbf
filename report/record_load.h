/* Reading records back from JSON by their schemas (record_load.c): every
 * field with a load offset is checked against its type and stored in the
 * schema's load struct. */
#ifndef KB_RECORD_LOAD_H
#define KB_RECORD_LOAD_H

#include <cJSON.h>

#include "record.h"

/* The most elements an array read back may hold (docs/input-limits.md). */
#define RECORD_LOAD_MAX_ITEMS 200000

/* Reads obj into target (s->load_size bytes, zeroed by the caller). Strings point
 * into obj. Errors name path and, below the top, what ("results[3]").
 * After an error target holds what was read so far: release it. Fields
 * without a load offset (every field, with target NULL) are checked where
 * they have a range, and arrays of objects element by element. */
int record_load(const struct record_schema *s, const cJSON *obj, void *target, const char *path,
		const char *what, struct kb_err *err);

/* Frees the arrays record_load allocated in target. */
void record_load_release(const struct record_schema *s, void *target);

#endif
