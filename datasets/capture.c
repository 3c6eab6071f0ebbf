/* Process capture (see capture.h), in two passes: the layout first (the
 * mappings and, from the page map, which of their pages are present), so
 * that the ELF header and program headers are written before the data;
 * then the present pages, read with process_vm_readv. The file is written
 * front to back: it can go to a pipe. */
#include "capture.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* pagemap entries read at once, and the largest process_vm_readv. */
#define CAP_BATCH_PAGES 512u

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
	int pagemap_fd;
	uint64_t page_size;
	uint64_t file_off;
	Elf64_Phdr *phdrs;
	size_t nphdrs, cap;
	int open_seg;  /* the last phdr can still grow */
	unsigned char *buf;
	uint64_t entries[CAP_BATCH_PAGES];
	struct capture_stats *stats;
};

static int has_cap_sys_ptrace(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long caps = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return (caps >> 19) & 1; /* CAP_SYS_PTRACE */
}

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

void capture_permission_cause(pid_t pid, char *buf, size_t len)
{
	char path[64];
	int cap = has_cap_sys_ptrace();

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

	if (e == ESRCH || e == ENOENT)
		return kb_fail(err, "no process with PID %d", (int)pid);
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
	if (c->nphdrs == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 64;
		Elf64_Phdr *bigger = realloc(c->phdrs, ncap * sizeof(*bigger));
		if (!bigger)
			return kb_fail(err, "out of memory for %zu segments", ncap), NULL;
		c->phdrs = bigger;
		c->cap = ncap;
	}
	Elf64_Phdr *p = &c->phdrs[c->nphdrs++];
	memset(p, 0, sizeof(*p));
	p->p_type = PT_LOAD;
	p->p_flags = flags;
	p->p_vaddr = vaddr;
	p->p_align = c->page_size;
	c->stats->segments++;
	return p;
}

/* One page at vaddr in the layout: present (its bytes will be written) or
 * absent (p_memsz only). */
static int add_page(struct cap_state *c, uint64_t vaddr, uint32_t flags, int present, struct kb_err *err)
{
	Elf64_Phdr *p = c->open_seg ? &c->phdrs[c->nphdrs - 1] : NULL;

	/* Data may only extend a segment that has no absent tail yet. */
	if (!p || (present && p->p_memsz != p->p_filesz)) {
		if (!(p = new_phdr(c, vaddr, flags, err)))
			return -1;
		c->open_seg = 1;
	}
	if (present) {
		p->p_filesz += c->page_size;
		c->stats->pages_present++;
	} else {
		c->stats->pages_absent++;
	}
	p->p_memsz += c->page_size;
	return 0;
}

/* The first pass over a mapping: which pages are present, from the page
 * map alone (nothing of the memory is read yet). */
static int layout_mapping(struct cap_state *c, uint64_t start, uint64_t end, uint32_t flags,
			  struct kb_err *err)
{
	uint64_t ps = c->page_size;

	c->open_seg = 0;
	for (uint64_t at = start; at < end; ) {
		size_t n = (end - at) / ps < CAP_BATCH_PAGES ? (size_t)((end - at) / ps) : CAP_BATCH_PAGES;
		ssize_t got = pread(c->pagemap_fd, c->entries, n * 8, (off_t)(at / ps * 8));
		if (got < 0)
			return fail_access(c->pid, errno, "the page map", err);
		if ((size_t)got < n * 8)
			memset((char *)c->entries + got, 0, n * 8 - (size_t)got);
		for (size_t i = 0; i < n; i++)
			if (add_page(c, at + i * ps, flags, (int)(c->entries[i] >> 63), err))
				return -1;
		at += n * ps;
	}
	c->stats->mappings++;
	return 0;
}

/* n pages at va into c->buf: one call for the batch, then page by page
 * when something was unmapped meanwhile; a page that no longer reads is
 * written as zeros and counted as vanished. */
static int read_pages(struct cap_state *c, uint64_t va, size_t n, struct kb_err *err)
{
	uint64_t ps = c->page_size;
	struct iovec local = { c->buf, n * ps }, remote = { (void *)(uintptr_t)va, n * ps };
	ssize_t rd = process_vm_readv(c->pid, &local, 1, &remote, 1, 0);

	if (rd < 0 && (errno == EPERM || errno == ESRCH))
		return fail_access(c->pid, errno, "the memory", err);
	if (rd == (ssize_t)(n * ps))
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct iovec l1 = { c->buf + i * ps, ps }, r1 = { (void *)(uintptr_t)(va + i * ps), ps };
		ssize_t one = process_vm_readv(c->pid, &l1, 1, &r1, 1, 0);
		if (one < 0 && (errno == EPERM || errno == ESRCH))
			return fail_access(c->pid, errno, "the memory", err);
		if (one != (ssize_t)ps) {
			memset(c->buf + i * ps, 0, ps);
			c->stats->pages_vanished++;
		}
	}
	return 0;
}

