/* Values cut for error messages (see quote.h). */
#include "quote.h"

#include <string.h>

const char *kb_quote(const char *value, char buf[KB_QUOTE_SIZE])
{
	size_t len = value ? strnlen(value, KB_QUOTE_MAX + 1) : 0;

	if (len <= KB_QUOTE_MAX) {
		memcpy(buf, value ? value : "", len);
		buf[len] = '\0';
		return buf;
	}
	/* Back to the start of the character the cut falls in (a UTF-8
	 * sequence is at most 4 bytes): half of one would show as \xHH. */
	size_t keep = KB_QUOTE_MAX;
	for (int back = 0; back < 3 && keep > 0 && ((unsigned char)value[keep] & 0xc0) == 0x80; back++)
		keep--;
	memcpy(buf, value, keep);
	memcpy(buf + keep, "...", sizeof("..."));
	return buf;
}
