/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * cudabench: wall time per frame of psnr + motion on the CUDA backend
 * through the public API, at 1920x1080 and 3840x2160, 8-bit 4:2:0 and
 * 10-bit P010, with device pictures (no upload: conversion, kernels and
 * result readback) and with host pictures (pinned staging + upload), and
 * the CPU backend on the same host pictures for comparison.
 * Usage: cudabench [frames] (default 200).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "gpu/core/cuda.h"
#include "tests/bench/bench_util.h"

static double run(enum VgBackend b, const VgPicture *ref, const VgPicture *dis,
                  unsigned frames, unsigned threads)
{
    static const char *const features[] = { "psnr", "motion", NULL };
    const VgConfig cfg = { .backend = b,
                           .n_threads = threads,
                           .log_level = VG_LOG_WARNING };

    return bench_api_ms(&cfg, features, ref, dis, frames);
}

int main(int argc, char **argv)
{
    const unsigned frames = argc > 1 ? (unsigned)atoi(argv[1]) : 200;
    static const unsigned sizes[2][2] = { { 1920, 1080 }, { 3840, 2160 } };
    const VgCuda *cu;
    CUdevice dev;
    CUcontext cctx;
    char name[128] = "";

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (vg_cuda_load(&cu, NULL, VG_LOG_WARNING) < 0 ||
        VG_CU(cu, NULL, cuDeviceGet, &dev, 0) < 0 ||
        VG_CU(cu, NULL, cuDevicePrimaryCtxRetain, &cctx, dev) < 0 ||
        VG_CU(cu, NULL, cuCtxPushCurrent, cctx) < 0)
        return 77;
    cu->f->cuDeviceGetName(name, sizeof(name) - 1, dev);
    printf("cudabench: %s, %u frames, psnr + motion\n", name, frames);
    for (int z = 0; z < 2; z++) {
        for (int f = 0; f < 2; f++) {
            const unsigned w = sizes[z][0], h = sizes[z][1];
            const unsigned bps = f ? 2 : 1;
            const size_t ysz = (size_t)w * h * bps, csz = ysz / 2;
            VgPicture hp[4], dp[4];
            void *hbuf[4];
            CUdeviceptr dbuf[4];

            for (int i = 0; i < 4; i++) {
                uint8_t *b = hbuf[i] = malloc(ysz + csz);
                uint64_t s = 88172645463325252ull + i;
                for (size_t k = 0; k < ysz + csz; k++) {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    b[k] = (uint8_t)s;
                }
                if (VG_CU(cu, NULL, cuMemAlloc, &dbuf[i], ysz + csz) < 0 ||
                    VG_CU(cu, NULL, cuMemcpyHtoD, dbuf[i], b, ysz + csz) < 0)
                    return 1;
                memset(&hp[i], 0, sizeof(hp[i]));
                hp[i].fmt = f ? VG_PIX_FMT_P010 : VG_PIX_FMT_NV12;
                hp[i].width = w;
                hp[i].height = h;
                hp[i].bitdepth = f ? 10 : 8;
                hp[i].data[0] = b;
                hp[i].data[1] = b + ysz;
                hp[i].stride[0] = hp[i].stride[1] = (ptrdiff_t)w * bps;
                dp[i] = hp[i];
                dp[i].memory = VG_MEMORY_CUDA;
                dp[i].data[0] = (const void *)(uintptr_t)dbuf[i];
                dp[i].data[1] = (const void *)(uintptr_t)(dbuf[i] + ysz);
            }
            printf("cudabench: %ux%u %s: cuda device pictures %.3f ms/frame, "
                   "cuda host pictures %.3f ms/frame, cpu (16 threads) %.3f "
                   "ms/frame\n",
                   w, h, f ? "p010" : "nv12",
                   run(VG_BACKEND_CUDA, dp, dp + 2, frames, 0),
                   run(VG_BACKEND_CUDA, hp, hp + 2, frames, 0),
                   run(VG_BACKEND_CPU, hp, hp + 2, frames / 4 ? frames / 4 : 1,
                       16));
            for (int i = 0; i < 4; i++) {
                free(hbuf[i]);
                VG_CU(cu, NULL, cuMemFree, dbuf[i]);
            }
        }
    }
    return 0;
}
