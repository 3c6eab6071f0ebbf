/* How the `crc32c`, `xxh3` and `xxh128` aliases choose their implementation:
 * a table keyed on what the CPU is, backed by measurements recorded in
 * docs/hashes.md (alias_rules.c); where no line matches, a short measurement
 * at first use, as the kernel's raid6 selection does, cached for the
 * process (alias_select.c). */
#ifndef KB_ALIAS_H
#define KB_ALIAS_H

#include <stdint.h>

#include "../common/err.h"
#include "hash.h"

/* One line of the table. A line matches when the vendor and family are
 * equal, the model lies in [model_lo, model_hi] and the features include
 * `needs` and exclude `lacks`; a NULL choice means "no evidence for this
 * alias on this CPU: measure". */
struct alias_rule {
	const char *vendor;
	unsigned family, model_lo, model_hi;
	uint32_t needs, lacks;
	const char *cpu;      /* what the line stands for, e.g. "AMD 25/0x00-0x0f (Zen 3)" */
	const char *crc32c, *xxh3, *xxh128;
	const char *evidence; /* where the measurement is recorded */
};

extern const struct alias_rule alias_rules[];
extern const unsigned alias_rules_count;

enum alias_how {
	ALIAS_BY_TABLE,       /* a table line names it */
	ALIAS_BY_MEASUREMENT, /* measured at first use */
	ALIAS_ONLY_CANDIDATE, /* one candidate runs here: nothing to decide */
	ALIAS_BY_PARENT,      /* named by the ksmbench that started this measuring process */
};

#define ALIAS_CANDIDATES_MAX 12

struct alias_choice {
	const struct hash_impl *target;
	enum alias_how how;
	const struct alias_rule *rule;  /* the matching line (ALIAS_BY_TABLE) */
	/* ALIAS_BY_MEASUREMENT: every candidate and its best rate. */
	unsigned ncandidates;
	const struct hash_impl *candidates[ALIAS_CANDIDATES_MAX];
	double bytes_per_s[ALIAS_CANDIDATES_MAX];
};

/* The first table line matching this CPU (cpu_identity(), cpu_features()), or NULL. */
const struct alias_rule *alias_rule_match(void);

/* How alias (hash_crc32c, hash_xxh3 or hash_xxh128) resolves on this CPU;
 * decided on first use and cached until the identity or feature mask
 * changes. NULL for a non-alias. */
const struct alias_choice *alias_choice(const struct hash_impl *alias);

/* The aliases that choose, one per i from 0 in a fixed order (crc32c
 * first); NULL past the last. */
const struct hash_impl *alias_at(unsigned i);

/* The choice alias has made under this CPU identity and feature mask, or
 * NULL when it has made none (nothing is measured). */
const struct alias_choice *alias_choice_made(const struct hash_impl *alias);

/* Takes impl as alias's choice under this CPU identity and feature mask, as
 * a measuring process takes its parent's (cmd/workers.c), so that every
 * process of a run measures the same code even where a measurement could
 * pick another. -1 with err when alias is not an alias, or impl is not one
 * of its candidates that runs here. */
int alias_adopt(const char *alias, const char *impl, struct kb_err *err);

/* "table: AMD 25/0x00-0x0f (Zen 3) (docs/hashes.md#...)", "measured at
 * start-up: ...", "the only candidate this CPU runs" */
const char *alias_choice_describe(const struct alias_choice *c, char *buf, size_t size);

/* The page size of the start-up measurement. */
#define ALIAS_MEASURE_BYTES 4096

#endif
