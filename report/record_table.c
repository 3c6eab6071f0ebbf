/* Tables of records (see record_table.h). */
#include "record_table.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"

void record_cell(const struct record_column *c, const struct record_schema *s, const struct record_row *row,
		 char *buf, size_t size)
{
	const struct record_field *f = c->field ? record_find(s, c->field) : NULL;
	struct record_value v;
	double scale = c->scale ? c->scale : 1;

	if (c->cell) {
		if (!c->cell(row, buf, size))
			snprintf(buf, size, "-");
		return;
	}
	if (!f || !record_get(s, f, row, &v)) {
		snprintf(buf, size, "-");
		return;
	}
	if (v.type == RECORD_REAL)
		snprintf(buf, size, c->format ? c->format : "%.1f", v.real * scale);
	else if ((v.type == RECORD_UINT || v.type == RECORD_INT) && (c->scale || c->format))
		snprintf(buf, size, c->format ? c->format : "%.0f",
			 (v.type == RECORD_UINT ? (double)v.u : (double)v.i) * scale);
	else
		record_text(&v, NULL, buf, size);
}

/* Whether every row of l shows the same text in column c (in first). */
static int same_everywhere(const struct record_column *c, const struct record_list *l, char *first, size_t size)
{
	char cell[320];

	first[0] = '\0';
	for (size_t i = 0; i < l->count; i++) {
		struct record_row row = record_list_row(l, i);
		record_cell(c, l->schema, &row, i ? cell : first, i ? sizeof(cell) : size);
		if (i && strcmp(cell, first) != 0)
			return 0;
	}
	return l->count > 0;
}

unsigned record_columns_fit(const struct record_column *cols, unsigned n, const struct record_list *l, int wide,
			    struct record_column *out, char *common, size_t size)
{
	unsigned kept = 0;
	size_t used = 0;
	char value[320], shown[4 * 320];

	common[0] = '\0';
	for (unsigned c = 0; c < n; c++) {
		unsigned fit = cols[c].fit;
		int same = !wide && fit && same_everywhere(&cols[c], l, value, sizeof(value));
		if (same && (fit & RECORD_FIT_EMPTY) && strcmp(value, "-") == 0)
			continue;
		if (same && (fit & RECORD_FIT_SAME) && strcmp(value, "-") != 0) {
			if (used < size)
				used += (size_t)snprintf(common + used, size - used, "%s%s %s", used ? ", " : "",
							 cols[c].header, escape_str(value, ESCAPE_TERM, shown, sizeof(shown)));
			continue;
		}
		out[kept++] = cols[c];
	}
	return kept;
}

struct table *record_table(const struct record_column *cols, unsigned ncols, const struct record_list *l)
{
	enum { CELL_BYTES = 320 };
	char align[16] = "";
	const char *cells[16];

	if (ncols == 0 || ncols > 15)
		return NULL;
	for (unsigned c = 0; c < ncols; c++) {
		if (cols[c].field && !record_find(l->schema, cols[c].field))
			return NULL;
		align[c] = cols[c].align;
		cells[c] = cols[c].header;
	}
	struct table *t = table_new(ncols, align);
	char *text = malloc((size_t)ncols * CELL_BYTES);
	int rc = t && text ? table_add_row(t, cells) : -1;
	for (size_t i = 0; rc == 0 && i < l->count; i++) {
		struct record_row row = record_list_row(l, i);
		for (unsigned c = 0; c < ncols; c++) {
			record_cell(&cols[c], l->schema, &row, text + c * CELL_BYTES, CELL_BYTES);
			cells[c] = text + c * CELL_BYTES;
		}
		rc = table_add_row(t, cells);
	}
	free(text);
	return table_done(t, rc);
}
