/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/scale.h"

/* libswscale's constants (swscale.h, swscale_internal.h) */
#define SWS_PARAM_DEFAULT_B 0.0 /* bicubic B, scaler_params[0] unset */
#define SWS_PARAM_DEFAULT_C 0.6 /* bicubic C, scaler_params[1] unset */
#define SWS_PARAM_DEFAULT_P 3.0 /* gauss and lanczos parameter */
#define SWS_REDUCE_CUTOFF 0.002 /* SWS_MAX_REDUCE_CUTOFF */
#define H_ONE (1 << 14)         /* horizontal rows sum to this */
#define V_ONE (1 << 12)         /* vertical rows sum to this */
#define H_ALIGN 4               /* filterAlign of x86 builds */
#define V_ALIGN 2

static const char *const scale_names[VG_SCALE_NB] = {
    [VG_SCALE_NONE] = "none",       [VG_SCALE_BILINEAR] = "bilinear",
    [VG_SCALE_BICUBIC] = "bicubic", [VG_SCALE_NEIGHBOR] = "neighbor",
    [VG_SCALE_AREA] = "area",       [VG_SCALE_BICUBLIN] = "bicublin",
    [VG_SCALE_GAUSS] = "gauss",     [VG_SCALE_SINC] = "sinc",
    [VG_SCALE_LANCZOS] = "lanczos", [VG_SCALE_SPLINE] = "spline",
};

const char *vg_scale_name(enum VgScale scale)
{
    return (unsigned)scale < VG_SCALE_NB ? scale_names[scale] : NULL;
}

int vg_scale_from_name(const char *name)
{
    for (int i = 0; name && i < VG_SCALE_NB; i++)
        if (!strcmp(name, scale_names[i]))
            return i;
    return -EINVAL;
}

/* av_log2() */
static int log2_int(unsigned v)
{
    int n = 0;

    while (v >>= 1)
        n++;
    return n;
}

/* libswscale's ROUNDED_DIV: to nearest, halves away from zero */
static int64_t rounded_div(int64_t a, int64_t b)
{
    return (a >= 0 ? a + (b >> 1) : a - (b >> 1)) / b;
}

/* utils.c getSplineCoeff(), unrolled: the cubic of the first unit
 * interval, then of each following one, in the same double operations */
static double spline_coeff(double a, double b, double c, double d, double dist)
{
    while (dist > 1.0) {
        const double a1 = 0.0;
        const double b1 = b + 2.0 * c + 3.0 * d;
        const double c1 = c + 3.0 * d;
        const double d1 = -b - 3.0 * c - 6.0 * d;

        a = a1;
        b = b1;
        c = c1;
        d = d1;
        dist = dist - 1.0;
    }
    return ((d * dist + c) * dist + b) * dist + a;
}

/* the kernel's weight at distance d (2^30 = one input sample, already
 * scaled to the output grid when shrinking), in units of fone */
