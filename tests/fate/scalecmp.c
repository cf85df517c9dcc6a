/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * The library's scaling of distorted pictures (common/scale.c, the host
 * pass the CUDA kernels equal) against libswscale, frame by frame and
 * sample for sample: libswscale set up as the vmafgpu filter sets it up
 * for its scale option (sws_flags <alg>|accurate_rnd|bitexact, frames of
 * unspecified chroma location), linked from the FFmpeg tree the filter is
 * built in.
 *
 *   scalecmp                       built-in cases: every algorithm the
 *                                  library takes, 8..14-bit formats of
 *                                  every layout, odd, tiny, enlarged and
 *                                  reduced sizes, random, flat, maximum
 *                                  and edge patterns
 *   scalecmp FILE FMT WxH WxH ALG  every frame of a raw FILE of FMT at
 *                                  the first size, scaled to the second
 *
 * Prints one line per case and "N passed, N failed"; exits 1 on any
 * difference (naming the plane, row and column) or error.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/intreadwrite.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswscale/version.h>

#include "common/picture.h"
#include "common/scale.h"

#define HAVE_SWS_FRAME_SETUP                                                   \
    (LIBSWSCALE_VERSION_INT >= AV_VERSION_INT(8, 12, 100))

typedef struct Fmt {
    enum AVPixelFormat av;
    enum VgPixFmt vg;
    unsigned bpc;
} Fmt;

static const Fmt fmts[] = {
    { AV_PIX_FMT_YUV420P, VG_PIX_FMT_YUV420P, 8 },
    { AV_PIX_FMT_NV12, VG_PIX_FMT_NV12, 8 },
    { AV_PIX_FMT_YUV422P, VG_PIX_FMT_YUV422P, 8 },
    { AV_PIX_FMT_NV16, VG_PIX_FMT_NV16, 8 },
    { AV_PIX_FMT_YUV444P, VG_PIX_FMT_YUV444P, 8 },
    { AV_PIX_FMT_GRAY8, VG_PIX_FMT_YUV400P, 8 },
    { AV_PIX_FMT_YUV420P9LE, VG_PIX_FMT_YUV420P, 9 },
    { AV_PIX_FMT_YUV420P10LE, VG_PIX_FMT_YUV420P, 10 },
    { AV_PIX_FMT_P010LE, VG_PIX_FMT_P010, 10 },
    { AV_PIX_FMT_YUV422P10LE, VG_PIX_FMT_YUV422P, 10 },
    { AV_PIX_FMT_P210LE, VG_PIX_FMT_P216, 10 },
    { AV_PIX_FMT_YUV444P10LE, VG_PIX_FMT_YUV444P, 10 },
    { AV_PIX_FMT_GRAY10LE, VG_PIX_FMT_YUV400P, 10 },
    { AV_PIX_FMT_YUV420P12LE, VG_PIX_FMT_YUV420P, 12 },
#ifdef AV_PIX_FMT_P012
    { AV_PIX_FMT_P012LE, VG_PIX_FMT_P016, 12 },
#endif
    { AV_PIX_FMT_YUV444P12LE, VG_PIX_FMT_YUV444P, 12 },
#if LIBAVUTIL_VERSION_MAJOR >= 60
    { AV_PIX_FMT_YUV444P10MSBLE, VG_PIX_FMT_YUV444P_MSB, 10 },
    { AV_PIX_FMT_YUV444P12MSBLE, VG_PIX_FMT_YUV444P_MSB, 12 },
#endif
    { AV_PIX_FMT_YUV420P14LE, VG_PIX_FMT_YUV420P, 14 },
    { AV_PIX_FMT_YUV444P14LE, VG_PIX_FMT_YUV444P, 14 },
};

static const struct {
    enum VgScale vg;
    int sws;
} algs[] = {
    { VG_SCALE_BILINEAR, SWS_BILINEAR }, { VG_SCALE_BICUBIC, SWS_BICUBIC },
    { VG_SCALE_NEIGHBOR, SWS_POINT },    { VG_SCALE_AREA, SWS_AREA },
    { VG_SCALE_BICUBLIN, SWS_BICUBLIN }, { VG_SCALE_GAUSS, SWS_GAUSS },
    { VG_SCALE_SINC, SWS_SINC },         { VG_SCALE_LANCZOS, SWS_LANCZOS },
    { VG_SCALE_SPLINE, SWS_SPLINE },
};

