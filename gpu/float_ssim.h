/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The SSIM map on CUDA, shared by gpu/float_ssim.c and
 * gpu/float_ms_ssim.c: its kernels (gpu/float_ssim.cu) and their launch.
 */

#ifndef VG_GPU_FLOAT_SSIM_H
#define VG_GPU_FLOAT_SSIM_H

#include <stddef.h>

#include "common/features/float_ssim_params.h"
#include "gpu/core/feature.h"
#include "gpu/core/seqsum.h"

/**
 * The SSIM maps of one frame (one per scale), their kernels and scratch,
 * and their sums, which go to the device in one submission.
 */
typedef struct VgCudaSsimMap {
    CUfunction hconv, vmap;
    CUfunction hconv_rd, vmap_rd; ///< a ladder's renditions > 0
    CUdeviceptr hbuf, map;
    size_t map_cap;  ///< doubles the map holds, all scales
    size_t map_used; ///< doubles this frame's maps use so far
    VgCudaSeqsum sums;
} VgCudaSsimMap;

/** Number of sums in a set of them (VG_SSIM_SUM_BIT): the map's planes. */
static inline int vg_cuda_ssim_nb_sums(unsigned sums)
{
    int n = 0;

    for (int k = 0; k < VG_SSIM_NB_SUMS; k++)
        n += sums >> k & 1;
    return n;
}

/** Doubles of the map planes of one w x h image for a set of sums. */
static inline size_t vg_cuda_ssim_map_terms(int w, int h, unsigned sums)
{
    return (size_t)vg_cuda_ssim_nb_sums(sums) *
           (size_t)(w - (VG_SSIM_WIN - 1)) * (size_t)(h - (VG_SSIM_WIN - 1));
}

/**
 * Look the kernels up and allocate the scratch: the horizontal pass for
 * images up to w x h, maps of `terms` doubles in all (every plane of every
 * scale), up to max_sums sums. @return 0 or negative errno.
 */
int vg_cuda_ssim_map_init(VgFeatureCtx *fc, VgCudaSsimMap *m, int w, int h,
                          size_t terms, int max_sums);
void vg_cuda_ssim_map_close(VgFeatureCtx *fc, VgCudaSsimMap *m);

/** Start a frame's maps. */
void vg_cuda_ssim_map_begin(VgCudaSsimMap *m);

/**
 * Queue the SSIM map of two w x h device float images (row pitch `pitch`
 * bytes) and take its sums into the frame's submission, each to
 * sums[VG_SSIM_SUM_*] (device doubles), those of the set `which`
 * (VG_SSIM_SUM_BIT; the others are not written). hbuf: scratch of the horizontal
 * pass, vg_cuda_ssim_hbuf_bytes(), for maps queued on another stream than the
 * others (0: m's own). stage (VG_SSIM_STAGE_*) and rterm: in a ladder, the
 * map's reference terms, vg_cuda_ssim_rterm_bytes() at rterm, that rendition
 * 0 writes and the others read.
 */
int vg_cuda_ssim_map_submit(VgFeatureCtx *fc, VgCudaSsimMap *m, CUdeviceptr ref,
                            CUdeviceptr cmp, size_t pitch, int w, int h,
                            unsigned which, CUdeviceptr sums, CUdeviceptr hbuf,
                            unsigned stage, CUdeviceptr rterm);

/** The map's stage role (VG_SSIM_STAGE_*) of a frame in a ladder. */
unsigned vg_cuda_ssim_stage(const VgCudaFrame *f);

/** Bytes of a w x h image's map reference terms in a ladder's stage. */
static inline size_t vg_cuda_ssim_rterm_bytes(int w, int h)
{
    return 2 * sizeof(float) * (size_t)(w - (VG_SSIM_WIN - 1)) *
           (size_t)(h - (VG_SSIM_WIN - 1));
}

/** Bytes of the horizontal pass's scratch for a w x h image. */
static inline size_t vg_cuda_ssim_hbuf_bytes(int w, int h)
{
    return 5 * (size_t)VG_SSIM_HBUF_PITCH(w) * (size_t)h * sizeof(float);
}

/** Bytes of a row of a decimated or pyramid image w wide (VG_SSIM_IMG_PITCH). */
static inline size_t vg_cuda_ssim_img_pitch(int w)
{
    return (size_t)VG_SSIM_IMG_PITCH(w) * sizeof(float);
}

/** Queue the sums of the frame's maps. @return 0 or negative errno. */
int vg_cuda_ssim_map_finish(VgFeatureCtx *fc, VgCudaSsimMap *m);

#endif /* VG_GPU_FLOAT_SSIM_H */
