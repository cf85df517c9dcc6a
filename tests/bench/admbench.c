/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * admbench: GPU time per frame of the integer ADM kernels (gpu/adm.cu) at
 * 1920x1080 and 3840x2160, 8 and 10 bits, measured with CUDA events around
 * N frames of the five launches gpu/adm.c makes per frame (four DWT
 * scales, then decouple and contrast masking in one), queued back to back
 * on noise pictures, and the wall time per frame of ADM alone through the
 * public API on device pictures (picture conversion, kernels, readback,
 * host finish). Usage: admbench [frames] (default 100).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "gpu/adm_layout.h"
#include "gpu/core/cuda.h"
#include "tests/bench/bench_util.h"

static const VgCuda *cu;

typedef struct Bench {
    VgAdmLaunch l; ///< decouple + CM parameters, by value
    VgAdmDwtParams dwt[VG_ADM_NB_SCALES];
    CUfunction fn[4]; ///< dwt s0, s1, s23, decouple + cm
    CUdeviceptr res;
} Bench;

static int launch(CUfunction fn, unsigned gx, unsigned gy, unsigned gz,
                  unsigned bx, unsigned by, void *p, CUstream st)
{
    void *args[] = { p };

    return VG_CU(cu, NULL, cuLaunchKernel, fn, gx, gy, gz, bx, by, 1, 0, st,
                 args, NULL);
}

/* one frame, as gpu/adm.c adm_cuda_submit() queues it */
static int launch_frame(Bench *b, CUdeviceptr ref, CUdeviceptr dis,
                        int64_t pitch, unsigned bpc, CUstream st)
{
    if (VG_CU(cu, NULL, cuMemsetD8Async, b->res, 0, sizeof(VgAdmResults), st) <
        0)
        return -1;
    b->dwt[0].src[0] = ref;
    b->dwt[0].src[1] = dis;
    b->dwt[0].src_pitch = pitch;
    b->dwt[0].bpc = (int32_t)bpc;
    for (int k = 0; k < VG_ADM_NB_SCALES; k++) {
        VgAdmDwtParams *d = &b->dwt[k];
        if (launch(b->fn[k < 2 ? k : 2], vg_adm_dwt_grid_x(d),
                   vg_adm_dwt_grid_y(d, k), 2, VG_ADM_BX, VG_ADM_BY, d, st) < 0)
            return -1;
    }
    b->l.res = b->res;
    return launch(b->fn[3], (unsigned)b->l.par.n_cm_tiles, 1, 1,
                  VG_ADM_CM_THREADS, 1, &b->l, st);
}

static double api_ms(const VgPicture *ref, const VgPicture *dis,
                     unsigned frames)
{
    static const char *const features[] = { "adm", NULL };
    const VgConfig cfg = { .backend = VG_BACKEND_CUDA,
                           .log_level = VG_LOG_WARNING };

    return bench_api_ms(&cfg, features, ref, dis, frames);
}

int main(int argc, char **argv)
{
    const unsigned frames =
        argc > 1 && atoi(argv[1]) > 0 ? (unsigned)atoi(argv[1]) : 100;
    static const unsigned sizes[2][2] = { { 1920, 1080 }, { 3840, 2160 } };
    static const char *const names[4] = {
        "vg_adm_dwt_s0_8",
        "vg_adm_dwt_s1",
        "vg_adm_dwt_s23",
        "vg_adm_dcm",
    };
    BenchCuda bc;
    int n_sm = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (bench_cuda_open(&bc) < 0 ||
        VG_CU(bc.cu, NULL, cuDeviceGetAttribute, &n_sm,
              CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, bc.dev) < 0) {
        printf("admbench: no usable CUDA GPU\n");
        return 77;
    }
    cu = bc.cu;
    printf("admbench: %s (%d SMs), %u frames\n", bc.name, n_sm, frames);
    for (int z = 0; z < 2; z++) {
        for (int f = 0; f < 2; f++) {
            const unsigned w = sizes[z][0], h = sizes[z][1];
            const unsigned bpc = f ? 10 : 8, bps = f ? 2 : 1;
            const VgAdmOpts o = {
                .csf_scale = 1.0,
                .csf_diag_scale = 1.0,
                .dlm_weight = 0.5,
                .enhn_gain_limit = 100.0,
                .norm_view_dist = 3.0,
                .ref_display_height = 1080,
                .noise_weight = 0.03125,
            };
            VgAdmScale sc[VG_ADM_NB_SCALES];
            VgAdmFactors fac;
            CUdeviceptr buf[4], mem;
            VgPicture dp[4];
            Bench b;
            float ms = 0;

            if (bench_noise_pictures(&bc, dp, buf, w, h, bpc) < 0)
                return 1;

            vg_adm_scales(w, h, sc);
            if (vg_adm_factors(&o, &fac, NULL) < 0)
                return 1;
            const size_t bytes =
                vg_adm_cuda_layout(&b.l.par, b.dwt, sc, &fac, &o, 0);
            if (VG_CU(cu, NULL, cuMemAlloc, &mem, bytes) < 0 ||
                VG_CU(cu, NULL, cuMemAlloc, &b.res, sizeof(VgAdmResults)) < 0)
                return 1;
            vg_adm_cuda_layout(&b.l.par, b.dwt, sc, &fac, &o, (uint64_t)mem);
            /* the CM row sums and counters start at zero */
            if (VG_CU(cu, NULL, cuMemsetD8Async, mem, 0, bytes, bc.st) < 0)
                return 1;
            for (int k = 0; k < 4; k++)
                if (VG_CU(cu, NULL, cuModuleGetFunction, &b.fn[k], bc.mod,
                          k == 0 && f ? "vg_adm_dwt_s0_16" : names[k]) < 0)
                    return 1;
            /* warm-up, then the timed frames */
            if (launch_frame(&b, buf[0], buf[1], (int64_t)w * bps, bpc, bc.st) <
                    0 ||
                VG_CU(cu, NULL, cuEventRecord, bc.e0, bc.st) < 0)
                return 1;
            for (unsigned i = 0; i < frames; i++)
                if (launch_frame(&b, buf[i & 1], buf[2 + (i & 1)],
                                 (int64_t)w * bps, bpc, bc.st) < 0)
                    return 1;
            if (VG_CU(cu, NULL, cuEventRecord, bc.e1, bc.st) < 0 ||
                bench_cuda_elapsed(&bc, &ms) < 0)
                return 1;
            printf("admbench: %ux%u %u-bit: ADM kernels %.3f ms/frame (CUDA "
                   "events, CM grid %d blocks), adm through the API on device "
                   "pictures %.3f ms/frame (wall)\n",
                   w, h, bpc, ms / frames, b.l.par.n_cm_tiles,
                   api_ms(dp, dp + 2, frames));
            for (int i = 0; i < 4; i++)
                VG_CU(cu, NULL, cuMemFree, buf[i]);
            VG_CU(cu, NULL, cuMemFree, mem);
            VG_CU(cu, NULL, cuMemFree, b.res);
        }
    }
    return 0;
}
