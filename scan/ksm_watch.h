/* `ksm --watch`: KSM's counters read at intervals, and their rates. */
#ifndef KB_KSM_WATCH_H
#define KB_KSM_WATCH_H

#include <limits.h>
#include <stdint.h>

struct ksm_sample {
	uint64_t t_ns;
	long long pages_scanned, pages_skipped, full_scans, pages_shared, pages_sharing, pages_unshared, pages_volatile,
		ksm_zero_pages, general_profit, pages_to_scan, sleep_ms, run;
};

struct ksm_rates {
	double seconds;
	double pages_scanned_per_s; /* < 0: unknown (pages_scanned came in Linux 6.6) */
	double pages_skipped_per_s; /* by smart_scan; < 0: unknown (pages_skipped came in 6.7) */
	/* Of the pages scanned, those checksummed: not the merged mappings
	 * (ksm_checksummed_per_s); < 0: unknown, as pages_scanned. */
	double pages_checksummed_per_s;
	double merges_per_s;     /* change of pages_sharing + ksm_zero_pages per second (< 0: unmerging; NaN: unknown) */
	long long full_scans;    /* finished in the interval */
	double full_scan_s;      /* seconds per full scan in the interval, -1 when none finished */
	/* ksmd's checksumming share of a CPU: at the measured rate of pages
	 * checksummed (< 0: unknown, as the rate), and at the settings
	 * (ksm_settings_cpu_share; < 0: a setting unknown). */
	double checksum_cpu_share_measured, checksum_cpu_share_settings;
};

/* What a counter reads as when its file is missing (older kernels lack
 * ksm_zero_pages, general_profit...) or holds no number: not -1, which
 * general_profit can be. */
#define KSM_SYSFS_MISSING LLONG_MIN

/* One number of dir (/sys/kernel/mm/ksm), or KSM_SYSFS_MISSING. */
long long ksm_sysfs_number(const char *dir, const char *name);

/* The counters of dir (KSM_SYSFS_MISSING for a file this kernel lacks,
 * and but for general_profit, which may be negative, for a value below 0). */
void ksm_sample_read(const char *dir, struct ksm_sample *s);

/* Pages checksummed a second, from scanned and skipped (smart_scan's) a
 * second and the counters of b: a full scan meets each of the rmap items
 * (pages_shared + pages_sharing + pages_unshared + pages_volatile) once,
 * visits the merged ones (pages_shared + pages_sharing) without a
 * checksum, and either checksums or skips the rest. */
double ksm_checksummed_per_s(const struct ksm_sample *b, double scanned_per_s, double skipped_per_s);

/* How much a counter grew from a to b; -1 when it is missing (a kernel
 * without it) or went back (not one kernel's). */
long long ksm_counter_growth(long long a, long long b);

/* From a to b, with checksum_ns the cold ns per checksum. */
void ksm_rates_between(const struct ksm_sample *a, const struct ksm_sample *b, double checksum_ns,
		       struct ksm_rates *r);

/* The running kernel's ksmd checksumming every page of its batches at
 * these settings (sysfs values): its share of a CPU, ksmd's period at this
 * kernel's HZ (common/kernel_timer.h); -1 where one is unknown (below 0,
 * KSM_SYSFS_MISSING included). */
double ksm_settings_cpu_share(long long pages_to_scan, long long sleep_ms, double checksum_ns);

#endif
