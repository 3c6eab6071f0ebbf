/* The reports of `ksmbench scan`: a text table per section, one JSON
 * document (schema ksmbench-scan/1), or CSV with one row per hash. */
#include "scan_report.h"

#include <stdlib.h>
#include <string.h>

#include "table.h"

static void hex32(char *buf, size_t len, uint32_t v)
{
	snprintf(buf, len, "%08x", v);
}

/* Prints t if the rows were built (rc 0), frees it, returns the outcome. */
static int print_table(struct table *t, FILE *out, int rc)
{
	if (rc == 0)
		rc = table_print(t, out);
	table_free(t);
	return rc;
}

static int dumps_table(FILE *out, const struct scan_result *r)
{
	struct table *t = table_new(7, "llrrrrr");
	char v[5][32];
	int rc = 0;

	if (!t || table_add_rowf(t, "DUMP", "FORMAT", "pages", "holes", "excluded", "partial", "overlap"))
		rc = -1;
	/* One row per dump, and their sum when there are several. */
	for (size_t i = 0; rc == 0 && i < r->ndumps + (r->ndumps > 1); i++) {
		const struct page_stats *s = i < r->ndumps ? &r->dumps[i].stats : &r->total;
		snprintf(v[0], 32, "%llu", (unsigned long long)s->pages);
		snprintf(v[1], 32, "%llu", (unsigned long long)s->holes);
		snprintf(v[2], 32, "%llu", (unsigned long long)s->excluded);
		snprintf(v[3], 32, "%llu", (unsigned long long)s->partial_pages);
		snprintf(v[4], 32, "%llu", (unsigned long long)s->overlap);
		rc = table_add_rowf(t, i < r->ndumps ? r->dumps[i].path : "(all)",
				    i < r->ndumps ? r->dumps[i].format : "", v[0], v[1], v[2], v[3], v[4]);
	}
	return print_table(t, out, rc);
}

static int ksm_table(FILE *out, const struct scan_result *r)
{
	struct table *t = table_new(3, "lrr");
	char a[32], b[32];
	int rc = t && table_add_rowf(t, "KSM would leave", "use_zero_pages=0", "use_zero_pages=1") == 0 ? 0 : -1;
	const struct census_ksm *k0 = &r->ksm[0], *k1 = &r->ksm[1];
	static const char *const names[] = { "pages_shared", "pages_sharing", "pages_unshared", "ksm_zero_pages" };
	uint64_t v0[] = { k0->pages_shared, k0->pages_sharing, k0->pages_unshared, k0->ksm_zero_pages };
	uint64_t v1[] = { k1->pages_shared, k1->pages_sharing, k1->pages_unshared, k1->ksm_zero_pages };

	for (unsigned i = 0; rc == 0 && i < 4; i++) {
		snprintf(a, sizeof(a), "%llu", (unsigned long long)v0[i]);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)v1[i]);
		rc = table_add_rowf(t, names[i], a, b);
	}
	if (rc == 0) {
		snprintf(a, sizeof(a), "%.1f", (double)k0->pages_saved * r->page_size / 1048576.0);
		snprintf(b, sizeof(b), "%.1f", (double)k1->pages_saved * r->page_size / 1048576.0);
		rc = table_add_rowf(t, "memory saved (MiB)", a, b);
	}
	return print_table(t, out, rc);
}

