/* Known-answer tests and cross-checks of every registered hash. */
#ifndef KB_SELFTEST_H
#define KB_SELFTEST_H

#include "hash.h"

struct selftest_opts {
	unsigned max_len;     /* cross-check lengths 0..max_len (default 4200) */
	unsigned max_offset;  /* start offsets 0..max_offset (default 63) */
	uint64_t seed;        /* random buffer contents */
	/* The hashes verified in the same run with these options (NULL: none).
	 * A peer among them is not hashed again at every check: its own run
	 * compares it with the same reference on the same buffers, and h equal
	 * to the reference everywhere with the peer equal to it everywhere says
	 * all that h equal to the peer would (a crc32c family's 13 lines each
	 * hashed crc32c-generic's 537728 buffers again, 5 of verify's 12 s). */
	const struct hash_impl *const *beside;
	unsigned nbeside;
};

struct selftest_result {
	unsigned kats;        /* known answers checked */
	unsigned long checks; /* cross-check comparisons made */
	int failed;           /* 1 on any mismatch */
	char detail[256];     /* the first mismatch, or what was cross-checked against */
};

void selftest_default_opts(struct selftest_opts *o);

/* Runs h's family's known answers, then compares h against the family's
 * reference on random buffers of every length and start offset. The hash
 * must be available on this CPU. Returns 0, or -1 with err on a setup failure
 * (a mismatch is a result, not an error). */
int selftest_run(const struct hash_impl *h, const struct selftest_opts *o, struct selftest_result *res,
		 struct kb_err *err);

#endif
