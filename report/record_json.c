/* JSON from the results model (see record_json.h). */
#include "record_json.h"
#include "escape.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* An integer past 2^53 as its digits: through a double 9007199254740993
 * came out as 9.00719925474099e+15, neither the value nor the table's. */
static cJSON *integer(int negative, uint64_t magnitude)
{
	char digits[24];

	if (magnitude <= (1ull << 53))
		return cJSON_CreateNumber(negative ? -(double)magnitude : (double)magnitude);
	snprintf(digits, sizeof(digits), "%s%llu", negative ? "-" : "", (unsigned long long)magnitude);
	return cJSON_CreateRaw(digits);
}

static cJSON *scalar(const struct record_value *v)
{
	switch (v->type) {
	case RECORD_STR: return cJSON_CreateString(v->str ? v->str : "");
	case RECORD_UINT: return integer(0, v->u);
	case RECORD_INT: return integer(v->i < 0, v->i < 0 ? 0 - (uint64_t)v->i : (uint64_t)v->i);
	case RECORD_REAL: return cJSON_CreateNumber(v->real);
	case RECORD_BOOL: return cJSON_CreateBool(v->boolean);
	default: return cJSON_CreateNull();
	}
}

/* The value of f in row: of the whole field, or (an array) of its element
 * at. A nested object's row is nested in row, and carries the element's
 * index (0 for a lone object). */
static cJSON *value(const struct record_schema *s, const struct record_field *f, const struct record_row *row,
		    const size_t *at)
{
	struct record_row here = { row->item, row->up, at ? *at : row->index };
	struct record_value v;

	if (!record_get(s, f, &here, &v))
		return cJSON_CreateNull();
	if (v.type != RECORD_OBJECT)
		return scalar(&v);
	struct record_row sub = { v.item, row, at ? *at : 0 };
	return record_json(f->sub, &sub);
}

static cJSON *array(const struct record_schema *s, const struct record_field *f, const struct record_row *row)
{
	cJSON *a = f->type == RECORD_MAP ? cJSON_CreateObject() : cJSON_CreateArray();
	size_t n = f->count(row);

	for (size_t i = 0; a && i < n; i++) {
		if (f->type == RECORD_MAP) {
			struct record_row at = { row->item, row->up, i };
			struct record_value v;
			int present = record_get(s, f, &at, &v);
			struct record_row sub = { v.item, row, i };
			if (v.key)
				cJSON_AddItemToObject(a, v.key, !present ? cJSON_CreateNull()
							       : v.type == RECORD_OBJECT ? record_json(f->sub, &sub)
							       : scalar(&v));
		} else {
			cJSON_AddItemToArray(a, value(s, f, row, &i));
		}
	}
	return a;
}

struct build {
	const struct record_schema *s;
	const struct record_row *row;
	cJSON *o;
};

static int add_field(const struct record_field *f, void *arg);

static int add_null(const struct record_field *f, void *arg)
{
	return cJSON_AddNullToObject(((struct build *)arg)->o, f->name) ? 0 : -1;
}

/* An inline object's fields, in the enclosing object (null if it is). */
static int add_inline(struct build *b, const struct record_field *f)
{
	struct record_value v;

	if (!record_get(b->s, f, b->row, &v))
		return record_each(f->sub, add_null, b);
	struct record_row sub = { v.item, b->row, 0 };
	struct build in = { f->sub, &sub, b->o };
	return record_each(f->sub, add_field, &in);
}

static int add_field(const struct record_field *f, void *arg)
{
	struct build *b = arg;
	cJSON *item;

	if ((f->flags & RECORD_INLINE) && !f->count)
		return add_inline(b, f);
	if (!f->count)
		item = value(b->s, f, b->row, NULL);
	else if (f->applies && b->s->row_class && !(f->applies & b->s->row_class(b->row)))
		item = cJSON_CreateNull();
	else
		item = array(b->s, f, b->row);
	if (!item)
		return -1;
	cJSON_AddItemToObject(b->o, f->name, item);
	return 0;
}

cJSON *record_json(const struct record_schema *s, const struct record_row *row)
{
	struct build b = { s, row, cJSON_CreateObject() };

	if (b.o && record_each(s, add_field, &b)) {
		cJSON_Delete(b.o);
		return NULL;
	}
	return b.o;
}

int record_json_print(FILE *out, cJSON *doc)
{
	char *text = doc ? cJSON_Print(doc) : NULL;
	int rc = text && escape_put_json(out, text) == 0 && fputc('\n', out) != EOF && !ferror(out) ? 0 : -1;

	free(text);
	cJSON_Delete(doc);
	return rc;
}
