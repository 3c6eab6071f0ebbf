/* Measuring hashes over a plan of page sets (see run.h). */
#include "run.h"

#include <stdlib.h>
#include <string.h>

void bench_results_free(struct bench_results *l)
{
	for (size_t i = 0; i < l->n; i++)
		bench_result_release(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

int bench_results_add(struct bench_results *l, struct bench_result *r)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct bench_result *bigger = realloc(l->items, cap * sizeof(*bigger));
		if (!bigger)
			return -1;
		l->items = bigger;
		l->cap = cap;
	}
	l->items[l->n++] = *r;
	r->rounds = NULL;
	return 0;
}

struct run_progress {
	bench_progress_fn fn;
	void *arg;
	struct bench_progress p;
};

/* bench_config.on_round, turned into the run's progress. */
static void on_round(void *arg, const struct hash_impl *h, unsigned round, unsigned rounds)
{
	struct run_progress *rp = arg;

	rp->p.hash = h;
	rp->p.round = round + 1;
	rp->p.rounds = rounds;
	rp->fn(rp->arg, &rp->p);
}

static int run_step(const struct bench_step *step, const struct hash_impl *const *hashes, unsigned nhashes,
		    struct run_progress *rp, struct bench_results *out, struct kb_err *err)
{
	struct bench_config cfg = step->cfg;
	struct page_set set;

	if (rp->fn && step->building_note) {
		rp->p.note = step->building_note;
		rp->fn(rp->arg, &rp->p);
		rp->p.note = NULL;
	}
	if (page_set_build(&step->set, &set, err))
		return -1;
	cfg.on_round = rp->fn ? on_round : NULL;
	cfg.on_round_arg = rp;
	rp->p.total = nhashes;
	for (unsigned i = 0; i < nhashes && !bench_stop_requested(); i++) {
		struct bench_result r;
		rp->p.index = i + 1;
		int rc = bench_measure(hashes[i], &set, &cfg, &r, err);
		if (rc == 0 && r.repeats > 0 && bench_results_add(out, &r))
			rc = kb_fail(err, "out of memory");
		bench_result_release(&r);
		if (rc) {
			page_set_release(&set);
			return -1;
		}
	}
	page_set_release(&set);
	return 0;
}

int bench_run(const struct bench_step *steps, unsigned nsteps, const struct hash_impl *const *hashes,
	      unsigned nhashes, bench_progress_fn progress, void *progress_arg, struct bench_results *out,
	      struct kb_err *err)
{
	struct run_progress rp = { progress, progress_arg, { .steps = nsteps } };

	out->planned += nsteps * nhashes;
	for (unsigned s = 0; s < nsteps && !bench_stop_requested(); s++) {
		rp.p.step = s + 1;
		if (run_step(&steps[s], hashes, nhashes, &rp, out, err))
			return -1;
	}
	return 0;
}
