/* Renderers of `ksmbench scan` results: table, JSON (schema
 * ksmbench-scan/1), CSV (one row per hash, the JSON's field names). */
#ifndef KB_SCAN_REPORT_H
#define KB_SCAN_REPORT_H

#include <stdio.h>

#include <cJSON.h>

#include "../scan/scan.h"
#include "results.h"

#define SCAN_REPORT_SCHEMA "ksmbench-scan/1"

int scan_report_table(FILE *out, const struct scan_result *r);
cJSON *scan_report_json(const struct bench_context *ctx, const struct scan_result *r);
int scan_report_csv(FILE *out, const struct scan_result *r);

#endif
