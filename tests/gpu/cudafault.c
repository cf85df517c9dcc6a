/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * A CUDA driver for tests (libcudafault.so), loaded through VG_CUDA_DRIVER
 * in place of libcuda.so.1. It exports every entry point that
 * nv-codec-headers' loader resolves (ffnvcodec/dynlink_loader.h
 * cuda_load_functions(), with its versioned symbol names) plus
 * cuMemHostAlloc and cuMemFreeHost (gpu/core/cuda.c), counts the calls per
 * function, fails a chosen one and keeps a list of the objects created so
 * that a test can tell what is left after the library closed.
 *
 * Two modes (tests/gpu/cudafault.h lists the environment):
 *  - forwarding (VG_FAULT_REAL names the real driver): each call goes to
 *    that driver, except the injected failure;
 *  - emulated: one device (compute capability 9.0) without a GPU.
 *    Contexts (primary and created) with a per-thread stack, streams,
 *    events that are complete once recorded (or after
 *    VG_FAULT_EVENT_LAG queries), modules that accept a fatbin, cubin
 *    or PTX image and find kernels by name in it, launches that check
 *    their arguments and run nothing, device and pinned memory of its own
 *    (mmap(), not the caller's heap) with every copy and memset checked
 *    against the allocation it touches. Destroying a context frees what it owns, as the driver does.
 *    Calls the real driver would refuse fail here too, are counted
 *    (VgFaultStats.errors) and say why on stderr: they are bugs of the
 *    caller.
 */

#include <dlfcn.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <ffnvcodec/dynlink_cuda.h>

#include "tests/gpu/cudafault.h"

/* ---- the driver's error codes (dynlink_cuda.h names only three) -------- */

typedef struct ErrName {
    const char *key;  ///< VG_FAULT_ERR spelling
    const char *name; ///< cuGetErrorName()
    int value;
    const char *text; ///< cuGetErrorString() of the emulation
} ErrName;

static const ErrName errs[] = {
    { "success", "CUDA_SUCCESS", 0, "no error" },
    { "invalid_value", "CUDA_ERROR_INVALID_VALUE", 1, "invalid argument" },
    { "out_of_memory", "CUDA_ERROR_OUT_OF_MEMORY", 2, "out of memory" },
    { "not_initialized", "CUDA_ERROR_NOT_INITIALIZED", 3,
      "driver not initialised" },
    { "deinitialized", "CUDA_ERROR_DEINITIALIZED", 4, "driver shutting down" },
    { "no_device", "CUDA_ERROR_NO_DEVICE", 100, "no CUDA-capable device" },
    { "invalid_device", "CUDA_ERROR_INVALID_DEVICE", 101,
      "invalid device ordinal" },
    { "invalid_image", "CUDA_ERROR_INVALID_IMAGE", 200,
      "invalid kernel image" },
    { "invalid_context", "CUDA_ERROR_INVALID_CONTEXT", 201, "invalid context" },
    { "no_binary", "CUDA_ERROR_NO_BINARY_FOR_GPU", 209,
      "no kernel image for this device" },
    { "invalid_handle", "CUDA_ERROR_INVALID_HANDLE", 400,
      "invalid resource handle" },
    { "not_found", "CUDA_ERROR_NOT_FOUND", 500, "named symbol not found" },
    { "not_ready", "CUDA_ERROR_NOT_READY", 600, "device not ready" },
    { "illegal_address", "CUDA_ERROR_ILLEGAL_ADDRESS", 700,
      "illegal memory access" },
    { "launch_out_of_resources", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", 701,
      "too many resources requested for launch" },
    { "launch_timeout", "CUDA_ERROR_LAUNCH_TIMEOUT", 702, "launch timed out" },
    { "context_is_destroyed", "CUDA_ERROR_CONTEXT_IS_DESTROYED", 709,
      "context is destroyed" },
    { "launch_failed", "CUDA_ERROR_LAUNCH_FAILED", 719,
      "unspecified launch failure" },
    { "not_permitted", "CUDA_ERROR_NOT_PERMITTED", 800,
      "operation not permitted" },
    { "not_supported", "CUDA_ERROR_NOT_SUPPORTED", 801,
      "operation not supported" },
    { "unknown", "CUDA_ERROR_UNKNOWN", 999, "unknown error" },
};

enum {
    E_INVALID_VALUE = 1,
    E_OUT_OF_MEMORY = 2,
    E_NOT_INITIALIZED = 3,
    E_NO_DEVICE = 100,
    E_INVALID_DEVICE = 101,
    E_INVALID_IMAGE = 200,
    E_INVALID_CONTEXT = 201,
    E_NO_BINARY = 209,
    E_INVALID_HANDLE = 400,
    E_NOT_FOUND = 500,
    E_NOT_READY = 600,
    E_ILLEGAL_ADDRESS = 700,
    E_CONTEXT_IS_DESTROYED = 709,
    E_LAUNCH_FAILED = 719,
    E_NOT_SUPPORTED = 801,
    E_UNKNOWN = 999,
};

static const ErrName *err_by_value(int v)
{
    for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
        if (errs[i].value == v)
            return &errs[i];
    return NULL;
}

/* ---- the exported functions ---------------------------------------------- */

/* X(name in the loader's table, exported symbol, nv-codec-headers type,
 * flags); NOALL: not failed by VG_FAULT_FUNCS=all (error reporting) */
#define NOALL 1
#define FUNCS(X)                                                               \
    X(cuInit, cuInit, tcuInit, 0)                                              \
    X(cuDriverGetVersion, cuDriverGetVersion, tcuDriverGetVersion, 0)          \
    X(cuDeviceGetCount, cuDeviceGetCount, tcuDeviceGetCount, 0)                \
    X(cuDeviceGet, cuDeviceGet, tcuDeviceGet, 0)                               \
    X(cuDeviceGetAttribute, cuDeviceGetAttribute, tcuDeviceGetAttribute, 0)    \
    X(cuDeviceGetName, cuDeviceGetName, tcuDeviceGetName, 0)                   \
    X(cuDeviceComputeCapability, cuDeviceComputeCapability,                    \
      tcuDeviceComputeCapability, 0)                                           \
    X(cuDeviceGetUuid, cuDeviceGetUuid, tcuDeviceGetUuid, 0)                   \
    X(cuDeviceGetUuid_v2, cuDeviceGetUuid_v2, tcuDeviceGetUuid_v2, 0)          \
    X(cuDeviceGetLuid, cuDeviceGetLuid, tcuDeviceGetLuid, 0)                   \
    X(cuDeviceGetByPCIBusId, cuDeviceGetByPCIBusId, tcuDeviceGetByPCIBusId, 0) \
    X(cuDeviceGetPCIBusId, cuDeviceGetPCIBusId, tcuDeviceGetPCIBusId, 0)       \
    X(cuCtxCreate, cuCtxCreate_v2, tcuCtxCreate_v2, 0)                         \
    X(cuCtxGetCurrent, cuCtxGetCurrent, tcuCtxGetCurrent, 0)                   \
    X(cuCtxSetLimit, cuCtxSetLimit, tcuCtxSetLimit, 0)                         \
    X(cuCtxPushCurrent, cuCtxPushCurrent_v2, tcuCtxPushCurrent_v2, 0)          \
    X(cuCtxPopCurrent, cuCtxPopCurrent_v2, tcuCtxPopCurrent_v2, 0)             \
    X(cuCtxDestroy, cuCtxDestroy_v2, tcuCtxDestroy_v2, 0)                      \
    X(cuCtxGetDevice, cuCtxGetDevice, tcuCtxGetDevice, 0)                      \
    X(cuMemAlloc, cuMemAlloc_v2, tcuMemAlloc_v2, 0)                            \
    X(cuMemAllocPitch, cuMemAllocPitch_v2, tcuMemAllocPitch_v2, 0)             \
    X(cuMemAllocManaged, cuMemAllocManaged, tcuMemAllocManaged, 0)             \
    X(cuMemsetD8Async, cuMemsetD8Async, tcuMemsetD8Async, 0)                   \
    X(cuMemFree, cuMemFree_v2, tcuMemFree_v2, 0)                               \
    X(cuMemcpy, cuMemcpy, tcuMemcpy, 0)                                        \
    X(cuMemcpyAsync, cuMemcpyAsync, tcuMemcpyAsync, 0)                         \
    X(cuMemcpy2D, cuMemcpy2D_v2, tcuMemcpy2D_v2, 0)                            \
    X(cuMemcpy2DAsync, cuMemcpy2DAsync_v2, tcuMemcpy2DAsync_v2, 0)             \
    X(cuMemcpyHtoD, cuMemcpyHtoD_v2, tcuMemcpyHtoD_v2, 0)                      \
    X(cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2, tcuMemcpyHtoDAsync_v2, 0)       \
    X(cuMemcpyDtoH, cuMemcpyDtoH_v2, tcuMemcpyDtoH_v2, 0)                      \
    X(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2, tcuMemcpyDtoHAsync_v2, 0)       \
    X(cuMemcpyDtoD, cuMemcpyDtoD_v2, tcuMemcpyDtoD_v2, 0)                      \
    X(cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2, tcuMemcpyDtoDAsync_v2, 0)       \
    X(cuMemHostAlloc, cuMemHostAlloc, tMemHostAlloc, 0)                        \
    X(cuMemFreeHost, cuMemFreeHost, tMemFreeHost, 0)                           \
    X(cuGetErrorName, cuGetErrorName, tcuGetErrorName, NOALL)                  \
    X(cuGetErrorString, cuGetErrorString, tcuGetErrorString, NOALL)            \
    X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain,                      \
      tcuDevicePrimaryCtxRetain, 0)                                            \
    X(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease,                    \
      tcuDevicePrimaryCtxRelease, 0)                                           \
    X(cuDevicePrimaryCtxSetFlags, cuDevicePrimaryCtxSetFlags,                  \
      tcuDevicePrimaryCtxSetFlags, 0)                                          \
    X(cuDevicePrimaryCtxGetState, cuDevicePrimaryCtxGetState,                  \
      tcuDevicePrimaryCtxGetState, 0)                                          \
    X(cuDevicePrimaryCtxReset, cuDevicePrimaryCtxReset,                        \
      tcuDevicePrimaryCtxReset, 0)                                             \
    X(cuStreamCreate, cuStreamCreate, tcuStreamCreate, 0)                      \
    X(cuStreamQuery, cuStreamQuery, tcuStreamQuery, 0)                         \
    X(cuStreamSynchronize, cuStreamSynchronize, tcuStreamSynchronize, 0)       \
    X(cuStreamDestroy, cuStreamDestroy_v2, tcuStreamDestroy_v2, 0)             \
    X(cuStreamAddCallback, cuStreamAddCallback, tcuStreamAddCallback, 0)       \
    X(cuStreamWaitEvent, cuStreamWaitEvent, tcuStreamWaitEvent, 0)             \
    X(cuEventCreate, cuEventCreate, tcuEventCreate, 0)                         \
    X(cuEventDestroy, cuEventDestroy_v2, tcuEventDestroy_v2, 0)                \
    X(cuEventSynchronize, cuEventSynchronize, tcuEventSynchronize, 0)          \
    X(cuEventQuery, cuEventQuery, tcuEventQuery, 0)                            \
    X(cuEventRecord, cuEventRecord, tcuEventRecord, 0)                         \
    X(cuLaunchKernel, cuLaunchKernel, tcuLaunchKernel, 0)                      \
    X(cuLinkCreate, cuLinkCreate, tcuLinkCreate, 0)                            \
    X(cuLinkAddData, cuLinkAddData, tcuLinkAddData, 0)                         \
    X(cuLinkComplete, cuLinkComplete, tcuLinkComplete, 0)                      \
    X(cuLinkDestroy, cuLinkDestroy, tcuLinkDestroy, 0)                         \
    X(cuModuleLoadData, cuModuleLoadData, tcuModuleLoadData, 0)                \
    X(cuModuleUnload, cuModuleUnload, tcuModuleUnload, 0)                      \
    X(cuModuleGetFunction, cuModuleGetFunction, tcuModuleGetFunction, 0)       \
    X(cuModuleGetGlobal, cuModuleGetGlobal, tcuModuleGetGlobal, 0)             \
    X(cuTexObjectCreate, cuTexObjectCreate, tcuTexObjectCreate, 0)             \
    X(cuTexObjectDestroy, cuTexObjectDestroy, tcuTexObjectDestroy, 0)          \
    X(cuGLGetDevices, cuGLGetDevices_v2, tcuGLGetDevices_v2, 0)                \
    X(cuGraphicsGLRegisterImage, cuGraphicsGLRegisterImage,                    \
      tcuGraphicsGLRegisterImage, 0)                                           \
    X(cuGraphicsUnregisterResource, cuGraphicsUnregisterResource,              \
      tcuGraphicsUnregisterResource, 0)                                        \
    X(cuGraphicsMapResources, cuGraphicsMapResources, tcuGraphicsMapResources, \
      0)                                                                       \
    X(cuGraphicsUnmapResources, cuGraphicsUnmapResources,                      \
      tcuGraphicsUnmapResources, 0)                                            \
    X(cuGraphicsSubResourceGetMappedArray,                                     \
      cuGraphicsSubResourceGetMappedArray,                                     \
      tcuGraphicsSubResourceGetMappedArray, 0)                                 \
    X(cuGraphicsResourceGetMappedPointer,                                      \
      cuGraphicsResourceGetMappedPointer_v2,                                   \
      tcuGraphicsResourceGetMappedPointer, 0)                                  \
    X(cuImportExternalMemory, cuImportExternalMemory, tcuImportExternalMemory, \
      0)                                                                       \
    X(cuDestroyExternalMemory, cuDestroyExternalMemory,                        \
      tcuDestroyExternalMemory, 0)                                             \
    X(cuExternalMemoryGetMappedBuffer, cuExternalMemoryGetMappedBuffer,        \
      tcuExternalMemoryGetMappedBuffer, 0)                                     \
    X(cuExternalMemoryGetMappedMipmappedArray,                                 \
      cuExternalMemoryGetMappedMipmappedArray,                                 \
      tcuExternalMemoryGetMappedMipmappedArray, 0)                             \
    X(cuMipmappedArrayGetLevel, cuMipmappedArrayGetLevel,                      \
      tcuMipmappedArrayGetLevel, 0)                                            \
    X(cuMipmappedArrayDestroy, cuMipmappedArrayDestroy,                        \
      tcuMipmappedArrayDestroy, 0)                                             \
    X(cuImportExternalSemaphore, cuImportExternalSemaphore,                    \
      tcuImportExternalSemaphore, 0)                                           \
    X(cuDestroyExternalSemaphore, cuDestroyExternalSemaphore,                  \
      tcuDestroyExternalSemaphore, 0)                                          \
    X(cuSignalExternalSemaphoresAsync, cuSignalExternalSemaphoresAsync,        \
      tcuSignalExternalSemaphoresAsync, 0)                                     \
    X(cuWaitExternalSemaphoresAsync, cuWaitExternalSemaphoresAsync,            \
      tcuWaitExternalSemaphoresAsync, 0)                                       \
    X(cuArrayCreate, cuArrayCreate_v2, tcuArrayCreate, 0)                      \
    X(cuArray3DCreate, cuArray3DCreate_v2, tcuArray3DCreate, 0)                \
    X(cuArrayDestroy, cuArrayDestroy, tcuArrayDestroy, 0)                      \
    X(cuEGLStreamProducerConnect, cuEGLStreamProducerConnect,                  \
      tcuEGLStreamProducerConnect, 0)                                          \
    X(cuEGLStreamProducerDisconnect, cuEGLStreamProducerDisconnect,            \
      tcuEGLStreamProducerDisconnect, 0)                                       \
    X(cuEGLStreamConsumerDisconnect, cuEGLStreamConsumerDisconnect,            \
      tcuEGLStreamConsumerDisconnect, 0)                                       \
    X(cuEGLStreamProducerPresentFrame, cuEGLStreamProducerPresentFrame,        \
      tcuEGLStreamProducerPresentFrame, 0)                                     \
    X(cuEGLStreamProducerReturnFrame, cuEGLStreamProducerReturnFrame,          \
      tcuEGLStreamProducerReturnFrame, 0)

