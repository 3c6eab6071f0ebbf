/* The format registry: one entry per format, each defined in its own file
 * (format_NAME.c: const struct report_format report_format_NAME), in the
 * order --help lists them */
#include <string.h>

#include "report.h"

#define FORMATS(X) X(table) X(kernel) X(csv) X(tsv) X(json) X(gha) X(markdown) X(svg)

#define DECLARE(name) extern const struct report_format report_format_##name;
FORMATS(DECLARE)
#define ENTRY(name) &report_format_##name,
static const struct report_format *const formats[] = { FORMATS(ENTRY) };

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

const char *report_format_names(enum report_kind kind, const char *sep, char *buf, size_t size)
{
	size_t n = 0, k = 0, used = 0;

	for (size_t i = 0; i < NFORMATS; i++)
		n += formats[i]->render[kind] != NULL;
	buf[0] = '\0';
	for (size_t i = 0; i < NFORMATS && used < size; i++) {
		if (!formats[i]->render[kind])
			continue;
		/* "a, b or c" when sep is ", " */
		const char *s = k == 0 ? "" : strcmp(sep, ", ") == 0 && k + 1 == n ? " or " : sep;
		used += (size_t)snprintf(buf + used, size - used, "%s%s", s, formats[i]->name);
		k++;
	}
	return buf;
}

const struct report_format *report_format_find(const char *name, enum report_kind kind, struct kb_err *err)
{
	char names[160];

	for (size_t i = 0; i < NFORMATS; i++)
		if (strcmp(name, formats[i]->name) == 0 && formats[i]->render[kind])
			return formats[i];
	kb_fail(err, "unknown format '%s' for %s (%s)", name, report_kind_name(kind),
		report_format_names(kind, ", ", names, sizeof(names)));
	return NULL;
}

int report_write(const struct report_format *f, const struct report_document *doc, FILE *out)
{
	if (!f->render[doc->kind])
		return -1;
	return f->render[doc->kind](out, doc) || ferror(out) ? -1 : 0;
}
