/* The 32-bit checksums' collisions among the census's distinct contents
 * (census_collisions, census.h), and what an ideal hash would give
 * (census_expected_pairs, census_expected_contents). */
#include "census_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double census_expected_pairs(uint64_t n, unsigned bits)
{
	return n < 2 ? 0 : (double)n * (double)(n - 1) / 2.0 / ldexp(1.0, (int)bits);
}

double census_expected_contents(uint64_t n, unsigned bits)
{
	/* 1 - (1 - 2^-bits)^(n-1), without losing the small term. */
	return n < 2 ? 0 : (double)n * -expm1((double)(n - 1) * log1p(-ldexp(1.0, -(int)bits)));
}

/* LSD radix sort of 32-bit values, 8 bits a pass. */
static void radix_sort_u32(uint32_t *v, uint32_t *tmp, size_t n)
{
	for (unsigned shift = 0; shift < 32; shift += 8) {
		size_t count[257] = { 0 };
		for (size_t i = 0; i < n; i++)
			count[(v[i] >> shift & 0xff) + 1]++;
		for (unsigned b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			tmp[count[v[i] >> shift & 0xff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
}

int census_collisions(const struct census *c, unsigned k, struct census_collisions *out, struct kb_err *err)
{
	uint64_t n = c->counts.distinct + (c->counts.zero_pages > 0);
	uint32_t *v, *tmp;

	memset(out, 0, sizeof(*out));
	if (k >= c->cfg.nsums)
		return kb_fail(err, "no checksum %u in the census", k);
	unsigned char *zero = calloc(1, c->cfg.page_size);
	if (!zero)
		return kb_fail(err, "out of memory");
	out->zero_checksum = (uint32_t)c->cfg.sum_fns[k](zero, c->cfg.page_size);
	free(zero);
	v = malloc((n ? n : 1) * sizeof(*v));
	tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!v || !tmp) {
		free(v);
		free(tmp);
		return kb_fail(err, "out of memory for %llu checksums", (unsigned long long)n);
	}
	size_t m = 0;
	for (uint64_t i = 0; i < c->nslots; i++) {
		if (c->slots[i].count == 0)
			continue;
		uint32_t s = k == 0 ? c->slots[i].sum0 : c->sums[k][i];
		out->zero_checksum_matches += s == out->zero_checksum;
		v[m++] = s;
	}
	if (c->counts.zero_pages)
		v[m++] = out->zero_checksum;
	radix_sort_u32(v, tmp, m);
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && v[j] == v[i])
			j++;
		uint64_t run = j - i;
		if (run > 1) {
			out->colliding_pairs += run * (run - 1) / 2;
			out->colliding_contents += run;
		}
		i = j;
	}
	free(v);
	free(tmp);
	out->contents = m;
	out->expected_pairs = census_expected_pairs(m, 32);
	out->expected_contents = census_expected_contents(m, 32);
	return 0;
}
