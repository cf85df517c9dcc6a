/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CUDA engine. Frames go through a ring of slots; each slot holds the
 * frame's device images (internal layout, shared by every CUDA feature),
 * pinned staging for host pictures, a device result area with its pinned
 * host copy and a completion event. Nothing in the frame path waits for
 * the device except to reuse a slot (the event of the frame that last
 * used it). The device itself (context, stream, kernels, launches) is
 * gpu/core/device.c's.
 *
 * The host's share of a frame runs as one job on the host pool
 * (common/hostpool.c), several frames at once and in any order: the
 * reference implementations of features without a CUDA implementation,
 * on a pinned host copy of the frame's internal images, and the host
 * steps (VgCudaFeatureImpl.finish) of CUDA features, on the frame's
 * results. A frame is ready when its job is done; frames become ready in
 * frame order. The ring holds enough slots to keep the device busy while
 * the host steps of earlier frames run: VG_CUDA_SLOTS without host work,
 * one more per host thread with it.
 *
 * With one CUDA feature, all of a frame's work is queued on the engine
 * stream. With several, the engine stream converts the frame's pictures,
 * its features run side by side on feature streams forked from it, and
 * a result stream joins them, copies the results (and the images for host
 * features) to the host and records the frame's completion event. The
 * engine stream never waits for the features, so consecutive frames
 * overlap: frame n + 1 is converted and its features start while frame
 * n's last kernels run. A slot's images are read by its frame and, as
 * previous pictures, by the next two, so before converting frame n into
 * its slot the engine stream waits for the completion event of frame
 * n - 2; those events are recorded in frame order on the one result
 * stream, so every earlier frame, the slot's previous one included, is
 * then finished on the device too. The engine's other device state (the
 * scaler's images, the device copies of host pictures) is only touched on
 * the engine stream, and a feature's own buffers only on its stream (a
 * feature always runs on the same one), so stream order keeps them safe.
 *
 * In a ladder (VgConfig.n_distorted), the engine of rendition 0 computes
 * the reference stage of each feature that has one (VG_FEATURE_REF_STAGE
 * and VgCudaFeatureImpl.ref_stage_size) into a ring of VG_CUDA_STAGE_RING
 * entries, and the engines of the other renditions read it there
 * (cuda_link()). All the renditions run in one CUDA context, so events
 * order them: a reader of frame n waits for the event its writer records
 * after queuing frame n, and the writer, before it writes frame n into an
 * entry, waits for every reader's event of frame n - VG_CUDA_STAGE_RING.
 * The ladder queues every frame for rendition 0 first, so each event
 * waited for is already recorded for the frame it stands for.
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/backend.h"
#include "common/hostpool.h"
#include "common/picture.h"
#include "gpu/core/device.h"
#include "gpu/core/feature.h"
#include "gpu/core/picture.h"
#include "gpu/core/scale.h"

/** Frames in flight; >= 3 so that frames n - 1 and n - 2 stay resident. */
#define VG_CUDA_SLOTS 4
/** Most frames in flight, with host work. */
#define VG_CUDA_SLOTS_MAX 24
/** Host threads for the host steps when the configuration asks for none. */
#define VG_CUDA_HOST_THREADS_MAX 16
/** Streams of a frame's CUDA features, which run side by side. */
#define VG_CUDA_FEATURE_STREAMS 8
#define VG_CUDA_RES_ALIGN 16
/** Frames of a reference stage a ladder keeps; >= 2 so that rendition 0
 *  writes frame n + 1 while the others read frame n. */
#define VG_CUDA_STAGE_RING 2

/** The reference stage of one CUDA feature of rendition 0's engine. */
typedef struct Stage {
    size_t bytes;    ///< of one entry
    CUdeviceptr mem; ///< VG_CUDA_STAGE_RING entries
    CUevent made[VG_CUDA_STAGE_RING];
    unsigned n_readers;
    CUevent read[VG_MAX_RENDITIONS][VG_CUDA_STAGE_RING];
} Stage;

/** A feature's place in a ladder's reference stages. */
typedef struct StageLink {
    Stage *own;      ///< the stage this engine writes (rendition 0), or NULL
    Stage *src;      ///< the stage this engine reads (rendition > 0), or NULL
    unsigned reader; ///< this engine's index in src->read
} StageLink;

typedef struct Slot {
    unsigned index;
    int done;          ///< every output of the frame is emitted
    int need_cpu;      ///< host features run on this frame
    int range_checked; ///< device pictures checked against their depth
    uint64_t gpu_ran;  ///< CUDA features queued for this frame
    VgImage ref, dis;  ///< device images
    CUdeviceptr ref_buf, dis_buf;
    CUdeviceptr ref_f, dis_f; ///< float luma (VG_CUDA_NEED_FLOAT_LUMA), or 0
    void *stage_buf[2];       ///< pinned staging of host pictures (raw rows)
    CUdeviceptr raw_buf[2];   ///< their device copy, converted into ref/dis
    VgImage host[2];          ///< pinned host copies for host features
    void *host_buf[2];
    CUdeviceptr res;
    void *host_res;
    CUevent done_ev, in_ev, out_ev;
} Slot;

