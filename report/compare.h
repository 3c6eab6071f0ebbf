/* Comparing two results documents (ksmbench compare): results matched by
 * (hash, dataset, page size, misalignment, cache, timer), the median rates
 * set side by side, and a verdict per pair that calls a change a
 * regression or an improvement only when it is beyond the threshold AND the
 * two runs' rounds are separated: by a Mann-Whitney U test where the rounds
 * are enough for it, else by their ranges not overlapping. */
#ifndef KB_COMPARE_H
#define KB_COMPARE_H

#include <stdio.h>

#include "results_load.h"

enum compare_verdict {
	VERDICT_UNCHANGED,   /* within the threshold */
	VERDICT_NOISE,       /* beyond the threshold, but the rounds are not separated */
	VERDICT_IMPROVEMENT,
	VERDICT_REGRESSION,
};

enum compare_method {
	METHOD_RANK_EXACT,   /* Mann-Whitney U, exact distribution */
	METHOD_RANK_NORMAL,  /* Mann-Whitney U, normal approximation */
	METHOD_RANGES,       /* too few rounds for the test: do [min, max] overlap? */
};

struct compare_pair {
	const struct loaded_result *base, *new_;
	double change_percent;   /* of the median rate, new against base */
	enum compare_verdict verdict;
	enum compare_method method;
	double p_value;          /* rank test; -1 with METHOD_RANGES */
	int ranges_overlap;
	size_t base_samples, new_samples;
};

struct compare_settings {
	double threshold_percent; /* default 5 */
	double alpha;             /* default 0.05 */
};

struct compare_outcome {
	struct compare_pair *pairs;
	size_t npairs;
	const struct loaded_result **only_base, **only_new;
	size_t nonly_base, nonly_new;
	size_t counts[4];         /* per verdict */
};

/* Matches and judges. Errors: a result key twice in one file, no result in
 * common, out of memory. */
int compare_run(const struct loaded_doc *base, const struct loaded_doc *new_, const struct compare_settings *s,
		struct compare_outcome *out, struct kb_err *err);
void compare_release(struct compare_outcome *out);

const char *compare_verdict_name(enum compare_verdict v);
const char *compare_method_name(enum compare_method m);

/* The compare document's fields and text: compare_report.c, written through
 * the format registry (report.h). */

#endif
