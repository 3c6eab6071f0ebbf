/* The seeded order of a round (see schedule.h). */
#include "schedule.h"

#include "../common/prng.h"

void schedule_order(uint64_t seed, unsigned process, unsigned round, unsigned group, unsigned *order, unsigned n)
{
	uint64_t state = seed;

	/* Each coordinate stirred in by a draw, so that nearby seeds, processes
	 * and rounds give unrelated orders. */
	state = prng_next(&state) ^ ((uint64_t)process << 32 | round);
	state = prng_next(&state) ^ group;
	for (unsigned i = 0; i < n; i++)
		order[i] = i;
	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)prng_below(&state, i);
		unsigned t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}
