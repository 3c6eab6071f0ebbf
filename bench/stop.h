/* Stopping a run early, from a signal handler: bench_stop_request() only
 * stores to a volatile sig_atomic_t (async-signal-safe); the timed loops ask
 * bench_stop_requested() once per batch (window, jiffies) or per call
 * (rdtsc, outside the timed region). This is the one interface to the flag. */
#ifndef KB_STOP_H
#define KB_STOP_H

void bench_stop_request(int signo);
int bench_stop_requested(void); /* the signal number asked with, 0 if none */
void bench_stop_reset(void);

#endif