static int64_t kernel_weight(enum VgScale alg, int64_t d, int64_t fone,
                             int64_t x_inc)
{
    const double floatd = d * (1.0 / (1 << 30));
    int64_t coeff;

    switch (alg) {
    case VG_SCALE_BICUBIC: {
        /* the Mitchell-Netravali cubic of parameters B, C (2^24 = 1):
         * the coefficients of d^0 .. d^3 within one sample and within two;
         * the powers of d in 2^30 fixed point, truncated as they are
         * formed; exact integer sums */
        const int64_t one = 1 << 24;
        const int64_t B = SWS_PARAM_DEFAULT_B * one;
        const int64_t C = SWS_PARAM_DEFAULT_C * one;
        const int64_t cubic[2][4] = {
            { 6 * one - 2 * B, 0, -18 * one + 12 * B + 6 * C,
              12 * one - 9 * B - 6 * C },
            { 8 * B + 24 * C, -12 * B - 48 * C, 6 * B + 30 * C, -B - 6 * C },
        };

        coeff = 0;
        if (d < 1LL << 31) {
            const int64_t *k = cubic[d >= 1LL << 30];
            const int64_t d2 = (d * d) >> 30;
            const int64_t pw[4] = { 1LL << 30, d, d2, (d2 * d) >> 30 };

            for (int i = 0; i < 4; i++)
                coeff += k[i] * pw[i];
        }
        coeff /= (1LL << 54) / fone;
        break;
    }
    case VG_SCALE_AREA: {
        const int64_t d2 = d - (1 << 29);

        if (d2 * x_inc < -(1LL << (29 + 16)))
            coeff = 1LL << (30 + 16);
        else if (d2 * x_inc < (1LL << (29 + 16)))
            coeff = -d2 * x_inc + (1LL << (29 + 16));
        else
            coeff = 0;
        coeff *= fone >> (30 + 16);
        break;
    }
    case VG_SCALE_GAUSS:
        coeff = exp2(-SWS_PARAM_DEFAULT_P * floatd * floatd) * fone;
        break;
    case VG_SCALE_SINC:
        coeff = (d ? sin(floatd * M_PI) / (floatd * M_PI) : 1.0) * fone;
        break;
    case VG_SCALE_LANCZOS: {
        const double p = SWS_PARAM_DEFAULT_P;

        coeff = (d ? sin(floatd * M_PI) * sin(floatd * M_PI / p) /
                         (floatd * floatd * M_PI * M_PI / p)
                   : 1.0) *
                fone;
        if (floatd > p)
            coeff = 0;
        break;
    }
    case VG_SCALE_BILINEAR:
        coeff = (1 << 30) - d;
        if (coeff < 0)
            coeff = 0;
        coeff *= fone >> 30;
        break;
    case VG_SCALE_SPLINE: {
        const double p = -2.196152422706632;

        coeff = spline_coeff(1.0, 0.0, p, -p - 1.0, floatd) * fone;
        break;
    }
    default:
        coeff = 0;
        break;
    }
    return coeff;
}

/* utils.c scale_algorithms[].size_factor of the kernels built by
 * kernel_weight() */
static int size_factor(enum VgScale alg)
{
    switch (alg) {
    case VG_SCALE_AREA:
        return 1;
    case VG_SCALE_BICUBIC:
        return 4;
    case VG_SCALE_BILINEAR:
        return 2;
    case VG_SCALE_GAUSS:
        return 8;
    case VG_SCALE_LANCZOS:
        return 6; /* ceil(2 * 3) */
    case VG_SCALE_SINC:
    case VG_SCALE_SPLINE:
        return 20;
    default:
        return 0;
    }
}

/*
 * libswscale's initFilter() for one axis, without source or destination
 * vectors, positions relative to the ideal left edge at 128 (centred)
 * on both sides: 64-bit weights of every output, reduced, aligned, the
 * borders folded into the edge samples, normalised to `one`.
 */
