/* A report document rendered to a string, for the unit tests that check
 * what a format writes (test_report_formats.c, test_thread_formats.c). */
#include "render.h"

#include <stdio.h>
#include <stdlib.h>

char *unit_render(const char *name, const struct report_document *doc)
{
	const struct report_format *f = report_format_find(name, doc->kind, NULL);
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!out)
		return NULL;
	if (!f || report_write(f, doc, out) != 0) {
		fclose(out);
		free(text);
		return NULL;
	}
	fclose(out);
	return text;
}
