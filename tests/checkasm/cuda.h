/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * What checkasm uses of CUDA: the driver set-up of tests/bench/bench_util.h
 * or, in a build without the CUDA backend, stand-ins that find no GPU, so
 * that the parts that need none (--cpu-only, --builds, the CPU builds'
 * --bench) run in every build.
 */

#ifndef VG_TESTS_CHECKASM_CUDA_H
#define VG_TESTS_CHECKASM_CUDA_H

#include "config.h"

#if HAVE_CUDA
#include "tests/bench/bench_util.h"
#else
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "vmafgpu.h"

typedef uintptr_t CUdeviceptr;

typedef struct BenchCuda {
    const void *cu;
    void *ctx, *st, *e0, *e1;
    char name[128];
} BenchCuda;

/* no driver: every call fails, its arguments unevaluated */
#define VG_CU(cu, log, fn, ...) ca_cu_none(cu)

static inline int ca_cu_none(const void *cu)
{
    (void)cu;
    return -ENOSYS;
}

static inline double bench_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int bench_cuda_open(BenchCuda *b)
{
    (void)b;
    return -1;
}

static inline int bench_cuda_close(BenchCuda *b)
{
    (void)b;
    return 0;
}

static inline int bench_cuda_elapsed(const BenchCuda *b, float *ms)
{
    (void)b;
    *ms = 0;
    return -1;
}
#endif

#endif /* VG_TESTS_CHECKASM_CUDA_H */
