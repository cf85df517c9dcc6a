/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * ciede (cpu/ciede.c) on synthetic pictures through the public API: the
 * refusals, and what odd sizes compute (common/features/ciede.c): libvmaf
 * has no score there, so instead of a golden the chroma each luma pixel
 * takes is checked against the same pair as 4:4:4 with that chroma
 * written out, against an even crop, and for independence of the samples
 * it must not read.
 */

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "tests/check_run.h"

static char last_error[1024];

static void capture_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    (void)opaque;
    const size_t n = strlen(last_error);

    /* every error line of the call: the feature's, then the engine's */
    if (level == VG_LOG_ERROR)
        snprintf(last_error + n, sizeof(last_error) - n, "%s\n", msg);
}

static VgContext *make_ctx(void)
{
    VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .log_level = VG_LOG_WARNING,
        .log_cb = capture_log,
    };
    VgContext *ctx = NULL;

    ck_assert_int_eq(vg_context_create(&ctx, &cfg), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "ciede", NULL), 0);
    return ctx;
}

/* A planar API picture (ceil-sized chroma, as the API takes it), each row
 * followed by `pad` samples of `fill` (rows stay aligned to the sample). */
typedef struct Pic {
    VgPicture pic;
    unsigned w[3], h[3];
    uint8_t *buf[3];
} Pic;

static void pic_alloc(Pic *p, enum VgPixFmt fmt, unsigned w, unsigned h,
                      unsigned bpc, unsigned pad, uint8_t fill)
{
    const unsigned bps = bpc > 8 ? 2 : 1;
    const unsigned ssx = fmt != VG_PIX_FMT_YUV444P,
                   ssy = fmt == VG_PIX_FMT_YUV420P;

    memset(p, 0, sizeof(*p));
    p->pic =
        (VgPicture){ .fmt = fmt, .width = w, .height = h, .bitdepth = bpc };
    for (unsigned i = 0; i < 3; i++) {
        p->w[i] = i ? (w + ssx) >> ssx : w;
        p->h[i] = i ? (h + ssy) >> ssy : h;
        p->pic.stride[i] = (ptrdiff_t)((p->w[i] + pad) * bps);
        p->buf[i] = malloc((size_t)p->pic.stride[i] * p->h[i]);
        ck_assert_ptr_nonnull(p->buf[i]);
        memset(p->buf[i], fill, (size_t)p->pic.stride[i] * p->h[i]);
        p->pic.data[i] = p->buf[i];
    }
}

static void pic_free(Pic *p)
{
    for (unsigned i = 0; i < 3; i++)
        free(p->buf[i]);
}

static void put(Pic *p, unsigned pl, unsigned x, unsigned y, unsigned v)
{
    uint8_t *row = p->buf[pl] + (size_t)y * p->pic.stride[pl];

    if (p->pic.bitdepth > 8)
        ((uint16_t *)row)[x] = (uint16_t)v;
    else
        row[x] = (uint8_t)v;
}

static unsigned get(const Pic *p, unsigned pl, unsigned x, unsigned y)
{
    const uint8_t *row = p->buf[pl] + (size_t)y * p->pic.stride[pl];

    return p->pic.bitdepth > 8 ? ((const uint16_t *)row)[x] : row[x];
}

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* samples of a plausible picture: values around the middle, noisy */
static void pic_fill(Pic *p, uint32_t seed)
{
    const unsigned bpc = p->pic.bitdepth, max = (1u << bpc) - 1;

    for (unsigned pl = 0; pl < 3; pl++)
        for (unsigned y = 0; y < p->h[pl]; y++)
            for (unsigned x = 0; x < p->w[pl]; x++)
                put(p, pl, x, y,
                    (((x * 5 + y * 3) << (bpc - 8)) +
                     (rnd(&seed) & (max >> 2))) &
                        max);
}

/* the score of one frame, or the submit's error */
static int score(const Pic *ref, const Pic *dis, double *s)
{
    VgContext *ctx = make_ctx();
    int ret = vg_submit(ctx, &ref->pic, &dis->pic);

    if (!ret)
        ret = vg_flush(ctx);
    if (!ret)
        ret = vg_get_score(ctx, "ciede2000", 0, s);
    vg_context_destroy(&ctx);
    return ret;
}

