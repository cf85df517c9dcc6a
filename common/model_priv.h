/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The model's inside, shared by its reader (common/model.c) and its
 * prediction (common/predict.c).
 */

#ifndef VG_COMMON_MODEL_PRIV_H
#define VG_COMMON_MODEL_PRIV_H

#include "common/libsvm.h"
#include "common/model.h"

/** libvmaf src/read_json_model.c MAX_KNOT_COUNT. */
#define MAX_KNOTS 10
/** Members a bootstrap collection may have (VgBootstrapScores.member). */
#define MAX_MEMBERS 32
/** libvmaf src/predict.c vmaf_bootstrap_predict_score_at_index(): delta. */
#define BOOTSTRAP_DELTA 0.01

enum ModelType {
    TYPE_SVM_NUSVR = 1,     ///< LIBSVMNUSVR
    TYPE_BOOTSTRAP,         ///< BOOTSTRAP_LIBSVMNUSVR
    TYPE_RESIDUE_BOOTSTRAP, ///< RESIDUEBOOTSTRAP_LIBSVMNUSVR
};

enum NormType {
    NORM_NONE = 1,
    NORM_LINEAR_RESCALE,
};

/** Prediction flags (libvmaf enum VmafModelFlags at predict time). */
enum {
    PREDICT_NO_CLIP = 1 << 0,
    PREDICT_NO_TRANSFORM = 1 << 1,
};

typedef struct Knot {
    double x, y;
} Knot;

/** One libvmaf VmafModel. */
typedef struct SvmModel {
    enum ModelType type;
    enum NormType norm;
    double slope, intercept; ///< slopes[0], intercepts[0]: the output
    unsigned n_features;
    char *feature_name[VG_MODEL_MAX_FEATURES];
    VgOptDict opts[VG_MODEL_MAX_FEATURES];
    double f_slope[VG_MODEL_MAX_FEATURES];
    double f_intercept[VG_MODEL_MAX_FEATURES];
    int clip;
    double clip_min, clip_max;
    struct {
        int enabled;
        int p0_on, p1_on, p2_on;
        double p0, p1, p2;
        int knots_on;
        unsigned n_knots;
        Knot knots[MAX_KNOTS];
        int out_lte_in, out_gte_in;
    } transform;
    int chroma; ///< chroma_correction_parameter present
    double chroma_param;
    unsigned guiding_idx; ///< the "adm3" feature
    unsigned guided_idx;  ///< the "speed_chroma" feature
    VgSvm svm;
} SvmModel;

struct VgModel {
    VgModelInfo info;
    char *name;
    char *source;
    SvmModel main;     ///< the model (or "0" of a collection)
    SvmModel *members; ///< "1".."N" of a collection
    unsigned n_members;
    char **member_names;
    VgModelFeature *features;
};

#endif /* VG_COMMON_MODEL_PRIV_H */
