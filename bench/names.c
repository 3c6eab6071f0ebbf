/* Grouping names by implementation (see names.h). */
#include "names.h"

#include <string.h>

static void add_alias(struct bench_names *g, const char *name)
{
	if (strcmp(g->hash, name) == 0)
		return;
	for (unsigned i = 0; i < g->naliases; i++)
		if (strcmp(g->aliases[i], name) == 0)
			return;
	if (g->naliases < BENCH_ALIASES_MAX)
		g->aliases[g->naliases++] = name;
}

unsigned bench_names_group(const struct hash_impl **hashes, unsigned n, struct bench_names *names, int all)
{
	const struct hash_impl *impl[BENCH_NAMES_MAX];
	unsigned groups = 0;

	for (unsigned i = 0; i < n && i < BENCH_NAMES_MAX; i++) {
		const struct hash_impl *h = hashes[i], *target = hash_resolve(h);
		unsigned g = 0;
		while (g < groups && impl[g] != target)
			g++;
		if (g == groups) {
			impl[groups] = target;
			hashes[groups] = h;
			names[groups] = (struct bench_names){ .hash = h->name };
			groups++;
		} else if (h == target) { /* the implementation itself: it names the group */
			const char *was = names[g].hash;
			hashes[g] = h;
			names[g].hash = h->name;
			for (unsigned a = 0; a < names[g].naliases; a++)
				if (strcmp(names[g].aliases[a], h->name) == 0)
					names[g].aliases[a] = names[g].aliases[--names[g].naliases];
			add_alias(&names[g], was);
		} else {
			add_alias(&names[g], h->name);
		}
	}
	for (unsigned k = 0; all && k < hash_registry_count; k++) {
		const struct hash_impl *h = hash_registry[k];
		for (unsigned g = 0; h->alias_of && hash_available(h) && g < groups; g++)
			if (impl[g] == hash_resolve(h))
				add_alias(&names[g], h->name);
	}
	return groups;
}
