/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The thread code of the CUDA CAMBI kernels (gpu/cambi_block.h) run on
 * the host, without a GPU: gpu/cambi.c's launches replayed thread by
 * thread on host planes filled with garbage (the c-value kernel's load
 * for every thread of a block before any thread counts, as its barrier
 * guarantees, on a tile left dirty by the previous block), pooled with
 * the home's vg_cambi_pool() and emitted through vg_cambi_emit(). Every
 * output must equal, bit for bit, the CPU implementation's (cpu/cambi.c)
 * on the same pictures: 8, 9, 10, 12 and 16 bits; sizes from the 216
 * minimum (odd ones, a strip), up to 1920x1080; banded pictures (non-zero
 * c-values), noise, flat pictures, ref == dis; the options that change
 * the kernels' work (window, contrast steps, thresholds, EOTFs, encode
 * size and depth, full_ref with a larger source, the high-resolution
 * speed-up, an empty histogram band).
 *
 * This catches the arithmetic and indexing of the kernels and the order
 * of the launches; the device-specific parts (the barrier, shared memory,
 * the copies) are checked on a GPU by tests/checkasm/cambi.c.
 */

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/collector.h"
#include "common/feature.h"
#include "common/features/cambi.h"
#include "common/opt.h"
#include "gpu/cambi_block.h"
#include "tests/check_run.h"

static void *alloc_dirty(size_t n)
{
    void *p = malloc(n ? n : 1);

    ck_assert_ptr_nonnull(p);
    memset(p, 0xa5, n);
    return p;
}

/* one pixel kernel launch: every thread inside the picture */
static void replay_px(void (*fn)(const VgCambiKernelParams *, int, int),
                      const VgCambiKernelParams *kp)
{
    for (int i = 0; i < kp->h; i++)
        for (int j = 0; j < kp->w; j++)
            fn(kp, i, j);
}

/* the picture launch over the output size: each block's steps for every
 * thread, then its outputs, as its barriers order them */
static void replay_prep(const VgCambiKernelParams *kp, int ow, int oh)
{
    static VgCambiPrepTile t;
    const int gx = (ow + VG_CAMBI_BX - 1) / VG_CAMBI_BX;
    const int gy = (oh + VG_CAMBI_BY - 1) / VG_CAMBI_BY;

    memset(&t, 0x5a, sizeof(t));
    for (int by = 0; by < gy; by++)
        for (int bx = 0; bx < gx; bx++) {
            for (int step = 0; step < 4; step++)
                for (int tid = 0; tid < VG_CAMBI_PREP_NTHR; tid++)
                    vg_cambi_prep_step(&t, kp, step, tid, bx, by);
            for (int ty = 0; ty < VG_CAMBI_BY; ty++)
                for (int tx = 0; tx < VG_CAMBI_BX; tx++)
                    vg_cambi_prep_out(&t, kp, tx, ty, bx, by);
        }
}

/* the c-value launch of every scale: block by block */
static void replay_cvalues(const VgCambiKernelParams *kp)
{
    static VgCambiTile t;

    memset(&t, 0x5a, sizeof(t));
    for (int b = 0; b < kp->n_blocks; b++) {
        VgCambiScale sc;
        int bx, by;

        vg_cambi_cval_block(kp, b, &sc, &bx, &by);
        for (int tid = 0; tid < VG_CAMBI_NTHR; tid++)
            vg_cambi_cval_load(&t, kp, &sc, tid, bx, by);
        for (int ty = 0; ty < VG_CAMBI_TILE; ty++)
            for (int tx = 0; tx < VG_CAMBI_TILE; tx++)
                vg_cambi_cval_pixel(&t, kp, &sc, tx, ty, bx, by);
    }
}

#define U64(ptr) ((uint64_t)(uintptr_t)(ptr))

