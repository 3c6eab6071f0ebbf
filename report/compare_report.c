/* ksmbench compare's reports: an aligned table (verdicts coloured on a
 * terminal), Markdown for a review, JSON for a pipeline (see compare.h). */
#include <string.h>

#include "compare.h"
#include "results.h"
#include "table.h"

#define COMPARE_SCHEMA "ksmbench-compare/1"

static void key_cells(const struct loaded_result *r, char *data, size_t dsize, char *page, size_t psize)
{
	results_dataset(r, data, dsize);
	if (r->misalign)
		snprintf(page, psize, "%u+%u", r->page_size, r->misalign);
	else
		snprintf(page, psize, "%u", r->page_size);
}

static void test_cell(const struct compare_pair *p, char *buf, size_t size)
{
	if (p->method == METHOD_RANGES)
		snprintf(buf, size, "ranges %s", p->ranges_overlap ? "overlap" : "apart");
	else
		snprintf(buf, size, "p=%.3g%s", p->p_value, p->method == METHOD_RANK_EXACT ? "" : " (normal)");
}

/* All columns but the verdict, which the caller prints (coloured or bold). */
static struct table *pairs_table(const struct compare_outcome *o, const char *verdict_header,
				 const char *(*verdict_text)(enum compare_verdict, char *, size_t))
{
	struct table *t = table_new(11, "lllrlrrrrll");
	int rc = 0;

	if (!t || table_add_rowf(t, "HASH", "DATA", "CACHE", "PAGE", "TIMER", "BASE MB/s", "NEW MB/s", "CHANGE %",
				 "ROUNDS", "SPREAD", verdict_header))
		rc = -1;
	for (size_t i = 0; rc == 0 && i < o->npairs; i++) {
		const struct compare_pair *p = &o->pairs[i];
		char data[320], page[32], a[32], b[32], ch[32], rounds[32], test[48], verdict[64];
		key_cells(p->base, data, sizeof(data), page, sizeof(page));
		snprintf(a, sizeof(a), "%.0f", p->base->bytes_per_second_median / 1e6);
		snprintf(b, sizeof(b), "%.0f", p->new_->bytes_per_second_median / 1e6);
		snprintf(ch, sizeof(ch), "%+.1f", p->change_percent);
		snprintf(rounds, sizeof(rounds), "%zu/%zu", p->base_samples, p->new_samples);
		test_cell(p, test, sizeof(test));
		rc = table_add_rowf(t, p->base->hash, data, p->base->cache, page, p->base->timer, a, b, ch, rounds,
				    test, verdict_text(p->verdict, verdict, sizeof(verdict)));
	}
	return table_done(t, rc);
}

static const char *plain_verdict(enum compare_verdict v, char *buf, size_t size)
{
	snprintf(buf, size, "%s", compare_verdict_name(v));
	return buf;
}

static const char *color_verdict(enum compare_verdict v, char *buf, size_t size)
{
	static const char *const sgr[] = { "", "\033[33m", "\033[32m", "\033[1;31m" };
	if (v == VERDICT_UNCHANGED)
		return plain_verdict(v, buf, size);
	snprintf(buf, size, "%s%s\033[0m", sgr[v], compare_verdict_name(v));
	return buf;
}

static const char *markdown_verdict(enum compare_verdict v, char *buf, size_t size)
{
	snprintf(buf, size, v == VERDICT_REGRESSION || v == VERDICT_IMPROVEMENT ? "**%s**" : "%s",
		 compare_verdict_name(v));
	return buf;
}

static void describe_run(FILE *out, const char *label, const struct loaded_doc *d, const char *prefix)
{
	fprintf(out, "%s%s %s: %s, git %s, %s%s\n", prefix, label, d->path, d->date ? d->date : "undated",
		d->git_revision ? d->git_revision : "unknown", d->cpu_brand ? d->cpu_brand : "unidentified CPU",
		d->interrupted ? ", INTERRUPTED run (partial)" : "");
}

static void list_only(FILE *out, const char *label, const struct loaded_result *const *r, size_t n,
		      const char *prefix)
{
	for (size_t i = 0; i < n; i++) {
		char data[320], page[32];
		key_cells(r[i], data, sizeof(data), page, sizeof(page));
		fprintf(out, "%sonly in %s: %s %s %s %s %s\n", prefix, label, r[i]->hash, data, r[i]->cache, page,
			r[i]->timer);
	}
}

static void summary(FILE *out, const struct compare_settings *s, const struct compare_outcome *o)
{
	fprintf(out, "%zu regression%s, %zu improvement%s, %zu unchanged, %zu within noise (threshold %g%%, "
		     "alpha %g); %zu only in base, %zu only in new\n",
		o->counts[VERDICT_REGRESSION], o->counts[VERDICT_REGRESSION] == 1 ? "" : "s",
		o->counts[VERDICT_IMPROVEMENT], o->counts[VERDICT_IMPROVEMENT] == 1 ? "" : "s",
		o->counts[VERDICT_UNCHANGED], o->counts[VERDICT_NOISE], s->threshold_percent, s->alpha, o->nonly_base,
		o->nonly_new);
}

