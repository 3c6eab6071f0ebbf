/* Ctrl-C, SIGTERM and SIGHUP, the same way in every command that writes -o: the
 * -o temporary file is watched, so that no partial file is ever left. A
 * command that measures (bench, thread, select) asks for a graceful stop:
 * the first signal asks the bench loops to stop (they end with what was
 * measured, which is reported and marked interrupted) and a second one ends
 * the process at once. Every other command ends at the first signal. Either
 * way the exit status is 128 + the signal (130, 143). */
#ifndef KB_INTERRUPT_H
#define KB_INTERRUPT_H

#include <signal.h>

enum interrupt_mode {
	INTERRUPT_EXIT,   /* end at once, removing the watched file */
	INTERRUPT_STOP,   /* first signal: a stop request (bench/stop.h) */
	INTERRUPT_WORKER, /* every signal: a stop request (a measuring process) */
};

/* Installs the SIGINT, SIGTERM and SIGHUP handlers (SIGHUP as SIGTERM) and
 * SIGPIPE's (always the end at once, 141); a later call may only move down
 * the list above, not back. */
void interrupt_install(enum interrupt_mode mode);

/* The signals whose handler may end the process (SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE), into set: what to hold back while a temporary is created and
 * not yet watched, or over a fork. */
void interrupt_signals(sigset_t *set);

/* A temporary file a signal must remove; returns its slot for
 * interrupt_unwatch, -1 for NULL or no room. Up to INTERRUPT_WATCH_MAX at
 * once: a report and its exports, or capture's cores, one per PID. */
#define INTERRUPT_WATCH_MAX 64
int interrupt_watch(const char *tmp_path);
void interrupt_unwatch(int slot); /* -1: nothing */

/* Around a call that may wait for good (opening a FIFO that no one reads
 * or writes, reading the data before the measurement): a stop request
 * cannot reach the call once it waits, and a signal that came just before
 * it left nothing for it to notice. Until interrupt_wait_end(), a signal
 * ends the process at once, as in INTERRUPT_EXIT (nothing is measured yet,
 * there is nothing to report). Returns 0, or the exit code of a stop asked
 * for earlier: then the call must not be made, and nothing is to be ended. */
int interrupt_wait_begin(void);
void interrupt_wait_end(void);

/* 128 + the signal that stopped the run (130 for SIGINT, 143 for SIGTERM),
 * or 0 if none did. */
int interrupt_exit_code(void);

#endif
