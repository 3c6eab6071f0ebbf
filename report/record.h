/* The results model: every record a report holds (a result, the run's
 * context, a thread row, a scan hash, a compare pair, whole documents) is
 * described once, by a table of fields. JSON (record_json.c), CSV and TSV
 * (record_csv.c), the text and Markdown tables (record_table.c) and reading
 * a document back (record_load.c) all iterate these tables, so a field is
 * one descriptor: its name, its type, which rows it applies to, how to get
 * it, its number format in text, and where a reader stores it. */
#ifndef KB_RECORD_H
#define KB_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../common/err.h"

enum record_type {
	RECORD_STR,
	RECORD_UINT,   /* an integer >= 0 */
	RECORD_INT,
	RECORD_REAL,
	RECORD_BOOL,
	RECORD_OBJECT, /* a nested object: sub's fields over value.item */
	RECORD_MAP,    /* an object whose keys come from the row: count entries, get gives key and value
			* (a scalar, or an OBJECT: item, over sub's fields) */
};

/* What a field's getter looks at: an item, the row it is nested in, and
 * its index in the array or list holding it (0 for a lone object). An
 * array field's getter sees its own row with index set to the element
 * asked for. */
struct record_row {
	const void *item;
	const struct record_row *up; /* NULL at the top of a document */
	size_t index;
};

/* What a getter gives. */
struct record_value {
	enum record_type type; /* preset from the field; a MAP entry's getter sets it */
	const char *key;       /* MAP: the entry's key */
	const char *str;
	uint64_t u;
	int64_t i;
	double real;
	int boolean;
	const void *item;      /* OBJECT */
	char buf[512];         /* room for a string the getter composes (str then points here) */
};

struct record_schema;

/* The values a number read back may take (record_load.c). A field without
 * one takes its type's: a UINT 0 to 2^53 (exact in a double), a REAL any
 * finite value >= 0. Both bounds are inclusive. */
struct record_range {
	double min, max;
	int or_zero; /* 0 is allowed too (a time not measured) */
};

/* Field flags. */
#define RECORD_CSV 1u      /* a column of the CSV (and TSV) rows */
#define RECORD_REQUIRED 2u /* results_load: a document without it is rejected */
#define RECORD_INLINE 4u   /* an OBJECT whose fields JSON writes into the enclosing object */

struct record_field {
	const char *name;      /* JSON key and CSV column; units are in the name */
	enum record_type type; /* of the value, or of each element of an array */
	unsigned applies;      /* row classes it applies to (0: every row); null for the others */
	unsigned flags;
	const char *format;    /* a REAL in CSV: its printf format (NULL: "%.17g", exact) */
	/* Fills v; returns 0 where the field is null for this row. */
	int (*get)(const struct record_row *row, struct record_value *v);
	/* Non-NULL: an array of count elements (a MAP: count entries); get
	 * then sees the element in row->index. */
	size_t (*count)(const struct record_row *row);
	const struct record_schema *sub; /* RECORD_OBJECT (or a MAP of them): the nested object's fields */
	/* Reading back: 1 + the offset in the schema's load struct where the
	 * value goes (STR: const char *, UINT: uint64_t, INT: int64_t, REAL: double, BOOL:
	 * int, OBJECT: the nested load struct, an array of REAL or OBJECT: a
	 * struct record_array); 0 when the field is not read. */
	size_t load;
	const struct record_range *range; /* a number (or each element) read back; NULL: the type's */
};

struct record_schema {
	const struct record_schema *extends; /* its fields come first */
	const struct record_field *fields;
	size_t n;
	/* The row's class, tested against each field's applies; NULL: none. */
	unsigned (*row_class)(const struct record_row *row);
	size_t load_size; /* bytes of the struct load offsets point into */
};

#define RECORD_FIELDS(array) (array), (sizeof(array) / sizeof((array)[0]))
#define RECORD_LOAD(type, member) (offsetof(type, member) + 1)

/* An array read back. */
struct record_array {
	void *items; /* REAL: double[n]; OBJECT: n load structs of the sub schema */
	size_t n;
};

/* Getter helpers: set v and return 1 (record_str: 0 for NULL or "";
 * record_strf: composes the string in v->buf). */
int record_str(struct record_value *v, const char *s);
int record_strf(struct record_value *v, const char *fmt, ...) KB_PRINTF(2, 3);
int record_uint(struct record_value *v, uint64_t u);
int record_int(struct record_value *v, int64_t i);
int record_real(struct record_value *v, double x);
int record_bool(struct record_value *v, int b);
int record_item(struct record_value *v, const void *item);

/* A bit mask shown as a list of names: how many of its first kinds bits
 * are set, and the position of the index-th set bit (-1 past the last). */
size_t record_bits_count(unsigned bits, unsigned kinds);
int record_bits_at(unsigned bits, unsigned kinds, size_t index);

/* A getter in one line: expr sees the row as w and the value as v. */
#define RECORD_GETTER(fn, expr)                                                   \
	static int fn(const struct record_row *w, struct record_value *v)          \
	{                                                                          \
		(void)w;                                                           \
		(void)v;                                                           \
		return (expr);                                                     \
	}

/* The value of f in row: 1, or 0 for null (does not apply, or get says so). */
int record_get(const struct record_schema *s, const struct record_field *f, const struct record_row *row,
	       struct record_value *v);

/* The field called name (looked up in s and what it extends), NULL if none. */
const struct record_field *record_find(const struct record_schema *s, const char *name);

/* Calls fn on every field of s, those of what it extends first; stops at
 * the first non-zero return and returns it. */
int record_each(const struct record_schema *s, int (*fn)(const struct record_field *f, void *arg), void *arg);

/* A scalar as text: integers in full, a REAL in format (NULL: exact), a
 * BOOL as true or false. */
void record_text(const struct record_value *v, const char *format, char *buf, size_t size);

/* A list of items of one schema, stride bytes apart (a CSV's rows, a
 * table's rows), nested in the row up (its item: e.g. the document). */
struct record_list {
	const struct record_schema *schema;
	const void *items;
	size_t count, stride;
	struct record_row up;
};

/* The row of item i of l (its up points into l). */
struct record_row record_list_row(const struct record_list *l, size_t i);

/* Delimited text (record_csv.c): a header of the CSV fields' names, then a
 * row per item, empty where null. sep ',': RFC 4180 quoting; '\t': TSV, tab,
 * newline and backslash written as \t, \n and \\. */
int record_write_delimited(FILE *out, const struct record_list *l, char sep);

#endif
