/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The scaling of distorted pictures (common/scale.h) on the device
 * (gpu/core/scale.cu) against the host pass, sample for sample: every
 * algorithm, 4:2:0 (planar, NV12, P010, P016 at 12 bits), 4:2:2, 4:4:4
 * and 4:0:0 layouts, 8 to 14 bits, enlargements and reductions, odd and
 * tiny sizes, random, flat, maximum and edge-pattern pictures, padded
 * pitches. The host pass itself is checked against libswscale by
 * tests/fate/scalecmp.c; here also: the same size is a copy, and no
 * filter weighs a sample past its source.
 *
 * Device cases run in a CUDA build with a GPU; with VG_REQUIRE_GPU=1 a
 * missing GPU fails. `test_scale --bench` prints the device time of one
 * frame's scaling (CUDA events, the median of 200) for the renditions of
 * an ABR ladder, instead of testing.
 */

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tests/check_run.h"
#include "common/picture.h"
#include "common/scale.h"
#if HAVE_CUDA
#include "gpu/core/picture.h"
#include "gpu/core/scale.h"
#endif

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}

enum Pattern {
    PAT_RANDOM,
    PAT_FLAT,
    PAT_MAX,
    PAT_EDGES,
    PAT_NB
};

/* A host picture of fmt with its own planes (ceil-sized chroma, padded
 * pitches) filled with a pattern. */
typedef struct TestPic {
    VgPicture pic;
    uint8_t *buf[3];
} TestPic;

static void pic_make(TestPic *t, enum VgPixFmt fmt, unsigned bpc, unsigned w,
                     unsigned h, enum Pattern pat)
{
    const int sp = vg_pix_fmt_is_semiplanar(fmt);
    const int msb = vg_pix_fmt_is_msb(fmt);
    const unsigned bps = bpc > 8 || msb ? 2 : 1;
    const unsigned planes = fmt == VG_PIX_FMT_YUV400P ? 1 : sp ? 2 : 3;
    const unsigned maxv = (1u << bpc) - 1;
    unsigned ssx, ssy;

    memset(t, 0, sizeof(*t));
    vg_layout_shifts(vg_pix_fmt_layout(fmt), &ssx, &ssy);
    t->pic = (VgPicture){ .fmt = fmt,
                          .width = w,
                          .height = h,
                          .bitdepth = bpc,
                          .memory = VG_MEMORY_HOST };
    for (unsigned p = 0; p < planes; p++) {
        const unsigned pw = p ? (w + ssx) >> ssx : w;
        const unsigned ph = p ? (h + ssy) >> ssy : h;
        const unsigned n = sp && p ? 2 * pw : pw;
        /* padded by 16..31 samples: a pitch of its own, whole samples */
        const ptrdiff_t stride = (ptrdiff_t)((n + 16 + (rnd() & 15)) * bps);

        t->buf[p] = malloc((size_t)stride * ph);
        ck_assert_ptr_nonnull(t->buf[p]);
        memset(t->buf[p], 0xa5, (size_t)stride * ph);
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < n; x++) {
                unsigned v;
                switch (pat) {
                case PAT_FLAT:
                    v = maxv / 3 + p;
                    break;
                case PAT_MAX:
                    v = maxv;
                    break;
                case PAT_EDGES:
                    v = ((x / 3 + y / 2) & 1) ? maxv : 0;
                    break;
                default:
                    v = rnd() & maxv;
                    break;
                }
                if (bps == 1)
                    t->buf[p][y * stride + x] = (uint8_t)v;
                else
                    ((uint16_t *)(t->buf[p] + y * stride))[x] =
                        (uint16_t)(msb ? v << (16 - bpc) : v);
            }
        t->pic.data[p] = t->buf[p];
        t->pic.stride[p] = stride;
    }
}

static void pic_free(TestPic *t)
{
    for (int p = 0; p < 3; p++)
        free(t->buf[p]);
}

