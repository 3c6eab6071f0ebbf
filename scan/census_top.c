/* The n contents of the census with the most copies (census_top,
 * census.h): a min-heap of the best n over the table, then sorted. */
#include "census_state.h"

/* A min-heap of the n best entries by count. */
static int entry_less(const struct census_entry *a, const struct census_entry *b)
{
	return a->count != b->count ? a->count < b->count : a->key > b->key;
}

static void sift_down(struct census_entry *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && entry_less(&h[l], &h[m]))
			m = l;
		if (r < n && entry_less(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		struct census_entry t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

size_t census_top(const struct census *c, struct census_entry *out, size_t n)
{
	size_t k = 0;

	if (n == 0)
		return 0;
	for (uint64_t i = 0; i < c->nslots; i++) {
		const struct census_entry *e = &c->slots[i];
		if (e->count == 0)
			continue;
		if (k < n) {
			out[k++] = *e;
			if (k == n)
				for (size_t j = n / 2; j-- > 0;)
					sift_down(out, n, j);
		} else if (entry_less(&out[0], e)) {
			out[0] = *e;
			sift_down(out, n, 0);
		}
	}
	if (k < n)
		for (size_t j = k / 2; j-- > 0;)
			sift_down(out, k, j);
	/* Heap order to descending: pop the smallest to the end. */
	for (size_t m = k; m > 1; m--) {
		struct census_entry t = out[0];
		out[0] = out[m - 1];
		out[m - 1] = t;
		sift_down(out, m - 1, 0);
	}
	return k;
}