static int hash_table(FILE *out, const struct scan_result *r)
{
	struct table *t = table_new(11, "llrrrrrrrrr");
	int rc = 0;

	if (!t || table_add_rowf(t, "HASH", "zero_checksum", "contents", "collisions", "expected",
				 "zero_cksum hits", "ns/page p50", "ns/page p90", "ms/full scan",
				 "ms/steady scan", "ksmd CPU %"))
		rc = -1;
	for (unsigned i = 0; rc == 0 && i < r->nhashes; i++) {
		const struct scan_hash *h = &r->hashes[i];
		char z[16], n[32], cp[32], ep[32], zm[32], p50[32] = "-", p90[32] = "-", fs[32] = "-",
			ss[32] = "-", cpu[48] = "-";
		hex32(z, sizeof(z), h->coll.zero_checksum);
		snprintf(n, sizeof(n), "%llu", (unsigned long long)h->coll.contents);
		snprintf(cp, sizeof(cp), "%llu", (unsigned long long)h->coll.colliding_pairs);
		snprintf(ep, sizeof(ep), "%.3g", h->coll.expected_pairs);
		snprintf(zm, sizeof(zm), "%llu", (unsigned long long)h->coll.zero_checksum_matches);
		if (h->timed) {
			snprintf(p50, sizeof(p50), "%.1f", h->ns_per_page_median);
			snprintf(p90, sizeof(p90), "%.1f", h->ns_per_page_p90);
			snprintf(fs, sizeof(fs), "%.3f", h->full_scan_checksum_ms);
			snprintf(ss, sizeof(ss), "%.3f", h->steady_scan_checksum_ms);
			snprintf(cpu, sizeof(cpu), "%.3f (%.3f)", 100 * h->ksmd_checksum_cpu_share,
				 100 * h->ksmd_steady_checksum_cpu_share);
		}
		rc = table_add_rowf(t, h->hash->name, z, n, cp, ep, zm, p50, p90, fs, ss, cpu);
	}
	return print_table(t, out, rc);
}

static void top_bytes(const struct scan_top *x, char *buf, size_t len)
{
	if (x->is_zero)
		snprintf(buf, len, "zero page");
	else if (x->single_byte)
		snprintf(buf, len, "every byte 0x%02x", x->byte_value);
	else
		snprintf(buf, len, "mixed");
}

static int top_table(FILE *out, const struct scan_result *r)
{
	struct table *t = table_new(4, "rrll");
	int rc = t && table_add_rowf(t, "RANK", "COUNT", r->hashes[0].hash->name, "CONTENT") == 0 ? 0 : -1;

	for (size_t i = 0; rc == 0 && i < r->ntop; i++) {
		const struct scan_top *x = &r->top[i];
		char rank[24], count[24], sum[16], what[40];
		snprintf(rank, sizeof(rank), "%zu", i + 1);
		snprintf(count, sizeof(count), "%u", x->entry.count);
		hex32(sum, sizeof(sum), x->is_zero ? r->hashes[0].coll.zero_checksum : x->entry.sum0);
		top_bytes(x, what, sizeof(what));
		rc = table_add_rowf(t, rank, count, sum, what);
	}
	return print_table(t, out, rc);
}

int scan_report_table(FILE *out, const struct scan_result *r)
{
	const struct census_counts *c = &r->counts;

	fprintf(out, "# ksmbench scan: %zu dump%s, %u-byte pages; KSM settings modelled: max_page_sharing %u, "
		     "pages_to_scan %u, sleep_millisecs %u\n",
		r->ndumps, r->ndumps == 1 ? "" : "s", r->page_size, r->max_page_sharing, r->pages_to_scan,
		r->sleep_ms);
	if (dumps_table(out, r))
		return -1;
	fprintf(out, "\n%llu pages: %llu zero, %llu distinct non-zero contents; %llu of them occur more than "
		     "once, in %llu surplus copies (duplicates by full content: %llu compares, %llu key "
		     "collisions)\n\n",
		(unsigned long long)r->total.pages, (unsigned long long)c->zero_pages,
		(unsigned long long)c->distinct, (unsigned long long)r->duplicated_contents,
		(unsigned long long)r->duplicate_pages, (unsigned long long)c->compares,
		(unsigned long long)c->key_collisions);
	if (ksm_table(out, r))
		return -1;
	fputc('\n', out);
	if (hash_table(out, r))
		return -1;
	if (r->sample_pages)
		fprintf(out, "cost: rdtsc per call over %zu sampled pages laid out in a %.0f MiB cold set; ksmd CPU %% "
			     "= checksumming share of one CPU at pages_to_scan/sleep_millisecs, every page "
			     "(once merged)\n",
			r->sample_pages, (double)r->working_set_bytes / 1048576.0);
	else
		fprintf(out, "cost: not measured (--sample-pages 0, or no whole page to sample)\n");
	fprintf(out, "collisions: pairs of different contents with equal 32-bit checksums; expected: "
		     "n(n-1)/2 / 2^32 pairs for an ideal hash\n");
	if (r->ntop) {
		fputc('\n', out);
		if (top_table(out, r))
			return -1;
	}
	return ferror(out) ? -1 : 0;
}

