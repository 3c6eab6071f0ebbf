/* Plain-text tables with aligned columns (see table.h). */
#include "table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "escape.h"
#include "text_wrap.h"

struct table {
	unsigned ncols, nrows;
	size_t cap; /* cells allocated, a multiple of ncols */
	unsigned markup; /* a bit per column printed as it is */
	char align[16];
	char **cells; /* nrows * ncols */
};

struct table *table_new(unsigned ncols, const char *align)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t || ncols == 0 || ncols >= sizeof(t->align)) {
		free(t);
		return NULL;
	}
	t->ncols = ncols;
	for (unsigned i = 0; i < ncols; i++)
		t->align[i] = align && i < strlen(align) ? align[i] : 'l';
	return t;
}

int table_add_row(struct table *t, const char *const *cells)
{
	char **c = kb_grow(t->cells, &t->cap, ((size_t)t->nrows + 1) * t->ncols, sizeof(*c), 16 * (size_t)t->ncols);
	if (!c)
		return -1;
	t->cells = c;
	char **row = t->cells + (size_t)t->nrows * t->ncols;
	for (unsigned i = 0; i < t->ncols; i++) {
		row[i] = strdup(cells[i] ? cells[i] : "");
		if (!row[i]) {
			while (i--)
				free(row[i]);
			return -1;
		}
	}
	t->nrows++;
	return 0;
}

int table_add_rowf(struct table *t, ...)
{
	const char *cells[16];
	va_list ap;

	va_start(ap, t);
	for (unsigned i = 0; i < t->ncols; i++)
		cells[i] = va_arg(ap, const char *);
	va_end(ap);
	return table_add_row(t, cells);
}

void table_set_markup(struct table *t, unsigned col)
{
	if (col < t->ncols)
		t->markup |= 1u << col;
}

/* What cell (r, c) takes on a terminal. */
static size_t cell_width(const struct table *t, unsigned r, unsigned c)
{
	const char *cell = t->cells[(size_t)r * t->ncols + c];

	return t->markup & (1u << c) ? strlen(cell) : escape_width(cell, ESCAPE_TERM);
}

static void column_widths(const struct table *t, size_t width[16])
{
	for (unsigned c = 0; c < t->ncols; c++)
		width[c] = 0;
	for (unsigned r = 0; r < t->nrows; r++)
		for (unsigned c = 0; c < t->ncols; c++) {
			size_t w = cell_width(t, r, c);
			if (w > width[c])
				width[c] = w;
		}
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

static void put_cell(const struct table *t, unsigned r, unsigned c, enum escape_target target, FILE *out)
{
	const char *cell = t->cells[(size_t)r * t->ncols + c];

	if (t->markup & (1u << c))
		fputs(cell, out);
	else
		escape_put(out, cell, target);
}

/* The room left for column col when every other column keeps its width. */
static size_t column_room(const struct table *t, unsigned col, size_t max_width, size_t min)
{
	size_t width[16], used = 0;

	column_widths(t, width);
	for (unsigned c = 0; c < t->ncols; c++)
		if (c != col)
			used += width[c] + 2;
	return used + min < max_width ? max_width - used : min;
}

void table_fit_last(struct table *t, size_t max_width, size_t min_last)
{
	size_t room = column_room(t, t->ncols - 1, max_width, min_last);

	for (unsigned r = 0; room >= 3 && r < t->nrows; r++) {
		char *cell = t->cells[(size_t)r * t->ncols + t->ncols - 1];
		if (strlen(cell) > room)
			strcpy(cell + report_utf8_floor(cell, room - 3), "...");
	}
}

void table_fit_middle(struct table *t, unsigned col, size_t max_width, size_t min)
{
	size_t room = col < t->ncols ? column_room(t, col, max_width, min) : 0;

	/* Row 0 is the header: cut only the cells below it. */
	for (unsigned r = 1; r < t->nrows; r++)
		report_cut_middle(t->cells[(size_t)r * t->ncols + col], room);
}

size_t table_width(const struct table *t)
{
	size_t width[16], total = 0;

	column_widths(t, width);
	for (unsigned c = 0; c < t->ncols; c++)
		total += width[c] + (c + 1 < t->ncols ? 2 : 0);
	return total;
}

int table_print(const struct table *t, FILE *out)
{
	size_t width[16];

	column_widths(t, width);
	for (unsigned r = 0; r < t->nrows; r++) {
		for (unsigned c = 0; c < t->ncols; c++) {
			size_t room = width[c] - cell_width(t, r, c);
			int last = c + 1 == t->ncols;
			/* The last left-aligned column is not padded: no trailing blanks. */
			if (t->align[c] == 'r')
				pad(out, room);
			put_cell(t, r, c, ESCAPE_TERM, out);
			if (t->align[c] != 'r' && !last)
				pad(out, room);
			if (!last)
				fputs("  ", out);
		}
		fputc('\n', out);
		if (r == 0) {
			for (size_t i = 0, total = table_width(t); i < total; i++)
				fputc('-', out);
			fputc('\n', out);
		}
	}
	return ferror(out) ? -1 : 0;
}

int table_print_markdown(const struct table *t, FILE *out)
{
	for (unsigned r = 0; r < t->nrows; r++) {
		for (unsigned c = 0; c < t->ncols; c++) {
			fputs("| ", out);
			put_cell(t, r, c, ESCAPE_MARKDOWN, out);
			fputc(' ', out);
		}
		fputs("|\n", out);
		if (r == 0) {
			for (unsigned c = 0; c < t->ncols; c++)
				fputs(t->align[c] == 'r' ? "| ---: " : "| --- ", out);
			fputs("|\n", out);
		}
	}
	return ferror(out) ? -1 : 0;
}

void table_free(struct table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < (size_t)t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

struct table *table_done(struct table *t, int rc)
{
	if (rc == 0)
		return t;
	table_free(t);
	return NULL;
}
