/* The `crc32c`, `xxh3` and `xxh128` aliases (see alias.h): the table line
 * for this CPU where there is one, else the fastest candidate by a short
 * measurement at first use (1.5 ms or less: 15 rounds of 32 calls on
 * one page-aligned 4 KiB page per candidate, the candidates in turns),
 * cached until the CPU identity or feature mask changes. */
#include <stdio.h>
#include <string.h>

#include "../common/monotonic.h"
#include "alias.h"
#include "cpu_features.h"
#include "cpu_identity.h"
#include "impls.h"

#define ALIAS_MEASURE_ROUNDS 15
#define ALIAS_MEASURE_CALLS 32

/* Choices kept per family: one for each CPU identity and feature mask seen
 * (the tests pose as other CPUs and take features away, then come back), so
 * that a measured choice is made once per process and key, not again with
 * another outcome when candidates are within noise of each other. */
#define ALIAS_KEYS_KEPT 8

struct alias_family {
	const struct hash_impl *alias;
	const struct hash_impl *const *candidates; /* NULL-terminated, the fallback last */
	const char *(*rule_choice)(const struct alias_rule *r);
	struct alias_choice choice[ALIAS_KEYS_KEPT];
	unsigned key[ALIAS_KEYS_KEPT]; /* cpu_identity_key() each choice was made under */
	unsigned decided; /* choices made: the slots in use, and (mod KEPT) the next to take */
};

static const struct hash_impl *const crc32c_candidates[] = {
	&hash_crc32c_fused, &hash_crc32c_fused_intel, &hash_crc32c_fused6, &hash_crc32c_fused_avx2,
	&hash_crc32c_vpclmul, &hash_crc32c_vpclmul_avx2, &hash_crc32c_3way_fit, &hash_crc32c_3way, &hash_crc32c_armv8, &hash_crc32c_sse42, &hash_crc32c_generic, NULL,
};
static const struct hash_impl *const xxh3_candidates[] = {
	&hash_xxh3_avx512, &hash_xxh3_avx2, &hash_xxh3_neon, &hash_xxh3_sse2, &hash_xxh3_lib, NULL,
};
static const struct hash_impl *const xxh128_candidates[] = {
	&hash_xxh128_avx512, &hash_xxh128_avx2, &hash_xxh128_neon, &hash_xxh128_sse2, &hash_xxh128_lib, NULL,
};

static const char *rule_crc32c(const struct alias_rule *r) { return r->crc32c; }
static const char *rule_xxh3(const struct alias_rule *r) { return r->xxh3; }
static const char *rule_xxh128(const struct alias_rule *r) { return r->xxh128; }

static struct alias_family families[] = {
	{ &hash_crc32c, crc32c_candidates, rule_crc32c, { { 0 } }, { 0 }, 0 },
	{ &hash_xxh3, xxh3_candidates, rule_xxh3, { { 0 } }, { 0 }, 0 },
	{ &hash_xxh128, xxh128_candidates, rule_xxh128, { { 0 } }, { 0 }, 0 },
};

static double now_s(void)
{
	return (double)clock_now_ns() * 1e-9;
}

/* Seconds for ALIAS_MEASURE_CALLS calls of h on page; every result consumed. */
static double time_calls(const struct hash_impl *h, const unsigned char *page)
{
	volatile uint64_t sink = 0;
	double t0 = now_s();

	/* Page-aligned, as KSM's pages are: at an odd address every 64-byte
	 * load splits a cache line, which cost the AVX-512 code a third on Zen
	 * 4 and can reorder the candidates. */
	for (int i = 0; i < ALIAS_MEASURE_CALLS; i++)
		sink += h->fn(page, ALIAS_MEASURE_BYTES);
	double t = now_s() - t0;
	(void)sink;
	cpu_vector_state_clean(); /* the next candidate must not pay for this one */
	return t;
}

/* Each candidate's best of ALIAS_MEASURE_ROUNDS rounds, taken in turns
 * (round r of every candidate before round r+1): a burst of interference,
 * an SMT sibling's say, then falls on all of them instead of on one. */
static void measure(struct alias_family *f, struct alias_choice *c)
{
	static unsigned char page[ALIAS_MEASURE_BYTES] __attribute__((aligned(4096)));
	uint64_t s = 0x6b736d62u;
	double best_s[ALIAS_CANDIDATES_MAX] = { 0 }, best = -1;
	volatile uint64_t warm = 0;

	for (size_t i = 0; i < sizeof(page); i++) /* content does not matter, only that it is not all zero */
		page[i] = (unsigned char)((s = s * 6364136223846793005ull + 1442695040888963407ull) >> 56);
	c->how = ALIAS_BY_MEASUREMENT;
	for (unsigned i = 0; f->candidates[i] && c->ncandidates < ALIAS_CANDIDATES_MAX; i++)
		if (hash_available(f->candidates[i])) {
			c->candidates[c->ncandidates++] = f->candidates[i];
			warm += f->candidates[i]->fn(page, ALIAS_MEASURE_BYTES); /* caches and branch predictors */
		}
	cpu_vector_state_clean();
	for (int r = 0; r < ALIAS_MEASURE_ROUNDS; r++)
		for (unsigned i = 0; i < c->ncandidates; i++) {
			double t = time_calls(c->candidates[i], page);
			if (t > 0 && (best_s[i] == 0 || t < best_s[i]))
				best_s[i] = t;
		}
	for (unsigned i = 0; i < c->ncandidates; i++) {
		double rate = best_s[i] > 0 ? ALIAS_MEASURE_CALLS * (double)ALIAS_MEASURE_BYTES / best_s[i] : 0;
		c->bytes_per_s[i] = rate;
		if (rate > best) { /* ties keep the earlier (preferred) candidate */
			best = rate;
			c->target = c->candidates[i];
		}
	}
	(void)warm;
}

