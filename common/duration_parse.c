/* Parsing of durations (see duration_parse.h). */
#include "duration_parse.h"

#include <ctype.h>
#include <string.h>

int kb_parse_duration_ns(const char *text, uint64_t min_ns, uint64_t max_ns, uint64_t *out, struct kb_err *err)
{
	static const struct {
		const char *suffix;
		uint64_t ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "", 1000000 }, { "s", 1000000000 } };
	uint64_t v = 0;
	const char *p = text;

	if (!text || !isdigit((unsigned char)*p))
		return kb_fail(err, "'%s' is not a duration (examples: 125ms, 2s, 500us)", text ? text : "");
	for (; isdigit((unsigned char)*p); p++) {
		if (v > UINT64_MAX / 10 - 9)
			return kb_fail(err, "duration '%s' is too long", text);
		v = v * 10 + (uint64_t)(*p - '0');
	}
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(p, units[i].suffix) != 0)
			continue;
		if (v > UINT64_MAX / units[i].ns || v * units[i].ns > max_ns || v * units[i].ns < min_ns)
			return kb_fail(err, "duration '%s' must be from %llu us to %llu s", text,
				       (unsigned long long)(min_ns / 1000), (unsigned long long)(max_ns / 1000000000u));
		*out = v * units[i].ns;
		return 0;
	}
	return kb_fail(err, "'%s' is not a duration (examples: 125ms, 2s, 500us)", text);
}
