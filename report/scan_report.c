/* The scan document (schema ksmbench-scan/1): its fields and its CSV rows
 * (one per hash, the document's totals repeated on each). The text report,
 * a table per section: scan_text.c. */
#include "scan_report.h"

#include "kinds.h"
#include "result_fields.h"

#define SCAN_SCHEMA "ksmbench-scan/1"

#define DOC(row) ((const struct report_document *)(row)->item)
#define STATS(row) ((const struct page_stats *)(row)->item)
#define KSM(row) ((const struct census_ksm *)(row)->item)
#define HASH(row) ((const struct scan_hash *)(row)->item)
#define TOP(row) ((const struct scan_top *)(row)->item)
/* The scan of the document a row is nested in, and of a CSV row's up. */
#define SCAN_UP(row) (DOC((row)->up)->scan)
#define SCAN(row) (DOC(row)->scan)

/* The dumps' and the totals' page counts. */
RECORD_GETTER(p_pages, record_uint(v, STATS(w)->pages))
RECORD_GETTER(p_holes, record_uint(v, STATS(w)->holes))
RECORD_GETTER(p_excluded, record_uint(v, STATS(w)->excluded))
RECORD_GETTER(p_partial, record_uint(v, STATS(w)->partial_pages))
RECORD_GETTER(p_partial_bytes, record_uint(v, STATS(w)->partial_bytes))
RECORD_GETTER(p_overlap, record_uint(v, STATS(w)->overlap))

static const struct record_field stats_fields[] = {
	{ .name = "pages", .type = RECORD_UINT, .get = p_pages },
	{ .name = "holes", .type = RECORD_UINT, .get = p_holes },
	{ .name = "excluded", .type = RECORD_UINT, .get = p_excluded },
	{ .name = "partial_pages", .type = RECORD_UINT, .get = p_partial },
	{ .name = "partial_bytes", .type = RECORD_UINT, .get = p_partial_bytes },
	{ .name = "overlap", .type = RECORD_UINT, .get = p_overlap },
};

const struct record_schema scan_stats_schema = { NULL, RECORD_FIELDS(stats_fields), NULL, 0 };

/* A dump's row: its stats, element index of the document's dumps. */
#define DUMP(row) (&SCAN_UP(row)->dumps[(row)->index])
RECORD_GETTER(d_path, record_str(v, DUMP(w)->path))
RECORD_GETTER(d_format, record_str(v, DUMP(w)->format))
RECORD_GETTER(d_fetchable, record_bool(v, DUMP(w)->fetchable))
RECORD_GETTER(d_zero, record_uint(v, DUMP(w)->zero_pages))
RECORD_GETTER(d_within, record_uint(v, DUMP(w)->within_dump_duplicates))
RECORD_GETTER(d_across, record_uint(v, DUMP(w)->across_dump_duplicates))
RECORD_GETTER(d_captured, record_bool(v, DUMP(w)->captured))
RECORD_GETTER(d_words, DUMP(w)->captured && record_bool(v, DUMP(w)->page_words))
RECORD_GETTER(d_pfn, DUMP(w)->captured && record_bool(v, DUMP(w)->pfn_known))
RECORD_GETTER(d_two, DUMP(w)->captured && record_bool(v, DUMP(w)->two_snapshots))
RECORD_GETTER(d_interval, DUMP(w)->two_snapshots && record_uint(v, DUMP(w)->interval_ns))
RECORD_GETTER(d_volatile, DUMP(w)->captured && record_uint(v, DUMP(w)->pages_volatile))
RECORD_GETTER(d_zpm, DUMP(w)->captured && record_uint(v, DUMP(w)->zero_page_mapped))
RECORD_GETTER(d_mergeable, DUMP(w)->mergeable_known && record_uint(v, DUMP(w)->pages_mergeable))
RECORD_GETTER(d_left_out, record_uint(v, DUMP(w)->pages_left_out))
RECORD_GETTER(d_release, DUMP(w)->system.kernel_release[0] && record_str(v, DUMP(w)->system.kernel_release))

static const struct record_field dump_fields[] = {
	{ .name = "path", .type = RECORD_STR, .get = d_path },
	{ .name = "format", .type = RECORD_STR, .get = d_format },
	{ .name = "fetchable", .type = RECORD_BOOL, .get = d_fetchable },
	{ .name = "zero_pages", .type = RECORD_UINT, .get = d_zero },
	{ .name = "within_dump_duplicates", .type = RECORD_UINT, .get = d_within },
	{ .name = "across_dump_duplicates", .type = RECORD_UINT, .get = d_across },
	{ .name = "captured", .type = RECORD_BOOL, .get = d_captured },
	{ .name = "page_words", .type = RECORD_BOOL, .get = d_words },
	{ .name = "pfn_known", .type = RECORD_BOOL, .get = d_pfn },
	{ .name = "two_snapshots", .type = RECORD_BOOL, .get = d_two },
	{ .name = "interval_ns", .type = RECORD_UINT, .get = d_interval },
	{ .name = "pages_volatile", .type = RECORD_UINT, .get = d_volatile },
	{ .name = "zero_page_mapped", .type = RECORD_UINT, .get = d_zpm },
	{ .name = "pages_mergeable", .type = RECORD_UINT, .get = d_mergeable },
	{ .name = "pages_left_out", .type = RECORD_UINT, .get = d_left_out },
	{ .name = "kernel_release", .type = RECORD_STR, .get = d_release },
};

