/* What interruptions cost a counting round (window and jiffies timers): the
 * time of each batch of calls between two clock reads, logged as the round
 * runs, and the round's time without the batches an interrupt or a host
 * exit fell in. The ceiling's probes run 0.4 ms each and keep their best, so
 * they meet no interrupt; a 50 ms window always does (docs/measurement.md),
 * and its share of % ceiling is left out this way. */
#ifndef KB_BATCH_LOG_H
#define KB_BATCH_LOG_H

#include <stddef.h>
#include <stdint.h>

/* A batch whose time is over this times the median batch's was
 * interrupted (the ksmd timer judges its batches by the same rule). */
#define BATCH_INTERRUPTED_FACTOR 1.5

/* Batches a log holds at most; a round's later ones go unlogged. */
#define BATCH_LOG_MAX (1u << 18)

struct batch_log {
	uint32_t *ns; /* each batch's time, clamped to UINT32_MAX */
	size_t cap, n;
};

/* A log for a round of about round_ns in batches of about batch_ns: twice
 * as many entries and some, at most BATCH_LOG_MAX. -1: out of memory. */
int batch_log_open(struct batch_log *l, double round_ns, double batch_ns);
/* A log of the first entries batches at most (BATCH_LOG_MAX at most). */
int batch_log_reserve(struct batch_log *l, size_t entries);
void batch_log_close(struct batch_log *l);

static inline void batch_log_add(struct batch_log *l, uint64_t ns)
{
	if (l->n < l->cap)
		l->ns[l->n++] = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

/* The mean time of the logged batches not over BATCH_INTERRUPTED_FACTOR
 * times the median one (sorts the log); 0 when none was logged. unlogged
 * batches that took unlogged_ns in all (those of a round that outran its
 * log) count as they ran, not judged: the figure stays of the whole round. */
double batch_log_uninterrupted_ns(struct batch_log *l, uint64_t unlogged, double unlogged_ns);

#endif
