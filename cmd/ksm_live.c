/* ksm --watch (the counters and their rates per interval, with the
 * checksum's cost at the current settings) and ksm --profile (ksmd's
 * samples by part of its work beside scan's cold checksum cost). */
#include "ksm_live.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/monotonic.h"
#include "../common/quote.h"
#include "../scan/ksm_cost.h"
#include "../scan/ksm_sysfs.h"
#include "../scan/scan.h"
#include "../scan/ksm_watch.h"
#include "../scan/ksmd_profile.h"
#include "../report/text_wrap.h"
#include "cli.h"

/* What the running kernel's KSM checksum costs on a cold 4 KiB page. */
struct cold_cost {
	double ns;
	const char *hash; /* xxhash since 5.0, jhash2 before (stored as u32) */
};

static int cold_cost(const char *cmd, struct cold_cost *c)
{
	const struct hash_impl *h = ksm_checksum_running();
	struct kb_err err;

	c->hash = h->name;
	if (ksm_cost_cold_ns(h, ksm_page_size(), &c->ns, &err))
		return cli_fail(cmd, &err);
	return 0;
}

static int print_json(cJSON *o)
{
	char *text = cJSON_PrintUnformatted(o);
	int rc = text && printf("%s\n", text) >= 0 ? 0 : -1;

	free(text);
	cJSON_Delete(o);
	return rc;
}

/* name: x where known, else null (a counter this kernel lacks, no scan). */
static void number_or_null(cJSON *o, const char *name, int known, double x)
{
	if (known)
		cJSON_AddNumberToObject(o, name, x);
	else
		cJSON_AddNullToObject(o, name);
}

/* A setting or counter as the table shows it: "-" where unknown. */
static const char *cell_of(long long v, char buf[24])
{
	snprintf(buf, 24, v == KSM_SYSFS_MISSING ? "-" : "%lld", v);
	return buf;
}

/* A --watch row with every column is this wide; a narrower width leaves
 * general_profit out (the other counters give it). */
#define KSM_WATCH_FULL_COLUMNS 110u

static int watch_profit(unsigned width)
{
	return width == 0 || width >= KSM_WATCH_FULL_COLUMNS;
}

static int watch_line(const struct ksm_sample *b, const struct ksm_rates *r, const struct cold_cost *c, int json,
		      unsigned width)
{
	long long counts[] = { b->pages_shared, b->pages_sharing, b->pages_unshared, b->pages_volatile,
			       b->ksm_zero_pages, b->general_profit };
	if (!json) {
		/* A counter this kernel lacks: "-". */
		char cell[6][24];
		for (size_t i = 0; i < 6; i++)
			cell_of(counts[i], cell[i]);
		char profit[32] = "", scanned[24] = "-", share[24] = "-", per_scan[24] = "-";
		if (watch_profit(width))
			snprintf(profit, sizeof(profit), " %12s", cell[5]);
		if (r->pages_scanned_per_s >= 0) {
			snprintf(scanned, sizeof(scanned), "%.0f", r->pages_scanned_per_s);
			snprintf(share, sizeof(share), "%.3f", 100 * r->checksum_cpu_share_measured);
		}
		char merges[24] = "-";
		if (r->full_scan_s >= 0)
			snprintf(per_scan, sizeof(per_scan), "%.2f", r->full_scan_s);
		if (!isnan(r->merges_per_s))
			snprintf(merges, sizeof(merges), "%.1f", r->merges_per_s);
		return printf("%7.2f %10s %8s %5lld %9s %8s %8s %8s %8s %8s%s %8s\n", r->seconds, scanned,
			      merges, r->full_scans, per_scan, cell[0], cell[1], cell[2], cell[3], cell[4],
			      profit, share) < 0;
	}
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "schema", "ksmbench-ksm-watch/1");
	cJSON_AddNumberToObject(o, "seconds", r->seconds);
	number_or_null(o, "pages_scanned_per_second", r->pages_scanned_per_s >= 0, r->pages_scanned_per_s);
	number_or_null(o, "pages_skipped_per_second", r->pages_skipped_per_s >= 0, r->pages_skipped_per_s);
	number_or_null(o, "pages_checksummed_per_second", r->pages_checksummed_per_s >= 0,
		       r->pages_checksummed_per_s);
	number_or_null(o, "merges_per_second", !isnan(r->merges_per_s), r->merges_per_s);
	cJSON_AddNumberToObject(o, "full_scans", (double)r->full_scans);
	number_or_null(o, "full_scan_seconds", r->full_scan_s >= 0, r->full_scan_s);
	const char *names[] = { "pages_shared", "pages_sharing", "pages_unshared", "pages_volatile", "ksm_zero_pages",
				"general_profit", "pages_to_scan", "sleep_millisecs" };
	long long vals[] = { b->pages_shared, b->pages_sharing, b->pages_unshared, b->pages_volatile,
			     b->ksm_zero_pages, b->general_profit, b->pages_to_scan, b->sleep_ms };
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		number_or_null(o, names[i], vals[i] != KSM_SYSFS_MISSING, (double)vals[i]);
	cJSON_AddStringToObject(o, "checksum", c->hash);
	cJSON_AddNumberToObject(o, "checksum_ns_per_page_cold", c->ns);
	number_or_null(o, "checksum_cpu_share_measured", r->checksum_cpu_share_measured >= 0,
		       r->checksum_cpu_share_measured);
	number_or_null(o, "checksum_cpu_share_settings", r->checksum_cpu_share_settings >= 0,
		       r->checksum_cpu_share_settings);
	return print_json(o);
}

