/* The ELF core reader (see elf_core.h). The program headers are read once
 * and the PT_LOAD segments sorted by file offset, so that the data is read
 * forward (cheap through gzip) and bytes that two segments share are
 * yielded once. */
#include "elf_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "capture_note.h"
#include "dump.h"
#include "segment_pager.h"

#define ELF_PN_XNUM 0xffffu
#define ELF_PT_LOAD 1u
#define ELF_PT_NOTE 4u
/* Notes looked at in all: a core has a handful per thread. */
#define ELF_NOTES_MAX 65536u
#define ELF_NOTE_SEGMENTS_MAX 16u
/* Program headers are read this many bytes at a time: a capture of a
 * process has tens of thousands, and a read each was a system call each
 * (in a VM, 44,000 of them were a third of a scan's time). */
#define ELF_PHDR_READ_BYTES (64u << 10)
/* More segments than any real dump has; keeps the table's memory bounded. */
#define ELF_MAX_LOADS (1u << 20)

struct elf_load {
	uint64_t paddr, vaddr, offset, filesz, memsz;
	uint32_t phdr_index;
};

struct elf_source {
	struct page_source base;
	struct kb_stream *s;
	struct segment_pager pager;
	struct elf_load *loads;
	size_t nloads, next_load;
	uint64_t covered_end; /* file bytes before this were yielded already */
	int physical;         /* pages at p_paddr, not p_vaddr */
	int ended;            /* the pass is over: only fetches from here on */
	uint64_t index;
	char what[64];
	struct capture_note note; /* a ksmbench capture's KSMBENCH notes */
	uint64_t note_off[ELF_NOTE_SEGMENTS_MAX], note_len[ELF_NOTE_SEGMENTS_MAX];
	size_t nnotes;
};

int elf_core_detect(const unsigned char *head, size_t len)
{
	return len >= 4 && memcmp(head, "\177ELF", 4) == 0;
}

struct elf_header {
	int is64, big;
	uint64_t phoff, shoff;
	uint32_t phnum;
	uint16_t phentsize, shentsize, type;
};

static int elf_read_header(struct kb_stream *s, struct elf_header *h, struct kb_err *err)
{
	unsigned char e[64];

	if (kb_stream_read_exact(s, 0, e, 52, "the ELF header", err))
		return -1;
	if (memcmp(e, "\177ELF", 4) != 0)
		return kb_fail(err, "'%s' is not an ELF file", s->path);
	if (e[4] != 1 && e[4] != 2)
		return kb_fail(err, "'%s': unknown ELF class %u", s->path, e[4]);
	if (e[5] != 1 && e[5] != 2)
		return kb_fail(err, "'%s': unknown ELF byte order %u", s->path, e[5]);
	h->is64 = e[4] == 2;
	h->big = e[5] == 2;
	if (h->is64 && kb_stream_read_exact(s, 0, e, 64, "the ELF header", err))
		return -1;
	h->type = kb_get16(e + 16, h->big);
	if (h->is64) {
		h->phoff = kb_get64(e + 32, h->big);
		h->shoff = kb_get64(e + 40, h->big);
		h->phentsize = kb_get16(e + 54, h->big);
		h->phnum = kb_get16(e + 56, h->big);
		h->shentsize = kb_get16(e + 58, h->big);
	} else {
		h->phoff = kb_get32(e + 28, h->big);
		h->shoff = kb_get32(e + 32, h->big);
		h->phentsize = kb_get16(e + 42, h->big);
		h->phnum = kb_get16(e + 44, h->big);
		h->shentsize = kb_get16(e + 46, h->big);
	}
	if (h->phnum == 0)
		return 0;
	if (h->phentsize < (h->is64 ? 56 : 32))
		return kb_fail(err, "'%s': ELF program header size %u is too small", s->path, h->phentsize);
	if (h->phnum == ELF_PN_XNUM) {
		/* The real count is in section header 0's sh_info. */
		unsigned char sh[64];
		size_t shsize = h->is64 ? 64 : 40;
		if (h->shoff == 0 || h->shentsize < shsize)
			return kb_fail(err, "'%s': e_phnum is PN_XNUM but there is no section header 0",
				       s->path);
		if (kb_stream_read_exact(s, h->shoff, sh, shsize, "section header 0", err))
			return -1;
		h->phnum = kb_get32(sh + (h->is64 ? 44 : 28), h->big);
	}
	if (h->phnum > 4 * ELF_MAX_LOADS)
		return kb_fail(err, "'%s': implausible program header count %u", s->path, h->phnum);
	return kb_stream_check_range(s, h->phoff, (uint64_t)h->phnum * h->phentsize,
				     "the program header table", err);
}

