/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/bench/bench_util.h"

double bench_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double bench_api_ms(const VgConfig *cfg, const char *const *features,
                    const VgPicture ref[2], const VgPicture dis[2],
                    unsigned frames)
{
    VgContext *ctx = NULL;
    double t0, t1 = -1;

    if (vg_context_create(&ctx, cfg) < 0)
        return -1;
    for (unsigned f = 0; features[f]; f++)
        if (vg_use_feature(ctx, features[f], NULL) < 0)
            goto end;
    if (vg_submit(ctx, &ref[0], &dis[0]) < 0)
        goto end;
    t0 = bench_now();
    for (unsigned i = 1; i <= frames; i++)
        if (vg_submit(ctx, &ref[i & 1], &dis[i & 1]) < 0)
            goto end;
    if (vg_flush(ctx) < 0)
        goto end;
    t1 = (bench_now() - t0) * 1e3 / frames;
end:
    vg_context_destroy(&ctx);
    return t1;
}

extern const unsigned char vg_cuda_fatbin[];

typedef CUresult CUDAAPI ElapsedFn(float *ms, CUevent a, CUevent b);

/* not in nv-codec-headers' table: taken from the driver the library
 * loaded (libcuda.so.1 or VG_CUDA_DRIVER), so both use the same one */
static ElapsedFn *elapsed_fn;

int bench_cuda_open(BenchCuda *b)
{
    const VgCuda *cu;

    memset(b, 0, sizeof(*b));
    if (vg_cuda_load(&b->cu, NULL, VG_LOG_WARNING) < 0)
        return -1;
    cu = b->cu;
    if (!(elapsed_fn = (ElapsedFn *)dlsym(cu->f->lib, "cuEventElapsedTime")) ||
        VG_CU(cu, NULL, cuDeviceGet, &b->dev, 0) < 0 ||
        VG_CU(cu, NULL, cuDevicePrimaryCtxRetain, &b->ctx, b->dev) < 0)
        goto fail;
    b->retained = 1;
    if (VG_CU(cu, NULL, cuCtxPushCurrent, b->ctx) < 0)
        goto fail;
    b->pushed = 1;
    if (VG_CU(cu, NULL, cuModuleLoadData, &b->mod, vg_cuda_fatbin) < 0 ||
        VG_CU(cu, NULL, cuStreamCreate, &b->st, CU_STREAM_NON_BLOCKING) < 0 ||
        VG_CU(cu, NULL, cuEventCreate, &b->e0, CU_EVENT_DEFAULT) < 0 ||
        VG_CU(cu, NULL, cuEventCreate, &b->e1, CU_EVENT_DEFAULT) < 0 ||
        VG_CU(cu, NULL, cuDeviceGetName, b->name, sizeof(b->name) - 1, b->dev) <
            0)
        goto fail;
    return 0;
fail:
    bench_cuda_close(b);
    return -1;
}

int bench_cuda_close(BenchCuda *b)
{
    const VgCuda *cu = b->cu;
    int ret = 0;

    if (!cu)
        return 0;
    if (b->st && VG_CU(cu, NULL, cuStreamSynchronize, b->st) < 0)
        ret = -1;
    if (b->e1 && VG_CU(cu, NULL, cuEventDestroy, b->e1) < 0)
        ret = -1;
    if (b->e0 && VG_CU(cu, NULL, cuEventDestroy, b->e0) < 0)
        ret = -1;
    if (b->st && VG_CU(cu, NULL, cuStreamDestroy, b->st) < 0)
        ret = -1;
    if (b->mod && VG_CU(cu, NULL, cuModuleUnload, b->mod) < 0)
        ret = -1;
    if (b->pushed) {
        CUcontext popped;
        if (VG_CU(cu, NULL, cuCtxPopCurrent, &popped) < 0)
            ret = -1;
    }
    if (b->retained && VG_CU(cu, NULL, cuDevicePrimaryCtxRelease, b->dev) < 0)
        ret = -1;
    vg_cuda_unload(&b->cu);
    memset(b, 0, sizeof(*b));
    return ret;
}

int bench_cuda_elapsed(const BenchCuda *b, float *ms)
{
    if (VG_CU(b->cu, NULL, cuEventSynchronize, b->e1) < 0 ||
        vg_cuda_error(b->cu, NULL, elapsed_fn(ms, b->e0, b->e1),
                      "cuEventElapsedTime", __FILE__, __LINE__) < 0)
        return -1;
    return 0;
}

