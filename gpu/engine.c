/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CUDA engine. Frames go through a ring of VG_CUDA_SLOTS slots; each slot
 * holds the frame's device images (internal layout, shared by every CUDA
 * feature), pinned staging for host pictures, a device result area with
 * its pinned host copy and a completion event. Nothing in the frame path
 * waits for the device except to reuse a slot (the event of the frame
 * that last used it). Features without a CUDA implementation run their
 * CPU implementation on host worker threads, on a pinned host copy of the
 * frame's internal images.
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/backend.h"
#include "gpu/cuda.h"
#include "gpu/engine.h"
#include "gpu/picture.h"

/** The library's kernels (gpu/kernels.cu), embedded at build time. */
extern const unsigned char vg_cuda_fatbin[];

/** Frames in flight; >= 3 so that frames n - 1 and n - 2 stay resident. */
#define VG_CUDA_SLOTS 4
#define VG_CUDA_RES_ALIGN 16

typedef struct Slot {
    unsigned index;
    int done;                   ///< every output of the frame is emitted
    int need_cpu;               ///< host features run on this frame
    uint64_t gpu_ran;           ///< CUDA features queued for this frame
    VgImage ref, dis;           ///< device images
    CUdeviceptr ref_buf, dis_buf;
    void *stage_buf[2];         ///< pinned staging of host pictures (raw rows)
    CUdeviceptr raw_buf[2];     ///< their device copy, converted into ref/dis
    VgImage host[2];            ///< pinned host copies for host features
    void *host_buf[2];
    CUdeviceptr res;
    void *host_res;
    CUevent done_ev, in_ev, out_ev;
} Slot;

typedef struct Worker {
    VgCudaEngine *e;
    VgFeatureCtx *fc;           ///< one per host feature
} Worker;

struct VgCudaEngine {
    VgEngineParams p;
    VgLog *log;
    const VgCuda *cu;
    CUcontext ctx;
    CUdevice dev;
    int own_ctx;
    CUstream stream;
    int own_stream;
    CUmodule module;
    VgCudaConverter conv;

    VgImage geom;               ///< internal image geometry
    size_t img_bytes;
    size_t raw_bytes;           ///< staging of one host picture

    unsigned n_gpu;
    VgFeatureCtx *gfc;
    size_t *res_off;
    size_t res_bytes;

    unsigned n_cpu;
    const VgFeatureInst **cpu_inst;
    unsigned n_workers;
    Worker *workers;
    VgThreads threads;

    Slot slot[VG_CUDA_SLOTS];
    unsigned n_submitted, n_collected;

    pthread_mutex_t lock;
    pthread_cond_t job_cond, done_cond;
    unsigned jobs[VG_CUDA_SLOTS];
    unsigned cpu_taken, cpu_pushed;
    unsigned n_ready;
    int quit;
    int error;
};

#define CU(fn, ...) VG_CU(e->cu, e->log, fn, __VA_ARGS__)

const VgCuda *vg_cuda_engine_api(const VgCudaEngine *e)
{
    return e->cu;
}

CUstream vg_cuda_engine_stream(const VgCudaEngine *e)
{
    return e->stream;
}

VgLog *vg_cuda_engine_log(const VgCudaEngine *e)
{
    return e->log;
}

int vg_cuda_engine_function(VgCudaEngine *e, const char *name, CUfunction *fn)
{
    return CU(cuModuleGetFunction, fn, e->module, name);
}

int vg_cuda_engine_launch(VgCudaEngine *e, CUfunction fn, unsigned gx,
                          unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          void *params)
{
    void *args[] = { params };

    if (!gx || !gy || !gz)
        return 0;
    return CU(cuLaunchKernel, fn, gx, gy, gz, bx, by, 1, 0, e->stream, args,
              NULL);
}

static int push_ctx(VgCudaEngine *e)
{
    return CU(cuCtxPushCurrent, e->ctx);
}

static void pop_ctx(VgCudaEngine *e)
{
    CUcontext dummy;

    CU(cuCtxPopCurrent, &dummy);
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
    for (unsigned p = 0; p < img->nb_planes; p++) {
        img->data[p] = (void *)base;
        base += (size_t)img->stride[p] * (img->h[p] ? img->h[p] : 1);
    }
}

