/* ksmbench sum: checksums of files, whole or per page, in xxhsum's manner. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../common/size_parse.h"
#include "../datasets/file_input.h"
#include "../datasets/dump.h"
#include "../hashes/hash.h"
#include "cli.h"

static void usage(void)
{
	printf("usage: ksmbench sum [-H NAME] [--per-page [--input-format F] [--lime-ranges R]]\n"
	       "                    [--page-size N] [FILE...]\n\n"
	       "Prints 'HEX  FILE' per file (the whole file hashed as one buffer), or with\n"
	       "--per-page 'FILE:PAGE_INDEX HEX' per page of a raw file; a trailing partial\n"
	       "page is reported, not hashed. A memory dump (detected from its content)\n"
	       "gives 'FILE:PAGE_INDEX HEX 0xADDRESS' per page, then one line counting\n"
	       "the pages it could not hash. '-' or no FILE reads standard input.\n\n"
	       "  -H, --hash NAME       hash to use (default xxhash, KSM's checksum today)\n"
	       "  --per-page            one line per page\n"
	       "  --page-size N         page size for --per-page (default 4K; multiple of 64)\n"
	       "  --input-format F      %s (default auto)\n"
	       "  --lime-ranges R       ranges of a lime-raw or lime-padded file:\n"
	       "                        START-END[,...] in hex, END inclusive, or @FILE\n",
	       dump_format_names());
}

static int sum_whole(const struct hash_impl *h, const char *path)
{
	struct file_blob blob;
	struct kb_err err;
	char hex[HASH_HEX_MAX];

	if (file_blob_load(path, &blob, &err))
		return cli_fail("sum", &err);
	if (hash_check_len(h, blob.len, &err)) {
		file_blob_release(&blob);
		return cli_error("sum", "'%s': %s", path, err.msg);
	}
	hash_hex(h, blob.data, blob.len, hex);
	file_blob_release(&blob);
	printf("%s  %s\n", hex, path);
	return KB_EXIT_OK;
}

static int sum_pages(const struct hash_impl *h, const char *path, uint32_t page_size,
		     const struct dump_options *opts)
{
	struct kb_err err;
	struct page pg;
	char hex[HASH_HEX_MAX];
	int rc;

	if (hash_check_len(h, page_size, &err))
		return cli_fail("sum", &err);
	struct page_source *src = dump_source_open(path, page_size, opts, &err);
	if (!src)
		return cli_fail("sum", &err);
	int raw = strcmp(src->format, "raw") == 0;
	while ((rc = page_source_next(src, &pg, &err)) == 1) {
		hash_hex(h, pg.data, page_size, hex);
		if (raw)
			printf("%s:%llu %s\n", path, (unsigned long long)pg.index, hex);
		else
			printf("%s:%llu %s 0x%llx\n", path, (unsigned long long)pg.index, hex,
			       (unsigned long long)pg.addr);
	}
	const struct page_stats *st = &src->stats;
	if (rc == 0 && raw && st->partial_pages)
		printf("%s:%llu partial page of %llu bytes, not hashed\n", path,
		       (unsigned long long)st->pages, (unsigned long long)st->partial_bytes);
	else if (rc == 0 && !raw)
		printf("%s: %s, %llu pages hashed; not hashed: %llu holes, %llu excluded, "
		       "%llu partial (%llu bytes), %llu overlapping\n", path, src->format,
		       (unsigned long long)st->pages, (unsigned long long)st->holes,
		       (unsigned long long)st->excluded, (unsigned long long)st->partial_pages,
		       (unsigned long long)st->partial_bytes, (unsigned long long)st->overlap);
	page_source_close(src);
	return rc < 0 ? cli_fail("sum", &err) : KB_EXIT_OK;
}

int cmd_sum(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hash", required_argument, NULL, 'H' },
		{ "per-page", no_argument, NULL, 'p' },
		{ "page-size", required_argument, NULL, 's' },
		{ "input-format", required_argument, NULL, 'f' },
		{ "lime-ranges", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = "xxhash";
	uint32_t page_size = 4096;
	int per_page = 0, c, status = KB_EXIT_OK;
	struct dump_options dump_opts = { 0 };
	struct kb_err err;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "H:h", opts, NULL)) != -1) {
		switch (c) {
		case 'H': name = optarg; break;
		case 'p': per_page = 1; break;
		case 's':
			if (kb_parse_page_size(optarg, &page_size, &err))
				return cli_fail("sum", &err);
			break;
		case 'f':
			if (dump_format_check(optarg, &err))
				return cli_fail("sum", &err);
			dump_opts.format = optarg;
			break;
		case 'r': dump_opts.lime.ranges = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		default: return cli_bad_option("sum", argv, optopt);
		}
	}
	if ((dump_opts.format || dump_opts.lime.ranges) && !per_page)
		return cli_error("sum", "--input-format and --lime-ranges need --per-page");
	const struct hash_impl *h = hash_select(name, &err);
	if (!h)
		return cli_fail("sum", &err);

	char *stdin_only[] = { "-" };
	char **files = optind < argc ? argv + optind : stdin_only;
	int nfiles = optind < argc ? argc - optind : 1;
	/* A bad file is reported and skipped; the others are still summed. */
	for (int i = 0; i < nfiles; i++) {
		int rc = per_page ? sum_pages(h, files[i], page_size, &dump_opts) : sum_whole(h, files[i]);
		if (rc != KB_EXIT_OK)
			status = rc;
	}
	if (fflush(stdout) != 0)
		return cli_error("sum", "cannot write the output");
	return status;
}
