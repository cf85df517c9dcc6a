/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * SpEED, the computation speed_chroma and speed_temporal share (libvmaf
 * v3.2.0 src/feature/speed.c, with the filters, decimation and prescalers
 * of vif_tools.c): from one pair of float pictures to the float score of
 * speed_extract_score(), bit-exact with libvmaf's C path. The CPU backend
 * runs all of it; a backend that filters and decimates the pictures
 * itself calls the rest (vg_speed_score_decimated()).
 */

#ifndef VG_FEATURES_SPEED_H
#define VG_FEATURES_SPEED_H

#include <stddef.h>

#include "common/log.h"
#include "common/feature.h"
#include "common/features/speed_chroma.h"
#include "common/features/speed_chroma_params.h"

/** The option values SpEED uses, as speed.c's SpeedOptions. */
typedef struct VgSpeedParams {
    double kernelscale;
    double prescale;
    int method; ///< enum VgVifPrescale
    double sigma_nn;
    double nn_floor;
    int weight_var_mode; ///< 0..6 (speed_temporal: 0)
    /** 1: the caller prescales, filters and decimates itself: no
     * prescale buffer, only vg_speed_score_decimated() */
    int no_frames;
} VgSpeedParams;

typedef struct VgSpeed VgSpeed;

/** The C, AVX2 or AVX-512 builds of SpEED's loops (common/features/speed.c),
 * picked by vg_speed_init(). */
typedef struct VgSpeedDSP {
    void (*antialias_dec16)(VgSpeed *s, const float *src);
    void (*remove_local_mean)(VgSpeed *s);
    void (*mat_mul)(float *dst, const float *x, const float *y, int rows,
                    int inner, int cols);
    void (*covariance)(VgSpeed *s, double (*acc)[25]);
} VgSpeedDSP;

/** One worker's SpEED state for a w x h plane. */
struct VgSpeed {
    VgSpeedParams p;
    unsigned w, h;         ///< input plane
    unsigned sw, sh;       ///< prescaled
    int prescale;          ///< 1: resample w x h to sw x sh first
    unsigned dw, dh;       ///< after the decimation by 16
    unsigned tw, th;       ///< truncated to whole 5x5 blocks
    unsigned nbh, nbv, nb; ///< blocks across, down, in all
    unsigned subw, subh;   ///< the 25 shifted sub-pictures
    size_t stride;         ///< floats per row of a frame buffer (>= max(w, sw))
    size_t rows;           ///< rows of a frame buffer (max(h, sh))
    int taps_aa, taps4;    ///< anti-alias and scale-4 filter lengths
    float filter_aa[128], filter4[128];

    float *tmp;             ///< a frame buffer (prescale source)
    float *col;             ///< one row of the vertical pass (sw floats)
    float *dec;             ///< dw x dh: decimated, then local mean removed
    float *blur;            ///< dw x dh
    float *y;               ///< 25 x nb: the blocks' samples
    float *x;               ///< 25 x nb: the solution
    float *rect;            ///< 25 x nb: Q^T Y
    float *ent[2], *var[2]; ///< nb each: ref, dis
    float mat[6][625];      ///< covariance and the solver's matrices
    float eig[25], work[100];
    VgSpeedDSP dsp;
};

/**
 * Set up for a w x h plane of feature `name`; refuses (logged, -EINVAL) a
 * plane whose prescaled size leaves no 5x5 block after the decimation by
 * 16, and an unknown kernel scale; -ENOMEM.
 */
int vg_speed_init(VgSpeed *s, const VgSpeedParams *p, unsigned w, unsigned h,
                  const char *name, VgLog *log);
void vg_speed_free(VgSpeed *s);

/** A frame buffer (s->rows x s->stride floats), or NULL; free() it. */
float *vg_speed_alloc_frame(const VgSpeed *s);

/**
 * speed_extract_score(): both frame buffers (w x h samples, modified in
 * place) to the score. @return 1 if ref or dis had a singular covariance
 * (speed.c's error), else 0.
 */
int vg_speed_score(VgSpeed *s, float *ref, float *dis, float *score,
                   VgLog *log);

/**
 * vg_speed_score() in two steps. The reference's side: its buffer to the
 * blocks' entropies and variances (s->ent[0], s->var[0], s->nb floats
 * each), which depend on the reference alone (a ladder's reference
 * stage). @return 1 if its covariance was singular, else 0.
 */
int vg_speed_ref_side(VgSpeed *s, float *ref, VgLog *log);

/**
 * The distorted picture's side and the score, with s->ent[0] and
 * s->var[0] from vg_speed_ref_side() (or copied from a stage) and err_ref
 * what it returned. @return as vg_speed_score().
 */
int vg_speed_score_dis(VgSpeed *s, float *dis, int err_ref, float *score,
                       VgLog *log);

/**
 * vg_speed_score() from the pictures after the anti-alias filter, the
 * decimation by 16 and the removal of the local mean (dw x dh floats each,
 * packed), as a backend computed them: the covariance (unless
 * cov_ref and cov_dis give it, 25 x 25 floats each, as speed.c's
 * compute_covariance_matrix() computes it), the eigenvalues, the linear
 * system, the entropies and the score.
 */
int vg_speed_score_decimated(VgSpeed *s, const float *ref, const float *dis,
                             const float *cov_ref, const float *cov_dis,
                             float *score, VgLog *log);

/**
 * The prescaler's per-axis part, separable for every method: for each
 * output column (vertical = 0; sw of them) or row (vertical = 1; sh), the
 * VG_VIF_PRESCALE_TAPS source indices (mirrored, 0 <= idx < w or h) and
 * weights, as prescale() computes them for one sample:
 *  nearest:  idx[0];
 *  bilinear: idx[0], idx[1] (floor and ceil), wt[0] (the fraction);
 *  bicubic:  idx[0..3], wt[0..3] for offsets -1..2;
 *  lanczos4: idx[0..8], wt[0..8] for offsets -4..4.
 * Unused entries are 0.
 */
void vg_speed_prescale_axis(const VgSpeed *s, int vertical, int *idx,
                            float *wt);

/**
 * speed_chroma's set-up of s for fc's chroma planes
 * (common/features/speed_chroma.c): refuses 4:0:0 and what
 * vg_speed_init() refuses.
 */
int vg_speed_chroma_setup(VgFeatureCtx *fc, VgSpeed *s, int no_frames);

/** speed_chroma's outputs of frame `index` from its channels' scores. */
int vg_speed_chroma_emit(VgFeatureCtx *fc, unsigned index, float u, float v,
                         int err_u, int err_v);

/** speed_temporal's set-up of s for fc's luma (common/features/speed_temporal.c). */
int vg_speed_temporal_setup(VgFeatureCtx *fc, VgSpeed *s, int no_frames);

#endif /* VG_FEATURES_SPEED_H */
