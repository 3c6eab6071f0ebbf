/* The thread's comparison (see thread.h): the published figures, the rows
 * built from this machine's results, their fields, and the thread object of
 * a results document read back. Ratios are speed-ups against jhash2, so
 * that rankings here and in the thread can be compared at a glance. The
 * text and kernel lines: thread_text.c. */
#include "thread.h"

#include <string.h>

#include "../bench/estimate.h"
#include "context_text.h"
#include "record_load.h"
#include "result_fields.h"

/* Figures as posted to linux-mm; the machines they came from are named in
 * kernel_style and ksm_style below. */
const struct thread_published thread_published[] = {
	{ "crc32c", 12081, 1084.10, 0 },
	{ "xxh64", 8770, 1413.16, 11556.6 },
	{ "xxh32", 4529, 2227.75, 5809.4 },
	{ "jhash2", 1569, 5128.30, 2251.9 },
	{ "crc32c-generic", 0, 7012.51, 0 },
};

const unsigned thread_published_count = sizeof(thread_published) / sizeof(thread_published[0]);

/* Speed-up against jhash2: rate / jhash2's rate (0 if either is missing). */
static double thread_speedup_rate(double rate, double jhash2_rate)
{
	return rate > 0 && jhash2_rate > 0 ? rate / jhash2_rate : 0;
}

static const struct bench_result *find(const struct bench_result *r, size_t n, const char *hash, int ksm)
{
	for (size_t i = 0; i < n; i++)
		if ((r[i].timer == BENCH_TIMER_JIFFIES) == !ksm && strcmp(r[i].hash, hash) == 0)
			return &r[i];
	return NULL;
}

/* A speed-up here, from the rounds measured beside jhash2's. */
static double side_by_side(const struct bench_result *r, const struct bench_result *jh, struct stats_interval *iv)
{
	if (!r || !jh || estimate_ratio(r, jh, iv))
		return 0;
	return iv->median;
}

/* A row's kernel MB/s here (the best round's) and the thread's figures
 * for it; 0 where there is none. */
static double mb_here(const struct thread_row *r)
{
	return r->kernel ? (double)r->kernel->jiffies.kernel_mb_per_s_best : 0;
}

static double mb_thread(const struct thread_row *r)
{
	return r->published ? r->published->kernel_mb_per_s : 0;
}

static double ns_thread(const struct thread_row *r)
{
	return r->published ? r->published->ksm_ns_per_page : 0;
}

static void speedups(struct thread_row *row, const struct thread_row *jh)
{
	double ns = ns_thread(row), jh_ns = ns_thread(jh);

	row->mb_x_here = side_by_side(row->kernel, jh->kernel, &row->mb_x_here_interval);
	row->mb_x_thread = thread_speedup_rate(mb_thread(row), mb_thread(jh));
	/* Times: jhash2's time over this one's is the same speed-up. */
	row->ns_x_here = side_by_side(row->ksm, jh->ksm, &row->ns_x_here_interval);
	row->ns_x_thread = ns > 0 && jh_ns > 0 ? jh_ns / ns : 0;
}

/* Outside the kernel a row is named by what ran (an alias's choice). */
static const char *row_name(const struct thread_contender *c, const struct thread_row *row)
{
	const struct bench_result *r = row->kernel ? row->kernel : row->ksm;

	if (c->published)
		return c->published->hash;
	return !c->in_kernel && r && r->impl ? r->impl : c->measured;
}

void thread_rows_build(const struct thread_contender *contenders, size_t n, const struct bench_result *results,
		       size_t nresults, struct thread_row *rows)
{
	const struct thread_row *jh = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct thread_contender *c = &contenders[i];
		struct thread_row *row = &rows[i];
		memset(row, 0, sizeof(*row));
		row->published = c->published;
		row->in_kernel = c->in_kernel;
		row->newer_than_release = c->newer_than_release;
		row->kernel = find(results, nresults, c->measured, 0);
		row->ksm = find(results, nresults, c->measured, 1);
		row->hash = row_name(c, row);
		if (strcmp(c->measured, "jhash2") == 0)
			jh = row;
	}
	for (size_t i = 0; jh && i < n; i++)
		speedups(&rows[i], jh);
}

#define ROW(row) ((const struct thread_row *)(row)->item)
#define DOC(row) ((const struct report_document *)(row)->item)

static int impl(const struct thread_row *r, struct record_value *v)
{
	return record_str(v, r->kernel ? r->kernel->impl : r->ksm ? r->ksm->impl : NULL);
}

/* A figure: null where there is none. */
static int figure(struct record_value *v, double x)
{
	return x > 0 && record_real(v, x);
}

static int whole(struct record_value *v, double x)
{
	return x > 0 && record_int(v, (int64_t)x);
}

const char *thread_row_kernel_function(const struct thread_row *r)
{
	const struct bench_result *b = r->kernel ? r->kernel : r->ksm;
	const struct hash_impl *h = b && b->impl ? hash_find(b->impl) : NULL;

	return h ? h->kernel.function : NULL;
}

