/* Plain-text tables with aligned columns. Cells are printed escaped for
 * their target (escape.h: a terminal's control characters made visible,
 * Markdown's markup escaped), except in a column marked as markup. */
#ifndef KB_TABLE_H
#define KB_TABLE_H

#include <stdio.h>

#include "../common/err.h"

struct table;

/* A table of ncols columns; right_align is a string of 'l'/'r' per column. */
struct table *table_new(unsigned ncols, const char *right_align);

/* Appends a row of ncols cells (copied). Returns 0 or -1 on memory failure. */
int table_add_row(struct table *t, const char *const *cells);
int table_add_rowf(struct table *t, ...); /* ncols const char * arguments */

/* Column col holds the program's own markup (colour codes, Markdown
 * emphasis), printed as it is: only text composed from fixed strings. */
void table_set_markup(struct table *t, unsigned col);

/* Cuts the last column's cells (marking each cut with "...") so that the
 * printed table is at most max_width wide, keeping at least min_last
 * characters of that column. */
void table_fit_last(struct table *t, size_t max_width, size_t min_last);

/* Cuts the middle out of column col's cells below the header (marking each
 * cut with "..." and keeping a third of the room for the start, the rest
 * for the end: a path keeps its file name) so that the printed table is at
 * most max_width wide, keeping at least min characters of that column. */
void table_fit_middle(struct table *t, unsigned col, size_t max_width, size_t min);

/* The columns the printed table takes (its rule's length). */
size_t table_width(const struct table *t);

/* Prints header row (the first row added), a rule, and the rest. */
int table_print(const struct table *t, FILE *out);

/* The same as a GitHub-flavoured Markdown table. */
int table_print_markdown(const struct table *t, FILE *out);

void table_free(struct table *t);

/* For builders: t when rc is 0, else frees t and returns NULL. */
struct table *table_done(struct table *t, int rc);

#endif