const struct record_schema scan_dump_schema = { &scan_stats_schema, RECORD_FIELDS(dump_fields), NULL, 0 };

/* Totals: the stats of every dump, nested in the document. */
RECORD_GETTER(t_zero, record_uint(v, SCAN_UP(w)->counts.zero_pages))
RECORD_GETTER(t_distinct, record_uint(v, SCAN_UP(w)->counts.distinct))
RECORD_GETTER(t_duplicated, record_uint(v, SCAN_UP(w)->duplicated_contents))
RECORD_GETTER(t_duplicates, record_uint(v, SCAN_UP(w)->duplicate_pages))
RECORD_GETTER(t_bytes, record_uint(v, SCAN_UP(w)->bytes_scanned))
RECORD_GETTER(t_within, record_uint(v, SCAN_UP(w)->within_dump_duplicates))
RECORD_GETTER(t_across, record_uint(v, SCAN_UP(w)->across_dump_duplicates))
RECORD_GETTER(t_volatile, record_uint(v, SCAN_UP(w)->pages_volatile))
RECORD_GETTER(t_zpm, record_uint(v, SCAN_UP(w)->zero_page_mapped))
RECORD_GETTER(t_left_out, record_uint(v, SCAN_UP(w)->pages_left_out))

static const struct record_field totals_fields[] = {
	{ .name = "zero_pages", .type = RECORD_UINT, .get = t_zero },
	{ .name = "distinct_contents", .type = RECORD_UINT, .get = t_distinct },
	{ .name = "duplicated_contents", .type = RECORD_UINT, .get = t_duplicated },
	{ .name = "duplicate_pages", .type = RECORD_UINT, .get = t_duplicates },
	{ .name = "bytes", .type = RECORD_UINT, .get = t_bytes },
	{ .name = "within_dump_duplicates", .type = RECORD_UINT, .get = t_within },
	{ .name = "across_dump_duplicates", .type = RECORD_UINT, .get = t_across },
	{ .name = "pages_volatile", .type = RECORD_UINT, .get = t_volatile },
	{ .name = "zero_page_mapped", .type = RECORD_UINT, .get = t_zpm },
	{ .name = "pages_left_out", .type = RECORD_UINT, .get = t_left_out },
};

static const struct record_schema totals_schema = { &scan_stats_schema, RECORD_FIELDS(totals_fields), NULL, 0 };

/* What KSM would leave, nested in the document's ksm object. */
RECORD_GETTER(k_shared, record_uint(v, KSM(w)->pages_shared))
RECORD_GETTER(k_sharing, record_uint(v, KSM(w)->pages_sharing))
RECORD_GETTER(k_unshared, record_uint(v, KSM(w)->pages_unshared))
/* null where the rules' release has no such counter */
#define IN_RELEASE(name) (!ksm_counter_missing(&SCAN_UP(w)->rules, name))
RECORD_GETTER(k_zero, IN_RELEASE("ksm_zero_pages") && record_uint(v, KSM(w)->ksm_zero_pages))
RECORD_GETTER(k_saved, record_uint(v, KSM(w)->pages_saved))
RECORD_GETTER(k_bytes, record_uint(v, KSM(w)->pages_saved * SCAN_UP(w)->page_size))
RECORD_GETTER(k_volatile, record_uint(v, KSM(w)->pages_volatile))
RECORD_GETTER(k_chains, IN_RELEASE("stable_node_chains") && record_uint(v, KSM(w)->stable_node_chains))
RECORD_GETTER(k_dups, IN_RELEASE("stable_node_dups") && record_uint(v, KSM(w)->stable_node_dups))
RECORD_GETTER(k_thp, record_uint(v, KSM(w)->thp_zero_subpages))
RECORD_GETTER(k_rmap, record_uint(v, KSM(w)->rmap_items))
RECORD_GETTER(k_profit, IN_RELEASE("general_profit") && record_int(v, KSM(w)->general_profit_bytes))
RECORD_GETTER(k_already, record_uint(v, KSM(w)->pages_already_shared))
RECORD_GETTER(k_really, record_uint(v, KSM(w)->pages_really_saved))
RECORD_GETTER(k_really_bytes, record_uint(v, KSM(w)->pages_really_saved * SCAN_UP(w)->page_size))
#define STEADY(w) ksm_steady_scan(KSM(w), SCAN_UP(w)->smart_scan)
RECORD_GETTER(k_steady_visited, record_real(v, STEADY(w).visited))
RECORD_GETTER(k_steady_summed, record_real(v, STEADY(w).checksummed))
/* null where the release has no smart_scan, as its pages_skipped */
RECORD_GETTER(k_steady_skipped, SCAN_UP(w)->rules.smart_scan && record_real(v, STEADY(w).skipped))

