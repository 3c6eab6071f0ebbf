/* The CPU's identity and caches, for reports and for sizing cold working
 * sets (cpu_describe.c). Dispatch does not use it: see hashes/cpu_features.h. */
#ifndef KB_CPU_DESCRIBE_H
#define KB_CPU_DESCRIBE_H

#include <stdint.h>

struct cpu_description {
	int known;                 /* the CPU was identified (libcpuid or /proc/cpuinfo) */
	char vendor[32], brand[80];
	int family, model, stepping, ext_family, ext_model;
	int l1d_kib, l2_kib, l3_kib; /* -1 when not reported */
	int logical_cpus;
};

/* Describes the CPU: libcpuid, else /proc/cpuinfo. */
void cpu_describe(struct cpu_description *out);

/* The last-level cache in bytes, 0 if unknown. */
uint64_t cpu_llc_bytes(const struct cpu_description *d);

#endif
