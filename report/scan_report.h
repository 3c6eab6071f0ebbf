/* What the scan document's text report (scan_text.c) takes from its
 * fields (scan_report.c): the schemas of the tables' rows, KSM's counters
 * by the kernel's names, and ksmd's sleep as the kernel takes it. Only
 * those two files include it. */
#ifndef KB_SCAN_REPORT_H
#define KB_SCAN_REPORT_H

#include "../scan/scan.h"
#include "record.h"

/* A dump's and the totals' page counts; a dump's row (extends them); what
 * KSM would leave for one use_zero_pages; a hash's row; a top content's. */
extern const struct record_schema scan_stats_schema, scan_dump_schema, scan_ksm_schema, scan_hash_schema,
	scan_top_schema;

/* The first KSM_SYSFS_FIELDS of scan_ksm_schema's fields are the kernel's
 * counters, by its names: the table's rows, and those a release may lack. */
#define KSM_SYSFS_FIELDS 8u /* pages_shared .. general_profit */
extern const struct record_field scan_ksm_fields[];

/* ksmd's sleep as the kernel takes it: a batch's period without its work. */
double scan_sleep_taken_ms(const struct scan_result *r);

#endif
