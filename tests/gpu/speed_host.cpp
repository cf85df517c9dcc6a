/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * speed_host: the CUDA SpEED kernels (gpu/speed.cuh) run on the host,
 * every thread of every block of every launch in turn with the launches
 * of gpu/speed.c, against the CPU's SpEED (common/features/speed.c vg_speed_score()),
 * exactly: the decimated picture, its covariance matrix (memcmp) and the
 * score with its singular flag (vg_speed_score_decimated() on the
 * kernels' results). Both the luma difference form (speed_temporal) and
 * the single plane form (speed_chroma). Checks the kernels' indexing,
 * mirroring, prescaler tables and operation order; the device's own
 * arithmetic is the same IEEE float and double operations (-fmad=false),
 * which checkasm covers on a GPU. No GPU needed; plain C++ (the CUDA
 * keywords defined away), built by nvcc's host compiler.
 *
 *   make tests/gpu/speed_host && ./tests/gpu/speed_host
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

struct SpeedHostIdx { unsigned x, y, z; };
static SpeedHostIdx blockIdx, threadIdx;
#define __device__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(n)
#include "gpu/speed.cuh"

extern "C" {
#include "common/features/speed.h"
}

typedef void Kernel(const VgSpeedKernelParams);

/* cases whose covariance matrices were regular (scored, not the error path) */
static unsigned n_regular;

/* one launch: gx x gy x gz blocks of bx x by threads */
static void launch(Kernel *k, unsigned gx, unsigned gy, unsigned gz,
                   unsigned bx, unsigned by, const VgSpeedKernelParams &p)
{
    for (unsigned z = 0; z < gz; z++)
        for (unsigned y = 0; y < gy; y++)
            for (unsigned x = 0; x < gx; x++)
                for (unsigned ty = 0; ty < by; ty++)
                    for (unsigned tx = 0; tx < bx; tx++) {
                        blockIdx = { x, y, z };
                        threadIdx = { tx, ty, 0 };
                        k(p);
                    }
}

static unsigned blocks(unsigned n, unsigned b)
{
    return (n + b - 1) / b;
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

enum { PAT_SMOOTH, PAT_FLAT, PAT_EQUAL, PAT_NOISE, PAT_NB };
static const char *const pat_name[PAT_NB] = {
    "smooth+noise", "flat", "ref==dis", "full-range noise",
};

/* planes 0 (ref n), 1 (dis n), 2 (ref n-1), 3 (dis n-1) */
static void fill(std::vector<uint16_t> &pl, unsigned w, unsigned h,
                 unsigned bpc, int pat, uint64_t *s)
{
    const unsigned mx = (1u << bpc) - 1;
    const size_t n = (size_t)w * h;

    for (unsigned k = 0; k < 4; k++)
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                uint64_t v;
                switch (pat) {
                case PAT_FLAT:
                    v = (mx / 5) * (k + 1);
                    break;
                case PAT_NOISE:
                    v = rnd(s) & mx;
                    break;
                default: {
                    const unsigned kk = pat == PAT_EQUAL ? k & 2 : k;
                    v = ((x * 5 + y * 3 + kk * 17) * (mx / 255 + 1) +
                         rnd(s) % (mx / 16 + 1)) % (mx + 1);
                    break;
                }
                }
                pl[k * n + (size_t)y * w + x] = (uint16_t)v;
            }
    if (pat == PAT_EQUAL)
        for (size_t i = 0; i < n; i++) {
            pl[n + i] = pl[i];
            pl[3 * n + i] = pl[2 * n + i];
        }
}

/* @return 1 if the kernels matched the CPU */
static int run_case(unsigned w, unsigned h, unsigned bpc, int pat,
                    int temporal, double ps, int method, double ks, int wvm,
                    uint64_t *seed, int *skipped)
{
    const VgSpeedParams par = { ks, ps, method, 0.29, 0.05, wvm, 0 };
    VgSpeedParams gpar = par;
    VgSpeed c, g;
    const size_t n = (size_t)w * h;
    const int hbd = bpc > 8;
    const float scaler = (float)(1u << (bpc > 8 ? bpc - 8 : 0));
    std::vector<uint16_t> pl(4 * n);
    std::vector<uint8_t> pl8(4 * n);
    int ok = 1;

    *skipped = 0;
    if (vg_speed_init(&c, &par, w, h, "speed_host", NULL) < 0) {
        *skipped = 1;
        return 1;
    }
    gpar.no_frames = 1;
    if (vg_speed_init(&g, &gpar, w, h, "speed_host", NULL) < 0) {
        vg_speed_free(&c);
        return 0;
    }
    fill(pl, w, h, bpc, pat, seed);
    for (size_t i = 0; i < 4 * n; i++)
        pl8[i] = (uint8_t)pl[i];

    /* the CPU: common/fplane.c's conversion, then the differences */
    float *fr = vg_speed_alloc_frame(&c), *fd = vg_speed_alloc_frame(&c);
    auto conv = [&](unsigned k, size_t i) -> float {
        if (!hbd)
            return (float)pl8[k * n + i] + -128.0f;
        const float v = (float)pl[k * n + i] / scaler;
        return v + -128.0f;
    };
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const size_t i = (size_t)y * w + x, o = (size_t)y * c.stride + x;
            fr[o] = temporal ? conv(2, i) : conv(0, i);
            fd[o] = temporal ? conv(3, i) : conv(1, i);
            if (temporal) {
                fr[o] -= conv(0, i);
                fd[o] -= conv(1, i);
            }
        }
    float score_c, score_g;
    const int err_c = vg_speed_score(&c, fr, fd, &score_c, NULL);
    n_regular += !err_c;

    /* the kernels, with gpu/speed.c's buffers and launches */
    const int resample = g.prescale && (g.sw != g.w || g.sh != g.h);
    const size_t nd = (size_t)g.dw * g.dh, taps = VG_VIF_PRESCALE_TAPS;
    std::vector<int> ti((g.sw + g.sh) * taps);
    std::vector<float> tw((g.sw + g.sh) * taps);
    std::vector<float> pre(2 * (size_t)g.sw * g.sh), col(2 * (size_t)g.sw * g.dh);
    std::vector<float> dec(2 * nd), tmp(2 * nd), out(2 * nd);
    std::vector<float> means(2 * VG_SPEED_EB), cov(2 * VG_SPEED_COV);
    VgSpeedKernelParams p;
    const char *base = hbd ? (const char *)pl.data() : (const char *)pl8.data();
    auto plane = [&](unsigned k) {
        return (uint64_t)(uintptr_t)(base + k * n * (hbd ? 2 : 1));
    };

    vg_speed_prescale_axis(&g, 0, ti.data(), tw.data());
    vg_speed_prescale_axis(&g, 1, ti.data() + g.sw * taps,
                           tw.data() + g.sw * taps);
    for (size_t k = 0; k < ti.size(); k++)
        if (ti[k] < 0 || ti[k] >= (int)(k < g.sw * taps ? w : h)) {
            printf("  table index %d out of the plane\n", ti[k]);
            ok = 0;
            goto end;
        }
    memset(&p, 0, sizeof(p));
    p.a[0] = plane(temporal ? 2 : 0);
    p.a[1] = plane(temporal ? 3 : 1);
    p.b[0] = temporal ? plane(0) : 0;
    p.b[1] = temporal ? plane(1) : 0;
    p.pitch = (int64_t)(w * (hbd ? 2 : 1));
    p.scaler = scaler;
    p.w = (int32_t)w;
    p.h = (int32_t)h;
    p.sw = (int32_t)g.sw;
    p.sh = (int32_t)g.sh;
    p.dw = (int32_t)g.dw;
    p.dh = (int32_t)g.dh;
    p.method = method;
    p.resample = resample;
    p.xi = (uint64_t)(uintptr_t)ti.data();
    p.yi = (uint64_t)(uintptr_t)(ti.data() + g.sw * taps);
    p.xw = (uint64_t)(uintptr_t)tw.data();
    p.yw = (uint64_t)(uintptr_t)(tw.data() + g.sw * taps);
    p.pre = (uint64_t)(uintptr_t)pre.data();
    p.col = (uint64_t)(uintptr_t)col.data();
    p.dec = (uint64_t)(uintptr_t)dec.data();
    p.tmp = (uint64_t)(uintptr_t)tmp.data();
    p.out = (uint64_t)(uintptr_t)out.data();
    p.subw = (int32_t)g.subw;
    p.subh = (int32_t)g.subh;
    p.means = (uint64_t)(uintptr_t)means.data();
    p.cov = (uint64_t)(uintptr_t)cov.data();
    p.taps_aa = g.taps_aa;
    p.taps4 = g.taps4;
    memcpy(p.f_aa, g.filter_aa, (size_t)g.taps_aa * sizeof(float));
    memcpy(p.f4, g.filter4, (size_t)g.taps4 * sizeof(float));
    if (resample)
        launch(hbd ? vg_speed_prescale_16 : vg_speed_prescale_8,
               blocks(g.sw, VG_SPEED_BX), blocks(g.sh, VG_SPEED_BY), 2,
               VG_SPEED_BX, VG_SPEED_BY, p);
    launch(hbd ? vg_speed_aa_v_16 : vg_speed_aa_v_8, blocks(g.sw, VG_SPEED_BX),
           blocks(g.dh, VG_SPEED_BY), 2, VG_SPEED_BX, VG_SPEED_BY, p);
    launch(vg_speed_aa_h, blocks(g.dw, VG_SPEED_BX), blocks(g.dh, VG_SPEED_BY),
           2, VG_SPEED_BX, VG_SPEED_BY, p);
    launch(vg_speed_lm_v, blocks(g.dw, VG_SPEED_BX), blocks(g.dh, VG_SPEED_BY),
           2, VG_SPEED_BX, VG_SPEED_BY, p);
    launch(vg_speed_lm_h, blocks(g.dw, VG_SPEED_BX), blocks(g.dh, VG_SPEED_BY),
           2, VG_SPEED_BX, VG_SPEED_BY, p);
    launch(vg_speed_means, 1, 1, 2, VG_SPEED_BX, 1, p);
    launch(vg_speed_cov, blocks(VG_SPEED_EB * (VG_SPEED_EB + 1) / 2,
                                VG_SPEED_BX * VG_SPEED_BY), 1, 2,
           VG_SPEED_BX, VG_SPEED_BY, p);

    /* the CPU's buffers hold the distorted picture's last state */
    if (memcmp(c.dec, out.data() + nd, nd * sizeof(float))) {
        printf("  decimated picture differs\n");
        ok = 0;
    }
    if (memcmp(c.mat[0], cov.data() + VG_SPEED_COV,
               VG_SPEED_COV * sizeof(float))) {
        printf("  covariance matrix differs\n");
        ok = 0;
    }
    {
        const int err_g = vg_speed_score_decimated(&g, out.data(),
                                                   out.data() + nd, cov.data(),
                                                   cov.data() + VG_SPEED_COV,
                                                   &score_g, NULL);
        if (err_c != err_g || memcmp(&score_c, &score_g, sizeof(float))) {
            printf("  score: cpu %.9g (singular %d), kernels %.9g "
                   "(singular %d)\n", score_c, err_c, score_g, err_g);
            ok = 0;
        }
    }
end:
    free(fr);
    free(fd);
    vg_speed_free(&c);
    vg_speed_free(&g);
    return ok;
}

