/* The compare document: its fields (schema ksmbench-compare/2), and the
 * text report, an aligned table (verdicts coloured on a terminal) or
 * Markdown for a review (see compare.h). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/plural.h"
#include "compare.h"
#include "compare_reasons.h"
#include "escape.h"
#include "kinds.h"
#include "record_table.h"
#include "text_wrap.h"

#define COMPARE_SCHEMA "ksmbench-compare/2"

#define DOC(row) ((const struct report_document *)(row)->item)
#define RUN(row) ((const struct loaded_doc *)(row)->item)
#define PAIR(row) ((const struct compare_pair *)(row)->item)
/* A key's row is a pointer to a result: an entry of an only-in list, or a
 * pair (whose first member is its base result). */
#define KEY(row) (*(const struct loaded_result *const *)(row)->item)
_Static_assert(offsetof(struct compare_pair, base) == 0, "a pair's row is its base result's key");

RECORD_GETTER(k_hash, record_str(v, KEY(w)->hash))
/* The dataset in the cell's room: a name longer than that (only a document
 * made by hand: bench writes at most 300 bytes) loses its middle, marked,
 * never the middle of a UTF-8 sequence (it was cut at the room's last byte). */
static int data_cell(const struct loaded_result *r, struct record_value *v)
{
	int len = results_dataset(r, v->buf, sizeof(v->buf));
	char *whole = len >= (int)sizeof(v->buf) ? malloc((size_t)len + 1) : NULL;

	if (whole && results_dataset(r, whole, (size_t)len + 1) == len) {
		report_cut_middle(whole, sizeof(v->buf) - 1);
		memcpy(v->buf, whole, strlen(whole) + 1);
	} else if (len >= (int)sizeof(v->buf)) {
		v->buf[report_utf8_floor(v->buf, sizeof(v->buf) - 1)] = 0;
	}
	free(whole);
	return record_str(v, v->buf);
}

RECORD_GETTER(k_data, data_cell(KEY(w), v))
RECORD_GETTER(k_cache, record_str(v, KEY(w)->cache))
RECORD_GETTER(k_page, record_uint(v, KEY(w)->page_size))
RECORD_GETTER(k_misalign, record_uint(v, KEY(w)->misalign))
RECORD_GETTER(k_timer, record_str(v, KEY(w)->timer))
RECORD_GETTER(k_apart, record_bool(v, KEY(w)->apart))

static const struct record_field key_fields[] = {
	{ .name = "hash", .type = RECORD_STR, .get = k_hash },
	{ .name = "data", .type = RECORD_STR, .get = k_data },
	{ .name = "cache", .type = RECORD_STR, .get = k_cache },
	{ .name = "page_size_bytes", .type = RECORD_UINT, .get = k_page },
	{ .name = "misalign_bytes", .type = RECORD_UINT, .get = k_misalign },
	{ .name = "timer", .type = RECORD_STR, .get = k_timer },
	{ .name = "calls_apart", .type = RECORD_BOOL, .get = k_apart },
};

static const struct record_schema key_schema = { NULL, RECORD_FIELDS(key_fields), NULL, 0 };

RECORD_GETTER(p_impl_base, record_str(v, PAIR(w)->base->impl))
RECORD_GETTER(p_impl_new, record_str(v, PAIR(w)->new_->impl))
RECORD_GETTER(p_base_rate, record_real(v, PAIR(w)->base->bytes_per_second_median))
RECORD_GETTER(p_new_rate, record_real(v, PAIR(w)->new_->bytes_per_second_median))
RECORD_GETTER(p_change, !isnan(PAIR(w)->change_percent) && record_real(v, PAIR(w)->change_percent))
RECORD_GETTER(p_verdict, record_str(v, compare_verdict_name(PAIR(w)->verdict)))
RECORD_GETTER(p_method, record_str(v, compare_method_name(PAIR(w)->method)))
RECORD_GETTER(p_p, PAIR(w)->p_value >= 0 && record_real(v, PAIR(w)->p_value))
RECORD_GETTER(p_change_lo, !isnan(PAIR(w)->change_low_percent) && record_real(v, PAIR(w)->change_low_percent))
RECORD_GETTER(p_change_hi, !isnan(PAIR(w)->change_high_percent) && record_real(v, PAIR(w)->change_high_percent))
RECORD_GETTER(p_base_processes, record_uint(v, PAIR(w)->base_samples))
RECORD_GETTER(p_new_processes, record_uint(v, PAIR(w)->new_samples))
RECORD_GETTER(p_base_stability, record_str(v, PAIR(w)->base->unstable ? "unstable" : "stable"))
RECORD_GETTER(p_new_stability, record_str(v, PAIR(w)->new_->unstable ? "unstable" : "stable"))
RECORD_GETTER(p_why, record_str(v, PAIR(w)->why))
RECORD_GETTER(p_per_cycle, record_bool(v, PAIR(w)->per_cycle))

