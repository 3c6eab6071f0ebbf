/* Parsing of sizes and counts given on the command line (see size_parse.h). */
#include "size_parse.h"

#include <ctype.h>
#include <string.h>

#include "quote.h"

int kb_parse_uint(const char *text, uint64_t max, uint64_t *out, struct kb_err *err)
{
	char q[KB_QUOTE_SIZE];
	uint64_t v = 0;
	const char *p = text;

	if (!text || !isdigit((unsigned char)*p))
		return kb_fail(err, "'%s' is not a number", kb_quote(text, q));
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return kb_fail(err, "'%s' is too large", kb_quote(text, q));
		v = v * 10 + d;
	}
	if (*p)
		return kb_fail(err, "'%s' is not a number", kb_quote(text, q));
	if (v > max)
		return kb_fail(err, "'%s' is too large (at most %llu)", kb_quote(text, q), (unsigned long long)max);
	*out = v;
	return 0;
}

int kb_parse_size(const char *text, uint64_t *out, struct kb_err *err)
{
	char q[KB_QUOTE_SIZE];
	uint64_t v = 0;
	const char *p = text;
	unsigned shift = 0;

	if (!text || !isdigit((unsigned char)*p))
		return kb_fail(err, "'%s' is not a size (examples: 4096, 4K, 64K, 2M)", kb_quote(text, q));
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return kb_fail(err, "size '%s' is too large", kb_quote(text, q));
		v = v * 10 + d;
	}
	switch (toupper((unsigned char)*p)) {
	case 'K': shift = 10; p++; break;
	case 'M': shift = 20; p++; break;
	case 'G': shift = 30; p++; break;
	default: break;
	}
	if (shift && (strcmp(p, "iB") == 0 || strcmp(p, "B") == 0))
		p += strlen(p);
	else if (!shift && strcmp(p, "B") == 0)
		p++;
	if (*p)
		return kb_fail(err, "'%s' is not a size (examples: 4096, 4K, 64K, 2M)", kb_quote(text, q));
	if (shift && v > (UINT64_MAX >> shift))
		return kb_fail(err, "size '%s' is too large", kb_quote(text, q));
	*out = v << shift;
	return 0;
}

int kb_parse_page_size(const char *text, uint32_t *out, struct kb_err *err)
{
	char q[KB_QUOTE_SIZE];
	uint64_t v;

	if (kb_parse_size(text, &v, err))
		return -1;
	if (v < KB_PAGE_SIZE_MIN || v > KB_PAGE_SIZE_MAX || v % 64)
		return kb_fail(err, "page size '%s' must be a multiple of 64 bytes from 64 to 16M", kb_quote(text, q));
	*out = (uint32_t)v;
	return 0;
}
