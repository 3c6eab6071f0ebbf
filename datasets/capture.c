/* Process capture (see capture.h): the layout first (the mappings and,
 * from the page map, which of their pages are present and what KSM sees of
 * them), so that the ELF header, the program headers and the notes are
 * written before the data; then the present pages, read with
 * process_vm_readv (with two snapshots: read twice, interval apart, their
 * hashes compared, then read a last time to be written). The file is
 * written front to back: it can go to a pipe. */
#include "capture.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "../common/kernel_timer.h"
#include "../common/monotonic.h"
#include "capture_note.h"
#include "file_input.h"
#include "../common/grow.h"

/* Remote ranges (segments, or their parts) in one batch's read: well
 * under IOV_MAX (1024). */
#define CAPTURE_BATCH_RANGES 128u

#if defined(__x86_64__)
#define CAP_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define CAP_MACHINE EM_AARCH64
#elif defined(__powerpc64__)
#define CAP_MACHINE EM_PPC64
#elif defined(__s390x__)
#define CAP_MACHINE EM_S390
#elif defined(__riscv)
#define CAP_MACHINE EM_RISCV
#else
#define CAP_MACHINE EM_NONE
#endif

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

static long read_proc_number(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[256];
	long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!key) {
			v = strtol(line, NULL, 10);
			break;
		}
		if (strncmp(line, key, strlen(key)) == 0) {
			v = strtol(line + strlen(key), NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* Why this process may not read pid's memory, as one phrase (ownership,
 * Yama ptrace_scope, CAP_SYS_PTRACE, dumpability). */
static void capture_permission_cause(pid_t pid, char *buf, size_t len)
{
	char path[64];
	int cap = capture_has_cap_sys_ptrace();

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	long uid = read_proc_number(path, "Uid:");
	long scope = read_proc_number("/proc/sys/kernel/yama/ptrace_scope", NULL);
	uid_t me = geteuid();

	if (uid >= 0 && (uid_t)uid != me && !cap)
		snprintf(buf, len, "process %d belongs to another user (uid %ld, you are uid %u) and you "
			 "lack CAP_SYS_PTRACE: run as that user or as root", (int)pid, uid, (unsigned)me);
	else if (scope == 3)
		snprintf(buf, len, "Yama ptrace_scope is 3: no process may read another's memory "
			 "until reboot");
	else if (scope == 2 && !cap)
		snprintf(buf, len, "Yama ptrace_scope is 2: only a process with CAP_SYS_PTRACE may "
			 "read another's memory (run as root)");
	else if (scope == 1 && !cap)
		snprintf(buf, len, "Yama ptrace_scope is 1: only an ancestor may read a process's "
			 "memory (run as root, or sysctl kernel.yama.ptrace_scope=0)");
	else
		snprintf(buf, len, "process %d is not dumpable (setuid or PR_SET_DUMPABLE 0) or a "
			 "security module forbids reading it", (int)pid);
}

static int fail_access(pid_t pid, int e, const char *what, struct kb_err *err)
{
	char cause[256];

	if (e == ESRCH || e == ENOENT) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if (access(path, F_OK) == 0)
			return kb_fail(err, "PID %d has no user memory to read (a kernel thread, or a process that "
					    "is exiting)", (int)pid);
		return kb_fail(err, "no process with PID %d", (int)pid);
	}
	if (e != EACCES && e != EPERM)
		return kb_fail_errno(err, e, "cannot read %s of process %d", what, (int)pid);
	capture_permission_cause(pid, cause, sizeof(cause));
	return kb_fail(err, "permission denied reading %s of process %d: %s", what, (int)pid, cause);
}

/* Appends at the end of what was written (file_off). */
static int append(struct cap_state *c, const void *data, size_t len, struct kb_err *err)
{
	if (len && fwrite(data, 1, len, c->out) != len)
		return kb_fail_errno(err, errno, "cannot write the core file");
	c->file_off += len;
	return 0;
}

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
	c->info[c->ninfo++] = word & ~(CAPTURE_PRESENT | CAPTURE_ZERO_MAPPED);
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

