/* The kernel's rules behind scan's KSM prediction, by kernel release, and
 * what a ksmbench capture's page words add to the census's counts:
 *   - pages that changed between the capture's two snapshots are volatile:
 *     KSM only merges a page whose checksum held since its previous visit;
 *   - since Linux 6.12 splitting a transparent huge page maps its zero
 *     subpages to the shared zero page (mm: remap unused subpages to shared
 *     zeropage when splitting isolated thp), and KSM splits a THP to merge
 *     any of its subpages: those zero subpages leave KSM's view; before,
 *     KSM merges them like any zero page;
 *   - max_page_sharing exists since Linux 4.13 (no limit before);
 *   - ksmd's sleep ends on the tick after the jiffy it is due since 4.8's
 *     timer wheel (common/kernel_timer.h), on it before;
 *   - KSM checksums pages with xxhash since Linux 5.0, jhash2 before
 *     (2.6.38 to 4.20), and in its first releases (2.6.32 to 2.6.37) the
 *     jhash2 of the time, which was lookup2 (jhash2-lookup2);
 *   - mappings that already shared a PFN (fork, earlier merging) are
 *     counted by KSM but save nothing when merged;
 *   - xxhash() is xxh64 on 64-bit kernels and xxh32 on 32-bit ones;
 *   - general_profit: (pages_sharing + ksm_zero_pages) * page size -
 *     rmap_items * sizeof(struct ksm_rmap_item) (ksm_rmap_item_bytes);
 *     in 6.4 and 6.5 pages_sharing alone (ksm_zero_pages came in 6.6);
 *   - smart_scan (6.7+, on by default) skips a page that is neither merged
 *     nor new for more and more scans, at most 8 between two visits (see
 *     KSM_SMART_SCAN_VISIT_EVERY);
 *   - counters that came after KSM (stable_node_chains and _dups 4.13,
 *     general_profit 6.4, ksm_zero_pages 6.6) are not in older releases. */
#ifndef KB_KSM_MODEL_H
#define KB_KSM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "../hashes/hash.h"
#include "census.h"

/* The word size of the kernel ksmbench itself was built for. */
#define KSM_BUILD_BITS (UINTPTR_MAX > 0xffffffffu ? 64u : 32u)
/* smart_scan: should_skip_rmap_item() leaves a page that is not a KSM page
 * alone for skip_age(age) scans after a visit, 8 from its seventh visit on
 * (the 14th full scan; its age never goes back while its rmap item lives,
 * whether its content changes or not): in the long run one full scan in 9
 * visits it. */
#define KSM_SMART_SCAN_VISIT_EVERY 9u

struct ksm_rules {
	char release[128];   /* "" when unknown */
	const char *source;  /* "option", "capture" or "assumed (the newest rules)" */
	int thp_split_zero_remap; /* 6.12+ */
	int max_page_sharing;     /* 4.13+ */
	int use_zero_pages;       /* 4.11+: the setting exists */
	int smart_scan;           /* 6.7+: the setting exists, on unless switched off */
	int timer_wheel_rounds_up; /* 4.8+: ksmd's sleep ends a jiffy late (common/kernel_timer.h) */
	int zero_sleep_skips;      /* 5.0+: sleep_millisecs 0 does not sleep (before: to the next tick) */
	const struct hash_impl *checksum; /* KSM's page checksum: xxhash (5.0+), jhash2 before */
	unsigned kernel_bits;     /* 64 or 32: xxhash()'s width, the rmap item's size */
	/* "option", "capture" (its machine), "this machine" (uname's: the
	 * default) or "this ksmbench" (its build, when uname says nothing) */
	const char *bits_from;
	unsigned missing;         /* the later counters the release lacks (ksm_counter_missing) */
};

/* The rules of a release ("6.18.44-..."); NULL or "": the newest. Fails on
 * text uname could not show (kernel_release_plausible), on text that does
 * not start with MAJOR.MINOR, and on a release before KSM (2.6.32). */
int ksm_rules_for(const char *release, const char *source, struct ksm_rules *r, struct kb_err *err);

