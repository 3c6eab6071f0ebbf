/* Comparing two results documents (ksmbench compare): results matched by
 * (hash, dataset, page size, misalignment, cache, timer), their headline
 * rates (medians over processes) set side by side, and a verdict per pair
 * judged on the per-process values (per core cycle, sets not cold, where
 * the runs' clocks differ): a change within the threshold is
 * "unchanged"; beyond it, "inconclusive" when either side is unstable (a
 * version-1 document counts as one process) or has too few processes for
 * the test, "noise" when a two-sided Mann-Whitney U test over the
 * processes' values does not separate them at alpha or the interval of the
 * shift between them reaches back inside the threshold, else a regression
 * or an improvement. Where the two documents' contexts differ in what makes
 * figures comparable, each such field is named. */
#ifndef KB_COMPARE_H
#define KB_COMPARE_H

#include <stdio.h>

#include "results_load.h"

enum compare_verdict {
	VERDICT_UNCHANGED,    /* within the threshold */
	VERDICT_NOISE,        /* beyond the threshold, but not with confidence (the test or the shift's interval) */
	VERDICT_IMPROVEMENT,
	VERDICT_REGRESSION,
	VERDICT_INCONCLUSIVE, /* beyond the threshold, but a side is unstable or has too few processes */
	VERDICTS
};

enum compare_method {
	METHOD_RANK_EXACT,    /* Mann-Whitney U, exact distribution */
	METHOD_RANK_NORMAL,   /* Mann-Whitney U, normal approximation */
	METHOD_NONE,          /* not tested: too few values */
};

struct compare_pair {
	const struct loaded_result *base, *new_;
	double change_percent;   /* of the headline rate, new against base */
	enum compare_verdict verdict;
	enum compare_method method;
	double p_value;          /* rank test; -1 with METHOD_NONE */
	/* The shift's interval at 1 - alpha, new against base in percent
	 * (rank_test_ratio_interval); NAN where the values allow none. */
	double change_low_percent, change_high_percent;
	size_t base_samples, new_samples; /* per-process values judged */
	int per_cycle;           /* judged per core cycle: the new rates divided by the clock factor */
	char why[1100];          /* inconclusive: the reason; "" otherwise */
};

struct compare_settings {
	double threshold_percent; /* default 5 */
	double alpha;             /* default 0.05 */
};

/* A field whose value differs between the two documents' contexts (or an
 * alias's implementation between two matched results). */
struct compare_mismatch {
	char field[96];
	char base[100], new_[100]; /* the values as JSON, control characters replaced */
};

#define COMPARE_MISMATCHES_MAX 32

struct compare_outcome {
	struct compare_pair *pairs;
	size_t npairs;
	const struct loaded_result **only_base, **only_new;
	size_t nonly_base, nonly_new;
	size_t counts[VERDICTS]; /* per verdict */
	struct compare_mismatch mismatches[COMPARE_MISMATCHES_MAX];
	size_t nmismatches;
	/* Why the two runs' cores were not alike (their contexts' reference
	 * throughput or clock further apart than the base's disturbance
	 * thresholds), or "": then every change beyond the threshold is
	 * inconclusive. */
	char runs_differ[400];
	/* The two runs' core clocks, the median effective clock of their
	 * rounds kept (NAN where a run has none), and what the new run's rates
	 * are divided by before a pair whose sets are not cold is judged: the
	 * clocks' ratio where both are known and more than COMPARE_CLOCK_SHARE
	 * apart, else 1 (compare_contexts). */
	double clock_base_hz, clock_new_hz, clock_factor;
};

/* Two runs' clocks this share apart or less are taken as one, so that runs
 * at one clock are judged, and their CHANGE % read, on the rates as
 * measured. */
#define COMPARE_CLOCK_SHARE 0.01

/* Matches and judges. Errors: a result key twice in one file, no result in
 * common, out of memory. */
int compare_run(const struct loaded_doc *base, const struct loaded_doc *new_, const struct compare_settings *s,
		struct compare_outcome *out, struct kb_err *err);
void compare_release(struct compare_outcome *out);

const char *compare_verdict_name(enum compare_verdict v);
const char *compare_method_name(enum compare_method m);

/* The context fields compared, and how mismatches are found (compare_context.c);
 * sets out->runs_differ and the clocks, so it runs before the pairs are
 * judged. threshold_share: the compare threshold as a share (0.05), which
 * the median throughput of the two runs' kept rounds (per cycle where the
 * clocks differ) must stay within. */
void compare_contexts(const struct loaded_doc *base, const struct loaded_doc *new_, double threshold_share,
		      struct compare_outcome *out);
void compare_mismatch_add(struct compare_outcome *out, const char *field, const char *base, const char *new_);

/* The compare document's fields and text: compare_report.c, written through
 * the format registry (report.h). */

#endif
