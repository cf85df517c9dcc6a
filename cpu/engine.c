/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CPU engine: frames run in parallel on a pool of workers, each with its
 * own feature states; every feature's value depends only on its frame (and
 * the previous references), so results do not depend on the thread count.
 * Pictures are copied into internal planar images, reference-counted so
 * that frame n can lend its reference to frames n + 1 and n + 2.
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/backend.h"
#include "common/picture.h"

typedef struct Pic {
    VgImage img;
    int refs;
    struct Pic *next_free;
} Pic;

typedef struct Job {
    unsigned index;
    Pic *ref, *dis, *prev, *prev2;
} Job;

typedef struct CpuEngine CpuEngine;

typedef struct Worker {
    CpuEngine *e;
    VgFeatureCtx *fc;   ///< one per feature
} Worker;

struct CpuEngine {
    VgEngineParams p;
    int threaded;
    unsigned n_workers;
    Worker *workers;
    VgThreads threads;
    const VgFeatureInst **insts; ///< &p.feats[i], for the workers' states
    int need_prev;

    pthread_mutex_t lock;
    pthread_cond_t job_cond, done_cond;
    Job *queue;
    unsigned q_head, q_count, q_cap;
    int quit;

    Pic *free_pics;
    Pic *prev, *prev2;

    uint8_t *done;
    unsigned done_cap;
    unsigned n_ready, n_submitted;
    int error;
};

static Pic *pic_get(CpuEngine *e)
{
    Pic *pic;

    pthread_mutex_lock(&e->lock);
    pic = e->free_pics;
    if (pic)
        e->free_pics = pic->next_free;
    pthread_mutex_unlock(&e->lock);
    if (!pic) {
        pic = calloc(1, sizeof(*pic));
        if (!pic)
            return NULL;
        if (vg_image_alloc(&pic->img, e->p.layout, e->p.bpc, e->p.width,
                           e->p.height) < 0) {
            free(pic);
            return NULL;
        }
    }
    pic->refs = 1;
    return pic;
}

/* call with e->lock held */
static void pic_unref_locked(CpuEngine *e, Pic *pic)
{
    if (pic && --pic->refs == 0) {
        pic->next_free = e->free_pics;
        e->free_pics = pic;
    }
}

static int run_job(CpuEngine *e, Worker *w, const Job *job)
{
    const unsigned sub = e->p.cfg->n_subsample > 1 ? e->p.cfg->n_subsample : 1;

    for (unsigned f = 0; f < e->p.n_feats; f++) {
        VgFeatureCtx *fc = &w->fc[f];
        const VgFeatureDesc *d = fc->desc;
        VgFrame frame = {
            .index = job->index,
            .ref = &job->ref->img,
            .dis = &job->dis->img,
        };
        int ret;

        if (!(d->flags & VG_FEATURE_EVERY_FRAME) && job->index % sub)
            continue;
        if (d->flags & VG_FEATURE_PREV_REF) {
            frame.prev_ref = job->prev ? &job->prev->img : NULL;
            frame.prev_prev_ref = job->prev2 ? &job->prev2->img : NULL;
        }
        if ((ret = d->cpu->extract(fc, &frame)) < 0) {
            vg_log(e->p.log, VG_LOG_ERROR, "feature '%s' failed on frame %u "
                   "(%d)", d->name, job->index, ret);
            return ret;
        }
    }
    return 0;
}

static void job_done(CpuEngine *e, const Job *job, int ret)
{
    pthread_mutex_lock(&e->lock);
    if (ret < 0 && !e->error)
        e->error = ret;
    e->done[job->index] = 1;
    while (e->n_ready < e->n_submitted && e->done[e->n_ready])
        e->n_ready++;
    pic_unref_locked(e, job->ref);
    pic_unref_locked(e, job->dis);
    pic_unref_locked(e, job->prev);
    pic_unref_locked(e, job->prev2);
    pthread_cond_broadcast(&e->done_cond);
    pthread_mutex_unlock(&e->lock);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    CpuEngine *e = w->e;

    for (;;) {
        Job job;
        int ret;

        pthread_mutex_lock(&e->lock);
        while (!e->q_count && !e->quit)
            pthread_cond_wait(&e->job_cond, &e->lock);
        if (!e->q_count) {
            pthread_mutex_unlock(&e->lock);
            break;
        }
        job = e->queue[e->q_head];
        e->q_head = (e->q_head + 1) % e->q_cap;
        e->q_count--;
        pthread_cond_broadcast(&e->done_cond);
        pthread_mutex_unlock(&e->lock);

        ret = e->error ? 0 : run_job(e, w, &job);
        job_done(e, &job, ret);
    }
    return NULL;
}

static void cpu_close(void **engine)
{
    CpuEngine *e = *engine;

    if (!e)
        return;
    vg_threads_stop(&e->threads, &e->lock, &e->job_cond, &e->quit);
    for (unsigned i = 0; e->workers && i < e->n_workers; i++)
        vg_feature_ctxs_close_cpu(&e->workers[i].fc, e->p.n_feats);
    free(e->workers);
    free(e->insts);
    pthread_mutex_lock(&e->lock);
    pic_unref_locked(e, e->prev);
    pic_unref_locked(e, e->prev2);
    pthread_mutex_unlock(&e->lock);
    while (e->free_pics) {
        Pic *p = e->free_pics;
        e->free_pics = p->next_free;
        vg_image_free(&p->img);
        free(p);
    }
    free(e->queue);
    free(e->done);
    pthread_cond_destroy(&e->job_cond);
    pthread_cond_destroy(&e->done_cond);
    pthread_mutex_destroy(&e->lock);
    free(e);
    *engine = NULL;
}

