/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The sequential float sums (gpu/core/f32sum.cu, gpu/core/f32sum_step.h) against the
 * plain loop `float s = 0; s += x[i]`, bit for bit, on sums made to be
 * hard: PSNR-HVS-like terms, small integers and odd multiples of powers of
 * two (ties at every binade), magnitudes over 2^-40..2^10, subnormals,
 * sparse terms, a sum that stops growing at 2^24, terms that are negative
 * or not finite, and lengths around the chunk size.
 *
 * Host: a term's units against an exact division; each chunk record
 * against the same stretch joined term by term and against float
 * additions from a running sum of either parity; the kernels' passes
 * replayed chunk by chunk, warp by warp, with the kernels' step
 * functions. Device (a CUDA build with a GPU; with VG_REQUIRE_GPU=1 a
 * missing GPU fails): the same sums through vg_cuda_f32sum_submit(), several
 * per submission.
 */

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tests/check_run.h"
#include "gpu/core/f32sum_step.h"
#if HAVE_CUDA
#include "gpu/core/f32sum.h"
#endif

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static float unitf(void)
{
    return (float)(rnd() >> 40) * 0x1p-24f;
}

static float loop_sum(const float *x, size_t n)
{
    float s = 0.0f;

    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s;
}

/* the same bits; any NaN for a NaN (the device's NaNs have their own payload) */
static int same_bits(float a, float b)
{
    return vg_f32sum_bits(a) == vg_f32sum_bits(b) || (isnan(a) && isnan(b));
}

enum Kind {
    K_HVS,
    K_SMALLINT,
    K_ODD_POW2,
    K_MAGNITUDES,
    K_SUBNORMAL,
    K_SPARSE,
    K_ZEROS,
    K_CONST,
    K_HUGE,
    K_TINY,
    K_NEG,
    K_NAN,
    K_INF,
    K_NB
};

static const char *const kind_names[K_NB] = {
    "psnr-hvs", "small-int", "odd-pow2", "magnitudes", "subnormal",
    "sparse",   "zeros",     "const",    "huge",       "tiny",
    "negative", "nan",       "inf",
};

static void fill(float *x, size_t n, enum Kind k)
{
    for (size_t i = 0; i < n; i++) {
        switch (k) {
        case K_HVS: {
            /* (err * csf)^2 as psnr_hvs forms it, most terms masked to 0 */
            const float err = (float)(rnd() % 40) * 0.5f + unitf();
            const float csf = 0.1f + 1.5f * unitf();
            x[i] = rnd() % 5 < 3 ? 0.0f : (err * csf) * (err * csf);
            break;
        }
        case K_SMALLINT:
            x[i] = (float)(rnd() % 8);
            break;
        case K_ODD_POW2:
            x[i] = ldexpf((float)(2 * (rnd() % 8) + 1), (int)(rnd() % 12) - 6);
            break;
        case K_MAGNITUDES:
            x[i] = ldexpf(0.5f + unitf(), (int)(rnd() % 50) - 40);
            break;
        case K_SUBNORMAL:
            x[i] = rnd() % 4   ? ldexpf((float)(rnd() % 1000), -149)
                   : rnd() % 2 ? 0.0f
                               : ldexpf(unitf(), -120);
            break;
        case K_SPARSE:
            x[i] = rnd() % 3001 ? 0.0f : 100.0f * unitf();
            break;
        case K_ZEROS:
            x[i] = 0.0f;
            break;
        case K_CONST:
            x[i] = 1.0f;
            break;
        case K_HUGE:
            x[i] = i == n / 4 ? 1e30f : unitf();
            break;
        case K_TINY:
            x[i] = ldexpf(0.5f + unitf(), -100);
            break;
        case K_NEG:
            x[i] = i == n / 2 ? -1e6f : 4.0f * unitf();
            break;
        case K_NAN:
            x[i] = i == n / 2 ? NAN : unitf();
            break;
        case K_INF:
            x[i] = i == n / 3 ? INFINITY : unitf();
            break;
        default:
            x[i] = 0.0f;
            break;
        }
    }
}

/* ---- the kernels' passes on the host --------------------------------- */

/* vg_f32sum_chunks for one chunk: its VG_F32SUM_RECS records, the kernel's
 * order of joins */