static int load_cmp(const void *a, const void *b)
{
	const struct elf_load *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->phdr_index < y->phdr_index ? -1 : x->phdr_index > y->phdr_index;
}

/* What elf_read_loads() gathers over the program headers. */
struct load_scan {
	size_t cap;
	int physical;
	uint64_t total_memsz;
};

/* One program header: a note segment remembered, a PT_LOAD checked and
 * added to e->loads. */
static int elf_add_phdr(struct elf_source *e, const struct elf_header *h, const unsigned char *ph, uint32_t i,
			struct load_scan *ls, struct kb_err *err)
{
	char what[48];

	if (kb_get32(ph, h->big) == ELF_PT_NOTE && e->nnotes < ELF_NOTE_SEGMENTS_MAX) {
		e->note_off[e->nnotes] = h->is64 ? kb_get64(ph + 8, h->big) : kb_get32(ph + 4, h->big);
		e->note_len[e->nnotes++] = h->is64 ? kb_get64(ph + 32, h->big) : kb_get32(ph + 16, h->big);
	}
	if (kb_get32(ph, h->big) != ELF_PT_LOAD)
		return 0;
	struct elf_load l = { .phdr_index = i };
	if (h->is64) {
		l.offset = kb_get64(ph + 8, h->big);
		l.vaddr = kb_get64(ph + 16, h->big);
		l.paddr = kb_get64(ph + 24, h->big);
		l.filesz = kb_get64(ph + 32, h->big);
		l.memsz = kb_get64(ph + 40, h->big);
	} else {
		l.offset = kb_get32(ph + 4, h->big);
		l.vaddr = kb_get32(ph + 8, h->big);
		l.paddr = kb_get32(ph + 12, h->big);
		l.filesz = kb_get32(ph + 16, h->big);
		l.memsz = kb_get32(ph + 20, h->big);
	}
	if (l.filesz > l.memsz)
		return kb_fail(err, "'%s' is corrupt: segment %u has p_filesz %llu > p_memsz %llu", e->s->path, i,
			       (unsigned long long)l.filesz, (unsigned long long)l.memsz);
	if (l.memsz == 0)
		return 0; /* nothing to page, wherever p_offset points */
	snprintf(what, sizeof(what), "the data of segment %u", i);
	if (l.filesz && kb_stream_check_range(e->s, l.offset, l.filesz, what, err))
		return -1;
	/* Past the whole address space the page and hole counts would wrap. */
	if (l.memsz > UINT64_MAX - ls->total_memsz)
		return kb_fail(err, "'%s' is corrupt: its segments add up to more than 2^64 bytes "
				    "of memory (segment %u has p_memsz %#llx)", e->s->path, i,
			       (unsigned long long)l.memsz);
	ls->total_memsz += l.memsz;
	if (e->nloads == ELF_MAX_LOADS)
		return kb_fail(err, "'%s': more than %u PT_LOAD segments", e->s->path, ELF_MAX_LOADS);
	struct elf_load *loads = kb_grow(e->loads, &ls->cap, e->nloads + 1, sizeof(*loads), 16);
	if (!loads)
		return kb_fail(err, "out of memory for %zu segments", e->nloads + 1);
	e->loads = loads;
	ls->physical |= l.paddr != 0;
	e->loads[e->nloads++] = l;
	return 0;
}

