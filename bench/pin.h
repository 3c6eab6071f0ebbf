/* Pinning the benchmark to one CPU, so that the rounds are not migrated. */
#ifndef KB_PIN_H
#define KB_PIN_H

#include "../common/err.h"

/* The CPU the calling thread runs on now (-1 if unknown). */
int pin_current_cpu(void);

/* Restricts the process to cpu; an error if it does not exist or is not allowed. */
int pin_to_cpu(int cpu, struct kb_err *err);

#endif
