/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The parallel sequential sums (gpu/core/seqsum.cu, gpu/core/seqsum_step.h) against
 * the plain loop, bit for bit, on sums made to be hard: SSIM-like terms,
 * signed terms hovering around zero, magnitudes over 2^-60..2^30, exact
 * ties of every kind, subnormals, terms that are not finite, sums past the
 * fixed point's range, and lengths around the chunk size.
 *
 * Host: the scheme replayed chunk by chunk and thread by thread with the
 * kernels' step functions, including with deliberately wrong binade
 * guesses (the check must catch each one: the result is still the loop's,
 * through the sequential path). Device (a CUDA build with a GPU; with
 * VG_REQUIRE_GPU=1 a missing GPU fails): the same sums through
 * vg_cuda_seqsum_submit(), several per submission.
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
#include "gpu/core/seqsum_step.h"
#if HAVE_CUDA
#include "gpu/core/seqsum.h"
#endif

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double unit(void)
{
    return (double)(rnd() >> 11) * 0x1p-53;
}

static double loop_sum(const double *x, size_t n)
{
    double s = 0.0;

    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s;
}

enum Kind {
    K_SSIM_L,
    K_SIGNED,
    K_AROUND_ZERO,
    K_MAGNITUDES,
    K_TIES,
    K_TIES_SPARSE,
    K_SUBNORMAL,
    K_NAN,
    K_INF,
    K_HUGE,
    K_TINY,
    K_CONST,
    K_NB
};

static const char *const kind_names[K_NB] = {
    "ssim-l",    "signed", "around-zero", "magnitudes", "ties", "sparse-ties",
    "subnormal", "nan",    "inf",         "huge",       "tiny", "const",
};

static void fill(double *x, size_t n, enum Kind k)
{
    for (size_t i = 0; i < n; i++) {
        switch (k) {
        case K_SSIM_L:
            x[i] = 0.5 + 0.5 * unit();
            break;
        case K_SIGNED:
            x[i] = 2.0 * unit() - 0.9;
            break;
        case K_AROUND_ZERO:
            x[i] = 2.0 * unit() - 1.0;
            break;
        case K_MAGNITUDES:
            x[i] = ldexp(unit() + 0.5, (int)(rnd() % 90) - 60) *
                   (rnd() & 1 ? 1 : -1);
            break;
        case K_TIES: /* 1 then half-ulps of 1, 3/2 ulps, ... */
            x[i] = i ? ldexp((double)(2 * (rnd() % 4) + 1), -53) : 1.0;
            break;
        case K_TIES_SPARSE: /* a tie now and then in an SSIM-like sum */
            x[i] = rnd() % 997 ? 0.75 + 0.25 * unit()
                               : ldexp(1.0, -30 - (int)(rnd() % 4));
            break;
        case K_SUBNORMAL:
            x[i] = rnd() % 5 ? unit() : 0x1p-1060 * (double)(rnd() % 1000);
            break;
        case K_NAN:
            x[i] = i == n / 2 ? NAN : unit();
            break;
        case K_INF:
            x[i] = i == n / 3 ? -INFINITY : unit();
            break;
        case K_HUGE:
            x[i] = i == n / 4 ? 0x1p40 : unit();
            break;
        case K_TINY:
            x[i] = ldexp(unit() + 0.5, -80);
            break;
        case K_CONST:
            x[i] = 1.0;
            break;
        default:
            x[i] = 0.0;
            break;
        }
    }
}

static int same_bits(double a, double b)
{
    return !memcmp(&a, &b, sizeof(a));
}

/* ---- the scheme on the host ------------------------------------------ */

typedef struct Replay {
    int fallback; ///< the sequential path was taken
    int flagged;  ///< flagged steps in all
    int chunks;   ///< chunks
    int uniform;  ///< one-binade chunks among them
    double skew;  ///< relative error added to every guess (0: none)
} Replay;

/*
 * The kernels' passes for one array, serially, each thread's part with the
 * kernels' own functions (gpu/core/seqsum_step.h): chunk sums, their prefixes,
 * the plan, the flagged steps in order, the check. The approximate
 * prefixes are in another order than the device's: only guesses depend on
 * them (and r->skew makes them wrong on purpose).
 */