typedef struct VgCudaEngine {
    VgEngineParams p;
    VgLog *log;
    VgCudaDevice dev;
    const VgCuda *cu; ///< dev.cu
    VgCudaConverter conv;

    VgImage geom; ///< internal image geometry
    size_t img_bytes;
    size_t raw_bytes; ///< staging of one host picture

    size_t f_pitch; ///< float luma row pitch; 0 = none needed

    int scaled;          ///< distorted pictures are scaled
    VgCudaScaler scaler; ///< converts them into scaler.src first

    unsigned n_gpu;
    VgFeatureCtx *gfc;
    const VgCudaFeatureImpl **gimpl;
    size_t *res_off;
    size_t res_bytes;

    uint64_t finish_mask; ///< CUDA features with a host step
    StageLink *stage;     ///< per CUDA feature

    unsigned n_cpu;
    const VgFeatureInst **cpu_inst;
    VgHostPool *pool;

    unsigned n_slots;
    Slot *slot;
    unsigned n_submitted, n_collected;

    /* with several CUDA features, each frame's features run side by side
     * on n_fs streams of their own, forked from the engine stream after the
     * pictures are converted (fork_ev); the result stream joins them
     * (join_ev), copies the results to the host and records the frame's
     * done_ev. The engine stream does not wait for them: it goes on with
     * the next frame, after the done_ev of frame index - 2 (the last
     * reader of the slot's images) */
    unsigned n_fs;
    CUstream fs[VG_CUDA_FEATURE_STREAMS];
    CUstream res_stream;
    CUevent fork_ev, join_ev[VG_CUDA_FEATURE_STREAMS];

    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    unsigned n_ready;
    int error;
} VgCudaEngine;

#define CU(fn, ...) VG_CU(e->cu, e->log, fn, __VA_ARGS__)

static const VgCudaFeatureImpl *const cuda_impls[VG_NB_FEATURES] = {
#define VG_GPU_IMPL_0(name) NULL
#define VG_GPU_IMPL_1(name) &vg_cuda_##name
#define VG_FEATURE(name, gpu) [VG_FEATURE_ID_##name] = VG_GPU_IMPL_##gpu(name),
#include "common/features/list.h"
#undef VG_FEATURE
};

const VgCudaFeatureImpl *vg_cuda_feature(const VgFeatureDesc *desc)
{
    return desc->id < VG_NB_FEATURES ? cuda_impls[desc->id] : NULL;
}

static int push_ctx(VgCudaEngine *e)
{
    return vg_cuda_device_push(&e->dev);
}

static int pop_ctx(VgCudaEngine *e)
{
    return vg_cuda_device_pop(&e->dev);
}

static int runs_on(const VgEngineParams *p, const VgFeatureDesc *d,
                   unsigned index)
{
    const unsigned sub = p->cfg->n_subsample > 1 ? p->cfg->n_subsample : 1;

    return (d->flags & VG_FEATURE_EVERY_FRAME) || !(index % sub);
}

/* data pointers of an image of the engine geometry starting at base */
static void image_at(const VgCudaEngine *e, VgImage *img, uintptr_t base)
{
    *img = e->geom;
    vg_image_place(img, base);
}

/* ---- host features ------------------------------------------------------ */

/* call with e->lock held */
static void advance_ready_locked(VgCudaEngine *e)
{
    while (e->n_ready < e->n_collected) {
        const Slot *s = &e->slot[e->n_ready % e->n_slots];
        if (s->index != e->n_ready || !s->done)
            break;
        e->n_ready++;
    }
    pthread_cond_broadcast(&e->done_cond);
}

/* the host pool's job-done callback: opaque[0] is the slot */
static void host_job_done(void *owner, const VgHostJob *job, int ret)
{
    VgCudaEngine *e = owner;
    Slot *s = job->opaque[0];

    pthread_mutex_lock(&e->lock);
    if (ret < 0 && !e->error)
        e->error = ret;
    s->done = 1;
    advance_ready_locked(e);
    pthread_mutex_unlock(&e->lock);
}

/* the frame's view for feature f of slot s, as collect() and finish see it */
static VgCudaFrame collected_frame(const VgCudaEngine *e, const Slot *s,
                                   unsigned f)
{
    return (VgCudaFrame){
        .index = s->index,
        .ref = &s->ref,
        .dis = &s->dis,
        .res = s->res + e->res_off[f],
        .host_res = (const uint8_t *)s->host_res + e->res_off[f],
    };
}

/* the host pool's job function: the host steps of the frame's CUDA
 * features (opaque[0] is the slot), on a pool thread */
static int host_steps(void *owner, const VgHostJob *job)
{
    VgCudaEngine *e = owner;
    const Slot *s = job->opaque[0];
    const uint64_t run = s->gpu_ran & e->finish_mask;

    for (unsigned f = 0; run && f < e->n_gpu; f++) {
        const VgCudaFrame frame = collected_frame(e, s, f);
        int ret;

        if (!(run & (UINT64_C(1) << f)))
            continue;
        if ((ret = e->gimpl[f]->finish(&e->gfc[f], &frame)) < 0) {
            vg_log(e->log, VG_LOG_ERROR,
                   "feature '%s' failed on frame %u "
                   "(%d)",
                   e->gfc[f].desc->name, s->index, ret);
            return ret;
        }
    }
    return 0;
}

/* ---- collection ---------------------------------------------------------- */

/*
 * Collect completed frames in order: poll their events, or wait for the
 * events of frames up to `wait_upto` when `wait` is set. Emits CUDA
 * features' values and hands frames to the host workers.
 */