static uint64_t rng = 0x853c49e6748fea9bull;

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

static const char *const pat_names[PAT_NB] = { "random", "flat", "max",
                                               "edges" };

static const Fmt *fmt_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
        if (!strcmp(av_get_pix_fmt_name(fmts[i].av), name))
            return &fmts[i];
    return NULL;
}

static VgPicture frame_picture(const AVFrame *f, const Fmt *fmt)
{
    VgPicture pic = {
        .fmt = fmt->vg,
        .width = (unsigned)f->width,
        .height = (unsigned)f->height,
        .bitdepth = fmt->bpc,
        .memory = VG_MEMORY_HOST,
    };

    for (int p = 0; p < 3 && f->data[p]; p++) {
        pic.data[p] = f->data[p];
        pic.stride[p] = f->linesize[p];
    }
    return pic;
}

/* fill every component of every plane (in its word's significant bits) */
static void fill(AVFrame *f, enum Pattern pat)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(f->format);

    for (int c = 0; c < d->nb_components; c++) {
        const AVComponentDescriptor *cd = &d->comp[c];
        const int cw = c == 1 || c == 2
                           ? AV_CEIL_RSHIFT(f->width, d->log2_chroma_w)
                           : f->width;
        const int ch = c == 1 || c == 2
                           ? AV_CEIL_RSHIFT(f->height, d->log2_chroma_h)
                           : f->height;
        const unsigned maxv = (1u << cd->depth) - 1;

        for (int y = 0; y < ch; y++)
            for (int x = 0; x < cw; x++) {
                uint8_t *at = f->data[cd->plane] + y * f->linesize[cd->plane] +
                              cd->offset + x * cd->step;
                unsigned v;

                switch (pat) {
                case PAT_FLAT:
                    v = maxv / 3 + (unsigned)c;
                    break;
                case PAT_MAX:
                    v = maxv;
                    break;
                case PAT_EDGES:
                    v = ((x / 3 + y / 2 + c) & 1) ? maxv : 0;
                    break;
                default:
                    v = rnd() & maxv;
                    break;
                }
                if (cd->depth > 8)
                    AV_WN16(at, (uint16_t)(v << cd->shift));
                else
                    *at = (uint8_t)v;
            }
    }
}

static struct SwsContext *sws_open(const Fmt *fmt, int flags, int sw, int sh,
                                   int dw, int dh)
{
    struct SwsContext *s = sws_alloc_context();

    if (!s ||
        av_opt_set_int(s, "sws_flags", flags | SWS_ACCURATE_RND | SWS_BITEXACT,
                       0) < 0 ||
        av_opt_set_int(s, "threads", 1, 0) < 0)
        goto fail;
#if !HAVE_SWS_FRAME_SETUP
    if (av_opt_set_int(s, "srcw", sw, 0) < 0 ||
        av_opt_set_int(s, "srch", sh, 0) < 0 ||
        av_opt_set_int(s, "src_format", fmt->av, 0) < 0 ||
        av_opt_set_int(s, "dstw", dw, 0) < 0 ||
        av_opt_set_int(s, "dsth", dh, 0) < 0 ||
        av_opt_set_int(s, "dst_format", fmt->av, 0) < 0 ||
        sws_init_context(s, NULL, NULL) < 0)
        goto fail;
#endif
    return s;
fail:
    sws_freeContext(s);
    return NULL;
}

