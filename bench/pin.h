/* Which CPU a run is pinned to, decided in one place, and the pinning. */
#ifndef KB_PIN_H
#define KB_PIN_H

#include "../common/err.h"

/* How the CPU was chosen, for the report: asked for, or the default rule
 * (the highest-numbered CPU in the affinity mask). */
#define PIN_RULE_ASKED "--cpu"
#define PIN_RULE_DEFAULT "highest allowed"

/* The CPU to pin to: requested (>= 0) if this process may run there, else
 * (-1) the highest-numbered CPU in its affinity mask. That choice is the
 * same on every run with the same mask (the CPU a process happens to start
 * on is not), and it keeps away from CPU 0, where Linux delivers most device
 * interrupts and housekeeping work by default. Returns the CPU, or -1 with
 * err. *rule says which rule chose it. */
int pin_choose(int requested, const char **rule, struct kb_err *err);

/* Restricts the process to cpu; an error if it does not exist or is not allowed. */
int pin_to_cpu(int cpu, struct kb_err *err);

/* Moves the process off cpu, onto the other CPUs pin_choose found allowed
 * (none: it stays): the ksmbench that waits for its measuring processes
 * does not wake on the CPU they measure on. */
void pin_away_from(int cpu);

#endif
