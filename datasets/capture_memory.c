/* The bytes of a process's present pages (see capture_state.h), read with
 * process_vm_readv in batches that run across segments: hashed (the first
 * snapshot), compared (the second, marking the pages that changed) or
 * written to the core. */
#include "capture_state.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <xxhash.h>

/* Remote ranges (segments, or their parts) in one batch's read: well
 * under IOV_MAX (1024). */
#define CAPTURE_BATCH_RANGES 128u

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
		return capture_fail_access(c->pid, errno, "the memory", err);
	if (rd == (ssize_t)(n * ps))
		return 0;
	unsigned char *to = c->buf;
	for (size_t r = 0; r < nremote; r++)
		for (size_t off = 0; off < remote[r].iov_len; off += ps, to += ps) {
			struct iovec l1 = { to, ps }, r1 = { (char *)remote[r].iov_base + off, ps };
			ssize_t one = process_vm_readv(c->pid, &l1, 1, &r1, 1, 0);
			if (one < 0 && (errno == EPERM || errno == ESRCH))
				return capture_fail_access(c->pid, errno, "the memory", err);
			if (one != (ssize_t)ps) {
				memset(to, 0, ps);
				c->stats->pages_vanished += count_vanished;
			}
		}
	return 0;
}

/* The bytes of a batch of n present pages, the first of them the index-th. */
static int pass_batch(struct cap_state *c, enum cap_pass pass, size_t index, size_t n, struct kb_err *err)
{
	uint64_t ps = c->page_size;

	if (pass == PASS_WRITE)
		return capture_append(c, c->buf, n * ps, err);
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
int capture_read_all(struct cap_state *c, enum cap_pass pass, struct kb_err *err)
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
