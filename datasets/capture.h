/* Capturing a live process's memory as an ELF core: its private anonymous
 * mappings (with `all`, every readable mapping), only the pages present in
 * memory according to /proc/PID/pagemap, read with process_vm_readv (the
 * target is never written to or stopped). */
#ifndef KB_CAPTURE_H
#define KB_CAPTURE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "../common/err.h"

struct capture_stats {
	uint64_t mappings;      /* captured */
	uint64_t segments;      /* PT_LOAD headers written */
	uint64_t pages_present; /* written with their bytes */
	uint64_t pages_absent;  /* never touched or swapped out: p_memsz only */
	uint64_t pages_vanished; /* present, then unmapped before their bytes were read: zeros */
	uint64_t bytes;         /* of the file */
};

/* Writes the core to out front to back (a file, a pipe, standard output):
 * the headers first, then the data. Each mapping becomes PT_LOADs at
 * p_vaddr = its address (p_paddr 0): a run of present pages is file data,
 * a following run of absent pages extends p_memsz past p_filesz, so a
 * reader counts them as holes, not as zero pages. Which pages are present
 * is decided before any is read: a page the running process unmaps
 * meanwhile is written as zeros and counted in pages_vanished (stop the
 * process first for a consistent image). */
#define CAPTURE_ALL 1       /* file-backed and shared mappings too */
#define CAPTURE_MERGEABLE 2 /* only mappings KSM may merge (VmFlags "mg") */

/* all: CAPTURE_* flags. */
int capture_process(pid_t pid, int all, FILE *out, struct capture_stats *stats, struct kb_err *err);

/* Why this process may not read pid's memory, as one phrase (ownership,
 * Yama ptrace_scope, CAP_SYS_PTRACE, dumpability). */
void capture_permission_cause(pid_t pid, char *buf, size_t len);

#endif