static const struct record_field pair_fields[] = {
	{ .name = "implementation_base", .type = RECORD_STR, .get = p_impl_base },
	{ .name = "implementation_new", .type = RECORD_STR, .get = p_impl_new },
	{ .name = "base_bytes_per_second_median", .type = RECORD_REAL, .get = p_base_rate },
	{ .name = "new_bytes_per_second_median", .type = RECORD_REAL, .get = p_new_rate },
	{ .name = "change_percent", .type = RECORD_REAL, .get = p_change },
	{ .name = "per_core_cycle", .type = RECORD_BOOL, .get = p_per_cycle },
	{ .name = "verdict", .type = RECORD_STR, .get = p_verdict },
	{ .name = "method", .type = RECORD_STR, .get = p_method },
	{ .name = "p_value", .type = RECORD_REAL, .get = p_p },
	{ .name = "change_low_percent", .type = RECORD_REAL, .get = p_change_lo },
	{ .name = "change_high_percent", .type = RECORD_REAL, .get = p_change_hi },
	{ .name = "base_processes", .type = RECORD_UINT, .get = p_base_processes },
	{ .name = "new_processes", .type = RECORD_UINT, .get = p_new_processes },
	{ .name = "base_stability", .type = RECORD_STR, .get = p_base_stability },
	{ .name = "new_stability", .type = RECORD_STR, .get = p_new_stability },
	{ .name = "reason", .type = RECORD_STR, .get = p_why },
};

static const struct record_schema pair_schema = { &key_schema, RECORD_FIELDS(pair_fields), NULL, 0 };

RECORD_GETTER(r_path, record_str(v, RUN(w)->path))
RECORD_GETTER(r_date, record_str(v, RUN(w)->date))
RECORD_GETTER(r_git, record_str(v, RUN(w)->git_revision))
RECORD_GETTER(r_interrupted, record_bool(v, RUN(w)->interrupted))
RECORD_GETTER(r_version, record_uint(v, (uint64_t)RUN(w)->version))

static const struct record_field run_fields[] = {
	{ .name = "path", .type = RECORD_STR, .get = r_path },
	{ .name = "date", .type = RECORD_STR, .get = r_date },
	{ .name = "git_revision", .type = RECORD_STR, .get = r_git },
	{ .name = "interrupted", .type = RECORD_BOOL, .get = r_interrupted },
	{ .name = "schema_version", .type = RECORD_UINT, .get = r_version },
};

static const struct record_schema run_schema = { NULL, RECORD_FIELDS(run_fields), NULL, 0 };

