/* Format selection for page files (see dump.h): the layers (gzip, then
 * the flattened makedumpfile layout) are found first, then the format from
 * the first bytes of what they hold; anything unrecognised is raw. */
#include "dump.h"

#include <stdlib.h>
#include <string.h>

#include "dump_input.h"
#include "elf_core.h"
#include "kdump.h"
#include "lime.h"
#include "raw.h"

const char dump_format_names[] = "auto, raw, elf, lime, lime-raw, lime-padded, kdump";

int dump_format_check(const char *name, struct kb_err *err)
{
	static const char *const names[] = { "auto", "raw", "elf", "lime", "lime-raw", "lime-padded", "kdump" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return 0;
	return kb_fail(err, "unknown input format '%s' (known: %s)", name, dump_format_names);
}

/* Through the layers: a flattened file usually holds a kdump file, but
 * makedumpfile -F -E flattens an ELF core. */
static const char *detect(struct kb_stream *s, struct kb_err *err)
{
	unsigned char head[32];
	ssize_t n = kb_stream_read(s, 0, head, sizeof(head), err);

	if (n < 0)
		return NULL;
	if (kdump_detect(head, (size_t)n))
		return "kdump";
	if (elf_core_detect(head, (size_t)n))
		return "elf";
	if (lime_detect(head, (size_t)n))
		return "lime";
	return "raw";
}

static struct page_source *open_lime_ranges(struct kb_stream *s, uint32_t page_size,
					    enum lime_layout layout, const char *spec, struct kb_err *err)
{
	struct lime_range *ranges;
	size_t n;

	if (!spec) {
		kb_stream_close(s);
		return kb_fail(err, "the %s format needs --lime-ranges START-END[,...] or @FILE",
			       layout == LIME_RAW ? "lime-raw" : "lime-padded"), NULL;
	}
	if (lime_parse_ranges(spec, &ranges, &n, err) < 0) {
		kb_stream_close(s);
		return NULL;
	}
	struct page_source *src = lime_open(s, page_size, layout, ranges, n, err);
	free(ranges);
	return src;
}

struct page_source *dump_source_open_opts(const char *path, uint32_t page_size,
					  const struct dump_options *opts, struct kb_err *err)
{
	const char *format = opts && opts->format ? opts->format : "auto";
	struct dump_input in;

	if (dump_format_check(format, err))
		return NULL;
	int automatic = strcmp(format, "auto") == 0;
	struct kb_stream *s = dump_input_open(&in, path, automatic || strcmp(format, "kdump") == 0, err);
	if (!s)
		return NULL;
	if (automatic && !(format = detect(s, err))) {
		kb_stream_close(s);
		return NULL;
	}
	if (strcmp(format, "elf") == 0)
		return elf_core_open(s, page_size, err);
	if (strcmp(format, "lime") == 0)
		return lime_open(s, page_size, LIME_HEADERS, NULL, 0, err);
	if (strcmp(format, "lime-raw") == 0)
		return open_lime_ranges(s, page_size, LIME_RAW, opts->lime_ranges, err);
	if (strcmp(format, "lime-padded") == 0)
		return open_lime_ranges(s, page_size, LIME_PADDED, opts->lime_ranges, err);
	if (strcmp(format, "kdump") == 0)
		return kdump_open(&in, s, page_size, err);
	return raw_source_from_stream(s, page_size, err);
}

struct page_source *dump_source_open(const char *path, uint32_t page_size, const char *format,
				     struct kb_err *err)
{
	struct dump_options opts = { .format = format };

	return dump_source_open_opts(path, page_size, &opts, err);
}
