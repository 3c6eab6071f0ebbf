/* The layout of a process's core (see capture_state.h): its mappings from
 * /proc/PID/maps (the mergeable ones from /proc/PID/smaps's VmFlags), and
 * from the page map which of their pages are present and what KSM sees of
 * them, as PT_LOAD program headers and one page word per present page;
 * nothing of the memory is read yet. */
#include "capture_state.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/grow.h"
#include "../common/line_read.h"
#include "file_input.h"

static Elf64_Phdr *new_phdr(struct cap_state *c, uint64_t vaddr, uint32_t flags, struct kb_err *err)
{
	Elf64_Phdr *phdrs = kb_grow(c->phdrs, &c->cap, c->nphdrs + 1, sizeof(*phdrs), 64);
	if (!phdrs)
		return kb_fail(err, "out of memory for %zu segments", c->nphdrs + 1), NULL;
	c->phdrs = phdrs;
	Elf64_Phdr *p = &c->phdrs[c->nphdrs++];
	memset(p, 0, sizeof(*p));
	p->p_type = PT_LOAD;
	p->p_flags = flags;
	p->p_vaddr = vaddr;
	p->p_align = c->page_size;
	c->stats->segments++;
	return p;
}

static int keep_info(struct cap_state *c, uint64_t word, struct kb_err *err)
{
	uint64_t *info = kb_grow(c->info, &c->info_cap, c->ninfo + 1, sizeof(*info), 4096);
	if (!info)
		return kb_fail(err, "out of memory for the page note of %zu pages", c->ninfo + 1);
	c->info = info;
	c->info[c->ninfo++] = word & ~(CAPTURE_PRESENT | CAPTURE_ZERO_MAPPED | CAPTURE_FILE_PAGE);
	c->stats->pages_thp += (word & KB_PAGE_THP) != 0;
	c->stats->pages_ksm += (word & KB_PAGE_KSM) != 0;
	c->stats->pages_mergeable += (word & KB_PAGE_MERGEABLE) != 0;
	return 0;
}

/* One page at vaddr in the layout: present (its bytes will be written) or
 * absent (p_memsz only); a page mapping the zero page counts as absent:
 * KSM never scans it and it uses no memory of its own. */
static int add_page(struct cap_state *c, uint64_t vaddr, uint32_t flags, uint64_t word, struct kb_err *err)
{
	Elf64_Phdr *p = c->open_seg ? &c->phdrs[c->nphdrs - 1] : NULL;
	int present = (word & CAPTURE_PRESENT) != 0;

	/* Data may only extend a segment that has no absent tail yet. */
	if (!p || (present && p->p_memsz != p->p_filesz)) {
		if (!(p = new_phdr(c, vaddr, flags, err)))
			return -1;
		c->open_seg = 1;
	}
	if (present) {
		if (keep_info(c, word, err))
			return -1;
		p->p_filesz += c->page_size;
		c->stats->pages_present++;
	} else if (word & CAPTURE_ZERO_MAPPED) {
		c->stats->zero_page_mapped++;
	} else {
		c->stats->pages_absent++;
	}
	p->p_memsz += c->page_size;
	return 0;
}

/* n absent pages from vaddr (n >= 1): as many add_page calls would do. */
static int add_absent(struct cap_state *c, uint64_t vaddr, uint64_t n, uint32_t flags, struct kb_err *err)
{
	if (add_page(c, vaddr, flags, 0, err))
		return -1;
	c->phdrs[c->nphdrs - 1].p_memsz += (n - 1) * c->page_size;
	c->stats->pages_absent += n - 1;
	return 0;
}

/* The first pass over a mapping: which pages are present, from the page
 * map alone (nothing of the memory is read yet); runs of absent pages
 * skipped where the kernel can say where they end. */
static int layout_mapping(struct cap_state *c, uint64_t start, uint64_t end, uint32_t flags, int mergeable,
			  struct kb_err *err)
{
	uint64_t ps = c->page_size;

	c->open_seg = 0;
	for (uint64_t at = start; at < end; ) {
		uint64_t next = capture_pagemap_next_present(&c->pm, at, end);
		if (next > at) {
			if (add_absent(c, at, (next - at) / ps, flags, err))
				return -1;
			at = next;
			continue;
		}
		size_t n = (end - at) / ps < CAPTURE_BATCH_PAGES ? (size_t)((end - at) / ps) : CAPTURE_BATCH_PAGES;
		if (capture_pagemap_read(&c->pm, at, n, ps, c->words))
			return capture_fail_access(c->pid, errno, "the page map", err);
		for (size_t i = 0; i < n; i++) {
			uint64_t w = c->words[i];
			if (mergeable && (w & CAPTURE_PRESENT) && !(w & CAPTURE_FILE_PAGE))
				w |= KB_PAGE_MERGEABLE;
			if (add_page(c, at + i * ps, flags, w, err))
				return -1;
		}
		at += n * ps;
	}
	c->stats->mappings++;
	return 0;
}

/* Private anonymous: no file behind it, copy-on-write, not a kernel
 * special mapping. --all: anything readable but those specials. */
