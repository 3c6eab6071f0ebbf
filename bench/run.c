/* Measuring a plan (see run.h): page sets built by groups, sessions opened
 * for every measurement of a group, rounds taken in turns. */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate.h"
#include "interference.h"
#include "schedule.h"

/* The data name a step's set gets ("zero", "random", "file:PATH"). */
static void bench_step_data(const struct bench_step *step, char *buf, size_t size)
{
	const char *d = step->set.data;

	snprintf(buf, size, page_set_data_is_file(d) ? "file:%s" : "%s", d);
}

/* What a step's set holds in memory, near enough to group by. */
static uint64_t step_bytes(const struct bench_step *step)
{
	const struct page_set_request *r = &step->set;

	if (r->cold)
		return page_set_request_ws_bytes(r);
	if (!page_set_data_is_file(r->data))
		return (uint64_t)r->page_size + r->misalign + 64;
	return PAGE_SET_HOT_FILE_MAX;
}

/* The steps [first, end) whose sets fit in memory together (one at least). */
static unsigned group_end(const struct bench_plan *plan, unsigned first)
{
	uint64_t bytes = step_bytes(&plan->steps[first]);
	unsigned end = first + 1;

	while (end < plan->nsteps && bytes + step_bytes(&plan->steps[end]) <= BENCH_RUN_MEMORY_BYTES)
		bytes += step_bytes(&plan->steps[end++]);
	return end;
}

/* One group's sets and sessions. */
struct group {
	const struct bench_plan *plan;
	unsigned process, index, first, nsteps, n;
	struct page_set *sets;
	struct bench_session **sessions;
	unsigned *order;
	unsigned *sequence; /* the process's slot counter */
};

static void group_release(struct group *g)
{
	for (unsigned k = 0; g->sessions && k < g->n; k++)
		bench_session_close(g->sessions[k]);
	for (unsigned i = 0; g->sets && i < g->nsteps; i++)
		page_set_release(&g->sets[i]);
	free(g->sessions);
	free(g->sets);
	free(g->order);
}

static void note(const struct bench_sink *sink, struct bench_progress *p, const char *text)
{
	if (sink->progress && text) {
		p->note = text;
		sink->progress(sink->arg, p);
		p->note = NULL;
	}
}

/* Step s's set, from the pages read before when the plan has them. */
static int set_build(const struct bench_plan *plan, unsigned s, struct page_set *set, struct kb_err *err)
{
	const struct page_set_request *req = &plan->steps[s].set;
	struct page_content content;

	if (!page_store_holds(plan->pages, s))
		return page_set_build(req, set, err);
	if (page_store_content(plan->pages, s, req->data, req->page_size, &content, err))
		return -1;
	int rc = page_set_lay_out(req, &content, set, err);
	page_content_release(&content);
	return rc;
}

/* Builds the group's sets and opens its sessions. */
static int group_open(struct group *g, const struct bench_sink *sink, struct bench_progress *p, struct kb_err *err)
{
	const struct bench_plan *plan = g->plan;

	g->n = g->nsteps * plan->nhashes;
	g->sets = calloc(g->nsteps, sizeof(*g->sets));
	g->sessions = calloc(g->n ? g->n : 1, sizeof(*g->sessions));
	g->order = calloc(g->n ? g->n : 1, sizeof(*g->order));
	if (!g->sets || !g->sessions || !g->order)
		return kb_fail(err, "out of memory");
	for (unsigned i = 0; i < g->nsteps; i++) {
		const struct bench_step *step = &plan->steps[g->first + i];
		p->step = g->first + i + 1;
		p->step_name = step->name;
		note(sink, p, step->building_note);
		if (set_build(plan, g->first + i, &g->sets[i], err)) {
			g->nsteps = i; /* the sets built so far are released */
			return -1;
		}
		for (unsigned h = 0; h < plan->nhashes; h++) {
			unsigned k = i * plan->nhashes + h, m = (g->first + i) * plan->nhashes + h;
			if (!(g->sessions[k] = bench_session_open(plan->hashes[h], &g->sets[i], &step->cfg, err)))
				return -1;
			if (sink->set_built)
				sink->set_built(sink->arg, m, g->sets[i].count, g->sets[i].working_set_bytes);
		}
	}
	return 0;
}