/* The PT_LOAD segments into e->loads, the table read ELF_PHDR_READ_BYTES
 * at a time: 1 if they place pages at p_paddr, 0 at p_vaddr, -1. */
static int elf_read_loads(struct elf_source *e, const struct elf_header *h, struct kb_err *err)
{
	if (h->phnum == 0) /* then e_phentsize was not checked, and may be 0 */
		return 0;
	unsigned char *table = malloc(ELF_PHDR_READ_BYTES);
	uint32_t per_read = ELF_PHDR_READ_BYTES / h->phentsize;
	struct load_scan ls = { 0 };
	char what[48];
	int rc = table ? 0 : kb_fail(err, "out of memory for program headers");

	for (uint32_t i = 0; rc == 0 && i < h->phnum; i += per_read) {
		uint32_t n = h->phnum - i < per_read ? h->phnum - i : per_read;
		snprintf(what, sizeof(what), "program headers %u-%u", i, i + n - 1);
		rc = kb_stream_read_exact(e->s, h->phoff + (uint64_t)i * h->phentsize, table,
					  (size_t)n * h->phentsize, what, err);
		for (uint32_t k = 0; rc == 0 && k < n; k++)
			rc = elf_add_phdr(e, h, table + (size_t)k * h->phentsize, i + k, &ls, err);
	}
	free(table);
	return rc < 0 ? -1 : ls.physical;
}

/* The pages of ps bytes the segments hold whole, one after another, or UINT64_MAX when
 * they overlap or end inside a page (then page entries cannot match). */
static uint64_t elf_whole_pages(const struct elf_source *e, uint64_t ps)
{
	uint64_t pages = 0, end = 0;

	for (size_t i = 0; i < e->nloads; i++) {
		const struct elf_load *l = &e->loads[i];
		if (!l->filesz)
			continue;
		if (l->filesz % ps || (end && l->offset < end))
			return UINT64_MAX;
		end = l->offset + l->filesz;
		pages += l->filesz / ps;
	}
	return pages;
}

/* err's message about a note, prefixed with the file's name. */
static int elf_note_fail(const struct elf_source *e, struct kb_err *err)
{
	char msg[sizeof(err->msg)];

	memcpy(msg, err->msg, sizeof(msg));
	return kb_fail(err, "'%s': %s", e->s->path, msg);
}

/* The page note's entries are read (and their buffer grown) this many bytes at a time. */
#define ELF_NOTE_CHUNK ((size_t)1 << 20)

/* A KB_NOTE_PAGES descriptor at off: its header, then its entries (kept
 * only for the capture's page size: then entry i is page i's). */
static int elf_page_note(struct elf_source *e, int big, uint64_t off, uint64_t len, struct kb_err *err)
{
	unsigned char head[KB_NOTE_PAGES_HEADER];
	struct capture_note *n = &e->note;

	if (n->has_pages)
		return kb_fail(err, "'%s' has two ksmbench page notes", e->s->path);
	if (len >= sizeof(head) && kb_stream_read_exact(e->s, off, head, sizeof(head), "its page note", err))
		return -1;
	if (capture_note_pages_header(n, head, len, big, err))
		return elf_note_fail(e, err);
	/* Counted in the capture's pages: the words only apply at that size. */
	uint64_t whole = elf_whole_pages(e, n->page_size);
	if (n->pages != whole)
		return kb_fail(err, "'%s': its page note describes %llu pages but its segments hold %s%llu",
			       e->s->path, (unsigned long long)n->pages,
			       whole == UINT64_MAX ? "overlapping or partial pages, not " : "",
			       (unsigned long long)(whole == UINT64_MAX ? n->pages : whole));
	if (n->page_size != e->base.page_size || n->pages == 0)
		return 0;
	/* Grown as its bytes arrive: the count is the file's claim, and under
	 * gzip nothing bounds it before they are read (a 106-byte file claimed
	 * 2^29 pages, 4 GiB allocated before its note was found cut). */
	size_t total = (size_t)n->pages * 8, have = 0, cap = 0;
	while (have < total) {
		size_t want = total - have < ELF_NOTE_CHUNK ? total - have : ELF_NOTE_CHUNK;
		if (have + want > cap) {
			size_t grown = cap > total / 2 ? total : cap * 2 > have + want ? cap * 2 : have + want;
			void *more = realloc(n->entries, grown);
			if (!more)
				return kb_fail(err, "out of memory for the page note of %llu pages",
					       (unsigned long long)n->pages);
			n->entries = more;
			cap = grown;
		}
		if (kb_stream_read_exact(e->s, off + sizeof(head) + have, (unsigned char *)n->entries + have, want,
					 "its page note", err))
			return -1;
		have += want;
	}
	capture_note_entries(n->entries, (size_t)n->pages, big);
	return 0;
}

