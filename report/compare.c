/* Matching and judging two results documents (see compare.h). Results are
 * matched through a sorted index of their keys: O(n log n) whatever the
 * number of results. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/rank_test.h"

static const char *const verdict_names[VERDICTS] = { "unchanged", "noise", "improvement", "regression",
						      "inconclusive" };
static const char *const method_names[] = { "mann-whitney-exact", "mann-whitney-normal", "none" };

const char *compare_verdict_name(enum compare_verdict v)
{
	return verdict_names[v];
}

const char *compare_method_name(enum compare_method m)
{
	return method_names[m];
}

/* A document's results sorted by key. */
struct index {
	char **keys;   /* per result, in document order */
	size_t *order; /* result indexes sorted by key */
	size_t n;
};

static const struct index *sort_index; /* for qsort's comparison */

static int by_key(const void *a, const void *b)
{
	return strcmp(sort_index->keys[*(const size_t *)a], sort_index->keys[*(const size_t *)b]);
}

/* The key that matches results across files: each string field whole and
 * preceded by its length, so that no field's text can pass for a border
 * (with a separator byte between them, the JSON's "\u001f" made hash "a",
 * data "b\x1fc" and hash "a\x1fb", data "c" one result), and the timer
 * whole (its label is cut at 40 bytes: two timers alike in their first 40
 * were one result); spacing: whether calls apart and back to back are told
 * apart (they are, but for finding what a mismatch comes from). */
static char *key_of(const struct loaded_result *r, int spacing)
{
	int len = results_dataset(r, NULL, 0);
	char *data = len >= 0 ? malloc((size_t)len + 1) : NULL, *k = NULL;

	/* The whole dataset: two cut at the same length were one result. */
	if (data && results_dataset(r, data, (size_t)len + 1) >= 0 &&
	    asprintf(&k, "%zu:%s%zu:%s%zu:%s%zu:%s%d:%llu:%llu", strlen(r->hash), r->hash, strlen(data), data,
		     strlen(r->cache), r->cache, strlen(r->timer), r->timer, spacing && r->apart,
		     (unsigned long long)r->page_size, (unsigned long long)r->misalign) < 0)
		k = NULL;
	free(data);
	return k;
}

static void index_free(struct index *x)
{
	for (size_t i = 0; x->keys && i < x->n; i++)
		free(x->keys[i]);
	free(x->keys);
	free(x->order);
	memset(x, 0, sizeof(*x));
}

/* d's keys, sorted (spacing: as key_of). */
static int index_sort(const struct loaded_doc *d, struct index *x, int spacing, struct kb_err *err)
{
	x->n = d->n;
	x->keys = calloc(d->n + 1, sizeof(*x->keys));
	x->order = calloc(d->n + 1, sizeof(*x->order));
	if (!x->keys || !x->order)
		return kb_fail(err, "out of memory");
	for (size_t i = 0; i < d->n; i++) {
		if (!(x->keys[i] = key_of(&d->results[i], spacing)))
			return kb_fail(err, "out of memory");
		x->order[i] = i;
	}
	sort_index = x;
	qsort(x->order, x->n, sizeof(*x->order), by_key);
	return 0;
}

/* The index results are matched by: no two of d's results alike. */
static int index_build(const struct loaded_doc *d, struct index *x, struct kb_err *err)
{
	if (index_sort(d, x, 1, err))
		return -1;
	for (size_t i = 1; i < x->n; i++) {
		size_t a = x->order[i - 1], b = x->order[i];
		if (strcmp(x->keys[a], x->keys[b]) == 0) {
			const struct loaded_result *r = &d->results[a < b ? a : b];
			return kb_fail(err, "%s: results[%zu] and results[%zu] measure the same thing (%s, %s, %s, "
					    "%llu bytes, %s timer): cannot tell which to compare",
				       d->path, a < b ? a : b, a < b ? b : a, r->hash, r->data, r->cache,
				       (unsigned long long)r->page_size, r->timer_label);
		}
	}
	return 0;
}

