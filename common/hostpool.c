/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/hostpool.h"

/*
 * A ladder's reference stage of one feature (VG_FEATURE_REF_STAGE): a ring
 * of entries that rendition 0's pool writes and the other renditions'
 * pools read. The frames the feature runs on are numbered q = 0, 1, ...
 * (every n_subsample-th frame, or every frame), and frame q goes into entry
 * q % n_entries once the entry's previous frame, q - n_entries, is written
 * and read by every reader: the entries are taken in frame order, however
 * the writer's workers race. A reader waits until its frame is written.
 * Each pool runs its jobs in the order they were queued, and a job waits
 * only for frames before its own (in its pool or in rendition 0's, which
 * is queued first), so the waits always end. A pool that fails marks its
 * stages failed, which ends the waits of the others with its error.
 */
struct VgHostStage {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t bytes; ///< of one entry, a multiple of 64
    unsigned n_entries;
    unsigned n_readers;
    uint8_t *mem;
    struct {
        int64_t q;     ///< the frame in the entry (see above)
        int written;   ///< its writer is done
        unsigned read; ///< readers done with it
    } * entry;
    int error;
};

static void stage_destroy(VgHostStage *st)
{
    if (!st)
        return;
    pthread_cond_destroy(&st->cond);
    pthread_mutex_destroy(&st->lock);
    free(st->entry);
    free(st->mem);
    free(st);
}

static int stage_create(VgHostStage **pst, size_t bytes, unsigned n_entries)
{
    VgHostStage *st = calloc(1, sizeof(*st));

    *pst = NULL;
    if (!st)
        return -ENOMEM;
    pthread_mutex_init(&st->lock, NULL);
    pthread_cond_init(&st->cond, NULL);
    st->bytes = (bytes + 63) & ~(size_t)63;
    st->n_entries = n_entries;
    st->entry = calloc(n_entries, sizeof(*st->entry));
    st->mem = aligned_alloc(64, st->bytes * n_entries);
    if (!st->entry || !st->mem) {
        stage_destroy(st);
        return -ENOMEM;
    }
    /* as if frames -n_entries .. -1 had been written and read */
    for (unsigned j = 0; j < n_entries; j++)
        st->entry[j].q = (int64_t)j - n_entries;
    *pst = st;
    return 0;
}

static void stage_fail(VgHostStage *st, int err)
{
    pthread_mutex_lock(&st->lock);
    if (!st->error)
        st->error = err;
    pthread_cond_broadcast(&st->cond);
    pthread_mutex_unlock(&st->lock);
}

/* the entry of frame q, once it may be written (role VG_STAGE_WRITE) or
 * read (VG_STAGE_READ); NULL after a failure */
static void *stage_begin(VgHostStage *st, int role, int64_t q)
{
    const unsigned j = (unsigned)(q % st->n_entries);
    void *ret = NULL;

    pthread_mutex_lock(&st->lock);
    if (role == VG_STAGE_WRITE) {
        while (!st->error &&
               (st->entry[j].q != q - st->n_entries ||
                (st->entry[j].q >= 0 &&
                 (!st->entry[j].written || st->entry[j].read < st->n_readers))))
            pthread_cond_wait(&st->cond, &st->lock);
        st->entry[j].q = q;
        st->entry[j].written = 0;
        st->entry[j].read = 0;
    } else {
        while (!st->error && (st->entry[j].q != q || !st->entry[j].written))
            pthread_cond_wait(&st->cond, &st->lock);
    }
    if (!st->error)
        ret = st->mem + (size_t)j * st->bytes;
    pthread_mutex_unlock(&st->lock);
    return ret;
}

static void stage_end(VgHostStage *st, int role, int64_t q)
{
    const unsigned j = (unsigned)(q % st->n_entries);

    pthread_mutex_lock(&st->lock);
    if (role == VG_STAGE_WRITE)
        st->entry[j].written = 1;
    else
        st->entry[j].read++;
    pthread_cond_broadcast(&st->cond);
    pthread_mutex_unlock(&st->lock);
}

