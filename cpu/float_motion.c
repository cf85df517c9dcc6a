/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float motion on the CPU, bit-exact with libvmaf v3.2.0's C path
 * (src/feature/float_motion.c extract(), src/feature/motion.c
 * vmaf_image_sad_c(), src/feature/common/convolution.c
 * convolution_f32_c_s(), src/feature/vif_tools.c
 * vif_scale_frame_bilinear_s()): the reference luma as float with offset
 * -128, blurred vertically then horizontally (mirrors reflect-101), and
 * the mean absolute difference of the blurred planes of frames n - 1 and
 * n. The per-row sums are handed to the home (vg_float_motion_sad()),
 * which adds them as libvmaf does; the CUDA backend hands the same sums.
 *
 * Every plane buffer has the luma's float stride, as float_motion.c's;
 * with motion_add_scale1 the half-size planes read their source with the
 * stride motion.c derives from the plane's own width (the same as the
 * luma's except for subsampled chroma with motion_add_uv), as libvmaf.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/features/float_motion.h"
#include "common/fplane.h"

typedef struct VgFloatMotionDSP {
    /** blur_plane_any()'s C, AVX2 or AVX-512 build */
    void (*blur_plane)(const float *src, float *dst, float *tmp, int w, int h,
                       ptrdiff_t stride, const float *tap, unsigned n_taps);
} VgFloatMotionDSP;

typedef struct FloatMotionCpu {
    unsigned n_planes;
    size_t fstride;     ///< floats per row of every plane buffer
    float *conv, *tmp;  ///< one plane as float, the vertical pass
    float *blur[3][2];  ///< per plane: blurred frames (slot = index & 1)
    long blurred[2];    ///< frame index in each slot, -1 = none
    float *row;         ///< row sums
    float *half[2];     ///< motion_add_scale1: the half-size planes
    VgFplaneDSP fplane; ///< the planes' conversion to float
    VgFloatMotionDSP dsp;
} FloatMotionCpu;

/* convolution_internal.h convolution_edge_s(): reflect-101 */
static inline int mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return n - (i - n + 2);
    return i;
}

/*
 * convolution_f32_c_s() without SIMD: convolution_y_c_s() into tmp, then
 * convolution_x_c_s(); each output is 0 + tap[0] * s[0] + ... in float,
 * taps in order (the edge and the inner loops add in the same order). A
 * row's outputs are computed side by side, each its own chain: the
 * vertical pass tap by tap over the row, the horizontal pass likewise
 * for the columns whose taps need no mirroring, the others one by one.
 */
VG_CPU_INLINE void blur_plane_any(const float *src, float *dst, float *tmp,
                                  int w, int h, ptrdiff_t stride,
                                  const float *tap, unsigned n_taps)
{
    const int r = (int)n_taps / 2;
    const int in0 = r < w ? r : w, in1 = w - r > in0 ? w - r : in0;

    for (int i = 0; i < h; i++) {
        float *restrict t = tmp + i * stride;

        for (int j = 0; j < w; j++)
            t[j] = 0;
        for (int k = 0; k < (int)n_taps; k++) {
            const float *restrict x = src + mirror(i - r + k, h) * stride;
            const float tk = tap[k];
            for (int j = 0; j < w; j++)
                t[j] += tk * x[j];
        }
    }
    for (int i = 0; i < h; i++) {
        const float *restrict t = tmp + i * stride;
        float *restrict d = dst + i * stride;

        for (int j = in0; j < in1; j++)
            d[j] = 0;
        for (int k = 0; k < (int)n_taps; k++) {
            const float tk = tap[k];
            for (int j = in0; j < in1; j++)
                d[j] += tk * t[j - r + k];
        }
        for (int e = 0; e < 2; e++) {
            for (int j = e ? in1 : 0; j < (e ? w : in0); j++) {
                float acc = 0;
                for (int k = 0; k < (int)n_taps; k++)
                    acc += tap[k] * t[mirror(j - r + k, w)];
                d[j] = acc;
            }
        }
    }
}