/* The first KSM_SYSFS_FIELDS of them are the kernel's counters, by its
 * names (scan_report.h). */
const struct record_field scan_ksm_fields[] = {
	{ .name = "pages_shared", .type = RECORD_UINT, .get = k_shared },
	{ .name = "pages_sharing", .type = RECORD_UINT, .get = k_sharing },
	{ .name = "pages_unshared", .type = RECORD_UINT, .get = k_unshared },
	{ .name = "pages_volatile", .type = RECORD_UINT, .get = k_volatile },
	{ .name = "ksm_zero_pages", .type = RECORD_UINT, .get = k_zero },
	{ .name = "stable_node_chains", .type = RECORD_UINT, .get = k_chains },
	{ .name = "stable_node_dups", .type = RECORD_UINT, .get = k_dups },
	{ .name = "general_profit", .type = RECORD_INT, .get = k_profit },
	{ .name = "pages_saved", .type = RECORD_UINT, .get = k_saved },
	{ .name = "bytes_saved", .type = RECORD_UINT, .get = k_bytes },
	{ .name = "thp_zero_subpages", .type = RECORD_UINT, .get = k_thp },
	{ .name = "rmap_items", .type = RECORD_UINT, .get = k_rmap },
	{ .name = "pages_already_shared", .type = RECORD_UINT, .get = k_already },
	{ .name = "pages_really_saved", .type = RECORD_UINT, .get = k_really },
	{ .name = "bytes_really_saved", .type = RECORD_UINT, .get = k_really_bytes },
	{ .name = "steady_scan_visited_pages", .type = RECORD_REAL, .get = k_steady_visited },
	{ .name = "steady_scan_checksummed_pages", .type = RECORD_REAL, .get = k_steady_summed },
	{ .name = "steady_scan_skipped_pages", .type = RECORD_REAL, .get = k_steady_skipped },
};

const struct record_schema scan_ksm_schema = { NULL, RECORD_FIELDS(scan_ksm_fields), NULL, 0 };

RECORD_GETTER(k_zp0, record_item(v, &DOC(w)->scan->ksm[0]))
RECORD_GETTER(k_zp1, record_item(v, &DOC(w)->scan->ksm[1]))

static const struct record_field ksm_pair_fields[] = {
	{ .name = "use_zero_pages_0", .type = RECORD_OBJECT, .get = k_zp0, .sub = &scan_ksm_schema },
	{ .name = "use_zero_pages_1", .type = RECORD_OBJECT, .get = k_zp1, .sub = &scan_ksm_schema },
};

static const struct record_schema ksm_pair_schema = { NULL, RECORD_FIELDS(ksm_pair_fields), NULL, 0 };

/* Per hash: collisions against an ideal hash, and the cost. */
static int timed(const struct scan_hash *h, struct record_value *v, double x)
{
	return h->timed && record_real(v, x);
}

RECORD_GETTER(h_hash, record_str(v, HASH(w)->hash->name))
RECORD_GETTER(h_impl, record_str(v, hash_resolve(HASH(w)->hash)->name))
RECORD_GETTER(h_zero_sum, record_strf(v, "%08x", HASH(w)->coll.zero_checksum))
RECORD_GETTER(h_contents, record_uint(v, HASH(w)->coll.contents))
RECORD_GETTER(h_pairs, record_uint(v, HASH(w)->coll.colliding_pairs))
RECORD_GETTER(h_expected_pairs, record_real(v, HASH(w)->coll.expected_pairs))
RECORD_GETTER(h_coll_contents, record_uint(v, HASH(w)->coll.colliding_contents))
RECORD_GETTER(h_expected_contents, record_real(v, HASH(w)->coll.expected_contents))
RECORD_GETTER(h_zero_matches, record_uint(v, HASH(w)->coll.zero_checksum_matches))
RECORD_GETTER(h_ns_median, timed(HASH(w), v, HASH(w)->ns_per_page_median))
RECORD_GETTER(h_ns_p90, timed(HASH(w), v, HASH(w)->ns_per_page_p90))
RECORD_GETTER(h_full_ms, timed(HASH(w), v, HASH(w)->full_scan_checksum_ms))
RECORD_GETTER(h_steady_ms, timed(HASH(w), v, HASH(w)->steady_scan_checksum_ms))
RECORD_GETTER(h_cpu, timed(HASH(w), v, HASH(w)->ksmd_checksum_cpu_share))
RECORD_GETTER(h_steady_cpu, timed(HASH(w), v, HASH(w)->ksmd_steady_checksum_cpu_share))
RECORD_GETTER(h_full_s, timed(HASH(w), v, HASH(w)->full_scan_seconds))
RECORD_GETTER(h_steady_full_s, timed(HASH(w), v, HASH(w)->steady_full_scan_seconds))
RECORD_GETTER(h_timing, HASH(w)->timed && record_item(v, &HASH(w)->bench))

