/* scan --top's second pass (scan_top.h): every dump read
 * again, each page matched against the top contents (by the census's key,
 * then a byte compare), so that each content is named by the dumps that
 * hold it, its copies in each and the address of the first. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../datasets/capture_note.h"
#include "../datasets/file_input.h"
#include "scan_top.h"

struct top_key {
	uint64_t key48;
	size_t top;
};

static int by_key(const void *a, const void *b)
{
	const struct top_key *x = a, *y = b;

	return x->key48 < y->key48 ? -1 : x->key48 > y->key48;
}

static void note_copy(struct scan_top *t, uint32_t dump, uint64_t addr)
{
	if (t->dumps_with_copies && t->last_dump == dump) {
		/* only the kept dumps' copies are counted */
		if (t->where[t->nwhere - 1].dump == dump)
			t->where[t->nwhere - 1].count++;
		return;
	}
	/* Dumps come one after another: a new dump of this content. */
	t->last_dump = dump;
	t->dumps_with_copies++;
	if (t->nwhere < SCAN_TOP_WHERE_MAX)
		t->where[t->nwhere++] = (struct scan_top_where){ dump, 1, addr };
}

struct locate {
	struct scan_top *top;
	const unsigned char *pages;
	uint32_t ps;
	hash_fn key_fn;
	struct top_key *keys;
	size_t nkeys;
	ssize_t zero_top; /* the zero content's index, -1 if not among them */
};

static void match_page(const struct locate *l, uint32_t dump, const struct page *pg)
{
	if (census_page_is_zero(pg->data, l->ps)) {
		if (l->zero_top >= 0)
			note_copy(&l->top[l->zero_top], dump, pg->addr);
		return;
	}
	struct top_key want = { l->key_fn(pg->data, l->ps) >> 16, 0 };
	size_t lo = 0, hi = l->nkeys;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->keys[mid].key48 < want.key48)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < l->nkeys && l->keys[lo].key48 == want.key48; lo++)
		if (memcmp(l->pages + l->keys[lo].top * l->ps, pg->data, l->ps) == 0) {
			note_copy(&l->top[l->keys[lo].top], dump, pg->addr);
			return;
		}
}

/* The pages the census counted: not volatile, not left out. */
static int locate_dump(const struct scan_options *o, const struct scan_dump *d, const struct locate *l, uint32_t dump,
		       struct kb_err *err)
{
	struct page_source *src = dump_source_open(o->paths[dump], o->page_size, &o->dump, err);
	struct page pg;
	int rc;

	if (!src)
		return -1;
	while ((rc = page_source_next(src, &pg, err)) == 1)
		if (!(d->two_snapshots && (pg.info & KB_PAGE_VOLATILE)) && !scan_left_out(o->mergeable_only, d, pg.info))
			match_page(l, dump, &pg);
	page_source_close(src);
	return rc;
}

int scan_top_locate(const struct scan_options *o, const struct scan_dump *dumps, struct scan_top *top, size_t ntop,
		    const unsigned char *pages, struct kb_err *err)
{
	struct locate l = { .top = top, .pages = pages, .ps = o->page_size, .zero_top = -1 };
	const struct hash_impl *key = hash_select("xxh3", err);
	int located = 1, rc = 0;

	if (!key)
		return -1;
	l.key_fn = hash_resolve(key)->fn;
	if (!(l.keys = calloc(ntop ? ntop : 1, sizeof(*l.keys))))
		return kb_fail(err, "out of memory");
	for (size_t i = 0; i < ntop; i++) {
		if (top[i].is_zero)
			l.zero_top = (ssize_t)i;
		else
			l.keys[l.nkeys++] = (struct top_key){ top[i].entry.key >> 16, i };
	}
	qsort(l.keys, l.nkeys, sizeof(*l.keys), by_key);
	for (size_t d = 0; d < o->npaths && rc == 0; d++) {
		/* Not standard input, a pipe or a FIFO (opened again, a FIFO
		 * waits for a writer that has gone). */
		struct stat st;
		if (strcmp(o->paths[d], "-") == 0 || !file_input_rereadable(o->paths[d], &st)) {
			located = 0;
			continue;
		}
		rc = locate_dump(o, &dumps[d], &l, (uint32_t)d, err);
	}
	for (size_t i = 0; i < ntop; i++)
		top[i].located = located;
	free(l.keys);
	return rc;
}
