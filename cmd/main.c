/* ksmbench: measures page-hash functions the way Linux KSM uses them.
 * Entry point: global options and dispatch to the subcommands. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/free_core.h"
#include "../common/quote.h"
#include "../common/size_parse.h"
#include "../common/versions.h"
#include "../datasets/dump.h"
#include "../datasets/page_codec.h"
#include "../hashes/cpu_features.h"
#include "../hashes/cpu_identity.h"
#include "../scan/ksm_model.h"
#include "cli.h"
#include "workers.h"

static const struct cli_command commands[] = {
	{ "list", "registered hashes: availability here and in the kernel, alias choices", cmd_list },
	{ "verify", "known-answer tests and cross-checks of every hash", cmd_verify },
	{ "sum", "checksums of files, whole or per page (like xxhsum)", cmd_sum },
	{ "capture", "a running process's memory as an ELF core", cmd_capture },
	{ "bench", "measure hashes: timers, datasets, reports", cmd_bench },
	{ "thread", "the linux-mm thread's comparison on this machine (default)", cmd_thread },
	{ "select", "pick the fastest hash as the v2 KSM patch did", cmd_select },
	{ "compare", "compare two JSON results: regressions for CI (exit 1)", cmd_compare },
	{ "plot", "an SVG bar chart of JSON results", cmd_plot },
	{ "scan", "what KSM would merge in dumps, and what checksumming costs", cmd_scan },
	{ "ksm", "the live KSM counters (/sys/kernel/mm/ksm, /proc/PID/ksm_stat)", cmd_ksm },
	{ "ceiling", "this CPU's measured limits for page hashing, per implementation", cmd_ceiling },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void help(void)
{
	printf("usage: ksmbench [--help | --version] [COMMAND [OPTIONS] [ARGS]]\n\n"
	       "Measures page-hash functions the way Linux KSM uses them.\n"
	       "Without a command: ksmbench thread (the linux-mm comparison, under 20 s).\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("  %-8s %s\n", commands[i].name, commands[i].summary);
	printf("\nbench, thread and select stop cleanly on Ctrl-C or SIGTERM: what was measured\n"
	       "is reported and marked interrupted; no command leaves a partial -o file.\n"
	       "'man ksmbench' has everything.\n");
	printf("\n'ksmbench COMMAND --help' describes a command's options; --list-commands and\n"
	       "--list-input-formats print one name a line (for shell completion).\n"
	       "Exit status: 0 ok, 1 verification failure, sum -c mismatch, missed self-check\n"
	       "target or a regression found by compare, 2 usage or input error, 3 compare\n"
	       "inconclusive (no regression), 130/143/129 interrupted (SIGINT, SIGTERM, SIGHUP),\n"
	       "141 killed by SIGPIPE (the reader of standard output went away).\n"
	       "KSMBENCH_DISABLE=feat,... hides CPU features (e.g. avx512f,sse4.2);\n"
	       "KSMBENCH_CPU=VENDOR:FAMILY:MODEL poses as another CPU for the alias table and\n"
	       "the kernel's crc32c rule; KSMBENCH_KERNEL_RELEASE=R as another kernel (KSM's\n"
	       "checksum, the kernel's crc32c); KSMBENCH_FREE_CORE=N sets a free core's\n"
	       "additions a cycle, the floor under a run's core throughput, where the CPU\n"
	       "table has none (0: no floor). The man page's ENVIRONMENT has the others.\n");
}

/* For shell completion, one name a line. */
static void list_commands(void)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("%s\n", commands[i].name);
}

static void list_input_formats(void)
{
	for (const char *p = dump_format_names(); *p; p += strspn(p, ", ")) {
		size_t len = strcspn(p, ",");
		printf("%.*s\n", (int)len, p);
		p += len;
	}
}

/* The second line says which kdump page compressions this build reads. */
static void version(void)
{
	printf("ksmbench %s (git %s)\nkdump pages:", KSMBENCH_VERSION, kb_git_revision());
	for (unsigned i = 0; page_codecs[i]; i++) {
		const struct page_codec *c = page_codecs[i];
		if (c->decode)
			printf("%s %s %s", i ? "," : "", c->name, c->version());
		else
			printf("%s %s (not built: %s)", i ? "," : "", c->name, c->package);
	}
	printf("\n");
}

/* The options in place of a command: each takes nothing after it. */
static const struct {
	const char *name;
	void (*run)(void);
} alone[] = {
	{ "--help", help },
	{ "-h", help },
	{ "--list-commands", list_commands },
	{ "--list-input-formats", list_input_formats },
	{ "--version", version },
};

