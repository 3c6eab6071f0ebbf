/* The cold cost of KSM's checksum, as `scan` measures it: one hash call
 * per page over random pages laid out in a cold set (the bench engine's
 * rdtsc timer, each call apart where ksmd's would be), for `ksm --watch`
 * and `ksm --profile`. */
#ifndef KB_KSM_COST_H
#define KB_KSM_COST_H

#include <stdint.h>

#include "../common/err.h"
#include "../hashes/hash.h"

/* The median ns per call of h over cold pages of page_size bytes. */
int ksm_cost_cold_ns(const struct hash_impl *h, uint32_t page_size, double *ns, struct kb_err *err);

#endif
