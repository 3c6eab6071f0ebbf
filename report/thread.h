/* The linux-mm thread's comparison (2017-2018, KSM's page checksum): the
 * figures published there, and this machine's beside them. */
#ifndef KB_THREAD_H
#define KB_THREAD_H

#include <stdio.h>

#include <cJSON.h>

#include "../bench/bench.h"
#include "../bench/context.h"

/* A published figure is 0 where the thread had none for that hash. */
struct thread_published {
	const char *hash;
	double kernel_mb_per_s; /* v2 self-test, Xeon E5-2420 v2, zero page, HZ>>3 jiffies */
	double ksm_ns_per_page; /* ksmd checksum time, Xeon E5-2620 v3, 4 VMs */
	double v1_mib_per_s;    /* v1 figures, Core i5-7200U */
};

/* The hashes of the comparison in display order, with their figures. */
extern const struct thread_published thread_published[];
extern const unsigned thread_published_count;

struct thread_row {
	const char *label;                 /* the thread's name for it ("crc32c") */
	const struct bench_result *kernel; /* jiffies, zero page, hot */
	const struct bench_result *ksm;    /* rdtsc, random pages, cold */
	const struct thread_published *published;
};

/* Speed-up against jhash2: rate / jhash2's rate (0 if either is missing). */
double thread_speedup_rate(double rate, double jhash2_rate);

int thread_report_table(FILE *out, const struct bench_context *ctx, const struct thread_row *rows, unsigned n);
int thread_report_markdown(FILE *out, const struct bench_context *ctx, const struct thread_row *rows, unsigned n);
int thread_report_csv(FILE *out, const struct thread_row *rows, unsigned n);
int thread_report_kernel(FILE *out, const struct thread_row *rows, unsigned n);
/* The results document (schema, context, results) with a "thread" object. */
cJSON *thread_report_json(const struct bench_context *ctx, const struct bench_result *results, unsigned nresults,
			  const struct thread_row *rows, unsigned n);

#endif
