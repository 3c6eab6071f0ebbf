/* What KSM sees of a process's pages (capture.h): present or not from
 * /proc/PID/pagemap and, with CAP_SYS_ADMIN, the PFN and /proc/kpageflags:
 * whether the page is the shared zero page (or the huge zero page), part
 * of a transparent huge page, or already a KSM page. */
#include "capture.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "capture_note.h"

/* /proc/PID/pagemap bits (Documentation/admin-guide/mm/pagemap.rst). */
#define PM_PRESENT (1ull << 63)
#define PM_FILE (1ull << 61) /* file page or shared anonymous (3.5+) */
#define PM_EXCLUSIVE (1ull << 56)
#define PM_PFN_MASK ((1ull << 55) - 1)
/* /proc/kpageflags bits (include/uapi/linux/kernel-page-flags.h). */
#define KPF_COMPOUND_HEAD 15
#define KPF_KSM 21
#define KPF_THP 22
#define KPF_ZERO_PAGE 24

/* PAGEMAP_SCAN (Linux 6.7, include/uapi/linux/fs.h; Debian 12's headers
 * predate it): the page table's regions of pages in the categories asked. */
#ifndef PAGEMAP_SCAN
#define PAGE_IS_PRESENT (1 << 3)
struct page_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#endif

/* By capget(2), which needs no file: read from /proc/self/status, out of
 * descriptors read as "no capability", and capture said root lacked
 * CAP_SYS_ADMIN and left the PFNs out. */
static int has_cap(unsigned bit)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (bit >= 32 * _LINUX_CAPABILITY_U32S_3 || syscall(SYS_capget, &h, d) != 0)
		return 0;
	return (d[bit / 32].effective >> (bit % 32)) & 1;
}

int capture_has_cap_sys_ptrace(void)
{
	return has_cap(19);
}

int capture_pagemap_open(pid_t pid, struct capture_pagemap *pm)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	pm->kpageflags_fd = -1;
	pm->scan_missing = 0;
	if ((pm->pagemap_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	/* PFNs are zero without CAP_SYS_ADMIN (Linux 4.2+), kpageflags needs it too. */
	pm->pfn_known = has_cap(21);
	if (pm->pfn_known)
		pm->kpageflags_fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	/* Out of descriptors or memory is this run's trouble, not the
	 * system's rule: an error, not a capture without the flags. */
	if (pm->pfn_known && pm->kpageflags_fd < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOMEM)) {
		int e = errno;
		close(pm->pagemap_fd);
		pm->pagemap_fd = -1;
		errno = e;
		return -1;
	}
	return 0;
}

void capture_pagemap_close(struct capture_pagemap *pm)
{
	if (pm->pagemap_fd >= 0)
		close(pm->pagemap_fd);
	if (pm->kpageflags_fd >= 0)
		close(pm->kpageflags_fd);
	pm->pagemap_fd = pm->kpageflags_fd = -1;
}

/* The kpageflags of n consecutive PFNs from pfn: 0 where unreadable. */
static void read_kflags(const struct capture_pagemap *pm, uint64_t pfn, size_t n, uint64_t *out)
{
	ssize_t got = pread(pm->kpageflags_fd, out, n * 8, (off_t)(pfn * 8));

	if (got < 0)
		got = 0;
	if ((size_t)got < n * 8)
		memset((char *)out + got, 0, n * 8 - (size_t)got);
}

/* The entries' KB_PAGE_* words, CAPTURE_ZERO_MAPPED for a page that maps
 * the zero page, 0 for an absent page; CAPTURE_FILE_PAGE for a page of the
 * page cache, which KSM leaves alone even in a mapping it may merge (it
 * merges anonymous pages: in a private file mapping, those written to). */
