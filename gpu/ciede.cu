/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * CIEDE2000 (libvmaf v3.2.0 src/feature/ciede.c) per pixel, with the bits
 * of common/features/ciede.c, which calls glibc's libm.
 *
 * Every operation of common/features/ciede.c that IEEE 754 rounds (float and double
 * +, -, *, /, sqrt, conversions) is done here as there, in the same
 * order and types, without FMA (-fmad=false): it gives the same bits.
 * The libm calls do not: glibc's and CUDA's pow, exp, sin, cos and atan2
 * are different approximations. Each libm result is therefore carried as
 * an interval that holds glibc's value (CUDA's result plus or minus
 * 2^-48 of it: both libraries are within 2 ulp, 2^-51, of the exact
 * value), and so is everything computed from it, with outward-rounded
 * operations (a round-to-nearest result lies between the round-down of
 * the interval's low end and the round-up of its high end). Where
 * common/features/ciede.c rounds such a value to a float, both ends rounding to the
 * same float settle it: that float is the CPU's. The one float libm call,
 * glibc's powf(cbp, 7) in the rotation term, is vg_ciede_powf7()
 * (common/features/ciede_params.h), which settles a result or gives two
 * candidates; the pixel is computed with each, and settled when both give
 * the same ΔE00.
 *
 * vg_ciede_de00: one thread per pixel, ΔE00 as a double (the term the CPU
 * adds to its double sum; 0 for equal samples, which it skips) at
 * de[y * w + x]. A pixel not settled is recorded (gpu/ciede.c has the
 * host finish it): when only powf(cbp, 7) is missing (about 0.01% of the
 * pixels of random pictures), with cbp; otherwise (about one in 16
 * million) with its samples.
 *
 * vg_ciede_settle: after the host, one thread per record: the pixel again
 * with glibc's powf(cbp, 7) from the host, which is one of the two
 * candidates it tried (test_ciede_powf), so it settles; or the host's
 * ΔE00. A pixel that still does not settle (never seen) sends the frame
 * to the host whole.
 */

#include <math.h>

#include "common/features/ciede_params.h"

/** A double known to lie in [lo, hi]. */
struct VgIv {
    double lo, hi;
};

__device__ __forceinline__ VgIv iv_pt(double v)
{
    return { v, v };
}

/* a libm result v: glibc's is within 2^-48 |v| of it (see above). A zero
 * is exact: here it only comes from sin(+-0), atan2(+-0, y) and pow(0, y),
 * which both libraries return exactly, sign included (IEEE 754 9.2.1);
 * exp(), cos() and the pow() of a positive number are never 0 in ΔE00 */
__device__ __forceinline__ VgIv iv_libm(double v)
{
    const double e = fabs(v) * 0x1p-48;

    /* not v - 0 rounded down: that is -0 for v = +0 */
    if (v == 0)
        return { v, v };
    return { __dsub_rd(v, e), __dadd_ru(v, e) };
}

__device__ __forceinline__ VgIv iv_add(VgIv a, VgIv b)
{
    return { __dadd_rd(a.lo, b.lo), __dadd_ru(a.hi, b.hi) };
}

__device__ __forceinline__ VgIv iv_sub(VgIv a, VgIv b)
{
    return { __dsub_rd(a.lo, b.hi), __dsub_ru(a.hi, b.lo) };
}

/* a times a point c */
__device__ __forceinline__ VgIv iv_mulc(VgIv a, double c)
{
    if (c >= 0)
        return { __dmul_rd(a.lo, c), __dmul_ru(a.hi, c) };
    return { __dmul_rd(a.hi, c), __dmul_ru(a.lo, c) };
}

/* a / b for a >= 0, b > 0 */
__device__ __forceinline__ VgIv iv_div_pos(VgIv a, VgIv b)
{
    return { __ddiv_rd(a.lo, b.hi), __ddiv_ru(a.hi, b.lo) };
}

/* sqrt(a) for a >= 0 */
__device__ __forceinline__ VgIv iv_sqrt(VgIv a)
{
    return { __dsqrt_rd(a.lo), __dsqrt_ru(a.hi) };
}

/* round to float: 1 with *f when every value of a gives the same float */
__device__ __forceinline__ int iv_float(VgIv a, float *f)
{
    const float l = __double2float_rn(a.lo), h = __double2float_rn(a.hi);

    *f = l;
    return __float_as_uint(l) == __float_as_uint(h);
}

/** Lab as common/features/ciede.c's Lab (floats). */
struct VgLab {
    float l, a, b;
};

/* common/features/ciede.c linearize() */
__device__ __forceinline__ VgIv ciede_linearize(double c)
{
    if (c > 10. / 255.)
        return iv_libm(pow((c + 0.055) * (1.0 / 1.055), 2.4));
    return iv_pt(c * (1.0 / 12.92));
}

/* common/features/ciede.c lab_f(): pow(c, 1/3) is increasing, so its ends bound it */
__device__ __forceinline__ int ciede_lab_f(VgIv c, float *f)
{
    const double kappa = 24389.0 / 27.0, epsilon = 216.0 / 24389.0;

    if (c.lo > epsilon) {
        const VgIv r = { iv_libm(pow(c.lo, 1.0 / 3.0)).lo,
                         iv_libm(pow(c.hi, 1.0 / 3.0)).hi };
        return iv_float(r, f);
    }
    if (c.hi <= epsilon)
        return iv_float(
            iv_mulc(iv_add(iv_mulc(c, kappa), iv_pt(16.0)), 1.0 / 116.0), f);
    return 0;
}

/* common/features/ciede.c lab_of() */
__device__ __noinline__ int ciede_lab(double y, double u, double v,
                                      double scale, VgLab *lab)
{
    VgIv r, g, b, x, yy, z;
    float fx, fy, fz;

    y = (y - 16. * scale) * (1. / (219. * scale));
    u = (u - 128. * scale) * (1. / (224. * scale));
    v = (v - 128. * scale) * (1. / (224. * scale));
    r = ciede_linearize(y + 1.28033 * v);
    g = ciede_linearize(y - 0.21482 * u - 0.38059 * v);
    b = ciede_linearize(y + 2.12798 * u);
    x = iv_add(
        iv_add(iv_mulc(r, 0.4124564390896921), iv_mulc(g, 0.357576077643909)),
        iv_mulc(b, 0.18043748326639894));
    yy = iv_add(
        iv_add(iv_mulc(r, 0.21267285140562248), iv_mulc(g, 0.715152155287818)),
        iv_mulc(b, 0.07217499330655958));
    z = iv_add(
        iv_add(iv_mulc(r, 0.019333895582329317), iv_mulc(g, 0.119192025881303)),
        iv_mulc(b, 0.9503040785363677));
    if (!ciede_lab_f(iv_mulc(x, 1.0 / 0.95047), &fx) || !ciede_lab_f(yy, &fy) ||
        !ciede_lab_f(iv_mulc(z, 1.0 / 1.08883), &fz))
        return 0;
    lab->l = 116.0 * (double)fy - 16.0;
    lab->a = 500.0 * ((double)fx - (double)fy);
    lab->b = 200.0 * ((double)fy - (double)fz);
    return 1;
}

/* common/features/ciede.c hue_prime() */
__device__ __forceinline__ int ciede_hue(float x, float y, float *h)
{
    if (x == 0.0 && y == 0.0) {
        *h = 0.0f;
        return 1;
    }
    if (!iv_float(iv_libm(atan2((double)x, (double)y)), h))
        return 0;
    if (*h < 0.0)
        *h = (double)*h + 2. * M_PI;
    return 1;
}

/* common/features/ciede.c rotation() from its two powf results: the float
 * -2 sqrt(c7 / (c7 + 25^7)) sin(to_radians(60 exp(-d^2))) */
__device__ __forceinline__ int ciede_rotation(float c7, float d2, float *rt)
{
    const double k = -2.0 * sqrt((double)(c7 / (c7 + VG_CIEDE_POWF_25_7)));
    float e60, rad;

    if (!iv_float(iv_mulc(iv_libm(exp((double)-d2)), 60.0), &e60))
        return 0;
    rad = (double)e60 * (M_PI / 180.0);
    return iv_float(iv_mulc(iv_libm(sin((double)rad)), k), rt);
}

/* common/features/ciede.c delta_e00() with powf(cbp, 7) = c7 when c7 >= 0 (the
 * host's), else vg_ciede_powf7()'s. @return 1 with *de when settled; 2
 * with *cbp when only glibc's powf(cbp, 7) is missing; 0 */
__device__ __noinline__ int ciede_de00(VgLab c1, VgLab c2, float c7h, float *de,
                                       float *cbp_out)
{
    const float kl = 0.65f, kc = 1.0f, kh = 4.0f;
    const float dl = c2.l - c1.l;
    const float lb = (c1.l + c2.l) / 2;
    const float ch1 = sqrt((double)c1.a * c1.a + (double)c1.b * c1.b);
    const float ch2 = sqrt((double)c2.a * c2.a + (double)c2.b * c2.b);
    const float cb = (ch1 + ch2) / 2;
    const VgIv cb7 = iv_libm(pow((double)cb, 7.0));
    /* glibc's pow(25, 7) is the exact 25^7 */
    const VgIv g = iv_sub(
        iv_pt(1.0), iv_sqrt(iv_div_pos(cb7, iv_add(cb7, iv_pt(6103515625.0)))));
    float ap1, ap2, cp1, cp2, cbp, dc, sl, sc, hp1, hp2, dhp, dh, hb, t, sh;
    float d, d2, lt, cr, hu, c7[2];
    double lbd;
    int n7;

    if (!iv_float(iv_add(iv_pt(c1.a), iv_mulc(g, c1.a / 2)), &ap1) ||
        !iv_float(iv_add(iv_pt(c2.a), iv_mulc(g, c2.a / 2)), &ap2))
        return 0;
    cp1 = sqrt((double)ap1 * ap1 + (double)c1.b * c1.b);
    cp2 = sqrt((double)ap2 * ap2 + (double)c2.b * c2.b);
    cbp = (cp1 + cp2) / 2;
    dc = cp2 - cp1;
    lbd = (double)(lb - 50) * (lb - 50);
    sl = 1. + ((0.015 * lbd) / sqrt(20 + lbd));
    sc = 1. + 0.045 * cbp;
    if (!ciede_hue(c1.b, ap1, &hp1) || !ciede_hue(c2.b, ap2, &hp2))
        return 0;
    /* common/features/ciede.c delta_hue_prime() */
    if (ch1 == 0.0 || ch2 == 0.0)
        dhp = 0.0f;
    else if (fabsf(hp1 - hp2) <= M_PI)
        dhp = hp2 - hp1;
    else if (hp2 <= hp1)
        dhp = hp2 - hp1 + 2. * M_PI;
    else
        dhp = hp2 - hp1 - 2. * M_PI;
    if (!iv_float(
            iv_mulc(iv_libm(sin(dhp / 2.0)), 2.0 * sqrt((double)(cp1 * cp2))),
            &dh))
        return 0;
    /* common/features/ciede.c mean_hue_prime() */
    hb = fabs(hp1 - hp2) > M_PI ? (hp1 + hp2 + 2.0 * M_PI) / 2.0
                                : (hp1 + hp2) / 2.0;
    /* common/features/ciede.c hue_weight() */
    {
        VgIv w =
            iv_sub(iv_pt(1.0), iv_mulc(iv_libm(cos(hb - M_PI / 6.0)), 0.17));

        w = iv_add(w, iv_mulc(iv_libm(cos(2.0 * hb)), 0.24));
        w = iv_add(w, iv_mulc(iv_libm(cos(3.0 * hb + M_PI / 30.0)), 0.32));
        w = iv_sub(w,
                   iv_mulc(iv_libm(cos(4.0 * hb - 7.0 * M_PI / 20.0)), 0.20));
        if (!iv_float(w, &t))
            return 0;
    }
    sh = 1.0 + 0.015 * cbp * t;
    /* common/features/ciede.c rotation(): its powf(cbp, 7), d * d */
    {
        const float deg = hb * (180.0 / M_PI);
        d = (deg - 275.0) * (1.0 / 25.0);
        d2 = d * d;
    }
    if (c7h >= 0) {
        c7[0] = c7h;
        n7 = 1;
    } else if (!(n7 = vg_ciede_powf7(cbp, &c7[0], &c7[1]))) {
        return 0;
    }
    lt = dl / (kl * sl);
    cr = dc / (kc * sc);
    hu = dh / (kh * sh);
    for (int i = 0; i < n7; i++) {
        float rt, v;

        if (!ciede_rotation(c7[i], d2, &rt))
            return 0;
        v = sqrt((double)lt * lt + (double)cr * cr + (double)hu * hu +
                 (double)(rt * cr * hu));
        if (!i) {
            *de = v;
        } else if (__float_as_uint(v) != __float_as_uint(*de)) {
            *cbp_out = cbp;
            return 2;
        }
    }
    return 1;
}

__device__ __forceinline__ unsigned ciede_sample(uint64_t plane, int64_t pitch,
                                                 unsigned wide, unsigned row,
                                                 int col)
{
    const unsigned char *line;

    if (col < 0)
        return 0;
    line = (const unsigned char *)plane + (int64_t)row * pitch;
    return wide ? ((const unsigned short *)line)[col] : line[col];
}

/* the samples of pixel (x, y): reference Y, U, V, distorted Y, U, V */
__device__ __forceinline__ void ciede_samples(const VgCiedeKernelParams &p,
                                              unsigned x, unsigned y,
                                              unsigned s[6])
{
    unsigned row;
    int col;

    vg_ciede_chroma_pos((enum VgImageLayout)p.layout, p.cw, p.ch, x, y, &row,
                        &col);
    s[0] = ciede_sample(p.ref[0], p.ref_pitch[0], p.wide, y, (int)x);
    s[1] = ciede_sample(p.ref[1], p.ref_pitch[1], p.wide, row, col);
    s[2] = ciede_sample(p.ref[2], p.ref_pitch[2], p.wide, row, col);
    s[3] = ciede_sample(p.dis[0], p.dis_pitch[0], p.wide, y, (int)x);
    s[4] = ciede_sample(p.dis[1], p.dis_pitch[1], p.wide, row, col);
    s[5] = ciede_sample(p.dis[2], p.dis_pitch[2], p.wide, row, col);
}

/* one pixel of different samples, as ciede_de00() returns it; Lab from
 * the samples as common/features/ciede.c lab_cached() (float, then double) */
__device__ __forceinline__ int ciede_pixel(const unsigned s[6], double scale,
                                           float c7h, float *de, float *cbp)
{
    VgLab l1, l2;

    if (!ciede_lab((float)s[0], (float)s[1], (float)s[2], scale, &l1) ||
        !ciede_lab((float)s[3], (float)s[4], (float)s[5], scale, &l2))
        return 0;
    return ciede_de00(l1, l2, c7h, de, cbp);
}

extern "C" __global__ void __launch_bounds__(VG_CIEDE_BX *VG_CIEDE_BY)
    vg_ciede_de00(const VgCiedeKernelParams p)
{
    const unsigned x = blockIdx.x * VG_CIEDE_BX + threadIdx.x;
    const unsigned y = blockIdx.y * VG_CIEDE_BY + threadIdx.y;
    const size_t idx = (size_t)y * p.w + x;
    unsigned s[6];
    float de, cbp;
    int st;

    if (x >= p.w || y >= p.h)
        return;
    ciede_samples(p, x, y, s);
    /* equal samples: ΔE00 = +0, which the CPU does not add (no change) */
    if (s[0] == s[3] && s[1] == s[4] && s[2] == s[5]) {
        ((double *)p.de)[idx] = 0.0;
        return;
    }
    if ((st = ciede_pixel(s, p.scale, -1.0f, &de, &cbp)) == 1) {
        ((double *)p.de)[idx] = de;
        return;
    }
    {
        const unsigned i = atomicAdd((unsigned *)p.count, 1u);
        VgCiedeRecord *r = (VgCiedeRecord *)p.rec + i;

        /* beyond cap the host scores the whole frame (gpu/ciede.c) */
        if (i >= p.cap)
            return;
        if (st == 2) {
            r->idx = (unsigned)idx | VG_CIEDE_REC_POWF;
            r->u.pw.cbp = cbp;
        } else {
            r->idx = (unsigned)idx;
            for (int k = 0; k < 6; k++)
                r->u.s[k] = (uint16_t)s[k];
        }
    }
}

/* the recorded pixels into de, with what the host computed; past cap, the
 * count into the frame's results instead (the whole frame on the host) */
extern "C" __global__ void __launch_bounds__(VG_CIEDE_SETTLE_THREADS)
    vg_ciede_settle(const VgCiedeKernelParams p)
{
    const unsigned count = *(const unsigned *)p.count;
    const unsigned n = count < p.cap ? count : p.cap;
    const VgCiedeRecord *r = (const VgCiedeRecord *)p.rec;
    VgCiedeRes *res = (VgCiedeRes *)p.res;

    if (count > p.cap) {
        if (!blockIdx.x && !threadIdx.x)
            res->count = count;
        return; /* the host scores the frame (gpu/ciede.c) */
    }
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x) {
        const VgCiedeRecord rec = r[i];
        const unsigned idx = rec.idx & ~VG_CIEDE_REC_POWF;

        if (rec.idx & VG_CIEDE_REC_POWF) {
            unsigned s[6];
            float de, cbp;

            ciede_samples(p, idx % p.w, idx / p.w, s);
            if (ciede_pixel(s, p.scale, rec.u.pw.c7, &de, &cbp) != 1) {
                res->failed = 1;
                continue;
            }
            ((double *)p.de)[idx] = de;
        } else {
            ((double *)p.de)[idx] = rec.u.de;
        }
    }
}
