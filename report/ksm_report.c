/* The ksm document: every file of /sys/kernel/mm/ksm this kernel has with
 * its meaning, the scan rate it implies, and one process's KSM counters. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../scan/ksm_sysfs.h"
#include "escape.h"
#include "kinds.h"
#include "table.h"
#include "text_wrap.h"

#define DOC(row) ((const struct report_document *)(row)->item)

static const struct ksm_value *find(const struct ksm_value *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

/* ksmd's schedule at the settings read into *k, with the running kernel's
 * HZ and timer rules (doc->ksm_schedule); pages_to_scan 0 where it cannot
 * be read. -1 when sleep_millisecs cannot be. */
static int schedule_read(const struct report_document *doc, struct ksmd_schedule *k)
{
	const struct ksm_value *pts = find(doc->sysfs, doc->nsysfs, "pages_to_scan");
	const struct ksm_value *sl = find(doc->sysfs, doc->nsysfs, "sleep_millisecs");

	if (!sl || !sl->is_number || sl->number < 0 || sl->number > UINT_MAX)
		return -1;
	*k = doc->ksm_schedule;
	k->pages_to_scan = pts && pts->is_number && pts->number > 0 ? (uint64_t)pts->number : 0;
	k->sleep_ms = (unsigned)sl->number;
	return 0;
}

/* The sleep as the kernel takes it (a batch's period without its work,
 * ms; 0 for no sleep), -1 where unknown. */
static double sleep_taken_ms(const struct report_document *doc, struct ksmd_schedule *k)
{
	return schedule_read(doc, k) ? -1 : ksmd_batch_period_ns(k, 0) / 1e6;
}

/* At most pages_to_scan pages a sleep of ms; -1 where either is unknown,
 * and with no sleep (no limit then but ksmd's own work). */
static double pages_per_second(const struct ksmd_schedule *k, double ms)
{
	return ms > 0 && k->pages_to_scan ? (double)k->pages_to_scan * 1e3 / ms : -1;
}

static int rate_field(const struct report_document *doc, struct record_value *v)
{
	struct ksmd_schedule k;
	double pps = pages_per_second(&k, sleep_taken_ms(doc, &k));

	return pps >= 0 && record_real(v, pps);
}

static int sleep_taken_field(const struct report_document *doc, struct record_value *v)
{
	struct ksmd_schedule k;
	double ms = sleep_taken_ms(doc, &k);

	return ms >= 0 && record_real(v, ms);
}

/* A counter as a map entry: a number where the file holds one. */
static int entry(const struct ksm_value *x, struct record_value *v)
{
	v->key = x->name;
	if (x->is_number) {
		v->type = RECORD_INT;
		return record_int(v, x->number);
	}
	v->type = RECORD_STR;
	v->str = x->text;
	return 1;
}

/* The process's counters, then its pid. */
static int process_entry(const struct record_row *w, struct record_value *v)
{
	const struct report_document *doc = DOC(w);

	if (w->index < doc->nprocess)
		return entry(&doc->process[w->index], v);
	v->key = "pid";
	v->type = RECORD_INT;
	return record_int(v, doc->pid);
}

/* Meanings of every counter shown, once each. */
static int meaning(const struct record_row *w, struct record_value *v)
{
	const struct report_document *doc = DOC(w);
	int from_sysfs = w->index < doc->nsysfs;
	const struct ksm_value *x = from_sysfs ? &doc->sysfs[w->index] : &doc->process[w->index - doc->nsysfs];

	if (!x->meaning || (!from_sysfs && find(doc->sysfs, doc->nsysfs, x->name)))
		return 0;
	v->key = x->name;
	v->type = RECORD_STR;
	return record_str(v, x->meaning);
}

RECORD_GETTER(k_schema, record_str(v, "ksmbench-ksm/1"))
RECORD_GETTER(k_dir, record_str(v, DOC(w)->ksm_dir))
RECORD_GETTER(k_sysfs, entry(&DOC(w)->sysfs[w->index], v))
RECORD_GETTER(k_rate, rate_field(DOC(w), v))
RECORD_GETTER(k_hz, record_uint(v, DOC(w)->ksm_schedule.hz))
RECORD_GETTER(k_sleep_taken, sleep_taken_field(DOC(w), v))
RECORD_GETTER(k_process, process_entry(w, v))
RECORD_GETTER(k_meaning, meaning(w, v))

static size_t n_sysfs(const struct record_row *w)
{
	return DOC(w)->nsysfs;
}

static size_t n_process(const struct record_row *w)
{
	return DOC(w)->nprocess + 1;
}

static size_t n_meanings(const struct record_row *w)
{
	return DOC(w)->nsysfs + DOC(w)->nprocess;
}