/* The first pass over a mapping: which pages are present, from the page
 * map alone (nothing of the memory is read yet). */
static int layout_mapping(struct cap_state *c, uint64_t start, uint64_t end, uint32_t flags, int mergeable,
			  struct kb_err *err)
{
	uint64_t ps = c->page_size;

	c->open_seg = 0;
	for (uint64_t at = start; at < end; ) {
		size_t n = (end - at) / ps < CAPTURE_BATCH_PAGES ? (size_t)((end - at) / ps) : CAPTURE_BATCH_PAGES;
		if (capture_pagemap_read(&c->pm, at, n, ps, c->words))
			return fail_access(c->pid, errno, "the page map", err);
		for (size_t i = 0; i < n; i++)
			if (add_page(c, at + i * ps, flags,
				     c->words[i] | (mergeable && (c->words[i] & CAPTURE_PRESENT) ? KB_PAGE_MERGEABLE : 0), err))
				return -1;
		at += n * ps;
	}
	c->stats->mappings++;
	return 0;
}

/* The n pages of the remote ranges into c->buf: one call for the batch,
 * then page by page when something was unmapped meanwhile; a page that no
 * longer reads is zeros, and counted as vanished when count_vanished. */
static int read_pages(struct cap_state *c, const struct iovec *remote, size_t nremote, size_t n, int count_vanished,
		      struct kb_err *err)
{
	uint64_t ps = c->page_size;
	struct iovec local = { c->buf, n * ps };
	ssize_t rd = process_vm_readv(c->pid, &local, 1, remote, nremote, 0);

	if (rd < 0 && (errno == EPERM || errno == ESRCH))
		return fail_access(c->pid, errno, "the memory", err);
	if (rd == (ssize_t)(n * ps))
		return 0;
	unsigned char *to = c->buf;
	for (size_t r = 0; r < nremote; r++)
		for (size_t off = 0; off < remote[r].iov_len; off += ps, to += ps) {
			struct iovec l1 = { to, ps }, r1 = { (char *)remote[r].iov_base + off, ps };
			ssize_t one = process_vm_readv(c->pid, &l1, 1, &r1, 1, 0);
			if (one < 0 && (errno == EPERM || errno == ESRCH))
				return fail_access(c->pid, errno, "the memory", err);
			if (one != (ssize_t)ps) {
				memset(to, 0, ps);
				c->stats->pages_vanished += count_vanished;
			}
		}
	return 0;
}

enum cap_pass { PASS_HASH, PASS_COMPARE, PASS_WRITE };

/* The bytes of a batch of n present pages, the first of them the index-th. */
static int pass_batch(struct cap_state *c, enum cap_pass pass, size_t index, size_t n, struct kb_err *err)
{
	uint64_t ps = c->page_size;

	if (pass == PASS_WRITE)
		return append(c, c->buf, n * ps, err);
	for (size_t i = 0; i < n; i++) {
		uint64_t h = XXH3_64bits(c->buf + i * ps, ps);
		if (pass == PASS_HASH) {
			c->hashes[index + i] = h;
		} else if (h != c->hashes[index + i]) {
			c->info[index + i] |= KB_PAGE_VOLATILE;
			c->stats->pages_volatile++;
		}
	}
	return 0;
}

/* A batch of n present pages, the first of them the index-th, from its
 * remote ranges. */
static int do_batch(struct cap_state *c, enum cap_pass pass, const struct iovec *remote, size_t nremote,
		    size_t index, size_t n, struct kb_err *err)
{
	return read_pages(c, remote, nremote, n, pass == PASS_WRITE, err) || pass_batch(c, pass, index, n, err) ? -1 : 0;
}

/* Every segment's present pages, in file order, in batches of
 * CAPTURE_BATCH_PAGES that run across segments: a process has thousands of
 * segments of a few pages (one per run of present pages), and a read and
 * two writes per segment were most of a capture's system calls (docs/capture.md). */
