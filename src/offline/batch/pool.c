/* The default thread pool for mf_batch_update (mf_batch.h): workers wait on a condition
 * variable; a dispatch hands out chunks under one mutex and the caller's thread works too. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include "mf/mf_batch.h"

#define POOL_MAX 256

struct mf_thread_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake, finished;
    pthread_t workers[POOL_MAX];
    int32_t worker_count;
    /* the job in progress (under lock) */
    mf_batch_job job;
    void *user;
    int32_t count, next, chunk, done;
    uint64_t generation;
    bool quit;
};

/* Runs chunks of the current job until none are left. Called with the lock held; returns
 * with it held. */
static void work(mf_thread_pool *p)
{
    while (p->next < p->count) {
        int32_t first = p->next, n = p->count - first < p->chunk ? p->count - first : p->chunk;
        p->next += n;
        mf_batch_job job = p->job;
        void *user = p->user;
        pthread_mutex_unlock(&p->lock);
        job(user, first, n);
        pthread_mutex_lock(&p->lock);
        p->done += n;
        if (p->done == p->count) pthread_cond_broadcast(&p->finished);
    }
}

static void *worker_main(void *arg)
{
    mf_thread_pool *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen) pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit) break;
        seen = p->generation;
        work(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

mf_result mf_thread_pool_create(int32_t threads, mf_thread_pool **out)
{
    if (!out) return MF_ERR_ARGUMENT;
    *out = NULL;
    if (threads < 1 || threads > POOL_MAX) return MF_ERR_ARGUMENT;
    mf_thread_pool *p = calloc(1, sizeof *p);
    if (!p) return MF_ERR_NOMEM;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->finished, NULL);
    for (int32_t i = 0; i < threads - 1; i++) {
        if (pthread_create(&p->workers[i], NULL, worker_main, p) != 0) {
            mf_thread_pool_destroy(p);
            return MF_ERR_NOMEM;
        }
        p->worker_count++;
    }
    *out = p;
    return MF_OK;
}

void mf_thread_pool_destroy(mf_thread_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int32_t i = 0; i < p->worker_count; i++) pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->finished);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

int32_t mf_thread_pool_threads(const mf_thread_pool *p) { return p ? p->worker_count + 1 : 0; }

void mf_thread_pool_dispatch(void *host, mf_batch_job job, void *job_user, int32_t count)
{
    mf_thread_pool *p = host;
    if (!job || count <= 0) return;
    if (!p || p->worker_count == 0) {
        job(job_user, 0, count);
        return;
    }
    pthread_mutex_lock(&p->lock);
    p->job = job, p->user = job_user, p->count = count, p->next = 0, p->done = 0;
    /* a few chunks per thread balance uneven items without much locking */
    int32_t chunks = 4 * (p->worker_count + 1);
    p->chunk = count / chunks > 0 ? count / chunks : 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    work(p);
    while (p->done < p->count) pthread_cond_wait(&p->finished, &p->lock);
    p->count = p->next = p->done = 0;
    pthread_mutex_unlock(&p->lock);
}
