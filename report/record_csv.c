/* Delimited text from the results model (see record.h): the header is the
 * CSV fields' names, so the columns are the JSON's keys by construction. */
#include <string.h>

#include "record.h"

/* RFC 4180: quoted when it holds the separator, a quote or a line break. */
static void put_csv(FILE *out, const char *text)
{
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* TSV has no quoting: the characters it cannot hold are escaped. */
static void put_tsv(FILE *out, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '\t')
			fputs("\\t", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\r')
			fputs("\\r", out);
		else if (*p == '\\')
			fputs("\\\\", out);
		else
			fputc(*p, out);
	}
}

struct line {
	FILE *out;
	char sep;
	int first;
	const struct record_list *list;
	const struct record_row *row; /* NULL: the header */
};

static int put_field(const struct record_field *f, void *arg)
{
	struct line *ln = arg;
	char text[512] = "";

	if (!(f->flags & RECORD_CSV))
		return 0;
	if (!ln->row) {
		snprintf(text, sizeof(text), "%s", f->name);
	} else {
		struct record_value v;
		if (record_get(ln->list->schema, f, ln->row, &v))
			record_text(&v, f->format, text, sizeof(text));
	}
	if (!ln->first)
		fputc(ln->sep, ln->out);
	ln->first = 0;
	(ln->sep == '\t' ? put_tsv : put_csv)(ln->out, text);
	return 0;
}

int record_write_delimited(FILE *out, const struct record_list *l, char sep)
{
	struct line ln = { out, sep, 1, l, NULL };

	record_each(l->schema, put_field, &ln);
	fputc('\n', out);
	for (size_t i = 0; i < l->count; i++) {
		struct record_row row = record_list_row(l, i);
		ln.first = 1;
		ln.row = &row;
		record_each(l->schema, put_field, &ln);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