static cJSON *stats_json(const struct page_stats *s)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "pages", (double)s->pages);
	cJSON_AddNumberToObject(o, "holes", (double)s->holes);
	cJSON_AddNumberToObject(o, "excluded", (double)s->excluded);
	cJSON_AddNumberToObject(o, "partial_pages", (double)s->partial_pages);
	cJSON_AddNumberToObject(o, "partial_bytes", (double)s->partial_bytes);
	cJSON_AddNumberToObject(o, "overlap", (double)s->overlap);
	return o;
}

static cJSON *ksm_json(const struct census_ksm *k, uint32_t page_size)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "pages_shared", (double)k->pages_shared);
	cJSON_AddNumberToObject(o, "pages_sharing", (double)k->pages_sharing);
	cJSON_AddNumberToObject(o, "pages_unshared", (double)k->pages_unshared);
	cJSON_AddNumberToObject(o, "ksm_zero_pages", (double)k->ksm_zero_pages);
	cJSON_AddNumberToObject(o, "pages_saved", (double)k->pages_saved);
	cJSON_AddNumberToObject(o, "bytes_saved", (double)k->pages_saved * page_size);
	return o;
}

static cJSON *hash_json(const struct scan_hash *h)
{
	cJSON *o = cJSON_CreateObject();
	char z[16];

	cJSON_AddStringToObject(o, "hash", h->hash->name);
	cJSON_AddStringToObject(o, "implementation", hash_resolve(h->hash)->name);
	hex32(z, sizeof(z), h->coll.zero_checksum);
	cJSON_AddStringToObject(o, "zero_checksum", z);
	cJSON_AddNumberToObject(o, "contents", (double)h->coll.contents);
	cJSON_AddNumberToObject(o, "colliding_pairs", (double)h->coll.colliding_pairs);
	cJSON_AddNumberToObject(o, "expected_colliding_pairs", h->coll.expected_pairs);
	cJSON_AddNumberToObject(o, "colliding_contents", (double)h->coll.colliding_contents);
	cJSON_AddNumberToObject(o, "expected_colliding_contents", h->coll.expected_contents);
	cJSON_AddNumberToObject(o, "zero_checksum_matches", (double)h->coll.zero_checksum_matches);
	report_json_number_or_null(o, "ns_per_page_median", h->timed, h->ns_per_page_median);
	report_json_number_or_null(o, "ns_per_page_p90", h->timed, h->ns_per_page_p90);
	report_json_number_or_null(o, "full_scan_checksum_ms", h->timed, h->full_scan_checksum_ms);
	report_json_number_or_null(o, "steady_scan_checksum_ms", h->timed, h->steady_scan_checksum_ms);
	report_json_number_or_null(o, "ksmd_checksum_cpu_share", h->timed, h->ksmd_checksum_cpu_share);
	report_json_number_or_null(o, "ksmd_steady_checksum_cpu_share", h->timed, h->ksmd_steady_checksum_cpu_share);
	report_json_number_or_null(o, "full_scan_seconds", h->timed, h->full_scan_seconds);
	cJSON_AddItemToObject(o, "timing", h->timed ? report_json_result(&h->bench) : cJSON_CreateNull());
	return o;
}