/* scale one frame both ways; 0 equal, 1 different (logged), -1 error */
static int compare(struct SwsContext *sws, const VgScaler *vs, const Fmt *fmt,
                   AVFrame *src, const char *label)
{
    AVFrame *dst = av_frame_alloc();
    VgImage in, want, got;
    VgPicture pic;
    uint8_t *ibuf = NULL, *wbuf = NULL, *gbuf = NULL;
    int16_t *tmp = NULL;
    int ret = -1;

    if (!dst)
        goto end;
    dst->format = fmt->av;
    dst->width = (int)vs->dst_w;
    dst->height = (int)vs->dst_h;
    if (av_frame_get_buffer(dst, 0) < 0 || sws_scale_frame(sws, dst, src) < 0) {
        fprintf(stderr, "scalecmp: %s: libswscale failed\n", label);
        goto end;
    }
    ibuf = malloc(vg_scaler_src_geometry(vs, &in));
    wbuf = malloc(
        vg_image_geometry(&want, vs->layout, vs->bpc, vs->dst_w, vs->dst_h));
    gbuf = malloc(
        vg_image_geometry(&got, vs->layout, vs->bpc, vs->dst_w, vs->dst_h));
    tmp = malloc(vg_scaler_tmp_size(vs));
    if (!ibuf || !wbuf || !gbuf || !tmp)
        goto end;
    vg_image_place(&in, (uintptr_t)ibuf);
    vg_image_place(&want, (uintptr_t)wbuf);
    vg_image_place(&got, (uintptr_t)gbuf);
    pic = frame_picture(src, fmt);
    vg_picture_to_image(&in, &pic);
    vg_scaler_run(vs, &got, &in, tmp);
    pic = frame_picture(dst, fmt);
    vg_picture_to_image(&want, &pic);
    ret = 0;
    for (unsigned p = 0; p < want.nb_planes && !ret; p++)
        for (unsigned y = 0; y < want.h[p] && !ret; y++)
            for (unsigned x = 0; x < want.w[p]; x++) {
                const unsigned a =
                    vs->bpc > 8
                        ? ((uint16_t *)((uint8_t *)want.data[p] +
                                        y * want.stride[p]))[x]
                        : ((uint8_t *)want.data[p] + y * want.stride[p])[x];
                const unsigned b =
                    vs->bpc > 8
                        ? ((uint16_t *)((uint8_t *)got.data[p] +
                                        y * got.stride[p]))[x]
                        : ((uint8_t *)got.data[p] + y * got.stride[p])[x];
                if (a != b) {
                    printf("FAIL %s: plane %u (%u, %u): libswscale %u, "
                           "vmafgpu %u\n",
                           label, p, x, y, a, b);
                    ret = 1;
                    break;
                }
            }
end:
    free(ibuf);
    free(wbuf);
    free(gbuf);
    free(tmp);
    av_frame_free(&dst);
    return ret;
}

static int n_pass, n_fail;

static void count(int r, const char *label)
{
    if (!r) {
        n_pass++;
        printf("PASS %s\n", label);
    } else {
        n_fail++;
        if (r < 0)
            printf("FAIL %s: error\n", label);
    }
}

/* one algorithm, format and size pair on a generated frame */
static void gen_case(int a, const Fmt *fmt, int sw, int sh, int dw, int dh,
                     enum Pattern pat)
{
    char label[160];
    AVFrame *src = av_frame_alloc();
    struct SwsContext *sws = NULL;
    VgScaler vs;
    int r = -1, vr;

    snprintf(label, sizeof(label), "%s %s %dx%d -> %dx%d %s",
             vg_scale_name(algs[a].vg), av_get_pix_fmt_name(fmt->av), sw, sh,
             dw, dh, pat_names[pat]);
    vr = vg_scaler_init(&vs, algs[a].vg, vg_pix_fmt_layout(fmt->vg), fmt->bpc,
                        (unsigned)sw, (unsigned)sh, (unsigned)dw, (unsigned)dh,
                        NULL);
    if (vr < 0) {
        /* refused: only a reduction too strong for one libswscale pass */
        if (vr == -ERANGE && (dw * 8 < sw || dh * 8 < sh)) {
            printf("SKIP %s: refused (several libswscale passes)\n", label);
            av_frame_free(&src);
            return;
        }
        goto end;
    }
    if (!src)
        goto end;
    src->format = fmt->av;
    src->width = sw;
    src->height = sh;
    if (av_frame_get_buffer(src, 0) < 0)
        goto end;
    fill(src, pat);
    if (!(sws = sws_open(fmt, algs[a].sws, sw, sh, dw, dh)))
        goto end;
    r = compare(sws, &vs, fmt, src, label);
end:
    count(r, label);
    sws_freeContext(sws);
    av_frame_free(&src);
    if (vr >= 0)
        vg_scaler_uninit(&vs);
}

