/* Reading a plan's files once, before any process measures (see
 * bench_plan_read_pages in run.h). */
#include <string.h>
#include <sys/stat.h>

#include "../datasets/file_input.h"
#include "run.h"

/* The first step that reads the same pages as step i (i if none). The
 * format and its options are the run's, the same for every step. */
static unsigned first_same(const struct bench_plan *plan, unsigned i)
{
	const struct page_set_request *r = &plan->steps[i].set;

	for (unsigned j = 0; j < i; j++) {
		const struct page_set_request *q = &plan->steps[j].set;
		if (page_set_data_is_file(q->data) && strcmp(q->data, r->data) == 0 && q->page_size == r->page_size &&
		    page_set_request_file_bytes(q) == page_set_request_file_bytes(r))
			return j;
	}
	return i;
}

/* Whether step i reads a file that another step before it reads in
 * another way (page size, amount). */
static int read_again(const struct bench_plan *plan, unsigned i)
{
	const struct page_set_request *r = &plan->steps[i].set;

	for (unsigned j = 0; j < i; j++)
		if (page_set_data_is_file(plan->steps[j].set.data) && strcmp(plan->steps[j].set.data, r->data) == 0 &&
		    first_same(plan, j) == j && first_same(plan, i) == i)
			return 1;
	return 0;
}

/* Past BENCH_RUN_MEMORY_BYTES of pages held, a file's step is left to the
 * processes to read, as sets past it are built by groups: a sweep of five
 * page sizes over a 256 MiB cold set held them all, 2.3 GB against 1.3
 * before the store. A pipe is held whatever it costs: no process could
 * read it again. */
static int read_all(const struct bench_plan *plan, struct page_store *store, struct kb_err *err)
{
	uint64_t held = 0;

	for (unsigned i = 0; i < plan->nsteps; i++) {
		const struct page_set_request *r = &plan->steps[i].set;
		unsigned same = first_same(plan, i);
		struct stat st;
		if (!page_set_data_is_file(r->data))
			continue;
		if (same < i) {
			if (page_store_holds(store, same))
				page_store_share(store, i, same);
			continue;
		}
		int pipe = !file_input_rereadable(r->data, &st);
		if (pipe && read_again(plan, i))
			return kb_fail(err, "'%s' cannot be read twice (a pipe or FIFO), and the steps read it in two "
					    "ways (page sizes, hot and cold): save it to a file first", r->data);
		if (!pipe && held >= BENCH_RUN_MEMORY_BYTES)
			continue;
		if (page_store_fill(store, i, r->data, r->page_size, &r->dump, page_set_request_file_bytes(r), err))
			return -1;
		held += page_store_held(store, i);
	}
	return page_store_seal(store, err);
}

int bench_plan_read_pages(const struct bench_plan *plan, struct page_store *store, struct kb_err *err)
{
	return page_store_init(store, plan->nsteps, err) ? -1 : read_all(plan, store, err);
}
