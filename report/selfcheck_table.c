/* The report of ksmbench bench --selfcheck: one row per hash, each with its
 * two comparisons and whether they meet their targets. */
#include "../bench/selfcheck.h"
#include "results.h"
#include "table.h"

int report_selfcheck(FILE *out, const struct bench_context *ctx, const struct selfcheck_row *rows, size_t n)
{
	struct table *t = table_new(10, "lrrrlrrrlr");
	int rc = 0;

	if (!t || table_add_rowf(t, "HASH", "minimal ns/page", "harness ns/page", "diff %", "within 3%",
				 "window ns/page", "rdtsc mean", "diff %", "within 5%", "rdtsc median"))
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
		const char *rdtsc_verdict = !x->compute_bound ? (x->rdtsc_ok ? "yes (not compute-bound)"
									       : "no (not compute-bound: no target)")
							      : x->rdtsc_ok ? "yes" : "NO";
		rc = table_add_rowf(t, x->hash, a, b, d, x->harness_ok ? "yes" : "NO", w, r, e, rdtsc_verdict, m);
	}
	if (rc == 0)
		rc = report_table_under_context(out, ctx, t);
	if (rc == 0 && fprintf(out, "\nharness: the window timer's best round; minimal: a bare loop around the same calls.\n"
				    "rdtsc mean: the mean call, timer overhead subtracted, interruptions included as in a\n"
				    "window's wall time (compared with the window's median round); rdtsc median leaves\n"
				    "them out, so the gap between the two is time lost to interrupts and preemption.\n") < 0)
		rc = -1;
	if (rc == 0)
		rc = report_warnings(out, ctx);
	table_free(t);
	return rc;
}
