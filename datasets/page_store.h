/* A page store: the pages of a run's files, read once and kept where its
 * measuring processes find them. Each step of a plan has a slot; a slot
 * holds a file's whole pages as page_content_file() reads them, packed, in
 * one anonymous memory file (memfd) that a measuring process inherits
 * across exec and maps. Without it each of 20 processes opened,
 * decompressed and parsed the file again: seconds apiece for a gzip'd or
 * flattened dump. The file starts with the index of its slots. Where no
 * memfd can be made (a seccomp filter, a kernel before 3.17) it is an
 * unlinked file in $TMPDIR (else /tmp), not sealed. */
#ifndef KB_PAGE_STORE_H
#define KB_PAGE_STORE_H

#include <stdint.h>

#include "../common/err.h"
#include "dump.h"
#include "page_set.h"

struct page_store_slot {
	uint64_t offset;    /* of its first page in the file */
	uint64_t pages;     /* 0: the slot holds no pages (a step without a file) */
	uint32_t page_size;
	uint32_t reserved;
};

struct page_store {
	int fd; /* the memory file, -1 before it is made */
	unsigned slots;
	struct page_store_slot *slot;
	uint64_t end; /* where the next slot's pages go */
};

/* An empty store of slots slots (nothing is made until a slot is filled). */
int page_store_init(struct page_store *s, unsigned slots, struct kb_err *err);

/* Makes the memory file (on the first fill if not before); -1 with err
 * where neither a memfd nor a file in $TMPDIR can be made. */
int page_store_open(struct page_store *s, struct kb_err *err);

/* Slot i gets the whole pages of path (see page_content_file()), up to
 * max_bytes, if they take no more than room bytes; else it stays empty. */
int page_store_fill(struct page_store *s, unsigned i, const char *path, uint32_t page_size,
		    const struct dump_options *opts, size_t max_bytes, uint64_t room, struct kb_err *err);

/* Slot i holds the same pages as slot from (filled before). */
void page_store_share(struct page_store *s, unsigned i, unsigned from);

/* Writes the index, once every slot is filled. */
int page_store_seal(struct page_store *s, struct kb_err *err);

/* In a measuring process: the store its parent sealed, inherited as fd,
 * checked against the plan's number of steps. */
int page_store_adopt(struct page_store *s, int fd, unsigned slots, struct kb_err *err);

/* Whether slot i holds pages; the bytes they take. */
int page_store_holds(const struct page_store *s, unsigned i);
uint64_t page_store_held(const struct page_store *s, unsigned i);

/* Slot i's pages as content named "file:PATH" (mapped: released with
 * page_content_release()); page_size is what the step expects. */
int page_store_content(const struct page_store *s, unsigned i, const char *path, uint32_t page_size,
		       struct page_content *c, struct kb_err *err);

void page_store_close(struct page_store *s);

#endif
