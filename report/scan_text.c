/* The scan document's text report: what was modelled, then a table per
 * section (the dumps, what KSM would leave, the hashes' collisions and
 * cost, the most duplicated contents), the summary and the legend; the
 * fields the tables show are scan_report.c's. */
#include <string.h>

#include "../common/kernel_release.h"
#include "../common/plural.h"
#include "kinds.h"
#include "record_table.h"
#include "scan_report.h"
#include "text_wrap.h"

/* The rows, as scan_report.c reads them: the document, the scan of the
 * document a row is nested in, a hash's row, a top content's row. */
#define DOC(row) ((const struct report_document *)(row)->item)
#define SCAN_UP(row) (DOC((row)->up)->scan)
#define HASH(row) ((const struct scan_hash *)(row)->item)
#define TOP(row) ((const struct scan_top *)(row)->item)

/* The text report: a table per section, fitted to report_columns() (a
 * dump's path cut in its middle, the hash table in two, the long lines
 * wrapped), or every column and path whole with --wide. */
#define SCAN_PATH_MIN 24u  /* a cut path keeps at least this much */
#define SCAN_WHERE_MIN 30u /* and the WHERE column of the top table */
static int print_table(struct table *t, FILE *out)
{
	int rc = t ? table_print(t, out) : -1;

	table_free(t);
	return rc;
}

/* A row's place counted from 1: a dump's number, a top content's rank. */
static int ordinal_cell(const struct record_row *w, char *buf, size_t size)
{
	snprintf(buf, size, "%zu", w->index + 1);
	return 1;
}

/* Fitted: a number first (the top table's WHERE names dumps by it). */
static const struct record_column dump_columns[] = {
	{ .header = "#", .align = 'r', .cell = ordinal_cell },
	{ .header = "DUMP", .align = 'l', .field = "path" },
	{ .header = "FORMAT", .align = 'l', .field = "format" },
	{ .header = "pages", .align = 'r', .field = "pages" },
	{ .header = "holes", .align = 'r', .field = "holes" },
	{ .header = "excluded", .align = 'r', .field = "excluded" },
	{ .header = "partial", .align = 'r', .field = "partial_pages" },
	{ .header = "overlap", .align = 'r', .field = "overlap" },
};

/* One row per dump, and their sum when there are several. */
static int dumps_table(FILE *out, const struct report_document *doc)
{
	const struct scan_result *r = doc->scan;
	struct record_list dumps = { &scan_dump_schema, &r->dumps[0].stats, r->ndumps, sizeof(r->dumps[0]),
				     { .item = doc } };
	unsigned width = report_columns(doc), skip = width ? 0 : 1; /* --wide: no number */
	const unsigned ncols = sizeof(dump_columns) / sizeof(dump_columns[0]);
	struct table *t = record_table(dump_columns + skip, ncols - skip, &dumps);

	if (t && r->ndumps > 1) {
		struct record_row total = { &r->total, &dumps.up, 0 };
		char cells[5][32];
		for (unsigned c = 3; c < ncols; c++) /* pages .. overlap */
			record_cell(&dump_columns[c], &scan_stats_schema, &total, cells[c - 3], sizeof(cells[0]));
		int rc = skip ? table_add_rowf(t, "(all)", "", cells[0], cells[1], cells[2], cells[3], cells[4])
			      : table_add_rowf(t, "", "(all)", "", cells[0], cells[1], cells[2], cells[3], cells[4]);
		t = table_done(t, rc);
	}
	if (t && width)
		table_fit_middle(t, 1, width, SCAN_PATH_MIN);
	return print_table(t, out);
}

/* Under the KSM table: the counters the modelled release lacks ("-") and
 * the releases they came in; general_profit before 6.6 (no zero pages). */
static int counters_note(FILE *out, const struct scan_result *r, unsigned width)
{
	char list[256] = "";
	size_t n = 0;

	for (unsigned i = 0; i < KSM_SYSFS_FIELDS && n < sizeof(list); i++) {
		const char *since = ksm_counter_missing(&r->rules, scan_ksm_fields[i].name);
		if (since)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s from %s", n ? ", " : "",
					      scan_ksm_fields[i].name, since);
	}
	if (!n)
		return 0;
	return report_wrappedf(out, width, "", "-: kernel %s has no such counter (%s)%s%s", r->rules.release, list,
			       ksm_counter_missing(&r->rules, "general_profit")
				       ? ""
				       : "; its general_profit counts pages_sharing alone, as 6.4 and 6.5 did",
			       r->rules.use_zero_pages ? "" : "; use_zero_pages came in 4.11: only its =0 column applies");
}