cJSON *scan_report_json(const struct bench_context *ctx, const struct scan_result *r)
{
	cJSON *doc = cJSON_CreateObject();
	const struct census_counts *c = &r->counts;

	if (!doc)
		return NULL;
	cJSON_AddStringToObject(doc, "schema", SCAN_REPORT_SCHEMA);
	/* The same context object as the results documents. */
	cJSON *context = report_json_context(ctx);
	cJSON_AddItemToObject(doc, "context", context ? context : cJSON_CreateNull());
	cJSON *settings = cJSON_AddObjectToObject(doc, "settings");
	cJSON_AddNumberToObject(settings, "page_size_bytes", r->page_size);
	cJSON_AddNumberToObject(settings, "max_page_sharing", r->max_page_sharing);
	cJSON_AddNumberToObject(settings, "pages_to_scan", r->pages_to_scan);
	cJSON_AddNumberToObject(settings, "sleep_millisecs", r->sleep_ms);
	cJSON_AddNumberToObject(settings, "sample_pages", (double)r->sample_pages);
	cJSON_AddNumberToObject(settings, "working_set_bytes", (double)r->working_set_bytes);
	cJSON *dumps = cJSON_AddArrayToObject(doc, "dumps");
	for (size_t i = 0; i < r->ndumps; i++) {
		cJSON *d = stats_json(&r->dumps[i].stats);
		cJSON_AddStringToObject(d, "path", r->dumps[i].path);
		cJSON_AddStringToObject(d, "format", r->dumps[i].format);
		cJSON_AddBoolToObject(d, "fetchable", r->dumps[i].fetchable);
		cJSON_AddItemToArray(dumps, d);
	}
	cJSON *tot = stats_json(&r->total);
	cJSON_AddNumberToObject(tot, "zero_pages", (double)c->zero_pages);
	cJSON_AddNumberToObject(tot, "distinct_contents", (double)c->distinct);
	cJSON_AddNumberToObject(tot, "duplicated_contents", (double)r->duplicated_contents);
	cJSON_AddNumberToObject(tot, "duplicate_pages", (double)r->duplicate_pages);
	cJSON_AddNumberToObject(tot, "bytes", (double)r->bytes_scanned);
	cJSON_AddItemToObject(doc, "totals", tot);
	cJSON *census = cJSON_AddObjectToObject(doc, "census");
	cJSON_AddNumberToObject(census, "compares", (double)c->compares);
	cJSON_AddNumberToObject(census, "key_collisions", (double)c->key_collisions);
	cJSON_AddNumberToObject(census, "fetches", (double)c->fetches);
	cJSON_AddNumberToObject(census, "spilled_pages", (double)c->spilled);
	cJSON_AddNumberToObject(census, "table_slots", (double)c->table_slots);
	cJSON_AddNumberToObject(census, "table_bytes", (double)c->table_bytes);
	cJSON_AddNumberToObject(census, "elapsed_ns", (double)r->census_ns);
	cJSON_AddNumberToObject(census, "bytes_per_second",
				r->census_ns ? (double)r->bytes_scanned * 1e9 / (double)r->census_ns : 0);
	cJSON *ksm = cJSON_AddObjectToObject(doc, "ksm");
	cJSON_AddItemToObject(ksm, "use_zero_pages_0", ksm_json(&r->ksm[0], r->page_size));
	cJSON_AddItemToObject(ksm, "use_zero_pages_1", ksm_json(&r->ksm[1], r->page_size));
	cJSON *hashes = cJSON_AddArrayToObject(doc, "hashes");
	for (unsigned i = 0; i < r->nhashes; i++)
		cJSON_AddItemToArray(hashes, hash_json(&r->hashes[i]));
	cJSON *top = cJSON_AddArrayToObject(doc, "top");
	for (size_t i = 0; i < r->ntop; i++) {
		const struct scan_top *x = &r->top[i];
		cJSON *o = cJSON_CreateObject();
		char sum[16];
		cJSON_AddNumberToObject(o, "count", x->entry.count);
		hex32(sum, sizeof(sum), x->is_zero ? r->hashes[0].coll.zero_checksum : x->entry.sum0);
		cJSON_AddStringToObject(o, "checksum", sum);
		cJSON_AddBoolToObject(o, "zero_page", x->is_zero);
		cJSON_AddBoolToObject(o, "single_byte", x->single_byte);
		report_json_number_or_null(o, "byte_value", x->single_byte, x->is_zero ? 0 : x->byte_value);
		cJSON_AddItemToArray(top, o);
	}
	return doc;
}