/* the two functions gpu/core/cuda.h loads itself */
typedef CUresult CUDAAPI tMemHostAlloc(void **pp, size_t bytes,
                                       unsigned int flags);
typedef CUresult CUDAAPI tMemFreeHost(void *p);

enum {
#define X(name, sym, type, flags) F_##name,
    FUNCS(X)
#undef X
    NB_FUNCS
};

static const struct {
    const char *name, *sym;
    int flags;
} funcs[NB_FUNCS] = {
#define X(name, sym, type, flags) { #name, #sym, flags },
    FUNCS(X)
#undef X
};

/* every export is declared through its nv-codec-headers type, so that a
 * definition that does not match the loader's prototype fails to compile */
#define X(name, sym, type, flags) type sym;
FUNCS(X)
#undef X

/* what the shim exports for its users (tests/gpu/cudafault.h) */
VgFaultStatsFn vgfault_stats;
VgFaultFuncCountFn vgfault_func_count;
VgFaultFuncNameFn vgfault_func_name;
VgFaultErrNameFn vgfault_err_name;
VgFaultPauseFn vgfault_pause;
VgFaultFiredFn vgfault_fired;

/* ---- state --------------------------------------------------------------- */

/** A tracked driver object. */
typedef struct Obj {
    struct Obj *next;
    int kind;      ///< enum VgFaultKind
    uintptr_t h;   ///< handle, or base address of memory
    size_t size;   ///< bytes of memory; image bytes of a module
    uintptr_t ctx; ///< owning context (0 for a context)
    /* contexts */
    int primary;
    int dev;       ///< device of a primary context
    unsigned refs; ///< retains of a primary context
    unsigned flags;
    /* emulated events */
    unsigned pending; ///< queries that still answer NOT_READY
    /* emulated modules */
    char *names; ///< kernels of the image, NUL-separated
    size_t names_len;
    int any_name; ///< the image could not be searched
    struct Func *funcs;
} Obj;

/** An emulated kernel handle (owned by its module). */
typedef struct Func {
    struct Func *next;
    uintptr_t h;
    uintptr_t module;
    char name[];
} Func;

#define MAX_PATTERNS 32
#define CTX_STACK 64

static struct {
    pthread_mutex_t lock;
    int fwd;    ///< forwarding to a real driver
    int broken; ///< VG_FAULT_REAL could not be loaded
    void *real;
    void *real_fn[NB_FUNCS];
    /* injection */
    unsigned char selected[NB_FUNCS];
    unsigned long n;
    int sticky;
    int err; ///< -1: per function
    int print_counts;
    unsigned event_lag; ///< VG_FAULT_EVENT_LAG
    int no_copy;        ///< VG_FAULT_NO_COPY
    int timed;          ///< VG_FAULT_TIME
    /* counts */
    unsigned long calls[NB_FUNCS];
    uint64_t ns[NB_FUNCS]; ///< time spent in each function's calls
    unsigned long total, n_selected, fired, errors;
    int fired_func, fired_err;
    unsigned long fired_at;
    const void *fired_site;
    char last_error[256];
    unsigned long reclaimed[VGFAULT_NB_KINDS];
    /* objects */
    Obj *objs;
    Obj *primary; ///< the emulated device's primary context
    unsigned primary_flags;
    uintptr_t next_handle;
    int initialised; ///< emulated cuInit() ran
} g = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .fired_func = -1,
    .next_handle = 0x7a0000,
};

static __thread int pause_depth;
static __thread uintptr_t ctx_stack[CTX_STACK];
static __thread int ctx_depth;

/* set when the failure of the current call is already accounted for
 * (injected, or refused and counted by the emulation) */
static __thread int counted;

/* ---- set-up from the environment ------------------------------------------ */

static int parse_err(const char *s)
{
    char *end;
    long v;

    if (!s || !*s || !strcmp(s, "auto"))
        return -1;
    for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
        if (!strcmp(s, errs[i].key) || !strcmp(s, errs[i].name))
            return errs[i].value;
    v = strtol(s, &end, 0);
    if (*end || v <= 0) {
        fprintf(stderr, "cudafault: unknown VG_FAULT_ERR '%s', using auto\n",
                s);
        return -1;
    }
    return (int)v;
}

/* the error a failing call of f reports when VG_FAULT_ERR is auto */
static int auto_err(int f)
{
    switch (f) {
    case F_cuMemAlloc:
    case F_cuMemAllocPitch:
    case F_cuMemAllocManaged:
    case F_cuMemHostAlloc:
    case F_cuStreamCreate:
    case F_cuEventCreate:
    case F_cuCtxCreate:
    case F_cuDevicePrimaryCtxRetain:
        return E_OUT_OF_MEMORY;
    case F_cuLaunchKernel:
        return E_LAUNCH_FAILED;
    case F_cuEventQuery:
    case F_cuEventSynchronize:
    case F_cuStreamQuery:
    case F_cuStreamSynchronize:
    case F_cuMemcpy:
    case F_cuMemcpyAsync:
    case F_cuMemcpy2D:
    case F_cuMemcpy2DAsync:
    case F_cuMemcpyHtoD:
    case F_cuMemcpyHtoDAsync:
    case F_cuMemcpyDtoH:
    case F_cuMemcpyDtoHAsync:
    case F_cuMemcpyDtoD:
    case F_cuMemcpyDtoDAsync:
    case F_cuMemsetD8Async:
        return E_ILLEGAL_ADDRESS;
    case F_cuModuleLoadData:
        return E_NO_BINARY;
    case F_cuModuleGetFunction:
    case F_cuModuleGetGlobal:
        return E_NOT_FOUND;
    case F_cuInit:
    case F_cuDeviceGetCount:
        return E_NO_DEVICE;
    case F_cuDeviceGet:
        return E_INVALID_DEVICE;
    case F_cuCtxPushCurrent:
    case F_cuCtxPopCurrent:
    case F_cuCtxGetDevice:
    case F_cuCtxGetCurrent:
    case F_cuDevicePrimaryCtxRelease:
    case F_cuCtxDestroy:
        return E_INVALID_CONTEXT;
    default:
        return E_UNKNOWN;
    }
}

static void select_funcs(const char *list)
{
    char buf[1024], *save = NULL;

    if (!list || !*list || !strcmp(list, "all")) {
        for (int f = 0; f < NB_FUNCS; f++)
            g.selected[f] = !(funcs[f].flags & NOALL);
        return;
    }
    snprintf(buf, sizeof(buf), "%s", list);
    for (char *p = strtok_r(buf, ", ", &save); p;
         p = strtok_r(NULL, ", ", &save)) {
        int hit = 0;
        for (int f = 0; f < NB_FUNCS; f++) {
            if (!fnmatch(p, funcs[f].name, 0) || !fnmatch(p, funcs[f].sym, 0)) {
                g.selected[f] = 1;
                hit = 1;
            }
        }
        if (!hit)
            fprintf(stderr,
                    "cudafault: VG_FAULT_FUNCS: '%s' names no function\n", p);
    }
}

static void print_report(void);

/* the real driver; a copy of this shim there (an emulating one, to test
 * forwarding without a GPU) must not see our settings */
static void *open_real(const char *path)
{
    static const char *const vars[] = {
        "VG_FAULT_REAL",   "VG_FAULT_FUNCS", "VG_FAULT_N",
        "VG_FAULT_STICKY", "VG_FAULT_ERR",   "VG_FAULT_COUNT",
    };
    char *saved[sizeof(vars) / sizeof(vars[0])];
    void *h;

    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        const char *v = getenv(vars[i]);
        saved[i] = v ? strdup(v) : NULL;
        unsetenv(vars[i]);
    }
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        if (saved[i])
            setenv(vars[i], saved[i], 1);
        free(saved[i]);
    }
    return h;
}

__attribute__((constructor)) static void setup(void)
{
    const char *real = getenv("VG_FAULT_REAL");
    const char *s;
    Dl_info self;

    /* the library dlclose()s its driver when its last user goes; keep the
     * counts and the object list for the whole process */
    if (dladdr((void *)&setup, &self) && self.dli_fname)
        dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);

    select_funcs(getenv("VG_FAULT_FUNCS"));
    g.n = (s = getenv("VG_FAULT_N")) ? strtoul(s, NULL, 0) : 0;
    g.sticky = (s = getenv("VG_FAULT_STICKY")) && atoi(s) > 0;
    g.err = parse_err(getenv("VG_FAULT_ERR"));
    g.print_counts = (s = getenv("VG_FAULT_COUNT")) && atoi(s) > 0;
    g.event_lag = (s = getenv("VG_FAULT_EVENT_LAG")) ? (unsigned)atoi(s) : 0;
    g.no_copy = (s = getenv("VG_FAULT_NO_COPY")) && atoi(s) > 0;
    g.timed = (s = getenv("VG_FAULT_TIME")) && atoi(s) > 0;

    if (real && *real) {
        g.fwd = 1;
        void *me = dladdr((void *)&setup, &self) && self.dli_fname
                       ? dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD)
                       : NULL;

        g.real = open_real(real);
        if (!g.real)
            fprintf(stderr, "cudafault: cannot load VG_FAULT_REAL=%s: %s\n",
                    real, dlerror());
        /* another copy of the shim (emulating) is a driver; this one not */
        if (g.real && g.real == me) {
            fprintf(stderr, "cudafault: VG_FAULT_REAL=%s is this shim\n", real);
            g.real = NULL;
        }
        if (!g.real) {
            g.broken = 1;
        } else {
            for (int f = 0; f < NB_FUNCS; f++)
                g.real_fn[f] = dlsym(g.real, funcs[f].sym);
        }
    }
}

__attribute__((destructor)) static void teardown(void)
{
    if (g.print_counts)
        print_report();
}

/* ---- counting and injection ------------------------------------------------- */

