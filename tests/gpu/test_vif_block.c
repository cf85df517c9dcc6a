/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The block code of the CUDA VIF kernels (gpu/vif_block.h) run on the
 * host, without a GPU: every launch of gpu/vif.c is replayed block by
 * block, each phase for every thread of the block before the next phase
 * (what the kernel's barriers guarantee), on a tile filled with garbage
 * first, and the resulting accumulators are emitted through
 * vg_vif_emit(). All 15 outputs (debug=true) must equal, bit for bit,
 * those of the CPU implementation (cpu/vif.c) on the same pictures:
 * 8, 9, 10, 12 and 16 bits; sizes from the smallest accepted 16x16 to
 * 1920x1080, odd and unaligned sizes and pitches; smooth, noisy,
 * flat, maximum and checkerboard pictures, ref == dis, small
 * distortions; vif_enhn_gain_limit and vif_skip_scale0.
 *
 * This catches the arithmetic and indexing of the kernels (tiles, halos,
 * mirrors, rounding, down-sampling); the device-specific parts (barriers,
 * the block reduction and atomics, the device's double intrinsics) are
 * checked on a GPU by tests/checkasm (checkasm.c, api.c).
 */

#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/collector.h"
#include "common/feature.h"
#include "common/features/vif.h"
#include "gpu/vif_block.h"
#include "common/features/vif_params.h"
#include "tests/unit/adm_synth.h"
#include "tests/check_run.h"

/* PAT_NOISE .. PAT_MAX of adm_synth.h, then: */
enum {
    PAT_NEAR = 100
}; ///< dis only: ref plus uniform [-4, 4] * 2^(bpc-8)

/* tiles loaded by vg_vif_stat_load_inside(), vg_vif_ds_load_inside() */
static unsigned long n_inside, n_ds_inside;

/* one launch of gpu/vif.c vif_cuda_submit(), block by block */
static void replay_launch(unsigned sc, unsigned bps, const VgVifParams *p,
                          VgVifSums *tot)
{
    static VgVifTile t;
    const unsigned fw = vg_vif_taps_len[sc];
    unsigned gx, gy, gz;

    const unsigned rd = p->stage == VG_VIF_STAGE_READ;

    vg_vif_grid(p, &gx, &gy, &gz);
    for (unsigned z = 0; z < gz; z++) {
        for (unsigned by = 0; by < gy; by++) {
            for (unsigned bx = 0; bx < gx; bx++) {
                memset(&t, 0xa5, sizeof(t));
                if (z == 0) {
                    const unsigned bx0 = bx * VG_VIF_TW, by0 = by * VG_VIF_TH;
                    if (!p->stat || bx0 >= p->w || by0 >= p->h)
                        continue;
                    /* the kernel's choice, uniform per block */
                    if (!vg_vif_stat_load_inside(&t.st, 0, p, fw / 2, bps, bx0,
                                                 by0)) {
                        for (unsigned tid = 0; tid < VG_VIF_NT; tid++)
                            vg_vif_stat_load(&t.st, tid, p, fw / 2, bps, bx0,
                                             by0);
                    } else {
                        n_inside++;
                        for (unsigned tid = 1; tid < VG_VIF_NT; tid++)
                            vg_vif_stat_load_inside(&t.st, tid, p, fw / 2, bps,
                                                    bx0, by0);
                    }
                    for (unsigned tid = 0; tid < VG_VIF_NT; tid++)
                        vg_vif_stat_vert(&t.st, tid, fw, sc, bps == 1, p->bpc,
                                         rd);
                    for (unsigned tid = 0; tid < VG_VIF_NT; tid++) {
                        VgVifSums s = { 0, 0, 0, 0 };
                        vg_vif_stat_horiz(&t.st, tid, p, fw, sc, bx0, by0, rd,
                                          &s);
                        tot->num_log += s.num_log;
                        tot->den_log += s.den_log;
                        tot->num_non_log += s.num_non_log;
                        tot->den_non_log += s.den_non_log;
                    }
                } else {
                    const unsigned ts = sc + 1, dfw = vg_vif_taps_len[ts];
                    const unsigned bx0 = bx * VG_VIF_DW, by0 = by * VG_VIF_DH;
                    if (!p->ddis || bx0 >= p->dw || by0 >= p->dh)
                        continue;
                    if (!vg_vif_ds_load_inside(&t.ds, 0, p, dfw / 2, bps, bx0,
                                               by0)) {
                        for (unsigned tid = 0; tid < VG_VIF_NT; tid++)
                            vg_vif_ds_load(&t.ds, tid, p, dfw / 2, bps, bx0,
                                           by0);
                    } else {
                        n_ds_inside++;
                        for (unsigned tid = 1; tid < VG_VIF_NT; tid++)
                            vg_vif_ds_load_inside(&t.ds, tid, p, dfw / 2, bps,
                                                  bx0, by0);
                    }
                    for (unsigned tid = 0; tid < VG_VIF_NT; tid++)
                        vg_vif_ds_vert(&t.ds, tid, dfw, ts, sc ? 16 : p->bpc,
                                       rd);
                    for (unsigned tid = 0; tid < VG_VIF_NT; tid++)
                        vg_vif_ds_horiz(&t.ds, tid, p, dfw, ts, bx0, by0, rd);
                }
            }
        }
    }
}

/* a ladder's reference stage (gpu/vif.c) in host memory: the
 * reference's terms of each scale, its pictures of scales 1..3 */
typedef struct Stage {
    uint32_t role; ///< VG_VIF_STAGE_WRITE or VG_VIF_STAGE_READ
    void *rterm[4];
    int64_t rterm_pitch[4];
    uint16_t *img[4];
} Stage;

/* the rows of the pictures of scales 1..3: as gpu/vif.c aligns them when
 * the input's are aligned, else an odd number of samples per row */
static int64_t pyramid_pitch(const VgImage *ref, const VgImage *dis, unsigned w)
{
    return ref->stride[0] % 64 || dis->stride[0] % 64
               ? ((int64_t)w | 1) * 2 + 2
               : ((int64_t)w * 2 + 255) & ~(int64_t)255;
}

static void stage_alloc(Stage *st, const VgImage *ref, const VgImage *dis)
{
    memset(st, 0, sizeof(*st));
    for (unsigned sc = 0; sc < 4; sc++) {
        const unsigned w = ref->w[0] >> sc, h = ref->h[0] >> sc;

        st->rterm_pitch[sc] = ((int64_t)w * 8 + 255) & ~(int64_t)255;
        st->rterm[sc] = malloc((size_t)st->rterm_pitch[sc] * h);
        ck_assert_ptr_nonnull(st->rterm[sc]);
        memset(st->rterm[sc], 0x3c, (size_t)st->rterm_pitch[sc] * h);
        if (sc) {
            const size_t n = (size_t)pyramid_pitch(ref, dis, w) * h;
            st->img[sc] = malloc(n);
            ck_assert_ptr_nonnull(st->img[sc]);
            memset(st->img[sc], 0x3c, n);
        }
    }
}

static void stage_free(Stage *st)
{
    for (unsigned sc = 0; sc < 4; sc++) {
        free(st->rterm[sc]);
        free(st->img[sc]);
    }
}

/* gpu/vif.c vif_cuda_submit() on host buffers, in a ladder's stage when
 * st is not NULL */
static void replay_frame(const VgImage *ref, const VgImage *dis,
                         const VgVifOptions *o, const Stage *st,
                         VgVifAccum acc[4])
{
    const unsigned bpc = ref->bpc;
    uint16_t *img[4][2] = { { NULL } };
    int64_t pitch[4] = { 0 };
    unsigned w[4], h[4];

    for (unsigned sc = 0; sc < 4; sc++) {
        w[sc] = ref->w[0] >> sc;
        h[sc] = ref->h[0] >> sc;
        if (sc) {
            pitch[sc] = pyramid_pitch(ref, dis, w[sc]);
            for (unsigned q = 0; q < 2; q++) {
                img[sc][q] = malloc((size_t)pitch[sc] * h[sc]);
                ck_assert_ptr_nonnull(img[sc][q]);
                memset(img[sc][q], 0x5a, (size_t)pitch[sc] * h[sc]);
            }
        }
    }
    for (unsigned sc = 0; sc < 4; sc++) {
        VgVifParams p = {
            .w = w[sc],
            .h = h[sc],
            .bpc = bpc,
            .stat = sc || !o->vif_skip_scale0,
            .log2 = (uint64_t)(uintptr_t)vg_vif_log2_table(),
            .egl = o->vif_enhn_gain_limit,
        };
        VgVifSums s = { 0, 0, 0, 0 };

        if (st) {
            p.stage = st->role;
            p.rterm = (uint64_t)(uintptr_t)st->rterm[sc];
            p.rterm_pitch = st->rterm_pitch[sc];
        }
        if (sc) {
            p.ref = (uint64_t)(uintptr_t)(st ? st->img[sc] : img[sc][0]);
            p.dis = (uint64_t)(uintptr_t)img[sc][1];
            p.ref_pitch = p.dis_pitch = pitch[sc];
        } else {
            p.ref = (uint64_t)(uintptr_t)ref->data[0];
            p.dis = (uint64_t)(uintptr_t)dis->data[0];
            p.ref_pitch = ref->stride[0];
            p.dis_pitch = dis->stride[0];
        }
        if (sc < 3) {
            p.dref =
                (uint64_t)(uintptr_t)(st ? st->img[sc + 1] : img[sc + 1][0]);
            p.ddis = (uint64_t)(uintptr_t)img[sc + 1][1];
            p.dpitch = pitch[sc + 1];
            p.dw = w[sc + 1];
            p.dh = h[sc + 1];
        }
        replay_launch(sc, sc || bpc > 8 ? 2 : 1, &p, &s);
        acc[sc].num_log = s.num_log;
        acc[sc].den_log = s.den_log;
        acc[sc].num_non_log = s.num_non_log;
        acc[sc].den_non_log = s.den_non_log;
    }
    for (unsigned sc = 1; sc < 4; sc++)
        for (unsigned q = 0; q < 2; q++)
            free(img[sc][q]);
}

typedef struct Case {
    unsigned w, h, bpc;
    int ref_pat, dis_pat; ///< dis_pat -1: dis = ref
    double egl;
    int ssclz;
    int stage; ///< also replay a ladder's rendition reading the stage
} Case;

static void *plane(VgImage *img, unsigned w, unsigned h, unsigned bpc,
                   unsigned extra)
{
    const unsigned bps = bpc > 8 ? 2 : 1;
    void *buf;

    memset(img, 0, sizeof(*img));
    img->layout = VG_LAYOUT_400;
    img->bpc = bpc;
    img->w[0] = w;
    img->h[0] = h;
    img->nb_planes = 1;
    /* extra 0: rows of a multiple of 64 bytes */
    img->stride[0] = extra ? (ptrdiff_t)(w + extra) * bps
                           : ((ptrdiff_t)w * bps + 63) & ~(ptrdiff_t)63;
    buf = calloc(h, (size_t)img->stride[0]);
    ck_assert_ptr_nonnull(buf);
    img->data[0] = buf;
    return buf;
}

static void run_case(const Case *c, uint32_t seed)
{
    const VgFeatureDesc *d = vg_feature_find("vif");
    const unsigned bps = c->bpc > 8 ? 2 : 1;
    const uint32_t max = (1u << c->bpc) - 1;
    VgVifOptions o = {
        .debug = true,
        .vif_enhn_gain_limit = c->egl,
        .vif_skip_scale0 = c->ssclz,
    };
    VgCollector *col = NULL;
    int keys[15];
    VgFeatureCtx fc = { 0 };
    VgImage ref, dis;
    VgVifAccum acc[4];
    /* sizes whose width and height are both even or both odd get aligned
     * rows, which the kernels load in words; the others odd pitches */
    const int aligned = !((c->w ^ c->h) & 1);
    void *rb = plane(&ref, c->w, c->h, c->bpc, aligned ? 0 : 3);
    void *db = plane(&dis, c->w, c->h, c->bpc, aligned ? 0 : 5);
    const unsigned long inside0 = n_inside, ds_inside0 = n_ds_inside;
    VgFrame frame = { .index = 0, .ref = &ref, .dis = &dis };
    char what[160];

    snprintf(what, sizeof(what),
             "%ux%u %u-bit pat %d/%d egl %g ssclz %d "
             "seed %u",
             c->w, c->h, c->bpc, c->ref_pat, c->dis_pat, c->egl, c->ssclz,
             seed);
    adm_synth(rb, ref.stride[0], c->w, c->h, c->bpc, c->ref_pat, seed);
    if (c->dis_pat < 0) {
        for (unsigned i = 0; i < c->h; i++)
            memcpy((uint8_t *)db + i * dis.stride[0],
                   (uint8_t *)rb + i * ref.stride[0], (size_t)c->w * bps);
    } else if (c->dis_pat == PAT_NEAR) {
        uint32_t s = seed ^ 0x9e3779b9u;
        const int32_t unit = (int32_t)((max + 1) >> 8);
        for (unsigned i = 0; i < c->h; i++) {
            for (unsigned j = 0; j < c->w; j++) {
                int64_t v =
                    bps == 1
                        ? ((uint8_t *)rb)[i * ref.stride[0] + j]
                        : ((uint16_t *)((uint8_t *)rb + i * ref.stride[0]))[j];
                v += ((int32_t)(adm_synth_lcg(&s) % 9) - 4) * unit;
                v = v < 0 ? 0 : v > max ? max : v;
                if (bps == 1)
                    ((uint8_t *)db)[i * dis.stride[0] + j] = (uint8_t)v;
                else
                    ((uint16_t *)((uint8_t *)db + i * dis.stride[0]))[j] =
                        (uint16_t)v;
            }
        }
    } else {
        adm_synth(db, dis.stride[0], c->w, c->h, c->bpc, c->dis_pat,
                  seed * 2654435761u + 1);
    }

    ck_assert_int_eq(vg_collector_create(&col), 0);
    for (unsigned k = 0; k < 15; k++)
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
    ck_assert_int_eq(vg_feature_cpu(d)->init(&fc), 0);
    ck_assert_int_eq(vg_feature_cpu(d)->extract(&fc, &frame), 0);
    replay_frame(&ref, &dis, &o, NULL, acc);
    /* scale 0's statistic tile at (32, 32) needs no mirroring from 72 x 72
     * on, its down-sampling tile at (32, 8) from 132 x 35 */
    if (aligned && !c->ssclz && c->w >= 72 && c->h >= 72)
        ck_assert_msg(n_inside > inside0,
                      "%s: no statistic tile loaded in "
                      "words",
                      what);
    if (aligned && c->w >= 132 && c->h >= 35)
        ck_assert_msg(n_ds_inside > ds_inside0,
                      "%s: no down-sampling tile "
                      "loaded in words",
                      what);
    ck_assert_int_eq(vg_vif_emit(&fc, 1, acc), 0);
    /* a ladder: rendition 0 (the reference itself as its distorted
     * picture) writes the stage, the pair's distorted picture reads it;
     * its sums are the pair's */
    if (c->stage) {
        Stage st;
        VgVifAccum acc0[4], acc1[4];

        stage_alloc(&st, &ref, &dis);
        st.role = VG_VIF_STAGE_WRITE;
        replay_frame(&ref, &ref, &o, &st, acc0);
        st.role = VG_VIF_STAGE_READ;
        replay_frame(&ref, &dis, &o, &st, acc1);
        for (unsigned sc = 0; sc < 4; sc++)
            ck_assert_msg(!memcmp(&acc[sc], &acc1[sc], sizeof(acc[sc])),
                          "%s: scale %u: the sums read from a ladder's "
                          "stage differ from the pair's",
                          what, sc);
        stage_free(&st);
    }
    for (unsigned k = 0; k < 15; k++) {
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
    vg_collector_destroy(&col);
    free(rb);
    free(db);
}

static const struct {
    unsigned w, h;
} sizes[] = {
    { 16, 16 }, { 17, 19 }, { 16, 47 },  { 47, 16 },  { 31, 33 },
    { 33, 17 }, { 67, 35 }, { 100, 75 }, { 129, 64 }, { 257, 131 },
};
static const unsigned depths[] = { 8, 9, 10, 12, 16 };
static const int pairs[][2] = {
    { PAT_SMOOTH, PAT_NEAR },   { PAT_NOISE, PAT_NOISE },
    { PAT_SMOOTH, -1 },         { PAT_SMOOTH, PAT_FLAT },
    { PAT_CHECKER, PAT_MAX },   { PAT_MAX, PAT_NOISE },
    { PAT_CHECKER, PAT_NOISE }, { PAT_SMOOTH, PAT_SMOOTH },
};

START_TEST(small_sizes)
{
    const unsigned d = depths[_i];
    uint32_t seed = 1000 + _i;

    for (unsigned z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
        for (unsigned k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
            const Case c = { sizes[z].w,
                             sizes[z].h,
                             d,
                             pairs[k][0],
                             pairs[k][1],
                             (z + k) % 5 == 1 ? 1.0 : 100.0,
                             (z + k) % 7 == 3,
                             (z + k) % 2 == 0 };
            run_case(&c, seed++);
        }
    }
}
END_TEST

START_TEST(large_sizes)
{
    static const Case cases[] = {
        { 640, 360, 8, PAT_SMOOTH, PAT_NEAR, 100.0, 0, 1 },
        { 641, 360, 10, PAT_SMOOTH, PAT_NEAR, 100.0, 0, 1 },
        { 640, 360, 12, PAT_NOISE, PAT_SMOOTH, 100.0, 0, 0 },
        { 639, 360, 16, PAT_CHECKER, PAT_NOISE, 100.0, 0, 1 },
        { 1920, 1080, 8, PAT_SMOOTH, PAT_NEAR, 100.0, 0, 1 },
        { 1920, 1080, 16, PAT_SMOOTH, PAT_NEAR, 100.0, 0, 0 },
    };

    run_case(&cases[_i], 77 + _i);
}
END_TEST

/*
 * The double arithmetic of the squares' sums, as the device runs it
 * (gpu/vif_block.h builds the host's doubles from the same bits): every
 * integer below 2^32 through vg_vif_u2d(), and vg_vif_d_rnd() against the
 * integer rounding for every shift on sums up to 2^48 - 1.
 */
START_TEST(double_sums)
{
    uint32_t seed = 0x5eed;
    unsigned long bad = 0;

    for (uint64_t v = 0; v < ((uint64_t)1 << 32); v += 65521)
        bad += vg_vif_u2d((uint32_t)v) != (double)v;
    bad += vg_vif_u2d(UINT32_MAX) != 4294967295.0;
    for (unsigned n = 0; n < 1000000; n++) {
        /* 48 random bits (two 24-bit draws): uniform, then small, then
         * near the top */
        const uint64_t x =
            (uint64_t)adm_synth_lcg(&seed) << 24 | adm_synth_lcg(&seed);
        const uint64_t s = n % 3 == 0   ? x
                           : n % 3 == 1 ? x >> x % 48
                                        : ((uint64_t)1 << 48) - 1 - (x >> 24);
        for (unsigned sh = 0; sh <= 16; sh++) {
            const uint64_t rnd = sh ? (uint64_t)1 << (sh - 1) : 0;
            const uint32_t want = (uint32_t)((s + rnd) >> sh);
            const uint32_t got = vg_vif_d_rnd((double)s, sh);

            if (got != want && !bad++)
                fprintf(stderr,
                        "vg_vif_d_rnd(%" PRIu64 ", %u) = %" PRIu32
                        ", want %" PRIu32 "\n",
                        s, sh, got, want);
        }
    }
    ck_assert_uint_eq(bad, 0);
}
END_TEST

/* what the horizontal pass's folded sums rely on */
START_TEST(symmetric_taps)
{
    for (unsigned sc = 0; sc < 4; sc++) {
        const unsigned fw = vg_vif_taps_len[sc];
        unsigned sum = 0;

        for (unsigned k = 0; k < fw; k++) {
            ck_assert_uint_eq(vg_vif_ktaps[sc][k],
                              vg_vif_ktaps[sc][fw - 1 - k]);
            ck_assert(vg_vif_dtaps[sc][k] == (double)vg_vif_ktaps[sc][k]);
            sum += vg_vif_ktaps[sc][k];
        }
        ck_assert_uint_eq(sum, 65536);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("vif_block");
    TCase *tc = tcase_create("replay");

    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, symmetric_taps);
    tcase_add_test(tc, double_sums);
    tcase_add_loop_test(tc, small_sizes, 0, sizeof(depths) / sizeof(depths[0]));
    tcase_add_loop_test(tc, large_sizes, 0, 6);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
