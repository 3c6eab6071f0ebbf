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

/* Whether data can be read once only: a FIFO (or a socket), or standard
 * input that is not a file. A character device (/dev/zero) opens again, as
 * a file does; a directory or a name that fails is the reader's to
 * report. */
static int read_once(const char *data)
{
	struct stat st;

	if (file_input_rereadable(data, &st))
		return 0;
	if (strcmp(data, "-") == 0)
		return 1;
	return stat(data, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/* A data read once that the steps read in two ways, refused before any
 * page is read. */
static int check_read_once(const struct bench_plan *plan, struct kb_err *err)
{
	for (unsigned i = 0; i < plan->nsteps; i++) {
		const char *data = plan->steps[i].set.data;
		if (page_set_data_is_file(data) && read_again(plan, i) && read_once(data))
			return kb_fail(err, "'%s' cannot be read twice (a pipe, a FIFO or standard input that is not "
					    "a file), and the steps read it in two ways (page sizes, hot and cold): "
					    "save it to a file first", data);
	}
	return 0;
}

/* Past BENCH_RUN_MEMORY_BYTES of pages held beyond the first slot, a
 * file's step is left to the processes to read, as sets past it are built
 * by groups: a sweep of five page sizes over a 256 MiB cold set held them
 * all, 2.3 GB against 1.3 before the store. Data read once is held
 * whatever it costs: no process could read it again. Where no store can be
 * made (no memfd, $TMPDIR unwritable) the processes read the files
 * themselves, as they did before the store, and only data read once fails. */
static int read_all(const struct bench_plan *plan, struct page_store *store, struct kb_err *err)
{
	uint64_t held = 0;
	int no_store = 0;
	struct kb_err ignored;

	if (check_read_once(plan, err))
		return -1;
	for (unsigned i = 0; i < plan->nsteps; i++) {
		const struct page_set_request *r = &plan->steps[i].set;
		unsigned same = first_same(plan, i);
		if (!page_set_data_is_file(r->data))
			continue;
		if (same < i) {
			if (page_store_holds(store, same))
				page_store_share(store, i, same);
			continue;
		}
		int once = read_once(r->data);
		if (!once && (no_store || held >= BENCH_RUN_MEMORY_BYTES))
			continue;
		if (page_store_open(store, once ? err : &ignored)) {
			if (once)
				return -1;
			no_store = 1;
			continue;
		}
		uint64_t room = once || held == 0 ? UINT64_MAX : BENCH_RUN_MEMORY_BYTES - held;
		if (page_store_fill(store, i, r->data, r->page_size, &r->dump, page_set_request_file_bytes(r), room, err))
			return -1;
		held += page_store_held(store, i);
	}
	return page_store_seal(store, err);
}

int bench_plan_read_pages(const struct bench_plan *plan, struct page_store *store, struct kb_err *err)
{
	return page_store_init(store, plan->nsteps, err) ? -1 : read_all(plan, store, err);
}
