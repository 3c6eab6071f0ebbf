/* KSM's counters at intervals (see ksm_watch.h). */
#include "ksm_watch.h"

#include <math.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/monotonic.h"
#include "scan.h"

long long ksm_sysfs_number(const char *dir, const char *name)
{
	char path[4096];
	long long v = KSM_SYSFS_MISSING;
	struct stat sb;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return v;
	/* Non-blocking, and a regular file only: a FIFO in its place (a
	 * KSMBENCH_KSM_DIR of tests) would otherwise wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return v;
	FILE *f = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? fdopen(fd, "r") : NULL;
	if (!f)
		close(fd);
	char text[32];
	if (f) {
		/* A whole number that fits, as the kernel writes them; anything
		 * else (fscanf's %lld took "99999999999999999999" as LLONG_MAX) is
		 * not one. */
		if (fgets(text, sizeof(text), f)) {
			char *end;
			errno = 0;
			v = strtoll(text, &end, 10);
			if (errno || end == text || (*end && *end != '\n'))
				v = KSM_SYSFS_MISSING;
		}
		fclose(f);
	}
	return v;
}

/* The kernel's counters and settings are unsigned: a negative value (a
 * KSMBENCH_KSM_DIR written by hand) is none it wrote, and read as a file
 * it lacks, not as a count below zero or a setting of no cost. */
static long long unsigned_number(const char *dir, const char *name)
{
	long long v = ksm_sysfs_number(dir, name);

	return v >= 0 ? v : KSM_SYSFS_MISSING;
}

void ksm_sample_read(const char *dir, struct ksm_sample *s)
{
	s->t_ns = clock_now_ns();
	s->pages_scanned = unsigned_number(dir, "pages_scanned");
	s->pages_skipped = unsigned_number(dir, "pages_skipped");
	s->full_scans = unsigned_number(dir, "full_scans");
	s->pages_shared = unsigned_number(dir, "pages_shared");
	s->pages_sharing = unsigned_number(dir, "pages_sharing");
	s->pages_unshared = unsigned_number(dir, "pages_unshared");
	s->pages_volatile = unsigned_number(dir, "pages_volatile");
	s->ksm_zero_pages = unsigned_number(dir, "ksm_zero_pages");
	s->general_profit = ksm_sysfs_number(dir, "general_profit");
	s->pages_to_scan = unsigned_number(dir, "pages_to_scan");
	s->sleep_ms = unsigned_number(dir, "sleep_millisecs");
	s->run = unsigned_number(dir, "run");
}

double ksm_checksummed_per_s(const struct ksm_sample *b, double scanned_per_s, double skipped_per_s)
{
	/* With f full scans a second, M merged and U other rmap items:
	 * scanned = M f + c and skipped = U f - c, so c = (scanned U - M
	 * skipped) / (M + U). */
	double merged = (double)(b->pages_shared > 0 ? b->pages_shared : 0) +
			(double)(b->pages_sharing > 0 ? b->pages_sharing : 0);
	double other = (double)(b->pages_unshared > 0 ? b->pages_unshared : 0) +
		       (double)(b->pages_volatile > 0 ? b->pages_volatile : 0);
	double c = merged + other > 0 ? (scanned_per_s * other - merged * skipped_per_s) / (merged + other) : 0;

	return c > 0 ? c : 0;
}

long long ksm_counter_growth(long long a, long long b)
{
	return a >= 0 && b >= a ? b - a : -1;
}

void ksm_rates_between(const struct ksm_sample *a, const struct ksm_sample *b, double checksum_ns,
		       struct ksm_rates *r)
{
	/* ksm_zero_pages and pages_scanned are missing before Linux 6.6 */
	long long zero_a = a->ksm_zero_pages > 0 ? a->ksm_zero_pages : 0;
	long long zero_b = b->ksm_zero_pages > 0 ? b->ksm_zero_pages : 0;
	long long scanned = ksm_counter_growth(a->pages_scanned, b->pages_scanned);
	long long skipped = ksm_counter_growth(a->pages_skipped, b->pages_skipped);

	r->seconds = (double)(b->t_ns - a->t_ns) / 1e9;
	double s = r->seconds > 0 ? r->seconds : 1e-9;
	r->pages_scanned_per_s = scanned >= 0 ? (double)scanned / s : -1;
	r->pages_skipped_per_s = skipped >= 0 ? (double)skipped / s : -1;
	/* In double: the files may hold any long long (KSMBENCH_KSM_DIR), and
	 * pages_sharing + ksm_zero_pages overflowed; exact below 2^53 pages. */
	r->merges_per_s = a->pages_sharing < 0 || b->pages_sharing < 0
				  ? NAN /* not a count of 0 merges */
				  : ((double)b->pages_sharing + (double)zero_b - (double)a->pages_sharing - (double)zero_a) / s;
	r->full_scans = b->full_scans - a->full_scans;
	r->full_scan_s = r->full_scans > 0 ? r->seconds / (double)r->full_scans : -1;
	r->pages_checksummed_per_s =
		scanned >= 0 ? ksm_checksummed_per_s(b, r->pages_scanned_per_s, skipped > 0 ? (double)skipped / s : 0)
			     : -1;
	r->checksum_cpu_share_measured = scanned >= 0 ? r->pages_checksummed_per_s * checksum_ns / 1e9 : -1;
	r->checksum_cpu_share_settings = ksm_settings_cpu_share(b->pages_to_scan, b->sleep_ms, checksum_ns);
}

double ksm_settings_cpu_share(long long pages_to_scan, long long sleep_ms, double checksum_ns)
{
	if (pages_to_scan < 0 || sleep_ms < 0)
		return -1;
	if (pages_to_scan == 0)
		return 0;
	struct ksmd_schedule k = ksmd_schedule_running((uint64_t)pages_to_scan,
						       sleep_ms > UINT_MAX ? UINT_MAX : (unsigned)sleep_ms);
	return ksmd_cpu_share(&k, checksum_ns, 1.0);
}
