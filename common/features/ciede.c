/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CIEDE2000's descriptor and score, as libvmaf v3.2.0
 * src/feature/ciede.c. No options; one output, ciede2000. The per-pixel
 * work on the host (chroma upsampling, YUV to Lab, ΔE00 with kL = 0.65,
 * kC = 1, kH = 4, and the frame's double sum) is here too, below: the CPU
 * backend runs it for every frame and the CUDA one for the pixels and
 * frames its device does not settle.
 *
 * That host arithmetic follows ciede.c's C types exactly: every named
 * intermediate there is a float, so it is a float here, rounded at the
 * same points; sub-expressions that mix a float with a double constant or
 * a double libm call (pow, sqrt, sin, cos, exp, atan2) are evaluated in
 * double, those of floats alone (and powf) in float. The build has
 * -ffp-contract=off, as libvmaf's has no FMA.
 *
 * Inputs: 4:2:0, 4:2:2 and 4:4:4 at 8, 10, 12 and 16 bits, the depths
 * ciede.c init()/extract() take; 4:0:0 is refused (ciede.c init() returns
 * -EINVAL: the colour difference needs chroma).
 *
 * Chroma upsampling (ciede.c scale_chroma_planes[_hbd]()): nearest. Luma
 * pixel (x, y) takes chroma
 *  - 4:4:4: (x, y);
 *  - 4:2:0: column x >> 1 of row y >> 1;
 *  - 4:2:2: what ciede.c does, not the 4:2:2 subsampling: it halves the
 *    row, not the column, and walks its 4:4:4-wide row through the
 *    planar picture libvmaf allocates (rows of S = the chroma width
 *    rounded up to 32 samples, samples past the chroma width zero). So
 *    (x, y) takes sample k = (y >> 1) * S + x of that layout: row
 *    (y >> 1) + x / S, column x % S, or 0 where that column is past the
 *    chroma width. golden/hp/r640x360_422p10.json holds exactly this.
 *
 * Odd sizes: our chroma planes are floor-sized, like libvmaf's pictures
 * (common/image.h). In 4:2:0 an odd width or height asks, for the last
 * luma column or row, for chroma column (w - 1) >> 1 = w >> 1 or row
 * h >> 1, one past the plane: ciede.c then reads the stride padding or the
 * next row (last column), and past the end of the V plane's allocation
 * (last row). What it means is the ceil-sized plane's last row and
 * column, which hold the chroma of those luma pixels; floor-sized planes
 * do not keep them, so we take the nearest sample they hold: chroma
 * (min(x >> 1, cw - 1), min(y >> 1, ch - 1)), i.e. the last chroma
 * column and row are repeated for the last luma column and row. In 4:2:2
 * a chroma row past the plane (only with heights 1 and 2, see above) is
 * the plane's last row likewise. Odd-size scores are therefore defined
 * and deterministic, but they are not libvmaf's (which has none: its tool
 * crashes on such a pair, and FFmpeg's libvmaf filter reads past the
 * plane); even sizes are libvmaf's exactly. doc/features.md says the same.
 *
 * CUDA: gpu/ciede.cu computes each pixel's ΔE00 on the device with the
 * CPU path's bits. Every IEEE-rounded operation is done as the host's
 * does it; the libm calls (pow, exp, sin, cos, atan2 in double, powf in
 * float) are not, as glibc's and CUDA's functions are different
 * approximations that agree only most of the time (glibc's manual,
 * "Known Maximum Errors in Math Functions", does not aim for correct
 * rounding; even glibc's powf(x, 7) misses the correctly rounded float
 * for 0.07% of the floats). So the kernel carries each libm result as an
 * interval that holds glibc's value and settles a float only where the
 * whole interval rounds to it; glibc's powf(x, 7) is settled by a rule
 * tested against glibc on every float of its range
 * (common/features/ciede_params.h, tests/unit/test_ciede_powf.c). The few
 * pixels it cannot settle are finished with the host's libm (gpu/ciede.c).
 * The frame score is the double sum of the float ΔE00 in row-major order,
 * which the device adds in that order (gpu/core/seqsum.c). The one exact
 * shortcut, ΔE00 = +0 for equal (Y, U, V), is taken on both.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/features/ciede.h"