#define OUT(row) (DOC(row)->outcome)
RECORD_GETTER(c_schema, record_str(v, COMPARE_SCHEMA))
RECORD_GETTER(c_threshold, record_real(v, DOC(w)->settings->threshold_percent))
RECORD_GETTER(c_alpha, record_real(v, DOC(w)->settings->alpha))
RECORD_GETTER(c_base, record_item(v, DOC(w)->base))
RECORD_GETTER(c_new, record_item(v, DOC(w)->new_))
RECORD_GETTER(c_regressions, record_uint(v, OUT(w)->counts[VERDICT_REGRESSION]))
RECORD_GETTER(c_improvements, record_uint(v, OUT(w)->counts[VERDICT_IMPROVEMENT]))
RECORD_GETTER(c_inconclusive, record_uint(v, OUT(w)->counts[VERDICT_INCONCLUSIVE]))
RECORD_GETTER(c_exit, record_int(v, OUT(w)->counts[VERDICT_REGRESSION] ? 1 : OUT(w)->counts[VERDICT_INCONCLUSIVE] ? 3 : 0))
RECORD_GETTER(c_mismatch, record_item(v, &OUT(w)->mismatches[w->index]))
RECORD_GETTER(c_samples, record_str(v, "per-process values (a version-1 result is one process)"))
RECORD_GETTER(c_clock_base, !isnan(OUT(w)->clock_base_hz) && record_real(v, OUT(w)->clock_base_hz))
RECORD_GETTER(c_clock_new, !isnan(OUT(w)->clock_new_hz) && record_real(v, OUT(w)->clock_new_hz))
RECORD_GETTER(c_clock_factor, record_real(v, OUT(w)->clock_factor))

static size_t n_mismatches(const struct record_row *w)
{
	return OUT(w)->nmismatches;
}

#define MISMATCH(row) ((const struct compare_mismatch *)(row)->item)
RECORD_GETTER(m_field, record_str(v, MISMATCH(w)->field))
RECORD_GETTER(m_base, record_str(v, MISMATCH(w)->base))
RECORD_GETTER(m_new, record_str(v, MISMATCH(w)->new_))

static const struct record_field mismatch_fields[] = {
	{ .name = "field", .type = RECORD_STR, .get = m_field },
	{ .name = "base", .type = RECORD_STR, .get = m_base },
	{ .name = "new", .type = RECORD_STR, .get = m_new },
};

static const struct record_schema mismatch_schema = { NULL, RECORD_FIELDS(mismatch_fields), NULL, 0 };
RECORD_GETTER(c_pair, record_item(v, &OUT(w)->pairs[w->index]))
RECORD_GETTER(c_only_base, record_item(v, &OUT(w)->only_base[w->index]))
RECORD_GETTER(c_only_new, record_item(v, &OUT(w)->only_new[w->index]))

static size_t n_pairs(const struct record_row *w)
{
	return OUT(w)->npairs;
}

static size_t n_only_base(const struct record_row *w)
{
	return OUT(w)->nonly_base;
}

static size_t n_only_new(const struct record_row *w)
{
	return OUT(w)->nonly_new;
}

static const struct record_field document_fields[] = {
	{ .name = "schema", .type = RECORD_STR, .get = c_schema },
	{ .name = "threshold_percent", .type = RECORD_REAL, .get = c_threshold },
	{ .name = "alpha", .type = RECORD_REAL, .get = c_alpha },
	{ .name = "base", .type = RECORD_OBJECT, .get = c_base, .sub = &run_schema },
	{ .name = "new", .type = RECORD_OBJECT, .get = c_new, .sub = &run_schema },
	{ .name = "regressions", .type = RECORD_UINT, .get = c_regressions },
	{ .name = "improvements", .type = RECORD_UINT, .get = c_improvements },
	{ .name = "inconclusive", .type = RECORD_UINT, .get = c_inconclusive },
	{ .name = "exit_status", .type = RECORD_INT, .get = c_exit },
	{ .name = "samples", .type = RECORD_STR, .get = c_samples },
	{ .name = "core_clock_base_hz", .type = RECORD_REAL, .get = c_clock_base },
	{ .name = "core_clock_new_hz", .type = RECORD_REAL, .get = c_clock_new },
	{ .name = "clock_factor", .type = RECORD_REAL, .get = c_clock_factor },
	{ .name = "context_differences", .type = RECORD_OBJECT, .get = c_mismatch, .count = n_mismatches,
	  .sub = &mismatch_schema },
	{ .name = "comparisons", .type = RECORD_OBJECT, .get = c_pair, .count = n_pairs, .sub = &pair_schema },
	{ .name = "only_in_base", .type = RECORD_OBJECT, .get = c_only_base, .count = n_only_base,
	  .sub = &key_schema },
	{ .name = "only_in_new", .type = RECORD_OBJECT, .get = c_only_new, .count = n_only_new,
	  .sub = &key_schema },
};