static void decide(struct alias_family *f, struct alias_choice *c)
{
	const struct alias_rule *rule = alias_rule_match();
	const char *name = rule ? f->rule_choice(rule) : NULL;
	const struct hash_impl *named = name ? hash_find(name) : NULL;
	unsigned available = 0;

	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; f->candidates[i]; i++)
		if (hash_available(f->candidates[i])) {
			available++;
			c->target = c->target ? c->target : f->candidates[i];
		}
	if (named && hash_available(named)) {
		c->target = named;
		c->how = ALIAS_BY_TABLE;
		c->rule = rule;
	} else if (available > 1) {
		measure(f, c);
	} else {
		/* Nothing to decide; the last candidate (portable) is always built. */
		c->how = ALIAS_ONLY_CANDIDATE;
		if (!c->target) {
			unsigned n = 0;
			while (f->candidates[n + 1])
				n++;
			c->target = f->candidates[n];
		}
	}
}

static struct alias_family *family_of(const struct hash_impl *alias)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].alias == alias)
			return &families[i];
	return NULL;
}

const struct hash_impl *alias_at(unsigned i)
{
	return i < sizeof(families) / sizeof(families[0]) ? families[i].alias : NULL;
}

/* f's choice under key, or NULL when none was made. */
static struct alias_choice *made(struct alias_family *f, unsigned key)
{
	for (unsigned i = 0; i < f->decided && i < ALIAS_KEYS_KEPT; i++)
		if (f->key[i] == key)
			return &f->choice[i];
	return NULL;
}

/* A slot for a new choice under key (the oldest goes first). */
static struct alias_choice *new_slot(struct alias_family *f, unsigned key)
{
	unsigned slot = f->decided++ % ALIAS_KEYS_KEPT;

	f->key[slot] = key;
	return &f->choice[slot];
}

const struct alias_choice *alias_choice(const struct hash_impl *alias)
{
	struct alias_family *f = family_of(alias);
	unsigned key = cpu_identity_key();

	if (!f)
		return NULL;
	struct alias_choice *c = made(f, key);
	if (!c)
		decide(f, c = new_slot(f, key));
	return c;
}

const struct alias_choice *alias_choice_made(const struct hash_impl *alias)
{
	struct alias_family *f = family_of(alias);

	return f ? made(f, cpu_identity_key()) : NULL;
}

int alias_adopt(const char *alias, const char *impl, struct kb_err *err)
{
	const struct hash_impl *a = hash_find(alias), *h = hash_find(impl);
	struct alias_family *f = a ? family_of(a) : NULL;
	unsigned key = cpu_identity_key(), i = 0;

	if (!f)
		return kb_fail(err, "'%s' is not an alias", alias);
	while (f->candidates[i] && f->candidates[i] != h)
		i++;
	if (!h || !f->candidates[i])
		return kb_fail(err, "'%s' is not a choice of %s", impl, alias);
	if (!hash_available(h))
		return kb_fail(err, "%s does not run here", impl);
	struct alias_choice *c = made(f, key);
	if (!c)
		c = new_slot(f, key);
	memset(c, 0, sizeof(*c));
	c->target = h;
	c->how = ALIAS_BY_PARENT;
	return 0;
}

const char *alias_choice_describe(const struct alias_choice *c, char *buf, size_t size)
{
	double chosen = 0, next = 0;
	const char *next_name = NULL;

	if (c->how == ALIAS_BY_TABLE) {
		snprintf(buf, size, "table: %s (%s)", c->rule->cpu, c->rule->evidence);
		return buf;
	}
	if (c->how == ALIAS_ONLY_CANDIDATE) {
		snprintf(buf, size, "the only candidate this CPU runs");
		return buf;
	}
	if (c->how == ALIAS_BY_PARENT) {
		snprintf(buf, size, "as the ksmbench that started this process chose");
		return buf;
	}
	for (unsigned i = 0; i < c->ncandidates; i++) {
		if (c->candidates[i] == c->target)
			chosen = c->bytes_per_s[i];
		else if (c->bytes_per_s[i] > next) {
			next = c->bytes_per_s[i];
			next_name = c->candidates[i]->name;
		}
	}
	snprintf(buf, size, "measured at start-up: %.1f GB/s, next %s %.1f (%u B, best of %u x %u calls)",
		 chosen / 1e9, next_name ? next_name : "-", next / 1e9, ALIAS_MEASURE_BYTES, ALIAS_MEASURE_ROUNDS,
		 ALIAS_MEASURE_CALLS);
	return buf;
}

static const struct hash_impl *crc32c_chosen(void) { return alias_choice(&hash_crc32c)->target; }
static const struct hash_impl *xxh3_chosen(void) { return alias_choice(&hash_xxh3)->target; }
static const struct hash_impl *xxh128_chosen(void) { return alias_choice(&hash_xxh128)->target; }

const struct hash_impl hash_crc32c = {
	.name = "crc32c",
	.description = "the fastest CRC-32C here: by the CPU table (docs/hashes.md), else measured at start-up",
	.alias_of = crc32c_chosen,
};

const struct hash_impl hash_xxh3 = {
	.name = "xxh3",
	.description = "XXH3_64bits, seed 0: the fastest build here, by the CPU table, else measured at start-up",
	.alias_of = xxh3_chosen,
};

const struct hash_impl hash_xxh128 = {
	.name = "xxh128",
	.description = "XXH3_128bits, seed 0: the fastest build here, by the CPU table, else measured at start-up",
	.alias_of = xxh128_chosen,
};