static int read_all(struct cap_state *c, enum cap_pass pass, struct kb_err *err)
{
	struct iovec remote[CAPTURE_BATCH_RANGES];
	size_t index = 0, n = 0, nremote = 0;

	for (size_t k = 1; k < c->nphdrs; k++) {
		const Elf64_Phdr *p = &c->phdrs[k];
		for (uint64_t done = 0; done < p->p_filesz;) {
			uint64_t left = (p->p_filesz - done) / c->page_size;
			size_t take = left < CAPTURE_BATCH_PAGES - n ? (size_t)left : CAPTURE_BATCH_PAGES - n;
			remote[nremote++] = (struct iovec){ (void *)(uintptr_t)(p->p_vaddr + done), take * c->page_size };
			n += take;
			done += take * c->page_size;
			if (n < CAPTURE_BATCH_PAGES && nremote < CAPTURE_BATCH_RANGES)
				continue;
			if (do_batch(c, pass, remote, nremote, index, n, err))
				return -1;
			index += n;
			n = nremote = 0;
		}
	}
	return n ? do_batch(c, pass, remote, nremote, index, n, err) : 0;
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

/* The two notes' bytes: system text, then the page note's header and
 * entries. */
static uint64_t notes_size(const struct cap_state *c)
{
	return capture_note_encode(KB_NOTE_SYSTEM, c->system, c->system_len, NULL, 0) +
	       capture_note_encode(KB_NOTE_PAGES, NULL, 0, NULL, 0) + KB_NOTE_PAGES_HEADER + 8 * (uint64_t)c->ninfo;
}

static int write_notes(struct cap_state *c, uint32_t flags, uint64_t interval_ns, struct kb_err *err)
{
	unsigned char head[64], sys[KB_NOTE_SYSTEM_MAX + 64];
	uint64_t desc_len = KB_NOTE_PAGES_HEADER + 8 * (uint64_t)c->ninfo;
	uint32_t h32[4] = { KB_NOTE_PAGES_VERSION, flags, (uint32_t)c->page_size, 0 };
	uint64_t h64[3] = { c->ninfo, c->stats->zero_page_mapped, interval_ns };
	size_t n = capture_note_encode(KB_NOTE_SYSTEM, c->system, c->system_len, sys, sizeof(sys));

	if (append(c, sys, n, err))
		return -1;
	n = capture_note_encode(KB_NOTE_PAGES, NULL, (size_t)desc_len, head, sizeof(head));
	/* Entries are 8 bytes and the header 40: the descriptor needs no padding. */
	return append(c, head, n, err) || append(c, h32, sizeof(h32), err) || append(c, h64, sizeof(h64), err) ||
	       append(c, c->info, c->ninfo * 8, err);
}

/* The ELF header, the program header table (in section header 0's sh_info
 * when there are PN_XNUM or more; the PT_NOTE first) and the notes, first:
 * the data's place is known from the layout, so the core can be written to
 * a pipe. The data starts on a page boundary, as in the kernel's cores. */
static int write_headers(struct cap_state *c, uint32_t note_flags, uint64_t interval_ns, struct kb_err *err)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	int xnum = c->nphdrs >= PN_XNUM;
	uint64_t table = (uint64_t)c->nphdrs * sizeof(Elf64_Phdr);
	uint64_t shoff = sizeof(eh) + table, note_off = shoff + (xnum ? sizeof(sh) : 0);
	uint64_t note_len = notes_size(c), data = note_off + note_len;

	if (KB_NOTE_PAGES_HEADER + 8 * (uint64_t)c->ninfo > UINT32_MAX)
		return kb_fail(err, "%zu present pages do not fit in one ELF note", c->ninfo);
	data = (data + c->page_size - 1) / c->page_size * c->page_size;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = *(const unsigned char *)&(uint16_t){ 1 } ? ELFDATA2LSB : ELFDATA2MSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = CAP_MACHINE;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(Elf64_Ehdr);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = xnum ? PN_XNUM : (Elf64_Half)c->nphdrs;
	if (xnum) {
		memset(&sh, 0, sizeof(sh));
		sh.sh_info = (Elf64_Word)c->nphdrs;
		eh.e_shoff = shoff;
		eh.e_shentsize = sizeof(Elf64_Shdr);
		eh.e_shnum = 1;
	}
	c->phdrs[0].p_offset = note_off;
	c->phdrs[0].p_filesz = note_len;
	uint64_t off = data;
	for (size_t k = 1; k < c->nphdrs; k++) {
		c->phdrs[k].p_offset = off;
		off += c->phdrs[k].p_filesz;
	}
	c->stats->bytes = off;
	if (append(c, &eh, sizeof(eh), err) || append(c, c->phdrs, (size_t)table, err) ||
	    (xnum && append(c, &sh, sizeof(sh), err)) || write_notes(c, note_flags, interval_ns, err))
		return -1;
	static const unsigned char zeros[256];
	while (c->file_off < data)
		if (append(c, zeros, data - c->file_off < sizeof(zeros) ? (size_t)(data - c->file_off) : sizeof(zeros), err))
			return -1;
	return 0;
}