int compare_report_table(FILE *out, const struct loaded_doc *base, const struct loaded_doc *new_,
			 const struct compare_settings *s, const struct compare_outcome *o, int color)
{
	/* The verdict is the last column: its colour codes cannot upset the alignment. */
	struct table *t = pairs_table(o, "VERDICT", color ? color_verdict : plain_verdict);

	if (!t)
		return -1;
	describe_run(out, "base", base, "# ");
	describe_run(out, "new ", new_, "# ");
	int rc = table_print(t, out);
	table_free(t);
	list_only(out, "base", o->only_base, o->nonly_base, "");
	list_only(out, "new", o->only_new, o->nonly_new, "");
	summary(out, s, o);
	return rc || ferror(out) ? -1 : 0;
}

int compare_report_markdown(FILE *out, const struct loaded_doc *base, const struct loaded_doc *new_,
			    const struct compare_settings *s, const struct compare_outcome *o)
{
	struct table *t = pairs_table(o, "VERDICT", markdown_verdict);

	if (!t)
		return -1;
	fprintf(out, "### ksmbench compare: %zu regression%s\n\n", o->counts[VERDICT_REGRESSION],
		o->counts[VERDICT_REGRESSION] == 1 ? "" : "s");
	describe_run(out, "Base", base, "- ");
	describe_run(out, "New", new_, "- ");
	fputc('\n', out);
	int rc = table_print_markdown(t, out);
	table_free(t);
	fputc('\n', out);
	list_only(out, "base", o->only_base, o->nonly_base, "- ");
	list_only(out, "new", o->only_new, o->nonly_new, "- ");
	if (o->nonly_base || o->nonly_new)
		fputc('\n', out);
	summary(out, s, o);
	return rc || ferror(out) ? -1 : 0;
}

static cJSON *key_json(const struct loaded_result *r)
{
	cJSON *o = cJSON_CreateObject();
	char data[320];

	results_dataset(r, data, sizeof(data));
	cJSON_AddStringToObject(o, "hash", r->hash);
	cJSON_AddStringToObject(o, "data", data);
	cJSON_AddStringToObject(o, "cache", r->cache);
	cJSON_AddNumberToObject(o, "page_size_bytes", r->page_size);
	cJSON_AddNumberToObject(o, "misalign_bytes", r->misalign);
	cJSON_AddStringToObject(o, "timer", r->timer);
	return o;
}

static cJSON *run_json(const struct loaded_doc *d)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "path", d->path);
	if (d->date)
		cJSON_AddStringToObject(o, "date", d->date);
	else
		cJSON_AddNullToObject(o, "date");
	if (d->git_revision)
		cJSON_AddStringToObject(o, "git_revision", d->git_revision);
	else
		cJSON_AddNullToObject(o, "git_revision");
	cJSON_AddBoolToObject(o, "interrupted", d->interrupted);
	return o;
}

int compare_report_json(FILE *out, const struct loaded_doc *base, const struct loaded_doc *new_,
			const struct compare_settings *s, const struct compare_outcome *o)
{
	cJSON *doc = cJSON_CreateObject();

	if (!doc)
		return -1;
	cJSON_AddStringToObject(doc, "schema", COMPARE_SCHEMA);
	cJSON_AddNumberToObject(doc, "threshold_percent", s->threshold_percent);
	cJSON_AddNumberToObject(doc, "alpha", s->alpha);
	cJSON_AddItemToObject(doc, "base", run_json(base));
	cJSON_AddItemToObject(doc, "new", run_json(new_));
	cJSON_AddNumberToObject(doc, "regressions", (double)o->counts[VERDICT_REGRESSION]);
	cJSON_AddNumberToObject(doc, "improvements", (double)o->counts[VERDICT_IMPROVEMENT]);
	cJSON *arr = cJSON_AddArrayToObject(doc, "comparisons");
	for (size_t i = 0; arr && i < o->npairs; i++) {
		const struct compare_pair *p = &o->pairs[i];
		cJSON *c = key_json(p->base);
		cJSON_AddItemToArray(arr, c);
		cJSON_AddStringToObject(c, "implementation_base", p->base->impl);
		cJSON_AddStringToObject(c, "implementation_new", p->new_->impl);
		cJSON_AddNumberToObject(c, "base_bytes_per_second_median", p->base->bytes_per_second_median);
		cJSON_AddNumberToObject(c, "new_bytes_per_second_median", p->new_->bytes_per_second_median);
		cJSON_AddNumberToObject(c, "change_percent", p->change_percent);
		cJSON_AddStringToObject(c, "verdict", compare_verdict_name(p->verdict));
		cJSON_AddStringToObject(c, "method", compare_method_name(p->method));
		if (p->p_value >= 0)
			cJSON_AddNumberToObject(c, "p_value", p->p_value);
		else
			cJSON_AddNullToObject(c, "p_value");
		cJSON_AddBoolToObject(c, "ranges_overlap", p->ranges_overlap);
		cJSON_AddNumberToObject(c, "base_rounds", (double)p->base_samples);
		cJSON_AddNumberToObject(c, "new_rounds", (double)p->new_samples);
	}
	cJSON *ob = cJSON_AddArrayToObject(doc, "only_in_base");
	for (size_t i = 0; ob && i < o->nonly_base; i++)
		cJSON_AddItemToArray(ob, key_json(o->only_base[i]));
	cJSON *on = cJSON_AddArrayToObject(doc, "only_in_new");
	for (size_t i = 0; on && i < o->nonly_new; i++)
		cJSON_AddItemToArray(on, key_json(o->only_new[i]));
	return report_json_print(out, doc);
}
