/* Sampling ksmd's CPU with perf_event_open: cycles where the machine has a
 * PMU, else the software cpu-clock; every sampled kernel address named
 * through /proc/kallsyms and put in one of the parts of KSM's work. With
 * ksmd's CPU time (/proc/PID/schedstat) and the pages it scanned and the
 * full scans it finished in the window (/sys/kernel/mm/ksm). */
#ifndef KB_KSMD_PROFILE_H
#define KB_KSMD_PROFILE_H

#include <stdint.h>
#include <sys/types.h>

#include "../common/err.h"

enum ksmd_part { KSMD_CHECKSUM, KSMD_MEMCMP, KSMD_TREE, KSMD_REST, KSMD_PARTS };

#define KSMD_TOP_SYMBOLS 8

struct ksmd_symbol {
	char name[64];
	uint64_t samples;
};

struct ksmd_profile {
	pid_t pid;
	const char *event;        /* "cycles" or "cpu-clock" */
	uint64_t window_ns, cpu_ns;
	uint64_t samples, lost, unnamed;
	uint64_t part_samples[KSMD_PARTS];
	uint64_t pages_scanned, full_scans;
	int scanned_known; /* pages_scanned read (the file came in Linux 6.6) */
	double pages_checksummed; /* of them (ksm_checksummed_per_s over the window); with scanned_known */
	long pages_to_scan, sleep_ms;
	struct ksmd_symbol top[KSMD_TOP_SYMBOLS];
	unsigned ntop;
};

const char *ksmd_part_name(enum ksmd_part p);

/* The part of KSM's work a kernel symbol belongs to, by its exact name
 * (NULL, an address no symbol names: the rest). */
enum ksmd_part ksmd_part_of(const char *symbol);

/* Samples ksmd for window_ns. ksm_dir: /sys/kernel/mm/ksm; kallsyms: its
 * path, and kallsyms_name what messages call it (kallsyms_load). Clear
 * errors without root, without ksmd, with hidden symbols. */
int ksmd_profile_run(uint64_t window_ns, const char *ksm_dir, const char *kallsyms, const char *kallsyms_name,
		     struct ksmd_profile *p, struct kb_err *err);

#endif
