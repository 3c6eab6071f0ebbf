/* The thread's comparison, rendered as a table, CSV, kernel lines or JSON
 * (see thread.h). Ratios are speed-ups against jhash2, so that rankings here
 * and in the thread can be compared at a glance. */
#include "thread.h"

#include <stdio.h>
#include <string.h>

#include "results.h"
#include "table.h"

/* Figures as posted to linux-mm (see DESIGN.md). */
const struct thread_published thread_published[] = {
	{ "crc32c", 12081, 1084.10, 0 },
	{ "xxh64", 8770, 1413.16, 11556.6 },
	{ "xxh32", 4529, 2227.75, 5809.4 },
	{ "jhash2", 1569, 5128.30, 2251.9 },
	{ "crc32c-generic", 0, 7012.51, 0 },
	{ "xxh3", 0, 0, 0 },
	{ "crc32c-isal", 0, 0, 0 },
};

const unsigned thread_published_count = sizeof(thread_published) / sizeof(thread_published[0]);

double thread_speedup_rate(double rate, double jhash2_rate)
{
	return rate > 0 && jhash2_rate > 0 ? rate / jhash2_rate : 0;
}

/* Everything a row shows, as numbers (0 = none). */
struct row_figures {
	double mb_here, mb_thread, mb_x_here, mb_x_thread;
	double ns_here, ns_thread, ns_x_here, ns_x_thread;
};

static const struct thread_row *find_jhash2(const struct thread_row *rows, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(rows[i].label, "jhash2") == 0)
			return &rows[i];
	return NULL;
}

static void figures(const struct thread_row *row, const struct thread_row *jh, struct row_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->mb_here = row->kernel ? (double)row->kernel->kernel_mb_per_s_best : 0;
	f->mb_thread = row->published->kernel_mb_per_s;
	f->ns_here = row->ksm ? row->ksm->ns_per_page.median : 0;
	f->ns_thread = row->published->ksm_ns_per_page;
	if (!jh)
		return;
	f->mb_x_here = thread_speedup_rate(f->mb_here, jh->kernel ? (double)jh->kernel->kernel_mb_per_s_best : 0);
	f->mb_x_thread = thread_speedup_rate(f->mb_thread, jh->published->kernel_mb_per_s);
	/* Times: jhash2's time over this one's is the same speed-up. */
	f->ns_x_here = f->ns_here > 0 && jh->ksm ? jh->ksm->ns_per_page.median / f->ns_here : 0;
	f->ns_x_thread = f->ns_thread > 0 ? jh->published->ksm_ns_per_page / f->ns_thread : 0;
}

static void cell(char *buf, size_t size, const char *fmt, double v)
{
	if (v > 0)
		snprintf(buf, size, fmt, v);
	else
		snprintf(buf, size, "-");
}

static struct table *thread_table(const struct thread_row *rows, unsigned n)
{
	struct table *t = table_new(10, "llrrrrrrrr");
	const struct thread_row *jh = find_jhash2(rows, n);
	int rc = 0;