/* The start addresses of the mappings KSM may merge: VmFlags "mg" in
 * /proc/PID/smaps (madvise(MADV_MERGEABLE), or prctl(PR_SET_MEMORY_MERGE)). */
static int mergeable_starts(pid_t pid, uint64_t **starts, size_t *n, struct kb_err *err)
{
	char path[64], line[4096];
	size_t cap = 0;
	uint64_t cur = 0;

	*starts = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return fail_access(pid, errno, "the mappings", err);
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " ", &start, &end) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			cur = start;
			continue;
		}
		if (strncmp(line, "VmFlags:", 8) != 0 || !strstr(line, " mg"))
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

	while (fgets(line, sizeof(line), maps)) {
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
	return any ? 0 : fail_access(c->pid, EACCES, "the mappings", err);
}

/* The layout of one process: its mappings, its page words, the system text. */
static int layout_process(struct cap_state *c, int all, struct kb_err *err)
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
		return fail_access(c->pid, errno, "the mappings", err);
	/* Which mappings KSM may merge, for every capture (the page words say it
	 * of each page); needed with --mergeable, else known where smaps reads. */
	if (mergeable_starts(c->pid, &merge_starts, &nmerge, err) == 0)
		c->stats->mergeable_known = 1;
	else if (all & CAPTURE_MERGEABLE)
		goto out;
	if (capture_pagemap_open(c->pid, &c->pm)) {
		fail_access(c->pid, errno, "the page map", err);
		goto out;
	}
	c->stats->pfn_known = c->pm.kpageflags_fd >= 0;
	if (!(c->buf = file_input_buffer(CAPTURE_BATCH_PAGES * c->page_size))) {
		kb_fail(err, "out of memory");
		goto out;
	}
	/* phdrs[0]: the PT_NOTE, placed by write_headers */
	if (!new_phdr(c, 0, 0, err))
		goto out;
	c->phdrs[0].p_type = PT_NOTE;
	c->phdrs[0].p_align = 4;
	c->stats->segments--;
	if (layout_maps(c, maps, all, merge_starts, nmerge, err))
		goto out;
	c->system_len = capture_system_text(c->system, sizeof(c->system));
	rc = 0;
out:
	fclose(maps);
	free(merge_starts);
	return rc;
}

static void state_free(struct cap_state *c)
{
	if (!c)
		return;
	capture_pagemap_close(&c->pm);
	free(c->buf);
	free(c->phdrs);
	free(c->info);
	free(c->hashes);
	free(c);
}

static long ksm_setting(const char *name)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/kernel/mm/ksm/%s", name);
	return read_proc_number(path, NULL);
}

/* One full KSM scan of every captured page: pages / pages_to_scan + 1
 * batches (the call that finds the scan's end ends a batch of its own, as
 * ksm_scan_batches() in scan/ksm_model.h says), each ksmd's period at
 * sleep_millisecs and this kernel's HZ (the checksumming time is left out). */