static void classify(const struct capture_pagemap *pm, const uint64_t *raw, const uint64_t *kf, size_t n,
		     uint64_t *info)
{
	for (size_t i = 0; i < n; i++) {
		if (!(raw[i] & PM_PRESENT)) {
			info[i] = 0;
			continue;
		}
		uint64_t pfn = pm->pfn_known ? raw[i] & PM_PFN_MASK : 0, w = CAPTURE_PRESENT | pfn;
		if (raw[i] & PM_EXCLUSIVE)
			w |= KB_PAGE_EXCLUSIVE;
		if (raw[i] & PM_FILE)
			w |= CAPTURE_FILE_PAGE;
		if (kf) {
			if (kf[i] >> KPF_ZERO_PAGE & 1) {
				info[i] = CAPTURE_ZERO_MAPPED;
				continue;
			}
			if (kf[i] >> KPF_THP & 1)
				w |= KB_PAGE_THP | (kf[i] >> KPF_COMPOUND_HEAD & 1 ? KB_PAGE_THP_HEAD : 0);
			if (kf[i] >> KPF_KSM & 1)
				w |= KB_PAGE_KSM;
		}
		info[i] = w;
	}
}

int capture_pagemap_read(const struct capture_pagemap *pm, uint64_t va, size_t n, uint64_t page_size,
			 uint64_t *info)
{
	uint64_t raw[CAPTURE_BATCH_PAGES], kf[CAPTURE_BATCH_PAGES];

	if (n > CAPTURE_BATCH_PAGES) {
		errno = EINVAL;
		return -1;
	}
	ssize_t got = pread(pm->pagemap_fd, raw, n * 8, (off_t)(va / page_size * 8));
	if (got < 0)
		return -1;
	if ((size_t)got < n * 8)
		memset((char *)raw + got, 0, n * 8 - (size_t)got);
	if (pm->kpageflags_fd >= 0) {
		/* One read per run of consecutive PFNs (a THP is 512 of them). */
		for (size_t i = 0; i < n;) {
			size_t j = i + 1;
			uint64_t pfn = raw[i] & PM_PFN_MASK;
			if (!(raw[i] & PM_PRESENT)) {
				kf[i++] = 0;
				continue;
			}
			while (j < n && (raw[j] & PM_PRESENT) && (raw[j] & PM_PFN_MASK) == pfn + (j - i))
				j++;
			read_kflags(pm, pfn, j - i, kf + i);
			i = j;
		}
	}
	classify(pm, raw, pm->kpageflags_fd >= 0 ? kf : NULL, n, info);
	return 0;
}

/* One page found is enough (max_pages): the walk stops there, so that a
 * mapping whose pages are all present costs one short call a batch, while
 * a reservation of terabytes with a few pages touched (an ASan process's
 * shadow, 16-20 TiB) is crossed without a page-map word for each page
 * (1 TiB took 2.3 s, most of it reading 2 GiB of words). */
uint64_t capture_pagemap_next_present(struct capture_pagemap *pm, uint64_t va, uint64_t end)
{
	/* Both zeroed whole for valgrind, which knows neither the region the
	 * kernel writes through vec nor every byte of the argument it reads,
	 * and called them uninitialised (the CI's valgrind job captures). */
	struct page_region r = { 0, 0, 0 };
	struct pm_scan_arg a;

	if (pm->scan_missing || va >= end)
		return va;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.start = va;
	a.end = end;
	a.vec = (uint64_t)(uintptr_t)&r;
	a.vec_len = 1;
	a.max_pages = 1;
	a.category_mask = a.return_mask = PAGE_IS_PRESENT;
	int got = ioctl(pm->pagemap_fd, PAGEMAP_SCAN, &a);
	if (got < 0) {
		pm->scan_missing = 1; /* before 6.7, or under an emulator without it */
		return va;
	}
	if (got > 0)
		return r.start > va && r.start < end ? r.start : va;
	/* None found: absent up to where the walk ended (end, unless cut short). */
	return a.walk_end > va && a.walk_end <= end ? a.walk_end : va;
}