const struct record_schema compare_document_schema = { NULL, RECORD_FIELDS(document_fields), NULL, 0 };

static int timer_cell(const struct record_row *w, char *buf, size_t size)
{
	snprintf(buf, size, "%s", KEY(w)->timer_label);
	return 1;
}

static int page_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct loaded_result *r = KEY(w);

	if (r->misalign)
		snprintf(buf, size, "%llu+%llu", (unsigned long long)r->page_size, (unsigned long long)r->misalign);
	else
		snprintf(buf, size, "%llu", (unsigned long long)r->page_size);
	return 1;
}

/* The per-process values judged on each side. */
static int processes_cell(const struct record_row *w, char *buf, size_t size)
{
	snprintf(buf, size, "%zu/%zu", PAIR(w)->base_samples, PAIR(w)->new_samples);
	return 1;
}

static int test_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct compare_pair *p = PAIR(w);

	if (p->method == METHOD_NONE)
		return 0;
	snprintf(buf, size, "p=%.3g%s", p->p_value, p->method == METHOD_RANK_EXACT ? "" : " (normal)");
	return 1;
}

static int plain_verdict(const struct record_row *w, char *buf, size_t size)
{
	snprintf(buf, size, "%s", compare_verdict_name(PAIR(w)->verdict));
	return 1;
}

/* The verdict is the last column: its colour codes cannot upset the alignment. */
static int color_verdict(const struct record_row *w, char *buf, size_t size)
{
	static const char *const sgr[VERDICTS] = { "", "\033[33m", "\033[32m", "\033[1;31m", "\033[35m" };
	enum compare_verdict v = PAIR(w)->verdict;

	if (v == VERDICT_UNCHANGED)
		return plain_verdict(w, buf, size);
	snprintf(buf, size, "%s%s\033[0m", sgr[v], compare_verdict_name(v));
	return 1;
}

static int markdown_verdict(const struct record_row *w, char *buf, size_t size)
{
	enum compare_verdict v = PAIR(w)->verdict;

	snprintf(buf, size, v == VERDICT_REGRESSION || v == VERDICT_IMPROVEMENT ? "**%s**" : "%s",
		 compare_verdict_name(v));
	return 1;
}

static struct table *pairs_table(const struct report_document *doc, enum report_style style)
{
	const struct record_column columns[] = {
		{ .header = "HASH", .align = 'l', .field = "hash" },
		{ .header = "DATA", .align = 'l', .field = "data" },
		{ .header = "CACHE", .align = 'l', .field = "cache" },
		{ .header = "PAGE", .align = 'r', .cell = page_cell },
		{ .header = "TIMER", .align = 'l', .cell = timer_cell },
		{ .header = "BASE MB/s", .align = 'r', .field = "base_bytes_per_second_median", .scale = 1e-6,
		  .format = "%.0f" },
		{ .header = "NEW MB/s", .align = 'r', .field = "new_bytes_per_second_median", .scale = 1e-6,
		  .format = "%.0f" },
		{ .header = "CHANGE %", .align = 'r', .field = "change_percent", .format = "%+.1f" },
		{ .header = "PROCESSES", .align = 'r', .cell = processes_cell },
		{ .header = "TEST", .align = 'l', .cell = test_cell },
		{ .header = "VERDICT", .align = 'l',
		  .cell = style == REPORT_MARKDOWN ? markdown_verdict : doc->color ? color_verdict : plain_verdict },
	};
	const struct compare_outcome *o = doc->outcome;
	struct record_list pairs = { &pair_schema, o->pairs, o->npairs, sizeof(o->pairs[0]), { .item = doc } };
	struct table *t = record_table(RECORD_COLUMNS(columns), &pairs);

