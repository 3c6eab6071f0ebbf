/* The free-core table (see free_core.h). Every line cites the measurement
 * in docs/measurement.md ("A run shared throughout"); add one only with
 * such a measurement: a figure too high marks a quiet run's rounds. */
#include "free_core.h"

#include <stdlib.h>
#include <string.h>

#include "../common/decimal_parse.h"
#include "../common/quote.h"
#include "../hashes/cpu_identity.h"
#include "../hashes/hash.h"

struct free_core_row {
	const char *vendor;
	unsigned family, model_lo, model_hi;
	double adds_per_cycle;
	const char *kind;
	const char *const *unmoved;
};

/* The probe differs between architectures, so do its figures: only the
 * x86-64 block (twelve SSE2 chains beside ten scalar ones) has rows. */
#if defined(__x86_64__)
/* Zen 5 (the VM of docs/measurement.md, "Hashes a sibling leaves alone"):
 * in the phases when the host's sibling took 17-34% of the probe's
 * throughput, these ran at the speed of the core's clock, while
 * crc32c-fused6 lost up to 35% and xxh3-avx512 up to 23%. Each runs one
 * chain (crc32q) or a few (multiply, rotate, add), each step waiting for
 * the one before, and leaves most of the core's width to a sibling. */
static const char *const zen5_unmoved[] = { "jhash2", "xxh64", "crc32c-sse42", NULL };
#endif

static const struct free_core_row rows[] = {
#if defined(__x86_64__)
	/* Zen 5 server (family 26 model 2, the VM of 2026-12-07): every
	 * result's upper decile of two quiet `bench -H all` runs read
	 * 18.59-18.71 additions a cycle, rounds the host's sibling shared
	 * 8.6-13.9; 18.0 leaves 3% for the next host of the kind. */
	{ "AuthenticAMD", 0x1a, 0x00, 0x0f, 18.0, "AMD 26/0x00-0x0f (Zen 5, Turin)", zen5_unmoved },
#endif
	{ NULL, 0, 0, 0, 0, NULL, NULL },
};

/* The implementations KSMBENCH_FREE_CORE names after its ':', by their
 * registry names, which live for the process. */
static const char *env_unmoved[FREE_CORE_UNMOVED_MAX + 1];

int free_core_parse(const char *text, struct free_core *f, struct kb_err *err)
{
	char q[KB_QUOTE_SIZE], part[64];
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	unsigned n = 0;

	f->source = "KSMBENCH_FREE_CORE";
	f->unmoved = NULL;
	if (len >= sizeof(part) || (memcpy(part, text, len), part[len] = '\0', kb_parse_decimal(part, 0, 0, 1000, &f->adds_per_cycle)))
		return kb_fail(err, "KSMBENCH_FREE_CORE '%s': not a number of additions a cycle from 0 to 1000 "
				    "(then, after a ':', the implementations a sibling leaves at their speed)",
			       kb_quote(text, q));
	for (const char *p = colon; p; n++) {
		const char *end = strchr(++p, ',');
		size_t whole = end ? (size_t)(end - p) : strlen(p);
		len = whole < sizeof(part) ? whole : sizeof(part) - 1;
		memcpy(part, p, len);
		part[len] = '\0';
		const struct hash_impl *h = whole == len ? hash_find(part) : NULL;
		char qn[KB_QUOTE_SIZE];
		if (!h)
			return kb_fail(err, "KSMBENCH_FREE_CORE '%s': '%s' is not a hash ksmbench knows (ksmbench list)",
				       kb_quote(text, q), kb_quote(part, qn));
		if (n == FREE_CORE_UNMOVED_MAX)
			return kb_fail(err, "KSMBENCH_FREE_CORE '%s': more than %d implementations", kb_quote(text, q),
				       FREE_CORE_UNMOVED_MAX);
		env_unmoved[n] = hash_resolve(h)->name;
		p = end;
	}
	env_unmoved[n] = NULL;
	f->unmoved = n ? env_unmoved : NULL;
	return 0;
}

struct free_core free_core_of(const struct cpu_identity *id)
{
	struct free_core f = { 0, NULL, NULL };

	for (const struct free_core_row *r = rows; r->vendor; r++)
		if (strcmp(r->vendor, id->vendor) == 0 && r->family == id->family && id->model >= r->model_lo &&
		    id->model <= r->model_hi) {
			f.adds_per_cycle = r->adds_per_cycle;
			f.source = r->kind;
			f.unmoved = r->unmoved;
			break;
		}
	return f;
}

int free_core_leaves_unmoved(const struct free_core *f, const char *impl)
{
	for (const char *const *u = f->unmoved; u && *u && impl; u++)
		if (strcmp(*u, impl) == 0)
			return 1;
	return 0;
}

struct free_core free_core_figure(void)
{
	struct free_core f = { 0, NULL, NULL };
	const char *set = getenv("KSMBENCH_FREE_CORE");
	struct kb_err err;

	if (!set || !*set)
		return free_core_of(cpu_identity_detected());
	/* cmd/main.c refused a value that does not parse. */
	if (free_core_parse(set, &f, &err))
		return (struct free_core){ 0, NULL, NULL };
	if (f.adds_per_cycle <= 0)
		f.source = NULL;
	return f;
}