static double replay(const double *x, size_t n, Replay *r)
{
    enum {
        T = VG_SEQSUM_THREADS,
        R = VG_SEQSUM_PER_THREAD
    };
    const size_t nc = (n + VG_SEQSUM_CHUNK - 1) / VG_SEQSUM_CHUNK;
    static VgSeqsumFlag fl[VG_SEQSUM_CHUNK];
    VgSeqsumFix run = 0;
    double pre = 0.0, abspre = 0.0;
    int fail = 0;

    r->fallback = r->flagged = r->chunks = r->uniform = 0;
    for (size_t ci = 0; ci < nc && !fail; ci++) {
        const size_t c0 = ci * VG_SEQSUM_CHUNK;
        const int len =
            n - c0 < VG_SEQSUM_CHUNK ? (int)(n - c0) : VG_SEQSUM_CHUNK;
        double run0[T], runa0[T], ts = pre, ta = abspre, csum = 0.0, cabs = 0.0;
        VgSeqsumFix lp[T], fix = 0, acc = 0, base = run;
        unsigned flagged[T];
        int nt[T], f0[T], nf = 0;

        for (int t = 0; t < T; t++) {
            double s = 0.0, sa = 0.0;

            nt[t] = len - t * R < 0 ? 0 : len - t * R < R ? len - t * R : R;
            for (int j = 0; j < nt[t]; j++) {
                s += x[c0 + t * R + j];
                sa += fabs(x[c0 + t * R + j]);
            }
            run0[t] =
                ts + (r->skew != 0.0 ? r->skew * ta * (t & 1 ? 1 : -1) : 0.0);
            runa0[t] = ta;
            ts += s;
            ta += sa;
            csum += s;
            cabs += sa;
        }
        r->chunks++;
        /* plan, one-binade chunk: the threads' k totals and extremes in
         * order (the device's block scan and reductions) */
        {
            const double g = pre + (r->skew != 0.0 ? r->skew * abspre : 0.0);
            const int e = vg_seqsum_chunk_binade(g, abspre, cabs);
            int64_t tot = 0, mn = INT64_MAX, mx = INT64_MIN;
            int bad = 0;

            for (int t = 0; t < T && e != VG_SEQSUM_NO_BINADE; t++) {
                int64_t ks, kmn, kmx;

                bad |= vg_seqsum_thread_uniform(x + c0 + t * R, nt[t], e, &ks,
                                                &kmn, &kmx);
                if (nt[t]) {
                    mn = tot + kmn < mn ? tot + kmn : mn;
                    mx = tot + kmx > mx ? tot + kmx : mx;
                }
                tot += ks;
            }
            if (e != VG_SEQSUM_NO_BINADE && !bad) {
                r->uniform++;
                /* check: one run from the exact sum before the chunk */
                if (!vg_seqsum_run_ok(base, e, mn, mx))
                    fail = 1;
                run = base + vg_seqsum_units(tot, e);
                pre += csum;
                abspre += cabs;
                continue;
            }
        }
        /* plan, step by step */
        for (int t = 0; t < T; t++) {
            int k;
            const VgSeqsumFix c = vg_seqsum_thread_plan(
                x + c0 + t * R, nt[t], run0[t], runa0[t], &flagged[t], &k);
            lp[t] = fix;
            f0[t] = nf;
            fix += c;
            nf += k;
        }
        for (int t = 0; t < T; t++)
            if (flagged[t])
                vg_seqsum_thread_flags(x + c0 + t * R, nt[t], run0[t], runa0[t],
                                       flagged[t], lp[t], t * R, fl + f0[t]);
        r->flagged += nf;
        if (r->flagged > vg_seqsum_pool_share((int64_t)n, (int64_t)n, 1)) {
            fail = 1;
            break;
        }
        /* resolve: the flagged steps in order */
        for (int f = 0; f < nf && !fail; f++) {
            const VgSeqsumFix sf = base + fl[f].lp + acc;
            VgSeqsumFix rf;
            double d;

            ck_assert(same_bits(fl[f].x, x[c0 + fl[f].idx]));
            fl[f].corr = acc;
            if (vg_seqsum_to_double(sf, &d) < 0 ||
                vg_seqsum_to_fix(d + fl[f].x, &rf) < 0)
                fail = 1;
            else
                acc += rf - sf;
        }
        /* check */
        for (int t = 0; t < T && !fail; t++)
            if (!vg_seqsum_thread_check(x + c0 + t * R, nt[t], run0[t],
                                        runa0[t], flagged[t], base, lp[t], fl,
                                        f0[t], nf, acc))
                fail = 1;
        run = base + fix + acc;
        pre += csum;
        abspre += cabs;
    }
    if (!fail) {
        double d;

        if (vg_seqsum_to_double(run, &d) == 0)
            return d;
    }
    r->fallback = 1;
    return loop_sum(x, n);
}