RECORD_GETTER(t_hash, record_str(v, ROW(w)->hash))
RECORD_GETTER(t_impl, impl(ROW(w), v))
RECORD_GETTER(t_in_kernel, record_bool(v, ROW(w)->in_kernel))
RECORD_GETTER(t_in_release, record_bool(v, ROW(w)->in_kernel && !ROW(w)->newer_than_release))
RECORD_GETTER(t_kernel_fn, record_str(v, thread_row_kernel_function(ROW(w))))
RECORD_GETTER(t_mb_here, whole(v, mb_here(ROW(w))))
RECORD_GETTER(t_mb_x_here, figure(v, ROW(w)->mb_x_here))
RECORD_GETTER(t_mb_thread, whole(v, mb_thread(ROW(w))))
RECORD_GETTER(t_mb_x_thread, figure(v, ROW(w)->mb_x_thread))
RECORD_GETTER(t_ns_here, figure(v, thread_row_ns_here(ROW(w))))
RECORD_GETTER(t_ns_x_here, figure(v, ROW(w)->ns_x_here))
RECORD_GETTER(t_ns_thread, figure(v, ns_thread(ROW(w))))
RECORD_GETTER(t_ns_x_thread, figure(v, ROW(w)->ns_x_thread))
RECORD_GETTER(t_v1, ROW(w)->published && figure(v, ROW(w)->published->v1_mib_per_s))
/* An interval of a speed-up here: null with fewer than two processes. */
static int bound(struct record_value *v, const struct stats_interval *iv, int high)
{
	return iv->n > 1 && record_real(v, high ? iv->high : iv->low);
}

RECORD_GETTER(t_mb_x_lo, bound(v, &ROW(w)->mb_x_here_interval, 0))
RECORD_GETTER(t_mb_x_hi, bound(v, &ROW(w)->mb_x_here_interval, 1))
RECORD_GETTER(t_ns_x_lo, bound(v, &ROW(w)->ns_x_here_interval, 0))
RECORD_GETTER(t_ns_x_hi, bound(v, &ROW(w)->ns_x_here_interval, 1))
/* "unstable" where either result of the row is (the reasons are in the
 * results), else "stable"; NULL where neither was measured. */
static const char *stability(const struct thread_row *r)
{
	if (!r->kernel && !r->ksm)
		return NULL;
	return (r->kernel && r->kernel->unstable) || (r->ksm && r->ksm->unstable) ? "unstable" : "stable";
}

RECORD_GETTER(t_stability, record_str(v, stability(ROW(w))))

/* Read back (plot): a page's hash at 1 B/s at most, at most 10^12 MB/s. */
#define TR(member) RECORD_LOAD(struct thread_row_read, member)
static const struct record_range mb_range = { 0, 1e12, 0 }, ns_range = { 0, 4096e9, 0 };

/* Published figures keep the decimals they were posted with. */
static const struct record_field row_fields[] = {
	{ .name = "hash", .type = RECORD_STR, .flags = RECORD_CSV | RECORD_REQUIRED, .get = t_hash, .load = TR(hash) },
	{ .name = "implementation", .type = RECORD_STR, .flags = RECORD_CSV, .get = t_impl, .load = TR(impl) },
	{ .name = "in_kernel", .type = RECORD_BOOL, .flags = RECORD_CSV | RECORD_REQUIRED, .get = t_in_kernel,
	  .load = TR(in_kernel) },
	{ .name = "in_kernel_release", .type = RECORD_BOOL, .get = t_in_release },
	{ .name = "kernel_function", .type = RECORD_STR, .get = t_kernel_fn },
	{ .name = "kernel_mb_per_s_here", .type = RECORD_INT, .flags = RECORD_CSV, .get = t_mb_here,
	  .load = TR(kernel_mb_per_s_here), .range = &mb_range },
	{ .name = "speedup_vs_jhash2_kernel_here", .type = RECORD_REAL, .flags = RECORD_CSV, .format = "%.4f",
	  .get = t_mb_x_here },
	{ .name = "kernel_mb_per_s_thread", .type = RECORD_INT, .flags = RECORD_CSV, .get = t_mb_thread },
	{ .name = "speedup_vs_jhash2_kernel_thread", .type = RECORD_REAL, .flags = RECORD_CSV, .format = "%.4f",
	  .get = t_mb_x_thread },
	{ .name = "ns_per_page_here", .type = RECORD_REAL, .flags = RECORD_CSV, .format = "%.2f",
	  .get = t_ns_here, .load = TR(ns_per_page_here), .range = &ns_range },
	{ .name = "speedup_vs_jhash2_ksm_here", .type = RECORD_REAL, .flags = RECORD_CSV, .format = "%.4f",
	  .get = t_ns_x_here },
	{ .name = "ns_per_page_thread", .type = RECORD_REAL, .flags = RECORD_CSV, .format = "%.2f",
	  .get = t_ns_thread },
	{ .name = "speedup_vs_jhash2_ksm_thread", .type = RECORD_REAL, .flags = RECORD_CSV, .format = "%.4f",
	  .get = t_ns_x_thread },
	{ .name = "v1_mib_per_s_thread", .type = RECORD_REAL, .flags = RECORD_CSV, .format = "%.1f",
	  .get = t_v1 },
	{ .name = "speedup_vs_jhash2_kernel_here_ci_low", .type = RECORD_REAL, .format = "%.4f", .get = t_mb_x_lo },
	{ .name = "speedup_vs_jhash2_kernel_here_ci_high", .type = RECORD_REAL, .format = "%.4f", .get = t_mb_x_hi },
	{ .name = "speedup_vs_jhash2_ksm_here_ci_low", .type = RECORD_REAL, .format = "%.4f", .get = t_ns_x_lo },
	{ .name = "speedup_vs_jhash2_ksm_here_ci_high", .type = RECORD_REAL, .format = "%.4f", .get = t_ns_x_hi },
	{ .name = "stability", .type = RECORD_STR, .flags = RECORD_CSV, .get = t_stability },
};

