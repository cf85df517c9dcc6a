/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * SpEED, shared by speed_chroma and speed_temporal, bit-exact with
 * libvmaf v3.2.0's C path (src/feature/speed.c, vif_tools.c). Every
 * intermediate has speed.c's C type: a float named there is a float here,
 * rounded at the same point; a float mixed with a double constant or a
 * double libm call (sqrt, log2, exp, sin) is evaluated in double. Sums run
 * in speed.c's order. The build has -ffp-contract=off, as libvmaf's has no
 * FMA on its C path.
 *
 * Steps per picture (speed.c filter_and_downscale(), est_params()):
 *  1. prescale (vif_scale_frame_s()) unless |prescale - 1| < 1e-3;
 *  2. the anti-alias Gaussian (vif_filter1d_s(), mirrored borders), then
 *     every 16th sample of every 16th row (vif_dec16_s()). Only those
 *     samples are kept, so only the rows 16 i of the vertical pass and the
 *     columns 16 j of the horizontal pass are computed: each output sample
 *     is the same sum of the same products as in the full filter;
 *  3. the scale-4 Gaussian on the decimated picture, subtracted from it;
 *  4. the 25 x 25 covariance of the 5x5 neighbourhoods, its eigenvalues
 *     (Householder tridiagonalisation, implicit QR), the blocks' linear
 *     system K X = Y solved by a Householder QR, the per-block variance
 *     and entropy;
 *  5. get_speed_score() from the ref's and the dis' blocks.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/features/speed.h"
#include "common/features/vif_tools.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_E
#define M_E 2.7182818284590452354
#endif

#define BLOCK 5            /* speed.c DEFAULT_BLOCK_SIZE */
#define EB (BLOCK * BLOCK) /* elements_in_block */
#define NUM_SCALES 4
#define EIG_EPS 1e-6 /* speed.c EIGENVALUE_EPS */
#define EIG_MAX_ITERS 500

/* ---- prescale (vif_tools.c vif_scale_frame_*_s()) ----------------------- */

static float bilinear_at(const float *src, int w, int h, size_t st, float x,
                         float y)
{
    const int x1 = (int)vg_vif_mirror_f(floor(x), 0, w - 1);
    const int x2 = (int)vg_vif_mirror_f(ceil(x), 0, w - 1);
    const int y1 = (int)vg_vif_mirror_f(floor(y), 0, h - 1);
    const int y2 = (int)vg_vif_mirror_f(ceil(y), 0, h - 1);
    const float dx = x - x1, dy = y - y1;

    return (1 - dy) * (1 - dx) * src[y1 * st + x1] +
           (1 - dy) * dx * src[y1 * st + x2] +
           dy * (1 - dx) * src[y2 * st + x1] + dy * dx * src[y2 * st + x2];
}

static float bicubic_at(const float *src, int w, int h, size_t st, float x,
                        float y)
{
    const int x0 = (int)floor(x), y0 = (int)floor(y);
    const float dx = x - x0, dy = y - y0;
    float wx[4], wy[4], v = 0.0;

    for (int i = -1; i <= 2; i++) {
        wx[i + 1] = vg_vif_bicubic_kernel(i - dx);
        wy[i + 1] = vg_vif_bicubic_kernel(i - dy);
    }
    for (int j = -1; j <= 2; j++) {
        for (int i = -1; i <= 2; i++) {
            const int xi = (int)vg_vif_mirror_f(x0 + i, 0, w - 1);
            const int yi = (int)vg_vif_mirror_f(y0 + j, 0, h - 1);
            const float wt = wx[i + 1] * wy[j + 1];
            v += src[yi * st + xi] * wt;
        }
    }
    return v;
}

static float lanczos4_at(const float *src, int w, int h, size_t st, float x,
                         float y)
{
    const int a = 4, x0 = (int)floor(x), y0 = (int)floor(y);
    const float dx = x - x0, dy = y - y0;
    float wx[9], wy[9], v = 0.0, wsum = 0.0;

    for (int i = -a; i <= a; i++) {
        wx[i + a] = vg_vif_lanczos4_kernel(i - dx, (float)a);
        wy[i + a] = vg_vif_lanczos4_kernel(i - dy, (float)a);
    }
    for (int iy = -a; iy <= a; iy++) {
        for (int ix = -a; ix <= a; ix++) {
            const float wt = wx[ix + a] * wy[iy + a];
            const int xi = (int)vg_vif_mirror_f(x0 + ix, 0, w - 1);
            const int yi = (int)vg_vif_mirror_f(y0 + iy, 0, h - 1);
            wsum += wt;
            v += src[yi * st + xi] * wt;
        }
    }
    return v / wsum;
}