/* Transposed: a row per KSM counter, a column per use_zero_pages. */
static int ksm_table(FILE *out, const struct report_document *doc)
{
	const struct scan_result *r = doc->scan;
	struct table *t = table_new(3, "lrr");
	struct record_row top = { doc, NULL, 0 };
	struct record_row zp[2] = { { &r->ksm[0], &top, 0 }, { &r->ksm[1], &top, 0 } };
	int rc = t && table_add_rowf(t, "KSM would leave", "use_zero_pages=0", "use_zero_pages=1") == 0 ? 0 : -1;
	char a[32], b[32];

	for (unsigned i = 0; rc == 0 && i < KSM_SYSFS_FIELDS; i++) {
		const struct record_column c = { .align = 'r', .field = scan_ksm_fields[i].name };
		record_cell(&c, &scan_ksm_schema, &zp[0], a, sizeof(a));
		record_cell(&c, &scan_ksm_schema, &zp[1], b, sizeof(b));
		rc = table_add_rowf(t, scan_ksm_fields[i].name, a, b);
	}
	for (unsigned i = 0; rc == 0 && i < 2; i++) {
		const struct record_column c = { .align = 'r', .field = i ? "bytes_really_saved" : "bytes_saved",
						 .scale = 1.0 / 1048576, .format = "%.1f" };
		record_cell(&c, &scan_ksm_schema, &zp[0], a, sizeof(a));
		record_cell(&c, &scan_ksm_schema, &zp[1], b, sizeof(b));
		rc = table_add_rowf(t, i ? "really saved (MiB)" : "memory saved (MiB)", a, b);
	}
	return print_table(table_done(t, rc), out) || counters_note(out, r, report_columns(doc)) ? -1 : 0;
}

/* ksmd's share of a CPU, every page (and once merged), in percent. */
static int cpu_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct scan_hash *h = HASH(w);

	if (!h->timed)
		return 0;
	snprintf(buf, size, "%.3f (%.3f)", 100 * h->ksmd_checksum_cpu_share, 100 * h->ksmd_steady_checksum_cpu_share);
	return 1;
}

/* --wide shows every column in one table; fitted to the terminal the
 * table comes in two, the collisions then the cost, each beside the hash's
 * name, and the cost without ns/page p90 (with a hash name of 19
 * characters it would take 104 columns of 100). */
enum { SCAN_COLLISIONS = 1, SCAN_COST = 2 };

static const struct scan_hash_column {
	unsigned parts; /* SCAN_COLLISIONS, SCAN_COST: the fitted tables that show it */
	struct record_column col;
} hash_columns[] = {
	{ SCAN_COLLISIONS | SCAN_COST, { .header = "HASH", .align = 'l', .field = "hash" } },
	{ SCAN_COLLISIONS, { .header = "zero_checksum", .align = 'l', .field = "zero_checksum" } },
	{ SCAN_COLLISIONS, { .header = "contents", .align = 'r', .field = "contents" } },
	{ SCAN_COLLISIONS, { .header = "collisions", .align = 'r', .field = "colliding_pairs" } },
	{ SCAN_COLLISIONS,
	  { .header = "expected", .align = 'r', .field = "expected_colliding_pairs", .format = "%.3g" } },
	{ SCAN_COLLISIONS, { .header = "zero_cksum hits", .align = 'r', .field = "zero_checksum_matches" } },
	{ SCAN_COST, { .header = "ns/page p50", .align = 'r', .field = "ns_per_page_median", .format = "%.1f" } },
	{ 0, { .header = "ns/page p90", .align = 'r', .field = "ns_per_page_p90", .format = "%.1f" } },
	{ SCAN_COST,
	  { .header = "cksum ms/scan", .align = 'r', .field = "full_scan_checksum_ms", .format = "%.3f" } },
	{ SCAN_COST, { .header = "steady", .align = 'r', .field = "steady_scan_checksum_ms", .format = "%.3f" } },
	{ SCAN_COST, { .header = "s/full scan", .align = 'r', .field = "full_scan_seconds", .format = "%.2f" } },
	{ SCAN_COST, { .header = "steady", .align = 'r', .field = "steady_full_scan_seconds", .format = "%.2f" } },
	{ SCAN_COST, { .header = "ksmd CPU %", .align = 'r', .cell = cpu_cell } },
};

#define SCAN_HASH_COLUMNS (sizeof(hash_columns) / sizeof(hash_columns[0]))

