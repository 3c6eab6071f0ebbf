/* Text and Markdown tables from the results model (record_table.c): a
 * table is a list of columns, each showing a field of the list's schema
 * (scaled and formatted for reading) or, for a composite cell, what a cell
 * function writes. A null value shows as "-". */
#ifndef KB_RECORD_TABLE_H
#define KB_RECORD_TABLE_H

#include "record.h"
#include "table.h"

/* When a column may be left out of a narrow table (record_columns_fit). */
#define RECORD_FIT_SAME 1u  /* every row shows the same: said once under the table instead */
#define RECORD_FIT_EMPTY 2u /* every row shows "-" */

/* One column, everything about it in one place: tables of them are written
 * with designated initializers, a member left out being 0 (or NULL). */
struct record_column {
	const char *header;
	char align;         /* 'l' or 'r' */
	const char *field;  /* the field shown, or NULL with cell */
	double scale;       /* a number is multiplied by it (0: 1) */
	const char *format; /* printf format of a scaled REAL (NULL: "%.1f") */
	/* A composite cell: writes buf; returns 0 for "-". */
	int (*cell)(const struct record_row *row, char *buf, size_t size);
	unsigned fit;       /* RECORD_FIT_*: when a narrow table may leave it out (0: never) */
};

/* The columns of cols[0..n) a table of l shows, in out (returns their
 * count): every one when wide, else without those whose fit lets them go;
 * those left out for showing the same in every row are written to common
 * as "HEADER value, ..." ("" when none). */
unsigned record_columns_fit(const struct record_column *cols, unsigned n, const struct record_list *l, int wide,
			    struct record_column *out, char *common, size_t size);

#define RECORD_COLUMNS(array) (array), (sizeof(array) / sizeof((array)[0]))

/* A table of l's items under the columns' headers; NULL when a column names
 * no field of the schema or memory runs out. */
struct table *record_table(const struct record_column *cols, unsigned ncols, const struct record_list *l);

/* The text of one cell. */
void record_cell(const struct record_column *c, const struct record_schema *s, const struct record_row *row,
		 char *buf, size_t size);

#endif
