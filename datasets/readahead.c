/* Read-ahead on a helper thread through a ring of chunks (see readahead.h). */
#include "readahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "file_input.h"

/* Eight chunks: with two the reader and the caller wait on each other at
 * every chunk whenever one of them is briefly slower, and each wait is a
 * sleep and a wake-up (tens of microseconds on a VM). */
#define RA_SLOTS 8
/* A reader asleep on a full ring is woken once this many slots are free,
 * not at every one: each wake-up is a futex call on both sides and, where
 * the caller is the slower one, came at every chunk. */
#define RA_WAKE_FREE (RA_SLOTS / 2)
/* The thread does a digest's optional part while this many chunks wait
 * for the caller: then the caller is the slower, and it would do that part
 * itself (a scan's census: the first checksum of each distinct page). */
#define RA_SPARE_FULL (RA_SLOTS / 2)

/* The thread leaves a chunk's digests to the caller (key 0) when the
 * caller holds at most this many chunks, the one it is on: it will wait
 * for this one, so the thread is the slower and the caller has the time
 * (docs/scan-model.md: on the Zen 3 VM the copy out of the page cache kept
 * the thread the slower). */
#define RA_HUNGRY 1

struct ra_slot {
	unsigned char *buf;
	struct page_digest *digests; /* with a digest: one per page */
	ssize_t len;
	int full;
	struct kb_err err;
};

struct readahead {
	struct kb_stream *s;
	uint64_t off, end;
	size_t cap;
	struct readahead_digest dg;
	struct ra_slot slot[RA_SLOTS];
	int running; /* the thread is there to be joined */
	int stop, held, next, ended;
	int reader_waits, caller_waits; /* who sleeps on cond */
	int freed; /* slots handed back while the reader sleeps */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* spare: the caller had chunks enough waiting that this thread may do the
 * digest's optional part (page_digest_fn) and still keep ahead; hungry: the
 * caller waits for this chunk, and digests its pages itself. */
static void digest_chunk(const struct readahead *ra, struct ra_slot *sl, int spare, int hungry)
{
	if (!ra->dg.fn || sl->len <= 0)
		return;
	size_t pages = (size_t)sl->len / ra->dg.page_size;
	if (hungry) {
		memset(sl->digests, 0, pages * sizeof(*sl->digests));
		return;
	}
	for (size_t i = 0; i < pages; i++)
		ra->dg.fn(ra->dg.ctx, sl->buf + i * ra->dg.page_size, spare, &sl->digests[i]);
}

static int full_slots(const struct readahead *ra)
{
	int n = 0;

	for (int i = 0; i < RA_SLOTS; i++)
		n += ra->slot[i].full;
	return n;
}

static void *ra_main(void *arg)
{
	struct readahead *ra = arg;
	uint64_t off = ra->off;

	for (int i = 0;; i = (i + 1) % RA_SLOTS) {
		struct ra_slot *sl = &ra->slot[i];
		pthread_mutex_lock(&ra->lock);
		while (!ra->stop && sl->full) {
			ra->reader_waits = 1;
			pthread_cond_wait(&ra->cond, &ra->lock);
		}
		ra->reader_waits = ra->freed = 0;
		int full = full_slots(ra);
		int stop = ra->stop, spare = full >= RA_SPARE_FULL, hungry = full <= RA_HUNGRY;
		pthread_mutex_unlock(&ra->lock);
		if (stop)
			break;
		size_t want = ra->end - off < ra->cap ? (size_t)(ra->end - off) : ra->cap;
		ssize_t n = want ? kb_stream_read(ra->s, off, sl->buf, want, &sl->err) : 0;
		sl->len = n;
		digest_chunk(ra, sl, spare, hungry);
		pthread_mutex_lock(&ra->lock);
		sl->full = 1;
		if (ra->caller_waits)
			pthread_cond_broadcast(&ra->cond);
		pthread_mutex_unlock(&ra->lock);
		if (n < (ssize_t)ra->cap) /* the end, or an error */
			break;
		off += (uint64_t)n;
	}
	return NULL;
}

static void free_slots(struct readahead *ra)
{
	for (int i = 0; i < RA_SLOTS; i++) {
		free(ra->slot[i].buf);
		free(ra->slot[i].digests);
	}
}

/* Starts the thread on [off, end) with every slot empty. */
static int launch(struct readahead *ra, uint64_t off, uint64_t end, struct kb_err *err)
{
	for (int i = 0; i < RA_SLOTS; i++)
		ra->slot[i].full = 0;
	ra->off = off;
	ra->end = end < off ? off : end;
	ra->stop = ra->ended = ra->reader_waits = ra->caller_waits = ra->freed = ra->next = 0;
	ra->held = -1;
	if (pthread_create(&ra->thread, NULL, ra_main, ra) != 0)
		return kb_fail(err, "cannot start the read-ahead thread");
	ra->running = 1;
	return 0;
}

struct readahead *readahead_start(struct kb_stream *s, uint64_t off, uint64_t end, size_t cap,
				  const struct readahead_digest *dg, struct kb_err *err)
{
	struct readahead *ra = calloc(1, sizeof(*ra));
	int ok = ra != NULL;

	if (ra && dg && dg->fn && dg->page_size)
		ra->dg = *dg;
	for (int i = 0; ok && i < RA_SLOTS; i++) {
		ok = (ra->slot[i].buf = file_input_buffer(cap)) != NULL;
		if (ok && ra->dg.fn)
			ok = (ra->slot[i].digests = malloc(cap / ra->dg.page_size * sizeof(struct page_digest))) != NULL;
	}
	if (!ok) {
		if (ra)
			free_slots(ra);
		free(ra);
		return kb_fail(err, "out of memory for read buffers"), NULL;
	}
	ra->s = s;
	ra->cap = cap;
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	if (launch(ra, off, end, err)) {
		readahead_stop(ra);
		return NULL;
	}
	return ra;
}

ssize_t readahead_next(struct readahead *ra, unsigned char **data, const struct page_digest **digests,
		       struct kb_err *err)
{
	if (ra->ended)
		return 0;
	pthread_mutex_lock(&ra->lock);
	if (ra->held >= 0) { /* hand the previous chunk's buffer back */
		ra->slot[ra->held].full = 0;
		ra->held = -1;
		if (ra->reader_waits && ++ra->freed >= RA_WAKE_FREE)
			pthread_cond_broadcast(&ra->cond);
	}
	struct ra_slot *sl = &ra->slot[ra->next];
	while (!sl->full) {
		if (ra->reader_waits) /* never both asleep */
			pthread_cond_broadcast(&ra->cond);
		ra->caller_waits = 1;
		pthread_cond_wait(&ra->cond, &ra->lock);
	}
	ra->caller_waits = 0;
	pthread_mutex_unlock(&ra->lock);
	ra->held = ra->next;
	ra->next = (ra->next + 1) % RA_SLOTS;
	if (sl->len < 0) {
		*err = sl->err;
		ra->ended = 1;
		return -1;
	}
	if (sl->len < (ssize_t)ra->cap)
		ra->ended = 1;
	*data = sl->buf;
	*digests = sl->digests;
	return sl->len;
}

void readahead_halt(struct readahead *ra)
{
	if (!ra || !ra->running)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	ra->running = 0;
}

int readahead_restart(struct readahead *ra, uint64_t off, uint64_t end, struct kb_err *err)
{
	readahead_halt(ra);
	return launch(ra, off, end, err);
}

void readahead_stop(struct readahead *ra)
{
	if (!ra)
		return;
	readahead_halt(ra);
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->cond);
	free_slots(ra);
	free(ra);
}
