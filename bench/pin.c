/* CPU choice and pinning with sched_getaffinity / sched_setaffinity (see pin.h). */
#include "pin.h"

#include <errno.h>
#include <sched.h>

/* The mask pin_choose last saw (before pinning: it is called first). */
static cpu_set_t allowed;
static int allowed_known;

int pin_choose(int requested, const char **rule, struct kb_err *err)
{
	if (requested >= CPU_SETSIZE)
		return kb_fail(err, "CPU %d does not exist", requested);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return kb_fail_errno(err, errno, "cannot read this process's CPU affinity");
	allowed_known = 1;
	if (requested >= 0) {
		if (!CPU_ISSET(requested, &allowed))
			return kb_fail(err, "CPU %d is not available to this process", requested);
		*rule = PIN_RULE_ASKED;
		return requested;
	}
	for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &allowed)) {
			*rule = PIN_RULE_DEFAULT;
			return cpu;
		}
	return kb_fail(err, "this process may run on no CPU");
}

int pin_to_cpu(int cpu, struct kb_err *err)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return kb_fail(err, "CPU %d does not exist", cpu);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		if (errno == EINVAL)
			return kb_fail(err, "CPU %d is not available to this process", cpu);
		return kb_fail_errno(err, errno, "cannot pin to CPU %d", cpu);
	}
	return 0;
}

void pin_away_from(int cpu)
{
	cpu_set_t others = allowed;

	if (!allowed_known || cpu < 0 || cpu >= CPU_SETSIZE)
		return;
	CPU_CLR(cpu, &others);
	if (CPU_COUNT(&others) > 0)
		sched_setaffinity(0, sizeof(others), &others);
}