	if (t)
		table_set_markup(t, sizeof(columns) / sizeof(columns[0]) - 1);
	return t;
}

/* The documents' strings, escaped for the target: a brand or a revision
 * holding a newline or an escape sequence must not forge a line. */
static void describe_run(FILE *out, const char *label, const struct loaded_doc *d, const char *prefix,
			 enum escape_target e)
{
	fprintf(out, "%s%s ", prefix, label);
	escape_put(out, d->path, e);
	fputs(": ", out);
	escape_put(out, d->date ? d->date : "undated", e);
	fputs(", git ", out);
	escape_put(out, d->git_revision ? d->git_revision : "unknown", e);
	fputs(", ", out);
	escape_put(out, d->cpu_brand ? d->cpu_brand : "unidentified CPU", e);
	fprintf(out, "%s%s\n", d->version == 1 ? ", version 1 (one process per result)" : "",
		d->interrupted ? ", INTERRUPTED run (partial)" : "");
}

/* What names a pair after its hash: dataset, cache, page size, timer. */
static void pair_rest(const struct compare_pair *p, size_t i, char *buf, size_t size)
{
	char data[320], page[48];
	struct record_row row = { p, NULL, i };

	results_dataset(p->new_, data, sizeof(data));
	page_cell(&row, page, sizeof(page));
	snprintf(buf, size, "%s %s %s %s", data, p->new_->cache, page, p->new_->timer_label);
}

/* The pairs' reasons sorted, equal ones in pair order: for qsort. */
static const char *const *sort_why;

static int by_why(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_why[i], sort_why[j]);

	return c ? c : i < j ? -1 : i > j;
}

/* The line of the n pairs with pair i's reason: i, then each next[] of the
 * one before (next NULL: i alone). */
static void reason_line(FILE *out, const struct compare_outcome *o, const char *const *why, size_t i,
			const size_t *next, size_t n, const char *prefix, enum escape_target e)
{
	char rest[512], other[512];
	int alike = 1;

	pair_rest(&o->pairs[i], i, rest, sizeof(rest));
	for (size_t j = i; next && j < o->npairs; j = next[j]) {
		pair_rest(&o->pairs[j], j, other, sizeof(other));
		alike &= !strcmp(other, rest);
	}
	fprintf(out, "%sinconclusive: ", prefix);
	if (n > 1 && n == o->npairs) {
		fprintf(out, "all %zu results", n);
	} else {
		for (size_t j = i; j < o->npairs; j = next ? next[j] : o->npairs) {
			if (j > i)
				fputs(alike ? ", " : "; ", out);
			escape_put(out, o->pairs[j].new_->hash, e);
			if (!alike) {
				pair_rest(&o->pairs[j], j, other, sizeof(other));
				fputc(' ', out);
				escape_put(out, other, e);
			}
		}
		if (alike) {
			fputc(' ', out);
			escape_put(out, rest, e);
		}
		if (n > 1)
			fprintf(out, " (%zu results)", n);
	}
	fputs(": ", out);
	escape_put(out, why[i], e);
	fputc('\n', out);
}

/* One line per reason an inconclusive pair had, naming the pairs that share
 * it: a cause of the whole run (its core shared from outside, say) is said
 * once, not once per result, and so is a clause every inconclusive pair's
 * reason has (a run's share of disturbed rounds, beside each result's own
 * reasons). The pairs' names are their hashes followed by what they share,
 * or each pair's whole name where that differs. why[i] is pair i's reason
 * less those clauses. The pairs that share a reason are found by sorting
 * the reasons: a search of the pairs for each made a document of 50000
 * results, each with a reason of its own, take 25 s. */
static void reason_lines(FILE *out, const struct compare_outcome *o, const char *const *why, const char *prefix,
			 enum escape_target e)
{
	size_t *order = malloc((o->npairs + 1) * sizeof(*order)), *next = malloc((o->npairs + 1) * sizeof(*next));
	size_t *count = malloc((o->npairs + 1) * sizeof(*count)), m = 0;

