/* Growing an array by doubling (grow.h). */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

void *kb_grow(void *p, size_t *cap, size_t need, size_t elem, size_t first)
{
	if (need == 0)
		need = 1; /* so that success is never NULL */
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap : first ? first : 1;
	while (ncap < need || ncap == *cap) {
		if (ncap > SIZE_MAX / 2)
			return NULL;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return NULL;
	void *bigger = realloc(p, ncap * elem);
	if (bigger)
		*cap = ncap;
	return bigger;
}
