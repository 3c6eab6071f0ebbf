/* The free-core table (see free_core.h). Every line cites the measurement
 * in docs/measurement.md ("A run shared throughout"); add one only with
 * such a measurement: a figure too high marks a quiet run's rounds. */
#include "free_core.h"

#include <stdlib.h>
#include <string.h>

#include "../common/decimal_parse.h"
#include "../common/quote.h"
#include "../hashes/cpu_identity.h"

struct free_core_row {
	const char *vendor;
	unsigned family, model_lo, model_hi;
	double adds_per_cycle;
	const char *kind;
};

/* The probe differs between architectures, so do its figures: only the
 * x86-64 block (twelve SSE2 chains beside ten scalar ones) has rows. */
static const struct free_core_row rows[] = {
#if defined(__x86_64__)
	/* Zen 5 server (family 26 model 2, the VM of 2026-12-07): every
	 * result's upper decile of two quiet `bench -H all` runs read
	 * 18.59-18.71 additions a cycle, rounds the host's sibling shared
	 * 8.6-13.9; 18.0 leaves 3% for the next host of the kind. With the
	 * block's loop where the compiler put it, some builds read 14.2 on a
	 * free core; it is placed by hand now (clock_chain.c). */
	{ "AuthenticAMD", 0x1a, 0x00, 0x0f, 18.0, "AMD 26/0x00-0x0f (Zen 5, Turin)" },
#endif
	{ NULL, 0, 0, 0, 0, NULL },
};

int free_core_parse(const char *text, double *adds_per_cycle, struct kb_err *err)
{
	char q[KB_QUOTE_SIZE];

	if (kb_parse_decimal(text, 0, 0, 1000, adds_per_cycle))
		return kb_fail(err, "KSMBENCH_FREE_CORE '%s': not a number of additions a cycle from 0 to 1000",
			       kb_quote(text, q));
	return 0;
}

struct free_core free_core_of(const struct cpu_identity *id)
{
	struct free_core f = { 0, NULL };

	for (const struct free_core_row *r = rows; r->vendor; r++)
		if (strcmp(r->vendor, id->vendor) == 0 && r->family == id->family && id->model >= r->model_lo &&
		    id->model <= r->model_hi) {
			f.adds_per_cycle = r->adds_per_cycle;
			f.source = r->kind;
			break;
		}
	return f;
}

struct free_core free_core_figure(void)
{
	struct free_core f = { 0, NULL };
	const char *set = getenv("KSMBENCH_FREE_CORE");
	struct kb_err err;

	if (!set || !*set)
		return free_core_of(cpu_identity_detected());
	/* cmd/main.c refused a value that does not parse. */
	if (free_core_parse(set, &f.adds_per_cycle, &err) == 0 && f.adds_per_cycle > 0)
		f.source = "KSMBENCH_FREE_CORE";
	else
		f.adds_per_cycle = 0;
	return f;
}