/* The table of the columns in parts (every column when 0). */
static int hash_table(FILE *out, const struct record_list *hashes, unsigned parts)
{
	struct record_column cols[SCAN_HASH_COLUMNS];
	unsigned n = 0;

	for (unsigned c = 0; c < SCAN_HASH_COLUMNS; c++)
		if (!parts || (hash_columns[c].parts & parts))
			cols[n++] = hash_columns[c].col;
	return print_table(record_table(cols, n, hashes), out);
}

static int hash_tables(FILE *out, const struct report_document *doc)
{
	const struct scan_result *r = doc->scan;
	struct record_list hashes = { &scan_hash_schema, r->hashes, r->nhashes, sizeof(r->hashes[0]), { .item = doc } };

	if (report_columns(doc) == 0)
		return hash_table(out, &hashes, 0);
	return hash_table(out, &hashes, SCAN_COLLISIONS) || fputc('\n', out) == EOF ||
	       hash_table(out, &hashes, SCAN_COST) ? -1 : 0;
}

static int content_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct scan_top *x = TOP(w);

	if (x->is_zero)
		snprintf(buf, size, "zero page");
	else if (x->single_byte)
		snprintf(buf, size, "every byte 0x%02x", x->byte_value);
	else
		snprintf(buf, size, "mixed");
	return 1;
}

/* The dumps holding it: path@first address xcopies, the first few; the
 * dump's number in the dumps table instead of its path when fitted. */
static int where_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct scan_top *x = TOP(w);
	const struct scan_result *r = SCAN_UP(w);
	int numbered = report_columns(DOC(w->up)) != 0;
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < x->nwhere && i < 3 && n < size; i++) {
		char name[32];
		snprintf(name, sizeof(name), "#%u", (unsigned)x->where[i].dump + 1);
		n += (size_t)snprintf(buf + n, size - n, "%s%s@%#llx x%u", i ? "; " : "",
				      numbered ? name : r->dumps[x->where[i].dump].path,
				      (unsigned long long)x->where[i].first_addr, x->where[i].count);
	}
	if (x->dumps_with_copies > 3 && n < size)
		snprintf(buf + n, size - n, " (+%u more dumps)", x->dumps_with_copies - 3);
	else if (!x->located && n < size)
		snprintf(buf + n, size - n, "%s(a pipe or standard input: not read again)", n ? " " : "");
	return 1;
}

/* The checksum column is headed by the first hash's name. */
static int top_table(FILE *out, const struct report_document *doc)
{
	const struct scan_result *r = doc->scan;
	const struct record_column columns[] = {
		{ .header = "RANK", .align = 'r', .cell = ordinal_cell },
		{ .header = "COUNT", .align = 'r', .field = "count" },
		{ .header = r->hashes[0].hash->name, .align = 'l', .field = "checksum" },
		{ .header = "CONTENT", .align = 'l', .cell = content_cell },
		{ .header = report_columns(doc) ? "WHERE (#dump@first address xcopies)"
						: "WHERE (dump@first address xcopies)",
		  .align = 'l', .cell = where_cell },
	};
	struct record_list top = { &scan_top_schema, r->top, r->ntop, sizeof(r->top[0]), { .item = doc } };
	struct table *t = record_table(RECORD_COLUMNS(columns), &top);

	if (t && report_columns(doc))
		table_fit_last(t, report_columns(doc), SCAN_WHERE_MIN);
	return print_table(t, out);
}

static int summary(FILE *out, const struct scan_result *r, unsigned width)
{
	const struct census_counts *c = &r->counts;
	char left[96] = "", volatile_pages[128] = "";

	if (r->mergeable_only)
		snprintf(left, sizeof(left), " (%llu more left out: --mergeable)", (unsigned long long)r->pages_left_out);
	/* Volatile pages never reach the census: without them named, the
	 * zero pages and the contents' copies do not add up to the pages. */
	if (r->pages_volatile)
		snprintf(volatile_pages, sizeof(volatile_pages),
			 "%llu volatile (changed between the capture's snapshots: not counted as contents), ",
			 (unsigned long long)r->pages_volatile);
	uint64_t pages = r->total.pages - r->pages_left_out;
	return fputc('\n', out) == EOF ||
	       report_wrappedf(out, width, "", "%llu page%s%s: %s%llu zero, %llu distinct non-zero content%s; %llu of "
			       "them occur%s more than once, in %llu surplus cop%s (duplicates by full content: %llu "
			       "compare%s, %llu key collision%s)",
			       (unsigned long long)pages, kb_s(pages), left, volatile_pages, (unsigned long long)c->zero_pages,
			       (unsigned long long)c->distinct, kb_s(c->distinct),
			       (unsigned long long)r->duplicated_contents, r->duplicated_contents == 1 ? "s" : "",
			       (unsigned long long)r->duplicate_pages, r->duplicate_pages == 1 ? "y" : "ies",
			       (unsigned long long)c->compares, kb_s(c->compares), (unsigned long long)c->key_collisions,
			       kb_s(c->key_collisions)) ||
	       fputc('\n', out) == EOF;
}

