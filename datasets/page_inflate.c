/* Batches of compressed pages decoded on two threads (see page_inflate.h). */
#include "page_inflate.h"

#include <pthread.h>
#include <stdlib.h>

/* Fewer compressed pages than this in a batch are decoded by the caller
 * alone: a hand-over to the helper (a wake-up and a wait) costs tens of
 * microseconds in a VM, a page's inflate a few. */
#define INFLATE_SPLIT_MIN 16u

/* One thread's codec states (page_codec.h), by the codec's slot. */
struct inflate_stream {
	void *state[PAGE_CODECS_MAX];
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
	if (!j->src)
		return 0;
	return j->codec->decode(&st->state[page_codec_index(j->codec)], j->src, j->size, j->dst, block);
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
	size_t packed = 0, half = 0, seen = 0;

	for (size_t i = 0; i < n; i++)
		packed += jobs[i].src != NULL;
	if (!two_threads || packed < INFLATE_SPLIT_MIN || !helper_ready(pi)) {
		run_jobs(&pi->mine, jobs, n, pi->block);
		return;
	}
	/* The helper takes the jobs after the one where half the compressed
	 * pages are behind. */
	while (half < n && seen < packed / 2) {
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
	for (unsigned i = 0; page_codecs[i]; i++)
		if (st->state[i] && page_codecs[i]->state_free)
			page_codecs[i]->state_free(st->state[i]);
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
