/* The order of a round: every measurement of a run takes its round r
 * before any takes round r + 1, in an order shuffled per round, so that
 * drift and bursts of interference hit every hash alike. The shuffle is
 * Fisher-Yates from splitmix64 seeded with (seed, process, round, group):
 * the same --seed gives the same order in every run. */
#ifndef KB_SCHEDULE_H
#define KB_SCHEDULE_H

#include <stdint.h>

/* order[0..n) = a permutation of 0..n-1 for that round. */
void schedule_order(uint64_t seed, unsigned process, unsigned round, unsigned group, unsigned *order, unsigned n);

#endif