#include "common/features/ciede_params.h"

/* clang-format off */
static const VgFeatureOption ciede_options[] = {
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput ciede_outputs[] = {
    [VG_CIEDE_OUT_CIEDE2000] = { "ciede2000", NULL, 0 },
    { NULL }
};
/* clang-format on */

int vg_ciede_check(VgLog *log, enum VgImageLayout layout, unsigned bpc,
                   unsigned w, unsigned h)
{
    unsigned ssx, ssy;

    if (layout == VG_LAYOUT_400) {
        vg_log(log, VG_LOG_ERROR,
               "ciede: needs chroma planes; 4:0:0 (gray) "
               "input has none");
        return -EINVAL;
    }
    /* ciede.c init() and extract(): 8, 10, 12 or 16 bits only */
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16) {
        vg_log(log, VG_LOG_ERROR,
               "ciede: unsupported bit depth %u (8, 10, "
               "12 or 16)",
               bpc);
        return -EINVAL;
    }
    vg_layout_shifts(layout, &ssx, &ssy);
    if (!(w >> ssx) || !(h >> ssy)) {
        vg_log(log, VG_LOG_ERROR, "ciede: %ux%u %s has an empty chroma plane",
               w, h, layout == VG_LAYOUT_420 ? "4:2:0" : "4:2:2");
        return -EINVAL;
    }
    return 0;
}

double vg_ciede_score(double de00_sum, unsigned w, unsigned h)
{
    return 45. - 20. * log10(de00_sum / (w * h));
}

const VgFeatureDesc vg_feature_ciede = {
    VG_FEATURE_DESC(ciede),
    .options = ciede_options,
    .flags = VG_FEATURE_CHROMA,
};

int vg_ciede_host_powf_agrees(void)
{
    /* x, then glibc's powf(x, 7): the float next to x^7's nearest one */
    static const float miss[][2] = {
        { 0x1.062afcp-10f, 0x1.2e6caap-70f },
        { 0x1.062b4cp-10f, 0x1.2e6f3p-70f },
        { 0x1.7ae53ep-2f, 0x1.f1dbdap-11f },
        { 0x1.7aef22p-2f, 0x1.f236dap-11f },
        { 0x1.0021a8p+0f, 0x1.00ebf6p+0f },
        { 0x1.003a7cp+0f, 0x1.019a7ep+0f },
        { 0x1.a674a4p+1f, 0x1.0a9c66p+12f },
        { 0x1.a6b3fp+1f, 0x1.0bb484p+12f },
        { 0x1.10056ep+4f, 0x1.878b0ap+28f },
        { 0x1.10060cp+4f, 0x1.879142p+28f },
        { 0x1.e4048p+6f, 0x1.5977e2p+48f },
        { 0x1.e44e4p+6f, 0x1.5ae904p+48f },
        { 0x1.f3c75cp+9f, 0x1.b056dep+69f },
        { 0x1.f3c99ap+9f, 0x1.b06472p+69f },
    };
    const uint32_t lo = vg_ciede_fbits(VG_CIEDE_POWF7_MIN);
    const uint32_t hi = vg_ciede_fbits(VG_CIEDE_POWF7_MAX);
    /* volatile: the call itself, as rotation() makes it */
    volatile float seven = 7;

    for (unsigned i = 0; i < 4096 + 14; i++) {
        const float x =
            i < 4096 ? vg_ciede_bitsf(
                           lo + (uint32_t)((uint64_t)(hi - lo) * i / 4096))
                     : miss[i - 4096][0];
        const float r = powf(x, seven);
        float a, b;

        /* glibc's misses: test_ciede_powf checked every float against
         * glibc's powf only; a libm that rounds these otherwise is not
         * known to agree elsewhere */
        if (i >= 4096 && vg_ciede_fbits(r) != vg_ciede_fbits(miss[i - 4096][1]))
            return 0;
        if (!vg_ciede_powf7(x, &a, &b) ||
            (vg_ciede_fbits(r) != vg_ciede_fbits(a) &&
             vg_ciede_fbits(r) != vg_ciede_fbits(b)))
            return 0;
    }
    return 1;
}