static int collect(VgCudaEngine *e, int wait, unsigned wait_upto)
{
    while (e->n_collected < e->n_submitted) {
        Slot *s = &e->slot[e->n_collected % e->n_slots];
        CUresult res;
        int host, ret;

        if (wait && s->index <= wait_upto) {
            res = e->cu->f->cuEventSynchronize(s->done_ev);
        } else {
            res = e->cu->f->cuEventQuery(s->done_ev);
            if (res == CUDA_ERROR_NOT_READY)
                break;
        }
        if ((ret = vg_cuda_error(e->cu, e->log, res,
                                 wait && s->index <= wait_upto
                                     ? "cuEventSynchronize"
                                     : "cuEventQuery",
                                 __FILE__, __LINE__)) < 0)
            return ret;

        if (s->range_checked) {
            const uint64_t *rw = s->host_res;
            if ((ret = vg_cuda_picture_range_result(
                     e->log, &s->ref, "reference", s->index, rw)) < 0 ||
                (ret = vg_cuda_picture_range_result(
                     e->log, e->scaled ? &e->scaler.src : &s->dis, "distorted",
                     s->index, rw + 3)) < 0)
                return ret;
        }
        for (unsigned f = 0; f < e->n_gpu; f++) {
            VgFeatureCtx *fc = &e->gfc[f];
            const VgCudaFeatureImpl *impl = e->gimpl[f];
            const VgCudaFrame frame = collected_frame(e, s, f);

            if (!(s->gpu_ran & (UINT64_C(1) << f)) || !impl->collect)
                continue;
            if ((ret = impl->collect(fc, &frame)) < 0) {
                vg_log(e->log, VG_LOG_ERROR,
                       "feature '%s' failed on frame "
                       "%u (%d)",
                       fc->desc->name, s->index, ret);
                return ret;
            }
        }

        host = s->need_cpu || (s->gpu_ran & e->finish_mask);
        pthread_mutex_lock(&e->lock);
        e->n_collected++;
        if (!host)
            s->done = 1;
        advance_ready_locked(e);
        pthread_mutex_unlock(&e->lock);
        if (host) {
            const VgHostJob job = {
                .frame = { .index = s->index,
                           .ref = &s->host[0],
                           .dis = &s->host[1] },
                .run = host_steps,
                .opaque = { s },
            };
            if ((ret = vg_host_pool_push(e->pool, &job)) < 0)
                return ret;
        }
    }
    return 0;
}

/* wait until frames 0..index are completely done */
static int wait_done(VgCudaEngine *e, unsigned index)
{
    int ret;

    if ((ret = collect(e, 1, index)) < 0)
        return ret;
    pthread_mutex_lock(&e->lock);
    while (e->n_ready <= index && !e->error)
        pthread_cond_wait(&e->done_cond, &e->lock);
    ret = e->error;
    pthread_mutex_unlock(&e->lock);
    return ret;
}

/* ---- backend ops --------------------------------------------------------- */

static void free_slot(VgCudaEngine *e, Slot *s)
{
    if (s->ref_buf)
        CU(cuMemFree, s->ref_buf);
    if (s->dis_buf)
        CU(cuMemFree, s->dis_buf);
    if (s->ref_f)
        CU(cuMemFree, s->ref_f);
    if (s->dis_f)
        CU(cuMemFree, s->dis_f);
    if (s->res)
        CU(cuMemFree, s->res);
    if (s->host_res)
        VG_CUX(e->cu, e->log, cuMemFreeHost, s->host_res);
    for (int i = 0; i < 2; i++) {
        if (s->stage_buf[i])
            VG_CUX(e->cu, e->log, cuMemFreeHost, s->stage_buf[i]);
        if (s->raw_buf[i])
            CU(cuMemFree, s->raw_buf[i]);
        if (s->host_buf[i])
            VG_CUX(e->cu, e->log, cuMemFreeHost, s->host_buf[i]);
    }
    if (s->done_ev)
        CU(cuEventDestroy, s->done_ev);
    if (s->in_ev)
        CU(cuEventDestroy, s->in_ev);
    if (s->out_ev)
        CU(cuEventDestroy, s->out_ev);
    memset(s, 0, sizeof(*s));
}

static int alloc_slot(VgCudaEngine *e, Slot *s)
{
    int ret;

    if ((ret = CU(cuMemAlloc, &s->ref_buf, e->img_bytes)) < 0 ||
        (ret = CU(cuMemAlloc, &s->dis_buf, e->img_bytes)) < 0 ||
        (ret = CU(cuMemAlloc, &s->res, e->res_bytes)) < 0 ||
        (ret = VG_CUX(e->cu, e->log, cuMemHostAlloc, &s->host_res, e->res_bytes,
                      0)) < 0 ||
        (ret = CU(cuEventCreate, &s->done_ev, CU_EVENT_DISABLE_TIMING)) < 0 ||
        (ret = CU(cuEventCreate, &s->in_ev, CU_EVENT_DISABLE_TIMING)) < 0 ||
        (ret = CU(cuEventCreate, &s->out_ev, CU_EVENT_DISABLE_TIMING)) < 0)
        return ret;
    image_at(e, &s->ref, (uintptr_t)s->ref_buf);
    image_at(e, &s->dis, (uintptr_t)s->dis_buf);
    if (e->f_pitch) {
        const size_t bytes = e->f_pitch * (e->geom.h[0] ? e->geom.h[0] : 1);
        if ((ret = CU(cuMemAlloc, &s->ref_f, bytes)) < 0 ||
            (ret = CU(cuMemAlloc, &s->dis_f, bytes)) < 0)
            return ret;
    }
    return 0;
}

/* pinned host image of the engine geometry, allocated on first use */
static int pinned_image(VgCudaEngine *e, VgImage *img, void **buf)
{
    int ret;

    if (*buf)
        return 0;
    if ((ret = VG_CUX(e->cu, e->log, cuMemHostAlloc, buf, e->img_bytes, 0)) <
        0) {
        *buf = NULL;
        return ret;
    }
    image_at(e, img, (uintptr_t)*buf);
    return 0;
}