static void *image_new(VgImage *img, size_t bytes)
{
    void *buf = malloc(bytes ? bytes : 1);

    ck_assert_ptr_nonnull(buf);
    memset(buf, 0x5a, bytes);
    vg_image_place(img, (uintptr_t)buf);
    return buf;
}

/* the host pass: pic into an image of the reference's size */
static void *scale_host(const VgScaler *s, const VgPicture *pic, VgImage *out)
{
    VgImage src;
    void *sbuf = image_new(&src, vg_scaler_src_geometry(s, &src));
    void *obuf = image_new(
        out, vg_image_geometry(out, s->layout, s->bpc, s->dst_w, s->dst_h));
    int16_t *tmp = malloc(vg_scaler_tmp_size(s));

    ck_assert_ptr_nonnull(tmp);
    vg_picture_to_image(&src, pic);
    vg_scaler_run(s, out, &src, tmp);
    free(tmp);
    free(sbuf);
    return obuf;
}

typedef struct Case {
    enum VgPixFmt fmt;
    unsigned bpc;
    unsigned sw, sh, dw, dh;
} Case;

static const Case cases[] = {
    { VG_PIX_FMT_NV12, 8, 960, 540, 1920, 1080 },
    { VG_PIX_FMT_YUV420P, 8, 577, 323, 1280, 720 },
    { VG_PIX_FMT_YUV420P, 8, 1920, 1080, 641, 359 },
    { VG_PIX_FMT_P010, 10, 640, 360, 1920, 1080 },
    { VG_PIX_FMT_YUV420P, 10, 1281, 721, 853, 481 },
    { VG_PIX_FMT_P016, 12, 352, 288, 704, 577 },
    { VG_PIX_FMT_YUV422P, 10, 426, 240, 640, 360 },
    { VG_PIX_FMT_NV16, 8, 320, 181, 333, 180 },
    { VG_PIX_FMT_YUV444P, 8, 33, 17, 640, 360 },
    { VG_PIX_FMT_YUV444P_MSB, 12, 640, 360, 352, 288 },
    { VG_PIX_FMT_YUV444P, 14, 300, 200, 301, 199 },
    { VG_PIX_FMT_YUV400P, 8, 100, 16, 7, 5 },
    { VG_PIX_FMT_YUV420P, 9, 3, 3, 64, 48 },
    { VG_PIX_FMT_YUV420P, 8, 1920, 1080, 64, 36 },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* a reduction by more than 8: the long kernels (sinc, spline) may need
 * more taps than one pass of libswscale takes (-ERANGE, and only then) */
static int may_refuse(const Case *k)
{
    return k->dw * 8 < k->sw;
}

/* the same size is a copy for every algorithm */
START_TEST(same_size_copies)
{
    const enum VgScale alg = (enum VgScale)(_i + 1);
    TestPic t;
    VgScaler s;
    VgImage in, out;
    void *ibuf, *obuf;

    pic_make(&t, VG_PIX_FMT_YUV420P, 10, 97, 45, PAT_RANDOM);
    ck_assert_int_eq(
        vg_scaler_init(&s, alg, VG_LAYOUT_420, 10, 97, 45, 97, 45, NULL), 0);
    obuf = scale_host(&s, &t.pic, &out);
    ibuf = image_new(&in, vg_image_geometry(&in, VG_LAYOUT_420, 10, 97, 45));
    vg_picture_to_image(&in, &t.pic);
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < in.h[p]; y++)
            ck_assert_mem_eq((uint8_t *)out.data[p] + y * out.stride[p],
                             (uint8_t *)in.data[p] + y * in.stride[p],
                             in.w[p] * 2);
    free(ibuf);
    free(obuf);
    vg_scaler_uninit(&s);
    pic_free(&t);
}
END_TEST