/** A Lab colour, float as ciede.c's LABColor. */
typedef struct Lab {
    float l, a, b;
} Lab;

/* ciede.c get_h_prime(): hue angle in [0, 2 pi), float */
static float hue_prime(float x, float y)
{
    float h;

    if (x == 0.0 && y == 0.0)
        return 0.0f;
    h = atan2(x, y);
    if (h < 0.0)
        h += 2. * M_PI;
    return h;
}

/* ciede.c get_delta_h_prime(): zero when either unprimed chroma is */
static float delta_hue_prime(float c1, float c2, float h1, float h2)
{
    if (c1 == 0.0 || c2 == 0.0)
        return 0.0f;
    if (fabsf(h1 - h2) <= M_PI)
        return h2 - h1;
    if (h2 <= h1)
        return h2 - h1 + 2. * M_PI;
    return h2 - h1 - 2. * M_PI;
}

/* ciede.c get_upcase_h_bar_prime() */
static float mean_hue_prime(float h1, float h2)
{
    return fabs(h1 - h2) > M_PI ? (h1 + h2 + 2.0 * M_PI) / 2.0
                                : (h1 + h2) / 2.0;
}

/* ciede.c get_upcase_t() */
static float hue_weight(float hb)
{
    return 1.0 - 0.17 * cos(hb - M_PI / 6.0) + 0.24 * cos(2.0 * hb) +
           0.32 * cos(3.0 * hb + M_PI / 30.0) -
           0.20 * cos(4.0 * hb - 7.0 * M_PI / 20.0);
}

/* ciede.c radians_to_degrees() and degrees_to_radians(), float results */
static float to_degrees(float r)
{
    return r * (180.0 / M_PI);
}

static float to_radians(float d)
{
    return d * (M_PI / 180.0);
}

/* ciede.c get_r_sub_t(): the rotation term, with powf in float. GCC and
 * Clang compile its powf(d, 2) to the float product d * d (correctly
 * rounded, unlike glibc's powf) and fold powf(25., 7) to the correctly
 * rounded 6103515648; written out here so that no compiler calls libm for
 * them */
static float rotation(float cbp, float hb)
{
    const float d = (to_degrees(hb) - 275.0) * (1.0 / 25.0);
    const float c7 = powf(cbp, 7);
    const float d2 = d * d;

    /* powf(cbp, 7) once: the same call gives the same float */
    return -2.0 * sqrt(c7 / (c7 + VG_CIEDE_POWF_25_7)) *
           sin(to_radians(60.0 * exp(-d2)));
}