/* the device state of a stage; the struct is freed with the engine */
static void stage_free(VgCudaEngine *e, Stage *st)
{
    if (!st)
        return;
    for (unsigned j = 0; j < VG_CUDA_STAGE_RING; j++) {
        if (st->made[j])
            CU(cuEventDestroy, st->made[j]);
        for (unsigned k = 0; k < st->n_readers; k++)
            if (st->read[k][j])
                CU(cuEventDestroy, st->read[k][j]);
    }
    if (st->mem)
        CU(cuMemFree, st->mem);
    memset(st, 0, sizeof(*st));
}

static void cuda_close(void **engine)
{
    VgCudaEngine *e = *engine;

    if (!e)
        return;
    /* host features first: they finish their queued frames, which read
     * host memory only */
    vg_host_pool_close(&e->pool);
    if (e->cu && e->dev.ctx && push_ctx(e) >= 0) {
        /* the engine's own work only, never a device-wide sync */
        if (e->dev.stream)
            CU(cuStreamSynchronize, e->dev.stream);
        for (unsigned k = 0; k < e->n_fs; k++)
            CU(cuStreamSynchronize, e->fs[k]);
        if (e->res_stream)
            CU(cuStreamSynchronize, e->res_stream);
        for (unsigned f = 0; e->gfc && f < e->n_gpu; f++) {
            VgFeatureCtx *fc = &e->gfc[f];
            if (fc->priv && e->gimpl[f]->close)
                e->gimpl[f]->close(fc);
        }
        for (unsigned f = 0; e->stage && f < e->n_gpu; f++)
            stage_free(e, e->stage[f].own);
        for (unsigned i = 0; e->slot && i < e->n_slots; i++)
            free_slot(e, &e->slot[i]);
        vg_cuda_scaler_close(&e->scaler, &e->dev);
        for (unsigned k = 0; k < e->n_fs; k++) {
            CU(cuStreamDestroy, e->fs[k]);
            CU(cuEventDestroy, e->join_ev[k]);
        }
        if (e->res_stream)
            CU(cuStreamDestroy, e->res_stream);
        if (e->fork_ev)
            CU(cuEventDestroy, e->fork_ev);
        e->n_fs = 0;
        e->res_stream = NULL;
        pop_ctx(e); /* logged; nothing else to undo */
    }
    vg_cuda_device_close(&e->dev);
    /* host state, also when the context could not be made current */
    vg_scaler_uninit(&e->scaler.s);
    for (unsigned f = 0; e->gfc && f < e->n_gpu; f++)
        free(e->gfc[f].priv);
    for (unsigned f = 0; e->stage && f < e->n_gpu; f++)
        free(e->stage[f].own);
    free(e->stage);
    free(e->gfc);
    free(e->gimpl);
    free(e->res_off);
    free(e->cpu_inst);
    free(e->slot);
    pthread_cond_destroy(&e->done_cond);
    pthread_mutex_destroy(&e->lock);
    free(e);
    *engine = NULL;
}

static int open_features(VgCudaEngine *e)
{
    const VgEngineParams *p = &e->p;
    char names[256] = "";
    int ret;

    e->gfc = calloc(p->n_feats ? p->n_feats : 1, sizeof(*e->gfc));
    e->res_off = calloc(p->n_feats ? p->n_feats : 1, sizeof(*e->res_off));
    e->gimpl = calloc(p->n_feats ? p->n_feats : 1, sizeof(*e->gimpl));
    e->cpu_inst = calloc(p->n_feats ? p->n_feats : 1, sizeof(*e->cpu_inst));
    e->stage = calloc(p->n_feats ? p->n_feats : 1, sizeof(*e->stage));
    if (!e->gfc || !e->gimpl || !e->res_off || !e->cpu_inst || !e->stage)
        return -ENOMEM;
    if (p->n_feats > 64) {
        vg_log(e->log, VG_LOG_ERROR, "cuda engine: too many features");
        return -EINVAL;
    }
    /* the result area starts with the sample-range words of both
     * pictures (gpu/core/picture.h), then each CUDA feature's results */
    e->res_bytes = (2 * VG_CUDA_RANGE_BYTES + VG_CUDA_RES_ALIGN - 1) &
                   ~(size_t)(VG_CUDA_RES_ALIGN - 1);
    for (unsigned f = 0; f < p->n_feats; f++) {
        const VgFeatureInst *inst = &p->feats[f];
        const VgCudaFeatureImpl *impl = vg_cuda_feature(inst->desc);

        if (impl && impl->usable && !impl->usable(inst->opts))
            impl = NULL;
        if (!impl) {
            if (inst->desc->flags &
                (VG_FEATURE_PREV_REF | VG_FEATURE_PREV_DIS)) {
                vg_log(e->log, VG_LOG_ERROR,
                       "feature '%s' has no CUDA "
                       "implementation and needs previous references",
                       inst->desc->name);
                return -ENOTSUP;
            }
            e->cpu_inst[e->n_cpu++] = inst;
            vg_feature_names_add(names, sizeof(names), inst->desc->name);
            continue;
        }
        VgFeatureCtx *fc = &e->gfc[e->n_gpu];
        vg_feature_ctx_fill(fc, &e->p, inst);
        fc->backend = &e->dev;
        e->gimpl[e->n_gpu] = impl;
        fc->priv = calloc(1, impl->priv_size ? impl->priv_size : 1);
        if (!fc->priv)
            return -ENOMEM;
        if (impl->finish)
            e->finish_mask |= UINT64_C(1) << e->n_gpu;
        e->n_gpu++;
        if (impl->init && (ret = impl->init(fc)) < 0) {
            vg_log(e->log, VG_LOG_ERROR,
                   "feature '%s': CUDA initialisation "
                   "failed (%d)",
                   inst->desc->name, ret);
            return ret;
        }
        e->res_off[e->n_gpu - 1] = e->res_bytes;
        e->res_bytes +=
            ((impl->res_size_of ? impl->res_size_of(fc) : impl->res_size) +
             VG_CUDA_RES_ALIGN - 1) &
            ~(size_t)(VG_CUDA_RES_ALIGN - 1);
    }
    if (e->n_cpu)
        vg_log(e->log, VG_LOG_INFO,
               "cuda engine: no CUDA implementation "
               "of %s; running on the CPU",
               names);
    return 0;
}

