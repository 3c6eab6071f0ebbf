/* Parsing of durations (see duration_parse.h). */
#include "duration_parse.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "quote.h"

/* ns in the largest unit that holds it whole, as the user would write it. */
static void duration_text(uint64_t ns, char *buf, size_t size)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = { { "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 }, { "ns", 1 } };
	unsigned i = 0;

	while (ns && ns % units[i].ns)
		i++;
	snprintf(buf, size, "%llu %s", (unsigned long long)(ns / units[i].ns), units[i].suffix);
}

int kb_parse_duration_ns(const char *text, uint64_t min_ns, uint64_t max_ns, uint64_t *out, struct kb_err *err)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "", 1000000 }, { "s", 1000000000 } };
	char q[KB_QUOTE_SIZE];
	uint64_t v = 0;
	const char *p = text;

	if (!text || !isdigit((unsigned char)*p))
		return kb_fail(err, "'%s' is not a duration (examples: 125ms, 2s, 500us)", kb_quote(text, q));
	for (; isdigit((unsigned char)*p); p++) {
		if (v > UINT64_MAX / 10 - 9)
			return kb_fail(err, "duration '%s' is too long", kb_quote(text, q));
		v = v * 10 + (uint64_t)(*p - '0');
	}
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(p, units[i].suffix) != 0)
			continue;
		if (v > UINT64_MAX / units[i].ns || v * units[i].ns > max_ns || v * units[i].ns < min_ns) {
			char lo[32], hi[32];
			/* "--watch 1" read as 1 ms surprises whoever meant a second */
			const char *bare = *p ? "" : " (a bare number is in ms)";
			duration_text(min_ns, lo, sizeof(lo));
			duration_text(max_ns, hi, sizeof(hi));
			if (!min_ns)
				return kb_fail(err, "duration '%s'%s must be at most %s", kb_quote(text, q), bare, hi);
			return kb_fail(err, "duration '%s'%s must be from %s to %s", kb_quote(text, q), bare, lo, hi);
		}
		*out = v * units[i].ns;
		return 0;
	}
	return kb_fail(err, "'%s' is not a duration (examples: 125ms, 2s, 500us)", kb_quote(text, q));
}