static const struct record_field hash_fields[] = {
	{ .name = "hash", .type = RECORD_STR, .get = h_hash },
	{ .name = "implementation", .type = RECORD_STR, .get = h_impl },
	{ .name = "zero_checksum", .type = RECORD_STR, .get = h_zero_sum },
	{ .name = "contents", .type = RECORD_UINT, .get = h_contents },
	{ .name = "colliding_pairs", .type = RECORD_UINT, .get = h_pairs },
	{ .name = "expected_colliding_pairs", .type = RECORD_REAL, .format = "%.6g", .get = h_expected_pairs },
	{ .name = "colliding_contents", .type = RECORD_UINT, .get = h_coll_contents },
	{ .name = "expected_colliding_contents", .type = RECORD_REAL, .format = "%.6g",
	  .get = h_expected_contents },
	{ .name = "zero_checksum_matches", .type = RECORD_UINT, .get = h_zero_matches },
	{ .name = "ns_per_page_median", .type = RECORD_REAL, .format = "%.2f", .get = h_ns_median },
	{ .name = "ns_per_page_p90", .type = RECORD_REAL, .format = "%.2f", .get = h_ns_p90 },
	{ .name = "full_scan_checksum_ms", .type = RECORD_REAL, .format = "%.4f", .get = h_full_ms },
	{ .name = "steady_scan_checksum_ms", .type = RECORD_REAL, .format = "%.4f", .get = h_steady_ms },
	{ .name = "ksmd_checksum_cpu_share", .type = RECORD_REAL, .format = "%.6f", .get = h_cpu },
	{ .name = "ksmd_steady_checksum_cpu_share", .type = RECORD_REAL, .format = "%.6f",
	  .get = h_steady_cpu },
	{ .name = "full_scan_seconds", .type = RECORD_REAL, .get = h_full_s },
	{ .name = "steady_full_scan_seconds", .type = RECORD_REAL, .get = h_steady_full_s },
	{ .name = "timing", .type = RECORD_OBJECT, .get = h_timing, .sub = &report_result_schema },
};

const struct record_schema scan_hash_schema = { NULL, RECORD_FIELDS(hash_fields), NULL, 0 };

/* The most duplicated contents; the zero page's checksum is the first hash's. */
RECORD_GETTER(o_count, record_uint(v, TOP(w)->entry.count))
RECORD_GETTER(o_sum, record_strf(v, "%08x", TOP(w)->is_zero ? SCAN_UP(w)->hashes[0].coll.zero_checksum
							    : TOP(w)->entry.sum0))
RECORD_GETTER(o_zero, record_bool(v, TOP(w)->is_zero))
RECORD_GETTER(o_single, record_bool(v, TOP(w)->single_byte))
RECORD_GETTER(o_byte, TOP(w)->single_byte && record_uint(v, TOP(w)->is_zero ? 0 : TOP(w)->byte_value))

/* Where a top content lies: a row per kept dump, nested in the top row,
 * itself nested in the document. */
#define WHERE(row) ((const struct scan_top_where *)(row)->item)
#define WHERE_SCAN(row) (DOC((row)->up->up)->scan)
RECORD_GETTER(w_dump, record_str(v, WHERE_SCAN(w)->dumps[WHERE(w)->dump].path))
RECORD_GETTER(w_index, record_uint(v, WHERE(w)->dump))
RECORD_GETTER(w_count, record_uint(v, WHERE(w)->count))
RECORD_GETTER(w_addr, record_uint(v, WHERE(w)->first_addr))

static const struct record_field where_fields[] = {
	{ .name = "dump", .type = RECORD_STR, .get = w_dump },
	{ .name = "index", .type = RECORD_UINT, .get = w_index },
	{ .name = "count", .type = RECORD_UINT, .get = w_count },
	{ .name = "first_address", .type = RECORD_UINT, .get = w_addr },
};

static const struct record_schema where_schema = { NULL, RECORD_FIELDS(where_fields), NULL, 0 };

RECORD_GETTER(o_where, record_item(v, &TOP(w)->where[w->index]))
RECORD_GETTER(o_dumps, record_uint(v, TOP(w)->dumps_with_copies))
RECORD_GETTER(o_located, record_bool(v, TOP(w)->located))

static size_t n_where(const struct record_row *w)
{
	return TOP(w)->nwhere;
}

static const struct record_field top_fields[] = {
	{ .name = "count", .type = RECORD_UINT, .get = o_count },
	{ .name = "checksum", .type = RECORD_STR, .get = o_sum },
	{ .name = "zero_page", .type = RECORD_BOOL, .get = o_zero },
	{ .name = "single_byte", .type = RECORD_BOOL, .get = o_single },
	{ .name = "byte_value", .type = RECORD_UINT, .get = o_byte },
	{ .name = "dumps_with_copies", .type = RECORD_UINT, .get = o_dumps },
	{ .name = "located", .type = RECORD_BOOL, .get = o_located },
	{ .name = "where", .type = RECORD_OBJECT, .get = o_where, .count = n_where, .sub = &where_schema },
};

