/* Fields, values and rows of the results model (see record.h). */
#include "record.h"

#include <stdarg.h>
#include <string.h>

int record_str(struct record_value *v, const char *s)
{
	v->str = s;
	return s && *s;
}

int record_strf(struct record_value *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->buf, sizeof(v->buf), fmt, ap);
	va_end(ap);
	v->str = v->buf;
	return 1;
}

size_t record_bits_count(unsigned bits, unsigned kinds)
{
	size_t n = 0;

	for (unsigned i = 0; i < kinds; i++)
		n += (bits >> i) & 1;
	return n;
}

int record_bits_at(unsigned bits, unsigned kinds, size_t index)
{
	size_t seen = 0;

	for (unsigned i = 0; i < kinds; i++)
		if (((bits >> i) & 1) && seen++ == index)
			return (int)i;
	return -1;
}

int record_uint(struct record_value *v, uint64_t u)
{
	v->u = u;
	return 1;
}

int record_int(struct record_value *v, int64_t i)
{
	v->i = i;
	return 1;
}

int record_real(struct record_value *v, double x)
{
	v->real = x;
	return 1;
}

int record_bool(struct record_value *v, int b)
{
	v->boolean = b != 0;
	return 1;
}

int record_item(struct record_value *v, const void *item)
{
	v->item = item;
	return item != NULL;
}

int record_get(const struct record_schema *s, const struct record_field *f, const struct record_row *row,
	       struct record_value *v)
{
	memset(v, 0, sizeof(*v));
	v->type = f->type;
	if (f->applies && s->row_class && !(f->applies & s->row_class(row)))
		return 0;
	return f->get(row, v);
}

int record_each(const struct record_schema *s, int (*fn)(const struct record_field *f, void *arg), void *arg)
{
	int rc = s->extends ? record_each(s->extends, fn, arg) : 0;

	for (size_t i = 0; rc == 0 && i < s->n; i++)
		rc = fn(&s->fields[i], arg);
	return rc;
}

const struct record_field *record_find(const struct record_schema *s, const char *name)
{
	for (; s; s = s->extends)
		for (size_t i = 0; i < s->n; i++)
			if (strcmp(s->fields[i].name, name) == 0)
				return &s->fields[i];
	return NULL;
}

void record_text(const struct record_value *v, const char *format, char *buf, size_t size)
{
	switch (v->type) {
	case RECORD_STR: snprintf(buf, size, "%s", v->str ? v->str : ""); break;
	case RECORD_UINT: snprintf(buf, size, "%llu", (unsigned long long)v->u); break;
	case RECORD_INT: snprintf(buf, size, "%lld", (long long)v->i); break;
	case RECORD_REAL: snprintf(buf, size, format ? format : "%.17g", v->real); break;
	case RECORD_BOOL: snprintf(buf, size, "%s", v->boolean ? "true" : "false"); break;
	default: snprintf(buf, size, "%s", ""); break;
	}
}

struct record_row record_list_row(const struct record_list *l, size_t i)
{
	struct record_row row = { (const char *)l->items + i * l->stride, &l->up, i };

	return row;
}
