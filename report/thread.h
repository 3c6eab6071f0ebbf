/* The linux-mm thread's comparison (2017-2018, KSM's page checksum): the
 * figures published there, and this machine's beside them (thread.c). */
#ifndef KB_THREAD_H
#define KB_THREAD_H

#include <stddef.h>

#include "../bench/bench.h"

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

/* One row: a contender's results here beside its published figures, and
 * every figure's speed-up against jhash2 (0 where there is none). The
 * speed-ups here come from rounds measured side by side with jhash2's
 * (bench/estimate.h: estimate_ratio), with their intervals over processes;
 * unstable says whether either result here is (the reasons are in the
 * results: kernel->unstable, ksm->unstable). */
struct thread_row {
	const struct thread_published *published;
	const struct bench_result *kernel; /* jiffies, zero page, hot; NULL: not measured */
	const struct bench_result *ksm;    /* rdtsc, random pages, cold; NULL: not measured */
	double mb_here, mb_x_here, mb_thread, mb_x_thread;
	double ns_here, ns_x_here, ns_thread, ns_x_thread;
	struct stats_interval mb_x_here_interval, ns_x_here_interval; /* n 0: none */
	int unstable;
};

/* Speed-up against jhash2: rate / jhash2's rate (0 if either is missing). */
double thread_speedup_rate(double rate, double jhash2_rate);

/* The rows of contenders[0..n) from the results measured (matched by hash
 * and timer; after an interruption some have none). */
void thread_rows_build(const struct thread_published *const *contenders, size_t n,
		       const struct bench_result *results, size_t nresults, struct thread_row *rows);

#endif
