/* ksmbench sum: checksums of files, whole or per page, in xxhsum's manner:
 * GNU lines "HEX  FILE" or BSD ones with --tag, per-page lines, KSM's
 * 32-bit digest with --ksm, and --check to verify a list. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/size_parse.h"
#include "../hashes/hash_stream.h"
#include "cli.h"
#include "sum.h"
#include "../common/plural.h"

static void usage(void)
{
	printf("usage: ksmbench sum [-H NAME] [--tag] [FILE...]\n"
	       "       ksmbench sum --per-page [--ksm] [-H NAME] [--page-size N] [--input-format F]\n"
	       "                    [--lime-ranges R] [FILE...]\n"
	       "       ksmbench sum -c [-H NAME] [--ksm] [--quiet | --status] [LIST...]\n\n"
	       "Prints 'HEX  FILE' per file (the whole file hashed, read in pieces), with\n"
	       "--tag 'TAG (FILE) = HEX' (XXH32, XXH64, XXH3, XXH128, CRC32C, CRC32, JHASH2),\n"
	       "or with --per-page 'FILE:PAGE_INDEX HEX' per page of a raw file; a trailing\n"
	       "partial page is reported, not hashed. A memory dump (detected from its\n"
	       "content) gives 'FILE:PAGE_INDEX HEX 0xADDRESS' per page, then one line\n"
	       "counting the pages it could not hash. '-' or no FILE reads standard input.\n"
	       "--check verifies lists of any of these lines: 'FILE: OK' or 'FILE: FAILED'\n"
	       "per file (per-page lines: 'FILE:PAGE: FAILED' per page), exit 1 on any\n"
	       "mismatch or unreadable file.\n\n"
	       "  -H, --hash NAME       hash to use (default xxhash, KSM's checksum today);\n"
	       "                        --check: the hash of the lines without a tag\n"
	       "  --tag                 BSD-style lines, as xxhsum --tag\n"
	       "  --per-page            one line per page\n"
	       "  --ksm                 per page: the checksum as KSM stores it, the hash's\n"
	       "                        low 32 bits ((u32)xxhash(page, PAGE_SIZE, 0) by default)\n"
	       "  --page-size N         page size for --per-page (default 4K; multiple of 64)\n"
	       "  --input-format F      %s (default auto)\n"
	       "  --lime-ranges R       ranges of a lime-raw or lime-padded file:\n"
	       "                        START-END[,...] in hex, END inclusive, or @FILE\n"
	       "  -c, --check           verify the checksums listed in each LIST\n"
	       "  -q, --quiet           --check: no line for a file that is OK\n"
	       "  --status              --check: print nothing; the exit status says it\n"
	       "A hash without a streaming form (jhash2, jhash2-lookup2) sums at most %u MiB.\n",
	       dump_format_names(), HASH_STREAM_BUFFER_MAX >> 20);
}

static int sum_whole(const struct sum_options *o, const char *path, int tag)
{
	struct kb_err err;
	char hex[HASH_HEX_MAX], tag_buf[32];

	if (sum_file_digest(o->h, path, hex, &err))
		return cli_fail("sum", &err);
	/* The backslash that marks an escaped name starts the line. */
	printf("%s%s%s", sum_name_escaped(path) ? "\\" : "", tag ? sum_tag_of(o->h, tag_buf, sizeof(tag_buf)) : hex,
	       tag ? " (" : "  ");
	sum_name_put(path);
	if (tag)
		printf(") = %s", hex);
	putchar('\n');
	return KB_EXIT_OK;
}

/* A page line's or a summary's start: the name, escaped (sum_name.c). */
static void put_line_name(const char *path)
{
	if (sum_name_escaped(path))
		putchar('\\');
	sum_name_put(path);
}

/* The lines after a file's pages (sum -c skips them: sum_check.c's
 * is_page_summary, singular and plural). */
static void print_page_summary(const struct page_source *src, const char *path, int raw)
{
	const struct page_stats *st = &src->stats;

	if (raw && !st->partial_pages)
		return;
	put_line_name(path);
	if (raw)
		printf(":%llu partial page of %llu byte%s, not hashed\n",
		       (unsigned long long)st->pages, (unsigned long long)st->partial_bytes, kb_s(st->partial_bytes));
	else
		printf(": %s, %llu page%s hashed; not hashed: %llu hole%s, %llu excluded, "
		       "%llu partial (%llu byte%s), %llu overlapping\n", src->format,
		       (unsigned long long)st->pages, kb_s(st->pages), (unsigned long long)st->holes,
		       kb_s(st->holes), (unsigned long long)st->excluded, (unsigned long long)st->partial_pages,
		       (unsigned long long)st->partial_bytes, kb_s(st->partial_bytes),
		       (unsigned long long)st->overlap);
}

