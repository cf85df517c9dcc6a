/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CAMBI's descriptor, set-up and finish, as libvmaf v3.2.0
 * src/feature/cambi.c (init(), extract()) and src/feature/luminance_tools.c.
 *
 * Options: libvmaf's, with its names, aliases, defaults and ranges; all
 * but full_ref are feature params (they rename the outputs). eotf and
 * cambi_eotf take bt1886 or pq (libvmaf takes any string and fails init()
 * on others); cambi_eotf wins when it is not bt1886, and topk wins over
 * cambi_topk when it is not 0.6. heatmaps_path writes the distorted
 * picture's c-values of every scale to files (VgCambiHeatmaps); in a
 * ladder of several renditions it must hold one %d, the rendition's
 * number, so that each rendition writes a folder of its own.
 *
 * Outputs: cambi (Cambi_feature_cambi_score); with full_ref also
 * cambi_source and cambi_full_reference, which cambi.c writes under those
 * plain names (they are not among its provided features, so they carry
 * no option suffix).
 *
 * Only the luma plane is read, at every depth the library takes (8..16):
 * cambi.c converts any depth to 10 bits. No temporal state: each frame's
 * score depends on that frame only.
 */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/features/cambi.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgCambiOptions, field)

static const char *const eotf_names[] = { "bt1886", "pq", NULL };