const struct record_schema thread_row_schema = { NULL, RECORD_FIELDS(row_fields), NULL,
						  sizeof(struct thread_row_read) };

RECORD_GETTER(t_kernel_style, record_str(v, "v2 patch self-test: count * PAGE_SIZE >> 17 over HZ>>3 jiffies, "
					    "zero page; thread figures from a Xeon E5-2420 v2"))
RECORD_GETTER(t_ksm_style, record_str(v, "ns per page checksum in ksmd's duty cycle (pages_to_scan pages, then "
					 "sleep_millisecs asleep), median over random pages in a cold working set; thread "
					 "figures from ksmd on a Xeon E5-2620 v3 with 4 VMs"))
RECORD_GETTER(t_release, DOC(w)->kernel_release && record_str(v, DOC(w)->kernel_release))
RECORD_GETTER(t_row, record_item(v, &DOC(w)->rows[w->index]))
RECORD_GETTER(t_thread, record_item(v, DOC(w)))
RECORD_GETTER(t_verdict, DOC(w)->verdict && record_item(v, DOC(w)->verdict))

static size_t n_rows(const struct record_row *w)
{
	return DOC(w)->nrows;
}

static const struct record_field thread_fields[] = {
	{ .name = "kernel_style", .type = RECORD_STR, .get = t_kernel_style },
	{ .name = "ksm_style", .type = RECORD_STR, .get = t_ksm_style },
	{ .name = "kernel_release", .type = RECORD_STR, .get = t_release },
	{ .name = "verdict", .type = RECORD_OBJECT, .get = t_verdict, .sub = &thread_verdict_schema },
	{ .name = "rows", .type = RECORD_OBJECT, .flags = RECORD_REQUIRED, .get = t_row, .count = n_rows,
	  .sub = &thread_row_schema, .load = RECORD_LOAD(struct thread_read, rows_read) },
};

static const struct record_schema thread_object_schema = { NULL, RECORD_FIELDS(thread_fields), NULL,
							   sizeof(struct thread_read) };

int thread_read(const cJSON *root, const char *path, struct thread_read *t, struct kb_err *err)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "thread");

	memset(t, 0, sizeof(*t));
	if (!o || cJSON_IsNull(o))
		return 0;
	if (!cJSON_IsObject(o))
		return kb_fail(err, "%s: \"thread\" is not an object", path);
	t->present = 1;
	if (record_load(&thread_object_schema, o, t, path, "thread", err))
		return -1;
	t->rows = t->rows_read.items;
	t->nrows = t->rows_read.n;
	for (size_t i = 0; i < t->nrows; i++)
		if (!t->rows[i].impl)
			t->rows[i].impl = t->rows[i].hash;
	return 0;
}

void thread_read_release(struct thread_read *t)
{
	record_load_release(&thread_object_schema, t);
	memset(t, 0, sizeof(*t));
}

const struct thread_published *thread_published_find(const char *hash)
{
	for (unsigned i = 0; i < thread_published_count; i++)
		if (strcmp(thread_published[i].hash, hash) == 0)
			return &thread_published[i];
	return NULL;
}

/* The results document with a "thread" object. */
static const struct record_field document_fields[] = {
	{ .name = "thread", .type = RECORD_OBJECT, .get = t_thread, .sub = &thread_object_schema },
};

const struct record_schema thread_document_schema = {
	&report_results_document_schema, RECORD_FIELDS(document_fields), NULL, 0,
};

int thread_report_rows(const struct report_document *doc, struct record_list *rows)
{
	*rows = (struct record_list){ &thread_row_schema, doc->rows, doc->nrows, sizeof(*doc->rows), { .item = doc } };
	return 0;
}
