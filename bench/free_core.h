/* What a free core runs the throughput probe at (bench/clock_chain.h), in
 * additions per core cycle, on the CPU kinds where it was measured: the
 * floor under a run's throughput reference (bench/disturb.h), so that a
 * run whose core was shared for its whole length is still seen to be. */
#ifndef KB_FREE_CORE_H
#define KB_FREE_CORE_H

#include "../common/err.h"

struct free_core {
	double adds_per_cycle; /* 0: not known for this CPU, no floor */
	const char *source;    /* the table line's CPU kind, or the variable's name */
};

/* The figure for the CPU this runs on (never a simulated one: the probe
 * runs on the real core), from KSMBENCH_FREE_CORE when set (0 turns the
 * floor off), else from the table. */
struct free_core free_core_figure(void);

struct cpu_identity;

/* The table's figure for a CPU kind ({0, NULL} where it has none). */
struct free_core free_core_of(const struct cpu_identity *id);

/* Parses KSMBENCH_FREE_CORE's value: additions per cycle, 0 to 1000. */
int free_core_parse(const char *text, double *adds_per_cycle, struct kb_err *err);

#endif
