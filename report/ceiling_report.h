/* Rendering of `ksmbench ceiling`: the measured limits and each available
 * implementation's ceiling, as a text table or JSON. */
#ifndef KB_CEILING_REPORT_H
#define KB_CEILING_REPORT_H

#include <stdio.h>

#include "../bench/ceiling.h"
#include "../bench/context.h"

struct ceiling_report {
	const struct ceiling_figures *figures;
	const struct cpu_description *cpu;
	size_t page_size;
	const struct hash_impl *const *hashes; /* the implementations to bound */
	unsigned nhashes;
};

int ceiling_report_table(const struct ceiling_report *r, FILE *out);
int ceiling_report_json(const struct ceiling_report *r, FILE *out);

#endif
