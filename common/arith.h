/* Small integer arithmetic shared across modules. */
#ifndef KB_ARITH_H
#define KB_ARITH_H

#include <stdint.h>

/* a / b rounded up (b > 0), without the overflow of (a + b - 1) / b. */
static inline uint64_t kb_div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

#endif