static int cuda_open(void **engine, const VgEngineParams *p)
{
    VgCudaEngine *e = calloc(1, sizeof(*e));
    unsigned host_threads;
    int pushed = 0, ret;

    if (!e)
        return -ENOMEM;
    e->p = *p;
    e->log = p->log;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->done_cond, NULL);

    if ((ret = vg_cuda_device_open(&e->dev, p->cfg, e->log)) < 0)
        goto fail;
    e->cu = e->dev.cu;
    if ((ret = push_ctx(e)) < 0)
        goto fail;
    pushed = 1;
    if ((ret = vg_cuda_converter_init(&e->conv, &e->dev)) < 0)
        goto fail;

    e->img_bytes =
        vg_image_geometry(&e->geom, p->layout, p->bpc, p->width, p->height);
    if ((ret = open_features(e)) < 0)
        goto fail;
    e->raw_bytes = vg_cuda_picture_raw_size(&e->geom, p->fmt);
    if (p->dis_width != p->width || p->dis_height != p->height) {
        size_t raw;

        if ((ret = vg_cuda_scaler_open(&e->scaler, &e->dev, p->cfg->scale,
                                       p->layout, p->bpc, p->dis_width,
                                       p->dis_height, p->width, p->height)) < 0)
            goto fail;
        e->scaled = 1;
        raw = vg_cuda_picture_raw_size(&e->scaler.src, p->fmt);
        if (raw > e->raw_bytes)
            e->raw_bytes = raw;
        vg_log(e->log, VG_LOG_INFO,
               "cuda engine: distorted pictures scaled "
               "from %ux%u to %ux%u (%s)",
               p->dis_width, p->dis_height, p->width, p->height,
               vg_scale_name(p->cfg->scale));
    }
    /* chroma is converted, and scaled, only for the features that read
     * it; the sample-range check reads every plane of the image */
    e->conv.luma_only =
        !vg_picture_can_overflow(p->fmt, p->bpc) && !vg_engine_reads_chroma(p);
    e->scaler.s.luma_only = e->conv.luma_only;
    for (unsigned f = 0; f < e->n_gpu; f++)
        if (e->gimpl[f]->needs & VG_CUDA_NEED_FLOAT_LUMA)
            e->f_pitch = vg_cuda_align((size_t)e->geom.w[0] * sizeof(float));
    /* host work: the host features on n_threads workers, or the calling
     * thread with 0, as on the CPU backend; host steps of CUDA features
     * run on n_threads workers too, or with 0 on one per processor (up to
     * VG_CUDA_HOST_THREADS_MAX), so that they never serialise the frames */
    host_threads = p->cfg->n_threads;
    if (e->finish_mask && !host_threads) {
        const long n = sysconf(_SC_NPROCESSORS_ONLN);

        host_threads = n < 1                          ? 1
                       : n > VG_CUDA_HOST_THREADS_MAX ? VG_CUDA_HOST_THREADS_MAX
                                                      : (unsigned)n;
    }
    e->n_slots = VG_CUDA_SLOTS;
    if (e->n_cpu || e->finish_mask)
        e->n_slots = host_threads + VG_CUDA_SLOTS > VG_CUDA_SLOTS_MAX
                         ? VG_CUDA_SLOTS_MAX
                         : host_threads + VG_CUDA_SLOTS;
    if (!(e->slot = calloc(e->n_slots, sizeof(*e->slot)))) {
        ret = -ENOMEM;
        goto fail;
    }
    for (unsigned i = 0; i < e->n_slots; i++)
        if ((ret = alloc_slot(e, &e->slot[i])) < 0)
            goto fail;
    if (e->n_gpu > 1) {
        const unsigned n = e->n_gpu < VG_CUDA_FEATURE_STREAMS
                               ? e->n_gpu
                               : VG_CUDA_FEATURE_STREAMS;

        if ((ret = CU(cuEventCreate, &e->fork_ev, CU_EVENT_DISABLE_TIMING)) <
                0 ||
            (ret = CU(cuStreamCreate, &e->res_stream, CU_STREAM_NON_BLOCKING)) <
                0)
            goto fail;
        while (e->n_fs < n) {
            CUstream st;
            CUevent ev;

            if ((ret = CU(cuStreamCreate, &st, CU_STREAM_NON_BLOCKING)) < 0)
                goto fail;
            if ((ret = CU(cuEventCreate, &ev, CU_EVENT_DISABLE_TIMING)) < 0) {
                CU(cuStreamDestroy, st);
                goto fail;
            }
            e->fs[e->n_fs] = st;
            e->join_ev[e->n_fs++] = ev;
        }
    }

    if ((e->n_cpu || e->finish_mask) &&
        (ret = vg_host_pool_open(&e->pool, &e->p, e->cpu_inst, e->n_cpu,
                                 host_threads, host_job_done, e)) < 0)
        goto fail;
    vg_log(e->log, VG_LOG_INFO,
           "cuda engine: %s (sm_%d%d), %s context, %u "
           "feature(s) on the GPU (%u with a host step), %u on the host; %u "
           "host thread(s), %u frames in flight",
           e->dev.name, e->dev.major, e->dev.minor,
           e->dev.own_ctx ? "own" : "caller's", e->n_gpu,
           (unsigned)__builtin_popcountll(e->finish_mask), e->n_cpu,
           e->pool ? vg_host_pool_threads(e->pool) : 0, e->n_slots);
    pushed = 0;
    if ((ret = pop_ctx(e)) < 0)
        goto fail;
    *engine = e;
    return 0;