static unsigned group_rounds(const struct group *g)
{
	unsigned rounds = 0;

	for (unsigned i = 0; i < g->nsteps; i++)
		if (g->plan->steps[g->first + i].cfg.repeat > rounds)
			rounds = g->plan->steps[g->first + i].cfg.repeat;
	return rounds;
}

/* One measurement's turn: progress, warm-up, round, to the sink. 1 when a
 * stop request ended it. */
static int turn(struct group *g, unsigned k, unsigned r, const struct bench_sink *sink, struct bench_progress *p,
		struct interference_probe *probe, struct kb_err *err)
{
	const struct bench_plan *plan = g->plan;
	unsigned i = k / plan->nhashes, h = k % plan->nhashes, m = (g->first + i) * plan->nhashes + h;
	struct bench_round round;

	p->step = g->first + i + 1;
	p->step_name = plan->steps[g->first + i].name;
	p->hash = plan->hashes[h];
	p->measurement = m;
	if (sink->progress)
		sink->progress(sink->arg, p);
	bench_session_warm(g->sessions[k]);
	if (bench_session_round(g->sessions[k], probe, &round))
		return 1;
	round.process = g->process;
	round.round = r;
	round.sequence = (*g->sequence)++;
	return sink->round(sink->arg, m, &round, err) ? -1 : 0;
}

static int group_run(struct group *g, const struct bench_sink *sink, struct bench_progress *p,
		     struct interference_probe *probe, struct kb_err *err)
{
	unsigned rounds = group_rounds(g);

