/* The stop request that ends a run early (see stop.h): a flag a signal
 * handler may set, read by the timed loops between batches. */
#include "stop.h"

#include <signal.h>

static volatile sig_atomic_t stop_signal;

void bench_stop_request(int signo)
{
	stop_signal = signo ? signo : SIGINT;
}

int bench_stop_requested(void)
{
	return stop_signal;
}

void bench_stop_reset(void)
{
	stop_signal = 0;
}