/* every filter stays inside its source, and its positions increase */
START_TEST(filters_inside)
{
    const enum VgScale alg = (enum VgScale)(_i + 1);

    for (unsigned c = 0; c < N_CASES; c++) {
        const Case *k = &cases[c];
        VgScaler s;
        const int ret =
            vg_scaler_init(&s, alg, vg_pix_fmt_layout(k->fmt), k->bpc, k->sw,
                           k->sh, k->dw, k->dh, NULL);

        if (ret == -ERANGE && may_refuse(k))
            continue;
        ck_assert_int_eq(ret, 0);
        for (int f = 0; f < 4; f++) {
            const VgScaleFilter *fl = f < 2 ? &s.h[f] : &s.v[f - 2];
            for (unsigned i = 0; i < fl->n_out; i++) {
                ck_assert_int_ge(fl->pos[i], 0);
                ck_assert_int_lt(fl->pos[i], (int)fl->n_in);
                if (i)
                    ck_assert_int_ge(fl->pos[i], fl->pos[i - 1]);
                for (unsigned j = 0; j < fl->size; j++)
                    if (fl->pos[i] + j >= fl->n_in)
                        ck_assert_int_eq(fl->coef[i * fl->size + j], 0);
            }
            if (vg_pix_fmt_layout(k->fmt) == VG_LAYOUT_400)
                f++;
        }
        vg_scaler_uninit(&s);
    }
}
END_TEST

/* through the API (CPU backend): the distorted picture's planes are read
 * ceil-sized, so a floor-sized chroma row is refused, and the range check
 * covers the last chroma column; a size change mid-stream is refused */
