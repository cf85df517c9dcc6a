/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef VG_COMMON_CONTEXT_H
#define VG_COMMON_CONTEXT_H

#include "vmafgpu.h"
#include "common/backend.h"
#include "common/collector.h"
#include "common/log.h"
#include "common/model.h"

typedef struct VgModelSlot {
    VgModel *model;
    int *feat_keys;      ///< collector key of each model input
    int key;             ///< key of the score
    int member_keys[32]; ///< collection members
    int bagging_key, stddev_key, lo_key, hi_key;
} VgModelSlot;

struct VgContext {
    VgConfig cfg;
    VgLog log;
    VgCollector *collector;
    VgCollector *scratch; ///< features' internal outputs, never printed

    VgFeatureInst feats[VG_MAX_FEATURES];
    unsigned n_feats;
    VgFeatureCtx post[VG_MAX_FEATURES]; ///< post-processing states
    VgModelSlot models[VG_MAX_MODELS];
    unsigned n_models;

    const VgBackendOps *ops;
    void *engine;
    VgEngineParams params;

    unsigned n_frames;
    unsigned n_scored;   ///< frames whose model scores are written
    unsigned n_complete; ///< frames 0..n_complete-1 have every output
    int started, flushed;
    int error;
    double t_start, t_end; ///< first submit, flush (seconds): log's fps
    /** vg_set_log_count()'s counts, in the order first set */
    char log_key[VG_MAX_LOG_COUNTS][32];
    uint64_t log_count[VG_MAX_LOG_COUNTS];
    unsigned n_log_counts;

    /** the vg_use_model() / vg_use_feature() calls, in order: what
     * identifies a run in its chunk logs (common/report/chunk.c) */
    struct {
        int is_model;
        char *name; ///< model spec, or feature name
        char *opts; ///< feature options, or NULL
    } uses[VG_MAX_FEATURES + VG_MAX_MODELS];
    unsigned n_uses;

    /* A ladder (cfg.n_distorted >= 2) holds one pair context per
     * rendition and computes nothing itself; n_frames counts its frames. */
    VgContext *rend[VG_MAX_RENDITIONS];
    unsigned n_rend;
    /* A rendition: its ladder, and its index there. */
    VgContext *ladder;
    unsigned rend_index;
    /* A rendition whose shared features (VG_FEATURE_REF_ONLY) rendition 0
     * computes: source is rendition 0, borrowed[f] marks them, and its
     * engine computes engine_feats, the others. */
    VgContext *source;
    unsigned char borrowed[VG_MAX_FEATURES];
    VgFeatureInst engine_feats[VG_MAX_FEATURES];
};

/** A ladder refuses what belongs to its renditions: logs, -EINVAL. */
int vg_ladder_refuse(VgContext *ctx, const char *func);

/**
 * Start ctx without an engine, for values that were computed elsewhere
 * (a merge of chunk logs): the geometry the logs and the post-processing
 * need, as the first picture would give it. Afterwards only
 * vg_context_finish_imported() computes.
 */
int vg_context_start_imported(VgContext *ctx, enum VgPixFmt fmt, unsigned width,
                              unsigned height, unsigned dis_width,
                              unsigned dis_height, unsigned bpc);

/**
 * Finish a context started by vg_context_start_imported() whose collector
 * holds frames 0..n_frames - 1: the post-processing and the models run
 * once over all of them, as at the end of one run; seconds is what the
 * log's fps is computed from.
 */
int vg_context_finish_imported(VgContext *ctx, unsigned n_frames,
                               double seconds);

#endif /* VG_COMMON_CONTEXT_H */