const struct record_schema scan_top_schema = { NULL, RECORD_FIELDS(top_fields), NULL, 0 };

/* ksmd's sleep as the kernel takes it: a batch's period without its work. */
double scan_sleep_taken_ms(const struct scan_result *r)
{
	struct ksmd_schedule k = scan_schedule(r);

	return ksmd_batch_period_ns(&k, 0) / 1e6;
}

/* The document's own fields. */
RECORD_GETTER(s_schema, record_str(v, SCAN_SCHEMA))
RECORD_GETTER(s_context, record_item(v, DOC(w)->ctx))
RECORD_GETTER(s_self, record_item(v, DOC(w)))
RECORD_GETTER(s_page, record_uint(v, SCAN(w)->page_size))
RECORD_GETTER(s_mps, record_uint(v, SCAN(w)->max_page_sharing))
RECORD_GETTER(s_pts, record_uint(v, SCAN(w)->pages_to_scan))
RECORD_GETTER(s_sleep, record_uint(v, SCAN(w)->sleep_ms))
RECORD_GETTER(s_hz, record_uint(v, SCAN(w)->hz))
RECORD_GETTER(s_hz_from, record_str(v, SCAN(w)->hz_from))
RECORD_GETTER(s_sleep_taken, record_real(v, scan_sleep_taken_ms(SCAN(w))))
RECORD_GETTER(s_sample, record_uint(v, SCAN(w)->sample_pages))
RECORD_GETTER(s_ws, record_uint(v, SCAN(w)->working_set_bytes))
RECORD_GETTER(s_release, SCAN(w)->rules.release[0] && record_str(v, SCAN(w)->rules.release))
RECORD_GETTER(s_rules_from, record_str(v, SCAN(w)->rules.source))
RECORD_GETTER(s_thp_rule, record_bool(v, SCAN(w)->rules.thp_split_zero_remap))
RECORD_GETTER(s_mps_rule, record_bool(v, SCAN(w)->rules.max_page_sharing))
RECORD_GETTER(s_uzp_rule, record_bool(v, SCAN(w)->rules.use_zero_pages))
RECORD_GETTER(s_smart, record_bool(v, SCAN(w)->smart_scan))
RECORD_GETTER(s_mergeable, record_bool(v, SCAN(w)->mergeable_only))
RECORD_GETTER(s_smart_rule, record_bool(v, SCAN(w)->rules.smart_scan))
RECORD_GETTER(s_cost_zp, record_uint(v, (uint64_t)SCAN(w)->cost_use_zero_pages))
RECORD_GETTER(s_checksum_rule, record_str(v, SCAN(w)->rules.checksum->name))
RECORD_GETTER(s_rmap, record_uint(v, ksm_rmap_item_bytes(&SCAN(w)->rules)))
RECORD_GETTER(s_bits, record_uint(v, SCAN(w)->rules.kernel_bits))
RECORD_GETTER(s_bits_from, record_str(v, SCAN(w)->rules.bits_from))
RECORD_GETTER(s_dump, record_item(v, &SCAN(w)->dumps[w->index].stats))
RECORD_GETTER(s_totals, record_item(v, &SCAN(w)->total))
RECORD_GETTER(s_hash, record_item(v, &SCAN(w)->hashes[w->index]))
RECORD_GETTER(s_top, record_item(v, &SCAN(w)->top[w->index]))
RECORD_GETTER(c_compares, record_uint(v, SCAN(w)->counts.compares))
RECORD_GETTER(c_key_collisions, record_uint(v, SCAN(w)->counts.key_collisions))
RECORD_GETTER(c_fetches, record_uint(v, SCAN(w)->counts.fetches))
RECORD_GETTER(c_spilled, record_uint(v, SCAN(w)->counts.spilled))
RECORD_GETTER(c_slots, record_uint(v, SCAN(w)->counts.table_slots))
RECORD_GETTER(c_table_bytes, record_uint(v, SCAN(w)->counts.table_bytes))
RECORD_GETTER(c_elapsed, record_uint(v, SCAN(w)->census_ns))
RECORD_GETTER(c_rate, record_real(v, SCAN(w)->census_ns ? (double)SCAN(w)->bytes_scanned * 1e9 /
								  (double)SCAN(w)->census_ns : 0))

static size_t n_dumps(const struct record_row *w)
{
	return SCAN(w)->ndumps;
}

static size_t n_hashes(const struct record_row *w)
{
	return SCAN(w)->nhashes;
}

static size_t n_top(const struct record_row *w)
{
	return SCAN(w)->ntop;
}

