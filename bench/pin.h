/* Which CPU a run is pinned to, decided in one place, and the pinning. */
#ifndef KB_PIN_H
#define KB_PIN_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/err.h"

/* How the CPU was chosen, for the report: asked for, the default rule
 * (the fastest CPU of the affinity mask, by pin_pick), or the one CPU the
 * mask allows (taskset -c N: nothing to choose, nothing timed). */
#define PIN_RULE_ASKED "--cpu"
#define PIN_RULE_DEFAULT "fastest allowed"
#define PIN_RULE_ONLY "only allowed"

/* CPUs whose core throughput is within this share of the fastest count as
 * equal: the two free vCPUs of the Zen 5 VM read 2-4% apart, one whose
 * host SMT sibling was busy 15-35% lower; an efficiency core, narrower and
 * at a lower clock, lower still (not measured here: no hybrid CPU). */
#define PIN_EQUAL_SHARE 0.10

/* A CPU whose timing found the thread off it for this share or more runs
 * other work that the measurement would share it with: passed over while
 * a CPU that does not remains (a shell loop on the CPU: 0.74-0.86; a free
 * CPU: 0-0.01). */
#define PIN_BUSY_SHARE 0.5

/* One allowed CPU when the default choice was made: its core throughput
 * (clock_chain_throughput(), additions per ns; 0 if it could not be read)
 * and the share of its timing the thread spent off it, the CPU running
 * other work (-1 if not known). */
struct pin_probe {
	int cpu;
	double adds_per_ns;
	double busy_share;
};

/* The CPU to pin to: requested (>= 0) if this process may run there, else
 * (-1) the one pin_pick finds among those in its affinity mask, each timed
 * in turn (about 1 ms a free CPU, a few where another task runs, up to
 * 20 ms more for one timed after a busy CPU (pin_settle_ns); one allowed
 * CPU is not timed).
 * The affinity is as before on return. Returns the CPU, or -1 with err.
 * *rule says which rule chose it. */
int pin_choose(int requested, const char **rule, struct kb_err *err);

/* Of n probes in increasing CPU order, the index of the highest-numbered
 * CPU within PIN_EQUAL_SHARE of the fastest, of those whose busy_share is
 * below PIN_BUSY_SHARE (of all when none is): where the cores are alike,
 * the same CPU on every run (the CPU a process happens to start on is
 * not), and away from CPU 0, where Linux delivers most device interrupts
 * and housekeeping work by default; where they are not (a hybrid CPU's
 * efficiency cores, big.LITTLE, a busy SMT sibling, in a VM another
 * tenant's), a fast one. With no reading at all, the highest. */
unsigned pin_pick(const struct pin_probe *p, unsigned n);

/* How long a CPU is settled before it is timed, for a thread that waited
 * waited_ns runnable since it last ran: as long, up to 20 ms (pin.c says
 * why: the scheduler lets a thread that waited run first on the next CPU). */
uint64_t pin_settle_ns(uint64_t waited_ns);

/* The probes of the last default choice (none after an asked one or with
 * one CPU allowed), for the report. */
const struct pin_probe *pin_probes(unsigned *n);

/* CPUs timed again before each measuring process after the first, at
 * most: on 2-8 CPUs every one, on a large machine the fastest of the first
 * choice (at 1 ms a CPU, 20 processes on 256 CPUs would have spent 5 s
 * choosing). */
#define PIN_AGAIN_MAX 8

/* After a default choice among several CPUs, the same choice made again
 * now among pin_again_list's CPUs (for the next measuring process: a CPU
 * that another program or a host's SMT neighbour took meanwhile is left);
 * pin_probes keeps the first choice's readings. -1 when the CPU was asked
 * for or the only one. */
int pin_choose_again(void);

/* Of the first choice's n probes (in increasing CPU order), those to time
 * again, into out (room for PIN_AGAIN_MAX), in increasing CPU order, their
 * readings cleared: all of them when n <= PIN_AGAIN_MAX; else the
 * PIN_AGAIN_MAX that pin_pick would rank first (free before busy, then
 * the fastest, then the highest-numbered). Returns how many. */
unsigned pin_again_list(const struct pin_probe *first, unsigned n, struct pin_probe *out);

/* Restricts the process to cpu; an error if it does not exist or is not allowed. */
int pin_to_cpu(int cpu, struct kb_err *err);

/* The CPUs of set as the kernel lists them ("0-1,4"), cut with "..."
 * where buf is too short; returns buf. */
const char *pin_cpus_text(const cpu_set_t *set, char *buf, size_t size);

/* Moves the process off cpu, onto the other CPUs pin_choose found allowed
 * (none: it stays): the ksmbench that waits for its measuring processes
 * does not wake on the CPU they measure on. */
void pin_away_from(int cpu);

#endif