/* Models a kernel of `bits` (32 or 64) instead of this build's word size:
 * from then on xxhash names xxh32 or xxh64 where the two differ. */
void ksm_rules_set_bits(struct ksm_rules *r, unsigned bits, const char *from);

/* 64 or 32 for uname's machine name (x86_64, aarch64, ppc64le, s390x,
 * riscv64... against i686, armv7l, mips, ppc...); 0 for "" (not recorded). */
unsigned ksm_machine_bits(const char *machine);

/* sizeof(struct ksm_rmap_item) in the kernel modelled: 64 bytes on 64-bit
 * kernels; on 32-bit ones 32, and 36 since smart_scan's two age bytes
 * (6.7; padded to a word). */
unsigned ksm_rmap_item_bytes(const struct ksm_rules *r);

/* The release that added KSM's sysfs counter name when the rules'
 * release predates it; NULL when the release has it (or name is none of
 * the counters that came after KSM). */
const char *ksm_counter_missing(const struct ksm_rules *r, const char *name);

/* KSM's checksum in a release (the xxhash, jhash2 or jhash2-lookup2 entry);
 * xxhash when release is NULL or says nothing. */
const struct hash_impl *ksm_checksum_in(const char *release);

/* KSM's checksum on the running kernel: ksm_checksum_in its release
 * (uname), or KSMBENCH_KERNEL_RELEASE's where set (tests pose as an older
 * kernel with it). */
const struct hash_impl *ksm_checksum_running(void);

/* One page of a capture with page words. */
struct ksm_page_rec {
	uint64_t content; /* census_add's *content */
	uint64_t word;    /* the capture's page word (KB_PAGE_* | PFN) */
	uint32_t folio;   /* the THP it belongs to (0: none), numbered across dumps */
	uint32_t count;   /* its content's copies (filled by ksm_model_apply) */
};

/* The pages of captures, collected during the census pass. */
struct ksm_model {
	struct ksm_page_rec *recs;
	size_t n, cap;
	uint32_t folios;
	uint64_t last_word; /* the previous page's, for THP runs */
	uint32_t last_folio; /* its folio */
	uint64_t pages_volatile;
};

/* Records a page that is not volatile, with its content and page word. */
int ksm_model_add(struct ksm_model *m, uint64_t content, uint64_t word, struct kb_err *err);
/* Counts a volatile page (never merged) with its page word (0: none),
 * which keeps its THP whole for the pages after it. */
void ksm_model_add_volatile(struct ksm_model *m, uint64_t word);
/* A new dump starts: no THP continues across it. */
void ksm_model_next_dump(struct ksm_model *m);

/* The counters for max_page_sharing (0: no limit, as before 4.13) and
 * use_zero_pages under rules, from the census and the recorded pages
 * (their order is changed). */
void ksm_model_apply(struct ksm_model *m, const struct census *c, const struct ksm_rules *rules,
		     unsigned max_page_sharing, int use_zero_pages, uint32_t page_size, struct census_ksm *out);

/* A full scan once merging has settled, in the counters k of a model: the
 * pages it checksums, neither merged nor gone (pages_unshared,
 * pages_volatile), in one scan of KSM_SMART_SCAN_VISIT_EVERY with
 * smart_scan; the pages it visits (the kernel's pages_scanned), the merged
 * mappings too (not checksummed); and those smart_scan skips (its
 * pages_skipped), neither visited nor checksummed. Averages over scans. */
struct ksm_steady_scan {
	double checksummed, visited, skipped;
};
struct ksm_steady_scan ksm_steady_scan(const struct census_ksm *k, int smart_scan);

/* ksmd's batches, each followed by a sleep, in one full scan that visits
 * visited pages at pages_to_scan a batch: floor(visited / pages_to_scan) +
 * 1, since the call that finds the end of the list returns no page and
 * ends its batch (scan_get_next_rmap_item() in mm/ksm.c), so an empty scan
 * takes one, and one of exactly pages_to_scan pages two. */
double ksm_scan_batches(double visited, unsigned pages_to_scan);

void ksm_model_free(struct ksm_model *m);

#endif