START_TEST(api_pictures)
{
    VgConfig cfg = { .backend = VG_BACKEND_CPU,
                     .scale = VG_SCALE_BICUBIC,
                     .log_level = VG_LOG_QUIET };
    VgContext *ctx;
    TestPic ref, dis, small;
    uint16_t u[17 * 9];
    double v;

    pic_make(&ref, VG_PIX_FMT_YUV420P, 10, 64, 48, PAT_RANDOM);
    pic_make(&dis, VG_PIX_FMT_YUV420P, 10, 33, 17, PAT_RANDOM);
    pic_make(&small, VG_PIX_FMT_YUV420P, 10, 31, 17, PAT_RANDOM);
    ck_assert_int_eq(vg_context_create(&ctx, &cfg), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
    /* 33x17: 17x9 chroma samples, rows of 34 bytes */
    for (int i = 0; i < 17 * 9; i++)
        u[i] = (uint16_t)(rnd() & 1023);
    dis.pic.data[1] = u;
    dis.pic.stride[1] = 32;
    ck_assert_int_eq(vg_submit(ctx, &ref.pic, &dis.pic), -EINVAL);
    dis.pic.stride[1] = 34;
    ((uint16_t *)dis.buf[2])[16] = 1024;
    ck_assert_int_eq(vg_submit(ctx, &ref.pic, &dis.pic), -EINVAL);
    ((uint16_t *)dis.buf[2])[16] = 1023;
    ck_assert_int_eq(vg_submit(ctx, &ref.pic, &dis.pic), 0);
    ck_assert_int_eq(vg_submit(ctx, &ref.pic, &small.pic), -EINVAL);
    ck_assert_int_eq(vg_submit(ctx, &ref.pic, &dis.pic), 0);
    ck_assert_int_eq(vg_flush(ctx), 0);
    ck_assert_int_eq(vg_frame_count(ctx), 2);
    ck_assert_int_eq(vg_get_score(ctx, "psnr_y", 1, &v), 0);
    vg_context_destroy(&ctx);
    /* without the scale option, sizes must match */
    cfg.scale = VG_SCALE_NONE;
    ck_assert_int_eq(vg_context_create(&ctx, &cfg), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
    ck_assert_int_eq(vg_submit(ctx, &ref.pic, &dis.pic), -EINVAL);
    vg_context_destroy(&ctx);
    cfg.scale = VG_SCALE_NB;
    ck_assert_int_eq(vg_context_create(&ctx, &cfg), -EINVAL);
    pic_free(&ref);
    pic_free(&dis);
    pic_free(&small);
}
END_TEST

START_TEST(refusals)
{
    VgScaler s;

    ck_assert_int_eq(vg_scaler_init(&s, VG_SCALE_BICUBIC, VG_LAYOUT_420, 16, 64,
                                    64, 128, 128, NULL),
                     -EINVAL);
    ck_assert_int_eq(vg_scaler_init(&s, VG_SCALE_NONE, VG_LAYOUT_420, 8, 64, 64,
                                    128, 128, NULL),
                     -EINVAL);
    /* 4096 -> 16 needs 1025 bicubic taps: libswscale cascades */
    ck_assert_int_eq(vg_scaler_init(&s, VG_SCALE_BICUBIC, VG_LAYOUT_400, 8,
                                    4096, 16, 16, 16, NULL),
                     -ERANGE);
    /* 1 -> 7000: beyond libswscale's ratios */
    ck_assert_int_eq(vg_scaler_init(&s, VG_SCALE_BICUBIC, VG_LAYOUT_400, 8, 1,
                                    16, 7000, 16, NULL),
                     -EINVAL);
    ck_assert_int_eq(vg_scale_from_name("lanczos"), VG_SCALE_LANCZOS);
    ck_assert_int_eq(vg_scale_from_name("fast_bilinear"), -EINVAL);
    ck_assert_str_eq(vg_scale_name(VG_SCALE_BICUBLIN), "bicublin");
    ck_assert_ptr_null(vg_scale_name(VG_SCALE_NB));
}
END_TEST

#if !HAVE_CUDA
static const int have_dev = 0;
#else
static VgCudaDevice dev;
static VgCudaConverter conv;
static int have_dev;

static int open_device(void)
{
    VgConfig cfg = { 0 };

    cfg.backend = VG_BACKEND_CUDA;
    if (vg_cuda_device_usable(&cfg, NULL) < 0 ||
        vg_cuda_device_open(&dev, &cfg, NULL) < 0)
        return 0;
    if (vg_cuda_device_push(&dev) < 0)
        return 0;
    if (vg_cuda_converter_init(&conv, &dev) < 0)
        return 0;
    return vg_cuda_device_pop(&dev) >= 0;
}

/* one case on the device against the host, every sample of every plane */
static void device_case(const Case *k, enum VgScale alg, enum Pattern pat)
{
    const enum VgImageLayout layout = vg_pix_fmt_layout(k->fmt);
    VgCudaScaler c;
    TestPic t;
    VgImage want, got;
    void *wbuf, *stage;
    uint8_t *gbuf;
    CUdeviceptr raw, dbuf;
    size_t raw_bytes, bytes;

    const int ret = vg_cuda_scaler_open(&c, &dev, alg, layout, k->bpc, k->sw,
                                        k->sh, k->dw, k->dh);

    if (ret == -ERANGE && may_refuse(k))
        return;
    ck_assert_int_eq(ret, 0);
    pic_make(&t, k->fmt, k->bpc, k->sw, k->sh, pat);
    wbuf = scale_host(&c.s, &t.pic, &want);
    bytes = vg_image_geometry(&got, layout, k->bpc, k->dw, k->dh);
    raw_bytes = vg_cuda_picture_raw_size(&c.src, k->fmt);
    ck_assert_int_eq(VG_DCU(&dev, cuMemAlloc, &raw, raw_bytes), 0);
    ck_assert_int_eq(VG_DCU(&dev, cuMemAlloc, &dbuf, bytes), 0);
    ck_assert_int_eq(VG_DCUX(&dev, cuMemHostAlloc, &stage, raw_bytes, 0), 0);
    ck_assert_int_eq(
        VG_DCU(&dev, cuMemsetD8Async, dbuf, 0x77, bytes, dev.stream), 0);
    vg_image_place(&got, (uintptr_t)dbuf);
    ck_assert_int_eq(
        vg_cuda_picture_upload(&dev, &conv, &c.src, stage, raw, &t.pic), 0);
    ck_assert_int_eq(vg_cuda_scaler_run(&c, &dev, &got), 0);
    gbuf = malloc(bytes);
    ck_assert_ptr_nonnull(gbuf);
    ck_assert_int_eq(
        VG_DCU(&dev, cuMemcpyDtoHAsync, gbuf, dbuf, bytes, dev.stream), 0);
    ck_assert_int_eq(VG_DCU(&dev, cuStreamSynchronize, dev.stream), 0);
    vg_image_place(&got, (uintptr_t)gbuf);
    for (unsigned p = 0; p < want.nb_planes; p++)
        for (unsigned y = 0; y < want.h[p]; y++) {
            const uint8_t *a = (uint8_t *)want.data[p] + y * want.stride[p];
            const uint8_t *b = (uint8_t *)got.data[p] + y * got.stride[p];
            if (memcmp(a, b, (size_t)want.w[p] * (k->bpc > 8 ? 2 : 1)))
                ck_abort_msg("%s %u-bit fmt %d %ux%u -> %ux%u pattern %d: "
                             "plane %u row %u differs",
                             vg_scale_name(alg), k->bpc, (int)k->fmt, k->sw,
                             k->sh, k->dw, k->dh, (int)pat, p, y);
        }
    free(gbuf);
    free(wbuf);
    VG_DCUX(&dev, cuMemFreeHost, stage);
    VG_DCU(&dev, cuMemFree, raw);
    VG_DCU(&dev, cuMemFree, dbuf);
    vg_cuda_scaler_close(&c, &dev);
    pic_free(&t);
}

START_TEST(device_equals_host)
{
    const enum VgScale alg = (enum VgScale)(_i + 1);

    ck_assert_int_eq(vg_cuda_device_push(&dev), 0);
    for (unsigned c = 0; c < N_CASES; c++)
        device_case(&cases[c], alg, c % 5 ? PAT_RANDOM : PAT_EDGES);
    /* flat and maximum pictures on the first two cases */
    for (unsigned c = 0; c < 2; c++) {
        device_case(&cases[c], alg, PAT_FLAT);
        device_case(&cases[c], alg, PAT_MAX);
    }
    ck_assert_int_eq(vg_cuda_device_pop(&dev), 0);
}
END_TEST

/* ---- benchmark (--bench) ---------------------------------------------- */

typedef CUresult CUDAAPI ElapsedFn(float *ms, CUevent a, CUevent b);

/* the device time of the scaling of one frame, median of n, in us */
static double bench_case(const Case *k, enum VgScale alg, int n)
{
    /* not in nv-codec-headers' table: from the driver the library loaded */
    ElapsedFn *elapsed =
        (ElapsedFn *)dlsym(dev.cu->f->lib, "cuEventElapsedTime");
    VgCudaScaler c;
    VgImage dst;
    CUdeviceptr dbuf;
    CUevent ev[2];
    double *t = malloc(n * sizeof(*t)), med;
    float ms;

    if (!t || !elapsed ||
        vg_cuda_scaler_open(&c, &dev, alg, vg_pix_fmt_layout(k->fmt), k->bpc,
                            k->sw, k->sh, k->dw, k->dh) < 0 ||
        VG_DCU(&dev, cuMemAlloc, &dbuf,
               vg_image_geometry(&dst, vg_pix_fmt_layout(k->fmt), k->bpc, k->dw,
                                 k->dh)) < 0 ||
        VG_DCU(&dev, cuEventCreate, &ev[0], 0) < 0 ||
        VG_DCU(&dev, cuEventCreate, &ev[1], 0) < 0) {
        free(t);
        return -1;
    }
    vg_image_place(&dst, (uintptr_t)dbuf);
    VG_DCU(&dev, cuMemsetD8Async, c.src_buf, 0x40,
           vg_scaler_src_geometry(&c.s, &(VgImage){ 0 }), dev.stream);
    for (int i = -10; i < n; i++) {
        VG_DCU(&dev, cuEventRecord, ev[0], dev.stream);
        vg_cuda_scaler_run(&c, &dev, &dst);
        VG_DCU(&dev, cuEventRecord, ev[1], dev.stream);
        VG_DCU(&dev, cuEventSynchronize, ev[1]);
        if (elapsed(&ms, ev[0], ev[1]) != CUDA_SUCCESS)
            ms = -1;
        if (i >= 0)
            t[i] = ms * 1000.0;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            const double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    med = t[n / 2];
    VG_DCU(&dev, cuEventDestroy, ev[0]);
    VG_DCU(&dev, cuEventDestroy, ev[1]);
    VG_DCU(&dev, cuMemFree, dbuf);
    vg_cuda_scaler_close(&c, &dev);
    free(t);
    return med;
}

static int bench(void)
{
    static const Case ladder[] = {
        { VG_PIX_FMT_NV12, 8, 960, 540, 1920, 1080 },
        { VG_PIX_FMT_NV12, 8, 1280, 720, 1920, 1080 },
        { VG_PIX_FMT_NV12, 8, 640, 360, 1920, 1080 },
        { VG_PIX_FMT_P010, 10, 1920, 1080, 3840, 2160 },
        { VG_PIX_FMT_NV12, 8, 1920, 1080, 3840, 2160 },
    };
    static const enum VgScale algs[] = { VG_SCALE_BICUBIC, VG_SCALE_LANCZOS,
                                         VG_SCALE_BILINEAR };

    if (!open_device() || vg_cuda_device_push(&dev) < 0) {
        fprintf(stderr, "test_scale: --bench needs a usable GPU\n");
        return 1;
    }
    printf("test_scale: bench on %s: device time of one frame's scaling, "
           "median of 200 (CUDA events)\n",
           dev.name);
    for (size_t i = 0; i < sizeof(ladder) / sizeof(ladder[0]); i++)
        for (size_t a = 0; a < sizeof(algs) / sizeof(algs[0]); a++)
            printf("test_scale: bench %s %u-bit %ux%u -> %ux%u %s: %.1f us\n",
                   ladder[i].fmt == VG_PIX_FMT_P010 ? "p010" : "nv12",
                   ladder[i].bpc, ladder[i].sw, ladder[i].sh, ladder[i].dw,
                   ladder[i].dh, vg_scale_name(algs[a]),
                   bench_case(&ladder[i], algs[a], 200));
    vg_cuda_device_pop(&dev);
    vg_cuda_device_close(&dev);
    return 0;
}
#endif /* HAVE_CUDA */

int main(int argc, char **argv)
{
    Suite *su = suite_create("scale");
    TCase *tc = tcase_create("scale");
    int ret;

    if (argc > 1 && !strcmp(argv[1], "--bench")) {
#if HAVE_CUDA
        return bench();
#else
        fprintf(stderr, "test_scale: --bench needs a CUDA build\n");
        return 1;
#endif
    }
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, same_size_copies, 0, VG_SCALE_NB - 1);
    tcase_add_loop_test(tc, filters_inside, 0, VG_SCALE_NB - 1);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, api_pictures);
#if HAVE_CUDA
    have_dev = open_device();
    if (have_dev)
        tcase_add_loop_test(tc, device_equals_host, 0, VG_SCALE_NB - 1);
#endif
    if (vg_check_gpu_missing("test_scale", have_dev))
        return 1;
    suite_add_tcase(su, tc);
    ret = vg_check_run_nofork(su);
#if HAVE_CUDA
    if (have_dev)
        vg_cuda_device_close(&dev);
#endif
    return ret;
}