static int raw_file(const char *path, const Fmt *fmt, int sw, int sh, int dw,
                    int dh, const char *alg)
{
    const int v = vg_scale_from_name(alg);
    AVFrame *src = av_frame_alloc();
    struct SwsContext *sws = NULL;
    FILE *f = fopen(path, "rb");
    VgScaler vs;
    int a = -1, frames = 0, r = -1, init = 0;
    char label[256];

    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
        if ((int)algs[i].vg == v)
            a = (int)i;
    if (a < 0 || !f || !src) {
        fprintf(stderr, "scalecmp: cannot read %s or unknown algorithm %s\n",
                path, alg);
        goto end;
    }
    if (vg_scaler_init(&vs, algs[a].vg, vg_pix_fmt_layout(fmt->vg), fmt->bpc,
                       (unsigned)sw, (unsigned)sh, (unsigned)dw, (unsigned)dh,
                       NULL) < 0)
        goto end;
    init = 1;
    src->format = fmt->av;
    src->width = sw;
    src->height = sh;
    if (av_frame_get_buffer(src, 1) < 0 ||
        !(sws = sws_open(fmt, algs[a].sws, sw, sh, dw, dh)))
        goto end;
    for (;;) {
        const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt->av);
        const int planes = av_pix_fmt_count_planes(fmt->av);
        int eof = 0;

        for (int p = 0; p < planes && !eof; p++) {
            const int h = p ? AV_CEIL_RSHIFT(sh, d->log2_chroma_h) : sh;
            const int bytes = av_image_get_linesize(fmt->av, sw, p);
            for (int y = 0; y < h && !eof; y++)
                if (fread(src->data[p] + y * src->linesize[p], 1, (size_t)bytes,
                          f) != (size_t)bytes)
                    eof = 1;
        }
        if (eof)
            break;
        snprintf(label, sizeof(label), "%s frame %d", path, frames);
        if ((r = compare(sws, &vs, fmt, src, label)) != 0)
            goto end;
        frames++;
    }
    r = frames ? 0 : -1;
end:
    snprintf(label, sizeof(label),
             "%s: %d frames of %s %dx%d -> %dx%d %s, "
             "every sample equal to libswscale's",
             path, frames, av_get_pix_fmt_name(fmt->av), sw, sh, dw, dh, alg);
    count(r, label);
    if (f)
        fclose(f);
    sws_freeContext(sws);
    av_frame_free(&src);
    if (init)
        vg_scaler_uninit(&vs);
    return r;
}

int main(int argc, char **argv)
{
    static const int sizes[][4] = {
        { 960, 540, 1920, 1080 }, /* the corpus rendition */
        { 1280, 720, 1920, 1080 }, { 640, 360, 1920, 1080 },
        { 577, 323, 1280, 721 },                     /* odd, enlarged */
        { 1920, 1080, 641, 359 },                    /* reduced, odd */
        { 352, 288, 353, 287 },                      /* almost the same size */
        { 33, 17, 64, 36 },        { 3, 3, 20, 11 }, /* tiny */
        { 400, 16, 13, 5 },                          /* strong reduction */
        { 720, 576, 720, 480 },                      /* one axis only */
    };

    if (argc == 6) {
        const Fmt *fmt = fmt_by_name(argv[2]);
        int sw, sh, dw, dh;

        if (!fmt || sscanf(argv[3], "%dx%d", &sw, &sh) != 2 ||
            sscanf(argv[4], "%dx%d", &dw, &dh) != 2) {
            fprintf(stderr,
                    "scalecmp: usage: scalecmp [FILE FMT WxH WxH ALG]\n");
            return 2;
        }
        raw_file(argv[1], fmt, sw, sh, dw, dh, argv[5]);
    } else if (argc == 1) {
        /* every algorithm on every size with 8-bit 4:2:0 (planar and
         * NV12) and 10-bit P010; every format on the first sizes with
         * bicubic, lanczos and bilinear; every pattern on one case */
        for (size_t a = 0; a < sizeof(algs) / sizeof(algs[0]); a++)
            for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
                for (int f = 0; f < 3; f++)
                    gen_case((int)a, &fmts[f == 2 ? 8 : f], sizes[s][0],
                             sizes[s][1], sizes[s][2], sizes[s][3],
                             (s + a) % 4 ? PAT_RANDOM : PAT_EDGES);
        for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
            for (int a = 0; a < 3; a++)
                for (size_t s = 3; s < 6; s++)
                    gen_case(a == 0   ? 1
                             : a == 1 ? 7
                                      : 0,
                             &fmts[i], sizes[s][0], sizes[s][1], sizes[s][2],
                             sizes[s][3], PAT_RANDOM);
        for (int p = 0; p < PAT_NB; p++)
            for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i += 4)
                gen_case(1, &fmts[i], 577, 323, 1280, 721, (enum Pattern)p);
    } else {
        fprintf(stderr, "scalecmp: usage: scalecmp [FILE FMT WxH WxH ALG]\n");
        return 2;
    }
    printf("scalecmp: %d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