/* ---- host workers for features without a CUDA implementation ---------- */

/* call with e->lock held */
static void advance_ready_locked(VgCudaEngine *e)
{
    while (e->n_ready < e->n_collected) {
        const Slot *s = &e->slot[e->n_ready % VG_CUDA_SLOTS];
        if (s->index != e->n_ready || !s->done)
            break;
        e->n_ready++;
    }
    pthread_cond_broadcast(&e->done_cond);
}

static int run_cpu_features(VgCudaEngine *e, Worker *w, const Slot *s)
{
    for (unsigned f = 0; f < e->n_cpu; f++) {
        VgFeatureCtx *fc = &w->fc[f];
        const VgFrame frame = {
            .index = s->index,
            .ref = &s->host[0],
            .dis = &s->host[1],
        };
        int ret;

        if (!runs_on(&e->p, fc->desc, s->index))
            continue;
        if ((ret = fc->desc->cpu->extract(fc, &frame)) < 0) {
            vg_log(e->log, VG_LOG_ERROR, "feature '%s' failed on frame %u "
                   "(%d)", fc->desc->name, s->index, ret);
            return ret;
        }
    }
    return 0;
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    VgCudaEngine *e = w->e;

    for (;;) {
        Slot *s;
        int ret;

        pthread_mutex_lock(&e->lock);
        while (e->cpu_taken == e->cpu_pushed && !e->quit)
            pthread_cond_wait(&e->job_cond, &e->lock);
        if (e->cpu_taken == e->cpu_pushed) {
            pthread_mutex_unlock(&e->lock);
            break;
        }
        s = &e->slot[e->jobs[e->cpu_taken % VG_CUDA_SLOTS] % VG_CUDA_SLOTS];
        e->cpu_taken++;
        ret = e->error;
        pthread_mutex_unlock(&e->lock);

        if (!ret)
            ret = run_cpu_features(e, w, s);

        pthread_mutex_lock(&e->lock);
        if (ret < 0 && !e->error)
            e->error = ret;
        s->done = 1;
        advance_ready_locked(e);
        pthread_mutex_unlock(&e->lock);
    }
    return NULL;
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
        Slot *s = &e->slot[e->n_collected % VG_CUDA_SLOTS];
        CUresult res;
        int ret;

        if (wait && s->index <= wait_upto) {
            res = e->cu->f->cuEventSynchronize(s->done_ev);
        } else {
            res = e->cu->f->cuEventQuery(s->done_ev);
            if (res == CUDA_ERROR_NOT_READY)
                break;
        }
        if ((ret = vg_cuda_error(e->cu, e->log, res, "cuEventSynchronize",
                                 __FILE__, __LINE__)) < 0)
            return ret;

        for (unsigned f = 0; f < e->n_gpu; f++) {
            VgFeatureCtx *fc = &e->gfc[f];
            const VgCudaFeatureImpl *impl = fc->desc->cuda;
            const VgCudaFrame frame = {
                .index = s->index,
                .ref = &s->ref,
                .dis = &s->dis,
                .res = s->res + e->res_off[f],
                .host_res = (const uint8_t *)s->host_res + e->res_off[f],
            };

            if (!(s->gpu_ran & (UINT64_C(1) << f)))
                continue;
            if ((ret = impl->collect(fc, &frame)) < 0) {
                vg_log(e->log, VG_LOG_ERROR, "feature '%s' failed on frame "
                       "%u (%d)", fc->desc->name, s->index, ret);
                return ret;
            }
        }

        pthread_mutex_lock(&e->lock);
        e->n_collected++;
        if (s->need_cpu) {
            e->jobs[e->cpu_pushed % VG_CUDA_SLOTS] = s->index;
            e->cpu_pushed++;
            pthread_cond_signal(&e->job_cond);
        } else {
            s->done = 1;
        }
        advance_ready_locked(e);
        pthread_mutex_unlock(&e->lock);
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

static int cuda_usable(const VgConfig *cfg, VgLog *log)
{
    /* the reason matters to a caller that asked for CUDA; for
     * backend=auto it only explains the fallback to the CPU */
    const enum VgLogLevel level = cfg->backend == VG_BACKEND_CUDA ?
                                  VG_LOG_WARNING : VG_LOG_INFO;
    const VgCuda *cu;
    int n = 0, ret;

    if ((ret = vg_cuda_load(&cu, log, level)) < 0)
        return ret;
    if (!cfg->cuda_context) {
        if (cu->f->cuDeviceGetCount(&n) != CUDA_SUCCESS || n <= 0) {
            vg_log(log, level, "CUDA driver loaded but no CUDA device found");
            ret = -ENODEV;
        } else if (cfg->cuda_device < 0 || cfg->cuda_device >= n) {
            vg_log(log, level, "CUDA device %d requested, %d present",
                   cfg->cuda_device, n);
            ret = -ENODEV;
        }
    }
    vg_cuda_unload(&cu);
    return ret;
}

static void free_slot(VgCudaEngine *e, Slot *s)
{
    if (s->ref_buf)
        CU(cuMemFree, s->ref_buf);
    if (s->dis_buf)
        CU(cuMemFree, s->dis_buf);
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
        (ret = VG_CUX(e->cu, e->log, cuMemHostAlloc, &s->host_res,
                      e->res_bytes, 0)) < 0 ||
        (ret = CU(cuEventCreate, &s->done_ev, CU_EVENT_DISABLE_TIMING)) < 0 ||
        (ret = CU(cuEventCreate, &s->in_ev, CU_EVENT_DISABLE_TIMING)) < 0 ||
        (ret = CU(cuEventCreate, &s->out_ev, CU_EVENT_DISABLE_TIMING)) < 0)
        return ret;
    image_at(e, &s->ref, (uintptr_t)s->ref_buf);
    image_at(e, &s->dis, (uintptr_t)s->dis_buf);
    return 0;
}

