/* Unit tests: the kernel lines, CSV and JSON renderers on known results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../report/results.h"
#include "check.h"
#include "groups.h"

static char *render(int (*fn)(FILE *, const struct bench_result *, size_t), const struct bench_result *r,
		    size_t n)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	if (fn(f, r, n) != 0) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	return text;
}

void test_report_formats(void)
{
	struct bench_result r[2];
	struct bench_context ctx;
	char *text;

	memset(r, 0, sizeof(r));
	memset(&ctx, 0, sizeof(ctx));
	r[0].hash = "crc32c";
	r[0].impl = "crc32c-isal";
	strcpy(r[0].data, "zero");
	r[0].cache = "hot";
	r[0].page_size = 4096;
	r[0].timer = BENCH_TIMER_JIFFIES;
	r[0].kernel_mb_per_s_best = 12081;
	r[0].counter_hz = 2e9;
	r[1] = r[0];
	r[1].hash = r[1].impl = "jhash2";
	r[1].timer = BENCH_TIMER_WINDOW;
	r[1].bytes_per_second_best = 1569.0 * (1 << 20) + 5; /* the kernel unit is MiB/s */
	strcpy(r[1].data, "file:a,b\"c");

	/* Exactly the patch's printk("ksm: %-8s hash() %5ld MB/s\n"). */
	text = render(report_kernel, r, 2);
	CHECK_STR(text, "ksm: crc32c   hash() 12081 MB/s\n"
			"ksm: jhash2   hash()  1569 MB/s\n");
	free(text);

	text = render(report_csv, r, 2);
	CHECK(text && strncmp(text, "hash,implementation,data,cache,page_size_bytes,", 47) == 0);
	CHECK(text && strstr(text, "\njhash2,jhash2,\"file:a,b\"\"c\",hot,4096,"));
	CHECK(text && strstr(text, ",12081,"));
	free(text);

	cJSON *doc = report_json_document(&ctx, r, 2);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "schema")), "ksmbench-results/1");
	cJSON *results = cJSON_GetObjectItem(doc, "results");
	CHECK(cJSON_GetArraySize(results) == 2);
	cJSON *first = cJSON_GetArrayItem(results, 0), *second = cJSON_GetArrayItem(results, 1);
	CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(first, "kernel_mb_per_s_best")) == 12081);
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(second, "kernel_mb_per_s_best")));
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(second, "tsc_cycles_per_page_median")));
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(second, "data")), "file:a,b\"c");
	CHECK(cJSON_IsObject(cJSON_GetObjectItem(doc, "context")));
	cJSON_Delete(doc);

	enum report_format f;
	struct kb_err err;
	CHECK(report_format_parse("kernel", &f, &err) == 0 && f == REPORT_KERNEL);
	CHECK(report_format_parse("xml", &f, &err) == -1 && strstr(err.msg, "unknown format 'xml'"));
}