static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static CUresult enter(int f, const void *site)
{
    CUresult r = CUDA_SUCCESS;

    counted = 0;
    if (g.broken)
        return (CUresult)E_NOT_INITIALIZED;
    if (pause_depth)
        return CUDA_SUCCESS;
    pthread_mutex_lock(&g.lock);
    g.calls[f]++;
    g.total++;
    if (g.selected[f]) {
        g.n_selected++;
        if (g.n && (g.n_selected == g.n || (g.sticky && g.n_selected > g.n))) {
            int e = g.err > 0 ? g.err : auto_err(f);
            if (!g.fired++) {
                g.fired_func = f;
                g.fired_err = e;
                g.fired_at = g.total;
                g.fired_site = site;
            }
            r = (CUresult)e;
            counted = 1;
        }
    }
    pthread_mutex_unlock(&g.lock);
    return r;
}

/* call with g.lock held */
static void note_error_locked(int f, CUresult r, const char *why)
{
    const ErrName *e = err_by_value((int)r);

    g.errors++;
    snprintf(g.last_error, sizeof(g.last_error), "%s: %s%s%s", funcs[f].sym,
             e ? e->name : "error", why ? ": " : "", why ? why : "");
    fprintf(stderr, "cudafault: %s\n", g.last_error);
}

/* the end of every call: count failures that were not injected */
static CUresult leave(int f, CUresult r)
{
    if (r != CUDA_SUCCESS && !counted &&
        !(r == (CUresult)E_NOT_READY &&
          (f == F_cuEventQuery || f == F_cuStreamQuery))) {
        pthread_mutex_lock(&g.lock);
        note_error_locked(f, r, NULL);
        pthread_mutex_unlock(&g.lock);
    }
    return r;
}

/* with VG_FAULT_TIME: the time since t0 (taken on entry) to function f */
static CUresult timed_leave(int f, CUresult r, uint64_t t0)
{
    if (g.timed)
        __atomic_fetch_add(&g.ns[f], now_ns() - t0, __ATOMIC_RELAXED);
    return leave(f, r);
}

#define BEGIN(f)                                                               \
    const uint64_t t0_ = g.timed ? now_ns() : 0;                               \
    CUresult r_ = enter(f, __builtin_return_address(0));                       \
    (void)t0_;                                                                 \
    if (r_ != CUDA_SUCCESS)                                                    \
    return r_

/* the real driver's function, or a return for a missing one */
#define REAL(f, type) ((type *)g.real_fn[f])
#define NEED_REAL(f)                                                           \
    do {                                                                       \
        if (!g.real_fn[f])                                                     \
            return leave(f, (CUresult)E_NOT_FOUND);                            \
    } while (0)

/* ---- memory of the shim ----------------------------------------------------------
 * Everything the shim allocates comes from mmap(), outside the caller's
 * malloc() heap: a test can then compare the heap before and after a run
 * to find host memory the library did not free, whatever the driver kept.
 * Blocks are zeroed and 256-byte aligned, as device allocations are. */

#define BLOCK_HEAD 256

static void *shim_alloc(size_t n)
{
    const size_t total = n + BLOCK_HEAD;
    unsigned char *p;

    if (n > SIZE_MAX - BLOCK_HEAD)
        return NULL;
    p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
             -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    memcpy(p, &total, sizeof(total));
    return p + BLOCK_HEAD;
}

static void shim_free(void *q)
{
    unsigned char *p = q;
    size_t total;

    if (!p)
        return;
    p -= BLOCK_HEAD;
    memcpy(&total, p, sizeof(total));
    munmap(p, total);
}

/* ---- object list (g.lock held) ---------------------------------------------- */

static const char *const kind_names[VGFAULT_NB_KINDS] = {
    "contexts", "memory", "pinned", "streams", "events", "modules",
};

static Obj *find_locked(int kind, uintptr_t h)
{
    for (Obj *o = g.objs; o; o = o->next)
        if (o->kind == kind && o->h == h)
            return o;
    return NULL;
}

static Obj *add_locked(int kind, uintptr_t h, size_t size, uintptr_t ctx)
{
    Obj *o = shim_alloc(sizeof(*o));

    if (!o)
        return NULL;
    o->kind = kind;
    o->h = h;
    o->size = size;
    o->ctx = ctx;
    o->next = g.objs;
    g.objs = o;
    return o;
}

static void free_backing(Obj *o)
{
    if (g.fwd)
        return;
    if (o->kind == VGFAULT_MEMORY || o->kind == VGFAULT_PINNED)
        shim_free((void *)o->h);
    if (o->kind == VGFAULT_MODULE) {
        while (o->funcs) {
            Func *fn = o->funcs;
            o->funcs = fn->next;
            shim_free(fn);
        }
        shim_free(o->names);
    }
}

static void remove_locked(Obj *o)
{
    for (Obj **p = &g.objs; *p; p = &(*p)->next) {
        if (*p == o) {
            *p = o->next;
            break;
        }
    }
    free_backing(o);
    shim_free(o);
}

/* a context went away: so does everything it owned */
static void reclaim_locked(uintptr_t ctx)
{
    Obj **p = &g.objs;

    while (*p) {
        Obj *o = *p;
        if (o->kind != VGFAULT_CONTEXT && o->ctx == ctx) {
            *p = o->next;
            g.reclaimed[o->kind]++;
            free_backing(o);
            shim_free(o);
        } else {
            p = &o->next;
        }
    }
}

static uintptr_t new_handle_locked(void)
{
    g.next_handle += 0x100;
    return g.next_handle;
}

/* ---- statistics -------------------------------------------------------------- */

void vgfault_stats(VgFaultStats *st, unsigned long *calls, unsigned n)
{
    memset(st, 0, sizeof(*st));
    pthread_mutex_lock(&g.lock);
    st->forwarding = g.fwd;
    st->total = g.total;
    st->selected = g.n_selected;
    st->fired = g.fired;
    st->fired_func = g.fired_func;
    st->fired_err = g.fired_err;
    st->fired_at = g.fired_at;
    st->fired_site = g.fired_site;
    st->errors = g.errors;
    memcpy(st->last_error, g.last_error, sizeof(st->last_error));
    for (Obj *o = g.objs; o; o = o->next) {
        st->outstanding[o->kind]++;
        st->outstanding_bytes[o->kind] += o->size;
    }
    memcpy(st->reclaimed, g.reclaimed, sizeof(st->reclaimed));
    for (unsigned i = 0; calls && i < n; i++)
        calls[i] = i < NB_FUNCS ? g.calls[i] : 0;
    pthread_mutex_unlock(&g.lock);
}

unsigned vgfault_func_count(void)
{
    return NB_FUNCS;
}

const char *vgfault_func_name(unsigned i)
{
    return i < NB_FUNCS ? funcs[i].name : NULL;
}

const char *vgfault_err_name(int err)
{
    const ErrName *e = err_by_value(err);

    return e ? e->name : NULL;
}

void vgfault_fired(int *func, int *err)
{
    *func = g.fired ? g.fired_func : -1;
    *err = g.fired ? g.fired_err : 0;
}

void vgfault_pause(int pause)
{
    pause_depth += pause ? 1 : (pause_depth > 0 ? -1 : 0);
}

static void print_report(void)
{
    VgFaultStats st;
    unsigned long calls[NB_FUNCS];

    vgfault_stats(&st, calls, NB_FUNCS);
    for (int f = 0; f < NB_FUNCS; f++)
        if (calls[f])
            fprintf(stderr, "cudafault: calls %s %lu\n", funcs[f].name,
                    calls[f]);
    for (int f = 0; g.timed && f < NB_FUNCS; f++)
        if (calls[f])
            fprintf(stderr, "cudafault: ns %s %llu\n", funcs[f].name,
                    (unsigned long long)__atomic_load_n(&g.ns[f],
                                                        __ATOMIC_RELAXED));
    fprintf(stderr,
            "cudafault: total %lu calls, %lu of the selected functions\n",
            st.total, st.selected);
    if (st.fired)
        fprintf(
            stderr,
            "cudafault: injected %lu failure(s), first %s at call %lu: %s\n",
            st.fired, funcs[st.fired_func].name, st.fired_at,
            vgfault_err_name(st.fired_err) ? vgfault_err_name(st.fired_err)
                                           : "?");
    fprintf(stderr, "cudafault: outstanding");
    for (int k = 0; k < VGFAULT_NB_KINDS; k++)
        fprintf(stderr, " %s %lu", kind_names[k], st.outstanding[k]);
    fprintf(stderr, " (%zu device bytes, %zu pinned bytes)\n",
            st.outstanding_bytes[VGFAULT_MEMORY],
            st.outstanding_bytes[VGFAULT_PINNED]);
    fprintf(stderr, "cudafault: %lu call(s) failed without injection%s%s\n",
            st.errors, st.errors ? ", last: " : "",
            st.errors ? st.last_error : "");
}

/* ---- emulation helpers (g.lock held) ----------------------------------------- */

/* emulation failures: the caller did something the driver refuses */
#define REJECT(f, code, ...)                                                   \
    do {                                                                       \
        char why_[200];                                                        \
        snprintf(why_, sizeof(why_), __VA_ARGS__);                             \
        note_error_locked(f, (CUresult)(code), why_);                          \
        counted = 1; /* not again by leave() */                                \
        return (CUresult)(code);                                               \
    } while (0)

static Obj *live_ctx_locked(uintptr_t h)
{
    Obj *o = h ? find_locked(VGFAULT_CONTEXT, h) : NULL;

    return o;
}

/* the calling thread's current context (0 if none) */
static uintptr_t emu_current(void)
{
    return ctx_depth ? ctx_stack[ctx_depth - 1] : 0;
}

/* check that a context is current and alive */
#define NEED_CTX(f)                                                            \
    do {                                                                       \
        if (!g.initialised)                                                    \
            REJECT(f, E_NOT_INITIALIZED, "cuInit() has not been called");      \
        if (!emu_current())                                                    \
            REJECT(f, E_INVALID_CONTEXT, "no current context");                \
        if (!live_ctx_locked(emu_current()))                                   \
            REJECT(f, E_CONTEXT_IS_DESTROYED,                                  \
                   "the current context was destroyed");                       \
    } while (0)

#define NEED_INIT(f)                                                           \
    do {                                                                       \
        if (!g.initialised)                                                    \
            REJECT(f, E_NOT_INITIALIZED, "cuInit() has not been called");      \
    } while (0)

#define NEED_DEV(f, dev)                                                       \
    do {                                                                       \
        NEED_INIT(f);                                                          \
        if ((dev) != 0)                                                        \
            REJECT(f, E_INVALID_DEVICE, "device %d does not exist",            \
                   (int)(dev));                                                \
    } while (0)

/* the implicit streams: NULL, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD */
static int implicit_stream(CUstream s)
{
    return (uintptr_t)s <= 2;
}

/* a stream usable for work queued from the current context */
#define NEED_STREAM(f, s)                                                      \
    do {                                                                       \
        if (!implicit_stream(s)) {                                             \
            Obj *so_ = find_locked(VGFAULT_STREAM, (uintptr_t)(s));            \
            if (!so_)                                                          \
                REJECT(f, E_INVALID_HANDLE, "stream %p does not exist",        \
                       (void *)(s));                                           \
            if (so_->ctx != emu_current())                                     \
                REJECT(f, E_INVALID_HANDLE,                                    \
                       "stream %p belongs to another context", (void *)(s));   \
        }                                                                      \
    } while (0)

/* the device allocation that holds [p, p + n), or NULL */
static Obj *dev_range_locked(uintptr_t p, size_t n)
{
    for (Obj *o = g.objs; o; o = o->next)
        if (o->kind == VGFAULT_MEMORY && p >= o->h && p - o->h <= o->size &&
            n <= o->size - (p - o->h))
            return o;
    return NULL;
}

#define NEED_DEV_RANGE(f, p, n, what)                                          \
    do {                                                                       \
        if (!dev_range_locked((uintptr_t)(p), (n)))                            \
            REJECT(f, E_INVALID_VALUE,                                         \
                   "%s 0x%llx + %zu is not inside one device allocation",      \
                   (what), (unsigned long long)(p), (size_t)(n));              \
    } while (0)

/* unified addressing: device memory if inside an allocation, else host */
static int is_device_locked(uintptr_t p)
{
    return dev_range_locked(p, 0) != NULL;
}

static CUresult emu_alloc(int f, int kind, uintptr_t *out, size_t bytes)
{
    void *p;

    NEED_CTX(f);
    if (!bytes)
        REJECT(f, E_INVALID_VALUE, "zero bytes requested");
    if (!(p = shim_alloc(bytes)))
        return (CUresult)E_OUT_OF_MEMORY;
    /* device memory starts with garbage, as on a GPU */
    memset(p, 0xcd, bytes);
    if (!add_locked(kind, (uintptr_t)p, bytes, emu_current())) {
        shim_free(p);
        return (CUresult)E_OUT_OF_MEMORY;
    }
    *out = (uintptr_t)p;
    return CUDA_SUCCESS;
}

static CUresult emu_copy(int f, uintptr_t dst, uintptr_t src, size_t n,
                         int dst_dev, int src_dev)
{
    NEED_CTX(f);
    if (!n)
        return CUDA_SUCCESS;
    if (dst_dev)
        NEED_DEV_RANGE(f, dst, n, "destination");
    if (src_dev)
        NEED_DEV_RANGE(f, src, n, "source");
    if (!dst || !src)
        REJECT(f, E_INVALID_VALUE, "NULL pointer");
    if (!(g.no_copy && dst_dev && src_dev))
        memmove((void *)dst, (const void *)src, n);
    return CUDA_SUCCESS;
}

