/* The report of ksmbench bench --selfcheck: one row per hash, each with its
 * two comparisons and whether they meet their targets. */
#include "../bench/selfcheck.h"
#include "context_text.h"

/* "*": not compute-bound, so no target (said under the table), which in
 * the cell made the table 120 columns wide. */
static const char *rdtsc_verdict(const struct selfcheck_row *x)
{
	if (!x->compute_bound)
		return x->rdtsc_ok ? "yes*" : "no*";
	return x->rdtsc_ok ? "yes" : "NO";
}

static struct table *checks_table(const struct selfcheck_row *rows, size_t n)
{
	struct table *t = table_new(10, "lrrrlrrrlr");
	int rc = 0;

	if (!t || table_add_rowf(t, "HASH", "minimal", "harness", "diff %", "within 3%", "window", "rdtsc mean", "diff %",
				 "within 5%", "rdtsc median"))
		rc = -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct selfcheck_row *x = &rows[i];
		char a[32], b[32], d[32], w[32], r[32], e[32], m[32];
		snprintf(a, sizeof(a), "%.1f", x->minimal_ns_per_page);
		snprintf(b, sizeof(b), "%.1f", x->harness_ns_per_page);
		snprintf(d, sizeof(d), "%+.2f", x->harness_diff_percent);
		snprintf(w, sizeof(w), "%.1f", x->window_ns_per_page_median);
		snprintf(r, sizeof(r), "%.1f", x->rdtsc_ns_per_page_mean);
		snprintf(m, sizeof(m), "%.1f", x->rdtsc_ns_per_page_median);
		snprintf(e, sizeof(e), "%+.2f", x->rdtsc_diff_percent);
		rc = table_add_rowf(t, x->hash, a, b, d, x->harness_ok ? "yes" : "NO", w, r, e, rdtsc_verdict(x), m);
	}
	return table_done(t, rc);
}

int selfcheck_report_table(FILE *out, const struct report_document *doc)
{
	struct table *t = checks_table(doc->checks, doc->nchecks);
	int rc = t ? report_table_in_context(out, doc->ctx, t, REPORT_PLAIN, 0, report_columns(doc)) : -1;

	table_free(t);
	int bound = 1;
	for (size_t i = 0; i < doc->nchecks; i++)
		bound &= doc->checks[i].compute_bound;
	if (rc == 0 && fprintf(out, "\nns/page. harness: the window timer's best round; minimal: a bare loop around the same\n"
				    "calls; window: its median round.\n"
				    "rdtsc mean: the mean call, timer overhead subtracted, interruptions included as in a\n"
				    "window's wall time (compared with the window's median round); rdtsc median leaves\n"
				    "them out, so the gap between the two is time lost to interrupts and preemption.\n"
				    "%s", bound ? "" : "*: not compute-bound (over 16 GB/s, where call overhead and rdtsc's\n"
				    "serialisation are a visible share of a call): no target.\n") < 0)
		rc = -1;
	return rc == 0 ? report_warnings(out, doc->ctx, "warning: ", report_columns(doc)) : -1;
}
