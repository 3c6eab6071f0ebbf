/* The stop request that ends a run early (see bench.h): a flag a signal
 * handler may set, read by the timed loops between batches. */
#include <signal.h>

#include "bench.h"
#include "timed_loop.h"

volatile sig_atomic_t bench_stop_signal;

void bench_stop_request(int signo)
{
	bench_stop_signal = signo ? signo : SIGINT;
}

int bench_stop_requested(void)
{
	return bench_stop_signal;
}

void bench_stop_reset(void)
{
	bench_stop_signal = 0;
}