typedef struct Worker {
    VgHostPool *pool;
    VgFeatureCtx *fc; ///< one per feature
} Worker;

/** A feature's place in a ladder's reference stages. */
typedef struct StageLink {
    VgHostStage *st; ///< NULL: none
    int role;        ///< VG_STAGE_WRITE (the pool owns st) or VG_STAGE_READ
} StageLink;

struct VgHostPool {
    VgEngineParams p;
    unsigned n_feats;
    VgHostJobDoneFn *done;
    void *owner;
    unsigned n_workers; ///< states: max(1, n_threads)
    unsigned n_threads;
    Worker *workers;
    VgThreads threads;
    StageLink *stage; ///< per feature

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
        if (pool->stage[f].st) {
            const StageLink *l = &pool->stage[f];
            /* the feature's frames in order: every one, or every sub-th */
            const int64_t q = d->flags & VG_FEATURE_EVERY_FRAME
                                  ? frame.index
                                  : frame.index / sub;

            if (!(frame.stage = stage_begin(l->st, l->role, q)))
                return -ECANCELED; /* another rendition's error */
            frame.stage_role = l->role;
            ret = vg_feature_cpu(d)->extract(fc, &frame);
            if (ret >= 0)
                stage_end(l->st, l->role, q);
        } else {
            ret = vg_feature_cpu(d)->extract(fc, &frame);
        }
        if (ret < 0) {
            vg_log(pool->p.log, VG_LOG_ERROR,
                   "feature '%s' failed on frame "
                   "%u (%d)",
                   d->name, frame.index, ret);
            return ret;
        }
    }
    return job->run ? job->run(pool->owner, job) : 0;
}

/* a failed pool ends the waits of the pools that share its stages */
static void fail_stages(VgHostPool *pool, int err)
{
    for (unsigned f = 0; f < pool->n_feats; f++)
        if (pool->stage[f].st)
            stage_fail(pool->stage[f].st, err);
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
        if (ret < 0)
            fail_stages(pool, ret);
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
        if (ret < 0)
            fail_stages(pool, ret);
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

int vg_host_pool_share_stages(VgHostPool *pool, VgHostPool *src, char *names,
                              size_t names_size)
{
    int ret;

    if (names_size)
        *names = 0;
    for (unsigned f = 0; f < pool->n_feats; f++) {
        const VgFeatureCtx *fc = &pool->workers[0].fc[f];
        const VgFeatureImpl *impl = vg_feature_cpu(fc->desc);
        VgHostStage *st;
        size_t bytes;
        int g;

        if (!(fc->desc->flags & VG_FEATURE_REF_STAGE) || !impl->ref_stage_size)
            continue;
        if ((g = vg_feature_ctx_twin(pool->workers[0].fc, f, src->workers[0].fc,
                                     src->n_feats)) < 0 ||
            !(bytes = impl->ref_stage_size(&src->workers[0].fc[g])))
            continue;
        if (!(st = src->stage[g].st)) {
            /* an entry per frame the source's workers are on, and two
             * for the frames its readers are still on; a writer that is
             * ahead waits for them */
            const unsigned n_entries =
                src->n_workers + 2 < 8 ? src->n_workers + 2 : 8;

            if ((ret = stage_create(&st, bytes, n_entries)) < 0)
                return ret;
            src->stage[g].st = st;
            src->stage[g].role = VG_STAGE_WRITE;
        }
        pthread_mutex_lock(&st->lock);
        st->n_readers++;
        pthread_mutex_unlock(&st->lock);
        pool->stage[f].st = st;
        pool->stage[f].role = VG_STAGE_READ;
        vg_feature_names_add(names, names_size, fc->desc->name);
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
    for (unsigned f = 0; pool->stage && f < pool->n_feats; f++)
        if (pool->stage[f].role == VG_STAGE_WRITE)
            stage_destroy(pool->stage[f].st);
    free(pool->stage);
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
    pool->stage = calloc(n ? n : 1, sizeof(*pool->stage));
    if (!pool->queue || !pool->workers || !pool->stage) {
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