/* gpu/cambi.c submit_pass() and collect() for pass k on host planes */
static double replay_pass(const VgCambiParams *p, int k, const VgImage *in)
{
    const VgCambiPass *ps = &p->pass[k];
    const size_t n = (size_t)p->alloc_w * p->alloc_h;
    const unsigned bpc = in->bpc, down = bpc > 10 ? bpc - 10 : 0;
    uint16_t *img = alloc_dirty(n * 2), *simg[VG_CAMBI_SCALES];
    uint8_t *msk = alloc_dirty(n);
    uint32_t *tx = NULL, *ty = NULL;
    float *cval[VG_CAMBI_SCALES];
    double scores[VG_CAMBI_SCALES];
    VgCambiKernelParams kp;
    unsigned w = ps->width, h = ps->height;

    memset(&kp, 0, sizeof(kp));
    kp.pitch = p->alloc_w;
    kp.rlut = U64(p->rlut);
    kp.pad = (int32_t)(ps->window >> 1);
    kp.mask_index = ps->mask_index;
    kp.band_base = p->band_base;
    kp.band_size = p->band_size;
    kp.num_diffs = (int32_t)p->num_diffs;
    kp.vlt_luma = p->vlt_luma;
    for (unsigned d = 0; d < VG_CAMBI_MAX_DIFFS; d++) {
        kp.tvi_for_diff[d] = p->tvi_for_diff[d];
        kp.diff_weights[d] = p->diff_weights[d];
    }
    if (w != in->w[0] || h != in->h[0]) {
        tx = alloc_dirty(w * sizeof(*tx));
        ty = alloc_dirty(h * sizeof(*ty));
        vg_cambi_resize_tables(tx, ty, in->w[0], in->h[0], w, h);
    }
    kp.src = U64(in->data[0]);
    kp.src_pitch = in->stride[0];
    kp.dst = U64(img);
    kp.mdst = U64(msk);
    kp.ix = U64(tx);
    kp.iy = U64(ty);
    kp.w = (int32_t)w;
    kp.h = (int32_t)h;
    kp.in_bpc = (int32_t)bpc;
    kp.up = bpc < 10 ? 10 - (int32_t)bpc : 0;
    kp.down = (int32_t)down;
    kp.rnd = down ? 1 << (down - 1) : 0;
    kp.dither = p->enc_bitdepth < 10;
    kp.dec = p->high_res ? 1 : 0;
    if (p->high_res) {
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
    replay_prep(&kp, (int)w, (int)h);
    kp.msrc = U64(msk);
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
        VgCambiScale *e = &kp.scale[VG_CAMBI_SCALES - 1 - sc];

        kp.dec = sc > 0;
        if (kp.dec) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        kp.w = (int32_t)w;
        kp.h = (int32_t)h;
        simg[sc] = alloc_dirty((size_t)p->alloc_w * h * 2);
        cval[sc] = alloc_dirty((size_t)w * h * sizeof(float));
        kp.src = sc ? U64(simg[sc - 1]) : U64(img);
        kp.dst = U64(simg[sc]);
        replay_px(vg_cambi_decmode_px, &kp);
        e->src = U64(simg[sc]);
        e->cval = U64(cval[sc]);
        e->w = kp.w;
        e->h = kp.h;
        e->mshift = sc;
    }
    kp.n_scales = VG_CAMBI_SCALES;
    vg_cambi_cval_blocks(&kp);
    replay_cvalues(&kp);
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
        const VgCambiScale *e = &kp.scale[VG_CAMBI_SCALES - 1 - sc];

        scores[sc] = vg_cambi_pool(cval[sc], p->topk, e->w, e->h);
        free(simg[sc]);
        free(cval[sc]);
    }
    free(img);
    free(msk);
    free(tx);
    free(ty);
    return vg_cambi_score(scores, ps->window);
}

enum {
    PAT_BANDS,
    PAT_NOISE,
    PAT_FLAT
};