/* ciede.c ciede2000() with its default weights {0.65, 1.0, 4.0} (floats) */
static float delta_e00(Lab c1, Lab c2)
{
    const float kl = 0.65f, kc = 1.0f, kh = 4.0f;
    const float dl = c2.l - c1.l;
    const float lb = (c1.l + c2.l) / 2;
    const float ch1 = sqrt(pow(c1.a, 2) + pow(c1.b, 2));
    const float ch2 = sqrt(pow(c2.a, 2) + pow(c2.b, 2));
    const float cb = (ch1 + ch2) / 2;
    /* ciede.c writes this double factor out four times; pow(cb, 7) is one
     * value, so computing it once changes no bit */
    const double cb7 = pow(cb, 7);
    const double g = 1 - sqrt(cb7 / (cb7 + pow(25, 7)));
    const float ap1 = c1.a + (c1.a / 2) * g;
    const float ap2 = c2.a + (c2.a / 2) * g;
    const float cp1 = sqrt(pow(ap1, 2) + pow(c1.b, 2));
    const float cp2 = sqrt(pow(ap2, 2) + pow(c2.b, 2));
    const float cbp = (cp1 + cp2) / 2;
    const float dc = cp2 - cp1;
    const float sl =
        1. + ((0.015 * pow(lb - 50, 2)) / sqrt(20 + pow(lb - 50, 2)));
    const float sc = 1. + 0.045 * cbp;
    const float hp1 = hue_prime(c1.b, ap1);
    const float hp2 = hue_prime(c2.b, ap2);
    const float dhp = delta_hue_prime(ch1, ch2, hp1, hp2);
    const float dh = 2.0 * sqrt(cp1 * cp2) * sin(dhp / 2.0);
    const float hb = mean_hue_prime(hp1, hp2);
    const float t = hue_weight(hb);
    const float sh = 1.0 + 0.015 * cbp * t;
    const float rt = rotation(cbp, hb);
    const float lt = dl / (kl * sl);
    const float cr = dc / (kc * sc);
    const float hu = dh / (kh * sh);

    return sqrt(pow(lt, 2) + pow(cr, 2) + pow(hu, 2) + rt * cr * hu);
}

