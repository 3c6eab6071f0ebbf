/* ksmbench ksm: the live KSM counters and settings with their meaning,
 * and one process's KSM counters (scan/ksm_sysfs.h reads them). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../common/size_parse.h"
#include "../report/results.h"
#include "../report/table.h"
#include "../scan/ksm_sysfs.h"
#include "cli.h"

static void usage(void)
{
	printf("usage: ksmbench ksm [--pid PID] [--format table|json]\n\n"
	       "Prints every file of /sys/kernel/mm/ksm this kernel has, with its meaning, and\n"
	       "the scan rate it implies; with --pid, the process's /proc/PID/ksm_stat and\n"
	       "ksm_merging_pages. KSMBENCH_KSM_DIR reads another directory instead (tests).\n");
}

static const struct ksm_value *find(const struct ksm_value *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

/* ksmd scans at most pages_to_scan pages per sleep_millisecs. */
static double pages_per_second(const struct ksm_value *v, size_t n)
{
	const struct ksm_value *pts = find(v, n, "pages_to_scan"), *sl = find(v, n, "sleep_millisecs");

	if (!pts || !sl || !pts->is_number || !sl->is_number || sl->number <= 0)
		return -1;
	return (double)pts->number * 1000.0 / (double)sl->number;
}

static int add_rows(struct table *t, const struct ksm_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (table_add_rowf(t, v[i].name, v[i].text, v[i].meaning ? v[i].meaning : ""))
			return -1;
	return 0;
}

static int print_table(const char *dir, const struct ksm_value *sys, size_t nsys, int pid,
		       const struct ksm_value *proc, size_t nproc)
{
	struct table *t = table_new(3, "lrl");
	int rc = t && table_add_rowf(t, dir, "value", "meaning") == 0 && add_rows(t, sys, nsys) == 0 ? 0 : -1;

	if (rc == 0)
		rc = table_print(t, stdout);
	table_free(t);
	double pps = pages_per_second(sys, nsys);
	if (rc == 0 && pps >= 0)
		printf("\nksmd scans at most %.0f pages/s (pages_to_scan * 1000 / sleep_millisecs), "
		       "%.1f MiB/s of 4 KiB pages\n", pps, pps * 4096 / 1048576.0);
	if (rc == 0 && pid > 0) {
		char head[48];
		snprintf(head, sizeof(head), "process %d", pid);
		t = table_new(3, "lrl");
		rc = t && table_add_rowf(t, head, "value", "meaning") == 0 && add_rows(t, proc, nproc) == 0 ? 0 : -1;
		if (rc == 0) {
			putchar('\n');
			rc = table_print(t, stdout);
		}
		table_free(t);
	}
	return rc;
}

static cJSON *values_json(const struct ksm_value *v, size_t n)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; o && i < n; i++) {
		if (v[i].is_number)
			cJSON_AddNumberToObject(o, v[i].name, (double)v[i].number);
		else
			cJSON_AddStringToObject(o, v[i].name, v[i].text);
	}
	return o;
}

static cJSON *meanings_json(const struct ksm_value *v, size_t n, cJSON *o)
{
	for (size_t i = 0; o && i < n; i++)
		if (v[i].meaning && !cJSON_GetObjectItem(o, v[i].name))
			cJSON_AddStringToObject(o, v[i].name, v[i].meaning);
	return o;
}

int cmd_ksm(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = "table", *dir = getenv("KSMBENCH_KSM_DIR");
	struct ksm_value sys[KSM_VALUES_MAX], proc[KSM_VALUES_MAX];
	size_t nsys = 0, nproc = 0;
	struct kb_err err;
	uint64_t v;
	int c, pid = 0;

	if (!dir || !*dir)
		dir = KSM_SYSFS_DIR;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (kb_parse_uint(optarg, 0x7fffffff, &v, &err) || v == 0)
				return cli_error("ksm", "--pid '%s' is not a process id", optarg);
			pid = (int)v;
			break;
		case 'f': format = optarg; break;
		case 'h': usage(); return KB_EXIT_OK;
		default: return cli_bad_option("ksm", argv, optopt);
		}
	}
	if (optind < argc)
		return cli_error("ksm", "unexpected argument '%s'", argv[optind]);
	if (strcmp(format, "table") != 0 && strcmp(format, "json") != 0)
		return cli_error("ksm", "unknown format '%s' (table or json)", format);
	if (ksm_read_sysfs(dir, sys, KSM_VALUES_MAX, &nsys, &err))
		return cli_fail("ksm", &err);
	if (pid && ksm_read_process(pid, proc, KSM_VALUES_MAX, &nproc, &err))
		return cli_fail("ksm", &err);
	int rc;
	if (strcmp(format, "json") == 0) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "schema", "ksmbench-ksm/1");
		cJSON_AddStringToObject(doc, "sysfs_dir", dir);
		cJSON_AddItemToObject(doc, "sysfs", values_json(sys, nsys));
		double pps = pages_per_second(sys, nsys);
		if (pps >= 0)
			cJSON_AddNumberToObject(doc, "max_pages_per_second", pps);
		else
			cJSON_AddNullToObject(doc, "max_pages_per_second");
		if (pid) {
			cJSON *p = values_json(proc, nproc);
			cJSON_AddNumberToObject(p, "pid", pid);
			cJSON_AddItemToObject(doc, "process", p);
		} else {
			cJSON_AddNullToObject(doc, "process");
		}
		cJSON *m = meanings_json(sys, nsys, cJSON_CreateObject());
		cJSON_AddItemToObject(doc, "meanings", meanings_json(proc, nproc, m));
		rc = report_json_print(stdout, doc);
	} else {
		rc = print_table(dir, sys, nsys, pid, proc, nproc);
	}
	if (rc != 0 || fflush(stdout) != 0)
		return cli_error("ksm", "cannot write the output");
	return KB_EXIT_OK;
}
