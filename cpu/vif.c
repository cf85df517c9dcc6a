/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF, bit-exact with the portable C path of libvmaf v3.2.0
 * (src/feature/integer_vif.c: vif_statistic_8, vif_statistic_16,
 * subsample_rd_8, subsample_rd_16, decimate_and_pad, pad_top_and_bottom,
 * log_generate, write_scores; integer_vif.h: tables, log2_32, log2_64).
 *
 * Per scale s (0..3, picture ⌊W/2^s⌋ x ⌊H/2^s⌋), row by row:
 *  - vertical pass with the scale's taps over mirrored rows: sums of c*x,
 *    c*y and c*x*x, c*y*y, c*x*y, rounded and shifted to the
 *    8-bit-equivalent working unit (mu x 2^8, squares x 2^16);
 *  - horizontal pass over the mirrored row: sums M1, M2 and XX, YY, XY
 *    (libvmaf: uint32 and uint64; here XX, YY, XY as two uint32 halves);
 *  - per pixel sigma1^2, sigma2^2, sigma12 and the log-domain terms, summed
 *    into the four int64 accumulators of VgVifAccum.
 * Between scales the picture is low-passed with the next scale's taps and
 * every second row and column is kept.
 *
 * libvmaf pads its buffers by copying rows/columns; for W, H >= 16 every
 * sample it reads that way is the reflect-101 mirror (x[-k] = x[k],
 * x[n-1+k] = x[n-1-k]) of an in-picture sample, which is what cpu/vif_tmpl.c
 * computes directly. Below 16 (scale 3 then has one row or column, fewer
 * than its filter half-width) libvmaf reads stale rows or columns, so the
 * descriptor refuses such sizes.
 *
 * All integer sums are exact (no overflow, checked for 16-bit maxima in
 * tests/unit/test_vif.c), so they may be formed in any order and split
 * into parts; the kernels are shaped for GCC's auto-vectoriser. They live
 * in cpu/vif_tmpl.c, compiled once per sample type (cpu/vif_8.c,
 * cpu/vif_16.c); this file sets up the buffers and runs the scales.
 *
 * In a ladder the reference stage (VG_FEATURE_REF_STAGE) holds, per
 * scale, the reference's M1 and sigma1^2 of every pixel and its pictures
 * of scales 1..3: rendition 0 writes them while computing its own frame,
 * the other renditions read them and filter only the distorted picture
 * and the cross term (stage_layout(), cpu/vif.h).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "cpu/vif.h"

/* ---- feature glue -------------------------------------------------------- */

/* The four scales of one frame: scale 0 on the caller's samples, the
 * others on our uint16 pictures. */
static void vif_frame(VifCpu *s, const VgImage *ref, const VgImage *dis,
                      unsigned bpc, int skip_scale0, double egl,
                      VgVifAccum acc[4])
{
    const VgVifDSP *d0 = bpc > 8 ? &s->dsp16 : &s->dsp8;

    /* Scale 0 is still down-sampled when its statistic is skipped. */
    if (!skip_scale0)
        d0->scale(s, 0, ref->data[0], ref->stride[0], dis->data[0],
                  dis->stride[0], bpc, egl, &acc[0]);
    d0->downsample(s, 0, ref->data[0], ref->stride[0], dis->data[0],
                   dis->stride[0], bpc);
    for (unsigned sc = 1; sc < 4; sc++) {
        const ptrdiff_t stride = (ptrdiff_t)s->stride[sc] * 2;
        s->dsp16.scale(s, sc, s->rimg[sc], stride, s->img[sc][1], stride, bpc,
                       egl, &acc[sc]);
        if (sc < 3)
            s->dsp16.downsample(s, sc, s->rimg[sc], stride, s->img[sc][1],
                                stride, bpc);
    }
}

/*
 * A stage entry: per scale the reference's M1 (uint32) and sigma1^2
 * (int32) planes, stride[s] entries a row, then (scales 1..3) its
 * picture. Returns the entry's size; with `base`, points the stage's
 * fields of s into it.
 */
