/* Double-buffered read-ahead on a helper thread (see readahead.h). */
#include "readahead.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ra_slot {
	unsigned char *buf;
	ssize_t len;
	int full;
	struct kb_err err;
};

struct readahead {
	struct kb_stream *s;
	uint64_t off;
	size_t cap;
	struct ra_slot slot[2];
	int stop, held, next, ended;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *ra_main(void *arg)
{
	struct readahead *ra = arg;
	uint64_t off = ra->off;

	for (int i = 0;; i ^= 1) {
		struct ra_slot *sl = &ra->slot[i];
		pthread_mutex_lock(&ra->lock);
		while (!ra->stop && sl->full)
			pthread_cond_wait(&ra->cond, &ra->lock);
		int stop = ra->stop;
		pthread_mutex_unlock(&ra->lock);
		if (stop)
			break;
		ssize_t n = kb_stream_read(ra->s, off, sl->buf, ra->cap, &sl->err);
		pthread_mutex_lock(&ra->lock);
		sl->len = n;
		sl->full = 1;
		pthread_cond_broadcast(&ra->cond);
		pthread_mutex_unlock(&ra->lock);
		if (n < (ssize_t)ra->cap) /* the end, or an error */
			break;
		off += (uint64_t)n;
	}
	return NULL;
}

struct readahead *readahead_start(struct kb_stream *s, uint64_t off, size_t cap, struct kb_err *err)
{
	struct readahead *ra = calloc(1, sizeof(*ra));

	if (!ra || !(ra->slot[0].buf = aligned_alloc(64, cap)) || !(ra->slot[1].buf = aligned_alloc(64, cap))) {
		if (ra)
			free(ra->slot[0].buf);
		free(ra);
		return kb_fail(err, "out of memory for read buffers"), NULL;
	}
	ra->s = s;
	ra->off = off;
	ra->cap = cap;
	ra->held = -1;
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	if (pthread_create(&ra->thread, NULL, ra_main, ra) != 0) {
		pthread_mutex_destroy(&ra->lock);
		pthread_cond_destroy(&ra->cond);
		free(ra->slot[0].buf);
		free(ra->slot[1].buf);
		free(ra);
		return kb_fail(err, "cannot start the read-ahead thread"), NULL;
	}
	return ra;
}

ssize_t readahead_next(struct readahead *ra, unsigned char **data, struct kb_err *err)
{
	if (ra->ended)
		return 0;
	pthread_mutex_lock(&ra->lock);
	if (ra->held >= 0) { /* hand the previous chunk's buffer back */
		ra->slot[ra->held].full = 0;
		ra->held = -1;
		pthread_cond_broadcast(&ra->cond);
	}
	struct ra_slot *sl = &ra->slot[ra->next];
	while (!sl->full)
		pthread_cond_wait(&ra->cond, &ra->lock);
	pthread_mutex_unlock(&ra->lock);
	ra->held = ra->next;
	ra->next ^= 1;
	if (sl->len < 0) {
		*err = sl->err;
		ra->ended = 1;
		return -1;
	}
	if (sl->len < (ssize_t)ra->cap)
		ra->ended = 1;
	*data = sl->buf;
	return sl->len;
}

void readahead_stop(struct readahead *ra)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	pthread_join(ra->thread, NULL);
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->cond);
	free(ra->slot[0].buf);
	free(ra->slot[1].buf);
	free(ra);
}
