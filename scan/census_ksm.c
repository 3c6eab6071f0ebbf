/* What KSM would make of the census's counts (census_ksm_model, census.h):
 * KSM pages, their mappings, the pages left alone and the stable node
 * chains, content by content, under max_page_sharing and use_zero_pages. */
#include "census_state.h"

#include <string.h>

/* One content of count copies under max_page_sharing m. */
static void ksm_content(uint64_t count, unsigned m, struct census_ksm *out)
{
	uint64_t ksm_pages, mapped;

	if (count < 2) {
		out->pages_unshared += count;
		return;
	}
	if (m < 2) {
		ksm_pages = 1;
		mapped = count;
	} else {
		/* Full KSM pages of m mappings, then one for the rest if at least
		 * two are left: a single page has nothing to merge with. */
		uint64_t full = count / m, rest = count % m;
		ksm_pages = full + (rest >= 2);
		mapped = full * m + (rest >= 2 ? rest : 0);
	}
	out->pages_shared += ksm_pages;
	out->pages_sharing += mapped - ksm_pages;
	out->pages_unshared += count - mapped;
	/* Past max_page_sharing a stable node becomes a chain of dups. */
	if (ksm_pages > 1) {
		out->stable_node_chains++;
		out->stable_node_dups += ksm_pages;
	}
}

void census_ksm_model(const struct census *c, unsigned max_page_sharing, int use_zero_pages, uint64_t zero_pages,
		      struct census_ksm *out)
{
	memset(out, 0, sizeof(*out));
	for (uint64_t i = 0; i < c->nslots; i++)
		if (c->slots[i].count)
			ksm_content(c->slots[i].count, max_page_sharing, out);
	if (use_zero_pages)
		out->ksm_zero_pages = zero_pages;
	else
		ksm_content(zero_pages, max_page_sharing, out);
	out->pages_saved = out->pages_sharing + out->ksm_zero_pages;
}