static const char *const csv_columns[] = {
	"hash", "implementation", "dumps", "page_size_bytes", "pages", "zero_pages", "holes", "excluded",
	"partial_pages", "distinct_contents", "duplicated_contents", "duplicate_pages", "max_page_sharing",
	"pages_shared", "pages_sharing", "pages_unshared", "bytes_saved", "pages_shared_zp", "pages_sharing_zp",
	"ksm_zero_pages_zp", "bytes_saved_zp", "zero_checksum", "contents", "colliding_pairs",
	"expected_colliding_pairs", "colliding_contents", "expected_colliding_contents", "zero_checksum_matches",
	"ns_per_page_median", "ns_per_page_p90", "full_scan_checksum_ms", "steady_scan_checksum_ms",
	"pages_to_scan", "sleep_millisecs", "ksmd_checksum_cpu_share", "ksmd_steady_checksum_cpu_share",
};

#define CSV_NCOLUMNS (sizeof(csv_columns) / sizeof(csv_columns[0]))

int scan_report_csv(FILE *out, const struct scan_result *r)
{
	char v[CSV_NCOLUMNS][320];
	const struct census_counts *c = &r->counts;

	for (size_t k = 0; k < CSV_NCOLUMNS; k++)
		report_csv_field(out, csv_columns[k], k + 1 == CSV_NCOLUMNS);
	for (unsigned i = 0; i < r->nhashes; i++) {
		const struct scan_hash *h = &r->hashes[i];
		const struct census_ksm *k0 = &r->ksm[0], *k1 = &r->ksm[1];
		unsigned k = 0;
#define U(x) snprintf(v[k++], sizeof(v[0]), "%llu", (unsigned long long)(x))
#define T(fmt, x) (h->timed ? (void)snprintf(v[k++], sizeof(v[0]), fmt, x) : (void)(v[k++][0] = '\0'))
		snprintf(v[k++], sizeof(v[0]), "%s", h->hash->name);
		snprintf(v[k++], sizeof(v[0]), "%s", hash_resolve(h->hash)->name);
		U(r->ndumps);
		U(r->page_size);
		U(r->total.pages);
		U(c->zero_pages);
		U(r->total.holes);
		U(r->total.excluded);
		U(r->total.partial_pages);
		U(c->distinct);
		U(r->duplicated_contents);
		U(r->duplicate_pages);
		U(r->max_page_sharing);
		U(k0->pages_shared);
		U(k0->pages_sharing);
		U(k0->pages_unshared);
		U(k0->pages_saved * r->page_size);
		U(k1->pages_shared);
		U(k1->pages_sharing);
		U(k1->ksm_zero_pages);
		U(k1->pages_saved * r->page_size);
		hex32(v[k++], sizeof(v[0]), h->coll.zero_checksum);
		U(h->coll.contents);
		U(h->coll.colliding_pairs);
		snprintf(v[k++], sizeof(v[0]), "%.6g", h->coll.expected_pairs);
		U(h->coll.colliding_contents);
		snprintf(v[k++], sizeof(v[0]), "%.6g", h->coll.expected_contents);
		U(h->coll.zero_checksum_matches);
		T("%.2f", h->ns_per_page_median);
		T("%.2f", h->ns_per_page_p90);
		T("%.4f", h->full_scan_checksum_ms);
		T("%.4f", h->steady_scan_checksum_ms);
		U(r->pages_to_scan);
		U(r->sleep_ms);
		T("%.6f", h->ksmd_checksum_cpu_share);
		T("%.6f", h->ksmd_steady_checksum_cpu_share);
#undef U
#undef T
		for (size_t j = 0; j < CSV_NCOLUMNS; j++)
			report_csv_field(out, v[j], j + 1 == CSV_NCOLUMNS);
	}
	return ferror(out) ? -1 : 0;
}