static const struct record_field settings_fields[] = {
	{ .name = "page_size_bytes", .type = RECORD_UINT, .get = s_page },
	{ .name = "max_page_sharing", .type = RECORD_UINT, .get = s_mps },
	{ .name = "pages_to_scan", .type = RECORD_UINT, .get = s_pts },
	{ .name = "sleep_millisecs", .type = RECORD_UINT, .get = s_sleep },
	{ .name = "hz", .type = RECORD_UINT, .get = s_hz },
	{ .name = "hz_from", .type = RECORD_STR, .get = s_hz_from },
	{ .name = "sleep_taken_ms", .type = RECORD_REAL, .format = "%.3f", .get = s_sleep_taken },
	{ .name = "sample_pages", .type = RECORD_UINT, .get = s_sample },
	{ .name = "working_set_bytes", .type = RECORD_UINT, .get = s_ws },
	{ .name = "kernel_release", .type = RECORD_STR, .get = s_release },
	{ .name = "kernel_rules_from", .type = RECORD_STR, .get = s_rules_from },
	{ .name = "thp_split_maps_zero_subpages", .type = RECORD_BOOL, .get = s_thp_rule },
	{ .name = "max_page_sharing_applies", .type = RECORD_BOOL, .get = s_mps_rule },
	{ .name = "use_zero_pages_applies", .type = RECORD_BOOL, .get = s_uzp_rule },
	{ .name = "smart_scan", .type = RECORD_BOOL, .get = s_smart },
	{ .name = "smart_scan_applies", .type = RECORD_BOOL, .get = s_smart_rule },
	{ .name = "cost_use_zero_pages", .type = RECORD_UINT, .get = s_cost_zp },
	{ .name = "ksm_checksum", .type = RECORD_STR, .get = s_checksum_rule },
	{ .name = "rmap_item_bytes", .type = RECORD_UINT, .get = s_rmap },
	{ .name = "kernel_bits", .type = RECORD_UINT, .get = s_bits },
	{ .name = "kernel_bits_from", .type = RECORD_STR, .get = s_bits_from },
	{ .name = "mergeable_only", .type = RECORD_BOOL, .get = s_mergeable },
};

/* Settings are fields of the document itself (their row: the document). */
static const struct record_schema settings_schema = { NULL, RECORD_FIELDS(settings_fields), NULL, 0 };

static const struct record_field census_fields[] = {
	{ .name = "compares", .type = RECORD_UINT, .get = c_compares },
	{ .name = "key_collisions", .type = RECORD_UINT, .get = c_key_collisions },
	{ .name = "fetches", .type = RECORD_UINT, .get = c_fetches },
	{ .name = "spilled_pages", .type = RECORD_UINT, .get = c_spilled },
	{ .name = "table_slots", .type = RECORD_UINT, .get = c_slots },
	{ .name = "table_bytes", .type = RECORD_UINT, .get = c_table_bytes },
	{ .name = "elapsed_ns", .type = RECORD_UINT, .get = c_elapsed },
	{ .name = "bytes_per_second", .type = RECORD_REAL, .get = c_rate },
};

static const struct record_schema census_schema = { NULL, RECORD_FIELDS(census_fields), NULL, 0 };

static const struct record_field document_fields[] = {
	{ .name = "schema", .type = RECORD_STR, .get = s_schema },
	{ .name = "context", .type = RECORD_OBJECT, .get = s_context, .sub = &report_context_schema },
	{ .name = "settings", .type = RECORD_OBJECT, .get = s_self, .sub = &settings_schema },
	{ .name = "dumps", .type = RECORD_OBJECT, .get = s_dump, .count = n_dumps, .sub = &scan_dump_schema },
	{ .name = "totals", .type = RECORD_OBJECT, .get = s_totals, .sub = &totals_schema },
	{ .name = "census", .type = RECORD_OBJECT, .get = s_self, .sub = &census_schema },
	{ .name = "ksm", .type = RECORD_OBJECT, .get = s_self, .sub = &ksm_pair_schema },
	{ .name = "hashes", .type = RECORD_OBJECT, .get = s_hash, .count = n_hashes, .sub = &scan_hash_schema },
	{ .name = "top", .type = RECORD_OBJECT, .get = s_top, .count = n_top, .sub = &scan_top_schema },
};

const struct record_schema scan_document_schema = { NULL, RECORD_FIELDS(document_fields), NULL, 0 };

/* CSV: a row per hash, the document's figures repeated on each. */
RECORD_GETTER(v_dumps, record_uint(v, SCAN_UP(w)->ndumps))
RECORD_GETTER(v_page, record_uint(v, SCAN_UP(w)->page_size))
RECORD_GETTER(v_pages, record_uint(v, SCAN_UP(w)->total.pages))
RECORD_GETTER(v_holes, record_uint(v, SCAN_UP(w)->total.holes))
RECORD_GETTER(v_excluded, record_uint(v, SCAN_UP(w)->total.excluded))
RECORD_GETTER(v_partial, record_uint(v, SCAN_UP(w)->total.partial_pages))
RECORD_GETTER(v_mps, record_uint(v, SCAN_UP(w)->max_page_sharing))
RECORD_GETTER(v_pts, record_uint(v, SCAN_UP(w)->pages_to_scan))
RECORD_GETTER(v_sleep, record_uint(v, SCAN_UP(w)->sleep_ms))
RECORD_GETTER(v_hz, record_uint(v, SCAN_UP(w)->hz))
RECORD_GETTER(v_bits, record_uint(v, SCAN_UP(w)->rules.kernel_bits))
RECORD_GETTER(v_smart, record_bool(v, SCAN_UP(w)->smart_scan))
RECORD_GETTER(v_mergeable, record_bool(v, SCAN_UP(w)->mergeable_only))
RECORD_GETTER(v_cost_zp, record_uint(v, (uint64_t)SCAN_UP(w)->cost_use_zero_pages))