	if (!order || !next || !count) {
		/* Out of memory: a line per pair. */
		for (size_t i = 0; i < o->npairs; i++)
			if (why[i] && why[i][0])
				reason_line(out, o, why, i, NULL, 1, prefix, e);
		free(order);
		free(next);
		free(count);
		return;
	}
	for (size_t i = 0; i < o->npairs; i++)
		if (why[i] && why[i][0])
			order[m++] = i;
	sort_why = why;
	qsort(order, m, sizeof(*order), by_why);
	/* next[i]: the next pair with pair i's reason (npairs after the
	 * last); count[i]: how many pairs have it where i is the first of
	 * them, else 0. */
	for (size_t a = 0, b; a < m; a = b) {
		for (b = a + 1; b < m && strcmp(why[order[a]], why[order[b]]) == 0; b++)
			;
		for (size_t k = a; k < b; k++) {
			next[order[k]] = k + 1 < b ? order[k + 1] : o->npairs;
			count[order[k]] = k == a ? b - a : 0;
		}
	}
	for (size_t i = 0; i < o->npairs; i++) /* in the pairs' order, each reason at its first pair */
		if (why[i] && why[i][0] && count[i])
			reason_line(out, o, why, i, next, count[i], prefix, e);
	free(order);
	free(next);
	free(count);
}

static void inconclusive_lines(FILE *out, const struct compare_outcome *o, const char *prefix, enum escape_target e)
{
	struct compare_clause common[COMPARE_CLAUSES_MAX];
	size_t ncommon = compare_common_clauses(o, common, COMPARE_CLAUSES_MAX), inconclusive = 0;
	const char **why = calloc(o->npairs ? o->npairs : 1, sizeof(*why));
	char (*less)[sizeof(o->pairs[0].why)] = ncommon ? malloc(o->npairs * sizeof(*less)) : NULL;

	if (!why || (ncommon && !less)) {
		/* Out of memory: each pair's whole reason on a line of its own. */
		for (size_t i = 0; i < o->npairs; i++)
			if (o->pairs[i].verdict == VERDICT_INCONCLUSIVE) {
				fprintf(out, "%sinconclusive: ", prefix);
				escape_put(out, o->pairs[i].new_->hash, e);
				fputs(": ", out);
				escape_put(out, o->pairs[i].why, e);
				fputc('\n', out);
			}
		free(less);
		free(why);
		return;
	}
	int own = 0; /* a pair has clauses beside the common ones */
	for (size_t i = 0; i < o->npairs; i++) {
		if (o->pairs[i].verdict != VERDICT_INCONCLUSIVE)
			continue;
		inconclusive++;
		why[i] = o->pairs[i].why;
		if (ncommon) {
			compare_why_without(o->pairs[i].why, common, ncommon, less[i], sizeof(less[i]));
			own |= less[i][0] != '\0';
		}
	}
	/* Where the whole reason is common, the lines below say it once,
	 * naming the pairs; only clauses beside a pair's own are split off. */
	for (size_t i = 0; own && i < o->npairs; i++)
		if (why[i])
			why[i] = less[i];
	if (own) {
		char text[sizeof(o->pairs[0].why)];
		compare_clauses_text(common, ncommon, text, sizeof(text));
		fprintf(out, "%sinconclusive: all %zu %sresults: ", prefix, inconclusive,
			inconclusive == o->npairs ? "" : "inconclusive ");
		escape_put(out, text, e);
		fputc('\n', out);
	}
	reason_lines(out, o, why, prefix, e);
	free(less);
	free(why);
}

/* The inconclusive pairs' reasons, then one line per differing field; the
 * documents' strings escaped as describe_run's. */
static void notes(FILE *out, const struct compare_outcome *o, const char *prefix, enum escape_target e)
{
	inconclusive_lines(out, o, prefix, e);
	for (size_t i = 0; i < o->nmismatches; i++) {
		char line[1024];
		snprintf(line, sizeof(line), "warning: the runs differ in %s (%s vs %s): figures may not be comparable",
			 o->mismatches[i].field, o->mismatches[i].base, o->mismatches[i].new_);
		fputs(prefix, out);
		escape_put(out, line, e);
		fputc('\n', out);
	}
}