static const size_t lengths[] = {
    0,
    1,
    2,
    17,
    VG_SEQSUM_CHUNK - 1,
    VG_SEQSUM_CHUNK,
    VG_SEQSUM_CHUNK + 1,
    100000,
    2052700 /* 1910 x 1075 */,
};

/* one sum of n terms of kind k replayed, against the loop */
static Replay replay_one(enum Kind k, size_t n, double skew)
{
    double *x = malloc((n + 1) * sizeof(*x));
    Replay r = { .skew = skew };
    double want, got;

    ck_assert_ptr_nonnull(x);
    fill(x, n, k);
    want = loop_sum(x, n);
    got = replay(x, n, &r);
    ck_assert_msg(same_bits(want, got), "%s n=%zu skew %g: %.17g, loop %.17g",
                  kind_names[k], n, skew, got, want);
    free(x);
    return r;
}

START_TEST(host_replay)
{
    const enum Kind k = (enum Kind)_i;
    unsigned fallbacks = 0;

    for (size_t li = 0; li < sizeof(lengths) / sizeof(lengths[0]); li++) {
        const size_t n = lengths[li];
        const Replay r = replay_one(k, n, 0.0);

        fallbacks += r.fallback;
        /* the well-behaved sums take the fast path */
        if (k == K_SSIM_L || k == K_SIGNED || k == K_CONST ||
            k == K_TIES_SPARSE)
            ck_assert_msg(!r.fallback, "%s n=%zu: sequential path (%d flagged)",
                          kind_names[k], n, r.flagged);
        if (n == 2052700)
            printf("%s n=%zu: %d flagged steps, %d of %d chunks in one binade, "
                   "%s path\n",
                   kind_names[k], n, r.flagged, r.uniform, r.chunks,
                   r.fallback ? "sequential" : "parallel");
        /* an SSIM map's sum: nearly every chunk in one binade */
        if (k == K_SSIM_L && n == 2052700)
            ck_assert_msg(r.uniform * 100 >= r.chunks * 95,
                          "%d of %d chunks in "
                          "one binade",
                          r.uniform, r.chunks);
    }
    /* the sums made to break the fast path break it */
    if (k == K_NAN || k == K_INF || k == K_HUGE || k == K_TIES || k == K_TINY)
        ck_assert_msg(fallbacks > 0, "%s: never took the sequential path",
                      kind_names[k]);
}
END_TEST

/* the pool's shares: each at least the floor, a lone sum the whole pool,
 * never more than the pool in all */
START_TEST(pool_shares)
{
    ck_assert_int_eq(vg_seqsum_pool_share(2052700, 2052700, 1), VG_SEQSUM_POOL);
    ck_assert_int_eq(vg_seqsum_pool_share(0, 0, 1), VG_SEQSUM_POOL_FLOOR);
    for (int rep = 0; rep < 1000; rep++) {
        const int count = 1 + (int)(rnd() % VG_SEQSUM_MAX_ARRAYS);
        int64_t n[VG_SEQSUM_MAX_ARRAYS], total = 0, used = 0;

        for (int k = 0; k < count; k++) {
            n[k] = (int64_t)(rnd() % (rep & 1 ? 40000000 : 5000));
            total += n[k];
        }
        for (int k = 0; k < count; k++) {
            const int32_t sh = vg_seqsum_pool_share(n[k], total, count);

            ck_assert_int_ge(sh, VG_SEQSUM_POOL_FLOOR);
            used += sh;
        }
        ck_assert_int_le(used, VG_SEQSUM_POOL);
    }
}
END_TEST

/* wrong guesses: the check catches every one, and the result stays exact */
START_TEST(wrong_guesses)
{
    static const double skews[] = { 1e-12, 1e-9, 1e-6, 1e-3 };
    unsigned caught = 0;

    for (unsigned s = 0; s < sizeof(skews) / sizeof(skews[0]); s++)
        for (enum Kind k = K_SSIM_L; k <= K_AROUND_ZERO; k++)
            caught += replay_one(k, 300000, skews[s]).fallback;
    ck_assert_msg(caught > 0, "no wrong guess was caught");
}
END_TEST

