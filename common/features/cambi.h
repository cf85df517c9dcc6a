/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CAMBI, the banding detector (libvmaf v3.2.0 src/feature/cambi.c and
 * src/feature/luminance_tools.c): options, outputs, the set-up every
 * backend shares (sizes, window, luminance thresholds, reciprocal table,
 * refusals), the top-k pooling and the per-frame finish. The picture work
 * is each backend's.
 */

#ifndef VG_FEATURES_CAMBI_H
#define VG_FEATURES_CAMBI_H

#include <stdbool.h>
#include <stdint.h>

#include "common/feature.h"
#include "common/features/cambi_params.h"
#include "common/log.h"

enum {
    VG_CAMBI_OUT_CAMBI,
    VG_CAMBI_OUT_SOURCE,
    VG_CAMBI_OUT_FULL_REFERENCE,
};

/** EOTF names (VG_OPT_ENUM indices of eotf and cambi_eotf). */
enum {
    VG_CAMBI_EOTF_BT1886,
    VG_CAMBI_EOTF_PQ,
};

/** Number of scales (cambi.c NUM_SCALES). */
#define VG_CAMBI_SCALES 5
/** Size of the reciprocal table (cambi.h CAMBI_RECIPROCAL_LUT_SIZE). */
#define VG_CAMBI_RLUT_SIZE 4226
/** Most contrast steps: 1 << the largest max_log_contrast (5). */
#define VG_CAMBI_MAX_DIFFS 32

typedef struct VgCambiOptions {
    double cambi_max_val;
    int enc_width, enc_height, enc_bitdepth;
    int src_width, src_height;
    int window_size;
    double topk, cambi_topk;
    double tvi_threshold;
    double cambi_vis_lum_threshold;
    int max_log_contrast;
    bool full_ref;
    int eotf, cambi_eotf; ///< VG_CAMBI_EOTF_*
    int cambi_high_res_speedup;
    char heatmaps_path[VG_OPT_STRING_MAX]; ///< "" = no heatmaps
} VgCambiOptions;

/** One pass (the distorted picture, or the reference with full_ref). */
typedef struct VgCambiPass {
    unsigned width, height; ///< working size (enc_* or src_*)
    unsigned window;        ///< adjusted window size (odd)
    uint16_t mask_index;    ///< spatial mask threshold (get_mask_index())
} VgCambiPass;

/** Everything cambi.c init() derives from the options and the input. */
typedef struct VgCambiParams {
    VgCambiPass pass[2];       ///< [0] distorted, [1] reference (full_ref)
    unsigned alloc_w, alloc_h; ///< work picture size (max of the passes used)
    unsigned enc_bitdepth;     ///< anti-dithering below 10
    int high_res;              ///< decimate before the first scale
    int full_ref;
    double topk; ///< effective topk (topk, else cambi_topk)
    double max_val;
    unsigned num_diffs;                        ///< 1 << max_log_contrast
    uint16_t tvi_for_diff[VG_CAMBI_MAX_DIFFS]; ///< per diff, + num_diffs
    int diff_weights[VG_CAMBI_MAX_DIFFS];
    uint16_t vlt_luma;
    uint16_t band_base, band_size; ///< histogram rows kept (uint16, as cambi.c)
    /** 1: no pixel can have a non-zero c-value (the band is empty):
     *  every score is 0 and the pictures need no work */
    int all_zero;
    float rlut[VG_CAMBI_RLUT_SIZE]; ///< cambi.h reciprocal_lut
} VgCambiParams;

/**
 * cambi.c init() for a w x h input at bpc bits: sizes, window, thresholds,
 * tables. Refusals are logged and return -EINVAL: what cambi.c refuses
 * (sizes below 216 in both dimensions, src and enc sizes that disagree in
 * shape, a window too large for the reciprocal table) and what it cannot
 * compute without reading outside its pictures (a window larger than the
 * coarsest scale; full_ref at 10 bits with src_width past the picture).
 */
int vg_cambi_setup(VgCambiParams *p, const VgCambiOptions *o, unsigned w,
                   unsigned h, unsigned bpc, VgLog *log);

/**
 * spatial_pooling(): the mean of the top max(1, trunc(topk * w * h)) of
 * the w x h c-values c (row-major), summed in double in the order
 * cambi.c's quick_select() leaves them; c is reordered.
 */
double vg_cambi_pool(float *c, double topk, unsigned w, unsigned h);

