/* Signal handlers of the commands that write -o (see interrupt.h). Only
 * async-signal-safe calls in the handler: stores to sig_atomic_t, unlink()
 * and _exit(). */
#include "interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "../bench/stop.h"

static char watched_path[4096];
static volatile sig_atomic_t watching, graceful;

static void on_signal(int signo)
{
	if (graceful && !bench_stop_requested()) {
		bench_stop_request(signo);
		return;
	}
	if (watching)
		unlink(watched_path);
	_exit(128 + signo);
}

void interrupt_install(enum interrupt_mode mode)
{
	struct sigaction sa;

	if (mode == INTERRUPT_STOP)
		graceful = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void interrupt_watch_file(const char *tmp_path)
{
	watching = 0;
	if (tmp_path && strlen(tmp_path) < sizeof(watched_path)) {
		memcpy(watched_path, tmp_path, strlen(tmp_path) + 1);
		watching = 1;
	}
}

int interrupt_exit_code(void)
{
	int signo = bench_stop_requested();

	return signo ? 128 + signo : 0;
}