static int sum_pages(const struct sum_options *o, const char *path)
{
	struct kb_err err;
	struct page pg;
	char hex[HASH_HEX_MAX];
	int rc;

	struct page_source *src = dump_source_open(path, o->page_size, &o->dump, &err);
	if (!src)
		return cli_fail("sum", &err);
	int raw = strcmp(src->format, "raw") == 0;
	while ((rc = page_source_next(src, &pg, &err)) == 1) {
		sum_page_hex(o, pg.data, hex);
		put_line_name(path);
		if (raw)
			printf(":%llu %s\n", (unsigned long long)pg.index, hex);
		else
			printf(":%llu %s 0x%llx\n", (unsigned long long)pg.index, hex, (unsigned long long)pg.addr);
	}
	if (rc == 0)
		print_page_summary(src, path, raw);
	page_source_close(src);
	return rc < 0 ? cli_fail("sum", &err) : KB_EXIT_OK;
}

enum { O_PAGE_SIZE = 256, O_FORMAT, O_RANGES, O_TAG, O_KSM, O_STATUS, O_PER_PAGE };

struct sum_modes {
	int per_page, check, tag, page_size_given;
	const char *hash_name;
};

/* Options into o and m: 0, or the exit status of an error. */
static int parse_options(int argc, char **argv, struct sum_options *o, struct sum_modes *m)
{
	static const struct option opts[] = {
		{ "hash", required_argument, NULL, 'H' },       { "per-page", no_argument, NULL, O_PER_PAGE },
		{ "page-size", required_argument, NULL, O_PAGE_SIZE },
		{ "input-format", required_argument, NULL, O_FORMAT },
		{ "lime-ranges", required_argument, NULL, O_RANGES },
		{ "check", no_argument, NULL, 'c' },            { "tag", no_argument, NULL, O_TAG },
		{ "ksm", no_argument, NULL, O_KSM },             { "quiet", no_argument, NULL, 'q' },
		{ "status", no_argument, NULL, O_STATUS },      { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kb_err err;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = cli_getopt_long(argc, argv, "H:cqh", opts, NULL)) != -1) {
		switch (c) {
		case 'H': m->hash_name = optarg; break;
		case O_PER_PAGE: m->per_page = 1; break;
		case O_PAGE_SIZE:
			m->page_size_given = 1;
			if (cli_parse_page_size("sum", optarg, &o->page_size))
				return KB_EXIT_USAGE;
			break;
		case O_FORMAT:
			if (dump_format_check(optarg, &err))
				return cli_fail("sum", &err);
			o->dump.format = optarg;
			break;
		case O_RANGES: o->dump.lime.ranges = optarg; break;
		case 'c': m->check = 1; break;
		case O_TAG: m->tag = 1; break;
		case O_KSM: o->ksm = 1; break;
		case 'q': o->quiet = 1; break;
		case O_STATUS: o->status = 1; break;
		case 'h': usage(); return -1;
		default: return cli_bad_option("sum", argv, optopt);
		}
	}
	return 0;
}

/* Options that only make sense together. */
static int check_modes(const struct sum_options *o, const struct sum_modes *m)
{
	int pages = m->per_page || m->check;

	if ((o->dump.format || o->dump.lime.ranges || m->page_size_given) && !pages)
		return cli_error("sum", "--input-format, --lime-ranges and --page-size need --per-page (or --check)");
	if (o->ksm && !pages)
		return cli_error("sum", "--ksm gives page checksums: it needs --per-page (or --check)");
	if (m->tag && pages)
		return cli_error("sum", "--tag writes whole-file lines: not with --per-page or --check");
	if (m->per_page && m->check)
		return cli_error("sum", "--check reads the kind of each line from the list: no --per-page");
	if ((o->quiet || o->status) && !m->check)
		return cli_error("sum", "--quiet and --status go with --check");
	if (strchr(m->hash_name, ',') || strcmp(m->hash_name, "all") == 0)
		return cli_error("sum", "-H takes one hash name, not a list ('%s')", m->hash_name);
	return 0;
}

int cmd_sum(int argc, char **argv)
{
	struct sum_options o = { .page_size = 4096 };
	struct sum_modes m = { .hash_name = "xxhash" };
	struct kb_err err;
	int status = KB_EXIT_OK, rc;

	if ((rc = parse_options(argc, argv, &o, &m)) != 0)
		return rc < 0 ? KB_EXIT_OK : rc;
	if ((rc = check_modes(&o, &m)) != 0)
		return rc;
	if (!(o.h = hash_select(m.hash_name, &err)))
		return cli_fail("sum", &err);
	if ((m.per_page || m.check) && hash_check_len(o.h, o.page_size, &err))
		return cli_fail("sum", &err);

	char *stdin_only[] = { "-" };
	char **files = optind < argc ? argv + optind : stdin_only;
	int nfiles = optind < argc ? argc - optind : 1;
	if ((rc = cli_stdin_once("sum", files, (size_t)nfiles)) != 0)
		return rc;
	if (m.check)
		status = sum_check_lists(&o, files, nfiles);
	/* A bad file is reported and skipped; the others are still summed. */
	for (int i = 0; !m.check && i < nfiles; i++) {
		rc = m.per_page ? sum_pages(&o, files[i]) : sum_whole(&o, files[i], m.tag);
		if (rc != KB_EXIT_OK)
			status = rc;
	}
	if (fflush(stdout) != 0)
		return cli_output_failed("sum");
	return status;
}