static void host_chunk(const uint32_t *b, int len, VgF32sumChunk *rec)
{
    enum {
        R = VG_F32SUM_PER_THREAD,
        W = VG_F32SUM_SUBS
    };
    int emax = VG_F32SUM_ZEROS;

    memset(rec, 0, VG_F32SUM_RECS * sizeof(*rec));
    for (int i = 0; i < len; i++) {
        const int fe =
            vg_f32sum_plain(b[i]) ? vg_f32sum_exponent(b[i]) : VG_F32SUM_WALK;
        emax = fe > emax ? fe : emax;
    }
    for (int r = 0; r < VG_F32SUM_RECS; r++)
        rec[r].emax = emax;
    if (emax == VG_F32SUM_ZEROS || emax == VG_F32SUM_WALK)
        return;
    for (int w = 0; w < VG_F32SUM_WINDOW; w++) {
        VgF32sumSeg warp[W], s;

        for (int wp = 0; wp < W; wp++) {
            VgF32sumSeg lane[32], next[32];

            for (int l = 0; l < 32; l++) {
                lane[l] = vg_f32sum_seg_empty();
                for (int i = 0; i < R; i++) {
                    const int j = (wp * 32 + l) * R + i;
                    int tie;
                    const int64_t q =
                        vg_f32sum_units(j < len ? b[j] : 0u, emax + w, &tie);
                    vg_f32sum_seg_add(&lane[l], q, tie);
                }
            }
            for (int off = 1; off < 32; off <<= 1) {
                for (int l = 0; l < 32; l++)
                    next[l] = l + off < 32
                                  ? vg_f32sum_seg_join(lane[l], lane[l + off])
                                  : lane[l];
                memcpy(lane, next, sizeof(lane));
            }
            warp[wp] = lane[0];
            vg_f32sum_record(rec + 1 + wp, w, lane[0]);
        }
        s = warp[0];
        for (int wp = 1; wp < W; wp++)
            s = vg_f32sum_seg_join(s, warp[wp]);
        vg_f32sum_record(rec, w, s);
    }
}

typedef struct Walk {
    size_t fast, subs, walked, events;
} Walk;

/* vg_f32sum_chain: records r[0], r[stride], ... while they stay in the binade */
static int host_chain(const VgF32sumChunk *r, int stride, int count, int e,
                      int64_t *m)
{
    int done = 0;
    int64_t k;

    while (done < count &&
           vg_f32sum_chunk_units(r + (size_t)done * stride, e, *m, &k) &&
           *m + k < VG_F32SUM_TOP) {
        *m += k;
        done++;
    }
    return done;
}

/* vg_f32sum_walk for one sum: the warp's steps, lane by lane */
static float host_walk(const uint32_t *b, size_t n, const VgF32sumChunk *rec,
                       Walk *st)
{
    const size_t nc = (n + VG_F32SUM_CHUNK - 1) / VG_F32SUM_CHUNK;
    int64_t m = 0;
    int e = -126;
    size_t c = 0;

    memset(st, 0, sizeof(*st));
    while (c < nc) {
        const int cnt = nc - c < 32 ? (int)(nc - c) : 32;
        const int done =
            host_chain(rec + c * VG_F32SUM_RECS, VG_F32SUM_RECS, cnt, e, &m);

        c += done;
        st->fast += done;
        if (done == cnt)
            continue;

        const size_t start = c * VG_F32SUM_CHUNK;
        const int len =
            n - start < VG_F32SUM_CHUNK ? (int)(n - start) : VG_F32SUM_CHUNK;
        const int nsub = (len + VG_F32SUM_SUB - 1) / VG_F32SUM_SUB;
        const VgF32sumChunk *srec = rec + c * VG_F32SUM_RECS + 1;

        for (int sub = 0;;) {
            const int sd = host_chain(srec + sub, 1, nsub - sub, e, &m);

            sub += sd;
            st->subs += sd;
            if (sub >= nsub)
                break;

            const size_t s0 = start + (size_t)sub * VG_F32SUM_SUB;
            const int slen =
                n - s0 < VG_F32SUM_SUB ? (int)(n - s0) : VG_F32SUM_SUB;
            const uint32_t *bs = b + s0;

            st->walked++;
            for (int li = 0; li < slen;) {
                int q[32] = { 0 }, incl[32] = { 0 }, f = -1, run = 0;

                for (int l = 0; l < 32; l++) {
                    int tie = 0, ev = 0;

                    q[l] = 0;
                    if (li + l < slen) {
                        if (vg_f32sum_plain(bs[li + l]))
                            q[l] = (int)vg_f32sum_units(bs[li + l], e, &tie);
                        else
                            ev = 1;
                    }
                    run += q[l];
                    incl[l] = run;
                    ev |= tie | (m + incl[l] >= VG_F32SUM_TOP);
                    if (f < 0 && ev && li + l < slen)
                        f = l;
                }
                if (f < 0) {
                    m += incl[31];
                    li += 32;
                    continue;
                }
                st->events++;
                const float sum =
                    vg_f32sum_float(vg_f32sum_join(e, m + incl[f] - q[f])) +
                    vg_f32sum_float(bs[li + f]);
                const uint32_t sb = vg_f32sum_bits(sum);

                li += f + 1;
                if (!vg_f32sum_plain(sb) || sb == 0x80000000u) {
                    float s = sum;

                    for (size_t i = s0 + li; i < n; i++)
                        s += vg_f32sum_float(b[i]);
                    return s;
                }
                vg_f32sum_split(sb, &e, &m);
            }
            sub++;
        }
        c++;
    }
    return vg_f32sum_float(vg_f32sum_join(e, m));
}