/* one side of a 2D copy: start address, whether it is device memory */
static CUresult side_2d(int f, const char *what, CUmemorytype type,
                        const void *host, CUdeviceptr dev, size_t x, size_t y,
                        size_t pitch, size_t width, size_t height,
                        uintptr_t *start, int *is_dev)
{
    uintptr_t base;

    switch ((int)type) {
    case CU_MEMORYTYPE_HOST:
        base = (uintptr_t)host;
        *is_dev = 0;
        break;
    case CU_MEMORYTYPE_DEVICE:
        base = (uintptr_t)dev;
        *is_dev = 1;
        break;
    case 4: /* CU_MEMORYTYPE_UNIFIED */
        base = (uintptr_t)dev;
        *is_dev = is_device_locked(base);
        break;
    case CU_MEMORYTYPE_ARRAY:
        REJECT(f, E_NOT_SUPPORTED, "%s: arrays are not emulated", what);
    default:
        REJECT(f, E_INVALID_VALUE, "%s: memory type %d", what, (int)type);
    }
    if (!base)
        REJECT(f, E_INVALID_VALUE, "%s: NULL pointer", what);
    if (height > 1 && pitch < width)
        REJECT(f, E_INVALID_VALUE, "%s: pitch %zu below the row width %zu",
               what, pitch, width);
    *start = base + y * pitch + x;
    if (*is_dev)
        NEED_DEV_RANGE(f, *start, (height - 1) * pitch + width, what);
    return CUDA_SUCCESS;
}

static CUresult emu_copy_2d(int f, const CUDA_MEMCPY2D *c)
{
    uintptr_t s, d;
    int s_dev, d_dev;
    CUresult r;

    NEED_CTX(f);
    if (!c)
        REJECT(f, E_INVALID_VALUE, "NULL copy description");
    if (!c->WidthInBytes || !c->Height)
        return CUDA_SUCCESS;
    if ((r = side_2d(f, "source", c->srcMemoryType, c->srcHost, c->srcDevice,
                     c->srcXInBytes, c->srcY, c->srcPitch, c->WidthInBytes,
                     c->Height, &s, &s_dev)) != CUDA_SUCCESS ||
        (r = side_2d(f, "destination", c->dstMemoryType, c->dstHost,
                     c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch,
                     c->WidthInBytes, c->Height, &d, &d_dev)) != CUDA_SUCCESS)
        return r;
    if (g.no_copy && s_dev && d_dev)
        return CUDA_SUCCESS;
    for (size_t y = 0; y < c->Height; y++)
        memmove((void *)(d + y * c->dstPitch),
                (const void *)(s + y * c->srcPitch), c->WidthInBytes);
    return CUDA_SUCCESS;
}

/* ---- the driver entry points ---------------------------------------------------
 * Each: count (and maybe fail) in BEGIN, forward or emulate, track the
 * objects it creates or destroys, count failures in leave(). */

/* current context of the real driver, for the ownership of new objects */
static uintptr_t fwd_current(void)
{
    CUcontext c = NULL;

    if (g.real_fn[F_cuCtxGetCurrent])
        REAL(F_cuCtxGetCurrent, tcuCtxGetCurrent)(&c);
    return (uintptr_t)c;
}

static uintptr_t current_ctx(void)
{
    return g.fwd ? fwd_current() : emu_current();
}

/* a forwarded call that creates an object of `kind` at *out */
static CUresult track_new(int kind, CUresult r, uintptr_t h, size_t size,
                          uintptr_t ctx)
{
    if (r == CUDA_SUCCESS) {
        pthread_mutex_lock(&g.lock);
        add_locked(kind, h, size, ctx);
        pthread_mutex_unlock(&g.lock);
    }
    return r;
}

/* a forwarded call that destroyed the object h of `kind` */
static CUresult track_gone(int kind, CUresult r, uintptr_t h)
{
    if (r == CUDA_SUCCESS) {
        Obj *o;
        pthread_mutex_lock(&g.lock);
        if ((o = find_locked(kind, h))) {
            if (kind == VGFAULT_CONTEXT)
                reclaim_locked(h);
            remove_locked(o);
        }
        pthread_mutex_unlock(&g.lock);
    }
    return r;
}

/* simple forwarding for calls that create and destroy nothing */
#define FORWARD(f, type, ...)                                                  \
    do {                                                                       \
        if (g.fwd) {                                                           \
            NEED_REAL(f);                                                      \
            return timed_leave(f, REAL(f, type)(__VA_ARGS__), t0_);            \
        }                                                                      \
    } while (0)

/* an emulated body under the lock */
#define EMULATE(f, body)                                                       \
    do {                                                                       \
        CUresult r2_;                                                          \
        pthread_mutex_lock(&g.lock);                                           \
        r2_ = (body);                                                          \
        pthread_mutex_unlock(&g.lock);                                         \
        return timed_leave(f, r2_, t0_);                                       \
    } while (0)

/* -- initialisation and devices -- */

static CUresult emu_init(unsigned int flags)
{
    if (flags)
        REJECT(F_cuInit, E_INVALID_VALUE, "flags must be 0");
    g.initialised = 1;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuInit(unsigned int Flags)
{
    BEGIN(F_cuInit);
    FORWARD(F_cuInit, tcuInit, Flags);
    EMULATE(F_cuInit, emu_init(Flags));
}

CUresult CUDAAPI cuDriverGetVersion(int *v)
{
    BEGIN(F_cuDriverGetVersion);
    FORWARD(F_cuDriverGetVersion, tcuDriverGetVersion, v);
    if (!v)
        return leave(F_cuDriverGetVersion, (CUresult)E_INVALID_VALUE);
    *v = 12080;
    return CUDA_SUCCESS;
}

static CUresult emu_device_count(int *count)
{
    NEED_INIT(F_cuDeviceGetCount);
    if (!count)
        REJECT(F_cuDeviceGetCount, E_INVALID_VALUE, "NULL count");
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int *count)
{
    BEGIN(F_cuDeviceGetCount);
    FORWARD(F_cuDeviceGetCount, tcuDeviceGetCount, count);
    EMULATE(F_cuDeviceGetCount, emu_device_count(count));
}

static CUresult emu_device_get(CUdevice *dev, int ordinal)
{
    NEED_DEV(F_cuDeviceGet, ordinal);
    if (!dev)
        REJECT(F_cuDeviceGet, E_INVALID_VALUE, "NULL device");
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
    BEGIN(F_cuDeviceGet);
    FORWARD(F_cuDeviceGet, tcuDeviceGet, device, ordinal);
    EMULATE(F_cuDeviceGet, emu_device_get(device, ordinal));
}

/* the attributes of the emulated device (an H200's) */
static int attribute(int a, int *v)
{
    static const int table[][2] = {
        { 1, 1024 }, /* MAX_THREADS_PER_BLOCK */
        { 2, 1024 },
        { 3, 1024 },
        { 4, 64 }, /* MAX_BLOCK_DIM_X/Y/Z */
        { 5, 2147483647 },
        { 6, 65535 },
        { 7, 65535 },       /* MAX_GRID_DIM_X/Y/Z */
        { 8, 49152 },       /* MAX_SHARED_MEMORY_PER_BLOCK */
        { 9, 65536 },       /* TOTAL_CONSTANT_MEMORY */
        { 10, 32 },         /* WARP_SIZE */
        { 11, 2147483647 }, /* MAX_PITCH */
        { 12, 65536 },      /* MAX_REGISTERS_PER_BLOCK */
        { CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 1980000 },
        { CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 512 },
        { 15, 1 }, /* GPU_OVERLAP */
        { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 132 },
        { 17, 0 }, /* KERNEL_EXEC_TIMEOUT */
        { CU_DEVICE_ATTRIBUTE_INTEGRATED, 0 },
        { CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 1 },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, 0 },
        { CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS, 1 },
        { 32, 1 }, /* ECC_ENABLED */
        { CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0 },
        { CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, 0 },
        { CU_DEVICE_ATTRIBUTE_TCC_DRIVER, 0 },
        { CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 2619000 },
        { CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 6144 },
        { 38, 52428800 }, /* L2_CACHE_SIZE */
        { 39, 2048 },     /* MAX_THREADS_PER_MULTIPROCESSOR */
        { CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 3 },
        { CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 1 },
        { CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, 0 },
        { CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 32 },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 9 },
        { CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0 },
        { 81, 233472 }, /* MAX_SHARED_MEMORY_PER_MULTIPROCESSOR */
        { 82, 65536 },  /* MAX_REGISTERS_PER_MULTIPROCESSOR */
        { CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1 },
        { CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD, 0 },
        { CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID, 0 },
        { 97, 232448 }, /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    };

    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (table[i][0] == a) {
            *v = table[i][1];
            return 1;
        }
    }
    return 0;
}

static CUresult emu_attribute(int *pi, CUdevice_attribute a, CUdevice dev)
{
    NEED_DEV(F_cuDeviceGetAttribute, dev);
    if (!pi)
        REJECT(F_cuDeviceGetAttribute, E_INVALID_VALUE, "NULL value");
    if (!attribute((int)a, pi))
        REJECT(F_cuDeviceGetAttribute, E_INVALID_VALUE,
               "attribute %d is not emulated", (int)a);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                                      CUdevice dev)
{
    BEGIN(F_cuDeviceGetAttribute);
    FORWARD(F_cuDeviceGetAttribute, tcuDeviceGetAttribute, pi, attrib, dev);
    EMULATE(F_cuDeviceGetAttribute, emu_attribute(pi, attrib, dev));
}

static CUresult emu_device_name(char *name, int len, CUdevice dev)
{
    NEED_DEV(F_cuDeviceGetName, dev);
    if (!name || len <= 0)
        REJECT(F_cuDeviceGetName, E_INVALID_VALUE, "no room for the name");
    snprintf(name, (size_t)len, "%s", "vmafgpu emulated device");
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
    BEGIN(F_cuDeviceGetName);
    FORWARD(F_cuDeviceGetName, tcuDeviceGetName, name, len, dev);
    EMULATE(F_cuDeviceGetName, emu_device_name(name, len, dev));
}

static CUresult emu_cc(int *major, int *minor, CUdevice dev)
{
    NEED_DEV(F_cuDeviceComputeCapability, dev);
    if (!major || !minor)
        REJECT(F_cuDeviceComputeCapability, E_INVALID_VALUE, "NULL output");
    *major = 9;
    *minor = 0;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    BEGIN(F_cuDeviceComputeCapability);
    FORWARD(F_cuDeviceComputeCapability, tcuDeviceComputeCapability, major,
            minor, dev);
    EMULATE(F_cuDeviceComputeCapability, emu_cc(major, minor, dev));
}

static CUresult emu_uuid(int f, CUuuid *uuid, CUdevice dev)
{
    NEED_DEV(f, dev);
    if (!uuid)
        REJECT(f, E_INVALID_VALUE, "NULL uuid");
    memset(uuid->bytes, 0, sizeof(uuid->bytes));
    memcpy(uuid->bytes, "vmafgpu-emulated", 16);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    BEGIN(F_cuDeviceGetUuid);
    FORWARD(F_cuDeviceGetUuid, tcuDeviceGetUuid, uuid, dev);
    EMULATE(F_cuDeviceGetUuid, emu_uuid(F_cuDeviceGetUuid, uuid, dev));
}

CUresult CUDAAPI cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    BEGIN(F_cuDeviceGetUuid_v2);
    FORWARD(F_cuDeviceGetUuid_v2, tcuDeviceGetUuid_v2, uuid, dev);
    EMULATE(F_cuDeviceGetUuid_v2, emu_uuid(F_cuDeviceGetUuid_v2, uuid, dev));
}

CUresult CUDAAPI cuDeviceGetLuid(char *luid, unsigned int *mask, CUdevice dev)
{
    BEGIN(F_cuDeviceGetLuid);
    FORWARD(F_cuDeviceGetLuid, tcuDeviceGetLuid, luid, mask, dev);
    /* LUIDs exist on Windows only */
    return leave(F_cuDeviceGetLuid, (CUresult)E_NOT_SUPPORTED);
}

static CUresult emu_by_bus_id(CUdevice *dev, const char *id)
{
    NEED_INIT(F_cuDeviceGetByPCIBusId);
    if (!dev || !id || strcmp(id, "0000:00:00.0"))
        REJECT(F_cuDeviceGetByPCIBusId, E_INVALID_VALUE, "no device at %s",
               id ? id : "(null)");
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    BEGIN(F_cuDeviceGetByPCIBusId);
    FORWARD(F_cuDeviceGetByPCIBusId, tcuDeviceGetByPCIBusId, dev, pciBusId);
    EMULATE(F_cuDeviceGetByPCIBusId, emu_by_bus_id(dev, pciBusId));
}