/* pinned host image of the engine geometry, allocated on first use */
static int pinned_image(VgCudaEngine *e, VgImage *img, void **buf)
{
    int ret;

    if (*buf)
        return 0;
    if ((ret = VG_CUX(e->cu, e->log, cuMemHostAlloc, buf, e->img_bytes,
                      0)) < 0) {
        *buf = NULL;
        return ret;
    }
    image_at(e, img, (uintptr_t)*buf);
    return 0;
}

static void cuda_close(void **engine)
{
    VgCudaEngine *e = *engine;

    if (!e)
        return;
    /* host workers first: they finish their queued frames, which read
     * host memory only */
    vg_threads_stop(&e->threads, &e->lock, &e->job_cond, &e->quit);
    for (unsigned i = 0; e->workers && i < e->n_workers; i++)
        vg_feature_ctxs_close_cpu(&e->workers[i].fc, e->n_cpu);
    if (e->cu && e->ctx && push_ctx(e) >= 0) {
        /* the engine's own work only, never a device-wide sync */
        if (e->stream)
            CU(cuStreamSynchronize, e->stream);
        for (unsigned f = 0; e->gfc && f < e->n_gpu; f++) {
            VgFeatureCtx *fc = &e->gfc[f];
            const VgCudaFeatureImpl *impl = fc->desc->cuda;
            if (fc->priv && impl->close)
                impl->close(fc);
            free(fc->priv);
        }
        for (int i = 0; i < VG_CUDA_SLOTS; i++)
            free_slot(e, &e->slot[i]);
        if (e->module)
            CU(cuModuleUnload, e->module);
        if (e->own_stream && e->stream)
            CU(cuStreamDestroy, e->stream);
        pop_ctx(e);
    }
    if (e->own_ctx)
        CU(cuDevicePrimaryCtxRelease, e->dev);
    free(e->workers);
    free(e->gfc);
    free(e->res_off);
    free(e->cpu_inst);
    vg_cuda_unload(&e->cu);
    pthread_cond_destroy(&e->job_cond);
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
    e->cpu_inst = calloc(p->n_feats ? p->n_feats : 1, sizeof(*e->cpu_inst));
    if (!e->gfc || !e->res_off || !e->cpu_inst)
        return -ENOMEM;
    if (p->n_feats > 64) {
        vg_log(e->log, VG_LOG_ERROR, "cuda engine: too many features");
        return -EINVAL;
    }
    e->res_bytes = 0;
    for (unsigned f = 0; f < p->n_feats; f++) {
        const VgFeatureInst *inst = &p->feats[f];
        const VgCudaFeatureImpl *impl = inst->desc->cuda;

        if (!impl) {
            if (inst->desc->flags & VG_FEATURE_PREV_REF) {
                vg_log(e->log, VG_LOG_ERROR, "feature '%s' has no CUDA "
                       "implementation and needs previous references",
                       inst->desc->name);
                return -ENOTSUP;
            }
            e->cpu_inst[e->n_cpu++] = inst;
            if (strlen(names) + strlen(inst->desc->name) + 3 < sizeof(names)) {
                if (*names)
                    strcat(names, ", ");
                strcat(names, inst->desc->name);
            }
            continue;
        }
        VgFeatureCtx *fc = &e->gfc[e->n_gpu];
        vg_feature_ctx_fill(fc, &e->p, inst);
        fc->backend = e;
        fc->priv = calloc(1, impl->priv_size ? impl->priv_size : 1);
        if (!fc->priv)
            return -ENOMEM;
        e->res_off[e->n_gpu] = e->res_bytes;
        e->res_bytes += (impl->res_size + VG_CUDA_RES_ALIGN - 1) &
                        ~(size_t)(VG_CUDA_RES_ALIGN - 1);
        e->n_gpu++;
        if (impl->init && (ret = impl->init(fc)) < 0) {
            vg_log(e->log, VG_LOG_ERROR, "feature '%s': CUDA initialisation "
                   "failed (%d)", inst->desc->name, ret);
            return ret;
        }
    }
    if (!e->res_bytes)
        e->res_bytes = VG_CUDA_RES_ALIGN;
    if (e->n_cpu)
        vg_log(e->log, VG_LOG_INFO, "cuda engine: no CUDA implementation "
               "of %s; running on the CPU", names);
    return 0;
}

