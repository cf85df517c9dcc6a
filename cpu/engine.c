/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CPU engine: frames run in parallel on the host job pool
 * (common/hostpool.c), each worker with its own feature states; every
 * feature's value depends only on its frame (and the previous references),
 * so results do not depend on the thread count. Pictures are copied into
 * internal planar images, reference-counted so that frame n can lend its
 * reference to frames n + 1 and n + 2 (and its distorted picture to frame
 * n + 1, for features that need it). A distorted picture of another size
 * is scaled to the reference's on the submitting thread (common/scale.h).
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/backend.h"
#include "common/hostpool.h"
#include "common/picture.h"
#include "common/scale.h"

typedef struct Pic {
    VgImage img;
    int refs;
    struct Pic *next_free;
} Pic;

typedef struct CpuEngine {
    VgEngineParams p;
    VgHostPool *pool;
    const VgFeatureInst **insts; ///< &p.feats[i], for the workers' states
    int need_prev;
    int need_prev_dis;

    pthread_mutex_t lock;
    pthread_cond_t done_cond;

    Pic *free_pics;
    Pic *prev, *prev2;
    Pic *prev_dis;

    int scaled; ///< distorted pictures are scaled
    VgScaler scaler;
    VgImage scale_src; ///< the distorted picture at its own size
    uint8_t *scale_src_buf;
    int16_t *scale_tmp;

    uint8_t *done;
    unsigned done_cap;
    unsigned n_ready, n_submitted;
    int error;
} CpuEngine;

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

/* the pool's job-done callback: opaque[] holds the job's pictures */
static void job_done(void *owner, const VgHostJob *job, int ret)
{
    CpuEngine *e = owner;

    pthread_mutex_lock(&e->lock);
    if (ret < 0 && !e->error)
        e->error = ret;
    e->done[job->frame.index] = 1;
    while (e->n_ready < e->n_submitted && e->done[e->n_ready])
        e->n_ready++;
    for (int i = 0; i < 5; i++)
        pic_unref_locked(e, job->opaque[i]);
    pthread_cond_broadcast(&e->done_cond);
    pthread_mutex_unlock(&e->lock);
}

static void cpu_close(void **engine)
{
    CpuEngine *e = *engine;

    if (!e)
        return;
    vg_host_pool_close(&e->pool);
    free(e->insts);
    pthread_mutex_lock(&e->lock);
    pic_unref_locked(e, e->prev);
    pic_unref_locked(e, e->prev2);
    pic_unref_locked(e, e->prev_dis);
    pthread_mutex_unlock(&e->lock);
    while (e->free_pics) {
        Pic *p = e->free_pics;
        e->free_pics = p->next_free;
        vg_image_free(&p->img);
        free(p);
    }
    vg_scaler_uninit(&e->scaler);
    free(e->scale_src_buf);
    free(e->scale_tmp);
    free(e->done);
    pthread_cond_destroy(&e->done_cond);
    pthread_mutex_destroy(&e->lock);
    free(e);
    *engine = NULL;
}

static int cpu_usable(const VgConfig *cfg, VgLog *log)
{
    return 0;
}

