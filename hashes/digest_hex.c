/* Digests as lowercase hex (see hash.h). By hand rather than with printf:
 * verify formats two digests for each of its 8.8 million checks, and
 * snprintf was 40% of its time. */
#include "hash.h"

static const char digits[] = "0123456789abcdef";

void hash_hex_of(uint64_t v, unsigned bits, char hex[HASH_HEX_MAX])
{
	unsigned n = bits / 4;

	for (unsigned i = 0; i < n; i++)
		hex[i] = digits[(v >> (4 * (n - 1 - i))) & 15];
	hex[n] = '\0';
}

void hash_hex_of_bytes(const uint8_t *d, unsigned n, char hex[HASH_HEX_MAX])
{
	for (unsigned i = 0; i < n; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[2 * n] = '\0';
}