fail:
    if (pushed)
        pop_ctx(e);
    *engine = e;
    cuda_close(engine);
    return ret;
}

/* the stream a device picture was produced on, when it is not the
 * engine's own */
static CUstream picture_stream(const VgCudaEngine *e, const VgPicture *pic)
{
    if (pic->memory != VG_MEMORY_CUDA || !pic->cuda_stream ||
        pic->cuda_stream == e->dev.stream)
        return NULL;
    return pic->cuda_stream;
}

/* make the engine stream wait for the work queued on the pictures' streams:
 * one event for both when they share one, as the frames of one FFmpeg
 * device do */
static int order_after(VgCudaEngine *e, CUevent ev, const VgPicture *ref,
                       const VgPicture *dis)
{
    CUstream a = picture_stream(e, ref), b = picture_stream(e, dis);
    int ret;

    if (a && ((ret = CU(cuEventRecord, ev, a)) < 0 ||
              (ret = CU(cuStreamWaitEvent, e->dev.stream, ev, 0)) < 0))
        return ret;
    if (b && b != a &&
        ((ret = CU(cuEventRecord, ev, b)) < 0 ||
         (ret = CU(cuStreamWaitEvent, e->dev.stream, ev, 0)) < 0))
        return ret;
    return 0;
}

/* make the pictures' streams wait until the engine has read the pictures */
static int order_before(VgCudaEngine *e, CUevent ev, const VgPicture *ref,
                        const VgPicture *dis)
{
    CUstream a = picture_stream(e, ref), b = picture_stream(e, dis);
    int ret;

    if (!a && !b)
        return 0;
    if ((ret = CU(cuEventRecord, ev, e->dev.stream)) < 0 ||
        (a && (ret = CU(cuStreamWaitEvent, a, ev, 0)) < 0) ||
        (b && b != a && (ret = CU(cuStreamWaitEvent, b, ev, 0)) < 0))
        return ret;
    return 0;
}

/* the picture into its image: the slot's, or for a distorted picture to
 * scale the scaler's source image at its own size */
static int load_picture(VgCudaEngine *e, Slot *s, int i, const VgPicture *pic)
{
    VgImage *dst = !i ? &s->ref : e->scaled ? &e->scaler.src : &s->dis;
    int ret;

    if (pic->memory == VG_MEMORY_CUDA)
        return vg_cuda_picture_convert(&e->dev, &e->conv, dst, pic);
    /* staging allocated on first use: device-picture streams need none */
    if (!s->stage_buf[i] &&
        ((ret = VG_CUX(e->cu, e->log, cuMemHostAlloc, &s->stage_buf[i],
                       e->raw_bytes, 0)) < 0 ||
         (ret = CU(cuMemAlloc, &s->raw_buf[i], e->raw_bytes)) < 0))
        return ret;
    return vg_cuda_picture_upload(&e->dev, &e->conv, dst, s->stage_buf[i],
                                  s->raw_buf[i], pic);
}

/*
 * Queue feature f's frame on e->dev.stream, with its reference stage's
 * entry of the frame when it is in a ladder's: the writer waits for the
 * readers of the entry's previous frame and the readers for the writer,
 * each recording its event after its work.
 */
static int submit_feature(VgCudaEngine *e, unsigned f, const VgCudaFrame *in)
{
    const StageLink *l = &e->stage[f];
    const Stage *st = l->own ? l->own : l->src;
    const unsigned j = in->index % VG_CUDA_STAGE_RING;
    VgCudaFrame frame = *in;
    CUevent done;
    int ret;

    if (!st)
        return e->gimpl[f]->submit(&e->gfc[f], in);
    frame.stage = st->mem + j * st->bytes;
    if (l->own) {
        frame.stage_role = VG_STAGE_WRITE;
        for (unsigned k = 0;
             in->index >= VG_CUDA_STAGE_RING && k < st->n_readers; k++)
            if ((ret = CU(cuStreamWaitEvent, e->dev.stream, st->read[k][j],
                          0)) < 0)
                return ret;
        done = st->made[j];
    } else {
        frame.stage_role = VG_STAGE_READ;
        if ((ret = CU(cuStreamWaitEvent, e->dev.stream, st->made[j], 0)) < 0)
            return ret;
        done = st->read[l->reader][j];
    }
    if ((ret = e->gimpl[f]->submit(&e->gfc[f], &frame)) < 0)
        return ret;
    return CU(cuEventRecord, done, e->dev.stream);
}