VG_CPU_BUILDS(blur_plane,
              (const float *src, float *dst, float *tmp, int w, int h,
               ptrdiff_t stride, const float *tap, unsigned n_taps),
              (src, dst, tmp, w, h, stride, tap, n_taps))

static void vg_float_motion_dsp_init(VgFloatMotionDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->blur_plane, blur_plane, flags);
}

/*
 * vmaf_image_sad_c()'s row loop: |a - b| as a double (fabs) added to a
 * float, left to right.
 */
static void row_sads(const float *a, const float *b, int w, int h,
                     ptrdiff_t stride, float *row)
{
    for (int i = 0; i < h; i++) {
        float accum_line = 0;
        for (int j = 0; j < w; j++)
            accum_line += fabs(a[i * stride + j] - b[i * stride + j]);
        row[i] = accum_line;
    }
}

/* vif_tools.c mirror() (float) */
static inline float fmirror(float i, float left, float right)
{
    return i < left ? -i : i > right ? 2 * right - i : i;
}

/* vif_tools.c bilinear_interpolation() */
static float bilinear(const float *src, int w, int h, ptrdiff_t stride, float x,
                      float y)
{
    const int x1 = (int)fmirror(floor(x), 0, w - 1);
    const int x2 = (int)fmirror(ceil(x), 0, w - 1);
    const int y1 = (int)fmirror(floor(y), 0, h - 1);
    const int y2 = (int)fmirror(ceil(y), 0, h - 1);
    const float dx = x - x1, dy = y - y1;

    return (1 - dy) * (1 - dx) * src[y1 * stride + x1] +
           (1 - dy) * dx * src[y1 * stride + x2] +
           dy * (1 - dx) * src[y2 * stride + x1] +
           dy * dx * src[y2 * stride + x2];
}

/* vif_scale_frame_bilinear_s(); the sizes always differ here (w, h >= 3) */
static void scale_half(const float *src, int w, int h, ptrdiff_t src_stride,
                       float *dst, int dw, int dh, ptrdiff_t dst_stride)
{
    const float ratio_x = (float)w / dw, ratio_y = (float)h / dh;

    for (int y = 0; y < dh; y++) {
        const float yy = (y + 0.5) * ratio_y - 0.5;
        for (int x = 0; x < dw; x++) {
            const float xx = (x + 0.5) * ratio_x - 0.5;
            dst[y * dst_stride + x] = bilinear(src, w, h, src_stride, xx, yy);
        }
    }
}

/* vmaf_image_sad_c(): one plane's score */
static float plane_score(FloatMotionCpu *s, const float *a, const float *b,
                         int w, int h, int add_scale1)
{
    float score;

    row_sads(a, b, w, h, (ptrdiff_t)s->fstride, s->row);
    score = vg_float_motion_sad(s->row, (unsigned)w, (unsigned)h);
    if (add_scale1) {
        const int dw = (int)vg_float_motion_half((unsigned)w);
        const int dh = (int)vg_float_motion_half((unsigned)h);
        const ptrdiff_t src_stride = vg_fmotion_align32((unsigned)w * 4) / 4;
        const ptrdiff_t dst_stride = vg_fmotion_align32((unsigned)dw * 4) / 4;

        scale_half(a, w, h, src_stride, s->half[0], dw, dh, dst_stride);
        scale_half(b, w, h, src_stride, s->half[1], dw, dh, dst_stride);
        row_sads(s->half[0], s->half[1], dw, dh, dst_stride, s->row);
        score = score + vg_float_motion_sad(s->row, (unsigned)dw, (unsigned)dh);
    }
    return score;
}