static CUresult emu_bus_id(char *id, int len, CUdevice dev)
{
    NEED_DEV(F_cuDeviceGetPCIBusId, dev);
    if (!id || len <= 0)
        REJECT(F_cuDeviceGetPCIBusId, E_INVALID_VALUE, "no room for the id");
    snprintf(id, (size_t)len, "%s", "0000:00:00.0");
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    BEGIN(F_cuDeviceGetPCIBusId);
    FORWARD(F_cuDeviceGetPCIBusId, tcuDeviceGetPCIBusId, pciBusId, len, dev);
    EMULATE(F_cuDeviceGetPCIBusId, emu_bus_id(pciBusId, len, dev));
}

/* -- contexts -- */

static CUresult emu_push(int f, uintptr_t c)
{
    if (ctx_depth == CTX_STACK)
        REJECT(f, E_UNKNOWN, "context stack deeper than %d", CTX_STACK);
    ctx_stack[ctx_depth++] = c;
    return CUDA_SUCCESS;
}

static CUresult emu_ctx_create(CUcontext *pctx, unsigned int flags,
                               CUdevice dev)
{
    uintptr_t h;
    Obj *o;

    NEED_DEV(F_cuCtxCreate, dev);
    if (!pctx)
        REJECT(F_cuCtxCreate, E_INVALID_VALUE, "NULL context");
    h = new_handle_locked();
    if (!(o = add_locked(VGFAULT_CONTEXT, h, 0, 0)))
        return (CUresult)E_OUT_OF_MEMORY;
    o->flags = flags;
    if (emu_push(F_cuCtxCreate, h) != CUDA_SUCCESS) {
        remove_locked(o);
        return (CUresult)E_UNKNOWN;
    }
    *pctx = (CUcontext)h;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags,
                                CUdevice dev)
{
    BEGIN(F_cuCtxCreate);
    if (g.fwd) {
        CUresult r;
        NEED_REAL(F_cuCtxCreate);
        r = REAL(F_cuCtxCreate, tcuCtxCreate_v2)(pctx, flags, dev);
        return leave(F_cuCtxCreate, track_new(VGFAULT_CONTEXT, r,
                                              r ? 0 : (uintptr_t)*pctx, 0, 0));
    }
    EMULATE(F_cuCtxCreate, emu_ctx_create(pctx, flags, dev));
}

static CUresult emu_get_current(CUcontext *pctx)
{
    NEED_INIT(F_cuCtxGetCurrent);
    if (!pctx)
        REJECT(F_cuCtxGetCurrent, E_INVALID_VALUE, "NULL context");
    *pctx = (CUcontext)emu_current();
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
    BEGIN(F_cuCtxGetCurrent);
    FORWARD(F_cuCtxGetCurrent, tcuCtxGetCurrent, pctx);
    EMULATE(F_cuCtxGetCurrent, emu_get_current(pctx));
}

static CUresult emu_set_limit(void)
{
    NEED_CTX(F_cuCtxSetLimit);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value)
{
    BEGIN(F_cuCtxSetLimit);
    FORWARD(F_cuCtxSetLimit, tcuCtxSetLimit, limit, value);
    EMULATE(F_cuCtxSetLimit, emu_set_limit());
}

static CUresult emu_ctx_push(CUcontext c)
{
    NEED_INIT(F_cuCtxPushCurrent);
    if (!live_ctx_locked((uintptr_t)c))
        REJECT(F_cuCtxPushCurrent, E_INVALID_CONTEXT,
               "context %p does not exist", (void *)c);
    return emu_push(F_cuCtxPushCurrent, (uintptr_t)c);
}

CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext ctx)
{
    BEGIN(F_cuCtxPushCurrent);
    FORWARD(F_cuCtxPushCurrent, tcuCtxPushCurrent_v2, ctx);
    EMULATE(F_cuCtxPushCurrent, emu_ctx_push(ctx));
}

static CUresult emu_ctx_pop(CUcontext *pctx)
{
    NEED_INIT(F_cuCtxPopCurrent);
    if (!ctx_depth)
        REJECT(F_cuCtxPopCurrent, E_INVALID_CONTEXT,
               "no current context to pop");
    ctx_depth--;
    if (pctx)
        *pctx = (CUcontext)ctx_stack[ctx_depth];
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext *pctx)
{
    BEGIN(F_cuCtxPopCurrent);
    FORWARD(F_cuCtxPopCurrent, tcuCtxPopCurrent_v2, pctx);
    EMULATE(F_cuCtxPopCurrent, emu_ctx_pop(pctx));
}

/* drop a destroyed context from the calling thread's stack */
static void unstack(uintptr_t c)
{
    int j = 0;

    for (int i = 0; i < ctx_depth; i++)
        if (ctx_stack[i] != c)
            ctx_stack[j++] = ctx_stack[i];
    ctx_depth = j;
}

static CUresult emu_ctx_destroy(CUcontext c)
{
    Obj *o;

    NEED_INIT(F_cuCtxDestroy);
    if (!(o = live_ctx_locked((uintptr_t)c)))
        REJECT(F_cuCtxDestroy, E_INVALID_CONTEXT, "context %p does not exist",
               (void *)c);
    if (o->primary)
        REJECT(F_cuCtxDestroy, E_INVALID_CONTEXT,
               "context %p is a primary "
               "context (cuDevicePrimaryCtxRelease)",
               (void *)c);
    reclaim_locked(o->h);
    unstack(o->h);
    remove_locked(o);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx)
{
    BEGIN(F_cuCtxDestroy);
    if (g.fwd) {
        NEED_REAL(F_cuCtxDestroy);
        return leave(F_cuCtxDestroy,
                     track_gone(VGFAULT_CONTEXT,
                                REAL(F_cuCtxDestroy, tcuCtxDestroy_v2)(ctx),
                                (uintptr_t)ctx));
    }
    EMULATE(F_cuCtxDestroy, emu_ctx_destroy(ctx));
}

static CUresult emu_ctx_device(CUdevice *dev)
{
    NEED_CTX(F_cuCtxGetDevice);
    if (!dev)
        REJECT(F_cuCtxGetDevice, E_INVALID_VALUE, "NULL device");
    *dev = 0;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
    BEGIN(F_cuCtxGetDevice);
    FORWARD(F_cuCtxGetDevice, tcuCtxGetDevice, device);
    EMULATE(F_cuCtxGetDevice, emu_ctx_device(device));
}

static CUresult emu_primary_retain(CUcontext *pctx, CUdevice dev)
{
    NEED_DEV(F_cuDevicePrimaryCtxRetain, dev);
    if (!pctx)
        REJECT(F_cuDevicePrimaryCtxRetain, E_INVALID_VALUE, "NULL context");
    if (!g.primary) {
        if (!(g.primary =
                  add_locked(VGFAULT_CONTEXT, new_handle_locked(), 0, 0)))
            return (CUresult)E_OUT_OF_MEMORY;
        g.primary->primary = 1;
        g.primary->flags = g.primary_flags;
    }
    g.primary->refs++;
    *pctx = (CUcontext)g.primary->h;
    return CUDA_SUCCESS;
}

/* forwarded retain: one tracked context per primary context, with the
 * retains counted */
static CUresult fwd_primary_retain(CUcontext *pctx, CUdevice dev)
{
    CUresult r;
    Obj *o;

    NEED_REAL(F_cuDevicePrimaryCtxRetain);
    r = REAL(F_cuDevicePrimaryCtxRetain, tcuDevicePrimaryCtxRetain)(pctx, dev);
    if (r != CUDA_SUCCESS)
        return leave(F_cuDevicePrimaryCtxRetain, r);
    pthread_mutex_lock(&g.lock);
    if (!(o = find_locked(VGFAULT_CONTEXT, (uintptr_t)*pctx)) &&
        (o = add_locked(VGFAULT_CONTEXT, (uintptr_t)*pctx, 0, 0))) {
        o->primary = 1;
        o->dev = dev;
    }
    if (o)
        o->refs++;
    pthread_mutex_unlock(&g.lock);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    BEGIN(F_cuDevicePrimaryCtxRetain);
    if (g.fwd)
        return fwd_primary_retain(pctx, dev);
    EMULATE(F_cuDevicePrimaryCtxRetain, emu_primary_retain(pctx, dev));
}

static CUresult emu_primary_release(CUdevice dev)
{
    NEED_DEV(F_cuDevicePrimaryCtxRelease, dev);
    if (!g.primary)
        REJECT(F_cuDevicePrimaryCtxRelease, E_INVALID_CONTEXT,
               "the primary context is not retained");
    if (!--g.primary->refs) {
        reclaim_locked(g.primary->h);
        unstack(g.primary->h);
        remove_locked(g.primary);
        g.primary = NULL;
    }
    return CUDA_SUCCESS;
}

static CUresult fwd_primary_release(CUdevice dev)
{
    CUresult r;

    NEED_REAL(F_cuDevicePrimaryCtxRelease);
    r = REAL(F_cuDevicePrimaryCtxRelease, tcuDevicePrimaryCtxRelease)(dev);
    if (r == CUDA_SUCCESS) {
        unsigned flags = 0;
        int active = 1;
        tcuDevicePrimaryCtxGetState *get_state =
            REAL(F_cuDevicePrimaryCtxGetState, tcuDevicePrimaryCtxGetState);
        if (g.real_fn[F_cuDevicePrimaryCtxGetState])
            get_state(dev, &flags, &active);
        pthread_mutex_lock(&g.lock);
        for (Obj *o = g.objs; o; o = o->next) {
            if (o->kind == VGFAULT_CONTEXT && o->primary && o->dev == dev) {
                if (o->refs)
                    o->refs--;
                if (!o->refs && !active) {
                    reclaim_locked(o->h);
                    remove_locked(o);
                }
                break;
            }
        }
        pthread_mutex_unlock(&g.lock);
    }
    return leave(F_cuDevicePrimaryCtxRelease, r);
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev)
{
    BEGIN(F_cuDevicePrimaryCtxRelease);
    if (g.fwd)
        return fwd_primary_release(dev);
    EMULATE(F_cuDevicePrimaryCtxRelease, emu_primary_release(dev));
}

static CUresult emu_primary_flags(CUdevice dev, unsigned int flags)
{
    NEED_DEV(F_cuDevicePrimaryCtxSetFlags, dev);
    g.primary_flags = flags;
    if (g.primary)
        g.primary->flags = flags;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    BEGIN(F_cuDevicePrimaryCtxSetFlags);
    FORWARD(F_cuDevicePrimaryCtxSetFlags, tcuDevicePrimaryCtxSetFlags, dev,
            flags);
    EMULATE(F_cuDevicePrimaryCtxSetFlags, emu_primary_flags(dev, flags));
}

static CUresult emu_primary_state(CUdevice dev, unsigned int *flags,
                                  int *active)
{
    NEED_DEV(F_cuDevicePrimaryCtxGetState, dev);
    if (!flags || !active)
        REJECT(F_cuDevicePrimaryCtxGetState, E_INVALID_VALUE, "NULL output");
    *flags = g.primary_flags;
    *active = g.primary != NULL;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags,
                                            int *active)
{
    BEGIN(F_cuDevicePrimaryCtxGetState);
    FORWARD(F_cuDevicePrimaryCtxGetState, tcuDevicePrimaryCtxGetState, dev,
            flags, active);
    EMULATE(F_cuDevicePrimaryCtxGetState,
            emu_primary_state(dev, flags, active));
}

static CUresult emu_primary_reset(CUdevice dev)
{
    NEED_DEV(F_cuDevicePrimaryCtxReset, dev);
    if (g.primary)
        reclaim_locked(g.primary->h);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev)
{
    BEGIN(F_cuDevicePrimaryCtxReset);
    FORWARD(F_cuDevicePrimaryCtxReset, tcuDevicePrimaryCtxReset, dev);
    EMULATE(F_cuDevicePrimaryCtxReset, emu_primary_reset(dev));
}

/* -- memory -- */

CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    BEGIN(F_cuMemAlloc);
    if (g.fwd) {
        CUresult r;
        NEED_REAL(F_cuMemAlloc);
        r = REAL(F_cuMemAlloc, tcuMemAlloc_v2)(dptr, bytesize);
        return leave(F_cuMemAlloc,
                     track_new(VGFAULT_MEMORY, r, r ? 0 : (uintptr_t)*dptr,
                               bytesize, current_ctx()));
    }
    {
        uintptr_t p = 0;
        CUresult r;
        pthread_mutex_lock(&g.lock);
        if (!dptr) {
            note_error_locked(F_cuMemAlloc, (CUresult)E_INVALID_VALUE,
                              "NULL pointer");
            counted = 1;
            r = (CUresult)E_INVALID_VALUE;
        } else if ((r = emu_alloc(F_cuMemAlloc, VGFAULT_MEMORY, &p,
                                  bytesize)) == CUDA_SUCCESS) {
            *dptr = (CUdeviceptr)p;
        }
        pthread_mutex_unlock(&g.lock);
        return leave(F_cuMemAlloc, r);
    }
}

CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch,
                                    size_t WidthInBytes, size_t Height,
                                    unsigned int ElementSizeBytes)
{
    BEGIN(F_cuMemAllocPitch);
    if (g.fwd) {
        CUresult r;
        NEED_REAL(F_cuMemAllocPitch);
        r = REAL(F_cuMemAllocPitch, tcuMemAllocPitch_v2)(
            dptr, pPitch, WidthInBytes, Height, ElementSizeBytes);
        return leave(F_cuMemAllocPitch,
                     track_new(VGFAULT_MEMORY, r, r ? 0 : (uintptr_t)*dptr,
                               r ? 0 : *pPitch * Height, current_ctx()));
    }
    {
        const size_t pitch = (WidthInBytes + 511) & ~(size_t)511;
        uintptr_t p = 0;
        CUresult r;
        pthread_mutex_lock(&g.lock);
        if (!dptr || !pPitch ||
            (ElementSizeBytes != 4 && ElementSizeBytes != 8 &&
             ElementSizeBytes != 16)) {
            note_error_locked(F_cuMemAllocPitch, (CUresult)E_INVALID_VALUE,
                              "bad arguments");
            counted = 1;
            r = (CUresult)E_INVALID_VALUE;
        } else if ((r = emu_alloc(F_cuMemAllocPitch, VGFAULT_MEMORY, &p,
                                  pitch * Height)) == CUDA_SUCCESS) {
            *dptr = (CUdeviceptr)p;
            *pPitch = pitch;
        }
        pthread_mutex_unlock(&g.lock);
        return leave(F_cuMemAllocPitch, r);
    }
}

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
                                   unsigned int flags)
{
    BEGIN(F_cuMemAllocManaged);
    if (g.fwd) {
        CUresult r;
        NEED_REAL(F_cuMemAllocManaged);
        r = REAL(F_cuMemAllocManaged, tcuMemAllocManaged)(dptr, bytesize,
                                                          flags);
        return leave(F_cuMemAllocManaged,
                     track_new(VGFAULT_MEMORY, r, r ? 0 : (uintptr_t)*dptr,
                               bytesize, current_ctx()));
    }
    {
        uintptr_t p = 0;
        CUresult r;
        pthread_mutex_lock(&g.lock);
        if ((r = emu_alloc(F_cuMemAllocManaged, VGFAULT_MEMORY, &p,
                           bytesize)) == CUDA_SUCCESS &&
            dptr)
            *dptr = (CUdeviceptr)p;
        pthread_mutex_unlock(&g.lock);
        return leave(F_cuMemAllocManaged, r);
    }
}

static CUresult emu_free(int f, int kind, uintptr_t p)
{
    Obj *o;

    NEED_INIT(f);
    if (!p)
        return CUDA_SUCCESS;
    if (!(o = find_locked(kind, p)))
        REJECT(f, E_INVALID_VALUE,
               "0x%llx is not the start of a live %s "
               "allocation",
               (unsigned long long)p,
               kind == VGFAULT_MEMORY ? "device" : "pinned");
    remove_locked(o);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr)
{
    BEGIN(F_cuMemFree);
    if (g.fwd) {
        NEED_REAL(F_cuMemFree);
        return leave(F_cuMemFree,
                     track_gone(VGFAULT_MEMORY,
                                REAL(F_cuMemFree, tcuMemFree_v2)(dptr),
                                (uintptr_t)dptr));
    }
    EMULATE(F_cuMemFree,
            emu_free(F_cuMemFree, VGFAULT_MEMORY, (uintptr_t)dptr));
}

CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytes, unsigned int flags)
{
    BEGIN(F_cuMemHostAlloc);
    if (g.fwd) {
        CUresult r;
        NEED_REAL(F_cuMemHostAlloc);
        r = REAL(F_cuMemHostAlloc, tMemHostAlloc)(pp, bytes, flags);
        return leave(F_cuMemHostAlloc,
                     track_new(VGFAULT_PINNED, r, r ? 0 : (uintptr_t)*pp, bytes,
                               current_ctx()));
    }
    {
        uintptr_t p = 0;
        CUresult r;
        pthread_mutex_lock(&g.lock);
        if (flags & ~0x7u) {
            note_error_locked(F_cuMemHostAlloc, (CUresult)E_INVALID_VALUE,
                              "unknown flags");
            counted = 1;
            r = (CUresult)E_INVALID_VALUE;
        } else if ((r = emu_alloc(F_cuMemHostAlloc, VGFAULT_PINNED, &p,
                                  bytes)) == CUDA_SUCCESS) {
            *pp = (void *)p;
        }
        pthread_mutex_unlock(&g.lock);
        return leave(F_cuMemHostAlloc, r);
    }
}

CUresult CUDAAPI cuMemFreeHost(void *p)
{
    BEGIN(F_cuMemFreeHost);
    if (g.fwd) {
        NEED_REAL(F_cuMemFreeHost);
        return leave(F_cuMemFreeHost,
                     track_gone(VGFAULT_PINNED,
                                REAL(F_cuMemFreeHost, tMemFreeHost)(p),
                                (uintptr_t)p));
    }
    EMULATE(F_cuMemFreeHost,
            emu_free(F_cuMemFreeHost, VGFAULT_PINNED, (uintptr_t)p));
}

static CUresult emu_memset(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
    NEED_CTX(F_cuMemsetD8Async);
    NEED_STREAM(F_cuMemsetD8Async, s);
    if (!n)
        return CUDA_SUCCESS;
    NEED_DEV_RANGE(F_cuMemsetD8Async, d, n, "destination");
    memset((void *)(uintptr_t)d, v, n);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc,
                                 size_t N, CUstream hStream)
{
    BEGIN(F_cuMemsetD8Async);
    FORWARD(F_cuMemsetD8Async, tcuMemsetD8Async, dstDevice, uc, N, hStream);
    EMULATE(F_cuMemsetD8Async, emu_memset(dstDevice, uc, N, hStream));
}

static CUresult emu_copy_unified(int f, CUdeviceptr dst, CUdeviceptr src,
                                 size_t n, CUstream s, int async)
{
    if (async) {
        NEED_CTX(f);
        NEED_STREAM(f, s);
    }
    return emu_copy(f, (uintptr_t)dst, (uintptr_t)src, n,
                    is_device_locked((uintptr_t)dst),
                    is_device_locked((uintptr_t)src));
}

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytesize)
{
    BEGIN(F_cuMemcpy);
    FORWARD(F_cuMemcpy, tcuMemcpy, dst, src, bytesize);
    EMULATE(F_cuMemcpy,
            emu_copy_unified(F_cuMemcpy, dst, src, bytesize, NULL, 0));
}

CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                               size_t bytesize, CUstream hStream)
{
    BEGIN(F_cuMemcpyAsync);
    FORWARD(F_cuMemcpyAsync, tcuMemcpyAsync, dst, src, bytesize, hStream);
    EMULATE(F_cuMemcpyAsync,
            emu_copy_unified(F_cuMemcpyAsync, dst, src, bytesize, hStream, 1));
}

static CUresult emu_copy_2d_async(const CUDA_MEMCPY2D *c, CUstream s)
{
    NEED_CTX(F_cuMemcpy2DAsync);
    NEED_STREAM(F_cuMemcpy2DAsync, s);
    return emu_copy_2d(F_cuMemcpy2DAsync, c);
}

CUresult CUDAAPI cuMemcpy2D_v2(const CUDA_MEMCPY2D *pcopy)
{
    BEGIN(F_cuMemcpy2D);
    FORWARD(F_cuMemcpy2D, tcuMemcpy2D_v2, pcopy);
    EMULATE(F_cuMemcpy2D, emu_copy_2d(F_cuMemcpy2D, pcopy));
}

CUresult CUDAAPI cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pcopy,
                                    CUstream hStream)
{
    BEGIN(F_cuMemcpy2DAsync);
    FORWARD(F_cuMemcpy2DAsync, tcuMemcpy2DAsync_v2, pcopy, hStream);
    EMULATE(F_cuMemcpy2DAsync, emu_copy_2d_async(pcopy, hStream));
}

/* the copies with fixed directions, synchronous or on a stream */
static CUresult emu_copy_dir(int f, uintptr_t dst, uintptr_t src, size_t n,
                             int dst_dev, int src_dev, CUstream s, int async)
{
    if (async) {
        NEED_CTX(f);
        NEED_STREAM(f, s);
    }
    return emu_copy(f, dst, src, n, dst_dev, src_dev);
}

CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost,
                                 size_t ByteCount)
{
    BEGIN(F_cuMemcpyHtoD);
    FORWARD(F_cuMemcpyHtoD, tcuMemcpyHtoD_v2, dstDevice, srcHost, ByteCount);
    EMULATE(F_cuMemcpyHtoD,
            emu_copy_dir(F_cuMemcpyHtoD, (uintptr_t)dstDevice,
                         (uintptr_t)srcHost, ByteCount, 1, 0, NULL, 0));
}

CUresult CUDAAPI cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice,
                                      const void *srcHost, size_t ByteCount,
                                      CUstream hStream)
{
    BEGIN(F_cuMemcpyHtoDAsync);
    FORWARD(F_cuMemcpyHtoDAsync, tcuMemcpyHtoDAsync_v2, dstDevice, srcHost,
            ByteCount, hStream);
    EMULATE(F_cuMemcpyHtoDAsync,
            emu_copy_dir(F_cuMemcpyHtoDAsync, (uintptr_t)dstDevice,
                         (uintptr_t)srcHost, ByteCount, 1, 0, hStream, 1));
}

CUresult CUDAAPI cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice,
                                 size_t ByteCount)
{
    BEGIN(F_cuMemcpyDtoH);
    FORWARD(F_cuMemcpyDtoH, tcuMemcpyDtoH_v2, dstHost, srcDevice, ByteCount);
    EMULATE(F_cuMemcpyDtoH,
            emu_copy_dir(F_cuMemcpyDtoH, (uintptr_t)dstHost,
                         (uintptr_t)srcDevice, ByteCount, 0, 1, NULL, 0));
}

CUresult CUDAAPI cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice,
                                      size_t ByteCount, CUstream hStream)
{
    BEGIN(F_cuMemcpyDtoHAsync);
    FORWARD(F_cuMemcpyDtoHAsync, tcuMemcpyDtoHAsync_v2, dstHost, srcDevice,
            ByteCount, hStream);
    EMULATE(F_cuMemcpyDtoHAsync,
            emu_copy_dir(F_cuMemcpyDtoHAsync, (uintptr_t)dstHost,
                         (uintptr_t)srcDevice, ByteCount, 0, 1, hStream, 1));
}

CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                 size_t ByteCount)
{
    BEGIN(F_cuMemcpyDtoD);
    FORWARD(F_cuMemcpyDtoD, tcuMemcpyDtoD_v2, dstDevice, srcDevice, ByteCount);
    EMULATE(F_cuMemcpyDtoD,
            emu_copy_dir(F_cuMemcpyDtoD, (uintptr_t)dstDevice,
                         (uintptr_t)srcDevice, ByteCount, 1, 1, NULL, 0));
}

CUresult CUDAAPI cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice,
                                      CUdeviceptr srcDevice, size_t ByteCount,
                                      CUstream hStream)
{
    BEGIN(F_cuMemcpyDtoDAsync);
    FORWARD(F_cuMemcpyDtoDAsync, tcuMemcpyDtoDAsync_v2, dstDevice, srcDevice,
            ByteCount, hStream);
    EMULATE(F_cuMemcpyDtoDAsync,
            emu_copy_dir(F_cuMemcpyDtoDAsync, (uintptr_t)dstDevice,
                         (uintptr_t)srcDevice, ByteCount, 1, 1, hStream, 1));
}

/* -- errors -- */

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pstr)
{
    const ErrName *e;

    BEGIN(F_cuGetErrorName);
    FORWARD(F_cuGetErrorName, tcuGetErrorName, error, pstr);
    if (!pstr)
        return leave(F_cuGetErrorName, (CUresult)E_INVALID_VALUE);
    if (!(e = err_by_value((int)error))) {
        *pstr = NULL;
        return leave(F_cuGetErrorName, (CUresult)E_INVALID_VALUE);
    }
    *pstr = e->name;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pstr)
{
    const ErrName *e;

    BEGIN(F_cuGetErrorString);
    FORWARD(F_cuGetErrorString, tcuGetErrorString, error, pstr);
    if (!pstr)
        return leave(F_cuGetErrorString, (CUresult)E_INVALID_VALUE);
    if (!(e = err_by_value((int)error))) {
        *pstr = NULL;
        return leave(F_cuGetErrorString, (CUresult)E_INVALID_VALUE);
    }
    *pstr = e->text;
    return CUDA_SUCCESS;
}

/* -- streams and events -- */

static CUresult emu_create(int f, int kind, uintptr_t *out, unsigned flags,
                           unsigned max_flags)
{
    uintptr_t h;

    NEED_CTX(f);
    if (!out)
        REJECT(f, E_INVALID_VALUE, "NULL handle");
    if (flags & ~max_flags)
        REJECT(f, E_INVALID_VALUE, "unknown flags 0x%x", flags);
    h = new_handle_locked();
    if (!add_locked(kind, h, 0, emu_current()))
        return (CUresult)E_OUT_OF_MEMORY;
    *out = h;
    return CUDA_SUCCESS;
}

