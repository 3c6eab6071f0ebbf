/* Batches of zlib pages inflated on two threads (see page_inflate.h). */
#include "page_inflate.h"

#include <pthread.h>
#include <stdlib.h>
#include <zlib.h>

/* Fewer zlib pages than this in a batch are inflated by the caller alone:
 * a hand-over to the helper (a wake-up and a wait) costs tens of
 * microseconds in a VM, a page's inflate a few. */
#define INFLATE_SPLIT_MIN 16u

/* A zlib stream set up once and reset for each page. */
struct inflate_stream {
	z_stream z;
	int ready;
};

struct page_inflater {
	uint32_t block;
	struct inflate_stream mine, helper;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int started, start_failed, stop;
	struct inflate_job *jobs; /* the helper's share while it has one */
	size_t njobs;
};

static int inflate_one(struct inflate_stream *st, struct inflate_job *j, uint32_t block)
{
	z_stream *z = &st->z;

	if (!j->src)
		return 0;
	if (!st->ready) {
		if (inflateInit(z) != Z_OK)
			return -1;
		st->ready = 1;
	} else if (inflateReset(z) != Z_OK) {
		return -1;
	}
	z->next_in = (unsigned char *)(uintptr_t)j->src;
	z->avail_in = j->size;
	z->next_out = j->dst;
	z->avail_out = block;
	return inflate(z, Z_FINISH) == Z_STREAM_END && z->avail_out == 0 ? 0 : -1;
}

static void run_jobs(struct inflate_stream *st, struct inflate_job *jobs, size_t n, uint32_t block)
{
	for (size_t i = 0; i < n; i++)
		jobs[i].failed = inflate_one(st, &jobs[i], block) != 0;
}

static void *helper_main(void *arg)
{
	struct page_inflater *pi = arg;

	pthread_mutex_lock(&pi->lock);
	for (;;) {
		while (!pi->jobs && !pi->stop)
			pthread_cond_wait(&pi->cond, &pi->lock);
		if (pi->stop)
			break;
		struct inflate_job *jobs = pi->jobs;
		size_t n = pi->njobs;
		pthread_mutex_unlock(&pi->lock);
		run_jobs(&pi->helper, jobs, n, pi->block);
		pthread_mutex_lock(&pi->lock);
		pi->jobs = NULL;
		pthread_cond_broadcast(&pi->cond);
	}
	pthread_mutex_unlock(&pi->lock);
	return NULL;
}

struct page_inflater *page_inflater_new(uint32_t block)
{
	struct page_inflater *pi = calloc(1, sizeof(*pi));

	if (!pi)
		return NULL;
	pi->block = block;
	pthread_mutex_init(&pi->lock, NULL);
	pthread_cond_init(&pi->cond, NULL);
	return pi;
}

static int helper_ready(struct page_inflater *pi)
{
	if (!pi->started && !pi->start_failed) {
		pi->started = pthread_create(&pi->thread, NULL, helper_main, pi) == 0;
		pi->start_failed = !pi->started;
	}
	return pi->started;
}

void page_inflater_run(struct page_inflater *pi, struct inflate_job *jobs, size_t n, int two_threads)
{
	size_t zlib = 0, half = 0, seen = 0;

	for (size_t i = 0; i < n; i++)
		zlib += jobs[i].src != NULL;
	if (!two_threads || zlib < INFLATE_SPLIT_MIN || !helper_ready(pi)) {
		run_jobs(&pi->mine, jobs, n, pi->block);
		return;
	}
	/* The helper takes the jobs after the one where half the zlib pages
	 * are behind. */
	while (half < n && seen < zlib / 2) {
		seen += jobs[half].src != NULL;
		half++;
	}
	pthread_mutex_lock(&pi->lock);
	pi->jobs = jobs + half;
	pi->njobs = n - half;
	pthread_cond_broadcast(&pi->cond);
	pthread_mutex_unlock(&pi->lock);
	run_jobs(&pi->mine, jobs, half, pi->block);
	pthread_mutex_lock(&pi->lock);
	while (pi->jobs)
		pthread_cond_wait(&pi->cond, &pi->lock);
	pthread_mutex_unlock(&pi->lock);
}

static void stream_end(struct inflate_stream *st)
{
	if (st->ready)
		inflateEnd(&st->z);
	st->ready = 0;
}

void page_inflater_free(struct page_inflater *pi)
{
	if (!pi)
		return;
	if (pi->started) {
		pthread_mutex_lock(&pi->lock);
		pi->stop = 1;
		pthread_cond_broadcast(&pi->cond);
		pthread_mutex_unlock(&pi->lock);
		pthread_join(pi->thread, NULL);
	}
	pthread_mutex_destroy(&pi->lock);
	pthread_cond_destroy(&pi->cond);
	stream_end(&pi->mine);
	stream_end(&pi->helper);
	free(pi);
}