/* A CSV column of the KSM model: the ksm object's own getter, on the
 * model of use_zero_pages zp, so that each figure is computed in one place. */
static int ksm_column(const struct record_row *w, struct record_value *v, unsigned zp,
		      int (*get)(const struct record_row *, struct record_value *))
{
	const struct record_row model = { &SCAN_UP(w)->ksm[zp], w->up, zp };

	return get(&model, v);
}

#define KSM_COLUMN(fn, zp, get)                                                   \
	static int fn(const struct record_row *w, struct record_value *v)          \
	{                                                                          \
		return ksm_column(w, v, zp, get);                                  \
	}
KSM_COLUMN(v_shared, 0, k_shared)
KSM_COLUMN(v_sharing, 0, k_sharing)
KSM_COLUMN(v_unshared, 0, k_unshared)
KSM_COLUMN(v_saved, 0, k_bytes)
KSM_COLUMN(v_chains, 0, k_chains)
KSM_COLUMN(v_dups, 0, k_dups)
KSM_COLUMN(v_profit, 0, k_profit)
KSM_COLUMN(v_really, 0, k_really_bytes)
KSM_COLUMN(v_shared_zp, 1, k_shared)
KSM_COLUMN(v_sharing_zp, 1, k_sharing)
KSM_COLUMN(v_zero_zp, 1, k_zero)
KSM_COLUMN(v_saved_zp, 1, k_bytes)
KSM_COLUMN(v_chains_zp, 1, k_chains)
KSM_COLUMN(v_dups_zp, 1, k_dups)
KSM_COLUMN(v_profit_zp, 1, k_profit)
KSM_COLUMN(v_really_zp, 1, k_really_bytes)

#define CSV RECORD_CSV

