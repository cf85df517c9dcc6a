/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The CUDA implementation of a feature (gpu/<feat>.c), typed from the
 * prototypes of common/feature.h plus the two calls of the asynchronous
 * frame path, and the table of every implementation, one entry per line of
 * common/features/list.h with gpu = 1 (gpu/core/engine.c).
 *
 * A feature's CUDA implementation sees fc->backend as the VgCudaDevice
 * (gpu/core/device.h); every callback but finish runs on the thread that called
 * into the library, with the device's context current.
 */

#ifndef VG_GPU_FEATURE_H
#define VG_GPU_FEATURE_H

#include <stddef.h>

#include "common/feature.h"
#include "common/image.h"
#include "gpu/core/device.h"

/** One frame as a CUDA feature sees it. */
typedef struct VgCudaFrame {
    unsigned index;
    const VgImage *ref, *dis;     ///< device images (internal layout)
    const VgImage *prev_ref;      ///< reference n-1 (device), NULL at n = 0
    const VgImage *prev_prev_ref; ///< reference n-2 (device), NULL at n < 2
    const VgImage *prev_dis;      ///< distorted n-1 (device), NULL at n = 0
    /**
     * The luma of ref and dis as float (common/fplane.h, offset 0), row
     * pitch f_pitch bytes: converted once per frame for every feature
     * whose impl asks for it (VG_CUDA_NEED_FLOAT_LUMA), 0 otherwise.
     * Features wanting libvmaf's offset of -128 add it on load, as
     * picture_copy() does after the division.
     */
    CUdeviceptr ref_f, dis_f;
    size_t f_pitch;
    /**
     * In a ladder, the entry of this frame's reference stage
     * (VgCudaFeatureImpl.ref_stage_size bytes, device): rendition 0
     * writes it (stage_role VG_STAGE_WRITE, common/feature.h) while
     * computing its frame, the other renditions read it (VG_STAGE_READ)
     * instead of computing it. 0 (and stage_role 0) outside a ladder.
     */
    CUdeviceptr stage;
    int stage_role;
    CUdeviceptr res; ///< device result area (res_size bytes, zeroed)
    const void
        *host_res; ///< its host copy; valid in collect() and finish() only
} VgCudaFrame;

/** Queue the frame's kernels on the device stream (no host sync). */
typedef int VgCudaSubmitFn(VgFeatureCtx *fc, const VgCudaFrame *f);
/** The frame's work is complete: read f->host_res, emit values. */
typedef int VgCudaCollectFn(VgFeatureCtx *fc, const VgCudaFrame *f);

/** What a CUDA feature needs prepared besides the frame's images. */
enum {
    VG_CUDA_NEED_FLOAT_LUMA = 1 << 0, ///< VgCudaFrame.ref_f / dis_f
};

typedef struct VgCudaFeatureImpl {
    size_t priv_size;
    unsigned needs;  ///< VG_CUDA_NEED_* flags
    size_t res_size; ///< bytes of per-frame device results
    /**
     * Optional: the bytes of per-frame results when they depend on the
     * geometry or the options, asked once after init; replaces res_size.
     */
    size_t (*res_size_of)(const VgFeatureCtx *fc);
    VgFeatureInitFn *init;
    VgCudaSubmitFn *submit;
    /** Optional with finish: runs first, in frame order. */
    VgCudaCollectFn *collect;
    /**
     * Optional: the frame's host step (pooling, solves, libm steps that
     * only the host settles exactly), after collect(). It runs on a thread
     * of the engine's host pool, for several frames at once and in any
     * order, without the device's context: it reads f->host_res and what
     * collect() left for the frame, takes any scratch under a lock of its
     * own, and emits the frame's values.
     */
    VgCudaCollectFn *finish;
    VgFeatureFlushFn *flush; ///< optional
    VgFeatureCloseFn *close; ///< optional
    /**
     * Optional, for features with VG_FEATURE_REF_STAGE: the bytes of the
     * results that depend on the reference alone (VgCudaFrame.stage),
     * asked once after init; 0 when these options leave nothing to share.
     */
    size_t (*ref_stage_size)(const VgFeatureCtx *fc);
    /**
     * Optional: 0 when these options (or this host) are outside what the
     * kernels reproduce exactly; the engine then runs the reference
     * implementation on the host instead.
     */
    int (*usable)(const void *opts);
} VgCudaFeatureImpl;

#define VG_GPU_IMPL_DECL_0(name)
#define VG_GPU_IMPL_DECL_1(name) extern const VgCudaFeatureImpl vg_cuda_##name;
#define VG_FEATURE(name, gpu) VG_GPU_IMPL_DECL_##gpu(name)
#include "common/features/list.h"
#undef VG_FEATURE

/** @return the CUDA implementation of a feature, or NULL (host only). */
const VgCudaFeatureImpl *vg_cuda_feature(const VgFeatureDesc *desc);

static inline VgCudaDevice *vg_cuda_fc_device(const VgFeatureCtx *fc)
{
    return (VgCudaDevice *)fc->backend;
}

#endif /* VG_GPU_FEATURE_H */