static int cuda_open(void **engine, const VgEngineParams *p)
{
    VgCudaEngine *e = calloc(1, sizeof(*e));
    char name[128] = "";
    int major = 0, minor = 0, pushed = 0, ret;

    if (!e)
        return -ENOMEM;
    e->p = *p;
    e->log = p->log;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->job_cond, NULL);
    pthread_cond_init(&e->done_cond, NULL);

    if ((ret = vg_cuda_load(&e->cu, e->log, VG_LOG_ERROR)) < 0)
        goto fail;
    if (p->cfg->cuda_context) {
        e->ctx = p->cfg->cuda_context;
        if ((ret = push_ctx(e)) < 0)
            goto fail;
        pushed = 1;
        if ((ret = CU(cuCtxGetDevice, &e->dev)) < 0)
            goto fail;
    } else {
        if ((ret = CU(cuDeviceGet, &e->dev, p->cfg->cuda_device)) < 0 ||
            (ret = CU(cuDevicePrimaryCtxRetain, &e->ctx, e->dev)) < 0)
            goto fail;
        e->own_ctx = 1;
        if ((ret = push_ctx(e)) < 0)
            goto fail;
        pushed = 1;
    }
    CU(cuDeviceGetName, name, sizeof(name) - 1, e->dev);
    CU(cuDeviceComputeCapability, &major, &minor, e->dev);

    if (p->cfg->cuda_stream) {
        e->stream = p->cfg->cuda_stream;
    } else {
        if ((ret = CU(cuStreamCreate, &e->stream, CU_STREAM_NON_BLOCKING)) < 0)
            goto fail;
        e->own_stream = 1;
    }
    if ((ret = CU(cuModuleLoadData, &e->module, vg_cuda_fatbin)) < 0 ||
        (ret = vg_cuda_converter_init(&e->conv, e)) < 0)
        goto fail;

    e->img_bytes = vg_image_geometry(&e->geom, p->layout, p->bpc, p->width,
                                     p->height);
    if ((ret = open_features(e)) < 0)
        goto fail;
    e->raw_bytes = vg_cuda_picture_raw_size(&e->geom, p->fmt);
    for (int i = 0; i < VG_CUDA_SLOTS; i++)
        if ((ret = alloc_slot(e, &e->slot[i])) < 0)
            goto fail;

    if (e->n_cpu) {
        e->n_workers = p->cfg->n_threads ? p->cfg->n_threads : 1;
        if (!(e->workers = calloc(e->n_workers, sizeof(*e->workers)))) {
            ret = -ENOMEM;
            goto fail;
        }
        for (unsigned i = 0; i < e->n_workers; i++) {
            e->workers[i].e = e;
            if ((ret = vg_feature_ctxs_open_cpu(&e->workers[i].fc, &e->p,
                                                e->cpu_inst, e->n_cpu)) < 0)
                goto fail;
        }
        if ((ret = vg_threads_start(&e->threads, e->n_workers, worker_main,
                                    e->workers, sizeof(*e->workers),
                                    e->log)) < 0)
            goto fail;
    }
    vg_log(e->log, VG_LOG_INFO, "cuda engine: %s (sm_%d%d), %s context, %u "
           "feature(s) on the GPU, %u on %u host thread(s)", name, major,
           minor, e->own_ctx ? "own" : "caller's", e->n_gpu, e->n_cpu,
           e->n_workers);
    pop_ctx(e);
    *engine = e;
    return 0;