static int float_motion_init(VgFeatureCtx *fc)
{
    const VgFloatMotionOptions *o = fc->opts;
    FloatMotionCpu *s = fc->priv;
    size_t n;
    int ret;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());
    vg_float_motion_dsp_init(&s->dsp, vg_cpu_flags());

    if ((ret = vg_float_motion_check(fc)) < 0)
        return ret;
    s->n_planes = o->motion_add_uv ? 3 : 1;
    s->fstride = vg_fmotion_align32(fc->width * 4) / 4;
    /* chroma planes are never larger than the luma */
    n = s->fstride * fc->height;
    s->conv = malloc(n * sizeof(float));
    s->tmp = malloc(n * sizeof(float));
    s->row = malloc(fc->height * sizeof(float));
    if (!s->conv || !s->tmp || !s->row)
        return -ENOMEM;
    for (unsigned p = 0; p < s->n_planes; p++)
        for (unsigned k = 0; k < 2; k++)
            if (!(s->blur[p][k] = malloc(n * sizeof(float))))
                return -ENOMEM;
    if (o->motion_add_scale1) {
        const size_t hn =
            vg_fmotion_align32(vg_float_motion_half(fc->width) * 4) / 4 *
            vg_float_motion_half(fc->height);
        for (unsigned k = 0; k < 2; k++)
            if (!(s->half[k] = malloc(hn * sizeof(float))))
                return -ENOMEM;
    }
    s->blurred[0] = s->blurred[1] = -1;
    return 0;
}

static void float_motion_close(VgFeatureCtx *fc)
{
    FloatMotionCpu *s = fc->priv;

    free(s->conv);
    free(s->tmp);
    free(s->row);
    for (unsigned p = 0; p < 3; p++)
        for (unsigned k = 0; k < 2; k++)
            free(s->blur[p][k]);
    free(s->half[0]);
    free(s->half[1]);
    *s = (FloatMotionCpu){ 0 };
}

/* Blur every plane of frame `index` (picture img) into slot index & 1,
 * unless this state did already. */
static void blur_frame(VgFeatureCtx *fc, FloatMotionCpu *s, const VgImage *img,
                       unsigned index)
{
    const VgFloatMotionOptions *o = fc->opts;
    const unsigned slot = index & 1;
    float tap[5];
    const unsigned n_taps = vg_fmotion_taps(o->motion_filter_size, tap);

    if (s->blurred[slot] == (long)index)
        return;
    for (unsigned p = 0; p < s->n_planes; p++) {
        s->fplane.to_float(s->conv, (ptrdiff_t)s->fstride, img, p, -128.0f);
        s->dsp.blur_plane(s->conv, s->blur[p][slot], s->tmp, (int)img->w[p],
                          (int)img->h[p], (ptrdiff_t)s->fstride, tap, n_taps);
    }
    s->blurred[slot] = index;
}

static int float_motion_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    const VgFloatMotionOptions *o = fc->opts;
    FloatMotionCpu *s = fc->priv;
    const unsigned i = f->index;
    double score;

    if (o->motion_force_zero || !i)
        return vg_float_motion_emit(fc, i, 0.);
    if (!f->prev_ref) {
        vg_log(fc->log, VG_LOG_ERROR,
               "float_motion: frame %u has no previous "
               "reference",
               i);
        return -EINVAL;
    }
    blur_frame(fc, s, f->prev_ref, i - 1);
    blur_frame(fc, s, f->ref, i);
    /* float_motion.c extract(): the luma's score, plus u and v in double */
    score =
        plane_score(s, s->blur[0][(i - 1) & 1], s->blur[0][i & 1],
                    (int)f->ref->w[0], (int)f->ref->h[0], o->motion_add_scale1);
    for (unsigned p = 1; p < s->n_planes; p++)
        score += plane_score(s, s->blur[p][(i - 1) & 1], s->blur[p][i & 1],
                             (int)f->ref->w[p], (int)f->ref->h[p],
                             o->motion_add_scale1);
    return vg_float_motion_emit(fc, i, score);
}

const VgFeatureImpl vg_cpu_float_motion = {
    .priv_size = sizeof(FloatMotionCpu),
    .init = float_motion_init,
    .extract = float_motion_extract,
    .close = float_motion_close,
};
