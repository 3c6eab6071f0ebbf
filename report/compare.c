/* Matching and judging two results documents (see compare.h). */
#include "compare.h"

#include <stdlib.h>
#include <string.h>

#include "../bench/rank_test.h"

static const char *const verdict_names[] = { "unchanged", "noise", "improvement", "regression" };
static const char *const method_names[] = { "mann-whitney-exact", "mann-whitney-normal", "ranges" };

const char *compare_verdict_name(enum compare_verdict v)
{
	return verdict_names[v];
}

const char *compare_method_name(enum compare_method m)
{
	return method_names[m];
}

static int same_key(const struct loaded_result *a, const struct loaded_result *b)
{
	char da[320], db[320];

	results_dataset(a, da, sizeof(da));
	results_dataset(b, db, sizeof(db));
	return strcmp(a->hash, b->hash) == 0 && strcmp(da, db) == 0 && strcmp(a->cache, b->cache) == 0 &&
	       strcmp(a->timer, b->timer) == 0 && a->page_size == b->page_size && a->misalign == b->misalign;
}

static int check_unique(const struct loaded_doc *d, struct kb_err *err)
{
	for (size_t i = 0; i < d->n; i++)
		for (size_t j = i + 1; j < d->n; j++)
			if (same_key(&d->results[i], &d->results[j]))
				return kb_fail(err, "%s: results[%zu] and results[%zu] measure the same thing (%s, %s, %s, "
						    "%llu bytes, %s timer): cannot tell which to compare",
					       d->path, i, j, d->results[i].hash, d->results[i].data, d->results[i].cache,
					       (unsigned long long)d->results[i].page_size, d->results[i].timer);
	return 0;
}

static const struct loaded_result *find(const struct loaded_doc *d, const struct loaded_result *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (same_key(&d->results[i], key))
			return &d->results[i];
	return NULL;
}

static int judge(struct compare_pair *p, const struct compare_settings *s)
{
	const struct loaded_result *a = p->base, *b = p->new_;

	p->change_percent = a->bytes_per_second_median > 0
				    ? (b->bytes_per_second_median - a->bytes_per_second_median) /
					      a->bytes_per_second_median * 100
				    : 0;
	/* Ranges of the rounds' rates: from the rounds when kept, else from the
	 * slowest and fastest round. */
	double alo = a->bytes_per_second_min, ahi = a->bytes_per_second_max;
	double blo = b->bytes_per_second_min, bhi = b->bytes_per_second_max;
	p->ranges_overlap = !(ahi < blo || bhi < alo);
	p->base_samples = a->nrounds;
	p->new_samples = b->nrounds;
	p->p_value = -1;
	p->method = METHOD_RANGES;
	int separated = !p->ranges_overlap;
	if (a->nrounds && b->nrounds && rank_test_min_p(a->nrounds, b->nrounds) < s->alpha) {
		struct rank_test t;
		if (rank_test_run(b->rounds, b->nrounds, a->rounds, a->nrounds, &t))
			return -1;
		p->method = t.exact ? METHOD_RANK_EXACT : METHOD_RANK_NORMAL;
		p->p_value = t.p;
		separated = t.p < s->alpha;
	}
	if (p->change_percent >= -s->threshold_percent && p->change_percent <= s->threshold_percent)
		p->verdict = VERDICT_UNCHANGED;
	else if (!separated)
		p->verdict = VERDICT_NOISE;
	else
		p->verdict = p->change_percent < 0 ? VERDICT_REGRESSION : VERDICT_IMPROVEMENT;
	return 0;
}

int compare_run(const struct loaded_doc *base, const struct loaded_doc *new_, const struct compare_settings *s,
		struct compare_outcome *out, struct kb_err *err)
{
	memset(out, 0, sizeof(*out));
	if (check_unique(base, err) || check_unique(new_, err))
		return -1;
	out->pairs = calloc(base->n + 1, sizeof(*out->pairs));
	out->only_base = calloc(base->n + 1, sizeof(*out->only_base));
	out->only_new = calloc(new_->n + 1, sizeof(*out->only_new));
	if (!out->pairs || !out->only_base || !out->only_new) {
		compare_release(out);
		return kb_fail(err, "out of memory");
	}
	for (size_t i = 0; i < base->n; i++) {
		const struct loaded_result *b = find(new_, &base->results[i]);
		if (!b) {
			out->only_base[out->nonly_base++] = &base->results[i];
			continue;
		}
		struct compare_pair *p = &out->pairs[out->npairs++];
		p->base = &base->results[i];
		p->new_ = b;
		if (judge(p, s)) {
			compare_release(out);
			return kb_fail(err, "out of memory");
		}
		out->counts[p->verdict]++;
	}
	for (size_t i = 0; i < new_->n; i++)
		if (!find(base, &new_->results[i]))
			out->only_new[out->nonly_new++] = &new_->results[i];
	if (out->npairs == 0) {
		compare_release(out);
		return kb_fail(err, "no result of %s matches one of %s (by hash, data, cache, page size and timer)",
			       new_->path, base->path);
	}
	return 0;
}

void compare_release(struct compare_outcome *out)
{
	free(out->pairs);
	free(out->only_base);
	free(out->only_new);
	memset(out, 0, sizeof(*out));
}