fail:
    if (pushed)
        pop_ctx(e);
    *engine = e;
    cuda_close(engine);
    return ret;
}

/* make the engine stream wait for work queued on a picture's stream */
static int order_after(VgCudaEngine *e, CUevent ev, const VgPicture *pic)
{
    int ret;

    if (pic->memory != VG_MEMORY_CUDA || !pic->cuda_stream ||
        pic->cuda_stream == e->stream)
        return 0;
    if ((ret = CU(cuEventRecord, ev, pic->cuda_stream)) < 0)
        return ret;
    return CU(cuStreamWaitEvent, e->stream, ev, 0);
}

/* make a picture's stream wait until the engine has read the picture */
static int order_before(VgCudaEngine *e, CUevent ev, const VgPicture *pic)
{
    int ret;

    if (pic->memory != VG_MEMORY_CUDA || !pic->cuda_stream ||
        pic->cuda_stream == e->stream)
        return 0;
    if ((ret = CU(cuEventRecord, ev, e->stream)) < 0)
        return ret;
    return CU(cuStreamWaitEvent, pic->cuda_stream, ev, 0);
}

static int load_picture(VgCudaEngine *e, Slot *s, int i, const VgPicture *pic)
{
    VgImage *dst = i ? &s->dis : &s->ref;
    int ret;

    if (pic->memory == VG_MEMORY_CUDA)
        return vg_cuda_picture_convert(e, &e->conv, dst, pic);
    /* staging allocated on first use: device-picture streams need none */
    if (!s->stage_buf[i] &&
        ((ret = VG_CUX(e->cu, e->log, cuMemHostAlloc, &s->stage_buf[i],
                       e->raw_bytes, 0)) < 0 ||
         (ret = CU(cuMemAlloc, &s->raw_buf[i], e->raw_bytes)) < 0))
        return ret;
    return vg_cuda_picture_upload(e, &e->conv, dst, s->stage_buf[i],
                                  s->raw_buf[i], pic);
}

