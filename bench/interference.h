/* What else happened while a round was timed: the other CPUs' busy share
 * and this CPU's steal time (/proc/stat), the measuring thread's
 * involuntary context switches (getrusage), time off the CPU (its CPU
 * clock against the wall clock) and migrations (perf's software counter,
 * else /proc/thread-self/sched, else a change of CPU), the effective core
 * clock (bench/clock_chain.h) and, where a PMU exists, the hardware cycles
 * and instructions of the thread (perf_event_open; none on most VMs).
 * Every probe that cannot be read leaves its figure unknown, never wrong.
 * bench/disturb.h decides from these which rounds were disturbed. */
#ifndef KB_INTERFERENCE_H
#define KB_INTERFERENCE_H

#include <stddef.h>
#include <stdint.h>

struct bench_round;

/* Which figures of a round are known (bench_round.known). */
enum {
	INTERFERENCE_BUSY = 1u,      /* other_busy_share */
	INTERFERENCE_STEAL = 2u,     /* steal_share */
	INTERFERENCE_OFF_CPU = 4u,   /* off_cpu_share */
	INTERFERENCE_SWITCHES = 8u,  /* involuntary_switches */
	INTERFERENCE_MIGRATIONS = 16u,
	INTERFERENCE_CLOCK = 32u,    /* clock_hz */
	INTERFERENCE_PMU = 64u,      /* core_cycles, instructions */
	INTERFERENCE_THROUGHPUT = 128u, /* throughput */
};

/* Open once per measuring process, on the CPU it is pinned to. */
struct interference_probe {
	int cpu;                   /* the measuring CPU; -1 if unknown */
	int stat_fd;               /* /proc/stat, -1 if unreadable */
	int sched_fd;              /* /proc/thread-self/sched, -1 unless it is the migrations' source */
	int fd_cycles, fd_instructions, fd_migrations; /* perf_event, -1 where none */
	const char *migrations_source; /* "perf", "sched", "cpu change" */
	char pmu_note[160];        /* why there are no hardware counters; "" when there are */
	char *buf;                 /* /proc/stat's text */
	size_t buf_size;
};

/* A reading of every probe at one moment. */
struct interference_mark {
	int stat_ok;
	uint64_t own_total, own_steal;       /* this CPU's ticks in /proc/stat */
	uint64_t others_total, others_idle;  /* the other CPUs' ticks, idle and iowait as idle */
	unsigned others;                     /* how many other CPUs */
	uint64_t wall_ns, thread_ns;         /* CLOCK_MONOTONIC and the thread's CPU clock */
	long involuntary;                    /* ru_nivcsw */
	uint64_t migrations;
	int cpu;                             /* sched_getcpu() */
	uint64_t cycles, instructions;
	double clock_hz;                     /* the chain's clock, 0 if not measured */
	double throughput;                   /* the core's throughput, 0 if not measured */
};

/* Opens what this system offers; never fails (a probe that cannot be read
 * stays unknown). */
void interference_open(struct interference_probe *p);
void interference_close(struct interference_probe *p);

/* Reads every probe; with_clock: runs the clock chain and the throughput
 * block too (before the other reads at the start of a round, after them at
 * its end, so that they stay outside the window the counters cover). */
void interference_mark(struct interference_probe *p, struct interference_mark *m, int with_clock, int at_end);

/* The round's figures from the marks around it (sets r->known and the
 * figures it names). /proc/stat counts 10 ms ticks: over fewer than two
 * ticks per CPU a share is not known. */
void interference_measure(const struct interference_probe *p, const struct interference_mark *a,
			  const struct interference_mark *b, struct bench_round *r);

/* /proc/stat's cpuN lines into m (this CPU: own_*, every other: others_*);
 * 0, or -1 when the text has no line for cpu. Pure: unit-tested. */
int interference_parse_stat(const char *text, int cpu, struct interference_mark *m);

/* se.nr_migrations from /proc/PID/sched's text; -1 if absent. */
int interference_parse_sched(const char *text, uint64_t *migrations);

#endif
