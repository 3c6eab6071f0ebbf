/* The select document: the results, and the choice the v2 patch would
 * make, made over processes: each hash's figure is the median over its
 * processes of each process's best round (the patch printed one round per
 * boot; a process is one boot here), the hashes measured side by side; the
 * highest count wins (the first of equals, as in the patch, which compared
 * counts, not its MB/s figures: two counts 31 apart print the same MB/s),
 * and the document says in how many processes the winner was the fastest. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "../bench/jiffies.h"
#include "../bench/run.h"
#include "../common/plural.h"
#include "kinds.h"
#include "result_fields.h"

#define DOC(row) ((const struct report_document *)(row)->item)

/* The highest count of r's undisturbed rounds in process p (all its
 * rounds if every one was disturbed); -1 if r has none there. */
static long long process_best(const struct bench_result *r, unsigned p)
{
	long long best = -1, any = -1;

	for (unsigned i = 0; i < r->repeats; i++) {
		const struct bench_round *x = &r->rounds[i];
		long long k = x->calls > LLONG_MAX ? LLONG_MAX : (long long)x->calls;
		if (x->process != p)
			continue;
		if (k > any)
			any = k;
		if (!x->disturbed && k > best)
			best = k;
	}
	return best >= 0 ? best : any;
}

static int cmp_count(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* The median over processes of each process's best count (0 without
 * rounds): what the choice compares. */
static uint64_t select_count(const struct bench_result *r, unsigned processes)
{
	long long v[BENCH_PROCESSES_MAX];
	unsigned n = 0;

	for (unsigned p = 0; p < processes && n < BENCH_PROCESSES_MAX; p++) {
		long long b = process_best(r, p);
		if (b >= 0)
			v[n++] = b;
	}
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(v[0]), cmp_count);
	return n % 2 ? (uint64_t)v[n / 2] : ((uint64_t)v[n / 2 - 1] + (uint64_t)v[n / 2]) / 2;
}

/* Its kernel figure: count * PAGE_SIZE >> 17. */
static long select_figure(const struct bench_result *r, unsigned processes)
{
	return jiffies_kernel_mb_per_s(select_count(r, processes), r->page_size);
}

static unsigned processes_of(const struct report_document *doc)
{
	unsigned n = 0;

	for (size_t i = 0; i < doc->nresults; i++)
		for (unsigned j = 0; j < doc->results[i].repeats; j++)
			if (doc->results[i].rounds[j].process + 1 > n)
				n = doc->results[i].rounds[j].process + 1;
	return n;
}

/* The patch kept the first of equals: a strictly higher count wins
 * (if (best_perf < perf), as raid6's if (perf > bestgenperf)). */
static const struct bench_result *chosen(const struct report_document *doc)
{
	const struct bench_result *best = doc->nresults ? &doc->results[0] : NULL;
	unsigned np = processes_of(doc);

	for (size_t i = 1; i < doc->nresults; i++)
		if (select_count(&doc->results[i], np) > select_count(best, np))
			best = &doc->results[i];
	return best;
}

/* In how many processes the choice had the highest best round. */
static unsigned won(const struct report_document *doc)
{
	const struct bench_result *c = chosen(doc);
	unsigned np = processes_of(doc), wins = 0;

	for (unsigned p = 0; c && p < np; p++) {
		long long mine = process_best(c, p), top = mine;
		for (size_t i = 0; i < doc->nresults; i++)
			if (process_best(&doc->results[i], p) > top)
				top = process_best(&doc->results[i], p);
		wins += mine >= 0 && mine == top;
	}
	return wins;
}

RECORD_GETTER(s_selection, record_item(v, chosen(DOC(w)) ? DOC(w) : NULL))
RECORD_GETTER(s_method, record_str(v, "v2 patch: zero page, HZ>>3 jiffies, highest count; over processes: the "
				      "median of each process's best round"))
RECORD_GETTER(s_choice, record_str(v, chosen(DOC(w))->hash))
RECORD_GETTER(s_kernel, record_int(v, select_figure(chosen(DOC(w)), processes_of(DOC(w)))))
RECORD_GETTER(s_won, record_uint(v, won(DOC(w))))
RECORD_GETTER(s_processes, record_uint(v, processes_of(DOC(w))))
RECORD_GETTER(s_stability, record_str(v, chosen(DOC(w))->unstable || 2 * won(DOC(w)) <= processes_of(DOC(w))
						? "unstable" : "stable"))

static const struct record_field selection_fields[] = {
	{ .name = "method", .type = RECORD_STR, .get = s_method },
	{ .name = "choice", .type = RECORD_STR, .get = s_choice },
	{ .name = "kernel_mb_per_s", .type = RECORD_INT, .get = s_kernel },
	{ .name = "processes_won", .type = RECORD_UINT, .get = s_won },
	{ .name = "processes", .type = RECORD_UINT, .get = s_processes },
	/* unstable: the winner's result is, or it won no more than half the processes */
	{ .name = "stability", .type = RECORD_STR, .get = s_stability },
};

static const struct record_schema selection_schema = { NULL, RECORD_FIELDS(selection_fields), NULL, 0 };

/* The results document with a "selection" object (null when the run was
 * interrupted before the first hash). */
static const struct record_field document_fields[] = {
	{ .name = "selection", .type = RECORD_OBJECT, .get = s_selection, .sub = &selection_schema },
};

const struct record_schema select_document_schema = {
	&report_results_document_schema, RECORD_FIELDS(document_fields), NULL, 0,
};

int select_report_markdown(FILE *out, const struct report_document *doc)
{
	/* Stopped before a choice: what was measured and the note that says
	 * so, as bench's Markdown has (an empty file said nothing). */
	if (bench_report_text(out, doc, REPORT_MARKDOWN))
		return -1;
	if (!chosen(doc))
		return 0;
	unsigned np = processes_of(doc);

	return fprintf(out, "\nChoice (v2 patch: highest count, median over %u process%s): **%s** (fastest in %u)\n",
		       np, kb_es(np), chosen(doc)->hash, won(doc)) < 0 ? -1 : 0;
}

int select_report_kernel(FILE *out, const struct report_document *doc)
{
	unsigned np = processes_of(doc);

	if (!chosen(doc))
		return 0;
	for (size_t i = 0; i < doc->nresults; i++)
		if (report_kernel_line(out, report_kernel_name(&doc->results[i]), select_figure(&doc->results[i], np)))
			return -1;
	return fprintf(out, "ksm: choise %s as hash function\n", report_kernel_name(chosen(doc))) < 0 ? -1 : 0;
}