	if (!t || table_add_rowf(t, "HASH", "IMPLEMENTATION", "MB/s here", "x jhash2", "MB/s thread", "x jhash2",
				 "ns/page here", "x jhash2", "ns/page thread", "x jhash2"))
		rc = -1;
	for (unsigned i = 0; rc == 0 && i < n; i++) {
		struct row_figures f;
		char c[8][32];
		figures(&rows[i], jh, &f);
		cell(c[0], 32, "%.0f", f.mb_here);
		cell(c[1], 32, "%.2f", f.mb_x_here);
		cell(c[2], 32, "%.0f", f.mb_thread);
		cell(c[3], 32, "%.2f", f.mb_x_thread);
		cell(c[4], 32, "%.1f", f.ns_here);
		cell(c[5], 32, "%.2f", f.ns_x_here);
		cell(c[6], 32, "%.2f", f.ns_thread);
		cell(c[7], 32, "%.2f", f.ns_x_thread);
		const char *impl = rows[i].kernel ? rows[i].kernel->impl : rows[i].ksm ? rows[i].ksm->impl : "-";
		rc = table_add_rowf(t, rows[i].label, impl, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
	}
	return table_done(t, rc);
}

int thread_report_table(FILE *out, const struct bench_context *ctx, const struct thread_row *rows, unsigned n)
{
	struct table *t = thread_table(rows, n);
	int rc = t ? report_table_under_context(out, ctx, t) : -1;

	if (rc == 0 && n > 0) {
		const struct bench_result *k = rows[0].kernel, *m = rows[0].ksm;
		fprintf(out, "\nMB/s: the v2 patch's self-test, count * PAGE_SIZE >> 17 after HZ>>3 emulated jiffies\n"
			     "      (HZ=%u, %u jiffies) over the zero page, best of %u; thread: Xeon E5-2420 v2.\n",
			k ? k->hz : 0, k ? k->window_jiffies : 0, k ? k->repeats : 0);
		fprintf(out, "ns/page: rdtsc per call, median, random %u-byte pages in a %llu MiB working set\n"
			     "      visited in random order (cold); thread: ksmd on Xeon E5-2620 v3 with 4 VMs.\n",
			m ? m->page_size : 0, m ? (unsigned long long)(m->working_set_bytes >> 20) : 0ull);
		fprintf(out, "x jhash2: times faster than jhash2 on the same machine (1.00 = jhash2).\n");
	}
	if (rc == 0)
		rc = report_warnings(out, ctx);
	if (rc == 0)
		rc = report_interruption(out, ctx, "note: ");
	table_free(t);
	return rc == 0 && !ferror(out) ? 0 : -1;
}

int thread_report_markdown(FILE *out, const struct bench_context *ctx, const struct thread_row *rows, unsigned n)
{
	struct table *t = thread_table(rows, n);
	int rc = t ? report_markdown_under_context(out, ctx, t) : -1;

	if (rc == 0)
		fprintf(out, "\nMB/s: the v2 patch's self-test (zero page, HZ>>3 jiffies, count * PAGE_SIZE >> 17); "
			     "ns/page: rdtsc median per call over random pages in a cold working set; "
			     "x jhash2: times faster than jhash2 on the same machine. Thread figures: Xeon E5-2420 v2 "
			     "(MB/s) and ksmd on a Xeon E5-2620 v3 with 4 VMs (ns/page).\n");
	table_free(t);
	return rc == 0 && !ferror(out) ? 0 : -1;
}

static const char *const csv_columns[] = {
	"hash", "implementation", "kernel_mb_per_s_here", "speedup_vs_jhash2_kernel_here", "kernel_mb_per_s_thread",
	"speedup_vs_jhash2_kernel_thread", "ns_per_page_here", "speedup_vs_jhash2_ksm_here", "ns_per_page_thread",
	"speedup_vs_jhash2_ksm_thread",
};

int thread_report_csv(FILE *out, const struct thread_row *rows, unsigned n)
{
	const struct thread_row *jh = find_jhash2(rows, n);
	const unsigned ncol = sizeof(csv_columns) / sizeof(csv_columns[0]);

	for (unsigned c = 0; c < ncol; c++)
		report_csv_field(out, csv_columns[c], c + 1 == ncol);
	for (unsigned i = 0; i < n; i++) {
		struct row_figures f;
		char buf[8][32];
		figures(&rows[i], jh, &f);
		const double *vals[8] = { &f.mb_here, &f.mb_x_here, &f.mb_thread, &f.mb_x_thread,
					  &f.ns_here, &f.ns_x_here, &f.ns_thread, &f.ns_x_thread };
		for (unsigned k = 0; k < 8; k++) {
			if (*vals[k] > 0)
				snprintf(buf[k], sizeof(buf[k]), "%.4g", *vals[k]);
			else
				buf[k][0] = '\0';
		}
		report_csv_field(out, rows[i].label, 0);
		report_csv_field(out, rows[i].kernel ? rows[i].kernel->impl : "", 0);
		for (unsigned k = 0; k < 8; k++)
			report_csv_field(out, buf[k], k == 7);
	}
	return ferror(out) ? -1 : 0;
}

int thread_report_kernel(FILE *out, const struct thread_row *rows, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (rows[i].kernel && report_kernel_line(out, rows[i].label, rows[i].kernel->kernel_mb_per_s_best))
			return -1;
	return ferror(out) ? -1 : 0;
}

static void add_or_null(cJSON *o, const char *key, double v)
{
	if (v > 0)
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *thread_report_json(const struct bench_context *ctx, const struct bench_result *results, unsigned nresults,
			  const struct thread_row *rows, unsigned n)
{
	cJSON *doc = report_json_document(ctx, results, nresults);
	const struct thread_row *jh = find_jhash2(rows, n);
	cJSON *th = doc ? cJSON_AddObjectToObject(doc, "thread") : NULL;

	if (!th)
		return doc;
	cJSON_AddStringToObject(th, "kernel_style",
				"v2 patch self-test: count * PAGE_SIZE >> 17 over HZ>>3 jiffies, zero page; "
				"thread figures from a Xeon E5-2420 v2");
	cJSON_AddStringToObject(th, "ksm_style",
				"ns per page checksum, rdtsc median over random pages in a cold working set; "
				"thread figures from ksmd on a Xeon E5-2620 v3 with 4 VMs");
	cJSON *arr = cJSON_AddArrayToObject(th, "rows");
	for (unsigned i = 0; arr && i < n; i++) {
		struct row_figures f;
		cJSON *o = cJSON_CreateObject();
		figures(&rows[i], jh, &f);
		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "hash", rows[i].label);
		cJSON_AddStringToObject(o, "implementation", rows[i].kernel ? rows[i].kernel->impl : "");
		add_or_null(o, "kernel_mb_per_s_here", f.mb_here);
		add_or_null(o, "speedup_vs_jhash2_kernel_here", f.mb_x_here);
		add_or_null(o, "kernel_mb_per_s_thread", f.mb_thread);
		add_or_null(o, "speedup_vs_jhash2_kernel_thread", f.mb_x_thread);
		add_or_null(o, "ns_per_page_here", f.ns_here);
		add_or_null(o, "speedup_vs_jhash2_ksm_here", f.ns_x_here);
		add_or_null(o, "ns_per_page_thread", f.ns_thread);
		add_or_null(o, "speedup_vs_jhash2_ksm_thread", f.ns_x_thread);
		add_or_null(o, "v1_mib_per_s_thread", rows[i].published->v1_mib_per_s);
	}
	return doc;
}
