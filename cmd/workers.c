/* Starting the measuring processes and gathering their rounds (see
 * workers.h). */
#include "workers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bench/clock.h"
#include "../bench/pin.h"
#include "../bench/wire.h"
#include "../common/quote.h"
#include "../hashes/alias.h"
#include "../report/escape.h"
#include "cli.h"
#include "interrupt.h"

#define STDERR_KEPT 512

/* One measuring process being read. */
struct job {
	const char *cmd;
	const struct bench_plan *plan;
	unsigned process;
	pid_t pid;
	int out_fd, err_fd;
	char line[WIRE_LINE_MAX + 1];
	size_t len;
	char err_text[STDERR_KEPT];
	size_t err_len;
	int got_header, got_end, end_signal, forwarded;
	char bad[WIRE_LINE_MAX + 80]; /* the first unreadable line, "" if none */
	unsigned *rounds; /* per measurement, the rounds it sent: the next one's number */
	struct bench_results *out;
	void (*progress)(void *arg, const struct bench_progress *p);
	void *progress_arg;
};

/* The program to start: KSMBENCH_WORKER_EXE (an emulator's wrapper), else
 * this one (readlink, which emulators and valgrind answer for their guest).
 * The variable's is looked at here, where its error can name it: the
 * child's exec error named a bare path, cut at a newline in it, and one
 * longer than buf was cut and the shorter path started. 0, or prints the
 * error and returns its code. */
static int worker_exe(const char *cmd, char *buf, size_t size)
{
	const char *env = getenv("KSMBENCH_WORKER_EXE");
	char q[KB_QUOTE_SIZE];
	struct stat st;
	ssize_t n;

	if (env && *env) {
		if (strlen(env) >= size)
			return cli_error(cmd, "KSMBENCH_WORKER_EXE '%s' is longer than a path (%zu bytes at most)",
					 kb_quote(env, q), size - 1);
		if (stat(env, &st) != 0 || (S_ISREG(st.st_mode) && access(env, X_OK) != 0))
			return cli_error(cmd, "KSMBENCH_WORKER_EXE '%s': %s", kb_quote(env, q), strerror(errno));
		if (!S_ISREG(st.st_mode))
			return cli_error(cmd, "KSMBENCH_WORKER_EXE '%s' is %s", kb_quote(env, q),
					 S_ISDIR(st.st_mode) ? "a directory, not a program" : "not a regular file (a program)");
		snprintf(buf, size, "%s", env);
		return 0;
	}
	if ((n = readlink("/proc/self/exe", buf, size - 1)) <= 0)
		return cli_error(cmd, "cannot find this program to start measuring processes (/proc/self/exe)");
	buf[n] = '\0';
	return 0;
}

/* The child between fork and exec: its pipes, its CPU, SIGINT ignored
 * (the parent passes a stop on), killed if the parent dies. SIGTERM, the
 * stop the parent passes on, is held back until the worker has its handler
 * (worker_serve): delivered before that, it killed the worker, and the run
 * ended in an error instead of the report of what was measured. */
static void child(int out_w, int err_w, int cpu, pid_t parent, const char *exe, char **args, int keep_fd)
{
	cpu_set_t one;
	sigset_t term;

	dup2(out_w, STDOUT_FILENO);
	dup2(err_w, STDERR_FILENO);
	if (out_w > STDERR_FILENO)
		close(out_w);
	if (err_w > STDERR_FILENO)
		close(err_w);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	/* On another CPU than the report names (a cpuset changed mid-run) its
	 * rounds were kept as clean: an error instead. */
	if (sched_setaffinity(0, sizeof(one), &one) != 0) {
		dprintf(STDERR_FILENO, "cannot run on CPU %d: %s\n", cpu, strerror(errno));
		_exit(KB_EXIT_USAGE);
	}
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL); /* not the parent's handler, which unlinks its temporaries */
	/* Of what the parent held back over the fork: SIGTERM and SIGHUP, the
	 * stops the worker's handler takes (worker_serve unblocks them). */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigaddset(&term, SIGHUP);
	sigprocmask(SIG_SETMASK, &term, NULL);
	/* The pages read for it (bench_plan_read_pages), inherited by it alone. */
	if (keep_fd >= 0 && fcntl(keep_fd, F_SETFD, 0) != 0) {
		dprintf(STDERR_FILENO, "cannot pass the pages read: %s\n", strerror(errno));
		_exit(KB_EXIT_USAGE);
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(KB_EXIT_USAGE);
	execv(exe, args);
	dprintf(STDERR_FILENO, "cannot start %s: %s\n", exe, strerror(errno));
	_exit(127);
}