/* banded stripes at 10 bits (steps of 1, 2, 4 levels), then noise */
static unsigned banded(unsigned x, unsigned y, unsigned h, unsigned bw,
                       uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    switch (y * 4 / h) {
    case 0:
        return 200 + x / bw % 700;
    case 1:
        return 380 + 2 * (y / bw) % 600;
    case 2:
        return 560 + 4 * ((x + y) / (2 * bw)) % 440;
    default:
        return 64 + (*s >> 8) % 900;
    }
}

static void *plane(VgImage *img, unsigned w, unsigned h, unsigned bpc,
                   unsigned extra, int pat, unsigned bw, uint32_t seed)
{
    const unsigned bps = bpc > 8 ? 2 : 1, max = (1u << bpc) - 1;
    uint8_t *buf;

    memset(img, 0, sizeof(*img));
    img->layout = VG_LAYOUT_400;
    img->bpc = bpc;
    img->w[0] = w;
    img->h[0] = h;
    img->nb_planes = 1;
    img->stride[0] = (ptrdiff_t)(w + extra) * bps;
    buf = alloc_dirty((size_t)img->stride[0] * h);
    img->data[0] = buf;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            unsigned v;

            if (pat == PAT_FLAT) {
                v = (seed % 900 + 64) << 6 >> (16 - bpc);
            } else if (pat == PAT_NOISE) {
                seed = seed * 1664525u + 1013904223u;
                v = (seed >> 8) & max;
            } else {
                v = banded(x, y, h, bw, &seed);
                v = bpc >= 10 ? v << (bpc - 10) : v >> (10 - bpc);
            }
            if (bps == 2)
                ((uint16_t *)(buf + y * img->stride[0]))[x] = (uint16_t)v;
            else
                buf[y * img->stride[0] + x] = (uint8_t)v;
        }
    return buf;
}

typedef struct Case {
    unsigned w, h, bpc;
    int ref_pat, dis_pat; ///< dis_pat -1: dis = ref
    const char *opts;
} Case;

static void run_case(const Case *c, uint32_t seed)
{
    const VgFeatureDesc *d = vg_feature_find("cambi");
    VgCambiOptions o;
    VgOptDict dict = { 0 };
    VgCollector *col = NULL;
    int keys[3] = { -1, -1, -1 };
    VgFeatureCtx fc = { 0 };
    VgCambiParams *p = calloc(1, sizeof(*p));
    VgImage ref, dis;
    void *rb, *db;
    VgFrame frame = { .index = 0 };
    char what[256];
    int ret;

    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(p);
    snprintf(what, sizeof(what), "%ux%u %u-bit pat %d/%d \"%s\" seed %u", c->w,
             c->h, c->bpc, c->ref_pat, c->dis_pat, c->opts, seed);
    ck_assert_msg(vg_opt_dict_parse(&dict, c->opts, ':', NULL) == 0 &&
                      vg_opt_apply(d, &dict, &o, NULL) == 0,
                  "%s: options", what);
    vg_opt_dict_free(&dict);
    rb = plane(&ref, c->w, c->h, c->bpc, 3, c->ref_pat, 5, seed);
    db = c->dis_pat < 0
             ? plane(&dis, c->w, c->h, c->bpc, 0, c->ref_pat, 5, seed)
             : plane(&dis, c->w, c->h, c->bpc, 7, c->dis_pat, 11, seed * 3 + 1);
    frame.ref = &ref;
    frame.dis = &dis;

    ck_assert_int_eq(vg_collector_create(&col), 0);
    for (unsigned k = 0; k < 3; k++)
        ck_assert_int_ge(keys[k] = vg_collector_key(col, d->outputs[k].name),
                         0);
    fc.desc = d;
    fc.opts = &o;
    fc.priv = calloc(1, vg_feature_cpu(d)->priv_size);
    ck_assert_ptr_nonnull(fc.priv);
    fc.width = c->w;
    fc.height = c->h;
    fc.bpc = c->bpc;
    fc.layout = VG_LAYOUT_400;
    fc.keys = keys;
    fc.collector = col;
    /* frame 0: the CPU implementation; frame 1: the replayed kernels */
    ck_assert_msg((ret = vg_feature_cpu(d)->init(&fc)) == 0, "%s: init %d",
                  what, ret);
    ck_assert_int_eq(vg_feature_cpu(d)->extract(&fc, &frame), 0);
    ck_assert_int_eq(vg_cambi_setup(p, &o, c->w, c->h, c->bpc, NULL), 0);
    {
        double dist = 0.0, src = 0.0;

        if (!p->all_zero) {
            dist = replay_pass(p, 0, &dis);
            if (p->full_ref)
                src = replay_pass(p, 1, &ref);
        }
        ck_assert_int_eq(vg_cambi_emit(&fc, p, 1, dist, src), 0);
    }
    for (unsigned k = 0; k < (o.full_ref ? 3u : 1u); k++) {
        double a, b;

        ck_assert_int_eq(vg_collector_get(col, keys[k], 0, &a), 0);
        ck_assert_int_eq(vg_collector_get(col, keys[k], 1, &b), 0);
        ck_assert_msg(!memcmp(&a, &b, sizeof(a)),
                      "%s: %s: CPU %.17g, "
                      "kernel code %.17g",
                      what, d->outputs[k].name, a, b);
    }
    vg_feature_cpu(d)->close(&fc);
    free(fc.priv);
    free(p);
    vg_collector_destroy(&col);
    free(rb);
    free(db);
}

