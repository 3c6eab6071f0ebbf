/* The linux-mm thread's comparison (2017-2018, KSM's page checksum): the
 * figures published there, and this machine's beside them (thread.c), in
 * two blocks: what the kernel can run, and contenders outside it; and the
 * verdict on top (thread_verdict.c): what KSM uses, the fastest the kernel
 * has here, the fastest outside it, and what each costs at ksmd's settings. */
#ifndef KB_THREAD_H
#define KB_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>

#include "../bench/bench.h"
#include "../common/err.h"
#include "../common/kernel_timer.h"
#include "record.h"

/* A published figure is 0 where the thread had none for that hash. */
struct thread_published {
	const char *hash;
	double kernel_mb_per_s; /* v2 self-test, Xeon E5-2420 v2, zero page, HZ>>3 jiffies */
	double ksm_ns_per_page; /* ksmd checksum time, Xeon E5-2620 v3, 4 VMs */
	double v1_mib_per_s;    /* v1 figures, Core i5-7200U */
};

/* The thread's hashes in display order, with their figures. */
extern const struct thread_published thread_published[];
extern const unsigned thread_published_count;

/* One contender: the hash measured (matched against the results' names),
 * the thread's figures for it (NULL: a contender the thread did not have),
 * whether the kernel can run it, and whether only a release newer than the
 * running (or posed) one can (xxh64 before 4.14: its row stays beside the
 * thread's figures, the verdict leaves it out). The kernel's crc32c is
 * measured as the implementation the kernel's own rule picks on this CPU. */
struct thread_contender {
	const char *measured;
	const struct thread_published *published;
	int in_kernel;
	int newer_than_release;
};

/* A row: a contender's results here beside its published figures, and
 * every figure's speed-up against jhash2 (0 where there is none). The
 * figures themselves are read where they are used, from the results and
 * the published ones (thread_row_ns_here), so that no copy can drift from
 * them. The speed-ups here come from rounds measured side by side with
 * jhash2's (bench/estimate.h: estimate_ratio), with their intervals over
 * processes. */
struct thread_row {
	const char *hash; /* the thread's name, or (outside the kernel) the implementation's */
	const struct thread_published *published; /* NULL: none */
	int in_kernel;
	int newer_than_release; /* in the kernel after the release the rows are for */
	const struct bench_result *kernel; /* jiffies, zero page, hot; NULL: not measured */
	const struct bench_result *ksm;    /* ksmd's pattern, random pages, cold; NULL: not measured */
	double mb_x_here, mb_x_thread; /* kernel MB/s against jhash2's */
	double ns_x_here, ns_x_thread; /* jhash2's ns per page against this one's */
	struct stats_interval mb_x_here_interval, ns_x_here_interval; /* n 0: none */
};

/* A row's ns per page in ksmd's pattern here: its result's median (0: not
 * measured, or no row). */
static inline double thread_row_ns_here(const struct thread_row *r)
{
	return r && r->ksm ? r->ksm->ns_per_page.median : 0;
}

/* ksmd's schedule the verdict prices a hash at: the settings, from
 * /sys/kernel/mm/ksm (or KSMBENCH_KSM_DIR: from "sysfs", read in dir), the
 * options ("options") or the kernel's defaults ("defaults"), and the running
 * kernel's HZ and timer wheel (common/kernel_timer.h). */
#define KSMD_GIVEN_PAGES 1u /* pages_to_scan given as an option */
#define KSMD_GIVEN_SLEEP 2u /* sleep_millisecs given as an option */

struct thread_ksmd {
	struct ksmd_schedule s;
	const char *from, *dir; /* "sysfs" (dir) or "defaults": the settings not given */
	int ksm_off; /* KSM's run is 0 here: the shares are what ksmd would spend */
	unsigned given; /* KSMD_GIVEN_* */
};

/* Where ksmd's settings came from, as JSON's settings_source says it:
 * "options" (both given), "sysfs" or "defaults" (neither), else
 * "options+sysfs" or "options+defaults". */
const char *thread_settings_source(const struct thread_ksmd *k);

/* The verdict (thread_verdict.c), from the rows: KSM's hash today (the
 * running kernel's: xxhash(), or jhash2 before 5.0), the fastest in-kernel row other than it and
 * the fastest outside-kernel row by ksmd-style ns/page, their speed-ups against today's from rounds side
 * by side, and what share of a CPU ksmd spends hashing with each at the
 * settings ksmd. */
#define THREAD_VERDICT_TIES 8 /* rows named as fast as a block's best, at most */

struct thread_verdict {
	struct thread_ksmd ksmd;
	const char *today_hash; /* KSM's checksum on the running kernel: "xxhash" or "jhash2" */
	const struct thread_row *today, *kernel_best, *outside_best; /* NULL: not measured */
	double kernel_x, outside_x;            /* times faster than today's (0: none) */
	struct stats_interval kernel_x_interval, outside_x_interval;
	/* The rows of each block its best cannot be told from (none where
	 * today's leads the kernel's block): see thread_verdict.c's ties_of. */
	const struct thread_row *kernel_ties[THREAD_VERDICT_TIES], *outside_ties[THREAD_VERDICT_TIES];
	size_t nkernel_ties, noutside_ties;
	double today_cpu_share, kernel_cpu_share, outside_cpu_share; /* 0..1 */
	size_t unstable, results;              /* unstable results of all measured */
	unsigned unstable_kinds;               /* STABILITY_* bits over every unstable result */
};

/* The thread's figures for hash, a name of the thread (NULL: none). */
const struct thread_published *thread_published_find(const char *hash);

/* A row of a thread document as read back (plot): the thread's name (or
 * the outside contender's implementation), what was measured, and the two
 * figures here (0: not measured). */
struct thread_row_read {
	const char *hash, *impl;
	int in_kernel;
	int64_t kernel_mb_per_s_here; /* kernel MB/s (count*4096>>17), best round */
	double ns_per_page_here;      /* ksmd's pattern, median */
};

struct thread_read {
	int present; /* the document has a "thread" object */
	struct record_array rows_read;
	struct thread_row_read *rows; /* views of rows_read */
	size_t nrows;
};

/* The "thread" object of a results document root (present 0 when there is
 * none), bounded like every field read back; path names it in errors.
 * Release it even after an error. */
int thread_read(const cJSON *root, const char *path, struct thread_read *t, struct kb_err *err);
void thread_read_release(struct thread_read *t);

/* The kernel function that runs what r measured (NULL: not kernel code):
 * an outside contender whose alias chose kernel code has one. */
const char *thread_row_kernel_function(const struct thread_row *r);

/* The rows of contenders[0..n) from the results measured (matched by name
 * and timer; after an interruption some have none). */
void thread_rows_build(const struct thread_contender *contenders, size_t n, const struct bench_result *results,
		       size_t nresults, struct thread_row *rows);

/* The share of a CPU ksmd spends hashing at settings k when a page costs
 * ns_per_page: pages_to_scan pages, then the sleep (ksmd_cpu_share). */
double thread_cpu_share(double ns_per_page, const struct thread_ksmd *k);

/* The verdict over rows[0..n) and results[0..nresults); today_hash is
 * KSM's checksum on the running kernel and today_impl the implementation
 * that runs it on this build (xxhash: xxh64 on 64-bit). */
void thread_verdict_build(const struct thread_row *rows, size_t n, const struct bench_result *results,
			  size_t nresults, const char *today_hash, const char *today_impl,
			  const struct thread_ksmd *k, struct thread_verdict *v);

#endif
