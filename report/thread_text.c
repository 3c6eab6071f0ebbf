/* The thread document in text (plain or Markdown: the kernel block, the
 * contenders outside it, the legend) and in kernel lines; the rows and
 * their fields are thread.c's. */
#include "thread.h"

#include <string.h>

#include "../bench/estimate.h"
#include "../common/kernel_release.h"
#include "../common/plural.h"
#include "../hashes/impls.h"
#include "context_text.h"
#include "kinds.h"
#include "record_table.h"
#include "stability_text.h"
#include "text_wrap.h"

#define THREAD_ROWS_MAX 16
#define ROW(row) ((const struct thread_row *)(row)->item)

/* "11.91 ±1.2%" ("±12%" from 10% up: the column stays narrow): a
 * speed-up here and its interval's half-width. */
static int ratio_cell(char *buf, size_t size, double x, const struct stats_interval *iv)
{
	double pct = estimate_half_width_percent(iv);

	if (x <= 0)
		return 0;
	if (pct >= 0)
		snprintf(buf, size, "%.2f ±%.*f%%", x, pct < 10 ? 1 : 0, pct);
	else
		snprintf(buf, size, "%.2f", x);
	return 1;
}

static int mb_x_cell(const struct record_row *w, char *buf, size_t size)
{
	return ratio_cell(buf, size, ROW(w)->mb_x_here, &ROW(w)->mb_x_here_interval);
}

static int ns_x_cell(const struct record_row *w, char *buf, size_t size)
{
	return ratio_cell(buf, size, ROW(w)->ns_x_here, &ROW(w)->ns_x_here_interval);
}

/* The kernel's first release with a row's code, where the release the
 * rows are for lacks it; else NULL. */
static const char *newer_since(const struct thread_row *r)
{
	const struct bench_result *b = r->ksm ? r->ksm : r->kernel;
	const struct hash_impl *h = b && b->impl ? hash_find(b->impl) : NULL;

	return r->newer_than_release && h ? h->kernel.since : NULL;
}

/* The kernel block names a row by what ran where that differs from the
 * thread's name ("crc32c-3way" for the thread's crc32c), and says from
 * which release the kernel has it where the running one does not. */
static int name_cell(const struct record_row *w, char *buf, size_t size)
{
	const struct thread_row *r = ROW(w);
	const struct bench_result *b = r->ksm ? r->ksm : r->kernel;
	const char *since = newer_since(r);

	snprintf(buf, size, "%s%s%s%s", b && b->impl ? b->impl : r->hash, since ? " (" : "", since ? since : "",
		 since ? "+)" : "");
	return 1;
}

/* Every header says best or median; kMB/s is the kernel's MB/s. */
static const struct record_column kernel_columns[] = {
	{ .header = "HASH", .align = 'l', .cell = name_cell },
	{ .header = "kMB/s best", .align = 'r', .field = "kernel_mb_per_s_here" },
	{ .header = "x jhash2", .align = 'r', .cell = mb_x_cell },
	{ .header = "thread", .align = 'r', .field = "kernel_mb_per_s_thread" },
	{ .header = "x", .align = 'r', .field = "speedup_vs_jhash2_kernel_thread", .format = "%.2f" },
	{ .header = "ns/pg median", .align = 'r', .field = "ns_per_page_here", .format = "%.0f" },
	{ .header = "x jhash2", .align = 'r', .cell = ns_x_cell },
	{ .header = "thread", .align = 'r', .field = "ns_per_page_thread", .format = "%.0f" },
	{ .header = "x", .align = 'r', .field = "speedup_vs_jhash2_ksm_thread", .format = "%.2f" },
};

static const struct record_column outside_columns[] = {
	{ .header = "HASH", .align = 'l', .cell = name_cell },
	{ .header = "kMB/s best", .align = 'r', .field = "kernel_mb_per_s_here" },
	{ .header = "x jhash2", .align = 'r', .cell = mb_x_cell },
	{ .header = "ns/pg median", .align = 'r', .field = "ns_per_page_here", .format = "%.0f" },
	{ .header = "x jhash2", .align = 'r', .cell = ns_x_cell },
};