static double score_ok(const Pic *ref, const Pic *dis)
{
    double s = 0;
    const int ret = score(ref, dis, &s);

    ck_assert_msg(ret == 0, "ciede failed: %d (%s)", ret, last_error);
    ck_assert_msg(isfinite(s), "score %g", s);
    return s;
}

/* the 4:4:4 picture with, at each luma pixel, the chroma common/features/
 * ciede.c gives it: 4:2:0 (x >> 1, y >> 1) within the floor-sized plane */
static void as_444_from_420(Pic *out, const Pic *in, unsigned pad, uint8_t fill)
{
    const unsigned w = in->pic.width, h = in->pic.height;
    const unsigned cw = w >> 1, ch = h >> 1;

    pic_alloc(out, VG_PIX_FMT_YUV444P, w, h, in->pic.bitdepth, pad, fill);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const unsigned cx = (x >> 1) < cw ? x >> 1 : cw - 1;
            const unsigned cy = (y >> 1) < ch ? y >> 1 : ch - 1;
            put(out, 0, x, y, get(in, 0, x, y));
            put(out, 1, x, y, get(in, 1, cx, cy));
            put(out, 2, x, y, get(in, 2, cx, cy));
        }
    }
}

/* 4:2:2 as libvmaf's ciede.c walks it: sample (y >> 1) * s + x of rows of
 * s = align32(cw) samples, zero past the chroma width */
static void as_444_from_422(Pic *out, const Pic *in)
{
    const unsigned w = in->pic.width, h = in->pic.height;
    const unsigned cw = w >> 1, s = (cw + 31) & ~31u;

    pic_alloc(out, VG_PIX_FMT_YUV444P, w, h, in->pic.bitdepth, 0, 0);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const unsigned k = (y >> 1) * s + x;
            unsigned r = k / s, c = k % s;
            if (r >= h)
                r = h - 1;
            put(out, 0, x, y, get(in, 0, x, y));
            put(out, 1, x, y, c < cw ? get(in, 1, c, r) : 0);
            put(out, 2, x, y, c < cw ? get(in, 2, c, r) : 0);
        }
    }
}

START_TEST(test_refusals)
{
    static const struct {
        enum VgPixFmt fmt;
        unsigned w, h, bpc;
        const char *expect;
    } cases[] = {
        { VG_PIX_FMT_YUV400P, 16, 16, 8, "4:0:0 (gray) input has none" },
        { VG_PIX_FMT_YUV444P, 16, 16, 9, "unsupported bit depth 9" },
        { VG_PIX_FMT_YUV420P, 16, 16, 11, "unsupported bit depth 11" },
        { VG_PIX_FMT_YUV422P, 16, 16, 14, "unsupported bit depth 14" },
        { VG_PIX_FMT_YUV420P, 1, 16, 8,
          "1x16 4:2:0 has an empty chroma plane" },
        { VG_PIX_FMT_YUV420P, 16, 1, 8,
          "16x1 4:2:0 has an empty chroma plane" },
        { VG_PIX_FMT_YUV422P, 1, 5, 10, "1x5 4:2:2 has an empty chroma plane" },
    };
    VgContext *ctx;

    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        Pic a;
        double s;
        pic_alloc(&a, cases[i].fmt, cases[i].w, cases[i].h, cases[i].bpc, 0, 0);
        last_error[0] = 0;
        ck_assert_int_eq(score(&a, &a, &s), -EINVAL);
        ck_assert_msg(strstr(last_error, cases[i].expect) != NULL,
                      "case %u: \"%s\", want \"%s\"", i, last_error,
                      cases[i].expect);
        pic_free(&a);
    }
    /* no options: any is refused */
    ctx = make_ctx();
    last_error[0] = 0;
    ck_assert_int_eq(vg_use_feature(ctx, "ciede", "enable_chroma=true"),
                     -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "no option 'enable_chroma'"));
    vg_context_destroy(&ctx);
}
END_TEST

/* what still works at the edges: 1x1 4:4:4, 2x1 4:2:2, 2x2 4:2:0, and equal
 * pictures score +inf (sum 0), as ciede.c's 45 - 20 log10(0) */
