/* The name of a signal that stops a run ("interrupted by SIGHUP"): the
 * stop signals of cmd/interrupt.c, said in the run's note and on stderr. */
#ifndef KB_STOP_SIGNAL_H
#define KB_STOP_SIGNAL_H

#include <signal.h>

static inline const char *kb_stop_signal_name(int signo)
{
	return signo == SIGTERM ? "SIGTERM" : signo == SIGINT ? "SIGINT" : signo == SIGHUP ? "SIGHUP" : "a signal";
}

#endif