/* --wide: the thread's name, the kernel function, the published decimals. */
static const struct record_column wide_columns[] = {
	{ .header = "HASH", .align = 'l', .field = "hash" },
	{ .header = "IMPLEMENTATION", .align = 'l', .field = "implementation" },
	{ .header = "KERNEL FUNCTION", .align = 'l', .field = "kernel_function" },
	{ .header = "kernel MB/s best", .align = 'r', .field = "kernel_mb_per_s_here" },
	{ .header = "x jhash2", .align = 'r', .cell = mb_x_cell },
	{ .header = "kernel MB/s thread", .align = 'r', .field = "kernel_mb_per_s_thread" },
	{ .header = "x jhash2", .align = 'r', .field = "speedup_vs_jhash2_kernel_thread", .format = "%.2f" },
	{ .header = "ns/page median", .align = 'r', .field = "ns_per_page_here", .format = "%.1f" },
	{ .header = "x jhash2", .align = 'r', .cell = ns_x_cell },
	{ .header = "ns/page thread", .align = 'r', .field = "ns_per_page_thread", .format = "%.2f" },
	{ .header = "x jhash2", .align = 'r', .field = "speedup_vs_jhash2_ksm_thread", .format = "%.2f" },
};

/* What the kernel adds around vector code, as far as this CPU shows it. */
static int simd_cost(FILE *out, const struct bench_context *ctx, unsigned width, const char *kw)
{
	if (!ctx->xsave.state_bytes)
		return 0;
	return report_wrappedf(out, width, kw, "SIMD in the kernel: ksmd (a kthread) saves no user state around "
			       "kernel_fpu_begin/end; in process context %u bytes of state are saved and restored "
			       "(XSAVE+XRSTOR here: %.0f ns). See docs/measurement.md.", ctx->xsave.state_bytes,
			       ctx->xsave.save_restore_ns);
}

static int legend(FILE *out, const struct report_document *doc, enum report_style style)
{
	const struct bench_result *k = doc->nrows ? doc->rows[0].kernel : NULL;
	const struct bench_result *m = doc->nrows ? doc->rows[0].ksm : NULL;
	unsigned width = style == REPORT_MARKDOWN ? 0 : report_columns(doc);
	const char *kw = style == REPORT_MARKDOWN ? "- " : "";
	uint64_t ws = m ? m->working_set_bytes : 0; /* --working-set 64K: in KiB, not "0 MiB" */

	if (doc->nrows == 0)
		return 0;
	fputc('\n', out);
	return report_wrappedf(out, width, kw, "kMB/s: kernel MB/s (count*4096>>17, MiB/s), the v2 patch's self-test: "
			       "HZ>>3 emulated jiffies (HZ=%u, %u jiffies) over the zero page, best of %u round%s; "
			       "thread: Xeon E5-2420 v2.", k ? k->jiffies.hz : 0, k ? k->jiffies.window_jiffies : 0,
			       k ? k->repeats : 0, kb_s(k ? k->repeats : 0)) ||
	       report_wrappedf(out, width, kw, "ns/pg: ns per page in ksmd's duty cycle (%u pages, then %u ms asleep), "
			       "median over processes, of random %u-byte pages in a %llu %s working set visited in "
			       "random order (%s%s)%s; thread: ksmd on a Xeon E5-2620 v3 with 4 VMs.",
			       m ? m->ksmd.pages_to_scan : 0, m ? m->ksmd.sleep_ms : 0, m ? m->page_size : 0,
			       (unsigned long long)(ws % (1ull << 20) ? ws >> 10 : ws >> 20),
			       ws % (1ull << 20) ? "KiB" : "MiB",
			       m ? m->cache : "cold",
			       m && m->cold_by && strcmp(m->cold_by, "flush") == 0
				       ? ": each cycle's pages flushed from the caches during the sleep, all but the first one's "
					 "address translations loaded after it, as the kernel's direct map keeps them"
				       : "",
			       !m	? ""
			       : m->apart ? ", each call apart (a fence after it, as ksmd's other work between two)"
					  : ", calls back to back (--back-to-back: each starting while the last one's "
					    "tail runs)") ||
	       simd_cost(out, doc->ctx, width, kw) ||
	       report_wrappedf(out, width, kw, "x jhash2: times faster than jhash2 on the same machine, from rounds "
			       "measured side by side (only pairs of undisturbed rounds, when 3 processes or more "
			       "have one); ± half the interval over the processes used.") ? -1 : 0;
}

