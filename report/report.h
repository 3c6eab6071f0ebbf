/* Reports: a document of one kind (what a command produced) written in
 * one format of the registry (format.c). A format is a file defining a
 * struct report_format with a renderer per kind it writes; a command finds
 * it by name for its kind and calls report_write, as many times as it has
 * outputs. Nothing here decides what to measure. */
#ifndef KB_REPORT_H
#define KB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../bench/bench.h"
#include "../bench/context.h"
#include "../common/err.h"
#include "../common/kernel_timer.h"
#include "record.h"

#define REPORT_SCHEMA "ksmbench-results/2"
#define REPORT_SCHEMA_V1 "ksmbench-results/1" /* still read: one process per result */

enum report_kind {
	REPORT_BENCH,   /* results of bench */
	REPORT_THREAD,  /* thread's results and its comparison rows */
	REPORT_SELECT,  /* select's results and its choice */
	REPORT_SCAN,    /* a scan_result */
	REPORT_COMPARE, /* two results documents judged */
	REPORT_PLOT,    /* a results document read back, drawn */
	REPORT_LIST,    /* the hash registry */
	REPORT_KSM,     /* the live KSM counters */
	REPORT_SELFCHECK, /* bench --selfcheck's comparisons */
	REPORT_CEILING, /* this CPU's measured limits and each implementation's ceiling */
	REPORT_KINDS
};

struct thread_row;
struct thread_verdict;
struct scan_result;
struct loaded_doc;
struct plot_run;
struct compare_settings;
struct compare_outcome;
struct ksm_value;
struct selfcheck_row;
struct ceiling_report;

/* What is reported. Each kind uses its own members; the rest stay zero. */
struct report_document {
	enum report_kind kind;
	const struct bench_context *ctx;    /* bench, thread, select, scan, selfcheck */
	const struct bench_result *results; /* bench, thread, select: in the order measured */
	size_t nresults;
	const struct thread_row *rows;      /* thread */
	size_t nrows;
	const struct thread_verdict *verdict; /* thread: the answer on top (NULL: none) */
	const struct scan_result *scan;
	const struct loaded_doc *base, *new_; /* compare */
	const struct compare_settings *settings;
	const struct compare_outcome *outcome;
	const char *title;                  /* plot */
	const struct plot_run *plot_runs;   /* plot: the runs side by side */
	size_t nplot_runs;
	const char *ksm_dir;                /* ksm: the directory read */
	const struct ksm_value *sysfs, *process;
	size_t nsysfs, nprocess;
	int pid;                            /* ksm: 0 without --pid */
	unsigned ksm_page_size;             /* ksm: the kernel's page size, what ksmd scans */
	struct ksmd_schedule ksm_schedule;  /* ksm: the running kernel's HZ and timer wheel */
	const struct selfcheck_row *checks; /* selfcheck */
	size_t nchecks;
	const struct ceiling_report *ceiling; /* ceiling */
	const char *kernel_release;         /* list, thread: the release whose rules name the kernel's code
					       (kernel_release_running: KSMBENCH_KERNEL_RELEASE or uname's), NULL: unknown */
	int color;                          /* table: colour verdicts (a terminal) */
	int wide;                           /* table: every column, however wide (list --wide) */
	unsigned columns;                   /* table: the width to fit (0: REPORT_COLUMNS_DEFAULT) */
};

#define REPORT_COLUMNS_DEFAULT 100u /* a terminal's width when none is known */

/* The width a table of doc must fit: 0 (no limit) with --wide. */
unsigned report_columns(const struct report_document *doc);

typedef int (*report_render_fn)(FILE *out, const struct report_document *doc);

struct report_format {
	const char *name;
	report_render_fn render[REPORT_KINDS]; /* NULL: the format does not write that kind */
	unsigned flags; /* REPORT_NO_WARNINGS, REPORT_ROWS_ONLY */
};

#define REPORT_NO_WARNINGS 1u /* no place for the context's warnings: a command says them on stderr */
#define REPORT_ROWS_ONLY 2u   /* the document's rows alone (report_write_rows): nothing else of it has a place */

/* The kind's name, as its command's ("bench", "scan", ...). */
const char *report_kind_name(enum report_kind kind);

/* The format called name that writes kind; one error naming the formats
 * that do, if none. */
const struct report_format *report_format_find(const char *name, enum report_kind kind, struct kb_err *err);

/* The names of the formats that write kind, joined by sep ("|": for a usage
 * line; ", " ends with " or "), in buf. */
const char *report_format_names(enum report_kind kind, const char *sep, char *buf, size_t size);

/* Renders doc in f to out; -1 if it could not be written. Callable any
 * number of times on one document. */
int report_write(const struct report_format *f, const struct report_document *doc, FILE *out);

/* The document's schema (its JSON) and its rows (a CSV's lines: results,
 * thread rows, scan hashes, self-check rows); -1 for a kind without rows
 * (document.c). */
const struct record_schema *report_document_schema(enum report_kind kind);

/* The document's rows as delimited text (record_write_delimited). */
int report_write_rows(FILE *out, const struct report_document *doc, char sep);

/* A dataset name that stays the same across CI runs: a file's base name
 * ("file:/tmp/x/guest.core" -> "guest.core"), else the name itself
 * (stability_text.c, which names results by it). */
const char *report_stable_data(const char *data);

#endif