/**
 * spatial_pooling() of the n c-values c with k = max(1, trunc(topk * n))
 * where cambi.c's order of the double sum cannot matter: when every
 * c-value is 0 or in [1/8, 2^14) and the k largest add up below
 * 2^(30 + e) (2^e the smallest of them), every partial double sum is
 * exact, and the mean is their integer sum (common/features/cambi_params.h's
 * radix selection on the float bits, which the CUDA kernels run too) over
 * k. seg is scratch. @return 1 with *out set, or 0 where that does not
 * hold (c is not changed).
 */
int vg_cambi_pool_exact(const float *c, unsigned n, uint32_t k,
                        VgCambiPoolSeg *seg, double *out);

/** The pooled score of a segment the selection settled: its sum over k. */
double vg_cambi_pool_mean(const VgCambiPoolResult *r);

/**
 * vg_cambi_pool() by vg_cambi_pool_exact() where that holds (*exact, when
 * not NULL, says whether it did), else in cambi.c's order.
 */
double vg_cambi_pool_fast(float *c, double topk, unsigned w, unsigned h,
                          VgCambiPoolSeg *seg, int *exact);

/** A pass's score from its scale scores and its window (weights 16..1). */
double vg_cambi_score(const double scores[VG_CAMBI_SCALES], unsigned window);

/** Emit frame `index`'s outputs from the pass scores (cambi.c extract()). */
int vg_cambi_emit(VgFeatureCtx *fc, const VgCambiParams *p, unsigned index,
                  double dist_score, double src_score);

/**
 * The nearest-sample source column and row of each output pixel when a
 * pass resizes (iw x ih to ow x oh): the float steps of cpu/cambi.c's
 * to_10bit(), for the CUDA kernels.
 */
void vg_cambi_resize_tables(uint32_t *tx, uint32_t *ty, unsigned iw,
                            unsigned ih, unsigned ow, unsigned oh);

/**
 * The heatmaps of heatmaps_path: per scale, one file
 * DIR/cambi_heatmap_scale_<s>_<w>x<h>_16b.gray of every frame's c-values
 * of the distorted picture, one native-endian uint16 per pixel (the
 * c-value times 65535 over the largest possible one, truncated), frame n
 * at byte offset n * w * h * 2. As libvmaf's: the file names carry the
 * encoding size halved once per scale, the contents the computed size
 * (which cambi_high_res_speedup halves once more).
 */
typedef struct VgCambiHeatmaps {
    int on;                  ///< heatmaps_path was given (and opened)
    int fd[VG_CAMBI_SCALES]; ///< -1 when closed
    char path[VG_CAMBI_SCALES][VG_OPT_STRING_MAX + 64];
    double scaling; ///< 65535 / the largest c-value
    uint16_t *row;  ///< one row of converted values
} VgCambiHeatmaps;

/**
 * With a non-empty dir: create the directory (with its parents) and the
 * files, truncated, and set hm->on; with "" leave hm off. hm starts
 * zeroed. Each worker state opens them: every open happens before any
 * frame. @return 0, or negative errno with a log line naming the file.
 */
int vg_cambi_heatmaps_open(VgCambiHeatmaps *hm, const VgCambiParams *p,
                           const char *dir, VgLog *log);

/** Write frame `index`'s c-values of scale `scale` (w x h, packed; NULL:
 *  all zero). Thread-safe across states (positioned writes). */
int vg_cambi_heatmaps_write(VgCambiHeatmaps *hm, unsigned scale, unsigned index,
                            const float *c, unsigned w, unsigned h, VgLog *log);

/** Frame `index`'s heatmaps where every c-value is 0 (p->all_zero). */
int vg_cambi_heatmaps_zero(VgCambiHeatmaps *hm, const VgCambiParams *p,
                           unsigned index, VgLog *log);

/** Release what open took; nothing when hm is off. */
void vg_cambi_heatmaps_close(VgCambiHeatmaps *hm);

/**
 * The start of every backend's init: vg_cambi_setup() for fc's pictures
 * and options, then vg_cambi_heatmaps_open() of their heatmaps_path.
 * Nothing is left to compute when p->all_zero. @return 0 or what those
 * return (logged).
 */
int vg_cambi_open(VgFeatureCtx *fc, VgCambiParams *p, VgCambiHeatmaps *hm);

#endif /* VG_FEATURES_CAMBI_H */