static void choose_interval(struct capture_job *jobs, size_t n, const struct capture_options *o,
			    struct capture_interval *iv)
{
	for (size_t i = 0; i < n; i++)
		iv->pages += jobs[i].state->ninfo;
	iv->ns = o->interval_ns;
	if (o->interval_ns)
		return;
	iv->automatic = 1;
	iv->pages_to_scan = ksm_setting("pages_to_scan");
	iv->sleep_ms = ksm_setting("sleep_millisecs");
	if (iv->pages_to_scan < 1)
		iv->pages_to_scan = 100;
	if (iv->sleep_ms < 0)
		iv->sleep_ms = 20;
	struct ksmd_schedule k = ksmd_schedule_running((unsigned)iv->pages_to_scan, (unsigned)iv->sleep_ms);
	iv->hz = k.hz;
	uint64_t batches = iv->pages / (uint64_t)iv->pages_to_scan + 1;
	iv->ns = batches * (uint64_t)ksmd_batch_period_ns(&k, 0);
	if (iv->ns < CAPTURE_INTERVAL_MIN_NS || iv->ns > CAPTURE_INTERVAL_MAX_NS) {
		iv->ns = iv->ns < CAPTURE_INTERVAL_MIN_NS ? CAPTURE_INTERVAL_MIN_NS : CAPTURE_INTERVAL_MAX_NS;
		iv->clamped = 1;
	}
}

/* The first snapshot of every process, the interval, the second. */
static int two_snapshots(struct capture_job *jobs, size_t n, const struct capture_options *o,
			 struct capture_interval *iv, struct kb_err *err)
{
	for (size_t i = 0; i < n; i++) {
		struct cap_state *c = jobs[i].state;
		if (!(c->hashes = malloc((c->ninfo ? c->ninfo : 1) * sizeof(*c->hashes))))
			return kb_fail(err, "out of memory for the hashes of %zu pages", c->ninfo);
	}
	choose_interval(jobs, n, o, iv);
	uint64_t t0 = clock_now_ns();
	for (size_t i = 0; i < n; i++)
		if (read_all(jobs[i].state, PASS_HASH, err))
			return -1;
	uint64_t spent = clock_now_ns() - t0;
	if (spent < iv->ns)
		clock_sleep_ns(iv->ns - spent);
	for (size_t i = 0; i < n; i++)
		if (read_all(jobs[i].state, PASS_COMPARE, err))
			return -1;
	return 0;
}

static int write_core(struct capture_job *job, const struct capture_options *o, uint64_t interval_ns,
		      struct kb_err *err)
{
	struct cap_state *c = job->state;
	uint32_t flags = (c->pm.pfn_known ? KB_PAGES_PFN_KNOWN : 0) |
			 (c->pm.kpageflags_fd >= 0 ? KB_PAGES_KPAGEFLAGS_KNOWN : 0) |
			 (o->snapshots == 2 ? KB_PAGES_INTERVAL : 0) |
			 (c->stats->mergeable_known ? KB_PAGES_MERGEABLE_KNOWN : 0);

	if (write_headers(c, flags, o->snapshots == 2 ? interval_ns : 0, err) || read_all(c, PASS_WRITE, err))
		return -1;
	return fflush(c->out) == 0 ? 0 : kb_fail_errno(err, errno, "cannot write the core file");
}

int capture_processes(struct capture_job *jobs, size_t n, const struct capture_options *o,
		      struct capture_interval *iv, struct kb_err *err)
{
	int rc = -1;

	memset(iv, 0, sizeof(*iv));
	for (size_t i = 0; i < n; i++)
		jobs[i].state = NULL;
	for (size_t i = 0; i < n; i++) {
		struct cap_state *c = calloc(1, sizeof(*c));
		if (!c) {
			kb_fail(err, "out of memory");
			goto out;
		}
		memset(&jobs[i].stats, 0, sizeof(jobs[i].stats));
		c->pid = jobs[i].pid;
		c->out = jobs[i].out;
		c->stats = &jobs[i].stats;
		c->pm.pagemap_fd = c->pm.kpageflags_fd = -1;
		jobs[i].state = c;
		if (layout_process(c, o->flags, err))
			goto out;
	}
	if (o->snapshots == 2 && two_snapshots(jobs, n, o, iv, err))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (write_core(&jobs[i], o, iv->ns, err))
			goto out;
	rc = 0;
out:
	for (size_t i = 0; i < n; i++) {
		state_free(jobs[i].state);
		jobs[i].state = NULL;
	}
	return rc;
}
