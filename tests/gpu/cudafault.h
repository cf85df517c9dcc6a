/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Control and statistics interface of the fault-injecting CUDA driver
 * (tests/gpu/cudafault.c, built as tests/gpu/libcudafault.so). A program
 * that points VG_CUDA_DRIVER at the shim dlopen()s the same file and looks
 * these functions up with dlsym().
 *
 * Environment (read when the shim is loaded):
 *   VG_FAULT_REAL=FILE   forward every call to that driver (libcuda.so.1);
 *                        unset: emulate one device without a GPU
 *   VG_FAULT_FUNCS=LIST  functions whose calls are counted for VG_FAULT_N:
 *                        comma-separated names or fnmatch() globs
 *                        (cuMemcpy*), without the _v2 suffix, or `all`
 *                        (default; every function but cuGetErrorName and
 *                        cuGetErrorString)
 *   VG_FAULT_N=N         the Nth call (1-based) of those fails (0: none)
 *   VG_FAULT_STICKY=1    that call and every later one of them fails
 *   VG_FAULT_ERR=NAME    the error: out_of_memory, launch_failed,
 *                        illegal_address, not_ready, ... (see the table in
 *                        cudafault.c), a CUDA_ERROR_* name, a number, or
 *                        `auto` (default: a plausible error per function)
 *   VG_FAULT_EVENT_LAG=K emulation: the first K queries of a recorded
 *                        event answer CUDA_ERROR_NOT_READY (default 0:
 *                        events are complete when recorded)
 *   VG_FAULT_NO_COPY=1   emulation: copies from device to device memory are
 *                        checked but not carried out (the caller's host
 *                        cost without the emulation's memmove())
 *   VG_FAULT_TIME=1      time each function's calls (forwarded or emulated,
 *                        the shim's bookkeeping included) and print the
 *                        total nanoseconds per function at exit with
 *                        VG_FAULT_COUNT
 *   VG_FAULT_COUNT=1     at exit, print the calls per function and the
 *                        objects still allocated to stderr
 */

#ifndef VG_TESTS_GPU_CUDAFAULT_H
#define VG_TESTS_GPU_CUDAFAULT_H

#include <stddef.h>

/** Classes of driver objects whose allocations are counted. */
enum VgFaultKind {
    VGFAULT_CONTEXT, ///< cuCtxCreate, primary contexts (per retain chain)
    VGFAULT_MEMORY,  ///< device memory
    VGFAULT_PINNED,  ///< page-locked host memory (cuMemHostAlloc)
    VGFAULT_STREAM,
    VGFAULT_EVENT,
    VGFAULT_MODULE,
    VGFAULT_NB_KINDS
};

/** State of the shim, as vgfault_stats() returns it. */
typedef struct VgFaultStats {
    int forwarding;         ///< calls go to a real driver
    unsigned long total;    ///< calls counted (pauses excluded)
    unsigned long selected; ///< calls of the VG_FAULT_FUNCS functions
    unsigned long fired;    ///< failures injected
    int fired_func;         ///< function of the first one, or -1
    int fired_err;          ///< its CUresult
    unsigned long fired_at; ///< `total` when it was injected
    const void *fired_site; ///< return address of that call
    unsigned long errors;   ///< calls that failed without injection
    char last_error[256];   ///< what the last of those was
    unsigned long outstanding[VGFAULT_NB_KINDS]; ///< live objects
    size_t outstanding_bytes[VGFAULT_NB_KINDS];  ///< memory, pinned
    unsigned long reclaimed[VGFAULT_NB_KINDS];   ///< freed with their context
} VgFaultStats;

/** Fill *st and calls[0 .. n - 1] (calls per function, by index). */
typedef void VgFaultStatsFn(VgFaultStats *st, unsigned long *calls, unsigned n);
/** Number of functions the shim exports. */
typedef unsigned VgFaultFuncCountFn(void);
/** Name of function i (without _v2), or NULL. */
typedef const char *VgFaultFuncNameFn(unsigned i);
/** CUDA_ERROR_* name of a CUresult, or NULL. */
typedef const char *VgFaultErrNameFn(int err);
/**
 * Function and CUresult of the first injected failure (-1, 0 if none),
 * without taking a lock: for signal handlers.
 */
typedef void VgFaultFiredFn(int *func, int *err);
/**
 * While paused (nested), calls are neither counted nor failed; objects
 * are still tracked. For a program's own driver calls.
 */
typedef void VgFaultPauseFn(int pause);

#endif /* VG_TESTS_GPU_CUDAFAULT_H */