static void prescale(const VgSpeed *s, const float *src, float *dst)
{
    const int sw = (int)s->w, sh = (int)s->h;
    const int dw = (int)s->sw, dh = (int)s->sh;
    const size_t st = s->stride;
    const float rx = (float)sw / dw, ry = (float)sh / dh;

    /* every method copies a picture of the same size */
    if (sw == dw && sh == dh) {
        memcpy(dst, src, st * dh * sizeof(*dst));
        return;
    }
    for (int y = 0; y < dh; y++) {
        const float yy = (y + 0.5) * ry - 0.5;
        for (int x = 0; x < dw; x++) {
            const float xx = (x + 0.5) * rx - 0.5;
            float v;
            switch (s->p.method) {
            case VG_VIF_NEAREST:
                v = src[(int)(y * ry) * st + (int)(x * rx)];
                break;
            case VG_VIF_BILINEAR:
                v = bilinear_at(src, sw, sh, st, xx, yy);
                break;
            case VG_VIF_BICUBIC:
                v = bicubic_at(src, sw, sh, st, xx, yy);
                break;
            default:
                v = lanczos4_at(src, sw, sh, st, xx, yy);
                break;
            }
            dst[y * st + x] = v;
        }
    }
}

void vg_speed_prescale_axis(const VgSpeed *s, int vertical, int *idx, float *wt)
{
    const int n_in = (int)(vertical ? s->h : s->w);
    const int n_out = (int)(vertical ? s->sh : s->sw);
    /* prescale()'s rx and ry, xx and yy, and each method's per-axis
     * part; the taps a method does not use are 0 */
    for (int x = 0; x < n_out;
         x++, idx += VG_VIF_PRESCALE_TAPS, wt += VG_VIF_PRESCALE_TAPS) {
        for (int k = 0; k < VG_VIF_PRESCALE_TAPS; k++) {
            idx[k] = 0;
            wt[k] = 0;
        }
        vg_vif_prescale_taps(s->p.method, n_in, n_out, x, idx, wt);
    }
}

/* ---- filter_and_downscale() -------------------------------------------- */

/*
 * vif_filter1d_s() with the anti-alias taps over sw x sh, then
 * vif_dec16_s(): output (i, j) is the horizontal pass at column 16 j of
 * the vertical pass at row 16 i. Each sum is a float from 0 adding
 * f_k * x in tap order, mirrored rows/columns, as there.
 */
VG_CPU_INLINE void antialias_dec16_any(VgSpeed *s, const float *src)
{
    const int w = (int)s->sw, h = (int)s->sh, taps = s->taps_aa;
    const float *f = s->filter_aa;
    float *restrict col = s->col;

    for (unsigned i = 0; i < s->dh; i++) {
        const int r = (int)i * 16;
        /* each column's sum from 0, the taps in order, the columns side
         * by side */
        for (int j = 0; j < w; j++)
            col[j] = 0;
        for (int k = 0; k < taps; k++) {
            const float fk = f[k];
            const float *restrict x =
                src + vg_vif_mirror(r - taps / 2 + k, h) * s->stride;
            for (int j = 0; j < w; j++)
                col[j] += fk * x[j];
        }
        for (unsigned j = 0; j < s->dw; j++) {
            const int c = (int)j * 16;
            float acc = 0;
            for (int k = 0; k < taps; k++)
                acc += f[k] * col[vg_vif_mirror(c - taps / 2 + k, w)];
            s->dec[i * s->dw + j] = acc;
        }
    }
}

VG_CPU_BUILDS(antialias_dec16, (VgSpeed * s, const float *src), (s, src))

/* vif_filter1d_s() with the scale-4 taps on the decimated picture, then
 * subtract_image(): dec -= blur */