/* the conversions are exact both ways, and refuse what they cannot hold */
START_TEST(conversions)
{
    for (int i = 0; i < 200000; i++) {
        const double d =
            ldexp((double)(int64_t)(rnd() >> 11) * (rnd() & 1 ? 1 : -1),
                  (int)(rnd() % 120) - 143);
        VgSeqsumFix v;
        double back;
        const int ok = vg_seqsum_to_fix(d, &v) == 0;

        if (ok) {
            ck_assert_int_eq(vg_seqsum_to_double(v, &back), 0);
            ck_assert(same_bits(d, back) || (d == 0.0 && back == 0.0));
        } else {
            ck_assert(fabs(d) >= ldexp(1.0, VG_SEQSUM_EMAX) ||
                      fmod(ldexp(d, VG_SEQSUM_FRAC), 1.0) != 0.0);
        }
    }
    /* 2^54 + 1 units has 55 significant bits: not a double */
    {
        double d;
        ck_assert_int_eq(vg_seqsum_to_double(((VgSeqsumFix)1 << 54) + 1, &d),
                         -1);
    }
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
    const size_t n = 2052700;
    double *x[K_NB], want[K_NB * 2], got[K_NB * 2 + 1];
    CUdeviceptr dx, dout;
    size_t total = 0, off[K_NB * 2], len[K_NB * 2];
    VgCudaSeqsum s;
    int32_t fails[VG_SEQSUM_MAX_ARRAYS];
    int m = 0;

    ck_assert_int_eq(vg_cuda_device_push(&dev), 0);
    /* every kind, at a length near the chunk size and a long one */
    for (int k = 0; k < K_NB; k++) {
        x[k] = malloc(n * sizeof(double));
        ck_assert_ptr_nonnull(x[k]);
        fill(x[k], n, (enum Kind)k);
    }
    ck_assert_int_eq(
        VG_DCU(&dev, cuMemAlloc, &dx,
               (K_NB * n + 8 * K_NB * VG_SEQSUM_CHUNK) * sizeof(double)),
        0);
    ck_assert_int_eq(
        VG_DCU(&dev, cuMemAlloc, &dout, (K_NB * 2 + 1) * sizeof(double)), 0);
    for (int k = 0; k < K_NB; k++) {
        const size_t lens[2] = { VG_SEQSUM_CHUNK + 1 + (size_t)k * 97,
                                 n - (size_t)k * 1001 };
        for (int t = 0; t < 2; t++) {
            off[m] = total;
            len[m] = lens[t];
            ck_assert_int_eq(VG_DCU(&dev, cuMemcpyHtoDAsync,
                                    dx + total * sizeof(double), x[k],
                                    lens[t] * sizeof(double), dev.stream),
                             0);
            want[m] = loop_sum(x[k], lens[t]);
            total += lens[t];
            m++;
        }
    }
    ck_assert_int_eq(VG_DCU(&dev, cuStreamSynchronize, dev.stream), 0);
    ck_assert_int_eq(vg_cuda_seqsum_init(&dev, &s, VG_SEQSUM_MAX_ARRAYS, total),
                     0);
    /* in submissions of up to MAX_ARRAYS sums, the empty sum among them */
    for (int b = 0; b < m; b += VG_SEQSUM_MAX_ARRAYS - 1) {
        const double nan = NAN;

        ck_assert_int_eq(VG_DCU(&dev, cuMemcpyHtoDAsync,
                                dout + (size_t)m * sizeof(double), &nan,
                                sizeof(nan), dev.stream),
                         0);
        vg_cuda_seqsum_reset(&s);
        ck_assert_int_eq(
            vg_cuda_seqsum_add(&s, dx, 0, dout + (size_t)m * sizeof(double)),
            0);
        for (int i = b; i < m && i < b + VG_SEQSUM_MAX_ARRAYS - 1; i++)
            ck_assert_int_eq(
                vg_cuda_seqsum_add(&s, dx + off[i] * sizeof(double), len[i],
                                   dout + (size_t)i * sizeof(double)),
                0);
        ck_assert_int_eq(vg_cuda_seqsum_submit(&dev, &s), 0);
        ck_assert_int_eq(VG_DCU(&dev, cuStreamSynchronize, dev.stream), 0);
        ck_assert_int_eq(VG_DCU(&dev, cuMemcpyDtoHAsync, got, dout,
                                (m + 1) * sizeof(double), dev.stream),
                         0);
        ck_assert_int_eq(VG_DCU(&dev, cuStreamSynchronize, dev.stream), 0);
        ck_assert(same_bits(got[m], 0.0)); /* the empty sum */
        ck_assert_int_eq(VG_DCU(&dev, cuMemcpyDtoHAsync, fails,
                                (CUdeviceptr)s.p.fail, sizeof(fails),
                                dev.stream),
                         0);
        ck_assert_int_eq(VG_DCU(&dev, cuStreamSynchronize, dev.stream), 0);
        for (int i = b; i < m && i < b + VG_SEQSUM_MAX_ARRAYS - 1; i++) {
            const enum Kind k = (enum Kind)(i / 2);

            ck_assert_msg(same_bits(want[i], got[i]),
                          "%s n=%zu: device %.17g, loop %.17g", kind_names[k],
                          len[i], got[i], want[i]);
            /* the well-behaved sums take the parallel path (index i - b + 1
             * in the submission, after the empty sum), in the same
             * submission as sums that overflow their share of the pool */
            if (k == K_SSIM_L || k == K_SIGNED || k == K_CONST ||
                k == K_TIES_SPARSE)
                ck_assert_msg(!fails[i - b + 1],
                              "%s n=%zu: sequential path on the "
                              "device",
                              kind_names[k], len[i]);
        }
    }
    /* a sum whose chunk sums come from its producer (the SSIM maps): here
     * the test's, on the host; the parallel path, and the records left at 0
     * for the next producer */
    for (int rep = 0; rep < 2; rep++) {
        const size_t nc = (n + VG_SEQSUM_CHUNK - 1) / VG_SEQSUM_CHUNK;
        double pair[2], back[2];
        CUdeviceptr rec;

        vg_cuda_seqsum_reset(&s);
        ck_assert_int_eq(
            vg_cuda_seqsum_add(&s, dx + off[1] * sizeof(double), len[1], dout),
            0);
        vg_cuda_seqsum_presummed(&s);
        rec = vg_cuda_seqsum_last_chunks(&s);
        for (size_t c = 0; c < nc; c++) {
            pair[0] = pair[1] = 0.0;
            for (size_t i = c * VG_SEQSUM_CHUNK;
                 i < len[1] && i < (c + 1) * VG_SEQSUM_CHUNK; i++) {
                pair[0] += x[K_SSIM_L][i];
                pair[1] += fabs(x[K_SSIM_L][i]);
            }
            ck_assert_int_eq(VG_DCU(&dev, cuMemcpyHtoD,
                                    rec + c * sizeof(VgSeqsumChunk) +
                                        offsetof(VgSeqsumChunk, sum),
                                    pair, sizeof(pair)),
                             0);
        }
        ck_assert_int_eq(vg_cuda_seqsum_submit(&dev, &s), 0);
        ck_assert_int_eq(VG_DCU(&dev, cuStreamSynchronize, dev.stream), 0);
        ck_assert_int_eq(VG_DCU(&dev, cuMemcpyDtoH, got, dout, sizeof(double)),
                         0);
        ck_assert_int_eq(VG_DCU(&dev, cuMemcpyDtoH, fails,
                                (CUdeviceptr)s.p.fail, sizeof(fails)),
                         0);
        ck_assert_msg(same_bits(want[1], got[0]),
                      "presummed: device %.17g, loop %.17g", got[0], want[1]);
        ck_assert_msg(!fails[0], "presummed: sequential path on the device");
        for (size_t c = 0; c < nc; c++) {
            ck_assert_int_eq(VG_DCU(&dev, cuMemcpyDtoH, back,
                                    rec + c * sizeof(VgSeqsumChunk) +
                                        offsetof(VgSeqsumChunk, sum),
                                    sizeof(back)),
                             0);
            ck_assert(back[0] == 0.0 && back[1] == 0.0);
        }
    }
    /* the capacity is checked */
    vg_cuda_seqsum_reset(&s);
    ck_assert_int_eq(
        vg_cuda_seqsum_add(&s, dx, total + 100 * VG_SEQSUM_CHUNK, dout),
        -EINVAL);
    vg_cuda_seqsum_close(&dev, &s);
    VG_DCU(&dev, cuMemFree, dx);
    VG_DCU(&dev, cuMemFree, dout);
    for (int k = 0; k < K_NB; k++)
        free(x[k]);
    ck_assert_int_eq(vg_cuda_device_pop(&dev), 0);
}
END_TEST
#endif

int main(void)
{
    Suite *su = suite_create("seqsum");
    TCase *tc = tcase_create("seqsum");
    int ret;

    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, host_replay, 0, K_NB);
    tcase_add_test(tc, pool_shares);
    tcase_add_test(tc, wrong_guesses);
    tcase_add_test(tc, conversions);
#if HAVE_CUDA
    have_dev = open_device();
    if (have_dev)
        tcase_add_test(tc, device);
#endif
    if (vg_check_gpu_missing("test_seqsum", have_dev))
        return 1;
    suite_add_tcase(su, tc);
    ret = vg_check_run_nofork(su);
#if HAVE_CUDA
    if (have_dev)
        vg_cuda_device_close(&dev);
#endif
    return ret;
}
