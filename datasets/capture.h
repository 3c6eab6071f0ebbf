/* Capturing live processes' memory as ELF cores: their private anonymous
 * mappings (with CAPTURE_ALL, every readable mapping), only the pages
 * present in memory according to /proc/PID/pagemap, read with
 * process_vm_readv (the targets are never written to or stopped). Each
 * core carries the KSMBENCH notes (capture_note.h): the kernel and KSM
 * settings, and per page what KSM sees of it. */
#ifndef KB_CAPTURE_H
#define KB_CAPTURE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "../common/err.h"

/* pagemap entries read at once, and the largest process_vm_readv. */
#define CAPTURE_BATCH_PAGES 512u
/* The automatic interval is at most this (one full KSM scan can take minutes). */
#define CAPTURE_INTERVAL_MAX_NS 10000000000ull
#define CAPTURE_INTERVAL_MIN_NS 50000000ull

struct capture_stats {
	uint64_t mappings;      /* captured */
	uint64_t segments;      /* PT_LOAD headers written */
	uint64_t pages_present; /* written with their bytes */
	uint64_t pages_absent;  /* never touched or swapped out: p_memsz only */
	uint64_t pages_vanished; /* present, then unmapped before their bytes were read: zeros */
	uint64_t zero_page_mapped; /* map the shared (or huge) zero page: left out like absent ones */
	uint64_t pages_thp;     /* in transparent huge pages */
	uint64_t pages_ksm;     /* already KSM pages */
	uint64_t pages_volatile; /* changed between the two snapshots */
	uint64_t pages_mergeable; /* present in mappings KSM may merge (VmFlags mg) */
	int mergeable_known;    /* /proc/PID/smaps read: pages_mergeable is meaningful */
	int pfn_known;          /* PFNs and kpageflags read (CAP_SYS_ADMIN) */
	uint64_t bytes;         /* of the file */
};

#define CAPTURE_ALL 1       /* file-backed and shared mappings too */
#define CAPTURE_MERGEABLE 2 /* only mappings KSM may merge (VmFlags "mg") */
/* Every page-map word read, no PAGEMAP_SCAN: what a kernel before 6.7
 * (Debian 12's 6.1) makes capture do; for the tests to compare the ways. */
#define CAPTURE_PAGE_WORDS_ONLY 4

/* One process and where its core goes (a file, a pipe, standard output:
 * the headers come first, then the data, front to back). Each mapping
 * becomes PT_LOADs at p_vaddr = its address (p_paddr 0): a run of present
 * pages is file data, a following run of absent pages extends p_memsz past
 * p_filesz, so a reader counts them as holes, not as zero pages. */
struct capture_job {
	pid_t pid;
	FILE *out;
	struct capture_stats stats;
	struct cap_state *state; /* private */
};

/* The interval used: given, or one full KSM scan of the captured pages at
 * the current pages_to_scan and sleep_millisecs, clamped to
 * [CAPTURE_INTERVAL_MIN_NS, CAPTURE_INTERVAL_MAX_NS]. */
struct capture_interval {
	uint64_t ns;
	int automatic, clamped;
	uint64_t pages;
	long pages_to_scan, sleep_ms;
	unsigned hz;
};

struct capture_options {
	int flags;           /* CAPTURE_* */
	int snapshots;       /* 1, or 2: read twice, interval apart, and mark what changed */
	uint64_t interval_ns; /* 0 with two snapshots: one full KSM scan's time (capture_interval) */
	const char *ksm_dir;  /* KSM's sysfs directory: the settings recorded in the note */
	/* ksmd's settings for the automatic interval, read and checked by the
	 * caller (cmd/ksmd_settings.c): capture does not parse them twice. */
	unsigned pages_to_scan, sleep_ms;
	/* With two snapshots, called once the interval is chosen and before
	 * the first (the caller says how long the wait will be); or NULL. */
	void (*interval_chosen)(const struct capture_interval *iv, void *arg);
	void *interval_arg;
};

/* The automatic interval of iv->pages: one full KSM scan, pages /
 * pages_to_scan + 1 batches (the call that finds the scan's end ends a
 * batch of its own, as ksm_scan_batches() in scan/ksm_model.h says), each
 * ksmd's period at sleep_ms and this kernel's HZ (the checksumming time
 * left out), clamped. pages_to_scan 0 is the kernel's default, 100. */
void capture_interval_auto(struct capture_interval *iv, unsigned pages_to_scan, unsigned sleep_ms);

/* Captures every job, all with one interval: the layouts first (which
 * pages are present, what they are), then with two snapshots the first
 * read of every process, one sleep, the second read, then each core
 * (headers, notes, data read a last time). A page that is unmapped
 * meanwhile is written as zeros and counted in pages_vanished (stop the
 * processes first for a consistent image). With CAPTURE_MERGEABLE and no
 * page present in any process, an error before anything is written. */
int capture_processes(struct capture_job *jobs, size_t n, const struct capture_options *o,
		      struct capture_interval *iv, struct kb_err *err);

/* Internals shared by the capture's files. */
#define CAPTURE_PRESENT (1ull << 63)     /* in the page words while laying out */
#define CAPTURE_ZERO_MAPPED (1ull << 62)
#define CAPTURE_FILE_PAGE (1ull << 55)   /* page cache (or shared anonymous), never merged */

struct capture_pagemap {
	int pagemap_fd, kpageflags_fd;
	int pfn_known;
	int scan_missing; /* the kernel has no PAGEMAP_SCAN (before 6.7) */
};

int capture_has_cap_sys_ptrace(void);
/* -1 with errno when the page map cannot be opened. */
int capture_pagemap_open(pid_t pid, struct capture_pagemap *pm);
void capture_pagemap_close(struct capture_pagemap *pm);
/* n (<= CAPTURE_BATCH_PAGES) page words at va: 0 (absent), CAPTURE_ZERO_MAPPED,
 * or CAPTURE_PRESENT | KB_PAGE_* | PFN; -1 with errno. */
int capture_pagemap_read(const struct capture_pagemap *pm, uint64_t va, size_t n, uint64_t page_size,
			 uint64_t *info);
/* The first address from va, before end, whose page may be present: those
 * before it are absent (not in RAM: never touched, or swapped out, as
 * capture_pagemap_read reads them). Asked of PAGEMAP_SCAN, which walks past
 * unpopulated page tables; va itself where the kernel lacks it or it fails
 * (capture_pagemap_read then says why). */
uint64_t capture_pagemap_next_present(struct capture_pagemap *pm, uint64_t va, uint64_t end);
/* The system note's text (capture_note.h), KSM's settings read from
 * ksm_dir: its length, at most cap - 1. */
size_t capture_system_text(char *buf, size_t cap, const char *ksm_dir);

#endif