static const struct {
    unsigned w, h;
} sizes[] = {
    { 216, 216 }, { 217, 219 }, { 300, 216 },
    { 216, 301 }, { 577, 323 }, { 1000, 216 },
};
static const unsigned depths[] = { 8, 9, 10, 12, 16 };
static const int pairs[][2] = {
    { PAT_BANDS, PAT_BANDS },
    { PAT_BANDS, -1 },
    { PAT_NOISE, PAT_BANDS },
    { PAT_FLAT, PAT_NOISE },
};
static const char *const opts[] = {
    "",
    "full_ref=true",
    "window_size=15:topk=0.1:tvi_threshold=0.05",
    "max_log_contrast=5:cambi_vis_lum_threshold=10:eotf=pq",
    "max_log_contrast=0:topk=1:cambi_max_val=5",
    "enc_width=216:enc_height=200:enc_bitdepth=8",
    "full_ref=true:src_width=320:src_height=320:enc_width=216:"
    "enc_height=210:window_size=127",
    "enc_bitdepth=6:max_log_contrast=3:tvi_threshold=0.01:cambi_eotf=pq",
    "window_size=127:topk=0.0001:max_log_contrast=4",
    "cambi_vis_lum_threshold=300",
};

START_TEST(small_sizes)
{
    const unsigned d = depths[_i];
    uint32_t seed = 1000 + _i;

    for (unsigned z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
        for (unsigned k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
            const unsigned oi =
                (z * 4 + k + _i) % (sizeof(opts) / sizeof(opts[0]));
            const Case c = { sizes[z].w,  sizes[z].h,  d,
                             pairs[k][0], pairs[k][1], opts[oi] };

            run_case(&c, seed++);
        }
}
END_TEST

START_TEST(every_option)
{
    for (unsigned k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
        const Case c = { 241,       223,       depths[(k + _i) % 5],
                         PAT_BANDS, PAT_BANDS, opts[k] };

        run_case(&c, 50 + k);
    }
}
END_TEST

START_TEST(large_sizes)
{
    static const Case cases[] = {
        { 1920, 1080, 10, PAT_BANDS, PAT_BANDS,
          "cambi_high_res_speedup=1080:full_ref=true:cambi_topk=0.3" },
        { 1920, 1080, 8, PAT_BANDS, PAT_BANDS, "" },
    };

    run_case(&cases[_i], 77 + _i);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cambi_block");
    TCase *tc = tcase_create("replay");

    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, small_sizes, 0, sizeof(depths) / sizeof(depths[0]));
    tcase_add_loop_test(tc, every_option, 0, 1);
    tcase_add_loop_test(tc, large_sizes, 0, 2);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