/* One note segment: the KSMBENCH notes in it, the others skipped. */
static int elf_note_segment(struct elf_source *e, int big, uint64_t off, uint64_t len, unsigned *seen,
			    struct kb_err *err)
{
	unsigned char head[12 + 12], desc[KB_NOTE_SYSTEM_MAX];

	if (kb_stream_check_range(e->s, off, len, "a note segment", err))
		return -1;
	for (uint64_t at = 0; at + 12 <= len; (*seen)++) {
		if (*seen == ELF_NOTES_MAX)
			return kb_fail(err, "'%s': more than %u notes", e->s->path, ELF_NOTES_MAX);
		if (kb_stream_read_exact(e->s, off + at, head, 12, "a note header", err))
			return -1;
		uint64_t namesz = kb_get32(head, big), descsz = kb_get32(head + 4, big);
		uint32_t type = kb_get32(head + 8, big);
		uint64_t name_at = at + 12, desc_at = name_at + ((namesz + 3) & ~3ull);
		uint64_t next = desc_at + ((descsz + 3) & ~3ull);
		/* Zeros after the notes are padding, not 65536 empty notes. */
		if (namesz == 0 && descsz == 0 && type == 0)
			break;
		/* A name that cannot be read is the data's end (a stream of unknown
		 * size: gzip, a pipe), not another program's note. */
		int ours = 0;
		if (namesz == sizeof(KB_NOTE_NAME) && name_at + namesz <= len) {
			if (kb_stream_read_exact(e->s, off + name_at, head + 12, sizeof(KB_NOTE_NAME), "a note name",
						 err))
				return -1;
			ours = memcmp(head + 12, KB_NOTE_NAME, sizeof(KB_NOTE_NAME)) == 0;
		}
		/* Another program's note that does not fit ends what can be read
		 * of the segment (other notes are skipped); ours is needed whole. */
		if (next > len && !ours)
			break;
		if (next > len)
			return kb_fail(err, "'%s' is corrupt: a KSMBENCH note runs past the end of its segment",
				       e->s->path);
		if (ours && type == KB_NOTE_PAGES && elf_page_note(e, big, off + desc_at, descsz, err))
			return -1;
		if (ours && type == KB_NOTE_SYSTEM) {
			if (descsz > sizeof(desc))
				return kb_fail(err, "'%s': its system note is %llu bytes (at most %u)", e->s->path,
					       (unsigned long long)descsz, KB_NOTE_SYSTEM_MAX);
			if (kb_stream_read_exact(e->s, off + desc_at, desc, (size_t)descsz, "its system note", err))
				return -1;
			if (capture_note_system(&e->note, desc, (size_t)descsz, err))
				return elf_note_fail(e, err);
		}
		at = next;
	}
	return 0;
}

static int elf_read_notes(struct elf_source *e, const struct elf_header *h, struct kb_err *err)
{
	unsigned seen = 0;

	capture_note_init(&e->note);
	for (size_t i = 0; i < e->nnotes; i++)
		if (elf_note_segment(e, h->big, e->note_off[i], e->note_len[i], &seen, err))
			return -1;
	if (e->note.has_pages || e->note.has_system)
		e->base.note = &e->note;
	return 0;
}

