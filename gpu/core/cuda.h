/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CUDA driver API, loaded at run time through nv-codec-headers'
 * dynlink loader (no link-time dependency on libcuda or libcudart), plus
 * the few driver functions those headers do not load. The driver is
 * loaded once per process and reference-counted.
 */

#ifndef VG_GPU_CUDA_H
#define VG_GPU_CUDA_H

#include <stddef.h>

#include "vmafgpu.h"
#include "common/log.h"

/** dlopen() of the driver, honouring VG_CUDA_DRIVER; for the loader. */
void *vg_cuda_dlopen(const char *name);
/** Loader messages go to the library log at DEBUG. */
void vg_cuda_loader_log(void *log, const char *fmt, ...) VG_PRINTF(2, 3);

/* nv-codec-headers' documented hooks: load the driver our way, log
 * through the library log instead of stderr */
#include <dlfcn.h>
#define FFNV_LOAD_FUNC(path) vg_cuda_dlopen(path)
#define FFNV_SYM_FUNC(lib, sym) dlsym((lib), (sym))
#define FFNV_FREE_FUNC(lib) dlclose(lib)
#define FFNV_LOG_FUNC(logctx, msg, ...)                                        \
    vg_cuda_loader_log((logctx), (msg), __VA_ARGS__)
#define FFNV_DEBUG_LOG_FUNC(logctx, msg, ...)
#include <ffnvcodec/dynlink_loader.h>

/** cuMemHostAlloc() flag: memory is portable between contexts. */
#define VG_CU_MEMHOSTALLOC_PORTABLE 0x01
/** cuMemHostAlloc() flag: memory is mapped into the device's space. */
#define VG_CU_MEMHOSTALLOC_DEVICEMAP 0x02

typedef CUresult CUDAAPI vg_tcuMemHostAlloc(void **pp, size_t bytes,
                                            unsigned int flags);
typedef CUresult CUDAAPI vg_tcuMemFreeHost(void *p);
typedef CUresult CUDAAPI vg_tcuMemHostGetDevicePointer(CUdeviceptr *dptr,
                                                       void *p,
                                                       unsigned int flags);

/** The loaded driver entry points. */
typedef struct VgCuda {
    const CudaFunctions *f; ///< nv-codec-headers' table
    vg_tcuMemHostAlloc *cuMemHostAlloc;
    vg_tcuMemFreeHost *cuMemFreeHost;
    /** Optional (NULL when the driver lacks it): the device address of
     *  mapped host memory. */
    vg_tcuMemHostGetDevicePointer *cuMemHostGetDevicePointer;
} VgCuda;

/**
 * Load the driver (libcuda.so.1, or the file named by the environment
 * variable VG_CUDA_DRIVER) and run cuInit() once per process.
 * Every successful call must be paired with vg_cuda_unload().
 * @return 0, or -ENODEV (logged at `level`) when no usable driver exists.
 */
int vg_cuda_load(const VgCuda **cu, VgLog *log, enum VgLogLevel level);

/** Drop one reference taken by vg_cuda_load(); *cu becomes NULL. */
void vg_cuda_unload(const VgCuda **cu);

/**
 * Log a failed driver call (call text, CUDA error name and string) and map
 * the CUresult to a negative errno.
 * @return 0 for CUDA_SUCCESS, else a negative errno.
 */
int vg_cuda_error(const VgCuda *cu, VgLog *log, CUresult res, const char *call,
                  const char *file, int line);

/**
 * Call driver function `fn` of the nv-codec-headers table with the
 * arguments that follow; on failure log and evaluate to a negative errno.
 * Needs a `const VgCuda *` named by `cu` and a `VgLog *` named by `log`.
 */
#define VG_CU(cu, log, fn, ...)                                                \
    vg_cuda_error((cu), (log), (cu)->f->fn(__VA_ARGS__), #fn, __FILE__,        \
                  __LINE__)

/** Same for the functions loaded by VgCuda itself. */
#define VG_CUX(cu, log, fn, ...)                                               \
    vg_cuda_error((cu), (log), (cu)->fn(__VA_ARGS__), #fn, __FILE__, __LINE__)

#endif /* VG_GPU_CUDA_H */
