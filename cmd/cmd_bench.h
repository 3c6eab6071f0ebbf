/* Pieces of `ksmbench bench` shared by its files: the options as parsed
 * (cmd_bench_options.c), the plan made of them (cmd_bench_plan.c), and the
 * run and its report (cmd_bench.c). */
#ifndef KB_CMD_BENCH_H
#define KB_CMD_BENCH_H

#include <stdint.h>

#include "../bench/names.h"
#include "output.h"
#include "run_cli.h"

#define MAX_HASHES 64
#define SWEEP_MAX 8     /* values per swept option */
#define STEPS_MAX 64    /* combinations of a sweep */

/* The swept options' values (one each unless lists were given). */
struct sweep {
	const char *data[SWEEP_MAX];
	uint32_t page[SWEEP_MAX], misalign[SWEEP_MAX];
	int cold[2];
	unsigned ndata, npage, nmisalign, ncache;
	char data_text[1024];
};

struct bench_opts {
	const char *hashes, *format_name, *output, *timer_name;
	struct bench_step base; /* every step's settings but the swept ones */
	struct sweep sweep;
	struct cmd_exports exports;
	unsigned processes;
	int processes_given; /* --processes */
	int warmup_given, cpu, selfcheck, quiet, no_ceiling, wide;
	int ksmd, ksmd_given, cache_given; /* --ksmd; --pages-to-scan or --sleep-ms; --cache */
	int timer_given, jiffies_given; /* --timer; --hz or --align-tick */
	int apart_given, back_to_back_given;
};

/* The defaults, the ksmd cycle's from /sys/kernel/mm/ksm. */
void cmd_bench_defaults(struct bench_opts *o);

/* The options, checked together: 0, an exit code, or -1 after --help. */
int cmd_bench_parse(int argc, char **argv, struct bench_opts *o);

/* The steps of the plan (at most STEPS_MAX): the cross product of the
 * swept options, twice with --ksmd; their count. */
unsigned cmd_bench_build_steps(const struct bench_opts *o, uint64_t llc_bytes, struct bench_step *steps);

/* The hashes asked for (at most MAX_HASHES), each implementation once
 * (aliases grouped into names): 0 or an exit code. */
int cmd_bench_choose_hashes(const struct bench_opts *o, const struct hash_impl **hashes, struct bench_names *names,
			    unsigned *n);

#endif
