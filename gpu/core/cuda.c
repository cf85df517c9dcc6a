/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/cuda.h"

static pthread_mutex_t cuda_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned cuda_refs;
static CudaFunctions *cuda_funcs;
static VgCuda cuda_api;

void *vg_cuda_dlopen(const char *name)
{
    const char *override = getenv("VG_CUDA_DRIVER");

    return dlopen(override && *override ? override : name, RTLD_LAZY);
}

void vg_cuda_loader_log(void *log, const char *fmt, ...)
{
    char msg[256];
    size_t len;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    len = strlen(msg);
    if (len && msg[len - 1] == '\n')
        msg[len - 1] = '\0';
    vg_log(log, VG_LOG_DEBUG, "cuda loader: %s", msg);
}

int vg_cuda_load(const VgCuda **cu, VgLog *log, enum VgLogLevel level)
{
    CudaFunctions *f = NULL;
    void *sym;
    CUresult res;
    int ret = 0;

    *cu = NULL;
    pthread_mutex_lock(&cuda_lock);
    if (cuda_refs) {
        cuda_refs++;
        *cu = &cuda_api;
        goto end;
    }
    if (cuda_load_functions(&f, log) < 0) {
        const char *name = getenv("VG_CUDA_DRIVER");
        vg_log(log, level, "CUDA driver not available (%s cannot be loaded)",
               name && *name ? name : "libcuda.so.1");
        ret = -ENODEV;
        goto end;
    }
    /* not in nv-codec-headers' table: loaded here the same way */
    memset(&cuda_api, 0, sizeof(cuda_api));
    if (!(sym = dlsym(f->lib, "cuMemHostAlloc")))
        goto missing;
    cuda_api.cuMemHostAlloc = (vg_tcuMemHostAlloc *)sym;
    if (!(sym = dlsym(f->lib, "cuMemFreeHost")))
        goto missing;
    cuda_api.cuMemFreeHost = (vg_tcuMemFreeHost *)sym;
    cuda_api.cuMemHostGetDevicePointer = (vg_tcuMemHostGetDevicePointer *)dlsym(
        f->lib, "cuMemHostGetDevicePointer_v2");

    if ((res = f->cuInit(0)) != CUDA_SUCCESS) {
        const char *name = NULL;
        f->cuGetErrorName(res, &name);
        vg_log(log, level, "CUDA driver present but cuInit failed: %s",
               name ? name : "unknown error");
        ret = -ENODEV;
        goto fail;
    }
    cuda_api.f = f;
    cuda_funcs = f;
    cuda_refs = 1;
    *cu = &cuda_api;
    goto end;

missing:
    vg_log(log, level, "CUDA driver lacks cuMemHostAlloc/cuMemFreeHost");
    ret = -ENODEV;
fail:
    cuda_free_functions(&f);
end:
    pthread_mutex_unlock(&cuda_lock);
    return ret;
}

void vg_cuda_unload(const VgCuda **cu)
{
    if (!*cu)
        return;
    pthread_mutex_lock(&cuda_lock);
    if (cuda_refs && !--cuda_refs) {
        cuda_free_functions(&cuda_funcs);
        memset(&cuda_api, 0, sizeof(cuda_api));
    }
    pthread_mutex_unlock(&cuda_lock);
    *cu = NULL;
}

static int cuda_errno(CUresult res)
{
    switch ((int)res) {
    case 0:
        return 0; /* CUDA_SUCCESS */
    case 1:
        return -EINVAL; /* CUDA_ERROR_INVALID_VALUE */
    case 2:
        return -ENOMEM; /* CUDA_ERROR_OUT_OF_MEMORY */
    case 3:             /* CUDA_ERROR_NOT_INITIALIZED */
    case 35:            /* CUDA_ERROR_INSUFFICIENT_DRIVER */
    case 100:           /* CUDA_ERROR_NO_DEVICE */
    case 101:
        return -ENODEV; /* CUDA_ERROR_INVALID_DEVICE */
    case 209:           /* CUDA_ERROR_NO_BINARY_FOR_GPU */
    case 801:
        return -ENOTSUP; /* CUDA_ERROR_NOT_SUPPORTED */
    case 600:
        return -EAGAIN; /* CUDA_ERROR_NOT_READY */
    default:
        return -EIO;
    }
}

int vg_cuda_error(const VgCuda *cu, VgLog *log, CUresult res, const char *call,
                  const char *file, int line)
{
    const char *name = NULL, *str = NULL;

    if (res == CUDA_SUCCESS)
        return 0;
    if (cu && cu->f) {
        cu->f->cuGetErrorName(res, &name);
        cu->f->cuGetErrorString(res, &str);
    }
    vg_log(log, VG_LOG_ERROR, "%s failed at %s:%d: %s (%d): %s", call, file,
           line, name ? name : "CUDA_ERROR", (int)res,
           str ? str : "unknown error");
    return cuda_errno(res);
}