/* The end of the pass: only what fetches need is kept (segment_pager_end). */
static int elf_end(struct elf_source *e, struct kb_err *err)
{
	e->ended = 1;
	free(e->note.entries);
	e->note.entries = NULL;
	free(e->loads);
	e->loads = NULL;
	e->nloads = e->next_load = 0;
	return segment_pager_end(&e->pager, &e->s, e->base.can_fetch, err);
}

static int elf_next(struct page_source *src, struct page *out, struct kb_err *err)
{
	struct elf_source *e = (struct elf_source *)src;

	if (e->ended)
		return 0;
	for (;;) {
		int rc = segment_pager_next(&e->pager, out, err);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			if (e->note.entries)
				out->info = e->note.entries[e->index];
			out->index = e->index++;
			src->stats.pages++;
			return 1;
		}
		if (e->next_load == e->nloads)
			return elf_end(e, err);
		const struct elf_load *l = &e->loads[e->next_load++];
		uint64_t skip = e->covered_end > l->offset ? e->covered_end - l->offset : 0;
		uint64_t end = l->offset + l->filesz;
		if (end > e->covered_end)
			e->covered_end = end;
		snprintf(e->what, sizeof(e->what), "the data of segment %u", l->phdr_index);
		segment_pager_begin(&e->pager, &src->stats, e->physical ? l->paddr : l->vaddr, l->offset,
				    l->filesz, l->memsz, skip, e->what);
	}
}

static void elf_close(struct page_source *src)
{
	struct elf_source *e = (struct elf_source *)src;

	segment_pager_free(&e->pager);
	kb_stream_close(e->s);
	free(e->loads);
	free(e->note.entries);
	free(e);
}

static int elf_fetch(struct page_source *src, uint64_t locator, void *buf, struct kb_err *err)
{
	return segment_pager_fetch(&((struct elf_source *)src)->pager, locator, buf, err);
}

/* Only before the first page: a segment already read in line has no digests. */
static int elf_set_digest(struct page_source *src, page_digest_fn fn, void *ctx)
{
	struct elf_source *e = (struct elf_source *)src;

	return e->index == 0 && !e->ended ? segment_pager_set_digest(&e->pager, fn, ctx) : 0;
}

static const struct page_source_ops elf_ops = { elf_next, elf_close, elf_fetch, elf_set_digest };

struct page_source *elf_core_open(const struct dump_open *a, struct kb_err *err)
{
	struct kb_stream *s = a->stream;
	uint32_t page_size = a->page_size;
	struct elf_source *e = calloc(1, sizeof(*e));
	struct elf_header h = { 0 };

	if (!e) {
		kb_stream_close(s);
		return kb_fail(err, "out of memory"), NULL;
	}
	e->s = s;
	e->base.ops = &elf_ops;
	e->base.format = a->format;
	e->base.page_size = page_size;
	e->base.can_fetch = s->random_access;
	segment_pager_init(&e->pager, s, page_size);
	if (elf_read_header(s, &h, err))
		goto fail;
	int physical = elf_read_loads(e, &h, err);
	if (physical < 0)
		goto fail;
	e->physical = physical;
	for (size_t i = 0; i < e->nloads; i++) {
		const struct elf_load *l = &e->loads[i];
		uint64_t addr = physical ? l->paddr : l->vaddr;
		if (l->memsz - 1 > UINT64_MAX - addr) {
			kb_fail(err, "'%s' is corrupt: segment %u at %#llx with p_memsz %#llx wraps past "
				     "the end of the 64-bit address space", s->path, l->phdr_index,
				(unsigned long long)addr, (unsigned long long)l->memsz);
			goto fail;
		}
	}
	if (e->nloads > 1)
		qsort(e->loads, e->nloads, sizeof(*e->loads), load_cmp);
	if (elf_read_notes(e, &h, err))
		goto fail;
	return &e->base;
fail:
	elf_close(&e->base);
	return NULL;
}