static int cuda_submit(void *engine, const VgPicture *ref, const VgPicture *dis,
                       unsigned index)
{
    VgCudaEngine *e = engine;
    Slot *s = &e->slot[index % e->n_slots];
    CUstream out;
    int ret, pret;

    if (e->error)
        return e->error;
    if (index != e->n_submitted) {
        vg_log(e->log, VG_LOG_ERROR,
               "cuda engine: frame %u submitted, %u "
               "expected",
               index, e->n_submitted);
        return -EINVAL;
    }
    if ((ret = push_ctx(e)) < 0)
        return ret;
    /* the slot's previous frame must be finished, host features included */
    if (index >= e->n_slots && (ret = wait_done(e, index - e->n_slots)) < 0)
        goto fail;

    s->index = index;
    s->done = 0;
    s->gpu_ran = 0;
    s->need_cpu = 0;
    for (unsigned f = 0; f < e->n_cpu; f++)
        if (runs_on(&e->p, e->cpu_inst[f]->desc, index))
            s->need_cpu = 1;

    /* with feature streams, the engine stream does not wait for the
     * features: the slot's images (and its result area) may still be read
     * by frame index - 2 at the latest (frame index - 4's reference is its
     * prev_prev_ref). Frame index - 2's done_ev follows every earlier frame
     * on the result stream, the slot's previous one included. */
    if (e->n_fs && index >= 2 &&
        (ret = CU(cuStreamWaitEvent, e->dev.stream,
                  e->slot[(index - 2) % e->n_slots].done_ev, 0)) < 0)
        goto fail;

    if ((ret = order_after(e, s->in_ev, ref, dis)) < 0 ||
        (ret = load_picture(e, s, 0, ref)) < 0 ||
        (ret = load_picture(e, s, 1, dis)) < 0 ||
        (ret = order_before(e, s->out_ev, ref, dis)) < 0 ||
        (ret = CU(cuMemsetD8Async, s->res, 0, e->res_bytes, e->dev.stream)) < 0)
        goto fail;
    /* device pictures were not seen on the host: their samples are checked
     * against the bit depth here (a distorted one before it is scaled),
     * and reported when the frame completes */
    s->range_checked = ref->memory == VG_MEMORY_CUDA;
    if (s->range_checked &&
        ((ret = vg_cuda_picture_check_range(&e->dev, &e->conv, &s->ref,
                                            e->p.fmt, s->res)) < 0 ||
         (ret = vg_cuda_picture_check_range(
              &e->dev, &e->conv, e->scaled ? &e->scaler.src : &s->dis, e->p.fmt,
              s->res + VG_CUDA_RANGE_BYTES)) < 0))
        goto fail;
    if (e->scaled &&
        (ret = vg_cuda_scaler_run(&e->scaler, &e->dev, &s->dis)) < 0)
        goto fail;

    /* one float copy of the luma for every feature asking for it */
    if (e->f_pitch &&
        ((ret = vg_cuda_picture_luma_float(&e->dev, &e->conv, &s->ref, s->ref_f,
                                           e->f_pitch)) < 0 ||
         (ret = vg_cuda_picture_luma_float(&e->dev, &e->conv, &s->dis, s->dis_f,
                                           e->f_pitch)) < 0))
        goto fail;

    /* the features' streams start after the work queued so far */
    if (e->n_fs) {
        if ((ret = CU(cuEventRecord, e->fork_ev, e->dev.stream)) < 0)
            goto fail;
        for (unsigned k = 0; k < e->n_fs; k++)
            if ((ret = CU(cuStreamWaitEvent, e->fs[k], e->fork_ev, 0)) < 0)
                goto fail;
    }
    for (unsigned f = 0; f < e->n_gpu; f++) {
        VgFeatureCtx *fc = &e->gfc[f];
        const CUstream main_stream = e->dev.stream;
        const Slot *s1 = &e->slot[(index + e->n_slots - 1) % e->n_slots];
        const Slot *s2 = &e->slot[(index + e->n_slots - 2) % e->n_slots];
        const VgCudaFrame frame = {
            .index = index,
            .ref = &s->ref,
            .dis = &s->dis,
            .prev_ref = index >= 1 ? &s1->ref : NULL,
            .prev_prev_ref = index >= 2 ? &s2->ref : NULL,
            .prev_dis = index >= 1 ? &s1->dis : NULL,
            .ref_f = s->ref_f,
            .dis_f = s->dis_f,
            .f_pitch = e->f_pitch,
            .res = s->res + e->res_off[f],
        };

        if (!runs_on(&e->p, fc->desc, index))
            continue;
        /* the feature's launches and copies go to its stream */
        if (e->n_fs)
            e->dev.stream = e->fs[f % e->n_fs];
        ret = submit_feature(e, f, &frame);
        e->dev.stream = main_stream;
        if (ret < 0) {
            vg_log(e->log, VG_LOG_ERROR,
                   "feature '%s' failed on frame %u "
                   "(%d)",
                   fc->desc->name, index, ret);
            goto fail;
        }
        s->gpu_ran |= UINT64_C(1) << f;
    }

    /* the results are copied on the result stream once the pictures are
     * converted and every feature's stream is done; the engine stream goes
     * on with the next frame */
    if (e->n_fs &&
        (ret = CU(cuStreamWaitEvent, e->res_stream, e->fork_ev, 0)) < 0)
        goto fail;
    for (unsigned k = 0; k < e->n_fs; k++)
        if ((ret = CU(cuEventRecord, e->join_ev[k], e->fs[k])) < 0 ||
            (ret = CU(cuStreamWaitEvent, e->res_stream, e->join_ev[k], 0)) < 0)
            goto fail;
    out = e->n_fs ? e->res_stream : e->dev.stream;

    /* host features read a pinned host copy of the converted images */
    for (int i = 0; s->need_cpu && i < 2; i++)
        if ((ret = pinned_image(e, &s->host[i], &s->host_buf[i])) < 0 ||
            (ret = CU(cuMemcpyDtoHAsync, s->host_buf[i],
                      i ? s->dis_buf : s->ref_buf, e->img_bytes, out)) < 0)
            goto fail;
    if ((ret = CU(cuMemcpyDtoHAsync, s->host_res, s->res, e->res_bytes, out)) <
            0 ||
        (ret = CU(cuEventRecord, s->done_ev, out)) < 0)
        goto fail;
    e->n_submitted++;
    ret = collect(e, 0, 0);
fail:
    if ((pret = pop_ctx(e)) < 0 && ret >= 0)
        ret = pret;
    if (ret < 0 && !e->error) {
        pthread_mutex_lock(&e->lock);
        e->error = ret;
        pthread_mutex_unlock(&e->lock);
    }
    return ret;
}

