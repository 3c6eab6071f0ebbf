/* What a free core runs the throughput probe at (bench/clock_chain.h), in
 * additions per core cycle, on the CPU kinds where it was measured: the
 * floor under a run's throughput reference (bench/disturb.h), so that a
 * run whose core was shared for its whole length is still seen to be.
 * And which implementations a sibling sharing the core was seen to leave
 * at their speed on that kind: the probe's drop says nothing of them. */
#ifndef KB_FREE_CORE_H
#define KB_FREE_CORE_H

#include "../common/err.h"

struct free_core {
	double adds_per_cycle; /* 0: not known for this CPU, no floor */
	const char *source;    /* the table line's CPU kind, or the variable's name */
	/* Implementations bound by the latency of their own chains, whose
	 * rates a sibling that took the probe's width left unmoved on this
	 * kind (NULL-terminated; NULL: none known, every one judged). */
	const char *const *unmoved;
};

/* The figure for the CPU this runs on (never a simulated one: the probe
 * runs on the real core), from KSMBENCH_FREE_CORE when set (0 turns the
 * floor off; the implementations unmoved are those it names, none
 * unless it names them), else from the table. */
struct free_core free_core_figure(void);

struct cpu_identity;

/* The table's figure for a CPU kind ({0, NULL} where it has none). */
struct free_core free_core_of(const struct cpu_identity *id);

/* Whether f names impl (an implementation's name) among those a sibling
 * leaves unmoved. */
int free_core_leaves_unmoved(const struct free_core *f, const char *impl);

#define FREE_CORE_UNMOVED_MAX 16

/* Parses KSMBENCH_FREE_CORE's value into f: additions per cycle, 0 to
 * 1000, then optionally ':' and the hashes a sibling leaves at their speed
 * (comma-separated, up to FREE_CORE_UNMOVED_MAX; an alias stands for the
 * implementation it picks here). */
int free_core_parse(const char *text, struct free_core *f, struct kb_err *err);

#endif
