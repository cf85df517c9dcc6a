/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef VG_TESTS_BENCH_UTIL_H
#define VG_TESTS_BENCH_UTIL_H

#include <stdint.h>

#include "vmafgpu.h"
#include "gpu/core/cuda.h"

/** Monotonic wall clock in seconds. */
double bench_now(void);

/**
 * Wall-clock milliseconds per frame through the public API: a context with
 * cfg and the NULL-terminated features scores one untimed frame (engine
 * start, module load, allocations), then `frames` frames alternating
 * between the pairs (ref[0], dis[0]) and (ref[1], dis[1]), up to vg_flush().
 * @return -1 on failure.
 */
double bench_api_ms(const VgConfig *cfg, const char *const *features,
                    const VgPicture ref[2], const VgPicture dis[2],
                    unsigned frames);

/** What the kernel benchmarks time with: the library's module on device 0. */
typedef struct BenchCuda {
    const VgCuda *cu;
    CUdevice dev;
    CUcontext ctx;  ///< the primary context, made current
    CUmodule mod;   ///< the library's kernels
    CUstream st;    ///< non-blocking
    CUevent e0, e1; ///< timing events
    char name[128]; ///< device name
    int retained;   ///< the primary context is retained
    int pushed;     ///< and pushed on this thread
} BenchCuda;

/**
 * Load the driver and set up *b on device 0.
 * @return 0, or -1 when there is no usable CUDA GPU (nothing is left held).
 */
int bench_cuda_open(BenchCuda *b);

/**
 * Release everything bench_cuda_open() set up, in reverse order, after
 * waiting for the stream; every driver call is checked.
 * @return 0, or -1 if a call failed (logged).
 */
int bench_cuda_close(BenchCuda *b);

/** Milliseconds between e0 and e1 on the GPU, after waiting for e1. */
int bench_cuda_elapsed(const BenchCuda *b, float *ms);

/**
 * Four 4:2:0 planar pictures of w x h at bpc bits (8 or 10) of noise in
 * device memory (buf[i]), described by dp[i]. @return 0 or -1.
 */
int bench_noise_pictures(const BenchCuda *b, VgPicture dp[4],
                         CUdeviceptr buf[4], unsigned w, unsigned h,
                         unsigned bpc);

/**
 * A semi-planar 4:2:0 picture (NV12, or P010 with p010) of w x h in host
 * memory, *buf (caller frees), from a 4:4:4 8-bit planar frame of
 * src_w x src_h scaled with bilinear interpolation: natural video content
 * at any size. @return 0 or -1.
 */
int bench_semiplanar_picture(VgPicture *pic, uint8_t **buf, const uint8_t *src,
                             unsigned src_w, unsigned src_h, unsigned w,
                             unsigned h, int p010);

#endif /* VG_TESTS_BENCH_UTIL_H */