static int mapping_wanted(const char *perms, unsigned long inode, const char *name, int all)
{
	if (perms[0] != 'r')
		return 0;
	if (strcmp(name, "[vvar]") == 0 || strcmp(name, "[vsyscall]") == 0 ||
	    strcmp(name, "[vvar_vclock]") == 0 || strcmp(name, "[vdso]") == 0)
		return 0;
	if (all)
		return 1;
	if (perms[3] != 'p' || inode != 0)
		return 0;
	return name[0] == '\0' || strcmp(name, "[heap]") == 0 || strncmp(name, "[stack", 6) == 0 ||
	       strncmp(name, "[anon:", 6) == 0;
}

/* The start addresses of the mappings KSM may merge: VmFlags "mg" in
 * /proc/PID/smaps (madvise(MADV_MERGEABLE), or prctl(PR_SET_MEMORY_MERGE)).
 * *known: smaps had VmFlags lines (3.8 on), so that no "mg" means none. */
static int mergeable_starts(pid_t pid, uint64_t **starts, size_t *n, int *known, struct kb_err *err)
{
	char path[64], line[4096];
	size_t cap = 0;
	uint64_t cur = 0;

	*starts = NULL;
	*n = 0;
	*known = 0;
	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return capture_fail_access(pid, errno, "the mappings", err);
	while (kb_read_line(f, line, sizeof(line))) {
		uint64_t start, end;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " ", &start, &end) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			cur = start;
			continue;
		}
		if (strncmp(line, "VmFlags:", 8) != 0)
			continue;
		*known = 1;
		if (!strstr(line, " mg"))
			continue;
		uint64_t *v = kb_grow(*starts, &cap, *n + 1, sizeof(*v), 16);
		if (!v) {
			fclose(f);
			return kb_fail(err, "out of memory");
		}
		*starts = v;
		(*starts)[(*n)++] = cur;
	}
	fclose(f);
	return 0;
}

static int in_list(const uint64_t *v, size_t n, uint64_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static int layout_maps(struct cap_state *c, FILE *maps, int all, const uint64_t *merge_starts, size_t nmerge,
		       struct kb_err *err)
{
	char line[4096];
	int any = 0;

	while (kb_read_line(maps, line, sizeof(line))) {
		uint64_t start, end;
		char perms[8] = "";
		unsigned long inode = 0;
		int name_at = 0;
		any = 1;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %*s %*s %lu %n", &start, &end, perms, &inode,
			   &name_at) < 4)
			continue;
		char *name = line + name_at;
		name[strcspn(name, "\n")] = '\0';
		if (!mapping_wanted(perms, inode, name, all & CAPTURE_ALL) || end <= start)
			continue;
		int mergeable = in_list(merge_starts, nmerge, start);
		if ((all & CAPTURE_MERGEABLE) && !mergeable)
			continue;
		uint32_t flags = (perms[0] == 'r' ? PF_R : 0) | (perms[1] == 'w' ? PF_W : 0) |
				 (perms[2] == 'x' ? PF_X : 0);
		if (layout_mapping(c, start, end, flags, mergeable, err))
			return -1;
	}
	/* maps of another user's process opens but reads empty */
	return any ? 0 : capture_fail_access(c->pid, EACCES, "the mappings", err);
}

/* The layout of one process: its mappings, its page words, the system text. */
int capture_layout_process(struct cap_state *c, int all, struct kb_err *err)
{
	uint64_t *merge_starts = NULL;
	size_t nmerge = 0;
	char path[64];
	FILE *maps;
	int rc = -1;

	c->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	if (c->pid <= 0)
		return kb_fail(err, "bad PID %d", (int)c->pid);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)c->pid);
	if (!(maps = fopen(path, "r")))
		return capture_fail_access(c->pid, errno, "the mappings", err);
	/* Which mappings KSM may merge, for every capture (the page words say it
	 * of each page); needed with --mergeable, else known where smaps reads. */
	int known = 0;
	if (mergeable_starts(c->pid, &merge_starts, &nmerge, &known, err) == 0)
		c->stats->mergeable_known = known;
	else if (all & CAPTURE_MERGEABLE)
		goto out;
	if (!known && (all & CAPTURE_MERGEABLE)) {
		kb_fail(err, "process %d: /proc/%d/smaps says nothing of which mappings KSM may merge (no VmFlags: "
			     "a kernel before 3.8), so --mergeable cannot choose them", (int)c->pid, (int)c->pid);
		goto out;
	}
	if (capture_pagemap_open(c->pid, &c->pm)) {
		capture_fail_access(c->pid, errno, "the page map", err);
		goto out;
	}
	c->stats->pfn_known = c->pm.kpageflags_fd >= 0;
	if (all & CAPTURE_PAGE_WORDS_ONLY)
		c->pm.scan_missing = 1;
	if (!(c->buf = file_input_buffer(CAPTURE_BATCH_PAGES * c->page_size))) {
		kb_fail(err, "out of memory");
		goto out;
	}
	/* phdrs[0]: the PT_NOTE, placed by capture_write_headers */
	if (!new_phdr(c, 0, 0, err))
		goto out;
	c->phdrs[0].p_type = PT_NOTE;
	c->phdrs[0].p_align = 4;
	c->stats->segments--;
	if (layout_maps(c, maps, all, merge_starts, nmerge, err))
		goto out;
	rc = 0;
out:
	fclose(maps);
	free(merge_starts);
	return rc;
}