static int legend(FILE *out, const struct scan_result *r, unsigned width)
{
	char smart[160] = "";
	int n = r->smart_scan ? snprintf(smart, sizeof(smart), ", smart_scan visiting what is not merged one scan in %u",
					 KSM_SMART_SCAN_VISIT_EVERY)
			      : 0;

	snprintf(smart + n, sizeof(smart) - (size_t)n, "%s", r->cost_use_zero_pages ? ", use_zero_pages=1 as captured" : "");
	const char *apart = r->nhashes > 0 && r->hashes[0].timed && r->hashes[0].bench.apart ? ", each apart as ksmd's,"
											       : "";
	int rc = r->sample_pages
			 ? report_wrappedf(out, width, "", "cost: rdtsc per call%s over %zu sampled pages laid out "
					   "in a %.0f MiB cold set; cksum ms/scan = checksum time of one full scan, "
					   "s/full scan = how long one takes (ksmd's periods at pages_to_scan/"
					   "sleep_millisecs), each for every page and once merged (steady); ksmd CPU %% = "
					   "checksumming share of one CPU at those settings, every page (once merged%s)",
					   apart, r->sample_pages, (double)r->working_set_bytes / 1048576.0, smart)
			 : report_wrapped(out, "", "cost: not measured (--sample-pages 0, or no whole page to sample)",
					  width);
	return rc || report_wrapped(out, "", "collisions: pairs of different contents with equal 32-bit checksums; "
				    "expected: n(n-1)/2 / 2^32 pairs for an ideal hash", width) ? -1 : 0;
}

/* Whether one of the hashes examined is what KSM checksums pages with
 * under the rules modelled (an alias counts as what it names). */
static int checksum_examined(const struct scan_result *r)
{
	for (unsigned i = 0; i < r->nhashes; i++)
		if (hash_resolve(r->hashes[i].hash) == hash_resolve(r->rules.checksum))
			return 1;
	return 0;
}

