/* What the CPU is (vendor, family, model) for the alias rules and the
 * kernel's own choice; tests simulate other CPUs with cpu_identity_simulate(). */
#ifndef KB_CPU_IDENTITY_H
#define KB_CPU_IDENTITY_H

#include "../common/err.h"

struct cpu_identity {
	char vendor[16];      /* CPUID vendor ("AuthenticAMD", "GenuineIntel"), "" off x86 */
	unsigned family;      /* display family (base + extended), 0 off x86 */
	unsigned model;       /* display model (extended model folded in) */
	int simulated;        /* set by cpu_identity_simulate() */
};

/* This CPU's identity, or the simulated one. */
const struct cpu_identity *cpu_identity(void);

/* This CPU's identity even while another is simulated: for what describes
 * the hardware that measures (bench/free_core.h), not the choices. */
const struct cpu_identity *cpu_identity_detected(void);

/* Pretends to be another CPU: "VENDOR:FAMILY:MODEL", numbers decimal or
 * 0x-prefixed (KSMBENCH_CPU=AuthenticAMD:25:1). Feature masks stay those of
 * cpu_features_disable(). */
int cpu_identity_simulate(const char *spec, struct kb_err *err);

/* Undoes cpu_identity_simulate(): this CPU again. */
void cpu_identity_real(void);

/* A key of the identity and the feature mask together: caches of choices
 * made from them (the aliases') compare it to know when to decide again. */
unsigned cpu_identity_key(void);

#endif