static int open_scaler(CpuEngine *e)
{
    const VgEngineParams *p = &e->p;
    size_t bytes;
    int ret;

    if (p->dis_width == p->width && p->dis_height == p->height)
        return 0;
    if ((ret = vg_scaler_init(&e->scaler, p->cfg->scale, p->layout, p->bpc,
                              p->dis_width, p->dis_height, p->width, p->height,
                              p->log)) < 0)
        return ret;
    bytes = vg_scaler_src_geometry(&e->scaler, &e->scale_src);
    e->scale_src_buf = malloc(bytes);
    e->scale_tmp = malloc(vg_scaler_tmp_size(&e->scaler));
    if (!e->scale_src_buf || !e->scale_tmp) {
        vg_log(p->log, VG_LOG_ERROR,
               "cpu engine: out of memory for the "
               "scaling of distorted pictures");
        return -ENOMEM;
    }
    vg_image_place(&e->scale_src, (uintptr_t)e->scale_src_buf);
    e->scaled = 1;
    /* chroma is scaled only for the features that read it */
    e->scaler.luma_only = !vg_engine_reads_chroma(p);
    vg_log(p->log, VG_LOG_INFO,
           "distorted pictures scaled from %ux%u to "
           "%ux%u (%s)",
           p->dis_width, p->dis_height, p->width, p->height,
           vg_scale_name(p->cfg->scale));
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
    pthread_cond_init(&e->done_cond, NULL);
    for (unsigned f = 0; f < p->n_feats; f++)
        if (p->feats[f].desc->flags & VG_FEATURE_PREV_REF)
            e->need_prev = 1;
    for (unsigned f = 0; f < p->n_feats; f++)
        if (p->feats[f].desc->flags & VG_FEATURE_PREV_DIS)
            e->need_prev_dis = 1;
    e->insts = calloc(p->n_feats ? p->n_feats : 1, sizeof(*e->insts));
    if (!e->insts) {
        ret = -ENOMEM;
        goto fail;
    }
    for (unsigned f = 0; f < p->n_feats; f++)
        e->insts[f] = &p->feats[f];
    if ((ret = open_scaler(e)) < 0)
        goto fail;
    if ((ret = vg_host_pool_open(&e->pool, p, e->insts, p->n_feats,
                                 p->cfg->n_threads, job_done, e)) < 0)
        goto fail;
    vg_log(p->log, VG_LOG_DEBUG, "cpu engine: %u worker(s), %u feature(s)",
           p->cfg->n_threads, p->n_feats);
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
    Pic *pr = NULL, *pd = NULL, *prev = NULL, *prev2 = NULL, *prevd = NULL;
    VgHostJob job;
    int ret;

    if (e->error)
        return e->error;
    if (ref->memory != VG_MEMORY_HOST || dis->memory != VG_MEMORY_HOST) {
        vg_log(e->p.log, VG_LOG_ERROR,
               "the cpu backend reads host pictures "
               "only");
        return -ENOTSUP;
    }
    pr = pic_get(e);
    pd = pic_get(e);
    if (!pr || !pd) {
        ret = -ENOMEM;
        goto fail;
    }
    vg_picture_to_image(&pr->img, ref);
    if (e->scaled) {
        vg_picture_to_image(&e->scale_src, dis);
        vg_scaler_run(&e->scaler, &pd->img, &e->scale_src, e->scale_tmp);
    } else {
        vg_picture_to_image(&pd->img, dis);
    }

    pthread_mutex_lock(&e->lock);
    if ((ret = grow_done(e, index)) < 0) {
        pthread_mutex_unlock(&e->lock);
        goto fail;
    }
    if (e->need_prev) {
        prev = e->prev;
        prev2 = e->prev2;
        if (prev)
            prev->refs++;
        if (prev2)
            prev2->refs++;
        pic_unref_locked(e, e->prev2);
        e->prev2 = e->prev;
        e->prev = pr;
        pr->refs++;
    }
    if (e->need_prev_dis) {
        prevd = e->prev_dis;
        if (prevd)
            prevd->refs++;
        pic_unref_locked(e, e->prev_dis);
        e->prev_dis = pd;
        pd->refs++;
    }
    e->n_submitted = index + 1;
    pthread_mutex_unlock(&e->lock);

    job = (VgHostJob) {
        .frame = {
            .index = index,
            .ref = &pr->img,
            .dis = &pd->img,
            .prev_ref = prev ? &prev->img : NULL,
            .prev_prev_ref = prev2 ? &prev2->img : NULL,
            .prev_dis = prevd ? &prevd->img : NULL,
        },
        .opaque = { pr, pd, prev, prev2, prevd },
    };
    /* the job owns the pictures from here on: job_done() releases them */
    return vg_host_pool_push(e->pool, &job);

fail:
    pthread_mutex_lock(&e->lock);
    pic_unref_locked(e, pr);
    pic_unref_locked(e, pd);
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
    return vg_host_pool_flush(e->pool);
}

/* a ladder's rendition reads rendition 0's reference stages */
static int cpu_link(void *engine, void *source)
{
    CpuEngine *e = engine, *src = source;
    char names[256];
    int ret;

    if ((ret = vg_host_pool_share_stages(e->pool, src->pool, names,
                                         sizeof(names))) < 0)
        return ret;
    if (*names)
        vg_log(e->p.log, VG_LOG_INFO,
               "cpu engine: the reference stage of %s comes from rendition 0",
               names);
    return 0;
}

const VgBackendOps vg_backend_cpu = {
    .name = "cpu",
    .kind = VG_BACKEND_CPU,
    .memories = 1u << VG_MEMORY_HOST,
    .usable = cpu_usable,
    .open = cpu_open,
    .submit = cpu_submit,
    .frames_ready = cpu_frames_ready,
    .flush = cpu_flush,
    .link = cpu_link,
    .close = cpu_close,
};