/* The second pass: every segment's present pages, in file order. */
static int write_data(struct cap_state *c, struct kb_err *err)
{
	for (size_t k = 0; k < c->nphdrs; k++) {
		const Elf64_Phdr *p = &c->phdrs[k];
		for (uint64_t done = 0; done < p->p_filesz; ) {
			uint64_t left = (p->p_filesz - done) / c->page_size;
			size_t n = left < CAP_BATCH_PAGES ? (size_t)left : CAP_BATCH_PAGES;
			if (read_pages(c, p->p_vaddr + done, n, err) || append(c, c->buf, n * c->page_size, err))
				return -1;
			done += n * c->page_size;
		}
	}
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

/* The ELF header and the program header table (in section header 0's
 * sh_info when there are PN_XNUM or more), first: the data's place is
 * known from the layout, so the core can be written to a pipe. The data
 * starts on a page boundary, as in the kernel's core dumps. */
static int write_headers(struct cap_state *c, struct kb_err *err)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	int xnum = c->nphdrs >= PN_XNUM;
	uint64_t table = (uint64_t)c->nphdrs * sizeof(Elf64_Phdr);
	uint64_t shoff = sizeof(eh) + table, data = shoff + (xnum ? sizeof(sh) : 0);

	data = (data + c->page_size - 1) / c->page_size * c->page_size;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = *(const unsigned char *)&(uint16_t){ 1 } ? ELFDATA2LSB : ELFDATA2MSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = CAP_MACHINE;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = c->nphdrs ? sizeof(eh) : 0;
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
	uint64_t off = data;
	for (size_t k = 0; k < c->nphdrs; k++) {
		c->phdrs[k].p_offset = off;
		off += c->phdrs[k].p_filesz;
	}
	c->stats->bytes = off;
	if (append(c, &eh, sizeof(eh), err) || append(c, c->phdrs, (size_t)table, err) ||
	    (xnum && append(c, &sh, sizeof(sh), err)))
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
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			uint64_t *bigger = realloc(*starts, ncap * sizeof(**starts));
			if (!bigger) {
				fclose(f);
				return kb_fail(err, "out of memory");
			}
			*starts = bigger;
			cap = ncap;
		}
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

int capture_process(pid_t pid, int all, FILE *out, struct capture_stats *stats, struct kb_err *err)
{
	uint64_t *merge_starts = NULL;
	size_t nmerge = 0;
	struct cap_state c = { .pid = pid, .out = out, .pagemap_fd = -1, .stats = stats };
	char path[64], line[4096];
	FILE *maps = NULL;
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	c.page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	if (pid <= 0)
		return kb_fail(err, "bad PID %d", (int)pid);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(maps = fopen(path, "r")))
		return fail_access(pid, errno, "the mappings", err);
	if ((all & CAPTURE_MERGEABLE) && mergeable_starts(pid, &merge_starts, &nmerge, err)) {
		fclose(maps);
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	if ((c.pagemap_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		fail_access(pid, errno, "the page map", err);
		goto out;
	}
	if (!(c.buf = malloc(CAP_BATCH_PAGES * c.page_size))) {
		kb_fail(err, "out of memory");
		goto out;
	}
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
		if ((all & CAPTURE_MERGEABLE) && !in_list(merge_starts, nmerge, start))
			continue;
		uint32_t flags = (perms[0] == 'r' ? PF_R : 0) | (perms[1] == 'w' ? PF_W : 0) |
				 (perms[2] == 'x' ? PF_X : 0);
		if (layout_mapping(&c, start, end, flags, err))
			goto out;
	}
	if (!any) {
		/* maps of another user's process opens but reads empty */
		fail_access(pid, EACCES, "the mappings", err);
		goto out;
	}
	if (write_headers(&c, err) || write_data(&c, err))
		goto out;
	rc = fflush(out) == 0 ? 0 : kb_fail_errno(err, errno, "cannot write the core file");
out:
	if (maps)
		fclose(maps);
	if (c.pagemap_fd >= 0)
		close(c.pagemap_fd);
	free(c.buf);
	free(c.phdrs);
	free(merge_starts);
	return rc;
}
