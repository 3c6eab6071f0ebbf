/* Reading a results document (schema ksmbench-results/2, or /1) back, for the
 * commands that consume one (compare, plot), driven by the same field
 * tables that write it (result_fields.c, results_doc.c): every field they
 * use is checked; a file that is not such a document gives one error
 * naming the file and what is wrong. Input is bounded (docs/input-limits.md):
 * at most RESULTS_MAX_BYTES of text holding at most RESULTS_MAX_VALUES JSON
 * values, nothing after the document, numbers in their fields' ranges and
 * arrays of at most RECORD_LOAD_MAX_ITEMS elements. */
#ifndef KB_RESULTS_LOAD_H
#define KB_RESULTS_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#include "../common/err.h"
#include "record.h"

#define RESULTS_MAX_BYTES ((size_t)16 << 20)
#define RESULTS_MAX_VALUES 1000000

/* A result as read back (the result schema's load struct). */
struct loaded_result {
	/* Strings point into the document. */
	const char *hash, *impl, *data, *cache, *timer;
	int apart;             /* calls_apart; 0 when absent (written before it was) */
	uint64_t page_size, misalign, repeats;
	int interrupted;
	double bytes_per_second_best, bytes_per_second_median;
	double ns_per_page_min, ns_per_page_max;
	struct record_array rounds_read; /* bytes_per_second_rounds */
	/* Version 2: */
	uint64_t processes, rounds_disturbed;
	const char *stability, *stability_text;
	struct record_array processes_read; /* bytes_per_second_processes */
	const char *cold_by;   /* NULL when absent or null (before it was written: "size" if cold) */
	/* Derived once read: */
	double bytes_per_second_min, bytes_per_second_max; /* of the slowest and fastest rounds */
	const double *rounds;  /* bytes_per_second_rounds; NULL in files written before they were kept */
	size_t nrounds;
	/* The per-process values compare judges: version 2's, or (version 1:
	 * one process) the median alone. */
	const double *values;
	size_t nvalues;
	int unstable;          /* the document says so, or version 1 (one process) */
	char timer_label[48];  /* the timer, " apart" after it for calls apart: how results are told apart */
	const char *why;       /* the reasons, "" if none */
};

/* The context as read back (the context schema's load struct). */
struct loaded_context {
	const char *date, *git_revision; /* NULL when absent */
	struct loaded_cpu {
		const char *brand;
	} cpu;
};

struct loaded_doc {
	const char *path;
	cJSON *root;
	/* Read by the results document's schema: */
	int interrupted;               /* the run was stopped early */
	struct loaded_context context;
	struct record_array results_read;
	/* Views of it: */
	int version;                   /* 1 or 2 */
	struct loaded_result *results;
	size_t n;
	const char *date, *git_revision, *cpu_brand; /* NULL when absent */
};

int results_load(const char *path, struct loaded_doc *doc, struct kb_err *err);
/* The same from len bytes of text (path names it in errors). */
int results_parse(const char *path, const void *text, size_t len, struct loaded_doc *doc, struct kb_err *err);
void results_release(struct loaded_doc *doc);

/* The dataset as matched across files (report_stable_data) into buf; its
 * whole length, as snprintf's (a key needs all of it, a table cell not). */
int results_dataset(const struct loaded_result *r, char *buf, size_t size);

#endif
