/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CUDA engine internals shared by gpu/ files: the per-feature CUDA
 * implementation type (what VgFeatureDesc.cuda points at) and the engine
 * services a feature uses to launch work.
 *
 * Frame flow: submit() converts both pictures into device images of the
 * internal layout, zeroes the frame's device result area, calls each CUDA
 * feature's submit() to queue its kernels on the engine stream, queues one
 * copy of the result area into pinned host memory and records an event.
 * Once that event has completed (polled, never a device-wide sync), each
 * feature's collect() reads its results and emits the frame's values.
 */

#ifndef VG_GPU_ENGINE_H
#define VG_GPU_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "common/feature.h"
#include "common/image.h"
#include "gpu/cuda.h"

typedef struct VgCudaEngine VgCudaEngine;

/** One frame as a CUDA feature sees it. */
typedef struct VgCudaFrame {
    unsigned index;
    const VgImage *ref, *dis;       ///< device images (internal layout)
    const VgImage *prev_ref;        ///< reference n-1 (device), NULL at n = 0
    const VgImage *prev_prev_ref;   ///< reference n-2 (device), NULL at n < 2
    CUdeviceptr res;                ///< device result area (res_size bytes, zeroed)
    const void *host_res;           ///< its host copy; valid in collect() only
} VgCudaFrame;

/**
 * CUDA implementation of a feature. fc->backend is the VgCudaEngine;
 * every callback runs on the thread that called into the library, with
 * the engine's CUDA context current.
 */
typedef struct VgCudaFeatureImpl {
    size_t priv_size;
    size_t res_size;    ///< bytes of per-frame device results
    int (*init)(VgFeatureCtx *fc);
    /** Queue the frame's kernels on the engine stream (no host sync). */
    int (*submit)(VgFeatureCtx *fc, const VgCudaFrame *f);
    /** The frame's work is complete: read f->host_res, emit values. */
    int (*collect)(VgFeatureCtx *fc, const VgCudaFrame *f);
    /** End of stream, after every collect(). Optional. */
    int (*flush)(VgFeatureCtx *fc);
    void (*close)(VgFeatureCtx *fc);
} VgCudaFeatureImpl;

/** @return the driver table of the engine. */
const VgCuda *vg_cuda_engine_api(const VgCudaEngine *e);

/** @return the stream all frame work is queued on. */
CUstream vg_cuda_engine_stream(const VgCudaEngine *e);

/** @return the log of the engine. */
VgLog *vg_cuda_engine_log(const VgCudaEngine *e);

/** Look up a kernel of the library's fatbin. @return 0 or negative errno. */
int vg_cuda_engine_function(VgCudaEngine *e, const char *name,
                            CUfunction *fn);

/**
 * Launch fn on the engine stream with one by-value argument (a params
 * struct from gpu/<feat>_params.h). Empty grids are not launched.
 * @return 0 or negative errno (logged).
 */
int vg_cuda_engine_launch(VgCudaEngine *e, CUfunction fn, unsigned gx,
                          unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          void *params);

#endif /* VG_GPU_ENGINE_H */