#define NALONE (sizeof(alone) / sizeof(alone[0]))

static int default_job(void)
{
	char *thread_argv[] = { "thread", NULL };

	return cmd_thread(1, thread_argv);
}

/* A standard stream started closed is held by /dev/null opened the wrong
 * way round, so that reading or writing it still fails (EBADF, as when
 * closed) but no file this program opens takes its number: the -o
 * temporary opened as fd 1 or 2 took the warnings or the export meant for
 * the stream, and as fd 0 scan read it as its dump. */
static void hold_closed_streams(void)
{
	for (int fd = 0; fd <= 2; fd++) /* in order: the lowest free number is fd */
		if (fcntl(fd, F_GETFD) == -1 && errno == EBADF)
			(void)open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
}

static int run_command(int argc, char **argv)
{
	const char *disable = getenv("KSMBENCH_DISABLE"), *cpu = getenv("KSMBENCH_CPU");
	const char *release = getenv("KSMBENCH_KERNEL_RELEASE");
	struct ksm_rules rules;
	struct kb_err err;

	if (disable && *disable && cpu_features_disable(disable, &err))
		return cli_fail(NULL, &err);
	if (cpu && *cpu && cpu_identity_simulate(cpu, &err))
		return cli_fail(NULL, &err);
	if (release && *release && ksm_rules_for(release, "KSMBENCH_KERNEL_RELEASE", &rules, &err))
		return cli_error(NULL, "KSMBENCH_KERNEL_RELEASE: %s", err.msg);
	/* Said, as the others are, not ignored (bench/clock.c takes 2 to 10^9 - 1). */
	const char *step = getenv("KSMBENCH_SIMULATE_TSC_STEP");
	uint64_t ticks;
	char q[KB_QUOTE_SIZE];
	if (step && *step && (kb_parse_uint(step, 999999999, &ticks, &err) || ticks < 2))
		return cli_error(NULL, "KSMBENCH_SIMULATE_TSC_STEP '%s': not a whole number of ticks from 2 to "
				 "999999999", kb_quote(step, q));
	const char *free_core = getenv("KSMBENCH_FREE_CORE");
	double adds_per_cycle;
	if (free_core && *free_core && free_core_parse(free_core, &adds_per_cycle, &err))
		return cli_fail(NULL, &err);
	/* A measuring process started by another ksmbench (cmd/workers.h). */
	if (argc >= 4 && strcmp(argv[1], "--worker") == 0) {
		if (worker_spec_parse(argv[2]))
			return cli_error(NULL, "--worker '%s' is not a measuring process's settings", argv[2]);
		argc -= 2;
		argv += 2;
	}
	/* "--" ends the options before the command, as getopt's does: the word
	 * after it is a command, never an option. */
	if (argc >= 2 && strcmp(argv[1], "--") == 0) {
		argc--;
		argv++;
		if (argc >= 2 && argv[1][0] == '-')
			return cli_error(NULL, "unknown command '%s' after '--' (see ksmbench --help)", argv[1]);
	}
	if (argc < 2)
		return default_job();
	for (size_t i = 0; i < NALONE; i++) {
		if (strcmp(argv[1], alone[i].name) != 0)
			continue;
		if (argc > 2)
			return cli_error(NULL, "%s takes no arguments, '%s' given (see ksmbench --help)", argv[1], argv[2]);
		alone[i].run();
		return KB_EXIT_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	/* Plain ksmbench runs thread, so "ksmbench --processes 2" is a natural
	 * guess: say where a command's options go rather than only refuse. */
	if (argv[1][0] == '-')
		return cli_error(NULL, "unknown option '%s' before a command (a command's options follow it, and "
				 "plain ksmbench is 'ksmbench thread': its options go after 'thread'; see ksmbench --help)",
				 argv[1]);
	return cli_error(NULL, "unknown command '%s' (see ksmbench --help)", argv[1]);
}

int main(int argc, char **argv)
{
	hold_closed_streams();
	/* Past a file size limit a write fails (EFBIG) and every command says
	 * so (and removes its -o temporary), where the signal's default left
	 * a half-written file and a core. */
	signal(SIGXFSZ, SIG_IGN);
	int rc = run_command(argc, argv);
	/* What stdio still holds (help, version, a listing) reaches its file
	 * here: a failure is said, where --help > /dev/full exited 0. */
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc == KB_EXIT_OK) /* errno: most likely the failed write's */
		rc = cli_error(NULL, "cannot write standard output: %s", strerror(errno ? errno : EIO));
	return rc;
}