static unsigned cuda_frames_ready(void *engine)
{
    VgCudaEngine *e = engine;
    unsigned n;
    int ret = 0, pret;

    if (!e->error && (ret = push_ctx(e)) >= 0) {
        ret = collect(e, 0, 0);
        if ((pret = pop_ctx(e)) < 0 && ret >= 0)
            ret = pret;
    }
    pthread_mutex_lock(&e->lock);
    if (ret < 0 && !e->error)
        e->error = ret;
    n = e->n_ready;
    pthread_mutex_unlock(&e->lock);
    return n;
}

static int cuda_flush(void *engine)
{
    VgCudaEngine *e = engine;
    int ret, pret;

    if (e->error)
        return e->error;
    if ((ret = push_ctx(e)) < 0)
        return ret;
    if (e->n_submitted && (ret = wait_done(e, e->n_submitted - 1)) < 0)
        goto end;
    for (unsigned f = 0; f < e->n_gpu; f++) {
        VgFeatureCtx *fc = &e->gfc[f];
        if (e->gimpl[f]->flush && (ret = e->gimpl[f]->flush(fc)) < 0)
            goto end;
    }
    ret = e->pool ? vg_host_pool_flush(e->pool) : 0;
end:
    if ((pret = pop_ctx(e)) < 0 && ret >= 0)
        ret = pret;
    if (ret < 0 && !e->error)
        e->error = ret;
    return ret;
}

/*
 * A ladder's rendition reads the reference stages of rendition 0's engine
 * (source) for every CUDA feature both run with one; the source's ring of
 * a stage is made for its first reader.
 */
static int cuda_link(void *engine, void *source)
{
    VgCudaEngine *e = engine, *src = source;
    char names[256] = "";
    int ret, pret;

    if (e->error || src->error)
        return e->error ? e->error : src->error;
    if (e->dev.ctx != src->dev.ctx)
        return 0; /* events order work of one context only */
    if ((ret = push_ctx(e)) < 0)
        return ret;
    for (unsigned f = 0; f < e->n_gpu; f++) {
        const VgFeatureDesc *d = e->gfc[f].desc;
        const VgCudaFeatureImpl *impl = e->gimpl[f];
        Stage *st;
        size_t bytes;
        int g;

        if (!(d->flags & VG_FEATURE_REF_STAGE) || !impl->ref_stage_size)
            continue;
        if ((g = vg_feature_ctx_twin(e->gfc, f, src->gfc, src->n_gpu)) < 0 ||
            !(bytes = impl->ref_stage_size(&src->gfc[g])))
            continue;
        if (!(st = src->stage[g].own)) {
            if (!(st = calloc(1, sizeof(*st)))) {
                ret = -ENOMEM;
                goto end;
            }
            src->stage[g].own = st;
            st->bytes = vg_cuda_align(bytes);
            if ((ret = CU(cuMemAlloc, &st->mem,
                          st->bytes * VG_CUDA_STAGE_RING)) < 0)
                goto end;
            for (unsigned j = 0; j < VG_CUDA_STAGE_RING; j++)
                if ((ret = CU(cuEventCreate, &st->made[j],
                              CU_EVENT_DISABLE_TIMING)) < 0)
                    goto end;
        }
        if (st->n_readers == VG_MAX_RENDITIONS) {
            ret = -EINVAL;
            goto end;
        }
        e->stage[f].src = st;
        e->stage[f].reader = st->n_readers++;
        for (unsigned j = 0; j < VG_CUDA_STAGE_RING; j++)
            if ((ret = CU(cuEventCreate, &st->read[e->stage[f].reader][j],
                          CU_EVENT_DISABLE_TIMING)) < 0)
                goto end;
        vg_feature_names_add(names, sizeof(names), d->name);
    }
    if (*names)
        vg_log(e->log, VG_LOG_INFO,
               "cuda engine: the reference stage of %s comes from "
               "rendition 0",
               names);
    ret = 0;
end:
    if ((pret = pop_ctx(e)) < 0 && ret >= 0)
        ret = pret;
    return ret;
}

const VgBackendOps vg_backend_cuda = {
    .name = "cuda",
    .kind = VG_BACKEND_CUDA,
    .memories = 1u << VG_MEMORY_HOST | 1u << VG_MEMORY_CUDA,
    .usable = vg_cuda_device_usable,
    .open = cuda_open,
    .submit = cuda_submit,
    .frames_ready = cuda_frames_ready,
    .flush = cuda_flush,
    .link = cuda_link,
    .close = cuda_close,
};
