/* Checking the harness against itself: its rate against a minimal
 * hand-written loop around the same function, and the rdtsc timer's ns per
 * page against the window timer's. */
#ifndef KB_SELFCHECK_H
#define KB_SELFCHECK_H

#include "bench.h"

/* Whole numbers: the table's headers are made from their spelling. */
#define SELFCHECK_HARNESS_TARGET_PERCENT 3
#define SELFCHECK_RDTSC_TARGET_PERCENT 5
/* Below this rate on a hot page a hash is limited by its own arithmetic
 * (compute-bound); above it, call overhead and the serialization of rdtsc
 * reads are a visible share of a call, so the rdtsc target does not apply. */
#define SELFCHECK_COMPUTE_BOUND_BYTES_PER_S 16e9

struct selfcheck_row {
	const char *hash;
	char data[PAGE_SET_DATA_MAX];   /* the set checked on: "zero", "random", "file:PATH" */
	uint32_t page_size, misalign;
	double minimal_ns_per_page;     /* best round of the minimal loop */
	double harness_ns_per_page;     /* best round of the window timer */
	double harness_diff_percent;    /* harness against minimal (+: harness slower) */
	int harness_ok;
	double window_ns_per_page_median;
	double rdtsc_ns_per_page_median;  /* the median call: interruptions left out */
	double rdtsc_ns_per_page_mean;    /* the mean call: interruptions in, as in a window */
	double rdtsc_diff_percent;        /* rdtsc mean against window median */
	int compute_bound, rdtsc_ok;
};

/* Whether row met its targets: the harness's always, rdtsc's where the
 * hash is compute-bound (what bench --selfcheck's exit status says). */
int selfcheck_row_passed(const struct selfcheck_row *row);
/* Whether all n rows did: the exit status, and the document's "passed". */
int selfcheck_all_passed(const struct selfcheck_row *rows, size_t n);

/* Measures h on the (hot) set with cfg's window and repeat. */
int selfcheck_run(const struct hash_impl *h, const struct page_set *set, const struct bench_config *cfg,
		  struct selfcheck_row *row, struct kb_err *err);

#endif
