/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * VMAF models: libvmaf's JSON model files (src/read_json_model.c,
 * src/model.c, src/predict.c, src/svm.cpp in v3.2.0), parsed with json-c.
 */

#ifndef VG_COMMON_MODEL_H
#define VG_COMMON_MODEL_H

#include "common/feature.h"
#include "common/log.h"
#include "common/opt.h"

#define VG_MODEL_MAX_FEATURES 64

/** One input feature of a model. */
typedef struct VgModelFeature {
    const VgFeatureDesc *desc; ///< extractor providing it
    unsigned output;           ///< index into desc->outputs
    VgOptDict opts;            ///< feature_opts_dicts[i] + spec overloads
} VgModelFeature;

typedef struct VgModel VgModel;

/** Public part of a loaded model; the rest is private to common/model.c. */
typedef struct VgModelInfo {
    const char *name;   ///< output name ("vmaf", or name=)
    const char *source; ///< "vmaf_v0.6.1" or the path
    int is_collection;  ///< bootstrap model: has bagging/stddev/ci outputs
    unsigned n_members; ///< collection members (0 if none)
    unsigned n_features;
    VgModelFeature *features;
    /** Collection members' output names ("<name>_0001".."<name>_0020"). */
    const char *const *member_names;
} VgModelInfo;

/**
 * Maps a model feature name (libvmaf's provided output name, e.g.
 * "VMAF_integer_feature_vif_scale0_score") to the extractor providing it
 * and the index of that output in desc->outputs; NULL if none does.
 */
typedef const VgFeatureDesc *(*VgModelResolver)(const char *output_name,
                                                unsigned *out_index);

/**
 * Load a model from libvmaf's spec syntax ("version=X:name=Y:disable_clip:
 * enable_transform:vif.vif_enhn_gain_limit=1.0", or "path=FILE...").
 * Errors (unknown version, unreadable file, malformed JSON, unknown
 * feature) are logged (one error line) and returned as -EINVAL / -ENOENT
 * (or another errno of fopen) / -ENOMEM; -E2BIG for too many options,
 * -EFBIG for a file over 64 MiB. An overload for an extractor the model
 * does not use is ignored with a warning, as libvmaf ignores it.
 */
int vg_model_load(VgModel **model, const char *spec, VgLog *log);

/**
 * vg_model_load() with another feature lookup than the registry's
 * vg_feature_find_by_output() (NULL selects that one). Lets tools and
 * tests load models whose extractors are not (yet) registered.
 */
int vg_model_load_with(VgModel **model, const char *spec,
                       VgModelResolver resolve, VgLog *log);

/** Free a model (NULL is fine); *model becomes NULL. */
void vg_model_free(VgModel **model);

/** @return the model's name, source and features (valid until freed). */
const VgModelInfo *vg_model_info(const VgModel *model);

/**
 * Predict one frame from its feature values (x[i] = value of
 * features[i]). Writes the score (normalised, transformed, clipped as the
 * model and flags say) to *score.
 */
int vg_model_predict(const VgModel *model, const double *x, double *score);

/** Outputs of a bootstrap collection for one frame. */
typedef struct VgBootstrapScores {
    double bagging, stddev, ci_lo, ci_hi;
    double member[32]; ///< each member's own (clipped) score
    unsigned n_members;
} VgBootstrapScores;

/**
 * Predict one frame with a bootstrap collection (info->is_collection):
 * bagging (mean), stddev and the 95% interval of the members' unclipped,
 * untransformed scores, each passed through the first member's transform
 * and clip as libvmaf does, plus every member's own score. x as for
 * vg_model_predict(). vg_model_predict() gives the collection's main
 * score (member "0"). @return 0, or -EINVAL for a model without members.
 */
int vg_model_predict_bootstrap(const VgModel *model, const double *x,
                               VgBootstrapScores *out);

/** Built-in (embedded) model JSON by version name, or NULL. */
const char *vg_builtin_model_json(const char *version, size_t *len);

#endif /* VG_COMMON_MODEL_H */