/* ciede.c rgb_to_xyz_map(): linearisation, threshold 10/255 as there */
static double linearize(double c)
{
    if (c > 10. / 255.)
        return pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

/* ciede.c xyz_to_lab_map(): rounded to float */
static float lab_f(double c)
{
    const double kappa = 24389.0 / 27.0, epsilon = 216.0 / 24389.0;

    if (c > epsilon)
        return pow(c, 1.0 / 3.0);
    return (kappa * c + 16.0) * (1.0 / 116.0);
}

/* ciede.c get_lab_color(): BT.709 limited range to Lab (D65) */
static Lab lab_of(double y, double u, double v, double scale)
{
    double r, g, b, x, z;

    y = (y - 16. * scale) * (1. / (219. * scale));
    u = (u - 128. * scale) * (1. / (224. * scale));
    v = (v - 128. * scale) * (1. / (224. * scale));
    r = linearize(y + 1.28033 * v);
    g = linearize(y - 0.21482 * u - 0.38059 * v);
    b = linearize(y + 2.12798 * u);
    x = r * 0.4124564390896921 + g * 0.357576077643909 +
        b * 0.18043748326639894;
    y = r * 0.21267285140562248 + g * 0.715152155287818 +
        b * 0.07217499330655958;
    z = r * 0.019333895582329317 + g * 0.119192025881303 +
        b * 0.9503040785363677;
    x = lab_f(x * (1.0 / 0.95047));
    y = lab_f(y);
    z = lab_f(z * (1.0 / 1.08883));
    return (Lab){ .l = 116.0 * y - 16.0,
                  .a = 500.0 * (x - y),
                  .b = 200.0 * (y - z) };
}

float vg_ciede_de00_samples(const unsigned ref[3], const unsigned dis[3],
                            double scale)
{
    return delta_e00(
        lab_of((float)ref[0], (float)ref[1], (float)ref[2], scale),
        lab_of((float)dis[0], (float)dis[1], (float)dis[2], scale));
}

/** Where each luma pixel of one row finds its chroma (see ciede.c's file
 *  header): plane row and column, or col < 0 for a zero sample. */
typedef struct ChromaPos {
    unsigned row;
    int col;
} ChromaPos;

/* a direct-mapped cache of Lab colours by (Y, U, V): the colour is a pure
 * function of the samples, so a hit gives the same floats */
#define LAB_CACHE_BITS 14

typedef struct LabEntry {
    uint64_t key; ///< y | u << 16 | v << 32 | 1 << 48; 0 = empty
    Lab lab;
} LabEntry;

struct VgCiedeSum {
    ChromaPos *pos;  ///< one row's positions (w entries)
    LabEntry *cache; ///< 1 << LAB_CACHE_BITS entries
};

static Lab lab_cached(VgCiedeSum *s, unsigned y, unsigned u, unsigned v,
                      double scale)
{
    const uint64_t key =
        y | (uint64_t)u << 16 | (uint64_t)v << 32 | (uint64_t)1 << 48;
    LabEntry *e = &s->cache[(key * UINT64_C(0x9e3779b97f4a7c15)) >>
                            (64 - LAB_CACHE_BITS)];

    if (e->key != key) {
        /* ciede.c extract(): samples as float, then double */
        e->lab = lab_of((float)y, (float)u, (float)v, scale);
        e->key = key;
    }
    return e->lab;
}

static void chroma_row(const VgFeatureCtx *fc, const VgImage *img, unsigned y,
                       ChromaPos *pos)
{
    for (unsigned x = 0; x < fc->width; x++)
        vg_ciede_chroma_pos(fc->layout, img->w[1], img->h[1], x, y, &pos[x].row,
                            &pos[x].col);
}

static inline unsigned sample(const VgImage *img, unsigned p, unsigned row,
                              int col)
{
    const uint8_t *line;

    if (col < 0)
        return 0;
    line = (const uint8_t *)img->data[p] + (ptrdiff_t)row * img->stride[p];
    return img->bpc > 8 ? ((const uint16_t *)line)[col] : line[col];
}

/* the double sum of the frame's ΔE00, in row-major order */
double vg_ciede_sum_frame(VgCiedeSum *s, const VgFeatureCtx *fc,
                          const VgImage *ref, const VgImage *dis)
{
    const double scale = 1 << (fc->bpc - 8);
    double sum = 0.;

    for (unsigned y = 0; y < fc->height; y++) {
        chroma_row(fc, ref, y, s->pos);
        for (unsigned x = 0; x < fc->width; x++) {
            const ChromaPos c = s->pos[x];
            const unsigned ry = sample(ref, 0, y, (int)x);
            const unsigned ru = sample(ref, 1, c.row, c.col);
            const unsigned rv = sample(ref, 2, c.row, c.col);
            const unsigned dy = sample(dis, 0, y, (int)x);
            const unsigned du = sample(dis, 1, c.row, c.col);
            const unsigned dv = sample(dis, 2, c.row, c.col);

            /* equal samples have equal Lab colours, whose ΔE00 is +0
             * exactly (every difference is +0, each weight is finite and
             * positive, sqrt(+0) = +0), and adding +0 leaves the sum as
             * it is: skipping them is exact */
            if (ry == dy && ru == du && rv == dv)
                continue;
            sum += delta_e00(lab_cached(s, ry, ru, rv, scale),
                             lab_cached(s, dy, du, dv, scale));
        }
    }
    return sum;
}

VgCiedeSum *vg_ciede_sum_alloc(unsigned width)
{
    VgCiedeSum *s = calloc(1, sizeof(*s));

    if (!s || !(s->pos = malloc(width * sizeof(*s->pos))) ||
        !(s->cache = calloc((size_t)1 << LAB_CACHE_BITS, sizeof(*s->cache)))) {
        vg_ciede_sum_free(&s);
        return NULL;
    }
    return s;
}

void vg_ciede_sum_free(VgCiedeSum **ps)
{
    VgCiedeSum *s = *ps;

    if (!s)
        return;
    free(s->pos);
    free(s->cache);
    free(s);
    *ps = NULL;
}

int vg_ciede_frame_sum(const VgFeatureCtx *fc, const VgImage *ref,
                       const VgImage *dis, double *sum)
{
    VgCiedeSum *s = vg_ciede_sum_alloc(fc->width);

    if (!s)
        return -ENOMEM;
    *sum = vg_ciede_sum_frame(s, fc, ref, dis);
    vg_ciede_sum_free(&s);
    return 0;
}