int bench_noise_pictures(const BenchCuda *b, VgPicture dp[4],
                         CUdeviceptr buf[4], unsigned w, unsigned h,
                         unsigned bpc)
{
    const unsigned bps = bpc > 8 ? 2 : 1;
    const size_t ysz = (size_t)w * h * bps, csz = ysz / 2;
    uint8_t *hb = malloc(ysz + csz);

    if (!hb)
        return -1;
    for (int i = 0; i < 4; i++) {
        uint64_t s = 88172645463325252ull + i;
        for (size_t k = 0; k < ysz + csz; k += bps) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            if (bps == 1)
                hb[k] = (uint8_t)s;
            else
                *(uint16_t *)(hb + k) = (uint16_t)(s & ((1u << bpc) - 1));
        }
        if (VG_CU(b->cu, NULL, cuMemAlloc, &buf[i], ysz + csz) < 0 ||
            VG_CU(b->cu, NULL, cuMemcpyHtoD, buf[i], hb, ysz + csz) < 0) {
            free(hb);
            return -1;
        }
        memset(&dp[i], 0, sizeof(dp[i]));
        dp[i].fmt = VG_PIX_FMT_YUV420P;
        dp[i].width = w;
        dp[i].height = h;
        dp[i].bitdepth = bpc;
        dp[i].memory = VG_MEMORY_CUDA;
        dp[i].data[0] = (const void *)(uintptr_t)buf[i];
        dp[i].data[1] = (const void *)(uintptr_t)(buf[i] + ysz);
        dp[i].data[2] = (const void *)(uintptr_t)(buf[i] + ysz + csz / 2);
        dp[i].stride[0] = (ptrdiff_t)w * bps;
        dp[i].stride[1] = dp[i].stride[2] = (ptrdiff_t)(w / 2) * bps;
    }
    free(hb);
    return 0;
}

/* bilinear sample of a src_w x src_h 8-bit plane at output (x, y) of w x h */
static unsigned bilinear(const uint8_t *p, unsigned src_w, unsigned src_h,
                         unsigned x, unsigned y, unsigned w, unsigned h)
{
    const double fx = (x + 0.5) * src_w / w - 0.5,
                 fy = (y + 0.5) * src_h / h - 0.5;
    int x0 = (int)fx, y0 = (int)fy;
    double ax = fx - x0, ay = fy - y0;
    int x1, y1;

    if (fx < 0) {
        x0 = 0;
        ax = 0;
    }
    if (fy < 0) {
        y0 = 0;
        ay = 0;
    }
    x1 = x0 + 1 < (int)src_w ? x0 + 1 : (int)src_w - 1;
    y1 = y0 + 1 < (int)src_h ? y0 + 1 : (int)src_h - 1;
    return (
        unsigned)((p[y0 * src_w + x0] * (1 - ax) + p[y0 * src_w + x1] * ax) *
                      (1 - ay) +
                  (p[y1 * src_w + x0] * (1 - ax) + p[y1 * src_w + x1] * ax) *
                      ay +
                  0.5);
}

int bench_semiplanar_picture(VgPicture *pic, uint8_t **out, const uint8_t *src,
                             unsigned src_w, unsigned src_h, unsigned w,
                             unsigned h, int p010)
{
    const unsigned bps = p010 ? 2 : 1;
    const size_t ysz = (size_t)w * h * bps, csz = ysz / 2;
    const size_t plane = (size_t)src_w * src_h;
    uint8_t *buf = malloc(ysz + csz);

    if (!buf)
        return -1;
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            unsigned v = bilinear(src, src_w, src_h, x, y, w, h);
            if (p010)
                ((uint16_t *)buf)[(size_t)y * w + x] =
                    (uint16_t)((v << 2) << 6);
            else
                buf[(size_t)y * w + x] = (uint8_t)v;
        }
    }
    for (unsigned y = 0; y < h / 2; y++) {
        for (unsigned x = 0; x < w / 2; x++) {
            for (unsigned c = 0; c < 2; c++) {
                unsigned v = bilinear(src + (c + 1) * plane, src_w, src_h,
                                      2 * x, 2 * y, w, h);
                size_t k = (size_t)y * w + 2 * x + c;
                if (p010)
                    ((uint16_t *)(buf + ysz))[k] = (uint16_t)((v << 2) << 6);
                else
                    buf[ysz + k] = (uint8_t)v;
            }
        }
    }
    memset(pic, 0, sizeof(*pic));
    pic->fmt = p010 ? VG_PIX_FMT_P010 : VG_PIX_FMT_NV12;
    pic->width = w;
    pic->height = h;
    pic->bitdepth = p010 ? 10 : 8;
    pic->memory = VG_MEMORY_HOST;
    pic->data[0] = buf;
    pic->data[1] = buf + ysz;
    pic->stride[0] = pic->stride[1] = (ptrdiff_t)w * bps;
    *out = buf;
    return 0;
}