/* The settings' cost, again whenever they change. */
static void watch_settings(const struct ksm_sample *s, const struct ksm_rates *r, const struct cold_cost *c,
			   unsigned width)
{
	char pts[24], sleep[24], run[24], cost[40] = "unknown";

	/* Unknown settings have no cost: the sentinel once read "pages_to_scan
	 * -9223372036854775808" and its cost "0.000%". */
	if (r->checksum_cpu_share_settings >= 0)
		snprintf(cost, sizeof(cost), "%.3f%% of a CPU", 100 * r->checksum_cpu_share_settings);
	report_wrappedf(stdout, width, "", "# at pages_to_scan %s / sleep %s ms, checksumming costs %s (cold %s %.1f "
			"ns/page; KSM run=%s)%s", cell_of(s->pages_to_scan, pts), cell_of(s->sleep_ms, sleep), cost,
			c->hash, c->ns, cell_of(s->run, run), watch_profit(width) ? "" : "; general_profit: with --wide");
	printf("%7s %10s %8s %5s %9s %8s %8s %8s %8s %8s%s %8s\n", "secs", "scanned/s", "merges/s", "fulls",
	       "full scan", "shared", "sharing", "unshared", "volatile", "zero",
	       watch_profit(width) ? "       profit" : "", "cksum%");
}

int ksm_live_watch(const char *dir, uint64_t interval_ns, unsigned count, int json, unsigned width)
{
	char named[KSM_DIR_NAMED_SIZE];
	struct ksm_sample a, b;
	struct ksm_rates r;
	struct cold_cost c;
	int rc;

	/* full_scans is as old as KSM (2.6.32); pages_scanned came in 6.6,
	 * before which the scan rate is unknown. */
	ksm_sysfs_dir_named(dir, named);
	ksm_sample_read(dir, &a);
	if (a.full_scans < 0)
		return cli_error("ksm", "cannot read full_scans in %s%s", named, ksm_sysfs_missing_hint(dir));
	if ((rc = cold_cost("ksm", &c)) != 0)
		return rc;
	long long shown_pts = -2, shown_sleep = -2;
	/* Each interval starts where the last ended, so that a change between
	 * two is seen too. */
	ksm_sample_read(dir, &a);
	if (a.full_scans < 0)
		return cli_error("ksm", "cannot read full_scans in %s any more", named);
	for (unsigned i = 0; count == 0 || i < count; i++, a = b) {
		clock_sleep_ns(interval_ns);
		ksm_sample_read(dir, &b);
		/* Gone (the directory removed), or gone back (another kernel's, a
		 * copy rewritten): no rate can be made of it. */
		if (b.full_scans < 0 || (a.pages_scanned >= 0 && b.pages_scanned < 0))
			return cli_error("ksm", "cannot read %s in %s any more",
					 b.full_scans < 0 ? "full_scans" : "pages_scanned", named);
		if ((a.pages_scanned >= 0 && b.pages_scanned < a.pages_scanned) || b.full_scans < a.full_scans)
			return cli_error("ksm", "%s: pages_scanned or full_scans went back (%lld to %lld, %lld to "
					 "%lld): the counters are not one kernel's", named, a.pages_scanned,
					 b.pages_scanned, a.full_scans, b.full_scans);
		ksm_rates_between(&a, &b, c.ns, &r);
		if (!json && (b.pages_to_scan != shown_pts || b.sleep_ms != shown_sleep)) {
			watch_settings(&b, &r, &c, width);
			shown_pts = b.pages_to_scan;
			shown_sleep = b.sleep_ms;
		}
		if (watch_line(&b, &r, &c, json, width) || fflush(stdout) != 0)
			return cli_output_failed("ksm");
	}
	return KB_EXIT_OK;
}