VG_CPU_INLINE void remove_local_mean_any(VgSpeed *s)
{
    const int w = (int)s->dw, h = (int)s->dh, taps = s->taps4;
    const float *f = s->filter4;
    float *restrict col = s->col;

    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++)
            col[j] = 0;
        for (int k = 0; k < taps; k++) {
            const float fk = f[k];
            const float *restrict x =
                s->dec + vg_vif_mirror(i - taps / 2 + k, h) * w;
            for (int j = 0; j < w; j++)
                col[j] += fk * x[j];
        }
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int k = 0; k < taps; k++)
                acc += f[k] * col[vg_vif_mirror(j - taps / 2 + k, w)];
            s->blur[i * w + j] = acc;
        }
    }
    for (size_t k = 0; k < (size_t)w * h; k++)
        s->dec[k] -= s->blur[k];
}

VG_CPU_BUILDS(remove_local_mean, (VgSpeed * s), (s))

static void filter_and_downscale(VgSpeed *s, float *frame)
{
    if (s->prescale) {
        memcpy(s->tmp, frame, s->rows * s->stride * sizeof(*frame));
        prescale(s, s->tmp, frame);
    }
    s->dsp.antialias_dec16(s, frame);
    s->dsp.remove_local_mean(s);
}

/* ---- eigenvalues (speed.c compute_eigenvalues()) ----------------------- */

static int sign_of(float x)
{
    return x >= 0 ? 1 : -1;
}

/* pythagoras(): float squares and sum, sqrt in double */
static float hypot_f(float x, float y)
{
    return sqrt(x * x + y * y);
}

/* compute_householder_transform() on column col, rows start..n-1 */
static float householder(float *a, int col, int start, int n)
{
    float xnorm = 0, alpha, beta, tau, sc;

    if (n - start == 1)
        return 0.0f;
    for (int i = start + 1; i < n; i++)
        xnorm += a[i * n + col] * a[i * n + col];
    xnorm = sqrt(xnorm);
    if (xnorm == 0.0f)
        return 0.0f;
    alpha = a[start * n + col];
    beta = -sign_of(alpha) * hypot_f(alpha, xnorm);
    tau = (beta - alpha) / beta;
    sc = alpha - beta;
    if (sc != 0.0f) {
        for (int i = start; i < n; i++)
            a[i * n + col] /= sc;
        a[start * n + col] = beta;
    }
    return tau;
}

/* convert_to_tridiagonal(): n - 2 Householder steps, then the diagonal d
 * and the subdiagonal sd */
static void tridiagonal(float *a, int n, float *d, float *sd, float *v,
                        float *x)
{
    for (int i = 0; i < n - 2; i++) {
        const float tau = householder(a, i, i + 1, n);
        const int st = i + 1;

        for (int j = i + 1; j < n; j++)
            v[j] = a[j * n + i];
        if (tau == 0.0f)
            continue;
        a[(i + 1) * n + i] = v[i + 1];
        v[i + 1] = 1.0f;
        /* x = tau A v */
        for (int r = st; r < n; r++) {
            x[r] = 0.0f;
            for (int c = st; c < n; c++)
                x[r] += tau * a[r * n + c] * v[c];
        }
        /* x += (-0.5 tau (x . v)) v */
        {
            float xv = 0;
            float al;
            for (int r = st; r < n; r++)
                xv += x[r] * v[r];
            al = -0.5 * tau * xv;
            for (int r = st; r < n; r++)
                x[r] += al * v[r];
        }
        /* A -= x v' + v x' */
        for (int r = st; r < n; r++)
            for (int c = st; c < n; c++)
                a[r * n + c] -= x[r] * v[c] + v[r] * x[c];
    }
    for (int i = 0; i < n; i++)
        d[i] = a[i * n + i];
    for (int i = 0; i < n - 1; i++)
        sd[i] = a[(i + 1) * n + i];
}

static void chop_small(float *d, float *sd, int n)
{
    for (int i = 0; i < n - 1; i++)
        if (fabsf(sd[i]) < EIG_EPS * (fabsf(d[i]) + fabsf(d[i + 1])))
            sd[i] = 0.0f;
}