static const struct record_field csv_fields[] = {
	{ .name = "hash", .type = RECORD_STR, .flags = CSV, .get = h_hash },
	{ .name = "implementation", .type = RECORD_STR, .flags = CSV, .get = h_impl },
	{ .name = "dumps", .type = RECORD_UINT, .flags = CSV, .get = v_dumps },
	{ .name = "page_size_bytes", .type = RECORD_UINT, .flags = CSV, .get = v_page },
	{ .name = "pages", .type = RECORD_UINT, .flags = CSV, .get = v_pages },
	{ .name = "zero_pages", .type = RECORD_UINT, .flags = CSV, .get = t_zero },
	{ .name = "holes", .type = RECORD_UINT, .flags = CSV, .get = v_holes },
	{ .name = "excluded", .type = RECORD_UINT, .flags = CSV, .get = v_excluded },
	{ .name = "partial_pages", .type = RECORD_UINT, .flags = CSV, .get = v_partial },
	{ .name = "distinct_contents", .type = RECORD_UINT, .flags = CSV, .get = t_distinct },
	{ .name = "duplicated_contents", .type = RECORD_UINT, .flags = CSV, .get = t_duplicated },
	{ .name = "duplicate_pages", .type = RECORD_UINT, .flags = CSV, .get = t_duplicates },
	{ .name = "max_page_sharing", .type = RECORD_UINT, .flags = CSV, .get = v_mps },
	{ .name = "pages_shared", .type = RECORD_UINT, .flags = CSV, .get = v_shared },
	{ .name = "pages_sharing", .type = RECORD_UINT, .flags = CSV, .get = v_sharing },
	{ .name = "pages_unshared", .type = RECORD_UINT, .flags = CSV, .get = v_unshared },
	{ .name = "bytes_saved", .type = RECORD_UINT, .flags = CSV, .get = v_saved },
	{ .name = "pages_shared_zp", .type = RECORD_UINT, .flags = CSV, .get = v_shared_zp },
	{ .name = "pages_sharing_zp", .type = RECORD_UINT, .flags = CSV, .get = v_sharing_zp },
	{ .name = "ksm_zero_pages_zp", .type = RECORD_UINT, .flags = CSV, .get = v_zero_zp },
	{ .name = "bytes_saved_zp", .type = RECORD_UINT, .flags = CSV, .get = v_saved_zp },
	{ .name = "zero_checksum", .type = RECORD_STR, .flags = CSV, .get = h_zero_sum },
	{ .name = "contents", .type = RECORD_UINT, .flags = CSV, .get = h_contents },
	{ .name = "colliding_pairs", .type = RECORD_UINT, .flags = CSV, .get = h_pairs },
	{ .name = "expected_colliding_pairs", .type = RECORD_REAL, .flags = CSV, .format = "%.6g",
	  .get = h_expected_pairs },
	{ .name = "colliding_contents", .type = RECORD_UINT, .flags = CSV, .get = h_coll_contents },
	{ .name = "expected_colliding_contents", .type = RECORD_REAL, .flags = CSV, .format = "%.6g",
	  .get = h_expected_contents },
	{ .name = "zero_checksum_matches", .type = RECORD_UINT, .flags = CSV, .get = h_zero_matches },
	{ .name = "ns_per_page_median", .type = RECORD_REAL, .flags = CSV, .format = "%.2f",
	  .get = h_ns_median },
	{ .name = "ns_per_page_p90", .type = RECORD_REAL, .flags = CSV, .format = "%.2f", .get = h_ns_p90 },
	{ .name = "full_scan_checksum_ms", .type = RECORD_REAL, .flags = CSV, .format = "%.4f",
	  .get = h_full_ms },
	{ .name = "steady_scan_checksum_ms", .type = RECORD_REAL, .flags = CSV, .format = "%.4f",
	  .get = h_steady_ms },
	{ .name = "pages_to_scan", .type = RECORD_UINT, .flags = CSV, .get = v_pts },
	{ .name = "sleep_millisecs", .type = RECORD_UINT, .flags = CSV, .get = v_sleep },
	{ .name = "ksmd_checksum_cpu_share", .type = RECORD_REAL, .flags = CSV, .format = "%.6f",
	  .get = h_cpu },
	{ .name = "ksmd_steady_checksum_cpu_share", .type = RECORD_REAL, .flags = CSV, .format = "%.6f",
	  .get = h_steady_cpu },
	/* The kernel model's further counters, added after the columns above
	 * so that their positions stay: sharing within and across dumps, and
	 * per use_zero_pages setting the chains, general_profit and the
	 * memory really saved. */
	{ .name = "within_dump_duplicates", .type = RECORD_UINT, .flags = CSV, .get = t_within },
	{ .name = "across_dump_duplicates", .type = RECORD_UINT, .flags = CSV, .get = t_across },
	{ .name = "pages_volatile", .type = RECORD_UINT, .flags = CSV, .get = t_volatile },
	{ .name = "zero_page_mapped", .type = RECORD_UINT, .flags = CSV, .get = t_zpm },
	{ .name = "stable_node_chains", .type = RECORD_UINT, .flags = CSV, .get = v_chains },
	{ .name = "stable_node_dups", .type = RECORD_UINT, .flags = CSV, .get = v_dups },
	{ .name = "general_profit", .type = RECORD_INT, .flags = CSV, .get = v_profit },
	{ .name = "bytes_really_saved", .type = RECORD_UINT, .flags = CSV, .get = v_really },
	{ .name = "stable_node_chains_zp", .type = RECORD_UINT, .flags = CSV, .get = v_chains_zp },
	{ .name = "stable_node_dups_zp", .type = RECORD_UINT, .flags = CSV, .get = v_dups_zp },
	{ .name = "general_profit_zp", .type = RECORD_INT, .flags = CSV, .get = v_profit_zp },
	{ .name = "bytes_really_saved_zp", .type = RECORD_UINT, .flags = CSV, .get = v_really_zp },
	/* The steady figures' smart_scan and use_zero_pages model. */
	{ .name = "smart_scan", .type = RECORD_BOOL, .flags = CSV, .get = v_smart },
	{ .name = "cost_use_zero_pages", .type = RECORD_UINT, .flags = CSV, .get = v_cost_zp },
	/* The HZ ksmd's sleep is rounded to (every figure in time), and the
	 * full scans' times at it. */
	{ .name = "hz", .type = RECORD_UINT, .flags = CSV, .get = v_hz },
	{ .name = "full_scan_seconds", .type = RECORD_REAL, .flags = CSV, .format = "%.6f", .get = h_full_s },
	{ .name = "steady_full_scan_seconds", .type = RECORD_REAL, .flags = CSV, .format = "%.6f",
	  .get = h_steady_full_s },
	/* The kernel's word size general_profit's rmap items follow. */
	{ .name = "kernel_bits", .type = RECORD_UINT, .flags = CSV, .get = v_bits },
	/* --mergeable, and the pages it left out of every count above (pages
	 * counts them). */
	{ .name = "mergeable_only", .type = RECORD_BOOL, .flags = CSV, .get = v_mergeable },
	{ .name = "pages_left_out", .type = RECORD_UINT, .flags = CSV, .get = t_left_out },
};

static const struct record_schema scan_csv_schema = { NULL, RECORD_FIELDS(csv_fields), NULL, 0 };

int scan_report_rows(const struct report_document *doc, struct record_list *rows)
{
	const struct scan_result *r = doc->scan;

	*rows = (struct record_list){ &scan_csv_schema, r->hashes, r->nhashes, sizeof(r->hashes[0]), { .item = doc } };
	return 0;
}
