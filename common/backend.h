/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Backend engines. The context owns features, collector and models; an
 * engine turns submitted pictures into emitted feature values. Each
 * backend provides one VgBackendOps (cpu/engine.c, gpu/core/engine.c); the
 * build lists the backends it has in preference order (VG_BACKEND_LIST in
 * config.h, from configure), and the context tries them in that order.
 */

#ifndef VG_COMMON_BACKEND_H
#define VG_COMMON_BACKEND_H

#include <pthread.h>
#include <stddef.h>

#include "config.h"
#include "vmafgpu.h"
#include "common/collector.h"
#include "common/feature.h"
#include "common/image.h"
#include "common/log.h"

/** A feature as the user asked for it: descriptor + filled options. */
typedef struct VgFeatureInst {
    const VgFeatureDesc *desc;
    void *opts;                 ///< desc->opts_size bytes
    int *keys;                  ///< collector key per output (-1 = not written)
    struct VgFrameStore *store; ///< desc->frame_record_size records, or NULL
    /** the other renditions of a ladder this instance's values go to */
    VgFeatureSink *sinks;
    unsigned n_sinks;
} VgFeatureInst;

/** What an engine is opened with. Stays valid while the engine lives. */
typedef struct VgEngineParams {
    const VgConfig *cfg;
    VgLog *log;
    VgCollector *collector;
    VgCollector *scratch; ///< internal outputs (VgFeatureOutput.internal)
    VgFeatureInst *feats;
    unsigned n_feats;
    unsigned width, height, bpc;
    /** size of the distorted pictures: width x height, or another one
     * scaled to it with cfg->scale (common/scale.h) */
    unsigned dis_width, dis_height;
    enum VgImageLayout layout; ///< chroma layout (NV12/P010/P016 -> 420)
    enum VgPixFmt fmt;         ///< format of submitted pictures
    enum VgMemory memory;      ///< memory of submitted pictures
    /** in a ladder, the number of its renditions (0 outside one) and this
     *  engine's rendition */
    unsigned n_renditions, rendition;
} VgEngineParams;

/** 1 if a feature of the engine reads chroma planes (VG_FEATURE_CHROMA):
 * else its pictures are converted and scaled in their luma plane alone. */
int vg_engine_reads_chroma(const VgEngineParams *p);

/** Fill a feature state's fields from the engine parameters (not priv). */
void vg_feature_ctx_fill(VgFeatureCtx *fc, const VgEngineParams *p,
                         const VgFeatureInst *inst);

/** Fill a feature state and initialise its CPU implementation's state. */
int vg_feature_ctx_open_cpu(VgFeatureCtx *fc, const VgEngineParams *p,
                            const VgFeatureInst *inst);
void vg_feature_ctx_close_cpu(VgFeatureCtx *fc);

/**
 * One worker's CPU states of n features: *fcs gets an array of n states
 * (even on failure, for vg_feature_ctxs_close_cpu()).
 */
int vg_feature_ctxs_open_cpu(VgFeatureCtx **fcs, const VgEngineParams *p,
                             const VgFeatureInst *const *insts, unsigned n);
/** Close the states that were opened and free the array. */
void vg_feature_ctxs_close_cpu(VgFeatureCtx **fcs, unsigned n);

/** An engine's worker threads. Zero-initialised: none. */
typedef struct VgThreads {
    pthread_t *thread;
    unsigned n_started;
} VgThreads;

/**
 * Start n threads running fn(args + i * arg_size). On failure the threads
 * already started keep running; vg_threads_stop() ends them.
 */
int vg_threads_start(VgThreads *t, unsigned n, void *(*fn)(void *), void *args,
                     size_t arg_size, VgLog *log);

/**
 * Set *quit under lock, wake the threads waiting on wake and join them all.
 * The threads must return once they see *quit with nothing left to do.
 */
void vg_threads_stop(VgThreads *t, pthread_mutex_t *lock, pthread_cond_t *wake,
                     int *quit);

typedef struct VgBackendOps {
    const char *name;
    enum VgBackend kind; ///< what VgConfig.backend names it by
    unsigned memories;   ///< 1 << VgMemory for each memory it reads
    /** @return 0 if this backend can run here (no logging at ERROR). */
    int (*usable)(const VgConfig *cfg, VgLog *log);
    int (*open)(void **engine, const VgEngineParams *p);
    /** Pictures already validated against p (format, size, depth). */
    int (*submit)(void *engine, const VgPicture *ref, const VgPicture *dis,
                  unsigned index);
    /** Leading frames whose per-frame outputs are all emitted. */
    unsigned (*frames_ready)(void *engine);
    /** Wait for everything, then run each feature's flush. */
    int (*flush)(void *engine);
    /**
     * Optional: a ladder's rendition r > 0 (engine) reads the reference
     * stages (VG_FEATURE_REF_STAGE) of rendition 0's engine (source, of
     * the same backend) instead of computing them; called once both are
     * open, before the first frame. source must be closed after engine.
     */
    int (*link)(void *engine, void *source);
    void (*close)(void **engine);
} VgBackendOps;

#define VG_BACKEND(name) extern const VgBackendOps vg_backend_##name;
VG_BACKEND_LIST
#undef VG_BACKEND

/** The backends of this build, in preference order, NULL-terminated. */
extern const VgBackendOps *const vg_backends[];

#endif /* VG_COMMON_BACKEND_H */
