/* The census's state (see census.h), shared by the files that make it up:
 * census.c (the table: sizing, growth, adding pages), census_zero.c,
 * census_representatives.c (the representatives' cache and the spill file),
 * census_top.c, census_ksm.c and census_collisions.c (what the finished
 * table says). Nothing outside scan/census*.c includes it: elsewhere a
 * census is opaque. */
#ifndef KB_CENSUS_STATE_H
#define KB_CENSUS_STATE_H

#include <stdint.h>
#include <stdio.h>

#include "census.h"

struct census {
	struct census_config cfg;
	struct census_entry *slots;
	uint32_t *sums[CENSUS_SUMS_MAX]; /* checksums 1.. per slot (0 is in the entry) */
	uint64_t nslots;
	struct census_counts counts;
	/* representative cache: sets of CACHE_WAYS, least recently used out */
	uint64_t *cache_tags, *cache_used;
	unsigned char *cache_data;
	size_t cache_slots, cache_ways;
	uint64_t cache_clock;
	unsigned char *scratch; /* one page */
	FILE *spill;
	uint64_t spill_bytes;
};

/* The representative's bytes at locator: from the cache, else read again
 * (census_representatives.c). NULL after an error. */
const unsigned char *census_representative(struct census *c, uint64_t locator, struct kb_err *err);

/* A copy of a new content's page in the spill file, for a source that
 * cannot read it again; *locator says where (CENSUS_LOCATOR_SPILLED). */
int census_spill_write(struct census *c, const unsigned char *data, uint64_t *locator, struct kb_err *err);

#endif