/* The result of d (indexed by x) with key, or NULL. */
static const struct loaded_result *find(const struct loaded_doc *d, const struct index *x, const char *key)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(x->keys[x->order[mid]], key);
		if (c == 0)
			return &d->results[x->order[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* When no result matched: a result of base that one of new's measures but
 * for the spacing of calls (whether they were apart), or NULL. */
static const struct loaded_result *spacing_twin(const struct loaded_doc *base, const struct loaded_doc *new_)
{
	const struct loaded_result *twin = NULL;
	struct index x = { 0 };
	struct kb_err ignored;

	if (index_sort(new_, &x, 0, &ignored) == 0)
		for (size_t i = 0; i < base->n && !twin; i++) {
			char *k = key_of(&base->results[i], 0);
			if (k && find(new_, &x, k))
				twin = &base->results[i];
			free(k);
		}
	index_free(&x);
	return twin;
}

/* Beyond the threshold, when the values cannot tell: why (in p->why), 1. */
static int inconclusive(struct compare_pair *p, const struct compare_settings *s, const char *runs_differ)
{
	const struct loaded_result *a = p->base, *b = p->new_;

	if (a->unstable || b->unstable) {
		snprintf(p->why, sizeof(p->why), "%s%s%s%s%s%s", a->unstable ? "base unstable: " : "",
			 a->unstable ? a->why : "", a->unstable && b->unstable ? "; " : "",
			 b->unstable ? "new unstable: " : "", b->unstable ? b->why : "", "");
		return 1;
	}
	if (runs_differ[0]) {
		snprintf(p->why, sizeof(p->why), "%s", runs_differ);
		return 1;
	}
	if (rank_test_min_p(a->nvalues, b->nvalues) >= s->alpha) {
		snprintf(p->why, sizeof(p->why), "too few processes to tell a change (%zu and %zu)", a->nvalues,
			 b->nvalues);
		return 1;
	}
	return 0;
}

/* A shift found through logs and exp() lands a few ulps off: a change of
 * exactly the threshold (every process 5% slower) read -5.000000000000138%
 * and was judged past it. Within this of the threshold is at it. */
#define COMPARE_ULPS 1e-11

/* Whether the change is beyond the threshold with confidence: the whole
 * interval of the shift (new / base, rank_test_ratio_interval at 1 -
 * alpha) lies past it on the median's side. A few processes that rounds the
 * interference probes missed can make the rank test separate two runs
 * whose typical process did not move that far; then the interval reaches
 * back inside the threshold and the change is noise. (Comparing the two
 * medians' own intervals did that too, but it also called a 10% shift of
 * every process noise when 11 processes made each median's interval wide.) */
static int shift_beyond(struct compare_pair *p, const struct compare_settings *s, const double *new_values)
{
	const struct loaded_result *a = p->base, *b = p->new_;
	double lo, hi, t = s->threshold_percent / 100;
	int rc = rank_test_ratio_interval(a->values, a->nvalues, new_values, b->nvalues, s->alpha, &lo, &hi);

	if (rc)
		return rc < 0 ? -1 : 0;
	p->change_low_percent = (lo - 1) * 100;
	p->change_high_percent = (hi - 1) * 100;
	return p->change_percent < 0 ? hi < 1 - t - COMPARE_ULPS : lo > 1 + t + COMPARE_ULPS;
}

/* A cold set's rate is the memory's as much as the core's: its pairs are
 * judged on their rates as measured. */
static int per_cycle(const struct compare_pair *p, const struct compare_outcome *o)
{
	return o->clock_factor != 1 && strcmp(p->base->cache, "cold") != 0 && strcmp(p->new_->cache, "cold") != 0;
}

static int judge(struct compare_pair *p, const struct compare_settings *s, const struct compare_outcome *o)
{
	const struct loaded_result *a = p->base, *b = p->new_;
	double k = (p->per_cycle = per_cycle(p, o)) ? o->clock_factor : 1;
	double *values = malloc((b->nvalues + 1) * sizeof(*values));
	int rc = -1;

	if (!values)
		return -1;
	for (size_t i = 0; i < b->nvalues; i++)
		values[i] = b->values[i] / k;
	/* The change is the shift between the processes' values: the ratio of
	 * the two medians can move 10% either way when each run's processes
	 * fall in two clusters (address layouts), hiding a real change. */
	double ratio;
	int rates = a->bytes_per_second_median > 0 && b->bytes_per_second_median > 0;
	int est = rank_test_ratio_estimate(a->values, a->nvalues, values, b->nvalues, &ratio);
	if (est < 0)
		goto done;
	if (est > 0 || !rates)
		ratio = rates ? b->bytes_per_second_median / k / a->bytes_per_second_median : NAN;
	p->change_percent = (ratio - 1) * 100; /* NaN (null) where a side has no rate */
	p->base_samples = a->nvalues;
	p->new_samples = b->nvalues;
	p->p_value = -1;
	p->change_low_percent = p->change_high_percent = NAN;
	p->method = METHOD_NONE;
	p->why[0] = '\0';
	if (a->nvalues && b->nvalues && rank_test_min_p(a->nvalues, b->nvalues) < s->alpha) {
		struct rank_test t;
		if (rank_test_run(values, b->nvalues, a->values, a->nvalues, &t))
			goto done;
		p->method = t.exact ? METHOD_RANK_EXACT : METHOD_RANK_NORMAL;
		p->p_value = t.p;
	}
	int beyond = 0;
	if (p->method != METHOD_NONE && (beyond = shift_beyond(p, s, values)) < 0)
		goto done;
	double within = s->threshold_percent + COMPARE_ULPS * 100;
	if (!rates) {
		/* Rounds faster than their timer resolves: no rate to compare. */
		snprintf(p->why, sizeof(p->why), "no rate in %s (the timer did not resolve the rounds)",
			 a->bytes_per_second_median > 0	  ? "the new run"
			 : b->bytes_per_second_median > 0 ? "the base run"
							  : "either run");
		p->verdict = VERDICT_INCONCLUSIVE;
	} else if (p->change_percent >= -within && p->change_percent <= within)
		p->verdict = VERDICT_UNCHANGED;
	else if (inconclusive(p, s, o->runs_differ))
		p->verdict = VERDICT_INCONCLUSIVE;
	else if (p->p_value >= s->alpha || !beyond)
		p->verdict = VERDICT_NOISE;
	else
		p->verdict = p->change_percent < 0 ? VERDICT_REGRESSION : VERDICT_IMPROVEMENT;
	rc = 0;
done:
	free(values);
	return rc;
}

/* What made a result's set cold: documents written before cold_by had
 * only sets cold by their size. */
static const char *cold_by(const struct loaded_result *r)
{
	if (r->cold_by)
		return r->cold_by;
	return strcmp(r->cache, "cold") == 0 ? "size" : "none";
}

static int pair_up(const struct loaded_doc *base, const struct loaded_doc *new_, const struct index *xb,
		   const struct index *xn, const struct compare_settings *s, struct compare_outcome *out)
{
	for (size_t i = 0; i < base->n; i++) {
		const struct loaded_result *b = find(new_, xn, xb->keys[i]);
		if (!b) {
			out->only_base[out->nonly_base++] = &base->results[i];
			continue;
		}
		struct compare_pair *p = &out->pairs[out->npairs++];
		p->base = &base->results[i];
		p->new_ = b;
		if (judge(p, s, out))
			return -1;
		out->counts[p->verdict]++;
		if (strcmp(p->base->impl, b->impl) != 0) {
			char field[96];
			snprintf(field, sizeof(field), "implementation of %.60s", b->hash);
			compare_mismatch_add(out, field, p->base->impl, b->impl);
		}
		if (strcmp(cold_by(p->base), cold_by(b)) != 0) {
			char field[96];
			snprintf(field, sizeof(field), "cold set of %.60s", b->hash);
			compare_mismatch_add(out, field, cold_by(p->base), cold_by(b));
		}
	}
	for (size_t i = 0; i < new_->n; i++)
		if (!find(base, xb, xn->keys[i]))
			out->only_new[out->nonly_new++] = &new_->results[i];
	return 0;
}

int compare_run(const struct loaded_doc *base, const struct loaded_doc *new_, const struct compare_settings *s,
		struct compare_outcome *out, struct kb_err *err)
{
	struct index xb = { 0 }, xn = { 0 };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (index_build(base, &xb, err) || index_build(new_, &xn, err))
		goto done;
	out->pairs = calloc(base->n + 1, sizeof(*out->pairs));
	out->only_base = calloc(base->n + 1, sizeof(*out->only_base));
	out->only_new = calloc(new_->n + 1, sizeof(*out->only_new));
	/* before judging: how alike the two runs' cores were decides inconclusive */
	compare_contexts(base, new_, s->threshold_percent / 100, out);
	if (!out->pairs || !out->only_base || !out->only_new || pair_up(base, new_, &xb, &xn, s, out)) {
		kb_fail(err, "out of memory");
		goto done;
	}
	if (out->npairs == 0) {
		const struct loaded_result *twin = spacing_twin(base, new_);
		char hint[256] = "";
		if (twin)
			snprintf(hint, sizeof(hint),
				 ": they differ only in calls apart (the base's %s; the ksmd timer and thread "
				 "call apart by default since December 2026, --back-to-back as before): measure "
				 "both the same way",
				 twin->apart ? "apart, the new run's back to back"
					     : "back to back, the new run's apart");
		kb_fail(err,
			"no result of %s matches one of %s (by hash, data, cache, page size, misalignment, "
			"timer and calls apart)%s",
			new_->path, base->path, hint);
		goto done;
	}
	rc = 0;
done:
	index_free(&xb);
	index_free(&xn);
	if (rc)
		compare_release(out);
	return rc;
}

void compare_release(struct compare_outcome *out)
{
	free(out->pairs);
	free(out->only_base);
	free(out->only_new);
	memset(out, 0, sizeof(*out));
}