static size_t stage_layout(VifCpu *s, uint8_t *base)
{
    size_t off = 0;

    for (unsigned sc = 0; sc < 4; sc++) {
        const size_t plane =
            (s->stride[sc] * s->h[sc] * sizeof(uint32_t) + 63) & ~(size_t)63;

        if (base) {
            s->st_m1[sc] = (uint32_t *)(void *)(base + off);
            s->st_s1[sc] = (int32_t *)(void *)(base + off + plane);
        }
        off += 2 * plane;
        if (sc) {
            if (base)
                s->rimg[sc] = (uint16_t *)(void *)(base + off);
            off += (s->stride[sc] * s->h[sc] * 2 + 63) & ~(size_t)63;
        }
    }
    return off;
}

static int vif_init(VgFeatureCtx *fc)
{
    VifCpu *s = fc->priv;
    const unsigned w = fc->width, h = fc->height;
    /* row buffers: VIF_PAD margin before, whole blocks plus the filter's and
     * the even/odd split's reach after; 64-byte multiples */
    const size_t row16 =
        ((VIF_PAD + vif_ceil_block(w) + 64) * 2 + 63) & ~(size_t)63;
    const size_t row32 = (vif_ceil_block(w) * 4 + 63) & ~(size_t)63;
    size_t size = 0, off = 0;
    uint8_t *p;

    s->log2 = vg_vif_log2_table();
    /* the one CPU-flags mask (common/cpu.h): tests run both builds */
    vg_vif_dsp_init_8bpc(&s->dsp8, vg_cpu_flags());
    vg_vif_dsp_init_16bpc(&s->dsp16, vg_cpu_flags());
    for (unsigned sc = 0; sc < 4; sc++) {
        s->w[sc] = w >> sc;
        s->h[sc] = h >> sc;
        s->stride[sc] = vif_ceil_block(s->w[sc]);
        if (sc)
            size += 2 * ((s->stride[sc] * s->h[sc] * 2 + 63) & ~(size_t)63);
    }
    size += 10 * row16 + 11 * row32;
    if (!(s->mem = aligned_alloc(64, size)))
        return -ENOMEM;
    memset(s->mem, 0, size);
    p = s->mem;
    for (unsigned sc = 1; sc < 4; sc++) {
        for (unsigned q = 0; q < 2; q++) {
            s->img[sc][q] = (uint16_t *)(p + off);
            off += (s->stride[sc] * s->h[sc] * 2 + 63) & ~(size_t)63;
        }
    }
    for (unsigned q = 0; q < 8; q++) {
        uint16_t *r = (uint16_t *)(p + off) + VIF_PAD;
        if (q < 2)
            s->mu[q] = r;
        else if (q < 5)
            s->sq_hi[q - 2] = r;
        else
            s->sq_lo[q - 5] = r;
        off += row16;
    }
    s->even = (uint16_t *)(p + off);
    off += row16;
    s->odd = (uint16_t *)(p + off);
    off += row16;
    for (unsigned q = 0; q < 8; q++) {
        s->hsum[q] = (uint32_t *)(p + off);
        off += row32;
    }
    for (unsigned q = 0; q < 3; q++) {
        s->sig[q] = (int32_t *)(p + off);
        off += row32;
    }
    return 0;
}

static void vif_close(VgFeatureCtx *fc)
{
    VifCpu *s = fc->priv;

    free(s->mem);
    s->mem = NULL;
}

static int vif_extract(VgFeatureCtx *fc, const VgFrame *frame)
{
    VifCpu *s = fc->priv;
    const VgVifOptions *o = fc->opts;
    VgVifAccum acc[4] = { { 0 } };

    /* the reference's pyramid: the stage's in a ladder, else our own */
    s->stage_role = frame->stage ? frame->stage_role : 0;
    if (s->stage_role)
        stage_layout(s, frame->stage);
    else
        for (unsigned sc = 1; sc < 4; sc++)
            s->rimg[sc] = s->img[sc][0];
    vif_frame(s, frame->ref, frame->dis, fc->bpc, o->vif_skip_scale0,
              o->vif_enhn_gain_limit, acc);
    return vg_vif_emit(fc, frame->index, acc);
}

/* a ladder's reference stage (stage_layout()) */
static size_t vif_ref_stage_size(const VgFeatureCtx *fc)
{
    return stage_layout(fc->priv, NULL);
}

const VgFeatureImpl vg_cpu_vif = {
    .priv_size = sizeof(VifCpu),
    .init = vif_init,
    .extract = vif_extract,
    .close = vif_close,
    .ref_stage_size = vif_ref_stage_size,
};
