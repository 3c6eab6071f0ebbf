/* Reading a plan's files once, before any process measures (see
 * bench_plan_read_pages in run.h). */
#include <string.h>

#include "../datasets/file_input.h"
#include "run.h"

static int from_file(const struct page_set_request *r)
{
	return strcmp(r->data, "zero") != 0 && strcmp(r->data, "random") != 0;
}

/* The first step that reads the same pages as step i (i if none). The
 * format and its options are the run's, the same for every step. */
static unsigned first_same(const struct bench_plan *plan, unsigned i)
{
	const struct page_set_request *r = &plan->steps[i].set;

	for (unsigned j = 0; j < i; j++) {
		const struct page_set_request *q = &plan->steps[j].set;
		if (from_file(q) && strcmp(q->data, r->data) == 0 && q->page_size == r->page_size &&
		    page_set_request_file_bytes(q) == page_set_request_file_bytes(r))
			return j;
	}
	return i;
}

/* Whether step i reads a file that another step reads in another way
 * (page size, amount) before it. */
static int read_again(const struct bench_plan *plan, unsigned i)
{
	const struct page_set_request *r = &plan->steps[i].set;

	for (unsigned j = 0; j < i; j++)
		if (from_file(&plan->steps[j].set) && strcmp(plan->steps[j].set.data, r->data) == 0 &&
		    first_same(plan, j) == j && first_same(plan, i) == i)
			return 1;
	return 0;
}

static int read_all(const struct bench_plan *plan, struct page_store *store, struct kb_err *err)
{
	/* A pipe read twice would give the second reader what the first left. */
	for (unsigned i = 0; i < plan->nsteps; i++)
		if (from_file(&plan->steps[i].set) && read_again(plan, i) &&
		    file_input_keep(plan->steps[i].set.data, err))
			return -1;
	for (unsigned i = 0; i < plan->nsteps; i++) {
		const struct page_set_request *r = &plan->steps[i].set;
		unsigned same = first_same(plan, i);
		if (!from_file(r))
			continue;
		if (same < i)
			page_store_share(store, i, same);
		else if (page_store_fill(store, i, r->data, r->page_size, &r->dump, page_set_request_file_bytes(r), err))
			return -1;
	}
	return page_store_seal(store, err);
}

int bench_plan_read_pages(const struct bench_plan *plan, struct page_store *store, struct kb_err *err)
{
	if (page_store_init(store, plan->nsteps, err))
		return -1;
	int rc = read_all(plan, store, err);
	file_input_forget_kept();
	return rc;
}