/* Rows: the document; "process" is null without --pid. */
enum { WITH_PID = 1 };

static unsigned ksm_class(const struct record_row *w)
{
	return DOC(w)->pid ? WITH_PID : 0;
}

static const struct record_field document_fields[] = {
	{ .name = "schema", .type = RECORD_STR, .get = k_schema },
	{ .name = "sysfs_dir", .type = RECORD_STR, .get = k_dir },
	{ .name = "sysfs", .type = RECORD_MAP, .get = k_sysfs, .count = n_sysfs },
	{ .name = "max_pages_per_second", .type = RECORD_REAL, .get = k_rate },
	{ .name = "hz", .type = RECORD_UINT, .get = k_hz },
	{ .name = "sleep_taken_ms", .type = RECORD_REAL, .get = k_sleep_taken },
	{ .name = "process", .type = RECORD_MAP, .applies = WITH_PID, .get = k_process, .count = n_process },
	{ .name = "meanings", .type = RECORD_MAP, .get = k_meaning, .count = n_meanings },
};

const struct record_schema ksm_document_schema = { NULL, RECORD_FIELDS(document_fields), ksm_class, 0 };

/* The meanings are cut to fit width (0: whole). */
#define KSM_MEANING_MIN 20 /* characters of a meaning kept at least, in a narrow table */

static int values_table(FILE *out, const char *head, const struct ksm_value *v, size_t n, unsigned width)
{
	struct table *t = table_new(3, "lrl");
	int rc = t && table_add_rowf(t, head, "value", "meaning") == 0 ? 0 : -1;

	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = table_add_rowf(t, v[i].name, v[i].text, v[i].meaning ? v[i].meaning : "");
	if (rc == 0 && width)
		table_fit_last(t, width, KSM_MEANING_MIN);
	if (rc == 0)
		rc = table_print(t, out);
	table_free(t);
	return rc;
}

/* The directory on a line of its own (a long path as the first column's
 * header would take the meanings' room), cut in its middle to fit. */
static int dir_line(FILE *out, const char *dir, unsigned width)
{
	char *cut = strdup(dir);

	if (!cut)
		return -1;
	if (width > 2)
		report_cut_middle(cut, width - 2);
	fputs("# ", out);
	escape_put(out, cut, ESCAPE_TERM);
	free(cut);
	return fputc('\n', out) == EOF ? -1 : 0;
}

int ksm_report_table(FILE *out, const struct report_document *doc)
{
	unsigned width = report_columns(doc);
	char head[48];
	struct ksmd_schedule k;

	if (dir_line(out, doc->ksm_dir, width) || values_table(out, "file", doc->sysfs, doc->nsysfs, width))
		return -1;
	const struct ksm_value *run = find(doc->sysfs, doc->nsysfs, "run");
	const struct ksm_value *advisor = find(doc->sysfs, doc->nsysfs, "advisor_mode");
	int off = run && run->is_number && run->number == 0;
	/* The scan-time advisor (6.8+) rewrites pages_to_scan after each full scan. */
	int advised = advisor && !advisor->is_number && strcmp(advisor->text, "scan-time") == 0;
	double ms = sleep_taken_ms(doc, &k), pps = pages_per_second(&k, ms);
	const char *off_note = off ? " (KSM is off: run=0)" : "";
	const char *advisor_note = advised ? "; advisor_mode scan-time: pages_to_scan is the advisor's choice now, "
					     "which it changes after every full scan toward one full scan in "
					     "advisor_target_scan_time seconds"
					   : "";
	if (pps > 0 &&
	    report_wrappedf(out, width, "\n", "ksmd %s at most %.0f pages/s (pages_to_scan pages a batch, a batch "
			    "every %.0f ms: sleep_millisecs as the kernel sleeps it at HZ %u), %.1f MiB/s of %u KiB "
			    "pages%s%s", off ? "would scan" : "scans", pps, ms, k.hz, pps * doc->ksm_page_size / 1048576.0,
			    doc->ksm_page_size / 1024, off_note, advisor_note))
		return -1;
	/* No sleep: the rate is whatever ksmd's own work allows, which this
	 * command does not measure (scan and thread model it). */
	if (ms == 0 && k.pages_to_scan &&
	    report_wrappedf(out, width, "\n", "ksmd %s pages_to_scan pages a batch with no sleep between batches "
			    "(sleep_millisecs 0): as many pages a second as its own work allows, a whole CPU%s%s",
			    off ? "would scan" : "scans", off_note, advisor_note))
		return -1;
	if (!doc->pid)
		return 0;
	snprintf(head, sizeof(head), "process %d", doc->pid);
	fputc('\n', out);
	return values_table(out, head, doc->process, doc->nprocess, width);
}
