/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CUDA device services: the loaded driver, the context (the caller's or
 * the device's primary context), the stream all work is queued on, the
 * library's kernel module, kernel lookup and launch, and error reporting
 * (gpu/core/cuda.h). The frame scheduler (gpu/core/engine.c), the picture
 * conversion (gpu/core/picture.c) and the features (gpu/<feat>.c) use these;
 * none of them calls back into the scheduler.
 */

#ifndef VG_GPU_DEVICE_H
#define VG_GPU_DEVICE_H

#include "vmafgpu.h"
#include "common/log.h"
#include "gpu/core/cuda.h"

typedef struct VgCudaDevice {
    const VgCuda *cu; ///< driver entry points
    VgLog *log;
    CUcontext ctx;
    CUdevice dev;
    int own_ctx;     ///< ctx is the retained primary context of dev
    CUstream stream; ///< every launch and copy of the library goes here
    int own_stream;
    CUmodule module;  ///< the library's fatbin (gpu/core/kernels.cu)
    char name[128];   ///< device name
    int major, minor; ///< compute capability
} VgCudaDevice;

/**
 * n rounded up to 256 bytes: the pitch of a device image's rows, and the
 * start of each buffer carved from one allocation.
 */
static inline size_t vg_cuda_align(size_t n)
{
    return (n + 255) & ~(size_t)255;
}

/**
 * Check that the driver loads and that the device cfg asks for exists,
 * without opening it (backend=auto's probe). Logs the reason at WARNING
 * when cfg asks for CUDA, else at INFO. @return 0 or negative errno.
 */
int vg_cuda_device_usable(const VgConfig *cfg, VgLog *log);

/**
 * Load the driver, take the context (cfg->cuda_context, or the primary
 * context of cfg->cuda_device), the stream (cfg->cuda_stream, or a
 * non-blocking stream of ours) and load the kernels. On failure d is
 * closed. The context is not left current.
 * @return 0 or negative errno (logged).
 */
int vg_cuda_device_open(VgCudaDevice *d, const VgConfig *cfg, VgLog *log);

/**
 * Synchronise the stream (the library's own work only, never the whole
 * device), unload the module, release what open took. Idempotent.
 */
void vg_cuda_device_close(VgCudaDevice *d);

/** Make the device's context current on this thread. */
int vg_cuda_device_push(VgCudaDevice *d);
/**
 * Undo vg_cuda_device_push(). @return 0 or negative errno (logged); on
 * failure the context may still be current on this thread, so the call
 * that pushed it must fail too.
 */
int vg_cuda_device_pop(VgCudaDevice *d);

/** Look up a kernel of the library's module. @return 0 or negative errno. */
int vg_cuda_device_function(VgCudaDevice *d, const char *name, CUfunction *fn);

/**
 * Launch fn on the device's stream with one by-value argument (a params
 * struct from common/features/<feat>_params.h). Empty grids are not
 * launched. @return 0 or negative errno (logged).
 */
int vg_cuda_device_launch(VgCudaDevice *d, CUfunction fn, unsigned gx,
                          unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          void *params);

/** Driver call through d's table and log: VG_CU with d's fields. */
#define VG_DCU(d, fn, ...) VG_CU((d)->cu, (d)->log, fn, __VA_ARGS__)
/** Same for the functions loaded by VgCuda itself. */
#define VG_DCUX(d, fn, ...) VG_CUX((d)->cu, (d)->log, fn, __VA_ARGS__)

#endif /* VG_GPU_DEVICE_H */