static CUresult emu_destroy(int f, int kind, uintptr_t h)
{
    Obj *o;

    NEED_INIT(f);
    if (!(o = find_locked(kind, h)))
        REJECT(f, E_INVALID_HANDLE, "%s %p does not exist",
               kind == VGFAULT_STREAM  ? "stream"
               : kind == VGFAULT_EVENT ? "event"
                                       : "module",
               (void *)h);
    remove_locked(o);
    return CUDA_SUCCESS;
}

/* an existing stream (any context), or an implicit one with a context */
static CUresult emu_stream_ok(int f, CUstream s)
{
    if (implicit_stream(s)) {
        NEED_CTX(f);
        return CUDA_SUCCESS;
    }
    NEED_INIT(f);
    if (!find_locked(VGFAULT_STREAM, (uintptr_t)s))
        REJECT(f, E_INVALID_HANDLE, "stream %p does not exist", (void *)s);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int flags)
{
    BEGIN(F_cuStreamCreate);
    if (g.fwd) {
        CUresult r;
        NEED_REAL(F_cuStreamCreate);
        r = REAL(F_cuStreamCreate, tcuStreamCreate)(phStream, flags);
        return leave(F_cuStreamCreate,
                     track_new(VGFAULT_STREAM, r, r ? 0 : (uintptr_t)*phStream,
                               0, current_ctx()));
    }
    EMULATE(F_cuStreamCreate, emu_create(F_cuStreamCreate, VGFAULT_STREAM,
                                         (uintptr_t *)phStream, flags, 1));
}

CUresult CUDAAPI cuStreamQuery(CUstream hStream)
{
    BEGIN(F_cuStreamQuery);
    FORWARD(F_cuStreamQuery, tcuStreamQuery, hStream);
    EMULATE(F_cuStreamQuery, emu_stream_ok(F_cuStreamQuery, hStream));
}

CUresult CUDAAPI cuStreamSynchronize(CUstream hStream)
{
    BEGIN(F_cuStreamSynchronize);
    FORWARD(F_cuStreamSynchronize, tcuStreamSynchronize, hStream);
    EMULATE(F_cuStreamSynchronize,
            emu_stream_ok(F_cuStreamSynchronize, hStream));
}

CUresult CUDAAPI cuStreamDestroy_v2(CUstream hStream)
{
    BEGIN(F_cuStreamDestroy);
    if (g.fwd) {
        NEED_REAL(F_cuStreamDestroy);
        return leave(
            F_cuStreamDestroy,
            track_gone(VGFAULT_STREAM,
                       REAL(F_cuStreamDestroy, tcuStreamDestroy_v2)(hStream),
                       (uintptr_t)hStream));
    }
    EMULATE(F_cuStreamDestroy,
            emu_destroy(F_cuStreamDestroy, VGFAULT_STREAM, (uintptr_t)hStream));
}

CUresult CUDAAPI cuStreamAddCallback(CUstream hStream,
                                     CUstreamCallback *callback, void *userdata,
                                     unsigned int flags)
{
    CUresult r;

    BEGIN(F_cuStreamAddCallback);
    FORWARD(F_cuStreamAddCallback, tcuStreamAddCallback, hStream, callback,
            userdata, flags);
    pthread_mutex_lock(&g.lock);
    r = emu_stream_ok(F_cuStreamAddCallback, hStream);
    if (r == CUDA_SUCCESS && (!callback || flags)) {
        note_error_locked(F_cuStreamAddCallback, (CUresult)E_INVALID_VALUE,
                          "NULL callback or flags");
        counted = 1;
        r = (CUresult)E_INVALID_VALUE;
    }
    pthread_mutex_unlock(&g.lock);
    /* the stream is always idle: the callback runs now, outside the lock */
    if (r == CUDA_SUCCESS)
        callback(hStream, CUDA_SUCCESS, userdata);
    return leave(F_cuStreamAddCallback, r);
}

static CUresult emu_wait_event(CUstream s, CUevent ev, unsigned int flags)
{
    CUresult r;

    if ((r = emu_stream_ok(F_cuStreamWaitEvent, s)) != CUDA_SUCCESS)
        return r;
    if (!find_locked(VGFAULT_EVENT, (uintptr_t)ev))
        REJECT(F_cuStreamWaitEvent, E_INVALID_HANDLE, "event %p does not exist",
               (void *)ev);
    if (flags & ~1u)
        REJECT(F_cuStreamWaitEvent, E_INVALID_VALUE, "unknown flags 0x%x",
               flags);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
                                   unsigned int flags)
{
    BEGIN(F_cuStreamWaitEvent);
    FORWARD(F_cuStreamWaitEvent, tcuStreamWaitEvent, hStream, hEvent, flags);
    EMULATE(F_cuStreamWaitEvent, emu_wait_event(hStream, hEvent, flags));
}

CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int flags)
{
    BEGIN(F_cuEventCreate);
    if (g.fwd) {
        CUresult r;
        NEED_REAL(F_cuEventCreate);
        r = REAL(F_cuEventCreate, tcuEventCreate)(phEvent, flags);
        return leave(F_cuEventCreate,
                     track_new(VGFAULT_EVENT, r, r ? 0 : (uintptr_t)*phEvent, 0,
                               current_ctx()));
    }
    EMULATE(F_cuEventCreate, emu_create(F_cuEventCreate, VGFAULT_EVENT,
                                        (uintptr_t *)phEvent, flags, 0xf));
}

CUresult CUDAAPI cuEventDestroy_v2(CUevent hEvent)
{
    BEGIN(F_cuEventDestroy);
    if (g.fwd) {
        NEED_REAL(F_cuEventDestroy);
        return leave(
            F_cuEventDestroy,
            track_gone(VGFAULT_EVENT,
                       REAL(F_cuEventDestroy, tcuEventDestroy_v2)(hEvent),
                       (uintptr_t)hEvent));
    }
    EMULATE(F_cuEventDestroy,
            emu_destroy(F_cuEventDestroy, VGFAULT_EVENT, (uintptr_t)hEvent));
}

/* the emulated work is done when it is queued; VG_FAULT_EVENT_LAG makes
 * that many queries of a recorded event answer CUDA_ERROR_NOT_READY
 * first, as a busy GPU would */
static CUresult emu_event_wait(int f, CUevent ev, int wait)
{
    Obj *o;

    NEED_INIT(f);
    if (!(o = find_locked(VGFAULT_EVENT, (uintptr_t)ev)))
        REJECT(f, E_INVALID_HANDLE, "event %p does not exist", (void *)ev);
    if (!wait && o->pending) {
        o->pending--;
        return (CUresult)E_NOT_READY;
    }
    o->pending = 0;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent)
{
    BEGIN(F_cuEventSynchronize);
    FORWARD(F_cuEventSynchronize, tcuEventSynchronize, hEvent);
    EMULATE(F_cuEventSynchronize,
            emu_event_wait(F_cuEventSynchronize, hEvent, 1));
}

CUresult CUDAAPI cuEventQuery(CUevent hEvent)
{
    BEGIN(F_cuEventQuery);
    FORWARD(F_cuEventQuery, tcuEventQuery, hEvent);
    EMULATE(F_cuEventQuery, emu_event_wait(F_cuEventQuery, hEvent, 0));
}

static CUresult emu_record(CUevent ev, CUstream s)
{
    Obj *eo;
    uintptr_t sctx;

    NEED_INIT(F_cuEventRecord);
    if (!(eo = find_locked(VGFAULT_EVENT, (uintptr_t)ev)))
        REJECT(F_cuEventRecord, E_INVALID_HANDLE, "event %p does not exist",
               (void *)ev);
    if (implicit_stream(s)) {
        NEED_CTX(F_cuEventRecord);
        sctx = emu_current();
    } else {
        Obj *so = find_locked(VGFAULT_STREAM, (uintptr_t)s);
        if (!so)
            REJECT(F_cuEventRecord, E_INVALID_HANDLE,
                   "stream %p does not exist", (void *)s);
        sctx = so->ctx;
    }
    if (sctx != eo->ctx)
        REJECT(F_cuEventRecord, E_INVALID_HANDLE,
               "event %p and stream %p "
               "belong to different contexts",
               (void *)ev, (void *)s);
    eo->pending = g.event_lag;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream)
{
    BEGIN(F_cuEventRecord);
    FORWARD(F_cuEventRecord, tcuEventRecord, hEvent, hStream);
    EMULATE(F_cuEventRecord, emu_record(hEvent, hStream));
}

/* -- modules and launches -- */

/* size of a module image: fatbin header, ELF section table, or PTX text */
static size_t image_size(const unsigned char *p)
{
    uint32_t magic;

    memcpy(&magic, p, 4);
    if (magic == 0xba55ed50u) {
        uint16_t hdr;
        uint64_t body;
        memcpy(&hdr, p + 6, 2);
        memcpy(&body, p + 8, 8);
        return body > ((uint64_t)1 << 31) ? 0 : hdr + (size_t)body;
    }
    if (!memcmp(p, "\177ELF", 4) && p[4] == 2) {
        uint64_t shoff;
        uint16_t shentsize, shnum;
        memcpy(&shoff, p + 0x28, 8);
        memcpy(&shentsize, p + 0x3a, 2);
        memcpy(&shnum, p + 0x3c, 2);
        return shoff > ((uint64_t)1 << 31)
                   ? 0
                   : (size_t)shoff + (size_t)shentsize * shnum;
    }
    if (p[0] == '/' || p[0] == '.' || p[0] == '\n' || p[0] == '\t' ||
        p[0] == ' ')
        return strlen((const char *)p) + 1;
    return 0;
}

/* one name at p, ended by one of the characters of `ends`, of at most
 * 1024 bytes inside the image; its length, or 0 */
static size_t name_at(const unsigned char *p, const unsigned char *end,
                      const char *ends)
{
    size_t n = 0;

    while (p + n < end && n < 1024 && (p[n] > ' ' && p[n] < 127) &&
           !strchr(ends, p[n]))
        n++;
    return n && p + n < end && (strchr(ends, p[n]) || !p[n]) ? n : 0;
}

/* The kernels an image defines: a cubin names each kernel's code section
 * ".text.<name>", PTX has ".entry <name>". Writes them NUL-separated to
 * out (when not NULL); returns the bytes. 0 for images without either
 * (compressed fatbins), which then accept any name. */
static size_t kernel_names(const unsigned char *img, size_t size, char *out)
{
    static const struct {
        const char *tag, *ends;
    } tags[] = {
        { ".text.", "" },
        { ".entry ", "( \n" },
    };
    const unsigned char *end = img + size;
    size_t total = 0;

    for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
        const size_t tl = strlen(tags[t].tag);
        const unsigned char *p = img;

        while ((p = memmem(p, (size_t)(end - p), tags[t].tag, tl))) {
            const size_t n = name_at(p + tl, end, tags[t].ends);
            if (n) {
                if (out) {
                    memcpy(out + total, p + tl, n);
                    out[total + n] = 0;
                }
                total += n + 1;
            }
            p += tl;
        }
    }
    return total;
}

static int has_kernel(const Obj *mod, const char *name)
{
    if (mod->any_name)
        return 1;
    for (size_t i = 0; i < mod->names_len; i += strlen(mod->names + i) + 1)
        if (!strcmp(mod->names + i, name))
            return 1;
    return 0;
}

static CUresult emu_module_load(CUmodule *mod, const void *image)
{
    size_t size;
    uintptr_t h;
    Obj *o;

    NEED_CTX(F_cuModuleLoadData);
    if (!mod || !image)
        REJECT(F_cuModuleLoadData, E_INVALID_VALUE, "NULL module or image");
    if (!(size = image_size(image)))
        REJECT(F_cuModuleLoadData, E_INVALID_IMAGE,
               "not a fatbin, cubin or PTX image");
    h = new_handle_locked();
    if (!(o = add_locked(VGFAULT_MODULE, h, size, emu_current())))
        return (CUresult)E_OUT_OF_MEMORY;
    /* the kernels' names, read once: the caller may free the image */
    o->names_len = kernel_names(image, size, NULL);
    o->any_name = !o->names_len;
    if (o->names_len) {
        if (!(o->names = shim_alloc(o->names_len))) {
            remove_locked(o);
            return (CUresult)E_OUT_OF_MEMORY;
        }
        kernel_names(image, size, o->names);
    }
    *mod = (CUmodule)h;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image)
{
    BEGIN(F_cuModuleLoadData);
    if (g.fwd) {
        CUresult r;
        NEED_REAL(F_cuModuleLoadData);
        r = REAL(F_cuModuleLoadData, tcuModuleLoadData)(module, image);
        return leave(F_cuModuleLoadData,
                     track_new(VGFAULT_MODULE, r, r ? 0 : (uintptr_t)*module, 0,
                               current_ctx()));
    }
    EMULATE(F_cuModuleLoadData, emu_module_load(module, image));
}

CUresult CUDAAPI cuModuleUnload(CUmodule hmod)
{
    BEGIN(F_cuModuleUnload);
    if (g.fwd) {
        NEED_REAL(F_cuModuleUnload);
        return leave(F_cuModuleUnload,
                     track_gone(VGFAULT_MODULE,
                                REAL(F_cuModuleUnload, tcuModuleUnload)(hmod),
                                (uintptr_t)hmod));
    }
    EMULATE(F_cuModuleUnload,
            emu_destroy(F_cuModuleUnload, VGFAULT_MODULE, (uintptr_t)hmod));
}

