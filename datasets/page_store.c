/* The page store (see page_store.h): a memfd holding an index, then each
 * slot's pages at an offset any page size can map. */
#include "page_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/quote.h"
#include "../common/temp_file.h"

/* Offsets of slots: a multiple of the largest page size a kernel maps by
 * (64 KiB on arm64 and ppc64), so that any process can map its slot. */
#define STORE_ALIGN (64u << 10)

static const char store_magic[8] = "KBPAGES1";

struct store_head {
	char magic[8];
	uint32_t slots;
	uint32_t reserved;
};

static uint64_t aligned(uint64_t n)
{
	return (n + STORE_ALIGN - 1) & ~(uint64_t)(STORE_ALIGN - 1);
}

static uint64_t index_bytes(unsigned slots)
{
	return sizeof(struct store_head) + (uint64_t)slots * sizeof(struct page_store_slot);
}

int page_store_init(struct page_store *s, unsigned slots, struct kb_err *err)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->slots = slots;
	s->end = aligned(index_bytes(slots));
	if (!(s->slot = calloc(slots ? slots : 1, sizeof(*s->slot))))
		return kb_fail(err, "out of memory");
	return 0;
}

static int write_at(int fd, const void *buf, size_t len, uint64_t offset, struct kb_err *err)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done, (off_t)(offset + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return kb_fail_errno(err, errno, "cannot keep the pages read for the measuring processes");
		done += (size_t)n;
	}
	return 0;
}

/* Held by memory, and passed to no program but ksmbench itself (workers.c
 * lets a measuring process inherit it). */
static int store_file(struct kb_err *err)
{
	char where[KB_QUOTE_SIZE + 16];
	int fd = memfd_create("ksmbench-pages", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0 && (fd = temp_file_unnamed()) < 0) {
		int e = errno;
		return kb_fail_errno(err, e, "cannot keep the pages read (no memory file, nor a file in %s)",
				     temp_file_where(where, sizeof(where)));
	}
	return fd;
}

int page_store_open(struct page_store *s, struct kb_err *err)
{
	if (s->fd < 0 && (s->fd = store_file(err)) < 0)
		return -1;
	return 0;
}

int page_store_fill(struct page_store *s, unsigned i, const char *path, uint32_t page_size,
		    const struct dump_options *opts, size_t max_bytes, uint64_t room, struct kb_err *err)
{
	struct page_content c;

	if (page_store_open(s, err) || page_content_file(&c, path, page_size, opts, max_bytes, err))
		return -1;
	if ((uint64_t)c.pages * page_size > room) { /* left to the processes */
		page_content_release(&c);
		return 0;
	}
	int rc = write_at(s->fd, c.bytes, c.pages * page_size, s->end, err);
	if (rc == 0) {
		s->slot[i] = (struct page_store_slot){ .offset = s->end, .pages = c.pages, .page_size = page_size };
		s->end = aligned(s->end + (uint64_t)c.pages * page_size);
	}
	page_content_release(&c);
	return rc;
}

void page_store_share(struct page_store *s, unsigned i, unsigned from)
{
	s->slot[i] = s->slot[from];
}

int page_store_seal(struct page_store *s, struct kb_err *err)
{
	struct store_head head = { .slots = s->slots };

	if (s->fd < 0)
		return 0;
	memcpy(head.magic, store_magic, sizeof(head.magic));
	if (write_at(s->fd, &head, sizeof(head), 0, err) ||
	    write_at(s->fd, s->slot, s->slots * sizeof(*s->slot), sizeof(head), err))
		return -1;
	/* Nothing more is written: a process that maps it may rely on that
	 * (a file that is not a memfd takes no seals: EINVAL). */
	if (fcntl(s->fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0 && errno != EINVAL)
		return kb_fail_errno(err, errno, "cannot seal the memory file of the pages read");
	return 0;
}

/* The parent is this process's own ksmbench: a slot that does not fit is a
 * defect or a descriptor that is not the store, never a user's file. */
static int bad_store(struct kb_err *err, const char *why)
{
	return kb_fail(err, "the pages kept by the ksmbench that started this process are unreadable (%s)", why);
}

/* A memfd sealed against writes, or the file made where there was none. */
static int sealed_or_file(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS);

	return seals >= 0 ? (seals & F_SEAL_WRITE) != 0 : errno == EINVAL;
}

int page_store_adopt(struct page_store *s, int fd, unsigned slots, struct kb_err *err)
{
	struct store_head head;
	struct stat st;

	if (page_store_init(s, slots, err))
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < aligned(index_bytes(slots)) ||
	    pread(fd, &head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    memcmp(head.magic, store_magic, sizeof(head.magic)) != 0 || head.slots != slots || !sealed_or_file(fd)) {
		page_store_close(s);
		return bad_store(err, "not the index expected");
	}
	size_t len = slots * sizeof(*s->slot);
	if (pread(fd, s->slot, len, sizeof(head)) != (ssize_t)len) {
		page_store_close(s);
		return bad_store(err, "the index is cut short");
	}
	for (unsigned i = 0; i < slots; i++) {
		const struct page_store_slot *k = &s->slot[i];
		if (k->pages && (k->page_size == 0 || k->offset % STORE_ALIGN || k->offset > (uint64_t)st.st_size ||
				 k->pages > ((uint64_t)st.st_size - k->offset) / k->page_size)) {
			page_store_close(s);
			return bad_store(err, "a slot lies outside the file");
		}
	}
	s->fd = fd;
	return 0;
}

int page_store_holds(const struct page_store *s, unsigned i)
{
	return s && i < s->slots && s->slot[i].pages != 0;
}

uint64_t page_store_held(const struct page_store *s, unsigned i)
{
	return page_store_holds(s, i) ? s->slot[i].pages * s->slot[i].page_size : 0;
}

int page_store_content(const struct page_store *s, unsigned i, const char *path, uint32_t page_size,
		       struct page_content *c, struct kb_err *err)
{
	const struct page_store_slot *k = &s->slot[i];

	memset(c, 0, sizeof(*c));
	if (k->page_size != page_size)
		return bad_store(err, "a slot of another page size");
	if (k->pages > SIZE_MAX / page_size)
		return bad_store(err, "a slot too large to map");
	size_t len = (size_t)k->pages * page_size;
	/* Private: a write would stay in this process (none is made). */
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, s->fd, (off_t)k->offset);
	if (p == MAP_FAILED)
		return kb_fail_errno(err, errno, "cannot map the pages of '%s' kept for this process", path);
	c->bytes = p;
	c->mapped_bytes = len;
	c->pages = (size_t)k->pages;
	c->page_size = page_size;
	snprintf(c->data, sizeof(c->data), "file:%s", path);
	return 0;
}

void page_store_close(struct page_store *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->slot);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}
