/* One measurement per implementation: names of a hash list that resolve to
 * the same implementation (an alias and its target, "xxhash" and "xxh64")
 * are measured once, shown by the implementation's own name when the list
 * has it (else the first name given), the others as its aliases. */
#ifndef KB_NAMES_H
#define KB_NAMES_H

#include "run.h"

#define BENCH_NAMES_MAX 128u /* names looked at; the rest are dropped */

/* Groups hashes[0..n) in place (the measured entry of each group stays,
 * in the order of its first name) and fills names[] for them; returns the
 * groups' count. For all (-H all): every alias in the registry that names
 * an implementation measured is listed with it. */
unsigned bench_names_group(const struct hash_impl **hashes, unsigned n, struct bench_names *names, int all);

#endif