static int filter_init(VgScaleFilter *f, enum VgScale alg, unsigned src_len,
                       unsigned dst_len, int one, int align, VgLog *log,
                       const char *what)
{
    const int src_w = (int)src_len, dst_w = (int)dst_len;
    const int64_t x_inc = (((int64_t)src_w << 16) + (dst_w >> 1)) / dst_w;
    const int shrink_log2 = log2_int((unsigned)(src_w / dst_w));
    const int64_t fone = 1LL << (54 - (shrink_log2 < 8 ? shrink_log2 : 8));
    const int src_pos = 128, dst_pos = 128;
    int64_t *w = NULL, *w2 = NULL;
    int32_t *pos = NULL;
    int size, size2, min_size, ret = -ENOMEM;

    memset(f, 0, sizeof(*f));
    f->n_in = src_len;
    f->n_out = dst_len;
    if (x_inc < 10 || x_inc > INT32_MAX) {
        /* libswscale's own limit on the 16.16 step */
        vg_log(log, VG_LOG_ERROR,
               "scale: %s from %u to %u samples is out of "
               "libswscale's range of ratios",
               what, src_len, dst_len);
        return -EINVAL;
    }
    pos = calloc((size_t)dst_w, sizeof(*pos));
    if (!pos)
        goto fail;

    if (x_inc - 0x10000 < 10 && 0x10000 - x_inc < 10) {
        /* the same size: one tap of weight one */
        size = 1;
        if (!(w = calloc((size_t)dst_w, sizeof(*w))))
            goto fail;
        for (int i = 0; i < dst_w; i++) {
            w[i] = fone;
            pos[i] = i;
        }
    } else if (alg == VG_SCALE_NEIGHBOR) {
        int64_t x = ((dst_pos * x_inc) >> 8) - ((src_pos * 0x8000LL) >> 7);

        size = 1;
        if (!(w = calloc((size_t)dst_w, sizeof(*w))))
            goto fail;
        for (int i = 0; i < dst_w; i++) {
            pos[i] = (int)((x + (1 << 15)) >> 16);
            w[i] = fone;
            x += x_inc;
        }
    } else if (alg == VG_SCALE_AREA && x_inc <= 1 << 16) {
        /* area averaging of an enlargement: linear interpolation */
        int64_t x = ((dst_pos * x_inc) >> 8) - ((src_pos * 0x8000LL) >> 7);

        size = 2;
        if (!(w = calloc((size_t)dst_w * 2, sizeof(*w))))
            goto fail;
        for (int i = 0; i < dst_w; i++) {
            int xx = (int)((x - (1 << 15) + (1 << 15)) >> 16);

            pos[i] = xx;
            for (int j = 0; j < 2; j++, xx++) {
                int64_t dist = (int64_t)xx * (1 << 16) - x;
                int64_t c = fone - (dist < 0 ? -dist : dist) * (fone >> 16);
                w[i * 2 + j] = c < 0 ? 0 : c;
            }
            x += x_inc;
        }
    } else {
        int64_t x;

        size = x_inc <= 1 << 16
                   ? 1 + size_factor(alg)
                   : 1 + (size_factor(alg) * src_w + dst_w - 1) / dst_w;
        if (size > src_w - 2)
            size = src_w - 2;
        if (size < 1)
            size = 1;
        if (!(w = calloc((size_t)dst_w * size, sizeof(*w))))
            goto fail;
        x = ((dst_pos * x_inc) >> 7) - ((src_pos * 0x10000LL) >> 7);
        for (int i = 0; i < dst_w; i++) {
            int xx = (int)((x - (size - 2) * (1LL << 16)) / (1 << 17));

            pos[i] = xx;
            for (int j = 0; j < size; j++, xx++) {
                int64_t dist = ((int64_t)xx * (1 << 17)) - x;
                int64_t d = (dist < 0 ? -dist : dist) << 13;

                if (x_inc > 1 << 16)
                    d = d * dst_w / src_w;
                w[i * size + j] = kernel_weight(alg, d, fone, x_inc);
            }
            x += 2 * x_inc;
        }
    }

    /* the near-zero taps at both ends of each row: shift the row left
     * past those at its start (keeping the positions increasing), count
     * those at its end; the longest remaining row sets the size */
    size2 = size;
    min_size = 0;
    for (int i = dst_w - 1; i >= 0; i--) {
        int64_t cut = 0;
        int keep = size2;

        for (int j = 0; j < size2; j++) {
            cut += llabs(w[i * size2]);
            if (cut > SWS_REDUCE_CUTOFF * fone)
                break;
            if (i < dst_w - 1 && pos[i] >= pos[i + 1])
                break;
            memmove(&w[i * size2], &w[i * size2 + 1],
                    (size_t)(size2 - 1) * sizeof(*w));
            w[i * size2 + size2 - 1] = 0;
            pos[i]++;
        }
        cut = 0;
        for (int j = size2 - 1; j > 0; j--) {
            cut += llabs(w[i * size2 + j]);
            if (cut > SWS_REDUCE_CUTOFF * fone)
                break;
            keep--;
        }
        if (keep > min_size)
            min_size = keep;
    }
    if (min_size == 1 && align == V_ALIGN)
        align = 1; /* the x86 builds' special case of one vertical tap */
    size = (min_size + align - 1) & ~(align - 1);
    if (size > VG_SCALE_MAX_TAPS) {
        vg_log(log, VG_LOG_ERROR,
               "scale: %s from %u to %u samples needs %d "
               "filter taps; libswscale scales that in several passes, which "
               "is not reproduced: at most %d taps (shrink by less)",
               what, src_len, dst_len, size, VG_SCALE_MAX_TAPS);
        ret = -ERANGE;
        goto fail;
    }
    if (!(w2 = calloc((size_t)dst_w * size, sizeof(*w2))))
        goto fail;
    /* SWS_BITEXACT: the alignment taps stay zero */
    for (int i = 0; i < dst_w; i++)
        for (int j = 0; j < size && j < size2 && j < min_size; j++)
            w2[i * size + j] = w[i * size2 + j];

    /* the borders: a tap outside the source weighs its nearest edge
     * sample instead, and a row reaching past the end starts early enough
     * to end on the last sample (at 0 if it is longer than the source) */
    for (int i = 0; i < dst_w; i++) {
        int64_t *r = &w2[i * size], folded[VG_SCALE_MAX_TAPS] = { 0 };
        int first = pos[i] > 0 ? pos[i] : 0;

        if (first + size > src_w)
            first = src_w - size > 0 ? src_w - size : 0;
        for (int j = 0; j < size; j++) {
            const int at = pos[i] + j < 0        ? 0
                           : pos[i] + j >= src_w ? src_w - 1
                                                 : pos[i] + j;
            folded[at - first] += r[j];
        }
        memcpy(r, folded, (size_t)size * sizeof(*r));
        pos[i] = first;
    }

    /* normalise each row to `one`, carrying the rounding error along */
    f->size = (unsigned)size;
    f->coef = calloc((size_t)dst_w * size, sizeof(*f->coef));
    if (!f->coef)
        goto fail;
    for (int i = 0; i < dst_w; i++) {
        int64_t sum = 0, err = 0;

        for (int j = 0; j < size; j++)
            sum += w2[i * size + j];
        sum = (sum + one / 2) / one;
        if (!sum)
            sum = 1;
        for (int j = 0; j < size; j++) {
            const int64_t v = w2[i * size + j] + err;
            const int c = (int)rounded_div(v, sum);

            f->coef[i * size + j] = (int16_t)c;
            err = v - c * sum;
        }
        /* libswscale reads the taps past the source from padding; here
         * they must weigh nothing, and are not read */
        for (int j = 0; j < size; j++)
            if (pos[i] + j >= src_w && f->coef[i * size + j]) {
                vg_log(log, VG_LOG_ERROR,
                       "scale: %s filter of output %d "
                       "weighs sample %d past the %d of the source",
                       what, i, pos[i] + j, src_w);
                ret = -EINVAL;
                goto fail;
            }
    }
    f->pos = pos;
    pos = NULL;
    ret = 0;
fail:
    if (ret == -ENOMEM)
        vg_log(log, VG_LOG_ERROR, "scale: out of memory");
    if (ret < 0) {
        free(f->coef);
        f->coef = NULL;
    }
    free(pos);
    free(w);
    free(w2);
    return ret;
}

