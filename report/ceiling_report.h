/* What `ksmbench ceiling` reports (a REPORT_CEILING document carries it;
 * ceiling_report.c describes its fields and tables): the measured limits
 * and each implementation's ceiling at one page size. */
#ifndef KB_CEILING_REPORT_H
#define KB_CEILING_REPORT_H

#include <stddef.h>

#include "../bench/ceiling.h"
#include "../bench/cpu_describe.h"

struct ceiling_report {
	const struct ceiling_figures *figures;
	const struct cpu_description *cpu;
	int pinned_cpu;        /* the CPU measured on, and how it was chosen (bench/pin.h) */
	const char *pin_rule;
	size_t page_size;
	const struct hash_impl *const *hashes; /* the implementations to bound */
	unsigned nhashes;
};

#endif