	p->rounds = rounds;
	for (unsigned r = 0; r < rounds; r++) {
		unsigned active = 0, slot = 0;
		schedule_order(g->plan->seed, g->process, r, g->index, g->order, g->n);
		for (unsigned k = 0; k < g->n; k++)
			active += g->plan->steps[g->first + k / g->plan->nhashes].cfg.repeat > r;
		p->round = r + 1;
		p->slots = active;
		for (unsigned j = 0; j < g->n; j++) {
			unsigned k = g->order[j];
			if (g->plan->steps[g->first + k / g->plan->nhashes].cfg.repeat <= r)
				continue;
			p->slot = ++slot;
			int rc = turn(g, k, r, sink, p, probe, err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int bench_run_process(const struct bench_plan *plan, unsigned process, const struct bench_sink *sink,
		      struct kb_err *err)
{
	struct bench_progress p = { .process = process + 1, .processes = plan->processes, .steps = plan->nsteps };
	struct interference_probe probe;
	unsigned sequence = 0, index = 0;
	int rc = 0;

	interference_open(&probe);
	for (unsigned first = 0; first < plan->nsteps && rc == 0 && !bench_stop_requested(); index++) {
		struct group g = { .plan = plan, .process = process, .index = index, .first = first,
				   .sequence = &sequence };
		unsigned end = group_end(plan, first);
		g.nsteps = end - first;
		rc = group_open(&g, sink, &p, err);
		if (rc == 0)
			rc = group_run(&g, sink, &p, &probe, err);
		group_release(&g);
		first = end;
	}
	interference_close(&probe);
	return rc < 0 ? -1 : 0;
}

void bench_results_free(struct bench_results *l)
{
	for (size_t i = 0; i < l->n; i++)
		bench_result_release(&l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

int bench_results_plan(struct bench_results *l, const struct bench_plan *plan, struct kb_err *err)
{
	unsigned n = bench_plan_measurements(plan);

	memset(l, 0, sizeof(*l));
	l->items = calloc(n ? n : 1, sizeof(*l->items));
	if (!l->items)
		return kb_fail(err, "out of memory");
	l->n = l->planned = n;
	l->processes_planned = plan->processes;
	for (unsigned p = 0; p < BENCH_PROCESSES_MAX; p++)
		l->process_cpu[p] = -1;
	for (unsigned m = 0; m < n; m++) {
		const struct bench_step *step = &plan->steps[m / plan->nhashes];
		const struct bench_names *names = plan->names ? &plan->names[m % plan->nhashes] : NULL;
		struct bench_result *r = &l->items[m];
		bench_result_begin(r, plan->hashes[m % plan->nhashes], &step->cfg);
		if (names) {
			r->hash = names->hash;
			r->naliases = names->naliases;
			memcpy(r->aliases, names->aliases, sizeof(r->aliases));
		}
		bench_step_data(step, r->data, sizeof(r->data));
		r->cache = page_set_cache_label(&step->set);
		r->cold_by = page_set_cold_by(&step->set);
		r->page_size = step->set.page_size;
		r->misalign = step->set.misalign;
		r->repeats_requested = step->cfg.repeat;
	}
	return 0;
}

void bench_results_set_facts(struct bench_results *l, unsigned m, uint64_t set_pages, uint64_t ws_bytes)
{
	if (m < l->n) {
		l->items[m].set_pages = set_pages;
		l->items[m].working_set_bytes = ws_bytes;
	}
}

int bench_results_add_round(struct bench_results *l, unsigned m, const struct bench_round *r)
{
	return m < l->n ? bench_result_add_round(&l->items[m], r) : -1;
}

int bench_results_finish(struct bench_results *l, struct kb_err *err)
{
	size_t kept = 0;

	l->free_core = free_core_figure();
	l->reference = disturb_reference_of(l->items, l->n, l->free_core.adds_per_cycle);
	if (estimate_results_against(l->items, l->n, &l->reference, &disturb_default, &estimate_default))
		return kb_fail(err, "out of memory");
	l->rounds_done = l->rounds_planned = 0;
	for (size_t i = 0; i < l->n; i++) {
		struct bench_result *r = &l->items[i];
		l->rounds_done += r->repeats;
		l->rounds_planned += r->repeats_requested * l->processes_planned;
		r->interrupted = bench_stop_requested() && r->repeats < r->repeats_requested * l->processes_planned;
		if (r->repeats == 0)
			bench_result_release(r);
		else
			l->items[kept++] = *r;
	}
	l->n = kept;
	return 0;
}

/* The in-process sink: rounds straight into the results. */
struct local {
	struct bench_results *out;
	void (*progress)(void *arg, const struct bench_progress *p);
	void *progress_arg;
};

static void local_facts(void *arg, unsigned m, uint64_t set_pages, uint64_t ws_bytes)
{
	bench_results_set_facts(((struct local *)arg)->out, m, set_pages, ws_bytes);
}

static void local_progress(void *arg, const struct bench_progress *p)
{
	struct local *l = arg;

	if (l->progress)
		l->progress(l->progress_arg, p);
}

static int local_round(void *arg, unsigned m, const struct bench_round *r, struct kb_err *err)
{
	return bench_results_add_round(((struct local *)arg)->out, m, r) ? kb_fail(err, "out of memory") : 0;
}

int bench_run(const struct bench_plan *plan, void (*progress)(void *arg, const struct bench_progress *p),
	      void *progress_arg, struct bench_results *out, struct kb_err *err)
{
	struct local l = { out, progress, progress_arg };
	struct bench_sink sink = { &l, local_facts, local_progress, local_round };

	if (bench_results_plan(out, plan, err))
		return -1;
	for (unsigned p = 0; p < plan->processes && !bench_stop_requested(); p++) {
		if (bench_run_process(plan, p, &sink, err))
			return -1;
	}
	return bench_results_finish(out, err);
}
