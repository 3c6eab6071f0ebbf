/* Growing an array by doubling: the one copy of the realloc-and-double step
 * that every list of unknown length (segments, ranges, rounds, table rows)
 * takes, with the size multiplication checked for overflow. */
#ifndef KB_GROW_H
#define KB_GROW_H

#include <stddef.h>

/* Returns an array that holds at least `need` elements of `elem` bytes: p
 * itself while *cap already does, else p reallocated to twice *cap (first
 * when *cap is 0) or more, with *cap updated (room for one at least, so
 * that success is never NULL). NULL when memory runs out or
 * the size would overflow; p and *cap are then unchanged and p still owns
 * its elements, so the caller frees it as before. */
void *kb_grow(void *p, size_t *cap, size_t need, size_t elem, size_t first);

#endif
