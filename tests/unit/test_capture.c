/* Unit tests of datasets/capture: the layout of a live process's pages. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/kernel_timer.h"
#include "../../datasets/capture.h"
#include "check.h"
#include "groups.h"

#define CHILD_PAGES 2048u

/* Touched in the child's mergeable mapping: every seventh page, and a run
 * longer than a batch of page-map words (CAPTURE_BATCH_PAGES). */
static int touched(size_t i)
{
	return i % 7 == 3 || (i >= 1000 && i < 1000 + CAPTURE_BATCH_PAGES + 88);
}

/* A child holding the mapping, stopped in pause(); -1 where it cannot be
 * made (no fork under Debian 12's qemu-i386, no KSM to mark it mergeable). */
static pid_t mapping_child(void)
{
	int ready[2];
	char ok = 0;

	if (pipe(ready))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		size_t ps = (size_t)sysconf(_SC_PAGESIZE);
		unsigned char *m = mmap(NULL, CHILD_PAGES * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
					-1, 0);
		/* No huge page (khugepaged would fill the holes between the
		 * captures); each page's bytes its own, so KSM, if on, merges none. */
		if (m != MAP_FAILED && madvise(m, CHILD_PAGES * ps, MADV_NOHUGEPAGE) == 0 &&
		    madvise(m, CHILD_PAGES * ps, MADV_MERGEABLE) == 0) {
			for (size_t i = 0; i < CHILD_PAGES; i++)
				if (touched(i))
					for (size_t j = 0; j < ps; j += 8)
						memcpy(m + i * ps + j, &(uint64_t){ i * 1000003u + j }, 8);
			ok = 1;
		}
		if (write(ready[1], &ok, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	if (pid > 0 && (read(ready[0], &ok, 1) != 1 || !ok)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

/* The core of the child's mergeable mapping, into *bytes (malloc'd). */
static int capture_child(pid_t pid, int flags, struct capture_stats *st, char **bytes, size_t *len)
{
	struct capture_options o = { .flags = CAPTURE_MERGEABLE | flags, .snapshots = 1,
				     .ksm_dir = "/sys/kernel/mm/ksm" };
	struct capture_job job = { .pid = pid };
	struct capture_interval iv;
	struct kb_err err;

	*bytes = NULL;
	if (!(job.out = open_memstream(bytes, len)))
		return -1;
	int rc = capture_processes(&job, 1, &o, &iv, &err);
	fclose(job.out);
	if (rc)
		fprintf(stderr, "capture: %s\n", err.msg);
	*st = job.stats;
	return rc;
}

/* On a kernel before 6.7 (Debian 12's 6.1) capture has no PAGEMAP_SCAN to
 * skip runs of absent pages and reads every page-map word instead: the
 * same core either way. */
void test_capture_page_words_only(void)
{
	const char *nofork = getenv("KSMBENCH_TEST_NO_FORK"), *emulated = getenv("KSMBENCH_TEST_EMULATED");

	/* Under qemu-user the page map is the emulator's. */
	if ((nofork && strcmp(nofork, "1") == 0) || (emulated && strcmp(emulated, "1") == 0))
		return;
	pid_t pid = mapping_child();
	if (pid < 0)
		return;
	struct capture_stats scan, words;
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	int rc_scan = capture_child(pid, 0, &scan, &a, &alen);
	int rc_words = capture_child(pid, CAPTURE_PAGE_WORDS_ONLY, &words, &b, &blen);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	size_t present = 0;
	for (size_t i = 0; i < CHILD_PAGES; i++)
		present += touched(i);
	CHECK(rc_scan == 0 && rc_words == 0);
	CHECK(scan.mappings == 1 && words.mappings == 1);
	CHECK(scan.pages_present == present && words.pages_present == present);
	CHECK(scan.pages_absent == CHILD_PAGES - present && words.pages_absent == CHILD_PAGES - present);
	CHECK(scan.segments == words.segments && scan.segments > 1);
	CHECK(alen == blen && alen > present * (size_t)sysconf(_SC_PAGESIZE) && a && b && memcmp(a, b, alen) == 0);
	free(a);
	free(b);
}

/* --interval auto: a full scan's batches at ksmd's period, within 50 ms ..
 * 10 s; a count of pages whose product with the period would wrap is 10 s. */
void test_capture_interval_auto(void)
{
	struct ksmd_schedule k = ksmd_schedule_running(1, 20);
	uint64_t period = (uint64_t)ksmd_batch_period_ns(&k, 0);
	struct capture_interval iv = { .pages = 4 };

	capture_interval_auto(&iv, 1, 20);
	CHECK(iv.automatic && !iv.clamped && iv.pages_to_scan == 1 && iv.sleep_ms == 20 && iv.hz == k.hz);
	CHECK(iv.ns == 5 * period && iv.ns >= 100000000ull);

	iv = (struct capture_interval){ .pages = 1000000 };
	capture_interval_auto(&iv, 1, 20);
	CHECK(iv.clamped && iv.ns == CAPTURE_INTERVAL_MAX_NS);
	iv = (struct capture_interval){ .pages = UINT64_MAX };
	capture_interval_auto(&iv, 1, 20);
	CHECK(iv.clamped && iv.ns == CAPTURE_INTERVAL_MAX_NS);

	iv = (struct capture_interval){ .pages = 10 };
	capture_interval_auto(&iv, 100000, 1);
	CHECK(iv.clamped && iv.ns == CAPTURE_INTERVAL_MIN_NS);

	/* pages_to_scan 0 (KSM's settings unreadable): the kernel's 100 */
	iv = (struct capture_interval){ .pages = 250 };
	capture_interval_auto(&iv, 0, 1000);
	k = ksmd_schedule_running(100, 1000);
	CHECK(iv.pages_to_scan == 100 && !iv.clamped && iv.ns == 3 * (uint64_t)ksmd_batch_period_ns(&k, 0));
}
