/* The batch log of a counting round (see batch_log.h). */
#include "batch_log.h"

#include <stdlib.h>

int batch_log_reserve(struct batch_log *l, size_t entries)
{
	l->n = 0;
	l->cap = entries < BATCH_LOG_MAX ? entries : BATCH_LOG_MAX;
	l->ns = malloc(l->cap * sizeof(*l->ns));
	if (!l->ns)
		l->cap = 0;
	return l->ns ? 0 : -1;
}

int batch_log_open(struct batch_log *l, double round_ns, double batch_ns)
{
	double want = batch_ns > 0 ? 2 * round_ns / batch_ns + 256 : BATCH_LOG_MAX;

	return batch_log_reserve(l, want < BATCH_LOG_MAX ? (size_t)want : BATCH_LOG_MAX);
}

void batch_log_close(struct batch_log *l)
{
	free(l->ns);
	l->ns = NULL;
	l->cap = l->n = 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

double batch_log_uninterrupted_ns(struct batch_log *l, uint64_t unlogged, double unlogged_ns)
{
	if (l->n == 0)
		return 0;
	qsort(l->ns, l->n, sizeof(*l->ns), cmp_u32);
	double median = l->n % 2 ? l->ns[l->n / 2] : ((double)l->ns[l->n / 2 - 1] + l->ns[l->n / 2]) / 2;
	double limit = BATCH_INTERRUPTED_FACTOR * median, sum = 0;
	size_t kept = 0;

	/* Sorted: the batches kept are a prefix, the median's half among them. */
	while (kept < l->n && l->ns[kept] <= limit)
		sum += l->ns[kept++];
	return (sum + unlogged_ns) / ((double)kept + (double)unlogged);
}
