/* What `ksmbench scan` is given and what it records of each dump and of
 * each top content: shared by the pass over the dumps (scan.c) and --top's
 * second pass (scan_top.c), so that neither includes the other. */
#ifndef KB_SCAN_TYPES_H
#define KB_SCAN_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "../bench/bench.h"
#include "../datasets/capture_note.h"
#include "../datasets/dump.h"
#include "census.h"

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

#endif
