/* Reading a results document (schema ksmbench-results/1) back, for the
 * commands that consume one (compare, plot). Every field they use is
 * checked; a file that is not such a document gives one error naming the
 * file and what is wrong. */
#ifndef KB_RESULTS_LOAD_H
#define KB_RESULTS_LOAD_H

#include <stddef.h>

#include <cJSON.h>

#include "../common/err.h"

struct loaded_result {
	/* Strings point into the document. */
	const char *hash, *impl, *data, *cache, *timer;
	unsigned page_size, misalign, repeats;
	double bytes_per_second_best, bytes_per_second_median;
	double bytes_per_second_min, bytes_per_second_max; /* of the slowest and fastest rounds */
	const double *rounds;  /* bytes_per_second_rounds; NULL in files written before they were kept */
	size_t nrounds;
	int interrupted;
};

struct loaded_doc {
	const char *path;
	cJSON *root;
	struct loaded_result *results;
	size_t n;
	double *round_store;     /* every result's rounds */
	int interrupted;         /* the run was stopped early */
	const char *date, *git_revision, *cpu_brand; /* NULL when absent */
};

int results_load(const char *path, struct loaded_doc *doc, struct kb_err *err);
void results_release(struct loaded_doc *doc);

/* The dataset as matched across files (report_stable_data) into buf. */
void results_dataset(const struct loaded_result *r, char *buf, size_t size);

#endif
