/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "common/hostpool.h"

typedef struct Worker {
    VgHostPool *pool;
    VgFeatureCtx *fc; ///< one per feature
} Worker;

struct VgHostPool {
    VgEngineParams p;
    unsigned n_feats;
    VgHostJobDoneFn *done;
    void *owner;
    unsigned n_workers; ///< states: max(1, n_threads)
    unsigned n_threads;
    Worker *workers;
    VgThreads threads;

    pthread_mutex_t lock;
    pthread_cond_t job_cond, space_cond;
    VgHostJob *queue;
    unsigned q_head, q_count, q_cap;
    unsigned running; ///< jobs taken and not yet done
    int quit;
    int error;
};

static int run_job(VgHostPool *pool, Worker *w, const VgHostJob *job)
{
    const unsigned sub =
        pool->p.cfg->n_subsample > 1 ? pool->p.cfg->n_subsample : 1;

    for (unsigned f = 0; f < pool->n_feats; f++) {
        VgFeatureCtx *fc = &w->fc[f];
        const VgFeatureDesc *d = fc->desc;
        VgFrame frame = job->frame;
        int ret;

        if (!(d->flags & VG_FEATURE_EVERY_FRAME) && frame.index % sub)
            continue;
        if (!(d->flags & VG_FEATURE_PREV_REF))
            frame.prev_ref = frame.prev_prev_ref = NULL;
        if (!(d->flags & VG_FEATURE_PREV_DIS))
            frame.prev_dis = NULL;
        if ((ret = vg_feature_cpu(d)->extract(fc, &frame)) < 0) {
            vg_log(pool->p.log, VG_LOG_ERROR,
                   "feature '%s' failed on frame "
                   "%u (%d)",
                   d->name, frame.index, ret);
            return ret;
        }
    }
    return job->run ? job->run(pool->owner, job) : 0;
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    VgHostPool *pool = w->pool;

    for (;;) {
        VgHostJob job;
        int ret;

        pthread_mutex_lock(&pool->lock);
        while (!pool->q_count && !pool->quit)
            pthread_cond_wait(&pool->job_cond, &pool->lock);
        if (!pool->q_count) {
            pthread_mutex_unlock(&pool->lock);
            break;
        }
        job = pool->queue[pool->q_head];
        pool->q_head = (pool->q_head + 1) % pool->q_cap;
        pool->q_count--;
        pool->running++;
        ret = pool->error;
        pthread_cond_broadcast(&pool->space_cond);
        pthread_mutex_unlock(&pool->lock);

        if (!ret)
            ret = run_job(pool, w, &job);
        pool->done(pool->owner, &job, ret);

        pthread_mutex_lock(&pool->lock);
        if (ret < 0 && !pool->error)
            pool->error = ret;
        pool->running--;
        pthread_cond_broadcast(&pool->space_cond);
        pthread_mutex_unlock(&pool->lock);
    }
    return NULL;
}

int vg_host_pool_push(VgHostPool *pool, const VgHostJob *job)
{
    int ret;

    if (!pool->n_threads) {
        ret = pool->error ? pool->error : run_job(pool, &pool->workers[0], job);
        if (ret < 0 && !pool->error)
            pool->error = ret;
        pool->done(pool->owner, job, ret);
        return ret;
    }
    pthread_mutex_lock(&pool->lock);
    while (pool->q_count == pool->q_cap)
        pthread_cond_wait(&pool->space_cond, &pool->lock);
    pool->queue[(pool->q_head + pool->q_count) % pool->q_cap] = *job;
    pool->q_count++;
    pthread_cond_signal(&pool->job_cond);
    pthread_mutex_unlock(&pool->lock);
    return 0;
}

int vg_host_pool_wait(VgHostPool *pool)
{
    int ret;

    pthread_mutex_lock(&pool->lock);
    while (pool->q_count || pool->running)
        pthread_cond_wait(&pool->space_cond, &pool->lock);
    ret = pool->error;
    pthread_mutex_unlock(&pool->lock);
    return ret;
}

int vg_host_pool_flush(VgHostPool *pool)
{
    int ret;

    for (unsigned f = 0; f < pool->n_feats; f++) {
        VgFeatureCtx *fc = &pool->workers[0].fc[f];
        const VgFeatureImpl *impl = vg_feature_cpu(fc->desc);
        if (impl->flush && (ret = impl->flush(fc)) < 0)
            return ret;
    }
    return 0;
}

unsigned vg_host_pool_threads(const VgHostPool *pool)
{
    return pool->n_threads;
}

void vg_host_pool_close(VgHostPool **ppool)
{
    VgHostPool *pool = *ppool;

    if (!pool)
        return;
    vg_threads_stop(&pool->threads, &pool->lock, &pool->job_cond, &pool->quit);
    for (unsigned i = 0; pool->workers && i < pool->n_workers; i++)
        vg_feature_ctxs_close_cpu(&pool->workers[i].fc, pool->n_feats);
    free(pool->workers);
    free(pool->queue);
    pthread_cond_destroy(&pool->job_cond);
    pthread_cond_destroy(&pool->space_cond);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
    *ppool = NULL;
}

int vg_host_pool_open(VgHostPool **ppool, const VgEngineParams *p,
                      const VgFeatureInst *const *insts, unsigned n,
                      unsigned n_threads, VgHostJobDoneFn *done, void *owner)
{
    VgHostPool *pool = calloc(1, sizeof(*pool));
    int ret;

    *ppool = NULL;
    if (!pool)
        return -ENOMEM;
    pool->p = *p;
    pool->n_feats = n;
    pool->done = done;
    pool->owner = owner;
    pool->n_threads = n_threads;
    pool->n_workers = n_threads ? n_threads : 1;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->job_cond, NULL);
    pthread_cond_init(&pool->space_cond, NULL);
    pool->q_cap = 2 * pool->n_workers;
    pool->queue = calloc(pool->q_cap, sizeof(*pool->queue));
    pool->workers = calloc(pool->n_workers, sizeof(*pool->workers));
    if (!pool->queue || !pool->workers) {
        ret = -ENOMEM;
        goto fail;
    }
    for (unsigned i = 0; i < pool->n_workers; i++) {
        pool->workers[i].pool = pool;
        if ((ret = vg_feature_ctxs_open_cpu(&pool->workers[i].fc, p, insts,
                                            n)) < 0)
            goto fail;
    }
    if (n_threads && (ret = vg_threads_start(
                          &pool->threads, n_threads, worker_main, pool->workers,
                          sizeof(*pool->workers), p->log)) < 0)
        goto fail;
    *ppool = pool;
    return 0;
fail:
    vg_host_pool_close(&pool);
    return ret;
}