/* Whether a row belongs to the block: outside rows whose implementation
 * the kernel runs after all (an alias that chose kernel code) are left
 * out, as the kernel block has them. */
static int in_block(const struct thread_row *r, int in_kernel)
{
	if (in_kernel)
		return r->in_kernel;
	return !r->in_kernel && !thread_row_kernel_function(r);
}

static int block(FILE *out, const struct report_document *doc, int in_kernel, enum report_style style)
{
	struct thread_row rows[THREAD_ROWS_MAX];
	size_t n = 0;
	int wide = report_columns(doc) == 0;

	for (size_t i = 0; i < doc->nrows && n < THREAD_ROWS_MAX; i++)
		if (in_block(&doc->rows[i], in_kernel))
			rows[n++] = doc->rows[i];
	if (n == 0)
		return 0;
	struct record_list l = { &thread_row_schema, rows, n, sizeof(*rows), { .item = doc } };
	struct table *t = wide ? record_table(RECORD_COLUMNS(wide_columns), &l)
		      : in_kernel ? record_table(RECORD_COLUMNS(kernel_columns), &l)
				  : record_table(RECORD_COLUMNS(outside_columns), &l);
	if (!t)
		return -1;
	const char *title = in_kernel ? "What the kernel can run (the thread's published figures beside):"
				      : "Contenders outside the kernel (none of this is kernel code):";
	int rc = style == REPORT_MARKDOWN ? fprintf(out, "\n**%s**\n\n", title) < 0 || table_print_markdown(t, out)
					  : fprintf(out, "%s%s\n", in_kernel ? "" : "\n", title) < 0 || table_print(t, out);
	table_free(t);
	return rc ? -1 : 0;
}

/* Under the kernel block: the running kernel's own crc32c on this CPU and
 * why, and the rows that release lacks. */
static int kernel_notes(FILE *out, const struct report_document *doc, enum report_style style)
{
	const char *why, *item = style == REPORT_MARKDOWN ? "- " : "";
	unsigned width = style == REPORT_MARKDOWN ? 0 : report_columns(doc);
	struct kernel_release r;
	const struct hash_impl *h = hash_kernel_crc32c(4096, kernel_release_or_newest(doc->kernel_release, &r), &why);
	int rc = (style == REPORT_MARKDOWN && fputc('\n', out) == EOF) ||
		 report_wrappedf(out, width, item, "%s: the kernel's crc32c() on this CPU for a 4096-byte page (%s; "
				 "release %s%s).", h->name, why, doc->kernel_release ? doc->kernel_release : "unknown: the newest",
				 kernel_release_checked_note(doc->kernel_release));

	for (size_t i = 0; i < doc->nrows && rc == 0; i++)
		if (doc->rows[i].in_kernel && newer_since(&doc->rows[i])) {
			rc = report_wrappedf(out, width, item, "(N+): the kernel has that code from release N on, not in "
					     "%s: the verdict leaves it out.", doc->kernel_release);
			break;
		}
	return rc;
}

int thread_report_text(FILE *out, const struct report_document *doc, enum report_style style)
{
	const char *wp = style == REPORT_MARKDOWN ? "- Warning: " : "warning: ";
	unsigned width = style == REPORT_MARKDOWN ? 0 : report_columns(doc);
	int rc = thread_verdict_text(out, doc, style);

	if (rc == 0)
		rc = style == REPORT_MARKDOWN ? report_context_markdown(out, doc->ctx) : report_context_line(out, doc->ctx, width);
	if (rc == 0)
		rc = block(out, doc, 1, style) || kernel_notes(out, doc, style) || block(out, doc, 0, style);
	if (rc == 0)
		rc = legend(out, doc, style);
	if (rc == 0)
		rc = report_table_notes(out, doc->ctx, style, width);
	if (rc == 0)
		rc = report_unstable_summary(out, doc->results, doc->nresults, 1,
					     style == REPORT_MARKDOWN ? ESCAPE_MARKDOWN : ESCAPE_TERM, wp, width);
	return rc ? -1 : 0;
}

int thread_report_kernel(FILE *out, const struct report_document *doc)
{
	for (size_t i = 0; i < doc->nrows; i++) {
		const struct thread_row *r = &doc->rows[i];
		if (r->kernel && report_kernel_line(out, r->hash, r->kernel->jiffies.kernel_mb_per_s_best))
			return -1;
	}
	return 0;
}