static VgF32sumChunk *host_records(const uint32_t *b, size_t n)
{
    const size_t nc = (n + VG_F32SUM_CHUNK - 1) / VG_F32SUM_CHUNK;
    VgF32sumChunk *rec = calloc((nc ? nc : 1) * VG_F32SUM_RECS, sizeof(*rec));

    ck_assert_ptr_nonnull(rec);
    for (size_t c = 0; c < nc; c++) {
        const size_t start = c * VG_F32SUM_CHUNK;
        host_chunk(b + start,
                   n - start < VG_F32SUM_CHUNK ? (int)(n - start)
                                               : VG_F32SUM_CHUNK,
                   rec + c * VG_F32SUM_RECS);
    }
    return rec;
}

static const size_t lengths[] = {
    0,
    1,
    31,
    33,
    VG_F32SUM_CHUNK - 1,
    VG_F32SUM_CHUNK,
    VG_F32SUM_CHUNK + 1,
    33 * VG_F32SUM_CHUNK + 5,
    2700544,
};

START_TEST(host_replay)
{
    const enum Kind k = (enum Kind)_i;
    const size_t nmax = lengths[sizeof(lengths) / sizeof(lengths[0]) - 1];
    float *x = malloc(nmax * sizeof(float));

    ck_assert_ptr_nonnull(x);
    for (size_t li = 0; li < sizeof(lengths) / sizeof(lengths[0]); li++) {
        const size_t n = lengths[li];
        VgF32sumChunk *rec;
        Walk st;
        float want, got;

        fill(x, n, k);
        rec = host_records((const uint32_t *)x, n);
        want = loop_sum(x, n);
        got = host_walk((const uint32_t *)x, n, rec, &st);
        ck_assert_msg(same_bits(want, got),
                      "%s n=%zu: replay %.9g (0x%08x), loop %.9g (0x%08x)",
                      kind_names[k], n, (double)got, vg_f32sum_bits(got),
                      (double)want, vg_f32sum_bits(want));
        if (n == nmax)
            printf(
                "test_f32sum: %-10s n=%zu: %zu chunks added whole, %zu sub-chunks, "
                "%zu sub-chunks walked, %zu float steps\n",
                kind_names[k], n, st.fast, st.subs, st.walked, st.events);
        /* the sums that grow steadily add most chunks whole */
        if (n == nmax &&
            (k == K_HVS || k == K_SMALLINT || k == K_ODD_POW2 || k == K_CONST))
            ck_assert_msg(st.walked * 20 < st.fast,
                          "%s: %zu sub-chunks walked, %zu chunks whole",
                          kind_names[k], st.walked, st.fast);
        free(rec);
    }
    free(x);
}
END_TEST

/* a term's units against x / u_e in double, exact for these ranges */
START_TEST(units)
{
    for (int it = 0; it < 200000; it++) {
        const uint32_t b =
            it < 100 ? (uint32_t)it : (uint32_t)(rnd() % 0x7f800000u);
        const float x = vg_f32sum_float(b);
        const int fe = b ? vg_f32sum_exponent(b) : 0;
        const int e = it % 7 == 0 ? -126 : fe + (int)(rnd() % 40) - 3;
        const double r = ldexp((double)x, 23 - (e < -126 ? -126 : e));
        int tie;
        const int64_t q = vg_f32sum_units(b, e < -126 ? -126 : e, &tie);

        if (r >= 2.0 * VG_F32SUM_TOP) {
            ck_assert(q >= VG_F32SUM_TOP && !tie);
            continue;
        }
        ck_assert_int_eq(tie, r - floor(r) == 0.5);
        ck_assert_msg(q == (int64_t)(tie ? floor(r) : nearbyint(r)),
                      "b=0x%08x e=%d: %lld, want %.17g", b, e, (long long)q, r);
    }
}
END_TEST