static int cuda_submit(void *engine, const VgPicture *ref, const VgPicture *dis,
                       unsigned index)
{
    VgCudaEngine *e = engine;
    Slot *s = &e->slot[index % VG_CUDA_SLOTS];
    int ret;

    if (e->error)
        return e->error;
    if (index != e->n_submitted) {
        vg_log(e->log, VG_LOG_ERROR, "cuda engine: frame %u submitted, %u "
               "expected", index, e->n_submitted);
        return -EINVAL;
    }
    if ((ret = push_ctx(e)) < 0)
        return ret;
    /* the slot's previous frame must be finished, host features included */
    if (index >= VG_CUDA_SLOTS &&
        (ret = wait_done(e, index - VG_CUDA_SLOTS)) < 0)
        goto fail;

    s->index = index;
    s->done = 0;
    s->gpu_ran = 0;
    s->need_cpu = 0;
    for (unsigned f = 0; f < e->n_cpu; f++)
        if (runs_on(&e->p, e->cpu_inst[f]->desc, index))
            s->need_cpu = 1;

    if ((ret = order_after(e, s->in_ev, ref)) < 0 ||
        (ret = order_after(e, s->in_ev, dis)) < 0 ||
        (ret = load_picture(e, s, 0, ref)) < 0 ||
        (ret = load_picture(e, s, 1, dis)) < 0 ||
        (ret = order_before(e, s->out_ev, ref)) < 0 ||
        (ret = order_before(e, s->out_ev, dis)) < 0 ||
        (ret = CU(cuMemsetD8Async, s->res, 0, e->res_bytes, e->stream)) < 0)
        goto fail;

    for (unsigned f = 0; f < e->n_gpu; f++) {
        VgFeatureCtx *fc = &e->gfc[f];
        const VgCudaFeatureImpl *impl = fc->desc->cuda;
        const Slot *s1 = &e->slot[(index + VG_CUDA_SLOTS - 1) % VG_CUDA_SLOTS];
        const Slot *s2 = &e->slot[(index + VG_CUDA_SLOTS - 2) % VG_CUDA_SLOTS];
        const VgCudaFrame frame = {
            .index = index,
            .ref = &s->ref,
            .dis = &s->dis,
            .prev_ref = index >= 1 ? &s1->ref : NULL,
            .prev_prev_ref = index >= 2 ? &s2->ref : NULL,
            .res = s->res + e->res_off[f],
        };

        if (!runs_on(&e->p, fc->desc, index))
            continue;
        if ((ret = impl->submit(fc, &frame)) < 0) {
            vg_log(e->log, VG_LOG_ERROR, "feature '%s' failed on frame %u "
                   "(%d)", fc->desc->name, index, ret);
            goto fail;
        }
        s->gpu_ran |= UINT64_C(1) << f;
    }

    /* host features read a pinned host copy of the converted images */
    for (int i = 0; s->need_cpu && i < 2; i++)
        if ((ret = pinned_image(e, &s->host[i], &s->host_buf[i])) < 0 ||
            (ret = CU(cuMemcpyDtoHAsync, s->host_buf[i],
                      i ? s->dis_buf : s->ref_buf, e->img_bytes,
                      e->stream)) < 0)
            goto fail;
    if ((ret = CU(cuMemcpyDtoHAsync, s->host_res, s->res, e->res_bytes,
                  e->stream)) < 0 ||
        (ret = CU(cuEventRecord, s->done_ev, e->stream)) < 0)
        goto fail;
    e->n_submitted++;
    ret = collect(e, 0, 0);
fail:
    if (ret < 0 && !e->error) {
        pthread_mutex_lock(&e->lock);
        e->error = ret;
        pthread_mutex_unlock(&e->lock);
    }
    pop_ctx(e);
    return ret;
}

static unsigned cuda_frames_ready(void *engine)
{
    VgCudaEngine *e = engine;
    unsigned n;
    int ret = 0;

    if (!e->error && (ret = push_ctx(e)) >= 0) {
        ret = collect(e, 0, 0);
        pop_ctx(e);
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
    int ret;

    if (e->error)
        return e->error;
    if ((ret = push_ctx(e)) < 0)
        return ret;
    if (e->n_submitted && (ret = wait_done(e, e->n_submitted - 1)) < 0)
        goto end;
    for (unsigned f = 0; f < e->n_gpu; f++) {
        VgFeatureCtx *fc = &e->gfc[f];
        const VgCudaFeatureImpl *impl = fc->desc->cuda;
        if (impl->flush && (ret = impl->flush(fc)) < 0)
            goto end;
    }
    for (unsigned f = 0; e->workers && f < e->n_cpu; f++) {
        VgFeatureCtx *fc = &e->workers[0].fc[f];
        if (fc->desc->cpu->flush && (ret = fc->desc->cpu->flush(fc)) < 0)
            goto end;
    }
    ret = 0;
end:
    if (ret < 0 && !e->error)
        e->error = ret;
    pop_ctx(e);
    return ret;
}

const VgBackendOps vg_backend_cuda = {
    .name = "cuda",
    .usable = cuda_usable,
    .open = cuda_open,
    .submit = cuda_submit,
    .frames_ready = cuda_frames_ready,
    .flush = cuda_flush,
    .close = cuda_close,
};
