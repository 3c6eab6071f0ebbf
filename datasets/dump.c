/* The table of page file formats and the choice among them (see dump.h):
 * the layers (gzip, then the flattened makedumpfile layout) are found
 * first, then the format from the first bytes of what they hold, in table
 * order; anything unrecognised is raw. */
#include "dump.h"

#include <stdio.h>
#include <string.h>

#include "elf_core.h"
#include "kdump.h"
#include "raw.h"

/* Raw first: the fallback when nothing else is detected. A flattened file
 * usually holds a kdump file, but makedumpfile -F -E flattens an ELF core.
 * A format detection finds under the flattened layer is read through it
 * when named too; raw and the LiME range layouts, never detected, take the
 * bytes as they lie, flattened or not. */
static const struct dump_format formats[] = {
	{ "raw", NULL, raw_open, 0, 0 },
	{ "elf", elf_core_detect, elf_core_open, 0, 1 },
	{ "lime", lime_detect, lime_open_headers, 0, 1 },
	{ "lime-raw", NULL, lime_open_raw, DUMP_TAKES_LIME_RANGES, 0 },
	{ "lime-padded", NULL, lime_open_padded, DUMP_TAKES_LIME_RANGES, 0 },
	{ "kdump", kdump_detect, kdump_open, 0, 1 },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

const char *dump_format_names(void)
{
	static char names[160];

	if (!names[0]) {
		size_t used = (size_t)snprintf(names, sizeof(names), "auto");
		for (size_t i = 0; i < NFORMATS && used < sizeof(names); i++)
			used += (size_t)snprintf(names + used, sizeof(names) - used, ", %s", formats[i].name);
	}
	return names;
}

static const struct dump_format *find(const char *name)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (strcmp(name, formats[i].name) == 0)
			return &formats[i];
	return NULL;
}

int dump_format_check(const char *name, struct kb_err *err)
{
	if (strcmp(name, "auto") == 0 || find(name))
		return 0;
	return kb_fail(err, "unknown input format '%s' (known: %s)", name, dump_format_names());
}

/* The format whose signature the stream starts with, else raw. */
static const struct dump_format *detect(struct kb_stream *s, struct kb_err *err)
{
	unsigned char head[32];
	ssize_t n = kb_stream_read(s, 0, head, sizeof(head), err);

	if (n < 0)
		return NULL;
	for (size_t i = 1; i < NFORMATS; i++)
		if (formats[i].detect && formats[i].detect(head, (size_t)n))
			return &formats[i];
	return &formats[0];
}

/* An option given for a format that does not take it is a mistake to say. */
static int check_options(const struct dump_format *f, const struct dump_options *o, const char *path,
			 struct kb_err *err)
{
	if (o->lime.ranges && !(f->options & DUMP_TAKES_LIME_RANGES))
		return kb_fail(err, "'%s' is read as %s, which takes no LiME ranges (they are for lime-raw "
				    "and lime-padded)", path, f->name);
	return 0;
}

struct page_source *dump_source_open(const char *path, uint32_t page_size, const struct dump_options *opts,
				     struct kb_err *err)
{
	static const struct dump_options none;
	const struct dump_options *o = opts ? opts : &none;
	int automatic = !o->format || strcmp(o->format, "auto") == 0;
	const struct dump_format *f = automatic ? NULL : find(o->format);
	struct dump_input in;

	if (!automatic && !f)
		return dump_format_check(o->format, err), NULL;
	struct kb_stream *s = dump_input_open(&in, path, automatic || f->flattened, err);
	if (!s)
		return NULL;
	if ((automatic && !(f = detect(s, err))) || check_options(f, o, path, err)) {
		kb_stream_close(s);
		return NULL;
	}
	struct dump_open a = { f->name, &in, s, page_size, o };
	return f->open(&a, err);
}