/* Where the runs' clocks differ, that the changes are judged per cycle. */
static void clock_line(FILE *out, const struct compare_outcome *o, const char *prefix)
{
	if (o->clock_factor == 1)
		return;
	fprintf(out,
		"%score clock (rounds kept): base %.3f GHz, new %.3f GHz (%+.1f%%), the host's: judged per core "
		"cycle, CHANGE %% too\n",
		prefix, o->clock_base_hz * 1e-9, o->clock_new_hz * 1e-9, (o->clock_factor - 1) * 100);
}

static void list_only(FILE *out, const char *label, const struct loaded_result *const *r, size_t n,
		      const char *prefix, enum escape_target e)
{
	for (size_t i = 0; i < n; i++) {
		char data[320], page[48];
		struct record_row row = { &r[i], NULL, i };
		const char *words[] = { r[i]->hash, data, r[i]->cache, page, r[i]->timer_label };
		results_dataset(r[i], data, sizeof(data));
		page_cell(&row, page, sizeof(page));
		fprintf(out, "%sonly in %s:", prefix, label);
		for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
			fputc(' ', out);
			escape_put(out, words[w], e);
		}
		fputc('\n', out);
	}
}

static void summary(FILE *out, const struct compare_settings *s, const struct compare_outcome *o)
{
	fprintf(out, "%zu regression%s, %zu improvement%s, %zu unchanged, %zu within noise, %zu inconclusive "
		     "(threshold %g%%, alpha %g, judged on per-process values%s); %zu only in base, %zu only in new\n",
		o->counts[VERDICT_REGRESSION], kb_s(o->counts[VERDICT_REGRESSION]),
		o->counts[VERDICT_IMPROVEMENT], kb_s(o->counts[VERDICT_IMPROVEMENT]),
		o->counts[VERDICT_UNCHANGED], o->counts[VERDICT_NOISE], o->counts[VERDICT_INCONCLUSIVE],
		s->threshold_percent, s->alpha, o->clock_factor != 1 ? " per core cycle" : "", o->nonly_base,
		o->nonly_new);
}

int compare_report_text(FILE *out, const struct report_document *doc, enum report_style style)
{
	const struct compare_outcome *o = doc->outcome;
	struct table *t = pairs_table(doc, style);
	int md = style == REPORT_MARKDOWN, rc;
	enum escape_target e = md ? ESCAPE_MARKDOWN : ESCAPE_TERM;

	if (!t)
		return -1;
	/* An inconclusive result is a change that could not be judged: the
	 * headline says so beside the regressions, not "0 regressions" alone. */
	if (md) {
		fprintf(out, "### ksmbench compare: %zu regression%s", o->counts[VERDICT_REGRESSION],
			kb_s(o->counts[VERDICT_REGRESSION]));
		if (o->counts[VERDICT_INCONCLUSIVE])
			fprintf(out, ", %zu inconclusive", o->counts[VERDICT_INCONCLUSIVE]);
		fputs("\n\n", out);
	}
	describe_run(out, md ? "Base" : "base", doc->base, md ? "- " : "# ", e);
	describe_run(out, md ? "New" : "new ", doc->new_, md ? "- " : "# ", e);
	clock_line(out, o, md ? "- " : "# ");
	if (md)
		fputc('\n', out);
	rc = md ? table_print_markdown(t, out) : table_print(t, out);
	table_free(t);
	if (md)
		fputc('\n', out);
	list_only(out, "base", o->only_base, o->nonly_base, md ? "- " : "", e);
	list_only(out, "new", o->only_new, o->nonly_new, md ? "- " : "", e);
	notes(out, o, md ? "- " : "", e);
	if (md && (o->nonly_base || o->nonly_new || o->nmismatches || o->counts[VERDICT_INCONCLUSIVE]))
		fputc('\n', out);
	summary(out, doc->settings, o);
	return rc || ferror(out) ? -1 : 0;
}