static float trailing_eigenvalue(const float *d, const float *sd, int n)
{
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = (ta - tb) / 2.0;

    if (dt > 0)
        return tb - tab * (tab / (dt + hypot_f(dt, tab)));
    if (dt == 0)
        return tb - fabsf(tab);
    return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

static void givens(const float a, const float b, float *c, float *s)
{
    if (b == 0) {
        *c = 1;
        *s = 0;
    } else if (fabsf(b) > fabsf(a)) {
        const float t = -a / b;
        const float s1 = 1.0 / sqrt(1 + t * t);
        *s = s1;
        *c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = 1.0 / sqrt(1 + t * t);
        *c = c1;
        *s = c1 * t;
    }
}

/* speed.c qr_step(): one implicit QR step with Wilkinson's shift */
static void qr_step(float *d, float *sd, int n)
{
    float mu = trailing_eigenvalue(d, sd, n);
    float x, z, ak = 0, bk = 0, zk = 0, ap, bp, aq, bq;

    if (EIG_EPS * fabsf(mu) > fabsf(d[0]) + fabsf(sd[0]))
        mu = 0;
    x = d[0] - mu;
    z = sd[0];
    ap = d[0];
    bp = sd[0];
    aq = d[1];
    if (n == 2) {
        float c, s;
        givens(x, z, &c, &s);
        {
            const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
            const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
            const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
            d[0] = ap1;
            sd[0] = bp1;
            d[1] = aq1;
        }
        return;
    }
    bq = sd[1];
    for (int k = 0; k < n - 1; k++) {
        float c, s;
        givens(x, z, &c, &s);
        {
            const float bk1 = c * bk - s * zk;
            const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
            const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
            const float zp1 = -s * bq;
            const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
            const float bq1 = c * bq;

            ak = ap1;
            bk = bp1;
            zk = zp1;
            ap = aq1;
            bp = bq1;
            if (k < n - 2)
                aq = d[k + 2];
            if (k < n - 3)
                bq = sd[k + 2];
            d[k] = ak;
            if (k > 0)
                sd[k - 1] = bk1;
            if (k < n - 2)
                sd[k + 1] = bp;
            x = bk;
            z = zk;
        }
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

/* compute_eigenvalues_tridiagonal(): deflate from the bottom, at most 500
 * QR steps */
static void eigen_tridiagonal(float *d, float *sd, float *eig, int n,
                              VgLog *log)
{
    int b = n - 1, iter = 0;

    chop_small(d, sd, n);
    while (b > 0 && iter < EIG_MAX_ITERS) {
        int a;
        if (sd[b - 1] == 0.0f) {
            b--;
            continue;
        }
        a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f)
            a--;
        qr_step(d + a, sd + a, b - a + 1);
        chop_small(d + a, sd + a, b - a + 1);
        iter++;
    }
    if (iter == EIG_MAX_ITERS)
        vg_log(log, VG_LOG_DEBUG,
               "speed: eigenvalues: %d iterations, "
               "possibly not converged",
               EIG_MAX_ITERS);
    for (int i = 0; i < n; i++)
        eig[i] = d[i];
}

static void eigenvalues(VgSpeed *s, const float *k, VgLog *log)
{
    float *a = s->mat[1];
    float *d = s->work, *sd = s->work + EB, *v = s->work + 2 * EB,
          *x = s->work + 3 * EB;

    memcpy(a, k, EB * EB * sizeof(*a));
    tridiagonal(a, EB, d, sd, v, x);
    eigen_tridiagonal(d, sd, s->eig, EB, log);
}

/* ---- the linear system (speed.c solve_linear_system()) ----------------- */

/* matrix_mul(): dst = x y, dst zeroed, then dst[i][j] += x[i][k] y[k][j]
 * with i, k, j nested in that order */
VG_CPU_INLINE void mat_mul_any(float *dst, const float *x, const float *y,
                               int rows, int inner, int cols)
{
    memset(dst, 0, (size_t)rows * cols * sizeof(*dst));
    for (int i = 0; i < rows; i++)
        for (int k = 0; k < inner; k++)
            for (int j = 0; j < cols; j++)
                dst[(size_t)i * cols + j] +=
                    x[i * inner + k] * y[(size_t)k * cols + j];
}

/* Each element's sum runs over k in order in every build: only the
 * independent elements of a row are computed side by side. */
VG_CPU_BUILDS(mat_mul,
              (float *dst, const float *x, const float *y, int rows, int inner,
               int cols),
              (dst, x, y, rows, inner, cols))

static void mat_transpose(float *m, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            const float t = m[i * n + j];
            m[i * n + j] = m[j * n + i];
            m[j * n + i] = t;
        }
}

static float vec_norm(const float *x, int n)
{
    float sum = 0;

    for (int i = 0; i < n; i++)
        sum += x[i] * x[i];
    return sqrt(sum);
}

/*
 * matrix_qr_decomposition(): Householder QR of a (n x n); r doubles as
 * the reflection vector and the product's scratch there, as here. The
 * sign of each reflection is taken from a's diagonal (not the reduced
 * matrix's), as speed.c does.
 */
static void qr_decompose(const VgSpeedDSP *dsp, const float *a, float *q,
                         float *r, float *hq, float *z, int n)
{
    float *vec = r;

    memcpy(z, a, (size_t)n * n * sizeof(*z));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            q[i * n + j] = i == j ? 1 : 0;
    for (int k = 0; k < n - 1; k++) {
        float norm, nv;
        int sign;

        /* matrix_minor(): rows and columns < k become the identity's */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (i < k || j < k)
                    z[i * n + j] = i == j ? 1 : 0;
        for (int i = 0; i < n; i++)
            vec[i] = z[i * n + k];
        norm = vec_norm(vec, n);
        sign = sign_of(a[k * n + k]);
        vec[k] += sign * norm;
        nv = vec_norm(vec, n);
        for (int i = 0; i < n; i++)
            vec[i] = vec[i] / nv;
        /* matrix_identity_minus_v_vt(): -2 v_i v_j, then 1 added on the
         * diagonal */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                hq[i * n + j] = -2 * vec[i] * vec[j];
        for (int i = 0; i < n; i++)
            hq[i * n + i] += 1;
        dsp->mat_mul(r, hq, z, n, n, n);
        memcpy(z, r, (size_t)n * n * sizeof(*z));
        dsp->mat_mul(r, hq, q, n, n, n);
        memcpy(q, r, (size_t)n * n * sizeof(*q));
    }
    dsp->mat_mul(r, q, a, n, n, n);
    mat_transpose(q, n);
}

/* solve_triangular_system(): back substitution; -EINVAL on a diagonal
 * entry below 1e-6 in magnitude */
static int back_substitute(const float *r, float *x, const float *b, int n,
                           int cols)
{
    for (int i = n - 1; i >= 0; i--) {
        const float den = r[i * n + i];
        if (fabsf(den) < EIG_EPS)
            return -EINVAL;
        for (int j = 0; j < cols; j++) {
            float t = b[(size_t)i * cols + j];
            for (int k = i + 1; k < n; k++)
                t -= x[(size_t)k * cols + j] * r[i * n + k];
            x[(size_t)i * cols + j] = t / den;
        }
    }
    return 0;
}

static int solve(VgSpeed *s)
{
    float *a = s->mat[1], *q = s->mat[2], *r = s->mat[3], *hq = s->mat[4],
          *z = s->mat[5];

    memcpy(a, s->mat[0], EB * EB * sizeof(*a));
    qr_decompose(&s->dsp, a, q, r, hq, z, EB);
    mat_transpose(q, EB);
    s->dsp.mat_mul(s->rect, q, s->y, EB, EB, (int)s->nb);
    return back_substitute(r, s->x, s->rect, EB, (int)s->nb);
}

/* ---- est_params() ------------------------------------------------------ */

/* compute_covariance_matrix(): means of the 25 shifted sub-pictures (float
 * sums, row-major, divided by the count as a float), then each pair's
 * double sum of (x - mean_x)(y - mean_y), divided by the count in double,
 * stored as a float, lower triangle mirrored.
 *
 * Every one of those sums is a chain of additions in the samples' row-major
 * order. The chains are independent: here the samples are walked once and
 * each step adds its term to every chain (to the 25 means, then to the 325
 * products), so each chain still takes its terms in order and the compiler
 * can vectorise across the chains. d[k] = x_k - mean_k is the same double
 * in every product that uses it; a product of two of them is the same
 * whichever comes first. */
VG_CPU_INLINE void covariance_any(VgSpeed *s, double (*acc)[EB])
{
    const float *data = s->dec;
    const size_t st = s->dw, n = (size_t)s->subw * s->subh;
    float m[EB] = { 0 };
    double mean[EB];
    float *k = s->mat[0];

    for (unsigned i = 0; i < s->subh; i++)
        for (unsigned j = 0; j < s->subw; j++)
            for (int r = 0; r < BLOCK; r++)
                for (int c = 0; c < BLOCK; c++)
                    m[r * BLOCK + c] += data[(r + i) * st + c + j];
    for (int x = 0; x < EB; x++)
        mean[x] = (float)(m[x] / n);
    memset(acc, 0, sizeof(double) * EB * EB);
    for (unsigned i = 0; i < s->subh; i++)
        for (unsigned j = 0; j < s->subw; j++) {
            double d[EB];

            for (int r = 0; r < BLOCK; r++)
                for (int c = 0; c < BLOCK; c++)
                    d[r * BLOCK + c] =
                        data[(r + i) * st + c + j] - mean[r * BLOCK + c];
            for (int x = 0; x < EB; x++) {
                const double dx = d[x];
                for (int y = 0; y <= x; y++)
                    acc[x][y] += dx * d[y];
            }
        }
    for (int x = 0; x < EB; x++)
        for (int y = 0; y <= x; y++) {
            const float cov = acc[x][y] / n;
            k[x * EB + y] = cov;
            k[y * EB + x] = cov;
        }
}

VG_CPU_BUILDS(covariance, (VgSpeed * s, double (*acc)[EB]), (s, acc))

static void covariance(VgSpeed *s)
{
    double acc[EB][EB];

    s->dsp.covariance(s, acc);
}

/* est_params(): the variances and entropies of every block; 1 if the
 * covariance is singular (the solution is then 0). cov: the covariance
 * matrix as covariance() computes it, computed elsewhere, or NULL. */
static int est_params(VgSpeed *s, int which, float sigma_nn, const float *cov,
                      VgLog *log)
{
    const unsigned nb = s->nb;
    float *ent = s->ent[which], *var = s->var[which];
    int singular = 0;

    if (cov)
        memcpy(s->mat[0], cov, EB * EB * sizeof(*cov));
    else
        covariance(s);
    eigenvalues(s, s->mat[0], log);
    /* compute_independent_term(): row r * 5 + c holds sample (r, c) of
     * every block, blocks in raster order */
    for (int r = 0; r < BLOCK; r++)
        for (int c = 0; c < BLOCK; c++)
            for (unsigned bi = 0; bi < s->nbv; bi++)
                for (unsigned bj = 0; bj < s->nbh; bj++)
                    s->y[(size_t)(r * BLOCK + c) * nb + bi * s->nbh + bj] =
                        s->dec[(bi * BLOCK + r) * s->dw + bj * BLOCK + c];
    for (int i = 0; i < EB; i++)
        if (s->eig[i] < EIG_EPS)
            singular = 1;
    if (!singular && solve(s) < 0)
        singular = 1;
    if (singular) {
        vg_log(log, VG_LOG_DEBUG, "speed: covariance matrix is singular");
        memset(s->x, 0, (size_t)EB * nb * sizeof(*s->x));
    }
    /* Z = X Y / 25 (float), summed down each column into row 0 */
    for (size_t i = 0; i < (size_t)EB * nb; i++)
        s->x[i] = (s->x[i] * s->y[i]) / (float)EB;
    for (int i = 1; i < EB; i++)
        for (unsigned j = 0; j < nb; j++)
            s->x[j] += s->x[(size_t)i * nb + j];
    /* update_entropy() per eigenvalue (negatives as 0): the float entropy
     * plus a double term */
    memset(ent, 0, nb * sizeof(*ent));
    for (int k = 0; k < EB; k++) {
        const float l = s->eig[k] < 0 ? 0 : s->eig[k];
        for (unsigned j = 0; j < nb; j++)
            ent[j] += log2(l * s->x[j] + sigma_nn) + log2(2 * M_PI * M_E);
    }
    memcpy(var, s->x, nb * sizeof(*var));
    return singular;
}

/* get_speed_score(): mean over the blocks of |E_r w_r - E_d w_d|, the
 * weights log2(1 + variance) per speed_weight_var_mode; blocks whose two
 * entropies are both below the noise floor's add 0 */
static float speed_score(const VgSpeed *s, float sigma_nn, float nn_floor)
{
    const float base =
        EB * (log2((1 + nn_floor) * sigma_nn) + log2(2 * M_PI * M_E));
    const float *er = s->ent[0], *ed = s->ent[1];
    const float *vr = s->var[0], *vd = s->var[1];
    float score = 0;

    for (unsigned i = 0; i < s->nb; i++) {
        float sr, sd;

        if (er[i] < base && ed[i] < base)
            continue;
        switch (s->p.weight_var_mode) {
        case 0:
            sr = er[i] * log2(1 + vr[i]);
            sd = ed[i] * log2(1 + vd[i]);
            break;
        case 1:
            sr = er[i] * log2(1 + vr[i]);
            sd = ed[i] * log2(1 + vr[i]);
            break;
        case 2:
            sr = er[i] * log2(1 + vd[i]);
            sd = ed[i] * log2(1 + vd[i]);
            break;
        case 3:
            sr = er[i] * log2(1 + (vr[i] + vd[i]) / 2.0);
            sd = ed[i] * log2(1 + (vr[i] + vd[i]) / 2.0);
            break;
        case 4:
            sr = er[i] * log2(1 + vr[i]);
            sd = ed[i] * log2(1 + (vr[i] + vd[i]) / 2.0);
            break;
        case 5:
            sr = er[i] * log2(1 + vr[i]);
            sd = ed[i] * log2(1 + (0.75 * vr[i] + 0.25 * vd[i]));
            break;
        default:
            sr = er[i] * log2(1 + vr[i]);
            sd = ed[i] * log2(1 + (0.25 * vr[i] + 0.75 * vd[i]));
            break;
        }
        score += fabsf(sr - sd);
    }
    return score / s->nb;
}

/* speed_extract_score()'s end: 0 when exactly one of them is singular */
static int finish(const VgSpeed *s, int err_ref, int err_dis, float *score)
{
    if (err_ref != err_dis)
        *score = 0.0f;
    else
        *score = speed_score(s, (float)s->p.sigma_nn, (float)s->p.nn_floor);
    return err_ref || err_dis;
}

/* speed.c passes sigma_nn and nn_floor on as floats */
int vg_speed_ref_side(VgSpeed *s, float *ref, VgLog *log)
{
    filter_and_downscale(s, ref);
    return est_params(s, 0, (float)s->p.sigma_nn, NULL, log);
}

int vg_speed_score_dis(VgSpeed *s, float *dis, int err_ref, float *score,
                       VgLog *log)
{
    int err_dis;

    filter_and_downscale(s, dis);
    err_dis = est_params(s, 1, (float)s->p.sigma_nn, NULL, log);
    return finish(s, err_ref, err_dis, score);
}

int vg_speed_score(VgSpeed *s, float *ref, float *dis, float *score, VgLog *log)
{
    const int err_ref = vg_speed_ref_side(s, ref, log);

    return vg_speed_score_dis(s, dis, err_ref, score, log);
}

int vg_speed_score_decimated(VgSpeed *s, const float *ref, const float *dis,
                             const float *cov_ref, const float *cov_dis,
                             float *score, VgLog *log)
{
    const float sigma_nn = (float)s->p.sigma_nn;
    const size_t bytes = (size_t)s->dw * s->dh * sizeof(*s->dec);
    int err_ref, err_dis;

    memcpy(s->dec, ref, bytes);
    err_ref = est_params(s, 0, sigma_nn, cov_ref, log);
    memcpy(s->dec, dis, bytes);
    err_dis = est_params(s, 1, sigma_nn, cov_dis, log);
    return finish(s, err_ref, err_dis, score);
}

/* ---- set-up (speed.c speed_init(), speed_init_dimensions()) ------------ */

void vg_speed_free(VgSpeed *s)
{
    free(s->tmp);
    free(s->col);
    free(s->dec);
    free(s->blur);
    free(s->y);
    free(s->x);
    free(s->rect);
    for (int i = 0; i < 2; i++) {
        free(s->ent[i]);
        free(s->var[i]);
    }
    memset(s, 0, sizeof(*s));
}

static void vg_speed_dsp_init(VgSpeedDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->antialias_dec16, antialias_dec16, flags);
    VG_CPU_DSP_SET(dsp->remove_local_mean, remove_local_mean, flags);
    VG_CPU_DSP_SET(dsp->mat_mul, mat_mul, flags);
    VG_CPU_DSP_SET(dsp->covariance, covariance, flags);
}