int main(void)
{
    static const double prescales[] = { 1.0, 1.5, 0.75, 2.0, 1.0005, 0.5 };
    static const double kernelscales[] = { 1.0, 0.5, 3.0, 360.0 / 97, 1.5,
                                           2.0 / 3 };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    uint64_t seed = 0x5eed5eedULL;
    unsigned n_pass = 0, n_fail = 0, n_skip = 0;

    for (unsigned i = 0; i < 96; i++) {
        const double ps = prescales[i % 6];
        const int method = (int)(i / 6) % 4;
        const double ks = kernelscales[(i / 3) % 6];
        const unsigned bpc = depths[(i / 2) % 4];
        const int pat = (int)(i / 24 + i) % PAT_NB;
        const int temporal = i & 1;
        const int wvm = (int)(i % 7);
        /* a third at each prescale's minimum of 80 prescaled samples (a
         * few blocks: singular), the rest with enough blocks for a
         * regular covariance */
        const unsigned base = (unsigned)(80 / ps + 0.5);
        const unsigned big = i % 3 ? 3 : 1;
        unsigned w = base * big + (unsigned)(rnd(&seed) % (i % 3 ? 200 : 3));
        unsigned h = base * big + (unsigned)(rnd(&seed) % (i % 3 ? 100 : 3));
        int skipped;

        if (i % 11 == 5)
            w = base - 1;
        const int ok = run_case(w, h, bpc, pat, temporal, ps, method, ks,
                                temporal ? 0 : wvm, &seed, &skipped);
        if (skipped) {
            n_skip++;
            continue;
        }
        if (!ok)
            printf("speed_host: FAIL %ux%u %u-bit %s, %s, prescale %g "
                   "method %d, kernelscale %g\n", w, h, bpc, pat_name[pat],
                   temporal ? "temporal" : "one plane", ps, method, ks);
        ok ? n_pass++ : n_fail++;
    }
    printf("speed_host: %u passed (%u regular, the rest singular), %u failed, "
           "%u refused (too small)\n", n_pass, n_regular, n_fail, n_skip);
    return n_fail || n_pass < 64 || n_regular < 32;
}