START_TEST(test_tiny_and_equal)
{
    static const struct {
        enum VgPixFmt fmt;
        unsigned w, h, bpc;
    } cases[] = {
        { VG_PIX_FMT_YUV444P, 1, 1, 8 },
        { VG_PIX_FMT_YUV422P, 2, 1, 10 },
        { VG_PIX_FMT_YUV420P, 2, 2, 16 },
        { VG_PIX_FMT_YUV420P, 3, 3, 12 },
    };

    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        Pic a, b;
        double s = 0;
        pic_alloc(&a, cases[i].fmt, cases[i].w, cases[i].h, cases[i].bpc, 3, 0);
        pic_alloc(&b, cases[i].fmt, cases[i].w, cases[i].h, cases[i].bpc, 5,
                  0xff);
        pic_fill(&a, 1 + i);
        pic_fill(&b, 1 + i);
        ck_assert_int_eq(score(&a, &b, &s), 0);
        ck_assert_msg(isinf(s) && s > 0, "case %u: equal pictures score %g", i,
                      s);
        pic_fill(&b, 100 + i);
        (void)score_ok(&a, &b);
        pic_free(&a);
        pic_free(&b);
    }
}
END_TEST

/*
 * Odd 4:2:0 sizes: the score equals that of the same pair as 4:4:4 with
 * the documented chroma written out; it is the same whatever the stride
 * padding and the API's last (ceil) chroma row and column hold, which the
 * floor-sized internal planes drop.
 */
START_TEST(test_odd_420_defined)
{
    static const struct {
        unsigned w, h, bpc;
    } sizes[] = {
        { 577, 323, 8 }, { 33, 17, 10 }, { 3, 5, 8 },
        { 64, 33, 12 },  { 65, 34, 16 }, { 66, 34, 8 },
    };

    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const unsigned w = sizes[i].w, h = sizes[i].h, bpc = sizes[i].bpc;
        Pic r, d, r2, d2, r4, d4;
        double s, s2, s4;

        pic_alloc(&r, VG_PIX_FMT_YUV420P, w, h, bpc, 0, 0);
        pic_alloc(&d, VG_PIX_FMT_YUV420P, w, h, bpc, 0, 0);
        pic_alloc(&r2, VG_PIX_FMT_YUV420P, w, h, bpc, 40, 0xa5);
        pic_alloc(&d2, VG_PIX_FMT_YUV420P, w, h, bpc, 24, 0x5a);
        pic_fill(&r, 7 * i + 1);
        pic_fill(&d, 7 * i + 2);
        pic_fill(&r2, 7 * i + 1);
        pic_fill(&d2, 7 * i + 2);
        /* other values in the ceil chroma row and column */
        for (unsigned pl = 1; pl < 3; pl++) {
            if (w & 1)
                for (unsigned y = 0; y < r2.h[pl]; y++)
                    put(&d2, pl, r2.w[pl] - 1, y, y & 1);
            if (h & 1)
                for (unsigned x = 0; x < r2.w[pl]; x++)
                    put(&r2, pl, x, r2.h[pl] - 1, (1u << bpc) - 1 - (x & 7));
        }
        as_444_from_420(&r4, &r, 8, 0x33);
        as_444_from_420(&d4, &d, 0, 0);

        s = score_ok(&r, &d);
        s2 = score_ok(&r2, &d2);
        s4 = score_ok(&r4, &d4);
        ck_assert_msg(s == score_ok(&r, &d), "%ux%u: not deterministic", w, h);
        ck_assert_msg(s == s2,
                      "%ux%u %u-bit: %.17g, with other padding and "
                      "ceil chroma %.17g",
                      w, h, bpc, s, s2);
        ck_assert_msg(s == s4, "%ux%u %u-bit: 4:2:0 %.17g, as 4:4:4 %.17g", w,
                      h, bpc, s, s4);
        pic_free(&r);
        pic_free(&d);
        pic_free(&r2);
        pic_free(&d2);
        pic_free(&r4);
        pic_free(&d4);
    }
}
END_TEST

/*
 * Odd 4:2:0 against its even crop: when the last row and column are equal
 * in both pictures (luma and the last chroma row and column), they add
 * +0 to the sum, which is then the crop's exactly; the scores differ only
 * by the pixel count: s_odd - s_crop = 20 log10(w h / ((w - 1)(h - 1))).
 */