/* What was modelled: the kernel whose rules, and KSM's settings. */
static int header(FILE *out, const struct scan_result *r, unsigned width)
{
	char rules[320], sharing[64], bits[96] = "";
	const char *smart = !r->rules.smart_scan ? "no smart_scan (before 6.7)"
			    : r->smart_scan	     ? "smart_scan 1"
						     : "smart_scan 0";

	/* The usual 64-bit kernel goes without saying. */
	if (r->rules.kernel_bits != 64)
		snprintf(bits, sizeof(bits), " (a %u-bit kernel, from %s)", r->rules.kernel_bits,
			 strcmp(r->rules.bits_from, "option") == 0	     ? "--kernel-bits"
			 : strcmp(r->rules.bits_from, "capture") == 0	     ? "the capture's machine"
			 : strcmp(r->rules.bits_from, "this machine") == 0 ? "this machine's kernel"
									     : "this ksmbench's build");
	if (r->rules.release[0])
		snprintf(rules, sizeof(rules), "kernel %s's rules (from %s%s), checksum %s%s", r->rules.release,
			 strcmp(r->rules.source, "option") == 0 ? "--kernel-release" : "the capture",
			 kernel_release_checked_note(r->rules.release), r->rules.checksum->name, bits);
	else
		snprintf(rules, sizeof(rules), "the newest kernel's rules (assumed), checksum %s%s",
			 r->rules.checksum->name, bits);
	if (r->rules.max_page_sharing)
		snprintf(sharing, sizeof(sharing), "max_page_sharing %u", r->max_page_sharing);
	else
		snprintf(sharing, sizeof(sharing), "no max_page_sharing (before 4.13)");
	const char *hz_from = strcmp(r->hz_from, "option") == 0	 ? "--hz"
			      : strcmp(r->hz_from, "capture") == 0 ? "the capture's"
								   : "the kernel's default";
	if (report_wrappedf(out, width, "", "# ksmbench scan: %zu dump%s, %u-byte pages; KSM modelled: %s, %s, "
			    "pages_to_scan %u, sleep_millisecs %u (slept %.0f ms at HZ %u, %s), %s", r->ndumps,
			    kb_s(r->ndumps), r->page_size, rules, sharing, r->pages_to_scan, r->sleep_ms,
			    scan_sleep_taken_ms(r), r->hz, hz_from, smart))
		return -1;
	if (!checksum_examined(r) && !r->default_checksum &&
	    report_wrappedf(out, width, "# ", "note: that kernel's KSM checksums pages with %s, which -H left out: "
			    "the checksum tables below are not KSM's", r->rules.checksum->name))
		return -1;
	/* The capture's note came through a pipe, after the default was set. */
	if (!checksum_examined(r) && r->default_checksum &&
	    report_wrappedf(out, width, "# ", "note: that kernel's KSM checksums pages with %s, which the default "
			    "(%s) is not: a capture read through a pipe names its kernel only as it is read, after "
			    "the default was chosen; the checksum tables below are not KSM's (-H %s examines it)", r->rules.checksum->name,
			    r->hashes[0].hash->name, r->rules.checksum->name))
		return -1;
	if (r->capture_pages_to_scan_advised &&
	    report_wrappedf(out, width, "# ", "note: the capture's pages_to_scan %u was the scan-time advisor's choice "
			    "then (advisor_mode scan-time), which it changes after every full scan toward one full scan "
			    "in advisor_target_scan_time seconds: the figures in time are at that value (--pages-to-scan "
			    "models another)", r->pages_to_scan))
		return -1;
	if (r->capture_pages_to_scan_zero &&
	    report_wrappedf(out, width, "# ", "note: the capture's pages_to_scan is 0 (ksmd scanned nothing): the "
			    "cost is modelled at %u", r->pages_to_scan))
		return -1;
	/* The model knows only the checksums' time: without a sleep they are
	 * all of ksmd's time it knows. */
	if (r->sleep_ms == 0 && r->rules.zero_sleep_skips && r->sample_pages &&
	    report_wrappedf(out, width, "# ", "note: sleep_millisecs 0: ksmd never sleeps and takes a whole CPU; "
			    "ksmd CPU %% reads 100 because the model counts no work of ksmd's but the checksums "
			    "(its compares and tree walks take part of that CPU)"))
		return -1;
	for (size_t i = 0; i < r->ndumps; i++) {
		const struct scan_dump *d = &r->dumps[i];
		char some[48] = "none";
		if (d->pages_mergeable)
			snprintf(some, sizeof(some), "only %llu", (unsigned long long)d->pages_mergeable);
		if (d->mergeable_known && d->pages_mergeable < d->stats.pages &&
		    report_wrappedf(out, width, "# ", "note: KSM may merge %s of dump %zu's %llu pages (anonymous "
				    "pages in mappings with MADV_MERGEABLE or prctl PR_SET_MEMORY_MERGE); %s",
				    some, i + 1, (unsigned long long)d->stats.pages,
				    r->mergeable_only ? "--mergeable left the others out"
						      : "the model takes every page as if offered (--mergeable leaves "
							"the others out)"))
			return -1;
		if (r->mergeable_only && !d->mergeable_known &&
		    report_wrappedf(out, width, "# ", "note: dump %zu does not say which of its pages KSM may merge "
				    "(no ksmbench capture that records it): --mergeable takes it whole", i + 1))
			return -1;
		if (d->words_page_size && d->words_page_size != r->page_size &&
		    report_wrappedf(out, width, "# ", "note: dump %zu's page words are for %u-byte pages, not %u: its "
				    "volatile pages, THPs and PFNs are left out of the model", i + 1, d->words_page_size,
				    r->page_size))
			return -1;
	}
	return 0;
}

int scan_report_table(FILE *out, const struct report_document *doc)
{
	const struct scan_result *r = doc->scan;
	unsigned width = report_columns(doc);

	if (header(out, r, width))
		return -1;
	if (dumps_table(out, doc) || summary(out, r, width) || ksm_table(out, doc) || fputc('\n', out) == EOF ||
	    hash_tables(out, doc) || legend(out, r, width))
		return -1;
	if (r->ntop && (fputc('\n', out) == EOF || top_table(out, doc)))
		return -1;
	if (r->top_requested && !r->ntop && !r->pages_left_out &&
	    report_wrappedf(out, width, "\n", "--top %u: no content has two copies or more (every page unique, "
			    "and none zero)", r->top_requested))
		return -1;
	if (r->top_requested && !r->ntop && r->pages_left_out &&
	    report_wrappedf(out, width, "\n", "--top %u: no content has two copies or more among the pages "
			    "counted (each unique, none zero; --mergeable left out %llu)", r->top_requested,
			    (unsigned long long)r->pages_left_out))
		return -1;
	return 0;
}