/*
 * Each record against float additions from a running sum m 2^(e-23) of
 * either parity, in every binade of the window where the chunk keeps the
 * sum in its binade, and against the stretch joined term by term.
 */
START_TEST(records)
{
    const enum Kind kinds[] = { K_HVS, K_SMALLINT, K_ODD_POW2, K_MAGNITUDES,
                                K_SUBNORMAL };
    static float x[VG_F32SUM_CHUNK];
    size_t checked = 0;

    for (size_t ki = 0; ki < sizeof(kinds) / sizeof(kinds[0]); ki++) {
        for (int rep = 0; rep < 6; rep++) {
            const int len = rep == 5 ? 777 : VG_F32SUM_CHUNK;
            const uint32_t *b = (const uint32_t *)x;
            VgF32sumChunk recs[VG_F32SUM_RECS], rec;

            fill(x, len, kinds[ki]);
            host_chunk(b, len, recs);
            rec = recs[0];
            ck_assert(rec.emax != VG_F32SUM_WALK);
            if (rec.emax == VG_F32SUM_ZEROS)
                continue;
            for (int w = 0; w < VG_F32SUM_WINDOW; w++) {
                const int e = rec.emax + w;
                VgF32sumSeg s = vg_f32sum_seg_empty();
                VgF32sumChunk one;

                for (int i = 0; i < len; i++) {
                    int tie;
                    const int64_t q = vg_f32sum_units(b[i], e, &tie);
                    s = vg_f32sum_seg_join(s, vg_f32sum_seg_term(q, tie));
                }
                vg_f32sum_record(&one, w, s);
                ck_assert_int_eq(one.k[w], rec.k[w]);
                ck_assert_int_eq(one.tie[w], rec.tie[w]);
                /* the sub-chunks' records likewise */
                for (int sc = 0; sc < VG_F32SUM_SUBS; sc++) {
                    VgF32sumSeg ss = vg_f32sum_seg_empty();

                    for (int i = sc * VG_F32SUM_SUB;
                         i < len && i < (sc + 1) * VG_F32SUM_SUB; i++) {
                        int tie;
                        const int64_t q = vg_f32sum_units(b[i], e, &tie);
                        ss = vg_f32sum_seg_join(ss, vg_f32sum_seg_term(q, tie));
                    }
                    vg_f32sum_record(&one, w, ss);
                    ck_assert_int_eq(one.k[w], recs[1 + sc].k[w]);
                    ck_assert_int_eq(one.tie[w], recs[1 + sc].tie[w]);
                }
                for (int par = 0; par < 4; par++) {
                    const int64_t m0 =
                        (e == -126 ? (int64_t)(rnd() % 0x400000)
                                   : 0x800000 + (int64_t)(rnd() % 0x400000)) &
                        ~(int64_t)1;
                    const int64_t m = m0 + (par & 1);
                    float sum = vg_f32sum_float(vg_f32sum_join(e, m));
                    int64_t k, m1;
                    int e1;

                    if (e < -126 || e > 100)
                        continue;
                    for (int i = 0; i < len; i++)
                        sum += x[i];
                    vg_f32sum_split(vg_f32sum_bits(sum), &e1, &m1);
                    ck_assert(vg_f32sum_chunk_units(&rec, e, m, &k));
                    if (m + k >= VG_F32SUM_TOP) {
                        /* the walk takes this chunk term by term */
                        ck_assert_int_gt(e1, e);
                        continue;
                    }
                    ck_assert_msg(e1 == e && m + k == m1,
                                  "%s w=%d m=%lld: record adds "
                                  "%lld, floats %lld (binade %d)",
                                  kind_names[kinds[ki]], w, (long long)m,
                                  (long long)k, (long long)(m1 - m), e1);
                    checked++;
                }
            }
        }
    }
    ck_assert_uint_gt(checked, 200);
}
END_TEST

#if !HAVE_CUDA
static const int have_dev = 0;
#else
static VgCudaDevice dev;
static int have_dev;

static int open_device(void)
{
    VgConfig cfg = { 0 };

    cfg.backend = VG_BACKEND_CUDA;
    if (vg_cuda_device_usable(&cfg, NULL) < 0 ||
        vg_cuda_device_open(&dev, &cfg, NULL) < 0)
        return 0;
    return 1;
}