/* The most sampled symbols, on one line wrapped to width. */
static void profile_top(const struct ksmd_profile *p, unsigned width)
{
	char line[KSMD_TOP_SYMBOLS * 96 + 16] = "top symbols:";
	size_t n = strlen(line);

	for (unsigned i = 0; i < p->ntop && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %.1f%%", p->top[i].name,
				      100.0 * (double)p->top[i].samples / (double)p->samples);
	report_wrapped(stdout, "", line, width);
}

/* ksmd's CPU time per page scanned; < 0 where the kernel does not count
 * the pages scanned (before 6.6) or none were. */
static double profile_ns_per_page(const struct ksmd_profile *p)
{
	return p->scanned_known && p->pages_scanned ? (double)p->cpu_ns / (double)p->pages_scanned : -1;
}

/* ksmd's checksum time per page it checksummed (the merged mappings it
 * visited and smart_scan's skips left out: ksm_checksummed_per_s); < 0
 * where unknown or none was. */
static double profile_checksum_ns(const struct ksmd_profile *p)
{
	return p->scanned_known && p->pages_checksummed >= 1 && p->samples
		       ? (double)p->cpu_ns * (double)p->part_samples[KSMD_CHECKSUM] / (double)p->samples /
				 p->pages_checksummed
		       : -1;
}

static void profile_text(const struct ksmd_profile *p, const struct cold_cost *c, unsigned width)
{
	double per_page = profile_ns_per_page(p);
	char scanned[64] = "pages scanned unknown (no pages_scanned before Linux 6.6)";

	if (p->scanned_known)
		snprintf(scanned, sizeof(scanned), "%llu pages scanned", (unsigned long long)p->pages_scanned);
	report_wrappedf(stdout, width, "", "ksmd (PID %d) over %.2f s: CPU time %.3f s (%.1f%% of a CPU), %s, %llu "
			"full scans; %llu samples (%s), %llu lost, %llu outside kernel symbols", (int)p->pid,
			p->window_ns / 1e9, p->cpu_ns / 1e9,
			p->window_ns ? 100.0 * (double)p->cpu_ns / (double)p->window_ns : 0, scanned,
			(unsigned long long)p->full_scans, (unsigned long long)p->samples, p->event,
			(unsigned long long)p->lost, (unsigned long long)p->unnamed);
	printf("%-14s %9s %8s %16s\n", "PART", "samples", "share %", "ns/scanned page");
	for (int k = 0; k < KSMD_PARTS; k++) {
		double share = p->samples ? (double)p->part_samples[k] / (double)p->samples : 0;
		char ns[24] = "-";
		if (per_page >= 0)
			snprintf(ns, sizeof(ns), "%.1f", share * per_page);
		printf("%-14s %9llu %8.1f %16s\n", ksmd_part_name((enum ksmd_part)k),
		       (unsigned long long)p->part_samples[k], 100 * share, ns);
	}
	double measured = p->samples && per_page >= 0
				  ? per_page * (double)p->part_samples[KSMD_CHECKSUM] / (double)p->samples
				  : 0;
	double per_checksum = profile_checksum_ns(p);
	char ksmd_cost[240] = "ksmd's checksum per scanned page unknown";
	if (per_checksum >= 0)
		snprintf(ksmd_cost, sizeof(ksmd_cost), "ksmd's checksum %.1f ns per scanned page, %.1f per page it "
			 "checksummed (about %.0f of the %llu scanned: not the merged ones; ratio %.2f)", measured,
			 per_checksum, p->pages_checksummed, (unsigned long long)p->pages_scanned,
			 c->ns > 0 ? per_checksum / c->ns : 0);
	else if (per_page >= 0)
		snprintf(ksmd_cost, sizeof(ksmd_cost), "ksmd's checksum %.1f ns per scanned page (none checksummed)",
			 measured);
	/* As --watch's header: unknown settings (-1) are "-", and have no cost. */
	char pts[24] = "-", sleep[24] = "-", share[24] = "unknown";
	double at_settings = ksm_settings_cpu_share(p->pages_to_scan, p->sleep_ms, c->ns);
	if (p->pages_to_scan >= 0)
		snprintf(pts, sizeof(pts), "%ld", p->pages_to_scan);
	if (p->sleep_ms >= 0)
		snprintf(sleep, sizeof(sleep), "%ld", p->sleep_ms);
	if (at_settings >= 0)
		snprintf(share, sizeof(share), "%.3f%%", 100 * at_settings);
	report_wrappedf(stdout, width, "", "model: scan's cold %s cost %.1f ns/page; %s; at pages_to_scan %s / "
			"sleep %s ms the model's checksum share of a CPU is %s", c->hash, c->ns, ksmd_cost, pts, sleep,
			share);
	profile_top(p, width);
}

