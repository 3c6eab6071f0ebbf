/* A result's stability in words: the codes its JSON lists, the reason
 * given for each, and the one warning line a table prints per unstable
 * result (bench/estimate.h decides; this only says it). */
#ifndef KB_STABILITY_TEXT_H
#define KB_STABILITY_TEXT_H

#include <stdio.h>

#include "../bench/bench.h"
#include "escape.h"

#define STABILITY_KINDS 5

/* The code of reason bit i (0..STABILITY_KINDS-1): "few-processes",
 * "spread", "disturbed", "timer", "run-disturbed". */
const char *report_stability_code(unsigned i);

/* The reasons r is unstable, "; "-separated, into buf ("" when stable). */
void report_stability_reasons(const struct bench_result *r, char *buf, size_t size);

/* r's shared-core rounds in which this machine's other CPUs were measured
 * and not busy: the core's other user was outside the machine (a VM's
 * host). 0 for a result without its rounds. */
unsigned report_shared_from_outside(const struct bench_result *r);

/* With width 0 a "PREFIXunstable: NAME DATA CACHE PAGE TIMER: reasons"
 * line per unstable result, after one line for the whole run when too many
 * of its rounds were disturbed (that reason left out of the others); else
 * one line (wrapped to width) naming the unstable results, "hash/timer"
 * ("xxh64/zero/4096/window" where the results' data, cache or page size
 * differ), and where the reasons are. */
int report_unstable_summary(FILE *out, const struct bench_result *r, size_t n, int by_impl, enum escape_target esc,
			    const char *prefix, unsigned width);

#endif
