/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <string.h>

#include "gpu/core/device.h"

/** The library's kernels (gpu/core/kernels.cu), embedded at build time. */
extern const unsigned char vg_cuda_fatbin[];

int vg_cuda_device_usable(const VgConfig *cfg, VgLog *log)
{
    /* the reason matters to a caller that asked for CUDA; for
     * backend=auto, which says at INFO which backend it took, it only
     * explains the fallback to the CPU */
    const enum VgLogLevel level =
        cfg->backend == VG_BACKEND_CUDA ? VG_LOG_WARNING : VG_LOG_DEBUG;
    const VgCuda *cu;
    const char *err = NULL;
    CUresult res;
    int n = 0, ret;

    if ((ret = vg_cuda_load(&cu, log, level)) < 0)
        return ret;
    if (!cfg->cuda_context) {
        if ((res = cu->f->cuDeviceGetCount(&n)) != CUDA_SUCCESS) {
            cu->f->cuGetErrorName(res, &err);
            vg_log(log, level,
                   "CUDA driver loaded but cuDeviceGetCount "
                   "failed: %s (%d)",
                   err ? err : "unknown error", (int)res);
            ret = -ENODEV;
        } else if (n <= 0) {
            vg_log(log, level, "CUDA driver loaded but no CUDA device found");
            ret = -ENODEV;
        } else if (cfg->cuda_device < 0 || cfg->cuda_device >= n) {
            vg_log(log, level, "CUDA device %d requested, %d present",
                   cfg->cuda_device, n);
            ret = -ENODEV;
        }
    }
    vg_cuda_unload(&cu);
    return ret;
}

int vg_cuda_device_push(VgCudaDevice *d)
{
    return VG_DCU(d, cuCtxPushCurrent, d->ctx);
}

int vg_cuda_device_pop(VgCudaDevice *d)
{
    CUcontext dummy;

    return VG_DCU(d, cuCtxPopCurrent, &dummy);
}

void vg_cuda_device_close(VgCudaDevice *d)
{
    if (d->cu && d->ctx && vg_cuda_device_push(d) >= 0) {
        if (d->stream)
            VG_DCU(d, cuStreamSynchronize, d->stream);
        if (d->module)
            VG_DCU(d, cuModuleUnload, d->module);
        if (d->own_stream && d->stream)
            VG_DCU(d, cuStreamDestroy, d->stream);
        vg_cuda_device_pop(d); /* logged; nothing else to undo */
    }
    d->module = NULL;
    d->stream = NULL;
    if (d->own_ctx)
        VG_DCU(d, cuDevicePrimaryCtxRelease, d->dev);
    d->own_ctx = 0;
    d->ctx = NULL;
    vg_cuda_unload(&d->cu);
}

int vg_cuda_device_open(VgCudaDevice *d, const VgConfig *cfg, VgLog *log)
{
    int pushed = 0, ret;

    memset(d, 0, sizeof(*d));
    d->log = log;
    if ((ret = vg_cuda_load(&d->cu, log, VG_LOG_ERROR)) < 0)
        goto fail;
    if (cfg->cuda_context) {
        d->ctx = cfg->cuda_context;
        if ((ret = vg_cuda_device_push(d)) < 0)
            goto fail;
        pushed = 1;
        if ((ret = VG_DCU(d, cuCtxGetDevice, &d->dev)) < 0)
            goto fail;
    } else {
        if ((ret = VG_DCU(d, cuDeviceGet, &d->dev, cfg->cuda_device)) < 0 ||
            (ret = VG_DCU(d, cuDevicePrimaryCtxRetain, &d->ctx, d->dev)) < 0)
            goto fail;
        d->own_ctx = 1;
        if ((ret = vg_cuda_device_push(d)) < 0)
            goto fail;
        pushed = 1;
    }
    if ((ret = VG_DCU(d, cuDeviceGetName, d->name, sizeof(d->name) - 1,
                      d->dev)) < 0 ||
        (ret = VG_DCU(d, cuDeviceComputeCapability, &d->major, &d->minor,
                      d->dev)) < 0)
        goto fail;
    if (cfg->cuda_stream) {
        d->stream = cfg->cuda_stream;
    } else {
        if ((ret = VG_DCU(d, cuStreamCreate, &d->stream,
                          CU_STREAM_NON_BLOCKING)) < 0)
            goto fail;
        d->own_stream = 1;
    }
    if ((ret = VG_DCU(d, cuModuleLoadData, &d->module, vg_cuda_fatbin)) < 0)
        goto fail;
    pushed = 0;
    if ((ret = vg_cuda_device_pop(d)) < 0)
        goto fail;
    return 0;
fail:
    if (pushed)
        vg_cuda_device_pop(d);
    vg_cuda_device_close(d);
    return ret;
}

int vg_cuda_device_function(VgCudaDevice *d, const char *name, CUfunction *fn)
{
    return VG_DCU(d, cuModuleGetFunction, fn, d->module, name);
}

int vg_cuda_device_launch(VgCudaDevice *d, CUfunction fn, unsigned gx,
                          unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          void *params)
{
    void *args[] = { params };

    if (!gx || !gy || !gz)
        return 0;
    return VG_DCU(d, cuLaunchKernel, fn, gx, gy, gz, bx, by, 1, 0, d->stream,
                  args, NULL);
}
