/* Pieces shared by the measuring subcommands (bench, thread, select):
 * pinning, building page sets, and writing the report to stdout or -o FILE. */
#ifndef KB_BENCH_CLI_H
#define KB_BENCH_CLI_H

#include <stdio.h>

#include "../common/atomic_file.h"
#include "../bench/bench.h"
#include "../datasets/page_set.h"

/* Pins to cpu (-1: the CPU the command started on) and returns the CPU in
 * *pinned; on failure prints the error and returns the exit code. */
int bench_cli_pin(const char *cmd, int cpu, int *pinned);

/* Option values shared by the measuring commands; each prints its error and
 * returns the exit code, or returns 0. */
int bench_cli_parse_cpu(const char *cmd, const char *text, int *cpu);           /* --cpu N */
int bench_cli_parse_repeat(const char *cmd, const char *text, unsigned *repeat); /* --repeat 1..1000 */
int bench_cli_parse_hz(const char *cmd, const char *text, unsigned *hz);         /* --hz 8..10000 */
int bench_cli_parse_working_set(const char *cmd, const char *text, uint64_t *bytes); /* 64K..64G */

/* A page set of data ("zero", "random" or a file) laid out hot or cold. */
struct bench_set_request {
	const char *data;
	uint32_t page_size;
	uint64_t seed;
	int cold;
	uint64_t working_set_bytes; /* cold: 0 for the default from the LLC size */
	uint64_t llc_bytes;
	uint32_t misalign;
};

/* 0, or prints the error and returns the exit code. */
int bench_cli_build_set(const char *cmd, const struct bench_set_request *req, struct page_set *set);

/* Where the report goes: stdout, or an atomic file. */
struct bench_output {
	FILE *fp;
	struct atomic_file af;
	int to_file;
};

int bench_cli_output_open(const char *cmd, const char *path, struct bench_output *o);

/* Commits (write_rc 0) or discards (write_rc -1) the output; returns the exit code. */
/* Discards the report after an error already reported: no file is left
 * and nothing more is printed. */
void bench_cli_output_abort(struct bench_output *o);

int bench_cli_output_close(const char *cmd, struct bench_output *o, int write_rc);

/* Prints the run's warnings on stderr, for formats that have no place for them. */
struct bench_context;
void bench_cli_warnings_to_stderr(const char *cmd, const struct bench_context *ctx);

/* Measures hashes[0..n) over set, showing progress, until done or a stop is
 * requested (Ctrl-C): out[] gets the measurements with at least one round,
 * *nout their count. 0, or prints the error and returns the exit code. */
struct bench_config;
struct progress;
int bench_cli_measure(const char *cmd, const struct hash_impl *const *hashes, unsigned n,
		      const struct page_set *set, struct bench_config *cfg, struct progress *p,
		      struct bench_result *out, unsigned *nout);

/* Records in ctx whether a stop request cut the run short (planned and
 * completed measurements); when it did, says so on stderr. */
void bench_cli_note_interruption(const char *cmd, struct bench_context *ctx, unsigned planned, unsigned completed);

/* The exit code after the report was written with close_rc: an interrupted
 * run exits 128 + the signal (130 for SIGINT), report written or not. */
int bench_cli_exit_code(int close_rc);

#endif
