/* Opening any page file as a page source: the format (raw, ELF core, LiME,
 * kdump-compressed; any of them gzip-compressed) detected from the content
 * or named by the user, from the one table of formats in dump.c. Every
 * command that reads pages from a file goes through here. */
#ifndef KB_DUMP_H
#define KB_DUMP_H

#include "dump_input.h"
#include "lime.h"
#include "page_source.h"

/* The format asked for, and the options some formats take: each option
 * belongs to its format (the table says which takes which). */
struct dump_options {
	const char *format;       /* NULL or "auto" to detect, or a name of the table */
	struct lime_options lime; /* lime-raw and lime-padded */
};

/* What a format's open function is given. */
struct dump_open {
	const char *format;              /* its name in the table, for page_source.format */
	const struct dump_input *in;     /* the file and its layers, for more cursors */
	struct kb_stream *stream;        /* the first cursor: the reader takes it over */
	uint32_t page_size;
	const struct dump_options *opts; /* never NULL */
};

/* Options a format takes (dump_format.options). */
#define DUMP_TAKES_LIME_RANGES 1u

/* One line of the table. */
struct dump_format {
	const char *name;
	/* 1 when the first bytes are this format's; NULL: only ever named. */
	int (*detect)(const unsigned char *head, size_t len);
	/* Takes over a->stream whatever happens. */
	struct page_source *(*open)(const struct dump_open *a, struct kb_err *err);
	unsigned options;  /* DUMP_TAKES_* */
	int flattened;     /* may come in the flattened makedumpfile layout */
};

/* "auto, raw, elf, ...": the accepted names, for --help and errors. */
const char *dump_format_names(void);

/* opts: NULL to detect the format. */
struct page_source *dump_source_open(const char *path, uint32_t page_size, const struct dump_options *opts,
				     struct kb_err *err);

/* Fails unless name is a format of the table (or "auto"): for option parsing. */
int dump_format_check(const char *name, struct kb_err *err);

#endif
