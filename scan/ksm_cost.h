/* The cold cost of KSM's checksum, as `scan` measures it: one hash call
 * per page over random pages laid out in a cold set (the bench engine's
 * rdtsc timer, each call apart where ksmd's would be), for `ksm --watch`
 * and `ksm --profile`. */
#ifndef KB_KSM_COST_H
#define KB_KSM_COST_H

#include <stdint.h>

#include "../common/err.h"
#include "../hashes/hash.h"

struct bench_config;

/* How the cost is timed, here and by scan: the rdtsc timer, 3 rounds of
 * 50 ms after a quarter of that warming up, each call apart where ksmd's
 * would be (their other work between them). */
void ksm_cost_config(struct bench_config *cfg);

/* The median ns per call of h over cold pages of page_size bytes. */
int ksm_cost_cold_ns(const struct hash_impl *h, uint32_t page_size, double *ns, struct kb_err *err);

#endif