/* clang-format off */
static const VgFeatureOption cambi_options[] = {
    { .name = "cambi_max_val", .alias = "cmxv", .type = VG_OPT_DOUBLE,
      OPT(cambi_max_val), .def = 1000.0, .min = 0.0, .max = 1000.0,
      .feature_param = 1,
      .help = "maximum value allowed; larger values are clipped to it" },
    { .name = "enc_width", .alias = "encw", .type = VG_OPT_INT,
      OPT(enc_width), .def = 0, .min = 180, .max = 7680,
      .feature_param = 1, .help = "encoding width" },
    { .name = "enc_height", .alias = "ench", .type = VG_OPT_INT,
      OPT(enc_height), .def = 0, .min = 150, .max = 7680,
      .feature_param = 1, .help = "encoding height" },
    { .name = "enc_bitdepth", .alias = "encbd", .type = VG_OPT_INT,
      OPT(enc_bitdepth), .def = 0, .min = 6, .max = 16,
      .feature_param = 1, .help = "encoding bit depth" },
    { .name = "src_width", .alias = "srcw", .type = VG_OPT_INT,
      OPT(src_width), .def = 0, .min = 320, .max = 7680,
      .feature_param = 1, .help = "source width (used with full_ref)" },
    { .name = "src_height", .alias = "srch", .type = VG_OPT_INT,
      OPT(src_height), .def = 0, .min = 200, .max = 4320,
      .feature_param = 1, .help = "source height (used with full_ref)" },
    { .name = "window_size", .alias = "ws", .type = VG_OPT_INT,
      OPT(window_size), .def = 65, .min = 15, .max = 127,
      .feature_param = 1,
      .help = "window size at 4K (65 is about one degree)" },
    { .name = "topk", .type = VG_OPT_DOUBLE, OPT(topk), .def = 0.6,
      .min = 0.0001, .max = 1.0, .feature_param = 1,
      .help = "ratio of pixels pooled per scale, 0 < topk <= 1" },
    { .name = "cambi_topk", .alias = "ctpk", .type = VG_OPT_DOUBLE,
      OPT(cambi_topk), .def = 0.6, .min = 0.0001, .max = 1.0,
      .feature_param = 1,
      .help = "ratio of pixels pooled per scale, 0 < cambi_topk <= 1" },
    { .name = "tvi_threshold", .alias = "tvit", .type = VG_OPT_DOUBLE,
      OPT(tvi_threshold), .def = 0.019, .min = 0.0001, .max = 1.0,
      .feature_param = 1,
      .help = "visibility threshold: delta L < tvi_threshold * L" },
    { .name = "cambi_vis_lum_threshold", .alias = "vlt", .type = VG_OPT_DOUBLE,
      OPT(cambi_vis_lum_threshold), .def = 0.0, .min = 0.0, .max = 300.0,
      .feature_param = 1,
      .help = "luminance (cd/m2) below which banding is not visible" },
    { .name = "max_log_contrast", .alias = "mlc", .type = VG_OPT_INT,
      OPT(max_log_contrast), .def = 2, .min = 0, .max = 5,
      .feature_param = 1,
      .help = "largest contrast considered, log2 of 10-bit luma steps" },
    { .name = "full_ref", .type = VG_OPT_BOOL, OPT(full_ref), .def = 0,
      .min = 0, .max = 1,
      .help = "also score the reference: cambi_source, cambi_full_reference" },
    { .name = "eotf", .type = VG_OPT_ENUM, OPT(eotf),
      .def = VG_CAMBI_EOTF_BT1886, .feature_param = 1, .values = eotf_names,
      .help = "EOTF of the visibility thresholds: bt1886 or pq" },
    { .name = "cambi_eotf", .alias = "ceot", .type = VG_OPT_ENUM,
      OPT(cambi_eotf), .def = VG_CAMBI_EOTF_BT1886, .feature_param = 1,
      .values = eotf_names,
      .help = "EOTF of the visibility thresholds (wins over eotf)" },
    { .name = "cambi_high_res_speedup", .alias = "hrs", .type = VG_OPT_INT,
      OPT(cambi_high_res_speedup), .def = 0, .min = 0, .max = 2160,
      .feature_param = 1,
      .help = "halve pictures of at least this height class (1080, 1440, "
              "2160) after the spatial mask; 0 = off" },
    { .name = "heatmaps_path", .type = VG_OPT_STRING, OPT(heatmaps_path),
      .help = "directory the per-scale heatmaps of the c-values are "
              "written to (created if missing)" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput cambi_outputs[] = {
    [VG_CAMBI_OUT_CAMBI]          = { "Cambi_feature_cambi_score", "cambi", 0 },
    [VG_CAMBI_OUT_SOURCE]         = { "cambi_source", NULL, VG_OUTPUT_NO_PARAMS },
    [VG_CAMBI_OUT_FULL_REFERENCE] = { "cambi_full_reference", NULL,
                                      VG_OUTPUT_NO_PARAMS },
    { NULL }
};
/* clang-format on */

static int cambi_outputs_used(const void *opts, unsigned out)
{
    const VgCambiOptions *o = opts;

    return out == VG_CAMBI_OUT_CAMBI || o->full_ref;
}

/* ---- luminance (luminance_tools.c), 10-bit limited range --------------- */

#define LUMA_FOOT 64  /* range_foot_head(): 16 << 2 */
#define LUMA_HEAD 940 /* 235 << 2 */

typedef double (*Eotf)(double v);

static double eotf_bt1886(double v)
{
    /* vmaf_luminance_bt1886_eotf(): gamma 2.4, Lw 300, Lb 0.01 */
    const double a = pow(pow(300.0, 1.0 / 2.4) - pow(0.01, 1.0 / 2.4), 2.4);
    const double b =
        pow(0.01, 1.0 / 2.4) / (pow(300.0, 1.0 / 2.4) - pow(0.01, 1.0 / 2.4));
    const double x = v + b;

    return a * pow(x > 0 ? x : 0, 2.4);
}

static double eotf_pq(double v)
{
    /* vmaf_luminance_pq_eotf(): SMPTE ST 2084 */
    const double m1 = 0.1593017578125, m2 = 78.84375;
    const double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double num = pow(v, 1.0 / m2) - c1;
    const double den = c2 - c3 * pow(v, 1.0 / m2);

    return 10000 * pow((num > 0 ? num : 0) / den, 1.0 / m1);
}

static double luminance(int sample, Eotf eotf)
{
    /* normalize_range(): clip to [foot, head], then (s - foot) / (head - foot) */
    const int s = sample < LUMA_FOOT   ? LUMA_FOOT
                  : sample > LUMA_HEAD ? LUMA_HEAD
                                       : sample;

    return eotf((double)(s - LUMA_FOOT) / (LUMA_HEAD - LUMA_FOOT));
}

/* cambi.c tvi_condition(): the step of `diff` levels from `sample` is visible */
static int tvi_visible(int sample, int diff, double tvi, Eotf eotf)
{
    const double mean = luminance(sample, eotf);
    const double step = luminance(sample + diff, eotf);

    return step - mean > tvi * mean;
}

enum {
    TVI_TOO_SMALL,
    TVI_CORRECT,
    TVI_TOO_BIG
};

static int tvi_bisect_flag(int sample, int diff, double tvi, Eotf eotf)
{
    if (!tvi_visible(sample, diff, tvi, eotf))
        return TVI_TOO_BIG;
    if (tvi_visible(sample + 1, diff, tvi, eotf))
        return TVI_TOO_SMALL;
    return TVI_CORRECT;
}

/*
 * cambi.c get_tvi_for_diff() at 10 bits: the largest sample whose step of
 * `diff` is visible, by bisection over [foot, head - diff - 1]; 0 if the
 * foot's is not, 1023 if the top's is. -1 if the bisection stops moving
 * (cambi.c would loop forever; not seen for any option value).
 */
static int tvi_for_diff(int diff, double tvi, Eotf eotf)
{
    int foot = LUMA_FOOT, head = LUMA_HEAD - diff - 1, f;

    f = tvi_bisect_flag(foot, diff, tvi, eotf);
    if (f == TVI_TOO_BIG)
        return 0;
    if (f == TVI_CORRECT)
        return foot;
    f = tvi_bisect_flag(head, diff, tvi, eotf);
    if (f == TVI_TOO_SMALL)
        return 1023;
    if (f == TVI_CORRECT)
        return head;
    for (;;) {
        const int mid = foot + (head - foot) / 2;

        f = tvi_bisect_flag(mid, diff, tvi, eotf);
        if (f == TVI_CORRECT)
            return mid;
        if ((f == TVI_TOO_BIG && head == mid) ||
            (f == TVI_TOO_SMALL && foot == mid))
            return -1;
        if (f == TVI_TOO_BIG)
            head = mid;
        else
            foot = mid;
    }
}

/* cambi.c get_vlt_luma(): the first sample from the foot at least as
 * bright as vlt, or 0 when that is the foot itself */
static uint16_t vlt_luma(double vlt, Eotf eotf)
{
    uint16_t s = LUMA_FOOT;

    /* luminance(940) is the EOTF's peak (300 or 10000), >= vlt's maximum */
    while (luminance(s, eotf) < vlt)
        s++;
    return s == LUMA_FOOT ? 0 : s;
}

/* ---- sizes ---------------------------------------------------------------- */

#define MIN_WIDTH_HEIGHT 216 /* CAMBI_MIN_WIDTH_HEIGHT */

/* cambi.c adjust_window_size(): scale by (W + H) / (3840 + 2160), halve
 * with the high-resolution speed-up, make odd; uint16 like window_size */
static unsigned adjust_window(int window, unsigned w, unsigned h, int high_res)
{
    uint16_t ws = (uint16_t)(((unsigned)window * (w + h) / 375) >> 4);

    if (high_res)
        ws = (uint16_t)((ws + 1) >> 1);
    return ws | 1;
}

static unsigned ceil_log2(uint32_t n)
{
    unsigned shift = 0;

    if (!n)
        return 0;
    for (uint32_t t = n - 1; t; t >>= 1)
        shift++;
    return shift;
}

/* cambi.c get_mask_index() with the 7x7 mask filter */
static uint16_t mask_index(unsigned w, unsigned h)
{
    const uint32_t wh = (uint32_t)((w >> 6) * (h >> 6));

    return (uint16_t)((7 * 7 + 3 * ((int)ceil_log2(wh) - 11) - 1) >> 1);
}

/*
 * The histogram window (half size pad) must fit the picture at every
 * scale: cambi.c calculate_c_values() fills its first pad rows and
 * columns before it looks at the size, and computes rows up to pad, so a
 * larger window reads rows and columns past the scaled picture and, at the
 * full size, writes past its c-value buffer.
 */
static int check_pass(const VgCambiPass *ps, int high_res, const char *what,
                      VgLog *log)
{
    const unsigned pad = ps->window >> 1;
    unsigned w = ps->width, h = ps->height;

    if (pad >= h || pad > w)
        goto fail;
    for (int s = 0; s < VG_CAMBI_SCALES - 1 + !!high_res; s++) {
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
    if (pad > h || pad > w)
        goto fail;
    return 0;
fail:
    vg_log(log, VG_LOG_ERROR,
           "cambi: %s %ux%u is too small for its window "
           "of %u at the coarsest scale (%ux%u)",
           what, ps->width, ps->height, ps->window, w, h);
    return -EINVAL;
}

int vg_cambi_setup(VgCambiParams *p, const VgCambiOptions *o, unsigned w,
                   unsigned h, unsigned bpc, VgLog *log)
{
    const Eotf eotf =
        (o->cambi_eotf != VG_CAMBI_EOTF_BT1886 ? o->cambi_eotf : o->eotf) ==
                VG_CAMBI_EOTF_PQ
            ? eotf_pq
            : eotf_bt1886;
    unsigned enc_w = o->enc_width, enc_h = o->enc_height;
    unsigned src_w = o->src_width, src_h = o->src_height;
    unsigned nd;
    int ret, band;

    /* init(): zero means the input's; an encode larger than the input is
     * not upscaled back */
    if (!enc_w || !enc_h) {
        enc_w = w;
        enc_h = h;
    }
    if (!src_w || !src_h) {
        src_w = w;
        src_h = h;
    }
    if (enc_h > h || enc_w > w) {
        enc_w = w;
        enc_h = h;
    }
    if (enc_w < MIN_WIDTH_HEIGHT && enc_h < MIN_WIDTH_HEIGHT) {
        vg_log(log, VG_LOG_ERROR,
               "cambi: %ux%u is too small (width or "
               "height must be at least %d)",
               enc_w, enc_h, MIN_WIDTH_HEIGHT);
        return -EINVAL;
    }
    if (src_w < MIN_WIDTH_HEIGHT && src_h < MIN_WIDTH_HEIGHT) {
        vg_log(log, VG_LOG_ERROR,
               "cambi: source %ux%u is too small (width "
               "or height must be at least %d)",
               src_w, src_h, MIN_WIDTH_HEIGHT);
        return -EINVAL;
    }
    if ((src_w > enc_w && src_h < enc_h) || (src_w < enc_w && src_h > enc_h)) {
        vg_log(log, VG_LOG_ERROR,
               "cambi: source %ux%u and encode %ux%u "
               "differ in aspect (one is wider, the other taller)",
               src_w, src_h, enc_w, enc_h);
        return -EINVAL;
    }
    /* cambi.c copies a 10-bit input that keeps its size as one block of
     * rows at the input's stride, into work pictures that are wider than
     * the input here: the rows come out sheared and partly stale */
    if (o->full_ref && bpc == 10 && src_w > w && enc_w == w && enc_h == h) {
        vg_log(log, VG_LOG_ERROR,
               "cambi: full_ref with src_width %u wider "
               "than the %u-wide 10-bit input is not supported",
               src_w, w);
        return -EINVAL;
    }

    switch (o->cambi_high_res_speedup) {
    case 1080:
        p->high_res = enc_w * enc_h >= 1920 * 1080;
        break;
    case 1440:
        p->high_res = enc_w * enc_h >= 2560 * 1440;
        break;
    case 2160:
        p->high_res = enc_w * enc_h >= 3840 * 2160;
        break;
    default:
        p->high_res = 0;
        break;
    }

    p->full_ref = o->full_ref;
    p->alloc_w = o->full_ref && src_w > enc_w ? src_w : enc_w;
    p->alloc_h = o->full_ref && src_h > enc_h ? src_h : enc_h;
    p->enc_bitdepth = o->enc_bitdepth ? (unsigned)o->enc_bitdepth : bpc;
    p->topk = o->topk != 0.6 ? o->topk : o->cambi_topk;
    p->max_val = o->cambi_max_val;

    /* set_contrast_arrays(): diffs 1..num_diffs and their weights */
    static const int contrast_weights[VG_CAMBI_MAX_DIFFS] = {
        1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
        8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    };
    nd = p->num_diffs = 1u << o->max_log_contrast;
    for (unsigned d = 0; d < nd; d++) {
        const int t = tvi_for_diff((int)d + 1, o->tvi_threshold, eotf);

        if (t < 0) {
            vg_log(log, VG_LOG_ERROR,
                   "cambi: no visibility threshold for a "
                   "step of %u at tvi_threshold %g",
                   d + 1, o->tvi_threshold);
            return -EINVAL;
        }
        p->tvi_for_diff[d] = (uint16_t)(t + nd);
        p->diff_weights[d] = contrast_weights[d];
        /* the histogram band below holds every cell c_value_pixel() reads
         * only if the thresholds grow with the step (they do for every
         * option value) */
        if (d && p->tvi_for_diff[d] < p->tvi_for_diff[d - 1]) {
            vg_log(log, VG_LOG_ERROR,
                   "cambi: visibility thresholds not "
                   "increasing at tvi_threshold %g",
                   o->tvi_threshold);
            return -EINVAL;
        }
    }
    p->vlt_luma = vlt_luma(o->cambi_vis_lum_threshold, eotf);

    p->pass[0].width = enc_w;
    p->pass[0].height = enc_h;
    p->pass[0].window =
        adjust_window(o->window_size, enc_w, enc_h, p->high_res);
    p->pass[1].width = src_w;
    p->pass[1].height = src_h;
    p->pass[1].window =
        adjust_window(o->window_size, src_w, src_h, p->high_res);
    for (int i = 0; i < 2; i++) {
        const unsigned ws = p->pass[i].window;

        p->pass[i].mask_index = mask_index(p->pass[i].width, p->pass[i].height);
        if (ws * ws >= VG_CAMBI_RLUT_SIZE) {
            vg_log(log, VG_LOG_ERROR,
                   "cambi: window_size %u too large for "
                   "reciprocal LUT",
                   ws);
            return -EINVAL;
        }
    }
    if ((ret = check_pass(&p->pass[0], p->high_res, "picture", log)) < 0 ||
        (o->full_ref &&
         (ret = check_pass(&p->pass[1], p->high_res, "source", log)) < 0))
        return ret;

    /* calculate_c_values(): only values in [base, base + size) are counted */
    band = (int)p->vlt_luma - 3 * (int)nd + 1;
    p->band_base = (uint16_t)(band > 0 ? band : 0);
    band = p->tvi_for_diff[nd - 1] + 1 - p->band_base;
    p->band_size = (uint16_t)band;
    /*
     * An empty band (a bright vlt): a pixel's c-value needs its value v
     * >= base and v + num_diffs <= some tvi_for_diff[d] <= the last one
     * < base; none qualifies, every c-value is +0 and so is every score.
     * cambi.c gives that 0 while the size is 0, and crashes once its
     * uint16 size wraps around (uh_slide() then indexes the histograms
     * with the negative v - base).
     */
    p->all_zero = band <= 0;

    /* cambi.h reciprocal_lut[i]: 1 / i written with 9 significant digits,
     * read as a float (42 entries differ from 1.0f / i), [0] = 0 */
    p->rlut[0] = 0.0f;
    for (int i = 1; i < VG_CAMBI_RLUT_SIZE; i++) {
        char buf[32];

        snprintf(buf, sizeof(buf), "%.9g", 1.0 / i);
        p->rlut[i] = strtof(buf, NULL);
    }
    return 0;
}

/* ---- pooling -------------------------------------------------------------- */

/*
 * quick_select(): Hoare partitioning around a[k] until the k largest
 * values are a[0..k-1], descending side first. The order it leaves them
 * in is the order of the double sum below, so it is cambi.c's algorithm
 * step for step.
 */
static void quick_select(float *a, int n, int k)
{
    int left = 0, right = n - 1;

    if (n == k)
        return;
    while (left < right) {
        const float pivot = a[k];
        int i = left, j = right;

        do {
            while (a[i] > pivot)
                i++;
            while (a[j] < pivot)
                j--;
            if (i <= j) {
                const float t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < k)
            left = i;
        if (k < i)
            right = j;
    }
}

/* spatial_pooling(): the mean of the top max(1, trunc(topk * n)) c-values */
double vg_cambi_pool(float *c, double topk, unsigned w, unsigned h)
{
    const int n = (int)(w * h);
    const int t = (int)(topk * n);
    const int k = t < 1 ? 1 : t > n ? n : t;
    double sum = 0;

    quick_select(c, n, k);
    for (int i = 0; i < k; i++)
        sum += c[i];
    return sum / k;
}

/*
 * spatial_pooling() without the selection's order where the order cannot
 * matter: common/features/cambi_params.h's selection (the one the CUDA
 * kernels run), its histograms added here in one pass each over the
 * c-values.
 */
int vg_cambi_pool_exact(const float *c, unsigned n, uint32_t k,
                        VgCambiPoolSeg *seg, double *out)
{
    VgCambiPoolResult r;

    if (n >= 1u << 24)
        return 0;
    memset(seg, 0, sizeof(*seg));
    for (unsigned i = 0; i < n; i++) {
        uint32_t bits;
        int cl;

        memcpy(&bits, c + i, sizeof(bits));
        if ((cl = vg_cambi_pool_class(bits)) < 0)
            return 0;
        if (cl) {
            seg->cnt1[(bits >> 20) - VG_CAMBI_POOL_BIN0]++;
            seg->sig1[(bits >> 20) - VG_CAMBI_POOL_BIN0] +=
                vg_cambi_pool_sig(bits);
        }
    }
    vg_cambi_pool_select1(seg, k);
    if (seg->level == VG_CAMBI_POOL_LEVEL2) {
        for (unsigned i = 0; i < n; i++) {
            uint32_t bits;

            memcpy(&bits, c + i, sizeof(bits));
            if (bits >> 20 == seg->b1) {
                seg->cnt2[bits >> 10 & 1023]++;
                seg->sig2[bits >> 10 & 1023] += vg_cambi_pool_sig(bits);
            }
        }
        vg_cambi_pool_select2(seg);
        for (unsigned i = 0; i < n; i++) {
            uint32_t bits;

            memcpy(&bits, c + i, sizeof(bits));
            if (bits >> 10 == seg->b2)
                seg->cnt3[bits & 1023]++;
        }
    }
    vg_cambi_pool_select3(seg, n, k, &r);
    if (!r.exact)
        return 0;
    *out = vg_cambi_pool_mean(&r);
    return 1;
}

double vg_cambi_pool_mean(const VgCambiPoolResult *r)
{
    return (double)r->sum / (double)(1u << VG_CAMBI_POOL_SHIFT) / r->k;
}

double vg_cambi_pool_fast(float *c, double topk, unsigned w, unsigned h,
                          VgCambiPoolSeg *seg, int *exact)
{
    const int n = (int)(w * h);
    const int t = (int)(topk * n);
    const int k = t < 1 ? 1 : t > n ? n : t;
    double score;
    const int ok =
        vg_cambi_pool_exact(c, (unsigned)n, (uint32_t)k, seg, &score);

    if (exact)
        *exact = ok;
    return ok ? score : vg_cambi_pool(c, topk, w, h);
}

double vg_cambi_score(const double scores[VG_CAMBI_SCALES], unsigned window)
{
    static const int scale_weights[VG_CAMBI_SCALES] = { 16, 8, 4, 2, 1 };
    double score = 0.0;

    /* weight_scores_per_scale() over get_pixels_in_window() */
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++)
        score += scores[sc] * scale_weights[sc];
    return score / (uint16_t)(window * window);
}

int vg_cambi_emit(VgFeatureCtx *fc, const VgCambiParams *p, unsigned index,
                  double dist, double src)
{
    int ret;

    /* extract(): MIN(score, cambi_max_val), MAX(0, dist - src) */
    ret = vg_feature_emit(fc, VG_CAMBI_OUT_CAMBI, index,
                          dist < p->max_val ? dist : p->max_val);
    if (ret >= 0 && p->full_ref) {
        const double comb = 0 > dist - src ? 0 : dist - src;

        ret = vg_feature_emit(fc, VG_CAMBI_OUT_SOURCE, index,
                              src < p->max_val ? src : p->max_val);
        if (ret >= 0)
            ret = vg_feature_emit(fc, VG_CAMBI_OUT_FULL_REFERENCE, index,
                                  comb < p->max_val ? comb : p->max_val);
    }
    return ret;
}

/*
 * cpu/cambi.c to_10bit()'s source coordinates of a resize: x steps by
 * iw / ow in float from (iw / ow) / 2 - 0.5, rounded by truncating x + 0.5;
 * the same for y. Clamped to the picture as there.
 */
static void resize_axis(uint32_t *t, unsigned in, unsigned out)
{
    const float r = (float)in / (float)out;
    float v = r / 2 - 0.5;

    for (unsigned k = 0; k < out; k++) {
        unsigned iv = (unsigned)(int)(v + 0.5);

        if (iv >= in)
            iv = in - 1;
        t[k] = iv;
        v += r;
    }
}

void vg_cambi_resize_tables(uint32_t *tx, uint32_t *ty, unsigned iw,
                            unsigned ih, unsigned ow, unsigned oh)
{
    resize_axis(ty, ih, oh);
    resize_axis(tx, iw, ow);
}

/* ---- heatmaps ------------------------------------------------------------ */

/* mkdir -p with mode 0770 (libvmaf's mkdirp) */
static int make_dirs(const char *dir)
{
    char buf[VG_OPT_STRING_MAX];
    struct stat st;
    size_t n = strlen(dir);

    if (n >= sizeof(buf))
        return -ENAMETOOLONG;
    memcpy(buf, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        buf[i] = '\0';
        if (mkdir(buf, 0770) < 0 && errno != EEXIST)
            return -errno;
        buf[i] = i < n ? '/' : '\0';
    }
    if (stat(dir, &st) < 0)
        return -errno;
    return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int vg_cambi_heatmaps_open(VgCambiHeatmaps *hm, const VgCambiParams *p,
                           const char *dir, VgLog *log)
{
    unsigned w = p->pass[0].width, h = p->pass[0].height;
    int max_weight = p->diff_weights[0], ret;

    if (!dir[0])
        return 0;
    hm->on = 1;
    for (int s = 0; s < VG_CAMBI_SCALES; s++)
        hm->fd[s] = -1;
    if ((ret = make_dirs(dir)) < 0) {
        vg_log(log, VG_LOG_ERROR, "cambi: cannot create heatmaps_path %s: %s",
               dir, strerror(-ret));
        return ret;
    }
    /* dump_c_values(): the largest weight times the window's area over 4,
     * in int */
    for (unsigned d = 0; d < p->num_diffs; d++)
        if (p->diff_weights[d] > max_weight)
            max_weight = p->diff_weights[d];
    hm->scaling = 65535.0 / (max_weight * (int)p->pass[0].window *
                             (int)p->pass[0].window / 4);
    if (!(hm->row = malloc((size_t)p->alloc_w * sizeof(*hm->row)))) {
        vg_log(log, VG_LOG_ERROR, "cambi: out of memory");
        return -ENOMEM;
    }
    for (int s = 0; s < VG_CAMBI_SCALES; s++) {
        snprintf(hm->path[s], sizeof(hm->path[s]),
                 "%s/cambi_heatmap_scale_%d_%ux%u_16b.gray", dir, s, w, h);
        hm->fd[s] = open(hm->path[s], O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (hm->fd[s] < 0) {
            ret = -errno;
            vg_log(log, VG_LOG_ERROR, "cambi: cannot open heatmap %s: %s",
                   hm->path[s], strerror(errno));
            return ret;
        }
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
    return 0;
}

int vg_cambi_heatmaps_write(VgCambiHeatmaps *hm, unsigned scale, unsigned index,
                            const float *c, unsigned w, unsigned h, VgLog *log)
{
    const size_t row_bytes = (size_t)w * sizeof(*hm->row);

    for (unsigned i = 0; i < h; i++) {
        const off_t off = (off_t)(((uint64_t)index * h + i) * row_bytes);
        size_t done = 0;

        for (unsigned j = 0; j < w; j++) {
            /* the product is at most 65535 for a c-value within its
             * bound; clamped so that no value can wrap */
            const double v = c ? hm->scaling * c[(size_t)i * w + j] : 0.0;
            hm->row[j] = v >= 65535.0 ? 65535 : (uint16_t)v;
        }
        while (done < row_bytes) {
            ssize_t n = pwrite(hm->fd[scale], (const char *)hm->row + done,
                               row_bytes - done, off + (off_t)done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                const int err = n < 0 ? errno : ENOSPC;
                vg_log(log, VG_LOG_ERROR, "cambi: cannot write heatmap %s: %s",
                       hm->path[scale], strerror(err));
                return -err;
            }
            done += (size_t)n;
        }
    }
    return 0;
}

int vg_cambi_heatmaps_zero(VgCambiHeatmaps *hm, const VgCambiParams *p,
                           unsigned index, VgLog *log)
{
    unsigned w = p->pass[0].width, h = p->pass[0].height;
    int ret;

    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
        if (sc > 0 || p->high_res) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        if ((ret = vg_cambi_heatmaps_write(hm, sc, index, NULL, w, h, log)) < 0)
            return ret;
    }
    return 0;
}

void vg_cambi_heatmaps_close(VgCambiHeatmaps *hm)
{
    if (!hm->on)
        return;
    for (int s = 0; s < VG_CAMBI_SCALES; s++) {
        if (hm->fd[s] >= 0)
            close(hm->fd[s]);
        hm->fd[s] = -1;
    }
    free(hm->row);
    hm->row = NULL;
    hm->on = 0;
}

int vg_cambi_open(VgFeatureCtx *fc, VgCambiParams *p, VgCambiHeatmaps *hm)
{
    const char *pattern = ((const VgCambiOptions *)fc->opts)->heatmaps_path;
    const unsigned n = fc->n_renditions > 1 ? fc->n_renditions : 1;
    char *dir = NULL;
    int ret;

    if ((ret = vg_cambi_setup(p, fc->opts, fc->width, fc->height, fc->bpc,
                              fc->log)) < 0)
        return ret;
    if (!pattern[0])
        return vg_cambi_heatmaps_open(hm, p, pattern, fc->log);
    /* a ladder writes a folder of heatmaps per rendition */
    if ((ret = vg_rendition_path(&dir, pattern, fc->rendition, n)) == -EINVAL)
        vg_log(fc->log, VG_LOG_ERROR,
               "cambi: heatmaps_path %s: a ladder of %u renditions writes "
               "a folder of heatmaps per rendition; put one %%d in the path "
               "(the rendition's number, 0 for the first; %%%% for a '%%')",
               pattern, n);
    else if (ret < 0)
        vg_log(fc->log, VG_LOG_ERROR, "cambi: out of memory");
    if (ret >= 0)
        ret = vg_cambi_heatmaps_open(hm, p, dir, fc->log);
    free(dir);
    return ret;
}

/**
 * cambi. With full_ref, its reference stage is the reference's pass,
 * whose score the CPU backend shares. Without full_ref nothing depends on
 * the reference and the stage is empty.
 */
const VgFeatureDesc vg_feature_cambi = {
    VG_FEATURE_DESC(cambi),
    VG_FEATURE_OPTIONS(cambi, VgCambiOptions),
    .outputs_used = cambi_outputs_used,
    /* the reference's pass, with full_ref */
    .flags = VG_FEATURE_REF_STAGE,
};