START_TEST(test_odd_420_vs_even_crop)
{
    static const struct {
        unsigned w, h, bpc;
    } sizes[] = { { 577, 323, 8 }, { 33, 17, 10 }, { 65, 35, 16 } };

    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const unsigned w = sizes[i].w, h = sizes[i].h, bpc = sizes[i].bpc;
        Pic r, d, rc, dc;
        double s, sc, want;

        pic_alloc(&r, VG_PIX_FMT_YUV420P, w, h, bpc, 0, 0);
        pic_alloc(&d, VG_PIX_FMT_YUV420P, w, h, bpc, 0, 0);
        pic_fill(&r, 3 * i + 1);
        pic_fill(&d, 3 * i + 2);
        for (unsigned x = 0; x < w; x++)
            put(&d, 0, x, h - 1, get(&r, 0, x, h - 1));
        for (unsigned y = 0; y < h; y++)
            put(&d, 0, w - 1, y, get(&r, 0, w - 1, y));
        for (unsigned pl = 1; pl < 3; pl++) {
            const unsigned cw = w >> 1, ch = h >> 1;
            for (unsigned x = 0; x < cw; x++)
                put(&d, pl, x, ch - 1, get(&r, pl, x, ch - 1));
            for (unsigned y = 0; y < ch; y++)
                put(&d, pl, cw - 1, y, get(&r, pl, cw - 1, y));
        }
        pic_alloc(&rc, VG_PIX_FMT_YUV420P, w - 1, h - 1, bpc, 0, 0);
        pic_alloc(&dc, VG_PIX_FMT_YUV420P, w - 1, h - 1, bpc, 0, 0);
        for (unsigned pl = 0; pl < 3; pl++) {
            for (unsigned y = 0; y < rc.h[pl]; y++) {
                for (unsigned x = 0; x < rc.w[pl]; x++) {
                    put(&rc, pl, x, y, get(&r, pl, x, y));
                    put(&dc, pl, x, y, get(&d, pl, x, y));
                }
            }
        }
        s = score_ok(&r, &d);
        sc = score_ok(&rc, &dc);
        want = 20. * log10((double)w * h / ((double)(w - 1) * (h - 1)));
        ck_assert_msg(fabs((s - sc) - want) < 1e-9,
                      "%ux%u: odd %.17g, crop "
                      "%.17g: difference %.17g, want %.17g",
                      w, h, s, sc, s - sc, want);
        pic_free(&r);
        pic_free(&d);
        pic_free(&rc);
        pic_free(&dc);
    }
}
END_TEST

/* 4:2:2 as libvmaf's ciede.c reads it (the golden r640x360_422p10 holds
 * that at an even size), here with stride padding columns (cw not a
 * multiple of 32), odd widths and the 1- and 2-row heights */
START_TEST(test_422_walk)
{
    static const struct {
        unsigned w, h, bpc;
    } sizes[] = {
        { 640, 8, 10 }, { 50, 7, 8 },  { 67, 9, 12 },
        { 129, 2, 8 },  { 64, 1, 16 }, { 3, 4, 8 },
    };

    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const unsigned w = sizes[i].w, h = sizes[i].h, bpc = sizes[i].bpc;
        Pic r, d, r4, d4;
        double s, s4;

        pic_alloc(&r, VG_PIX_FMT_YUV422P, w, h, bpc, 6, 0x77);
        pic_alloc(&d, VG_PIX_FMT_YUV422P, w, h, bpc, 0, 0);
        pic_fill(&r, 5 * i + 1);
        pic_fill(&d, 5 * i + 2);
        as_444_from_422(&r4, &r);
        as_444_from_422(&d4, &d);
        s = score_ok(&r, &d);
        s4 = score_ok(&r4, &d4);
        ck_assert_msg(s == s4, "%ux%u %u-bit: 4:2:2 %.17g, as 4:4:4 %.17g", w,
                      h, bpc, s, s4);
        pic_free(&r);
        pic_free(&d);
        pic_free(&r4);
        pic_free(&d4);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ciede");
    TCase *tc = tcase_create("ciede");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_tiny_and_equal);
    tcase_add_test(tc, test_odd_420_defined);
    tcase_add_test(tc, test_odd_420_vs_even_crop);
    tcase_add_test(tc, test_422_walk);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