static int spawn(struct job *j, const char *exe, char **args, int cpu, int keep_fd)
{
	int o[2], e[2];

	if (pipe2(o, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(e, O_CLOEXEC) != 0) {
		close(o[0]);
		close(o[1]);
		return -1;
	}
	pid_t parent = getpid();
	sigset_t stop, saved;
	fflush(NULL);
	/* Held back over the fork: a stop that came between would run this
	 * process's handler in the child, which could end it there with 143
	 * and unlink this process's temporary output. The child leaves them
	 * held (child()); here they come after. */
	interrupt_signals(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &saved);
	j->pid = fork();
	if (j->pid == 0)
		child(o[1], e[1], cpu, parent, exe, args, keep_fd);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	close(o[1]);
	close(e[1]);
	if (j->pid < 0) {
		close(o[0]);
		close(e[0]);
		return -1;
	}
	j->out_fd = o[0];
	j->err_fd = e[0];
	return 0;
}

static void show_progress(struct job *j, const struct wire_msg *msg)
{
	const struct bench_plan *plan = j->plan;
	struct bench_progress p = { .process = j->process + 1, .processes = plan->processes, .steps = plan->nsteps };

	if (!j->progress)
		return;
	if (msg->kind == WIRE_NOTE) {
		p.step = msg->step + 1;
		p.note = plan->steps[msg->step].building_note;
		if (!p.note)
			return;
	} else {
		p.measurement = msg->m;
		p.step = msg->m / plan->nhashes + 1;
		p.step_name = plan->steps[p.step - 1].name;
		p.hash = plan->hashes[msg->m % plan->nhashes];
		p.round = msg->round;
		p.rounds = msg->rounds;
		p.slot = msg->slot;
		p.slots = msg->slots;
	}
	j->progress(j->progress_arg, &p);
}

/* One line of the process's output: applied, or remembered as the reason
 * the process's output is unusable. */
static void take_line(struct job *j, const char *line)
{
	unsigned n = bench_plan_measurements(j->plan);
	struct wire_msg msg;
	struct kb_err err;

	if (j->bad[0])
		return;
	if (wire_parse(line, n, j->plan->nsteps, &msg, &err)) {
		snprintf(j->bad, sizeof(j->bad), "%s", err.msg);
		return;
	}
	/* A measurement's rounds come in order, each once, as many as its
	 * step's --repeat: a round repeated or beyond them was counted as
	 * another round of the process (two lines of a round: 4 rounds where
	 * 2 were asked for). */
	if ((msg.kind != WIRE_HEADER && !j->got_header) || j->got_end ||
	    (msg.kind == WIRE_HEADER && (j->got_header || msg.measurements != n || msg.process != j->process)) ||
	    (msg.kind == WIRE_ROUND && (msg.r.process != j->process || msg.r.round != j->rounds[msg.m] ||
					msg.r.round >= j->plan->steps[msg.m / j->plan->nhashes].cfg.repeat))) {
		snprintf(j->bad, sizeof(j->bad), "'%.60s' out of place", line);
		return;
	}
	switch (msg.kind) {
	case WIRE_HEADER: j->got_header = 1; break;
	case WIRE_SET: bench_results_set_facts(j->out, msg.m, msg.set_pages, msg.working_set_bytes); break;
	case WIRE_NOTE:
	case WIRE_PROGRESS: show_progress(j, &msg); break;
	case WIRE_ROUND:
		if (bench_results_add_round(j->out, msg.m, &msg.r))
			snprintf(j->bad, sizeof(j->bad), "(out of memory)");
		j->rounds[msg.m]++;
		break;
	case WIRE_END:
		j->got_end = 1;
		j->end_signal = msg.signo;
		break;
	}
}

/* Whatever a read brought: whole lines taken, the rest kept. 0 at EOF. */
static int read_out(struct job *j)
{
	char buf[4096];
	ssize_t n = read(j->out_fd, buf, sizeof(buf));

	if (n < 0 && errno == EINTR)
		return 1;
	/* What follows the last newline is no line: it was dropped, and
	 * "end 0" then "garbage" without its newline read as a whole result. */
	if (n <= 0 && j->len && !j->bad[0]) {
		j->line[j->len] = '\0';
		snprintf(j->bad, sizeof(j->bad), "'%.60s%s' without its newline", j->line, j->len > 60 ? "..." : "");
	}
	if (n <= 0)
		return 0;
	for (ssize_t i = 0; i < n; i++) {
		/* A NUL ended the line for the parser, which read "end 0\0junk"
		 * as "end 0". */
		if (buf[i] == '\0' && !j->bad[0])
			snprintf(j->bad, sizeof(j->bad), "a line with a NUL byte");
		if (buf[i] == '\n') {
			j->line[j->len] = '\0';
			take_line(j, j->line);
			j->len = 0;
		} else if (j->len < WIRE_LINE_MAX) {
			j->line[j->len++] = buf[i];
		} else if (!j->bad[0]) {
			snprintf(j->bad, sizeof(j->bad), "a line longer than %d bytes", WIRE_LINE_MAX);
		}
	}
	return 1;
}

static int read_err(struct job *j)
{
	char buf[1024];
	ssize_t n = read(j->err_fd, buf, sizeof(buf));

	if (n <= 0)
		return n < 0 && errno == EINTR ? 1 : 0;
	size_t keep = (size_t)n < sizeof(j->err_text) - 1 - j->err_len ? (size_t)n : sizeof(j->err_text) - 1 - j->err_len;
	memcpy(j->err_text + j->err_len, buf, keep);
	j->err_len += keep;
	j->err_text[j->err_len] = '\0';
	return 1;
}

/* Until both pipes end; a stop request is passed on once, as SIGTERM. The
 * signals are let in only while ppoll waits: one that came between the
 * check and a plain poll() set the flag for no one to see, and the process
 * measured all its rounds before the stop reached it. */
static void gather(struct job *j)
{
	int out_open = 1, err_open = 1;
	sigset_t stop, saved;

	interrupt_signals(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &saved);
	while (out_open || err_open) {
		struct pollfd p[2] = { { out_open ? j->out_fd : -1, POLLIN, 0 }, { err_open ? j->err_fd : -1, POLLIN, 0 } };
		if (bench_stop_requested() && !j->forwarded) {
			kill(j->pid, SIGTERM);
			j->forwarded = 1;
		}
		if (ppoll(p, 2, NULL, &saved) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (out_open && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
			out_open = read_out(j);
		if (err_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
			err_open = read_err(j);
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	close(j->out_fd);
	close(j->err_fd);
}

/* The first line of what the process said on stderr, without its newline. */
static const char *first_line(struct job *j)
{
	j->err_text[strcspn(j->err_text, "\n")] = '\0';
	return j->err_text;
}

/* 0 when the process ended well and said everything; else the one error line. */
static int judge(struct job *j, int status)
{
	unsigned k = j->process + 1, n = j->plan->processes;

	if (WIFSIGNALED(status))
		return cli_error(j->cmd, "measuring process %u of %u (pid %d) was killed by signal %d (%s)", k, n,
				 (int)j->pid, WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (WEXITSTATUS(status) != 0) {
		const char *said = first_line(j);
		/* Its own error line ("ksmbench bench: ..."), as it would have
		 * printed it; escaped, as the program run may be another's
		 * (KSMBENCH_WORKER_EXE), and ours escaped it already. */
		if (strncmp(said, "ksmbench ", 9) == 0) {
			escape_put(stderr, said, ESCAPE_TERM);
			fputc('\n', stderr);
			return KB_EXIT_USAGE;
		}
		return cli_error(j->cmd, "measuring process %u of %u failed (exit status %d)%s%s", k, n,
				 WEXITSTATUS(status), *said ? ": " : "", said);
	}
	if (j->bad[0])
		return cli_error(j->cmd, "measuring process %u of %u wrote an unreadable result: %s", k, n, j->bad);
	if (!j->got_end)
		return cli_error(j->cmd, "measuring process %u of %u ended without its results", k, n);
	/* Unstopped, it owes every round of every measurement: with some
	 * left out the report was written as whole, not marked interrupted. */
	for (unsigned m = 0; !j->end_signal && m < bench_plan_measurements(j->plan); m++) {
		unsigned want = j->plan->steps[m / j->plan->nhashes].cfg.repeat;
		if (j->rounds[m] != want)
			return cli_error(j->cmd, "measuring process %u of %u ended without all its rounds: %u of %u "
					 "of measurement %u", k, n, j->rounds[m], want, m + 1);
	}
	return 0;
}

/* ",crc32c=IMPL,..." for each alias of the registry this process has
 * resolved: a measuring process takes them as they are instead of measuring
 * again, which could pick another implementation where two are within
 * noise. */
static void aliases_made(char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < hash_registry_count; i++) {
		const struct alias_choice *c = alias_choice_made(hash_registry[i]);
		if (c && used < size)
			used += (size_t)snprintf(buf + used, size - used, ",%s=%s", hash_registry[i]->name, c->target->name);
	}
}

/* The arguments: EXE --worker SPEC CMD ARGS... */
static char **worker_args(const char *exe, char *spec, int argc, char **argv)
{
	char **args = calloc((size_t)argc + 4, sizeof(*args));

	if (!args)
		return NULL;
	args[0] = (char *)exe;
	args[1] = "--worker";
	args[2] = spec;
	for (int i = 0; i < argc; i++)
		args[3 + i] = argv[i];
	return args;
}

static int run_one(struct job *j, const char *exe, char **args, int cpu, int keep_fd)
{
	int status = 0;

	if (spawn(j, exe, args, cpu, keep_fd))
		return cli_error(j->cmd, "cannot start a measuring process: %s", strerror(errno));
	gather(j);
	/* Its pipes have ended with it, and gather passed a stop on: the wait
	 * only collects the status (a signal restarts it, SA_RESTART). */
	while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
		;
	int rc = judge(j, status);
	/* A signal sent to it alone (not through this process) stops the run too. */
	if (rc == 0 && j->end_signal && !bench_stop_requested())
		bench_stop_request(j->end_signal);
	return rc;
}

int workers_run(const char *cmd, const struct bench_plan *plan, int argc, char **argv, int cpu,
		void (*progress)(void *arg, const struct bench_progress *p), void *progress_arg,
		struct bench_results *out)
{
	const struct counter_info *ci = counter_info();
	char exe[PATH_MAX], spec[384], seen[64];
	struct kb_err err;
	int rc = 0, pages_fd = plan->pages ? plan->pages->fd : -1;

	worker_cpu_signature(seen, sizeof(seen));
	if ((rc = worker_exe(cmd, exe, sizeof(exe))) != 0)
		return rc;
	if (bench_results_plan(out, plan, &err))
		return cli_fail(cmd, &err);
	pin_away_from(cpu);
	/* A job holds its lines' buffers (12 KB): on the heap, not the stack. */
	struct job *j = malloc(sizeof(*j));
	unsigned nm = bench_plan_measurements(plan), *rounds = calloc(nm ? nm : 1, sizeof(*rounds));
	if (!j || !rounds) {
		free(j);
		free(rounds);
		return cli_error(cmd, "out of memory");
	}
	for (unsigned p = 0; p < plan->processes && rc == 0 && !bench_stop_requested(); p++) {
		/* A CPU chosen by timing is chosen again for each process (pin.h),
		 * which gives this one its whole mask back: away again. */
		int again = p ? pin_choose_again() : -1;
		if (again >= 0)
			pin_away_from(cpu = again);
		out->process_cpu[p] = cpu;
		memset(rounds, 0, (nm ? nm : 1) * sizeof(*rounds));
		*j = (struct job){ .cmd = cmd, .plan = plan, .process = p, .rounds = rounds, .out = out,
				   .progress = progress, .progress_arg = progress_arg };
		int len = snprintf(spec, sizeof(spec), "%u,%d,%.17g,%.17g,%.17g,%s,%d,%d", p, progress != NULL, ci->hz,
				   ci->overhead_ticks, ci->step_ticks, seen, cpu, pages_fd);
		aliases_made(spec + len, sizeof(spec) - (size_t)len);
		char **args = worker_args(exe, spec, argc, argv);
		rc = args ? run_one(j, exe, args, cpu, pages_fd) : cli_error(cmd, "out of memory");
		free(args);
	}
	free(j);
	free(rounds);
	return rc;
}