START_TEST(device)
{
    enum {
        L = 3
    };
    const size_t lens[L] = { VG_F32SUM_CHUNK + 1, 33 * VG_F32SUM_CHUNK + 5,
                             2700544 };
    const size_t per = 2700544 + 4;
    float *x = malloc(per * sizeof(float)), want[K_NB * L], got[K_NB * L + 1];
    CUdeviceptr dx, dout;
    VgCudaF32sum s;
    int m = 0;

    ck_assert_ptr_nonnull(x);
    ck_assert_int_eq(vg_cuda_device_push(&dev), 0);
    ck_assert_int_eq(
        VG_DCU(&dev, cuMemAlloc, &dx, (size_t)K_NB * L * per * sizeof(float)),
        0);
    ck_assert_int_eq(
        VG_DCU(&dev, cuMemAlloc, &dout, (K_NB * L + 1) * sizeof(float)), 0);
    for (int k = 0; k < K_NB; k++) {
        for (int t = 0; t < L; t++) {
            fill(x, lens[t], (enum Kind)k);
            want[m] = loop_sum(x, lens[t]);
            ck_assert_int_eq(VG_DCU(&dev, cuMemcpyHtoD,
                                    dx + (size_t)m * per * sizeof(float), x,
                                    lens[t] * sizeof(float)),
                             0);
            m++;
        }
    }
    ck_assert_int_eq(vg_cuda_f32sum_init(&dev, &s, VG_F32SUM_MAX_ARRAYS,
                                         lens[1] + 2 * lens[2]),
                     0);
    /* in submissions of up to MAX_ARRAYS sums, the empty sum among them */
    for (int b0 = 0; b0 < m; b0 += VG_F32SUM_MAX_ARRAYS - 1) {
        const float nan = NAN;

        ck_assert_int_eq(VG_DCU(&dev, cuMemcpyHtoD,
                                dout + (size_t)m * sizeof(float), &nan,
                                sizeof(nan)),
                         0);
        vg_cuda_f32sum_reset(&s);
        ck_assert_int_eq(
            vg_cuda_f32sum_add(&s, dx, 0, dout + (size_t)m * sizeof(float)), 0);
        for (int i = b0; i < m && i < b0 + VG_F32SUM_MAX_ARRAYS - 1; i++)
            ck_assert_int_eq(vg_cuda_f32sum_add(
                                 &s, dx + (size_t)i * per * sizeof(float),
                                 lens[i % L], dout + (size_t)i * sizeof(float)),
                             0);
        ck_assert_int_eq(vg_cuda_f32sum_submit(&dev, &s), 0);
        ck_assert_int_eq(VG_DCU(&dev, cuStreamSynchronize, dev.stream), 0);
        ck_assert_int_eq(
            VG_DCU(&dev, cuMemcpyDtoH, got, dout, (m + 1) * sizeof(float)), 0);
        ck_assert(same_bits(got[m], 0.0f));
        for (int i = b0; i < m && i < b0 + VG_F32SUM_MAX_ARRAYS - 1; i++)
            ck_assert_msg(same_bits(want[i], got[i]),
                          "%s n=%zu: device %.9g, loop %.9g", kind_names[i / L],
                          lens[i % L], (double)got[i], (double)want[i]);
    }
    /* the capacity and the alignment are checked */
    vg_cuda_f32sum_reset(&s);
    ck_assert_int_eq(vg_cuda_f32sum_add(&s, dx, 3 * per, dout), -EINVAL);
    ck_assert_int_eq(vg_cuda_f32sum_add(&s, dx + 4, 100, dout), -EINVAL);
    vg_cuda_f32sum_close(&dev, &s);
    VG_DCU(&dev, cuMemFree, dx);
    VG_DCU(&dev, cuMemFree, dout);
    free(x);
    ck_assert_int_eq(vg_cuda_device_pop(&dev), 0);
}
END_TEST
#endif

int main(void)
{
    Suite *su = suite_create("f32sum");
    TCase *tc = tcase_create("f32sum");
    int ret;

    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, units);
    tcase_add_test(tc, records);
    tcase_add_loop_test(tc, host_replay, 0, K_NB);
#if HAVE_CUDA
    have_dev = open_device();
    if (have_dev)
        tcase_add_test(tc, device);
#endif
    if (vg_check_gpu_missing("test_f32sum", have_dev))
        return 1;
    suite_add_tcase(su, tc);
    ret = vg_check_run_nofork(su);
#if HAVE_CUDA
    if (have_dev)
        vg_cuda_device_close(&dev);
#endif
    return ret;
}