/* the chroma size of a luma size, ceil-sized (AV_CEIL_RSHIFT) */
static unsigned chroma_len(unsigned len, unsigned shift)
{
    return (len + (1u << shift) - 1) >> shift;
}

int vg_scaler_init(VgScaler *s, enum VgScale alg, enum VgImageLayout layout,
                   unsigned bpc, unsigned src_w, unsigned src_h, unsigned dst_w,
                   unsigned dst_h, VgLog *log)
{
    unsigned ssx, ssy;
    int ret;

    memset(s, 0, sizeof(*s));
    if (alg <= VG_SCALE_NONE || alg >= VG_SCALE_NB) {
        vg_log(log, VG_LOG_ERROR, "scale: no scaling algorithm %d", (int)alg);
        return -EINVAL;
    }
    if (bpc < 8 || bpc > VG_SCALE_MAX_BPC) {
        vg_log(log, VG_LOG_ERROR,
               "scale: %u-bit pictures are not scaled "
               "(8 to %d bits; libswscale scales 15- and 16-bit ones through "
               "other intermediates): scale them in front",
               bpc, VG_SCALE_MAX_BPC);
        return -EINVAL;
    }
    if (!src_w || !src_h || !dst_w || !dst_h) {
        vg_log(log, VG_LOG_ERROR, "scale: empty picture (%ux%u to %ux%u)",
               src_w, src_h, dst_w, dst_h);
        return -EINVAL;
    }
    s->alg = alg;
    s->layout = layout;
    s->bpc = bpc;
    s->src_w = src_w;
    s->src_h = src_h;
    s->dst_w = dst_w;
    s->dst_h = dst_h;
    vg_layout_shifts(layout, &ssx, &ssy);
    for (int c = 0; c < (layout == VG_LAYOUT_400 ? 1 : 2); c++) {
        /* bicublin: bicubic luma, bilinear chroma */
        const enum VgScale a = alg != VG_SCALE_BICUBLIN ? alg
                               : c                      ? VG_SCALE_BILINEAR
                                                        : VG_SCALE_BICUBIC;
        const unsigned sx = c ? ssx : 0, sy = c ? ssy : 0;

        if ((ret = filter_init(&s->h[c], a, chroma_len(src_w, sx),
                               chroma_len(dst_w, sx), H_ONE, H_ALIGN, log,
                               c ? "chroma width" : "width")) < 0 ||
            (ret = filter_init(&s->v[c], a, chroma_len(src_h, sy),
                               chroma_len(dst_h, sy), V_ONE, V_ALIGN, log,
                               c ? "chroma height" : "height")) < 0) {
            vg_scaler_uninit(s);
            return ret;
        }
    }
    return 0;
}

