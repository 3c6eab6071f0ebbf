/* The state of one process's capture (capture_job.state), shared by the
 * files that make up capture_processes: capture.c (the jobs, the interval,
 * each core in turn), capture_layout.c (the mappings and their pages),
 * capture_memory.c (the pages' bytes), capture_elf.c (the core's headers
 * and notes) and capture_access.c (why a process cannot be read). Nothing
 * outside datasets/capture*.c includes it. */
#ifndef KB_CAPTURE_STATE_H
#define KB_CAPTURE_STATE_H

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "capture.h"
#include "capture_note.h"

struct cap_state {
	pid_t pid;
	FILE *out;
	struct capture_pagemap pm;
	uint64_t page_size;
	uint64_t file_off;
	Elf64_Phdr *phdrs; /* phdrs[0] is the PT_NOTE */
	size_t nphdrs, cap;
	int open_seg;  /* the last phdr can still grow */
	unsigned char *buf;
	uint64_t *info;   /* KB_PAGE_* | PFN of every present page, in file order */
	uint64_t *hashes; /* the first snapshot's, per present page */
	size_t ninfo, info_cap;
	uint64_t words[CAPTURE_BATCH_PAGES];
	char system[KB_NOTE_SYSTEM_MAX];
	size_t system_len;
	struct capture_stats *stats;
};

/* The passes over the present pages' bytes (capture_read_all): the first
 * snapshot's hashes, the second compared with them, the bytes written. */
enum cap_pass { PASS_HASH, PASS_COMPARE, PASS_WRITE };

/* capture_layout.c: the layout of one process, its mappings, its page words,
 * the system text. */
int capture_layout_process(struct cap_state *c, int all, struct kb_err *err);

/* capture_memory.c: every segment's present pages, in file order, for the
 * pass. */
int capture_read_all(struct cap_state *c, enum cap_pass pass, struct kb_err *err);

/* capture_elf.c: appends at the end of what was written (file_off). */
int capture_append(struct cap_state *c, const void *data, size_t len, struct kb_err *err);
/* capture_elf.c: the ELF header, the program headers and the notes, then
 * the padding to the data's page boundary. */
int capture_write_headers(struct cap_state *c, uint32_t note_flags, uint64_t interval_ns, struct kb_err *err);

/* capture_access.c: the number after key on the first line of the file at
 * path that starts with it (key NULL: the first line's number); -1 if none. */
long capture_read_number(const char *path, const char *key);
/* capture_access.c: the error for errno e reading what (the page map, the
 * memory, the mappings) of process pid, naming the cause of a refusal;
 * returns -1. */
int capture_fail_access(pid_t pid, int e, const char *what, struct kb_err *err);

#endif
