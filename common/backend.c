/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <stdlib.h>

#include "common/backend.h"

const VgBackendOps *const vg_backends[] = {
#define VG_BACKEND(name) &vg_backend_##name,
    VG_BACKEND_LIST
#undef VG_BACKEND
        NULL,
};

int vg_engine_reads_chroma(const VgEngineParams *p)
{
    for (unsigned f = 0; f < p->n_feats; f++)
        if (p->feats[f].desc->flags & VG_FEATURE_CHROMA)
            return 1;
    return 0;
}

void vg_feature_ctx_fill(VgFeatureCtx *fc, const VgEngineParams *p,
                         const VgFeatureInst *inst)
{
    fc->desc = inst->desc;
    fc->opts = inst->opts;
    fc->width = p->width;
    fc->height = p->height;
    fc->bpc = p->bpc;
    fc->layout = p->layout;
    fc->n_subsample = p->cfg->n_subsample;
    fc->log = p->log;
    fc->keys = inst->keys;
    fc->collector = p->collector;
    fc->store = inst->store;
    fc->scratch = p->scratch;
    fc->sinks = inst->sinks;
    fc->n_sinks = inst->n_sinks;
    fc->n_renditions = p->n_renditions;
    fc->rendition = p->rendition;
}

int vg_feature_ctx_open_cpu(VgFeatureCtx *fc, const VgEngineParams *p,
                            const VgFeatureInst *inst)
{
    const VgFeatureImpl *impl = vg_feature_cpu(inst->desc);
    int ret;

    vg_feature_ctx_fill(fc, p, inst);
    fc->priv = calloc(1, impl->priv_size ? impl->priv_size : 1);
    if (!fc->priv)
        return -ENOMEM;
    if (impl->init && (ret = impl->init(fc)) < 0) {
        vg_log(p->log, VG_LOG_ERROR,
               "feature '%s': initialisation failed "
               "(%d)",
               inst->desc->name, ret);
        if (impl->close)
            impl->close(fc);
        free(fc->priv);
        fc->priv = NULL;
        return ret;
    }
    return 0;
}

void vg_feature_ctx_close_cpu(VgFeatureCtx *fc)
{
    const VgFeatureImpl *impl = vg_feature_cpu(fc->desc);

    if (fc->priv && impl->close)
        impl->close(fc);
    free(fc->priv);
    fc->priv = NULL;
}

int vg_feature_ctxs_open_cpu(VgFeatureCtx **fcs, const VgEngineParams *p,
                             const VgFeatureInst *const *insts, unsigned n)
{
    VgFeatureCtx *fc = calloc(n ? n : 1, sizeof(*fc));
    int ret;

    *fcs = fc;
    if (!fc)
        return -ENOMEM;
    for (unsigned f = 0; f < n; f++)
        if ((ret = vg_feature_ctx_open_cpu(&fc[f], p, insts[f])) < 0)
            return ret;
    return 0;
}

void vg_feature_ctxs_close_cpu(VgFeatureCtx **fcs, unsigned n)
{
    if (!*fcs)
        return;
    for (unsigned f = 0; f < n; f++)
        if ((*fcs)[f].desc)
            vg_feature_ctx_close_cpu(&(*fcs)[f]);
    free(*fcs);
    *fcs = NULL;
}

int vg_threads_start(VgThreads *t, unsigned n, void *(*fn)(void *), void *args,
                     size_t arg_size, VgLog *log)
{
    t->thread = calloc(n ? n : 1, sizeof(*t->thread));
    if (!t->thread)
        return -ENOMEM;
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&t->thread[i], NULL, fn,
                           (char *)args + i * arg_size)) {
            vg_log(log, VG_LOG_ERROR, "cannot start worker thread %u", i);
            return -EAGAIN;
        }
        t->n_started++;
    }
    return 0;
}

void vg_threads_stop(VgThreads *t, pthread_mutex_t *lock, pthread_cond_t *wake,
                     int *quit)
{
    pthread_mutex_lock(lock);
    *quit = 1;
    pthread_cond_broadcast(wake);
    pthread_mutex_unlock(lock);
    for (unsigned i = 0; i < t->n_started; i++)
        pthread_join(t->thread[i], NULL);
    free(t->thread);
    t->thread = NULL;
    t->n_started = 0;
}
