/* Ctrl-C and SIGTERM during a measuring run: the first signal asks the
 * bench loops to stop (they end with what was measured, which is reported
 * and marked interrupted); a second one ends the process at once, removing
 * the -o temporary file first so that no partial file is left. */
#ifndef KB_INTERRUPT_H
#define KB_INTERRUPT_H

/* Installs the SIGINT and SIGTERM handlers. */
void interrupt_install(void);

/* The temporary file a second signal must remove (NULL: none). */
void interrupt_watch_file(const char *tmp_path);

/* 128 + the signal that stopped the run (130 for SIGINT, 143 for SIGTERM),
 * or 0 if none did. */
int interrupt_exit_code(void);

#endif
