/* `ksmbench scan`: what KSM would merge in a set of dumps (several VMs on
 * one host) and what checksumming it costs. One pass over every dump feeds
 * the census (duplicates by full content, zero pages, collisions) and a
 * uniform sample of pages; the sample is then timed cold with the bench
 * engine, one hash after the other. Results are values; nothing prints. */
#ifndef KB_SCAN_H
#define KB_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "../common/kernel_timer.h"
#include "ksm_model.h"
#include "scan_types.h"

struct scan_hash {
	const struct hash_impl *hash;
	struct census_collisions coll;
	int timed;
	struct bench_result bench;
	double ns_per_page_median, ns_per_page_p90; /* per call, cold, over the sample */
	/* Checksum time of one full scan: every page (the first two scans, and
	 * whatever is not merged yet), and once merged (the model of
	 * cost_use_zero_pages: the pages neither merged nor gone, pages_unshared
	 * and pages_volatile, in one scan of KSM_SMART_SCAN_VISIT_EVERY with
	 * smart_scan). */
	double full_scan_checksum_ms, steady_scan_checksum_ms;
	/* ksmd's share of one CPU spent checksumming at pages_to_scan and
	 * sleep_millisecs: N c / P, N pages per batch of c ns, P ksmd's period
	 * with that work (common/kernel_timer.h); once merged N f c, f the
	 * share of the pages visited that are checksummed (smart_scan's skips
	 * take none of the batch). */
	double ksmd_checksum_cpu_share, ksmd_steady_checksum_cpu_share;
	double full_scan_seconds; /* one full scan at these settings: batches * ksmd's period */
	double steady_full_scan_seconds; /* the same once merged: the pages visited then */
};

struct scan_result {
	struct scan_dump *dumps;
	size_t ndumps;
	struct page_stats total;
	struct census_counts counts;
	uint64_t bytes_scanned;        /* pages * page size */
	uint64_t census_ns;            /* wall time of the pass over the dumps */
	struct census_ksm ksm[2];      /* use_zero_pages 0 and 1 */
	uint64_t within_dump_duplicates, across_dump_duplicates; /* the dumps' sums */
	uint64_t pages_volatile, zero_page_mapped;               /* the captures' sums */
	int smart_scan;                /* modelled: the setting, 0 where the release lacks it */
	int cost_use_zero_pages;       /* the model the cost once merged follows: the capture's setting, else 0 */
	struct ksm_rules rules;        /* the kernel's the model follows */
	uint64_t duplicated_contents;  /* non-zero contents seen at least twice */
	uint64_t duplicate_pages;      /* sum over non-zero contents of count - 1 */
	struct scan_hash *hashes;      /* nhashes of them */
	unsigned nhashes;
	struct scan_top *top;
	size_t ntop;
	unsigned top_requested;        /* --top N: N (ntop may be 0: no content has two copies) */
	int mergeable_only;            /* --mergeable */
	int default_checksum;          /* no -H: hashes[0] stood for KSM's checksum */
	uint64_t pages_left_out;       /* of every dump: outside mappings KSM may merge, with --mergeable */
	size_t sample_pages;           /* pages actually sampled and timed */
	uint64_t working_set_bytes;
	unsigned pages_to_scan, sleep_ms, max_page_sharing;
	unsigned hz;         /* the kernel's HZ modelled */
	const char *hz_from; /* "option", "capture" or "default" */
	int capture_pages_to_scan_zero; /* the capture's was 0 (ksmd idle): pages_to_scan is the default */
	int capture_pages_to_scan_advised; /* pages_to_scan is the capture's, the scan-time advisor's then */
	uint32_t page_size;
};

int scan_run(const struct scan_options *o, struct scan_result *r, struct kb_err *err);
void scan_result_free(struct scan_result *r);

/* ksmd's schedule modelled: the settings, HZ and the rules' timer wheel. */
struct ksmd_schedule scan_schedule(const struct scan_result *r);

#endif