float *vg_speed_alloc_frame(const VgSpeed *s)
{
    return malloc(s->rows * s->stride * sizeof(float));
}

int vg_speed_init(VgSpeed *s, const VgSpeedParams *p, unsigned w, unsigned h,
                  const char *name, VgLog *log)
{
    const float ks = (float)p->kernelscale;
    size_t nb;

    memset(s, 0, sizeof(*s));
    vg_speed_dsp_init(&s->dsp, vg_cpu_flags());
    s->p = *p;
    s->w = w;
    s->h = h;
    /* (int)(size * prescale + 0.5), the size a size_t */
    s->sw = (unsigned)(int)(w * p->prescale + 0.5);
    s->sh = (unsigned)(int)(h * p->prescale + 0.5);
    /* filter_and_downscale(): ALMOST_EQUAL(prescale, 1.0) skips it */
    s->prescale = !(fabs(p->prescale - 1.0) < 1.0e-3);
    s->dw = s->sw >> NUM_SCALES;
    s->dh = s->sh >> NUM_SCALES;
    s->tw = s->dw / BLOCK * BLOCK;
    s->th = s->dh / BLOCK * BLOCK;
    if (!s->tw || !s->th) {
        vg_log(log, VG_LOG_ERROR,
               "%s: a %ux%u plane is too small for SpEED "
               "(speed_prescale=%g makes it %ux%u; it needs at least %ux%u "
               "after the decimation by 16, i.e. %ux%u)",
               name, w, h, p->prescale, s->sw, s->sh, BLOCK, BLOCK,
               BLOCK << NUM_SCALES, BLOCK << NUM_SCALES);
        return -EINVAL;
    }
    if (!s->prescale && (s->sw != w || s->sh != h)) {
        /* |prescale - 1| < 1e-3 leaves the picture as it is, but the sizes
         * are computed from the prescale: a side of 500 or more samples
         * can then grow or shrink by one, and speed.c would filter a
         * different area of the buffer than it filled */
        vg_log(log, VG_LOG_ERROR,
               "%s: speed_prescale=%g is within 1e-3 of 1, "
               "so the %ux%u plane is not resampled, yet its scaled size "
               "is %ux%u; use 1 or a value further from 1",
               name, p->prescale, w, h, s->sw, s->sh);
        return -EINVAL;
    }
    s->nbh = s->tw / BLOCK;
    s->nbv = s->th / BLOCK;
    s->nb = s->nbh * s->nbv;
    s->subw = s->tw - BLOCK + 1;
    s->subh = s->th - BLOCK + 1;
    s->stride = w > s->sw ? w : s->sw;
    s->rows = h > s->sh ? h : s->sh;
    s->taps_aa = vg_vif_filter_size(1, ks);
    /* speed_get_antialias_filter(): the scale-1 length, sigma
     * sqrt(2^2) * n / 5 in double, as a float */
    vg_vif_gaussian(s->filter_aa, s->taps_aa,
                    sqrt(NUM_SCALES) * s->taps_aa / 5.0f);
    s->taps4 = vg_vif_filter_size(NUM_SCALES, ks);
    vg_vif_gaussian(s->filter4, s->taps4, s->taps4 / 5.0f);

    nb = s->nb;
    if (!(s->col = malloc((s->stride > s->dw ? s->stride : s->dw) *
                          sizeof(float))) ||
        !(s->dec = malloc((size_t)s->dw * s->dh * sizeof(float))) ||
        !(s->blur = malloc((size_t)s->dw * s->dh * sizeof(float))) ||
        !(s->y = malloc(EB * nb * sizeof(float))) ||
        !(s->x = malloc(EB * nb * sizeof(float))) ||
        !(s->rect = malloc(EB * nb * sizeof(float))) ||
        !(s->ent[0] = malloc(nb * sizeof(float))) ||
        !(s->ent[1] = malloc(nb * sizeof(float))) ||
        !(s->var[0] = malloc(nb * sizeof(float))) ||
        !(s->var[1] = malloc(nb * sizeof(float))) ||
        (s->prescale && !p->no_frames && !(s->tmp = vg_speed_alloc_frame(s)))) {
        vg_log(log, VG_LOG_ERROR, "%s: out of memory", name);
        vg_speed_free(s);
        return -ENOMEM;
    }
    return 0;
}
