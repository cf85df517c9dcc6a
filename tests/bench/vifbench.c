/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * vifbench: GPU time per frame of the integer VIF kernels (gpu/vif.cu) at
 * 1920x1080 and 3840x2160, 8 and 10 bits, measured with CUDA events
 * around N frames of the four per-scale launches queued back to back
 * (the launches gpu/vif.c makes, on noise pictures), and the wall time
 * per frame of VIF alone through the public API on device pictures
 * (picture conversion, kernels, result readback, host finish).
 * Usage: vifbench [frames] (default 100).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "common/features/vif.h"
#include "gpu/core/cuda.h"
#include "tests/bench/bench_util.h"
#include "common/features/vif_params.h"

static const VgCuda *cu;

/* the launches of one frame, as gpu/vif.c vif_cuda_submit() makes them */
static int launch_frame(CUfunction fn[4], CUdeviceptr ref, CUdeviceptr dis,
                        unsigned w, unsigned h, unsigned bpc,
                        CUdeviceptr img[4][2], size_t pitch[4], CUdeviceptr acc,
                        CUdeviceptr log2, CUstream st)
{
    for (unsigned sc = 0; sc < 4; sc++) {
        VgVifParams p = {
            .w = w >> sc,
            .h = h >> sc,
            .bpc = bpc,
            .stat = 1,
            .acc = acc + sc * 32,
            .log2 = log2,
            .egl = 100.0,
        };
        void *args[] = { &p };
        unsigned gx, gy, gz;

        if (sc) {
            p.ref = img[sc][0];
            p.dis = img[sc][1];
            p.ref_pitch = p.dis_pitch = (int64_t)pitch[sc];
        } else {
            p.ref = ref;
            p.dis = dis;
            p.ref_pitch = p.dis_pitch = (int64_t)w * (bpc > 8 ? 2 : 1);
        }
        if (sc < 3) {
            p.dref = img[sc + 1][0];
            p.ddis = img[sc + 1][1];
            p.dpitch = (int64_t)pitch[sc + 1];
            p.dw = w >> (sc + 1);
            p.dh = h >> (sc + 1);
        }
        vg_vif_grid(&p, &gx, &gy, &gz);
        if (VG_CU(cu, NULL, cuLaunchKernel, fn[sc], gx, gy, gz, VG_VIF_BX,
                  VG_VIF_BY, 1, 0, st, args, NULL) < 0)
            return -1;
    }
    return 0;
}

static double api_ms(const VgPicture *ref, const VgPicture *dis,
                     unsigned frames)
{
    static const char *const features[] = { "vif", NULL };
    const VgConfig cfg = { .backend = VG_BACKEND_CUDA,
                           .log_level = VG_LOG_WARNING };

    return bench_api_ms(&cfg, features, ref, dis, frames);
}

int main(int argc, char **argv)
{
    const unsigned frames =
        argc > 1 && atoi(argv[1]) > 0 ? (unsigned)atoi(argv[1]) : 100;
    static const unsigned sizes[2][2] = { { 1920, 1080 }, { 3840, 2160 } };
    BenchCuda bc;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (bench_cuda_open(&bc) < 0) {
        printf("vifbench: no usable CUDA GPU\n");
        return 77;
    }
    cu = bc.cu;
    printf("vifbench: %s, %u frames\n", bc.name, frames);
    for (int z = 0; z < 2; z++) {
        for (int f = 0; f < 2; f++) {
            const unsigned w = sizes[z][0], h = sizes[z][1];
            const unsigned bpc = f ? 10 : 8;
            CUdeviceptr buf[4], img[4][2] = { { 0 } }, acc, log2;
            size_t pitch[4] = { 0 };
            CUfunction fn[4];
            VgPicture dp[4];
            float ms = 0;

            if (bench_noise_pictures(&bc, dp, buf, w, h, bpc) < 0)
                return 1;
            for (unsigned sc = 1; sc < 4; sc++) {
                pitch[sc] = ((size_t)(w >> sc) * 2 + 255) & ~(size_t)255;
                for (int q = 0; q < 2; q++)
                    if (VG_CU(cu, NULL, cuMemAlloc, &img[sc][q],
                              pitch[sc] * (h >> sc)) < 0)
                        return 1;
            }
            for (unsigned sc = 0; sc < 4; sc++)
                if (VG_CU(cu, NULL, cuModuleGetFunction, &fn[sc], bc.mod,
                          sc  ? (sc == 1   ? "vg_vif_s1"
                                 : sc == 2 ? "vg_vif_s2"
                                           : "vg_vif_s3")
                          : f ? "vg_vif_s0_16"
                              : "vg_vif_s0_8") < 0)
                    return 1;
            if (VG_CU(cu, NULL, cuMemAlloc, &acc, 128) < 0 ||
                VG_CU(cu, NULL, cuMemAlloc, &log2, 65537 * 2) < 0 ||
                VG_CU(cu, NULL, cuMemcpyHtoD, log2, vg_vif_log2_table(),
                      65537 * 2) < 0)
                return 1;
            /* warm-up, then the timed frames */
            if (launch_frame(fn, buf[0], buf[1], w, h, bpc, img, pitch, acc,
                             log2, bc.st) < 0 ||
                VG_CU(cu, NULL, cuEventRecord, bc.e0, bc.st) < 0)
                return 1;
            for (unsigned i = 0; i < frames; i++)
                if (launch_frame(fn, buf[i & 1], buf[2 + (i & 1)], w, h, bpc,
                                 img, pitch, acc, log2, bc.st) < 0)
                    return 1;
            if (VG_CU(cu, NULL, cuEventRecord, bc.e1, bc.st) < 0 ||
                bench_cuda_elapsed(&bc, &ms) < 0)
                return 1;
            printf("vifbench: %ux%u %u-bit: VIF kernels %.3f ms/frame (CUDA "
                   "events), vif through the API on device pictures %.3f "
                   "ms/frame (wall)\n",
                   w, h, bpc, ms / frames, api_ms(dp, dp + 2, frames));
            for (int i = 0; i < 4; i++)
                VG_CU(cu, NULL, cuMemFree, buf[i]);
            for (unsigned sc = 1; sc < 4; sc++)
                for (int q = 0; q < 2; q++)
                    VG_CU(cu, NULL, cuMemFree, img[sc][q]);
            VG_CU(cu, NULL, cuMemFree, acc);
            VG_CU(cu, NULL, cuMemFree, log2);
        }
    }
    return 0;
}