static int cpu_usable(const VgConfig *cfg, VgLog *log)
{
    return 0;
}

static int cpu_open(void **engine, const VgEngineParams *p)
{
    CpuEngine *e = calloc(1, sizeof(*e));
    int ret;

    if (!e)
        return -ENOMEM;
    e->p = *p;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->job_cond, NULL);
    pthread_cond_init(&e->done_cond, NULL);
    e->threaded = p->cfg->n_threads > 0;
    e->n_workers = e->threaded ? p->cfg->n_threads : 1;
    for (unsigned f = 0; f < p->n_feats; f++)
        if (p->feats[f].desc->flags & VG_FEATURE_PREV_REF)
            e->need_prev = 1;
    e->workers = calloc(e->n_workers, sizeof(*e->workers));
    e->q_cap = 2 * e->n_workers;
    e->queue = calloc(e->q_cap, sizeof(*e->queue));
    e->insts = calloc(p->n_feats ? p->n_feats : 1, sizeof(*e->insts));
    if (!e->workers || !e->queue || !e->insts) {
        ret = -ENOMEM;
        goto fail;
    }
    for (unsigned f = 0; f < p->n_feats; f++)
        e->insts[f] = &p->feats[f];
    for (unsigned i = 0; i < e->n_workers; i++) {
        e->workers[i].e = e;
        if ((ret = vg_feature_ctxs_open_cpu(&e->workers[i].fc, p, e->insts,
                                            p->n_feats)) < 0)
            goto fail;
    }
    if (e->threaded &&
        (ret = vg_threads_start(&e->threads, e->n_workers, worker_main,
                                e->workers, sizeof(*e->workers), p->log)) < 0)
        goto fail;
    vg_log(p->log, VG_LOG_DEBUG, "cpu engine: %u worker(s), %u feature(s)",
           e->threaded ? e->n_workers : 0, p->n_feats);
    *engine = e;
    return 0;
fail:
    *engine = e;
    cpu_close(engine);
    return ret;
}

static int grow_done(CpuEngine *e, unsigned index)
{
    if (index < e->done_cap)
        return 0;
    unsigned cap = e->done_cap ? e->done_cap * 2 : 256;
    while (cap <= index)
        cap *= 2;
    uint8_t *d = realloc(e->done, cap);
    if (!d)
        return -ENOMEM;
    memset(d + e->done_cap, 0, cap - e->done_cap);
    e->done = d;
    e->done_cap = cap;
    return 0;
}

static int cpu_submit(void *engine, const VgPicture *ref, const VgPicture *dis,
                      unsigned index)
{
    CpuEngine *e = engine;
    Job job = { .index = index };
    int ret;

    if (e->error)
        return e->error;
    if (ref->memory != VG_MEMORY_HOST || dis->memory != VG_MEMORY_HOST) {
        vg_log(e->p.log, VG_LOG_ERROR, "the CPU backend reads host pictures "
               "only; CUDA device pictures need the CUDA backend");
        return -ENOTSUP;
    }
    job.ref = pic_get(e);
    job.dis = pic_get(e);
    if (!job.ref || !job.dis) {
        ret = -ENOMEM;
        goto fail;
    }
    vg_picture_to_image(&job.ref->img, ref);
    vg_picture_to_image(&job.dis->img, dis);

    pthread_mutex_lock(&e->lock);
    if ((ret = grow_done(e, index)) < 0) {
        pthread_mutex_unlock(&e->lock);
        goto fail;
    }
    if (e->need_prev) {
        job.prev = e->prev;
        job.prev2 = e->prev2;
        if (job.prev)
            job.prev->refs++;
        if (job.prev2)
            job.prev2->refs++;
        pic_unref_locked(e, e->prev2);
        e->prev2 = e->prev;
        e->prev = job.ref;
        job.ref->refs++;
    }
    e->n_submitted = index + 1;
    if (e->threaded) {
        while (e->q_count == e->q_cap)
            pthread_cond_wait(&e->done_cond, &e->lock);
        e->queue[(e->q_head + e->q_count) % e->q_cap] = job;
        e->q_count++;
        pthread_cond_signal(&e->job_cond);
        pthread_mutex_unlock(&e->lock);
        return 0;
    }
    pthread_mutex_unlock(&e->lock);
    ret = run_job(e, &e->workers[0], &job);
    job_done(e, &job, ret);
    return ret;

fail:
    pthread_mutex_lock(&e->lock);
    pic_unref_locked(e, job.ref);
    pic_unref_locked(e, job.dis);
    pthread_mutex_unlock(&e->lock);
    return ret;
}

static unsigned cpu_frames_ready(void *engine)
{
    CpuEngine *e = engine;
    unsigned n;

    pthread_mutex_lock(&e->lock);
    n = e->n_ready;
    pthread_mutex_unlock(&e->lock);
    return n;
}

static int cpu_flush(void *engine)
{
    CpuEngine *e = engine;
    int ret;

    pthread_mutex_lock(&e->lock);
    while (e->n_ready < e->n_submitted)
        pthread_cond_wait(&e->done_cond, &e->lock);
    ret = e->error;
    pthread_mutex_unlock(&e->lock);
    if (ret < 0)
        return ret;
    for (unsigned f = 0; f < e->p.n_feats; f++) {
        VgFeatureCtx *fc = &e->workers[0].fc[f];
        if (fc->desc->cpu->flush && (ret = fc->desc->cpu->flush(fc)) < 0)
            return ret;
    }
    return 0;
}

const VgBackendOps vg_backend_cpu = {
    .name = "cpu",
    .usable = cpu_usable,
    .open = cpu_open,
    .submit = cpu_submit,
    .frames_ready = cpu_frames_ready,
    .flush = cpu_flush,
    .close = cpu_close,
};