static int profile_json(const struct ksmd_profile *p, const struct cold_cost *c)
{
	cJSON *o = cJSON_CreateObject(), *parts = cJSON_AddObjectToObject(o, "parts");
	cJSON *top = cJSON_AddArrayToObject(o, "top_symbols");
	double per_page = profile_ns_per_page(p);

	cJSON_AddStringToObject(o, "schema", "ksmbench-ksmd-profile/1");
	cJSON_AddNumberToObject(o, "pid", p->pid);
	cJSON_AddStringToObject(o, "event", p->event);
	cJSON_AddNumberToObject(o, "window_ns", (double)p->window_ns);
	cJSON_AddNumberToObject(o, "cpu_ns", (double)p->cpu_ns);
	cJSON_AddNumberToObject(o, "samples", (double)p->samples);
	cJSON_AddNumberToObject(o, "lost", (double)p->lost);
	number_or_null(o, "pages_scanned", p->scanned_known, (double)p->pages_scanned);
	cJSON_AddNumberToObject(o, "full_scans", (double)p->full_scans);
	double per_checksum = profile_checksum_ns(p);
	number_or_null(o, "pages_checksummed", p->scanned_known, p->pages_checksummed);
	number_or_null(o, "checksum_ns_per_checksummed_page", per_checksum >= 0, per_checksum);
	cJSON_AddStringToObject(o, "model_checksum", c->hash);
	cJSON_AddNumberToObject(o, "model_checksum_ns_per_page", c->ns);
	for (int k = 0; k < KSMD_PARTS; k++) {
		cJSON *x = cJSON_AddObjectToObject(parts, ksmd_part_name((enum ksmd_part)k));
		double share = p->samples ? (double)p->part_samples[k] / (double)p->samples : 0;
		cJSON_AddNumberToObject(x, "samples", (double)p->part_samples[k]);
		cJSON_AddNumberToObject(x, "share", share);
		number_or_null(x, "ns_per_scanned_page", per_page >= 0, share * per_page);
	}
	for (unsigned i = 0; i < p->ntop; i++) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "symbol", p->top[i].name);
		cJSON_AddNumberToObject(x, "samples", (double)p->top[i].samples);
		cJSON_AddItemToArray(top, x);
	}
	return print_json(o);
}

int ksm_live_profile(const char *dir, uint64_t window_ns, int json, unsigned width)
{
	const char *kallsyms = getenv("KSMBENCH_KALLSYMS"), *name = "/proc/kallsyms";
	char q[KB_QUOTE_SIZE], named[KB_QUOTE_SIZE + 32];
	struct ksmd_profile p;
	struct kb_err err;
	struct cold_cost c;
	int rc;

	if (kallsyms && *kallsyms) { /* its errors name the variable, the value cut */
		snprintf(named, sizeof(named), "KSMBENCH_KALLSYMS '%s'", kb_quote(kallsyms, q));
		name = named;
	} else {
		kallsyms = name;
	}
	/* The window first: its checks (root, ksmd, run) fail at once, where
	 * the cold cost takes a third of a second. */
	if (ksmd_profile_run(window_ns, dir, kallsyms, name, &p, &err))
		return cli_fail("ksm", &err);
	if ((rc = cold_cost("ksm", &c)) != 0)
		return rc;
	if (json)
		rc = profile_json(&p, &c);
	else
		profile_text(&p, &c, width);
	return rc || fflush(stdout) != 0 ? cli_output_failed("ksm") : KB_EXIT_OK;
}