void vg_scaler_uninit(VgScaler *s)
{
    VgScaleFilter *f[] = { &s->h[0], &s->h[1], &s->v[0], &s->v[1] };

    for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
        free(f[i]->pos);
        free(f[i]->coef);
        memset(f[i], 0, sizeof(*f[i]));
    }
}

size_t vg_scaler_src_geometry(const VgScaler *s, VgImage *img)
{
    unsigned ssx, ssy;

    vg_image_geometry(img, s->layout, s->bpc, s->src_w, s->src_h);
    vg_layout_shifts(s->layout, &ssx, &ssy);
    for (unsigned p = 1; p < img->nb_planes; p++) {
        img->w[p] = chroma_len(s->src_w, ssx);
        img->h[p] = chroma_len(s->src_h, ssy);
    }
    return vg_image_strides(img);
}

size_t vg_scaler_tmp_size(const VgScaler *s)
{
    /* the luma plane's rows are the largest: source rows, output columns */
    return (size_t)s->src_h * s->dst_w * sizeof(int16_t);
}

/* hScale8To15 / hScale16To15: one source row into 15-bit intermediates */
static void scale_row_h(int16_t *dst, const void *src, int wide,
                        const VgScaleFilter *f, unsigned sh, unsigned n_out)
{
    for (unsigned i = 0; i < n_out; i++) {
        const int32_t p = f->pos[i];
        const int16_t *c = &f->coef[(size_t)i * f->size];
        const unsigned taps =
            f->n_in - (unsigned)p < f->size ? f->n_in - (unsigned)p : f->size;
        int v = 0;

        if (wide)
            for (unsigned j = 0; j < taps; j++)
                v += ((const uint16_t *)src)[p + j] * c[j];
        else
            for (unsigned j = 0; j < taps; j++)
                v += ((const uint8_t *)src)[p + j] * c[j];
        v >>= sh;
        dst[i] = (int16_t)(v < 32767 ? v : 32767);
    }
}

void vg_scaler_run(const VgScaler *s, VgImage *dst, const VgImage *src,
                   int16_t *tmp)
{
    const unsigned sh = s->bpc - 1, shift = 27 - s->bpc;
    const int bias = 1 << (26 - s->bpc), maxv = (1 << s->bpc) - 1;
    const int wide = s->bpc > 8;
    const unsigned n = s->luma_only ? 1 : dst->nb_planes;

    for (unsigned p = 0; p < n; p++) {
        const VgScaleFilter *fh = &s->h[p ? 1 : 0], *fv = &s->v[p ? 1 : 0];
        const unsigned w = dst->w[p], h = dst->h[p];

        for (unsigned y = 0; y < fv->n_in; y++)
            scale_row_h(tmp + (size_t)y * w,
                        (const uint8_t *)src->data[p] + y * src->stride[p],
                        wide, fh, sh, w);
        for (unsigned y = 0; y < h; y++) {
            const int32_t r = fv->pos[y];
            const int16_t *c = &fv->coef[(size_t)y * fv->size];
            const unsigned taps = fv->n_in - (unsigned)r < fv->size
                                      ? fv->n_in - (unsigned)r
                                      : fv->size;
            uint8_t *out = (uint8_t *)dst->data[p] + y * dst->stride[p];

            for (unsigned x = 0; x < w; x++) {
                /* libswscale sums in unsigned (wrapping) 32-bit words */
                uint32_t v = (uint32_t)bias;
                int o;

                for (unsigned j = 0; j < taps; j++)
                    v += (uint32_t)(tmp[(size_t)(r + j) * w + x] * c[j]);
                o = (int32_t)v >> shift;
                o = o < 0 ? 0 : o > maxv ? maxv : o;
                if (wide)
                    ((uint16_t *)out)[x] = (uint16_t)o;
                else
                    out[x] = (uint8_t)o;
            }
        }
    }
}
