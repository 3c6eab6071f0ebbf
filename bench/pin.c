/* CPU pinning with sched_setaffinity (see pin.h). */
#include "pin.h"

#include <errno.h>
#include <sched.h>

int pin_current_cpu(void)
{
	return sched_getcpu();
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
