/* `ksmbench scan`: what KSM would merge in a set of dumps (several VMs on
 * one host) and what checksumming it costs. One pass over every dump feeds
 * the census (duplicates by full content, zero pages, collisions) and a
 * uniform sample of pages; the sample is then timed cold with the bench
 * engine, one hash after the other. Results are values; nothing prints. */
#ifndef KB_SCAN_H
#define KB_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "../bench/bench.h"
#include "../common/kernel_timer.h"
#include "../datasets/capture_note.h"
#include "../datasets/dump.h"
#include "census.h"
#include "ksm_model.h"

#define SCAN_DUMPS_MAX 1000u /* a parked dump holds no descriptor (kb_stream_park) */
#define SCAN_TOP_MAX 1000u
#define SCAN_PAGES_TO_SCAN_DEFAULT 100u /* the kernel's defaults */
#define SCAN_SLEEP_MS_DEFAULT 20u
#define SCAN_MAX_PAGE_SHARING_DEFAULT 256u
#define SCAN_SAMPLE_PAGES_DEFAULT 1024u
#define SCAN_SAMPLE_BYTES_MAX (8u << 20)    /* the sample's memory, whatever the page size */
#define SCAN_CACHE_BYTES (16u << 20)        /* representatives kept for compares */
#define SCAN_GIVEN_PAGES_TO_SCAN 1u
#define SCAN_GIVEN_SLEEP_MS 2u
#define SCAN_GIVEN_MAX_PAGE_SHARING 4u
#define SCAN_GIVEN_SMART_SCAN 8u
#define SCAN_GIVEN_HZ 16u
#define SCAN_GIVEN_KERNEL_BITS 32u

/* Called every few thousand pages: bytes of pages read so far, and the
 * total size of the files (0 if unknown: a pipe, or a dump whose pages are
 * not at file offsets, as through gzip, which the sizes do not bound). */
typedef void (*scan_progress_fn)(void *ctx, uint64_t bytes_done, uint64_t bytes_total);

struct scan_options {
	char *const *paths;
	size_t npaths;
	uint32_t page_size;
	struct dump_options dump;
	const struct hash_impl *hashes[CENSUS_SUMS_MAX];
	unsigned nhashes;
	/* hashes[0] is KSM's checksum by default (no -H): that of the first
	 * capture's kernel (its release unless given, its word size unless
	 * given) where its note can be read before the pass (not through a
	 * pipe), else the one cmd chose from the options and this machine. */
	int default_checksum;
	unsigned pages_to_scan, sleep_ms, max_page_sharing;
	unsigned hz;    /* the kernel's HZ (SCAN_GIVEN_HZ): how long ksmd's sleep takes */
	int smart_scan; /* 0 or 1 (SCAN_GIVEN_SMART_SCAN) */
	unsigned kernel_bits; /* 32 or 64 (SCAN_GIVEN_KERNEL_BITS): the kernel KSM runs in */
	/* SCAN_GIVEN_*: settings given; the others come from a capture's note
	 * (the first dump that has one), else the defaults above. */
	unsigned given;
	const char *kernel_release; /* the rules' release; NULL: the capture's, else the newest */
	unsigned top;
	/* --mergeable: the pages of a capture that lie outside mappings KSM
	 * may merge are left out (captures that record which; others whole). */
	int mergeable_only;
	size_t sample_pages;        /* 0: no cost measurement */
	uint64_t working_set_bytes; /* the cold set the sample is laid out in (0: default from the LLC) */
	uint64_t llc_bytes;
	struct bench_config bench;  /* the rdtsc timer's settings */
	uint64_t seed;
	/* The timing runs pinned to this CPU (-1: not pinned); the pass over the
	 * dumps is not, so that its read-ahead thread runs on another CPU. */
	int pin_cpu;
	scan_progress_fn on_progress;
	void *progress_ctx;
};

struct scan_dump {
	const char *path;
	const char *format;
	struct page_stats stats;
	int fetchable; /* pages read again from the file, else copied to the spill file */
	uint64_t zero_pages;
	/* Surplus copies of contents (zero pages included) that an earlier page
	 * of this dump has, and first copies here of contents of earlier dumps. */
	uint64_t within_dump_duplicates, across_dump_duplicates;
	/* A ksmbench capture's notes: */
	int captured;           /* it has them */
	int page_words;         /* with a word per page (PFN, THP, volatile) */
	uint32_t words_page_size; /* the page size the words are for (0: none): unused at another */
	int pfn_known, two_snapshots;
	int mergeable_known;     /* the words say which pages lie in mappings KSM may merge */
	uint64_t pages_mergeable;
	uint64_t pages_left_out; /* --mergeable: the others, left out of everything below */
	uint64_t pages_volatile, zero_page_mapped, interval_ns;
	struct capture_system system; /* its system note's values: "" and -1 where not recorded */
};

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

/* Where a top content lies: one dump, its copies and the first's address. */
#define SCAN_TOP_WHERE_MAX 8u
struct scan_top_where {
	uint32_t dump;       /* index in scan_result.dumps */
	uint32_t count;
	uint64_t first_addr; /* as the dump's reader gives addresses (raw: the file offset) */
};

struct scan_top {
	struct census_entry entry;
	int is_zero;       /* the zero page's content (the zero pages counted together) */
	int single_byte;   /* every byte the same */
	unsigned byte_value;
	/* The first SCAN_TOP_WHERE_MAX dumps holding it, found by a second
	 * pass over the dumps that can be opened again (not standard input). */
	struct scan_top_where where[SCAN_TOP_WHERE_MAX];
	unsigned nwhere;
	uint32_t dumps_with_copies; /* all the dumps that hold it */
	uint32_t last_dump;         /* the last of them seen (during the pass) */
	int located;                /* the second pass covered every dump */
};

/* Whether a page of dump d is left out of everything: --mergeable
 * (mergeable_only) and d's words say it lies outside mappings KSM may
 * merge. The census pass and --top's second pass both ask. */
static inline int scan_left_out(int mergeable_only, const struct scan_dump *d, uint64_t info)
{
	return mergeable_only && d->mergeable_known && !(info & KB_PAGE_MERGEABLE);
}

/* The second pass of --top (scan_top.c): fills where, nwhere,
 * dumps_with_copies and located of the ntop contents, whose bytes are at
 * pages (ntop * page_size); dumps[] are the first pass's (which pages it
 * left out, which it took as volatile). */
int scan_top_locate(const struct scan_options *o, const struct scan_dump *dumps, struct scan_top *top, size_t ntop,
		    const unsigned char *pages, struct kb_err *err);

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
