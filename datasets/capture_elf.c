/* The ELF core's front (see capture_state.h): the ELF header, the program
 * header table and the KSMBENCH notes, written before the data, whose place
 * the layout fixes, so that the core can go to a pipe; and the appends that
 * write the core front to back. */
#include "capture_state.h"

#include <errno.h>
#include <string.h>

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

/* Appends at the end of what was written (file_off). */
int capture_append(struct cap_state *c, const void *data, size_t len, struct kb_err *err)
{
	if (len && fwrite(data, 1, len, c->out) != len)
		return kb_fail_errno(err, errno, "cannot write the core file");
	c->file_off += len;
	return 0;
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

	if (capture_append(c, sys, n, err))
		return -1;
	n = capture_note_encode(KB_NOTE_PAGES, NULL, (size_t)desc_len, head, sizeof(head));
	/* Entries are 8 bytes and the header 40: the descriptor needs no padding. */
	return capture_append(c, head, n, err) || capture_append(c, h32, sizeof(h32), err) ||
	       capture_append(c, h64, sizeof(h64), err) || capture_append(c, c->info, c->ninfo * 8, err);
}

/* The ELF header, the program header table (in section header 0's sh_info
 * when there are PN_XNUM or more; the PT_NOTE first) and the notes, first:
 * the data's place is known from the layout, so the core can be written to
 * a pipe. The data starts on a page boundary, as in the kernel's cores. */
int capture_write_headers(struct cap_state *c, uint32_t note_flags, uint64_t interval_ns, struct kb_err *err)
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
	if (capture_append(c, &eh, sizeof(eh), err) || capture_append(c, c->phdrs, (size_t)table, err) ||
	    (xnum && capture_append(c, &sh, sizeof(sh), err)) || write_notes(c, note_flags, interval_ns, err))
		return -1;
	static const unsigned char zeros[256];
	while (c->file_off < data)
		if (capture_append(c, zeros, data - c->file_off < sizeof(zeros) ? (size_t)(data - c->file_off) : sizeof(zeros),
				   err))
			return -1;
	return 0;
}
