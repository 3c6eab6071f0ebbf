/* The notes ksmbench capture writes into its ELF cores (name "KSMBENCH",
 * in one PT_NOTE before the data), and their parser for the ELF reader:
 *   KB_NOTE_SYSTEM: text lines "key=value", the first "ksmbench-system/1":
 *     the kernel release, the page size, HZ, the KSM settings of the moment;
 *   KB_NOTE_PAGES: a header, then one 64-bit entry per page written, in
 *     file order (the reader's page index): PFN and flags (KB_PAGE_*).
 * Every field is in the core's byte order. docs/dump-formats.md has the
 * layout. */
#ifndef KB_CAPTURE_NOTE_H
#define KB_CAPTURE_NOTE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"

#define KB_NOTE_NAME "KSMBENCH"
#define KB_NOTE_SYSTEM 0x4b420001u
#define KB_NOTE_PAGES 0x4b420002u
#define KB_NOTE_SYSTEM_TAG "ksmbench-system/1"
#define KB_NOTE_PAGES_VERSION 1u
#define KB_NOTE_PAGES_HEADER 40u /* version, flags, page size, pages, zero_page_mapped, interval_ns */
#define KB_NOTE_SYSTEM_MAX 4096u

/* KB_NOTE_PAGES header flags. */
#define KB_PAGES_PFN_KNOWN 1u        /* PFNs read (CAP_SYS_ADMIN) */
#define KB_PAGES_KPAGEFLAGS_KNOWN 2u /* /proc/kpageflags read: zero page, THP, KSM known */
#define KB_PAGES_INTERVAL 4u         /* two snapshots: KB_PAGE_VOLATILE is meaningful */
#define KB_PAGES_MERGEABLE_KNOWN 8u  /* /proc/PID/smaps read: KB_PAGE_MERGEABLE is meaningful */

/* A page entry: the PFN in bits 0-54, then flags. */
#define KB_PAGE_PFN_MASK ((1ull << 55) - 1)
#define KB_PAGE_THP (1ull << 56)       /* part of a transparent huge page */
#define KB_PAGE_THP_HEAD (1ull << 57)  /* its first page */
#define KB_PAGE_KSM (1ull << 58)       /* already a KSM page */
#define KB_PAGE_VOLATILE (1ull << 59)  /* content changed between the two snapshots */
#define KB_PAGE_EXCLUSIVE (1ull << 60) /* mapped by this process only (pagemap bit 56) */
#define KB_PAGE_MERGEABLE (1ull << 61) /* anonymous, in a mapping KSM may merge (VmFlags mg) */

/* A number of the system note. A value the kernel never shows (junk, out
 * of [min, max]) is kept apart as CAPTURE_SETTING_ODD with its text, not
 * dropped: scan refuses it where it would model it, naming it, rather than
 * silently modelling a default (capture_note.c has the ranges). */
#define CAPTURE_SETTING_UNKNOWN (-1LL) /* not recorded */
#define CAPTURE_SETTING_ODD (-2LL)
struct capture_setting {
	long long value; /* in its key's range, or CAPTURE_SETTING_UNKNOWN or _ODD */
	char text[24];   /* with _ODD: the value as recorded, cut to fit */
};

/* The values the kernel shows for a number of the system note. */
struct capture_setting_range {
	long long min, max;
};

/* The range of the number key ("ksm.pages_to_scan", "hz"): kept once, in
 * capture_note.c's table, not in every capture_setting. A key that is not
 * one of the table's has an empty range (min > max). */
struct capture_setting_range capture_setting_range(const char *key);

/* What the system note says; the strings are "" when not recorded. Plain
 * data (no pointers): scan copies it whole into its dumps. */
struct capture_system {
	char kernel_release[128];
	char machine[64]; /* uname's machine when captured: the kernel's word size (captures of 2026-12-06 on) */
	struct capture_setting max_page_sharing, use_zero_pages, pages_to_scan, sleep_millisecs, smart_scan;
	struct capture_setting hz; /* the kernel's HZ: unknown in captures before 2026-12-06 */
	int advisor_scan_time; /* ksm.advisor_mode was scan-time: pages_to_scan was the advisor's */
};

/* What a core's notes say. */
struct capture_note {
	int has_system, has_pages;
	struct capture_system system;
	uint32_t flags, page_size;
	uint64_t pages, zero_page_mapped, interval_ns;
	uint64_t *entries; /* pages of them, or NULL */
};

/* The system note's text (len bytes) into n; fails unless it starts with
 * the tag line. Unknown keys are ignored. */
int capture_note_system(struct capture_note *n, const unsigned char *desc, size_t len, struct kb_err *err);

/* The page note's header: d holds its first KB_NOTE_PAGES_HEADER bytes (when
 * len, the whole descriptor's size, is at least that), big: the core's byte
 * order. Checks the version, the page size and that len holds exactly the
 * announced entries; the caller reads those (capture_note_entries). */
int capture_note_pages_header(struct capture_note *n, const unsigned char *d, uint64_t len, int big,
			      struct kb_err *err);

/* Converts count entries read in the core's byte order to this machine's. */
void capture_note_entries(uint64_t *entries, size_t count, int big);

void capture_note_init(struct capture_note *n);

/* The note's bytes (header, name, descriptor, each padded to 4) in this
 * machine's byte order: returns the size written to buf (at most cap), or
 * what it would be when buf is NULL or too small. desc NULL: only the
 * header and the name (24 bytes); the caller appends desc_len bytes and
 * pads them to 4. */
size_t capture_note_encode(uint32_t type, const void *desc, size_t desc_len, unsigned char *buf, size_t cap);

#endif
