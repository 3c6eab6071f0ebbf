/* Signal handlers of the commands that write -o (see interrupt.h). Only
 * async-signal-safe calls in the handler: stores to sig_atomic_t, unlink()
 * and _exit(). */
#include "interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "../bench/stop.h"

/* A report and its exports (output.h), or capture's cores: one temporary
 * each. With room for 4, the fifth core's and later were left behind. */
#define WATCH_MAX INTERRUPT_WATCH_MAX

static char watched_path[WATCH_MAX][4096]; /* 256 KiB, touched only as far as used */
static volatile sig_atomic_t watching[WATCH_MAX], level; /* an enum interrupt_mode */
/* Set while a command that measures waits in a call no stop request can
 * end (interrupt_wait_begin). */
static volatile sig_atomic_t waiting;

/* SIGPIPE ends the process whatever the mode: the reader is gone, there is
 * no one to report to. A worker takes every stop as one: a SIGTERM to the
 * process group and the parent's passing it on are the same stop (as a
 * second signal, the parent's copy ended the worker with 143 and the run
 * with an error), and a worker dies with its parent (PR_SET_PDEATHSIG). */
static void on_signal(int signo)
{
	if (signo != SIGPIPE &&
	    (level == INTERRUPT_WORKER || (level == INTERRUPT_STOP && !waiting && !bench_stop_requested()))) {
		if (!bench_stop_requested())
			bench_stop_request(signo);
		return;
	}
	for (int i = 0; i < WATCH_MAX; i++)
		if (watching[i])
			unlink(watched_path[i]);
	_exit(128 + signo);
}

void interrupt_install(enum interrupt_mode mode)
{
	struct sigaction sa;

	if ((int)mode > (int)level)
		level = mode;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* A stop request, the one way the handler returns, fails no call that
	 * can be restarted: the report's write to a full FIFO or pipe failed
	 * with EINTR ("cannot write ...: Interrupted system call", the rest of
	 * it lost). The waits a stop must end return EINTR all the same
	 * (poll, ppoll, nanosleep are never restarted). */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* the terminal gone: a stop like SIGTERM's */
	sigaction(SIGPIPE, &sa, NULL);
}

void interrupt_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGPIPE);
}

int interrupt_watch(const char *tmp_path)
{
	for (int i = 0; tmp_path && i < WATCH_MAX; i++)
		if (!watching[i] && strlen(tmp_path) < sizeof(watched_path[i])) {
			memcpy(watched_path[i], tmp_path, strlen(tmp_path) + 1);
			watching[i] = 1;
			return i;
		}
	return -1;
}

void interrupt_unwatch(int slot)
{
	if (slot >= 0 && slot < WATCH_MAX)
		watching[slot] = 0;
}

/* A stop asked for before the flag was set is seen by the check after it;
 * one asked for after it finds the flag and ends the process. */
int interrupt_wait_begin(void)
{
	int rc;

	waiting = 1;
	if ((rc = interrupt_exit_code()) != 0)
		waiting = 0;
	return rc;
}

void interrupt_wait_end(void)
{
	waiting = 0;
}

int interrupt_exit_code(void)
{
	int signo = bench_stop_requested();

	return signo ? 128 + signo : 0;
}