static CUresult emu_get_function(CUfunction *hfunc, CUmodule hmod,
                                 const char *name)
{
    Obj *o;
    Func *fn;

    NEED_INIT(F_cuModuleGetFunction);
    if (!hfunc || !name)
        REJECT(F_cuModuleGetFunction, E_INVALID_VALUE, "NULL function or name");
    if (!(o = find_locked(VGFAULT_MODULE, (uintptr_t)hmod)))
        REJECT(F_cuModuleGetFunction, E_INVALID_HANDLE,
               "module %p does not exist", (void *)hmod);
    for (fn = o->funcs; fn; fn = fn->next) {
        if (!strcmp(fn->name, name)) {
            *hfunc = (CUfunction)fn->h;
            return CUDA_SUCCESS;
        }
    }
    if (!has_kernel(o, name))
        REJECT(F_cuModuleGetFunction, E_NOT_FOUND,
               "no kernel '%s' in module %p", name, (void *)hmod);
    if (!(fn = shim_alloc(sizeof(*fn) + strlen(name) + 1)))
        return (CUresult)E_OUT_OF_MEMORY;
    fn->h = new_handle_locked();
    fn->module = o->h;
    strcpy(fn->name, name);
    fn->next = o->funcs;
    o->funcs = fn;
    *hfunc = (CUfunction)fn->h;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
                                     const char *name)
{
    BEGIN(F_cuModuleGetFunction);
    FORWARD(F_cuModuleGetFunction, tcuModuleGetFunction, hfunc, hmod, name);
    EMULATE(F_cuModuleGetFunction, emu_get_function(hfunc, hmod, name));
}

CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes,
                                   CUmodule hmod, const char *name)
{
    BEGIN(F_cuModuleGetGlobal);
    FORWARD(F_cuModuleGetGlobal, tcuModuleGetGlobal, dptr, bytes, hmod, name);
    return leave(F_cuModuleGetGlobal, (CUresult)E_NOT_SUPPORTED);
}

static CUresult emu_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                           unsigned bx, unsigned by, unsigned bz,
                           unsigned shared, CUstream s, void **params,
                           void **extra)
{
    Obj *mod = NULL;

    NEED_CTX(F_cuLaunchKernel);
    for (Obj *o = g.objs; o && !mod; o = o->next)
        if (o->kind == VGFAULT_MODULE)
            for (Func *fn = o->funcs; fn; fn = fn->next)
                if (fn->h == (uintptr_t)f)
                    mod = o;
    if (!mod)
        REJECT(F_cuLaunchKernel, E_INVALID_HANDLE, "function %p does not exist",
               (void *)f);
    if (mod->ctx != emu_current())
        REJECT(F_cuLaunchKernel, E_INVALID_HANDLE,
               "function %p belongs to "
               "another context",
               (void *)f);
    NEED_STREAM(F_cuLaunchKernel, s);
    if (!gx || !gy || !gz || !bx || !by || !bz)
        REJECT(F_cuLaunchKernel, E_INVALID_VALUE,
               "empty grid %ux%ux%u or "
               "block %ux%ux%u",
               gx, gy, gz, bx, by, bz);
    if (gy > 65535 || gz > 65535 || gx > 2147483647u)
        REJECT(F_cuLaunchKernel, E_INVALID_VALUE, "grid %ux%ux%u too large", gx,
               gy, gz);
    if (bx > 1024 || by > 1024 || bz > 64 || (uint64_t)bx * by * bz > 1024)
        REJECT(F_cuLaunchKernel, E_INVALID_VALUE, "block %ux%ux%u too large",
               bx, by, bz);
    if (shared > 49152)
        REJECT(F_cuLaunchKernel, E_INVALID_VALUE,
               "%u bytes of dynamic shared "
               "memory",
               shared);
    if (params && extra)
        REJECT(F_cuLaunchKernel, E_INVALID_VALUE,
               "both kernelParams and extra");
    /* the kernel itself does not run: results are not meaningful */
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                                unsigned int gridDimY, unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY,
                                unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream,
                                void **kernelParams, void **extra)
{
    BEGIN(F_cuLaunchKernel);
    FORWARD(F_cuLaunchKernel, tcuLaunchKernel, f, gridDimX, gridDimY, gridDimZ,
            blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream,
            kernelParams, extra);
    EMULATE(F_cuLaunchKernel,
            emu_launch(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY,
                       blockDimZ, sharedMemBytes, hStream, kernelParams,
                       extra));
}

/* -- entry points the emulation does not provide: forwarded, or
 * CUDA_ERROR_NOT_SUPPORTED -- */

#define UNEMULATED(f, sym, type, params, ...)                                  \
    CUresult CUDAAPI sym params                                                \
    {                                                                          \
        BEGIN(f);                                                              \
        FORWARD(f, type, __VA_ARGS__);                                         \
        return leave(f, (CUresult)E_NOT_SUPPORTED);                            \
    }

UNEMULATED(F_cuLinkCreate, cuLinkCreate, tcuLinkCreate,
           (unsigned int numOptions, CUjit_option *options, void **optionValues,
            CUlinkState *stateOut),
           numOptions, options, optionValues, stateOut)
UNEMULATED(F_cuLinkAddData, cuLinkAddData, tcuLinkAddData,
           (CUlinkState state, CUjitInputType type, void *data, size_t size,
            const char *name, unsigned int numOptions, CUjit_option *options,
            void **optionValues),
           state, type, data, size, name, numOptions, options, optionValues)
UNEMULATED(F_cuLinkComplete, cuLinkComplete, tcuLinkComplete,
           (CUlinkState state, void **cubinOut, size_t *sizeOut), state,
           cubinOut, sizeOut)
UNEMULATED(F_cuLinkDestroy, cuLinkDestroy, tcuLinkDestroy, (CUlinkState state),
           state)
UNEMULATED(F_cuTexObjectCreate, cuTexObjectCreate, tcuTexObjectCreate,
           (CUtexObject * pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
            const CUDA_TEXTURE_DESC *pTexDesc,
            const CUDA_RESOURCE_VIEW_DESC *pResViewDesc),
           pTexObject, pResDesc, pTexDesc, pResViewDesc)
UNEMULATED(F_cuTexObjectDestroy, cuTexObjectDestroy, tcuTexObjectDestroy,
           (CUtexObject texObject), texObject)
UNEMULATED(F_cuGLGetDevices, cuGLGetDevices_v2, tcuGLGetDevices_v2,
           (unsigned int *pCudaDeviceCount, CUdevice *pCudaDevices,
            unsigned int cudaDeviceCount, CUGLDeviceList deviceList),
           pCudaDeviceCount, pCudaDevices, cudaDeviceCount, deviceList)
UNEMULATED(F_cuGraphicsGLRegisterImage, cuGraphicsGLRegisterImage,
           tcuGraphicsGLRegisterImage,
           (CUgraphicsResource * pCudaResource, GLuint image, GLenum target,
            unsigned int Flags),
           pCudaResource, image, target, Flags)
UNEMULATED(F_cuGraphicsUnregisterResource, cuGraphicsUnregisterResource,
           tcuGraphicsUnregisterResource, (CUgraphicsResource resource),
           resource)
UNEMULATED(F_cuGraphicsMapResources, cuGraphicsMapResources,
           tcuGraphicsMapResources,
           (unsigned int count, CUgraphicsResource *resources,
            CUstream hStream),
           count, resources, hStream)
UNEMULATED(F_cuGraphicsUnmapResources, cuGraphicsUnmapResources,
           tcuGraphicsUnmapResources,
           (unsigned int count, CUgraphicsResource *resources,
            CUstream hStream),
           count, resources, hStream)
UNEMULATED(F_cuGraphicsSubResourceGetMappedArray,
           cuGraphicsSubResourceGetMappedArray,
           tcuGraphicsSubResourceGetMappedArray,
           (CUarray * pArray, CUgraphicsResource resource,
            unsigned int arrayIndex, unsigned int mipLevel),
           pArray, resource, arrayIndex, mipLevel)
UNEMULATED(F_cuGraphicsResourceGetMappedPointer,
           cuGraphicsResourceGetMappedPointer_v2,
           tcuGraphicsResourceGetMappedPointer,
           (CUdeviceptr * devPtrOut, size_t *sizeOut,
            CUgraphicsResource resource),
           devPtrOut, sizeOut, resource)
UNEMULATED(F_cuImportExternalMemory, cuImportExternalMemory,
           tcuImportExternalMemory,
           (CUexternalMemory * extMem_out,
            const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *memHandleDesc),
           extMem_out, memHandleDesc)
UNEMULATED(F_cuDestroyExternalMemory, cuDestroyExternalMemory,
           tcuDestroyExternalMemory, (CUexternalMemory extMem), extMem)
UNEMULATED(F_cuExternalMemoryGetMappedBuffer, cuExternalMemoryGetMappedBuffer,
           tcuExternalMemoryGetMappedBuffer,
           (CUdeviceptr * devPtr, CUexternalMemory extMem,
            const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *bufferDesc),
           devPtr, extMem, bufferDesc)
UNEMULATED(F_cuExternalMemoryGetMappedMipmappedArray,
           cuExternalMemoryGetMappedMipmappedArray,
           tcuExternalMemoryGetMappedMipmappedArray,
           (CUmipmappedArray * mipmap, CUexternalMemory extMem,
            const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *mipmapDesc),
           mipmap, extMem, mipmapDesc)
UNEMULATED(F_cuMipmappedArrayGetLevel, cuMipmappedArrayGetLevel,
           tcuMipmappedArrayGetLevel,
           (CUarray * pLevelArray, CUmipmappedArray hMipmappedArray,
            unsigned int level),
           pLevelArray, hMipmappedArray, level)
UNEMULATED(F_cuMipmappedArrayDestroy, cuMipmappedArrayDestroy,
           tcuMipmappedArrayDestroy, (CUmipmappedArray hMipmappedArray),
           hMipmappedArray)
UNEMULATED(F_cuImportExternalSemaphore, cuImportExternalSemaphore,
           tcuImportExternalSemaphore,
           (CUexternalSemaphore * extSem_out,
            const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *semHandleDesc),
           extSem_out, semHandleDesc)
UNEMULATED(F_cuDestroyExternalSemaphore, cuDestroyExternalSemaphore,
           tcuDestroyExternalSemaphore, (CUexternalSemaphore extSem), extSem)
UNEMULATED(F_cuSignalExternalSemaphoresAsync, cuSignalExternalSemaphoresAsync,
           tcuSignalExternalSemaphoresAsync,
           (const CUexternalSemaphore *extSemArray,
            const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *paramsArray,
            unsigned int numExtSems, CUstream stream),
           extSemArray, paramsArray, numExtSems, stream)
UNEMULATED(F_cuWaitExternalSemaphoresAsync, cuWaitExternalSemaphoresAsync,
           tcuWaitExternalSemaphoresAsync,
           (const CUexternalSemaphore *extSemArray,
            const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *paramsArray,
            unsigned int numExtSems, CUstream stream),
           extSemArray, paramsArray, numExtSems, stream)
UNEMULATED(F_cuArrayCreate, cuArrayCreate_v2, tcuArrayCreate,
           (CUarray * pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray),
           pHandle, pAllocateArray)
UNEMULATED(F_cuArray3DCreate, cuArray3DCreate_v2, tcuArray3DCreate,
           (CUarray * pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray),
           pHandle, pAllocateArray)
UNEMULATED(F_cuArrayDestroy, cuArrayDestroy, tcuArrayDestroy, (CUarray hArray),
           hArray)
UNEMULATED(F_cuEGLStreamProducerConnect, cuEGLStreamProducerConnect,
           tcuEGLStreamProducerConnect,
           (CUeglStreamConnection * conn, ffnv_EGLStreamKHR stream,
            ffnv_EGLint width, ffnv_EGLint height),
           conn, stream, width, height)
UNEMULATED(F_cuEGLStreamProducerDisconnect, cuEGLStreamProducerDisconnect,
           tcuEGLStreamProducerDisconnect, (CUeglStreamConnection * conn), conn)
UNEMULATED(F_cuEGLStreamConsumerDisconnect, cuEGLStreamConsumerDisconnect,
           tcuEGLStreamConsumerDisconnect, (CUeglStreamConnection * conn), conn)
UNEMULATED(F_cuEGLStreamProducerPresentFrame, cuEGLStreamProducerPresentFrame,
           tcuEGLStreamProducerPresentFrame,
           (CUeglStreamConnection * conn, CUeglFrame eglframe,
            CUstream *pStream),
           conn, eglframe, pStream)
UNEMULATED(F_cuEGLStreamProducerReturnFrame, cuEGLStreamProducerReturnFrame,
           tcuEGLStreamProducerReturnFrame,
           (CUeglStreamConnection * conn, CUeglFrame *eglframe,
            CUstream *pStream),
           conn, eglframe, pStream)
