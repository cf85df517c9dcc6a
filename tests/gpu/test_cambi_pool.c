/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CAMBI's top-k pooling on the device (common/features/cambi_params.h)
 * replayed on the host, without a GPU: the three histogram passes of
 * gpu/cambi.cu (their adds in another order: integer counts and sums) and
 * the selections, the very code the kernels and the CPU backend
 * (vg_cambi_pool_exact()) run. For every segment, the outcome must be the
 * home's: settled exactly where vg_cambi_pool_exact() settles it, with the
 * same score, bit for bit, which must also be vg_cambi_pool()'s in
 * cambi.c's order (the oracle), and left to the host where it does not. The c-values: zeros, one value, k = n and k = 1, ties across
 * the three levels' bin boundaries, values at 1/8 and just below 2^14,
 * sums past the exactness bound, values outside [1/8, 2^14) (bad), and
 * random c-values as cambi.c's c-value formula makes them (multiples of
 * reciprocals, mostly zeros); every segment size up to 1920x1080.
 */

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/features/cambi.h"
#include "tests/check_run.h"

static uint32_t rng_state = 0x2545f491u;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static uint32_t bits_of(float f)
{
    uint32_t b;

    memcpy(&b, &f, sizeof(b));
    return b;
}

/* gpu/cambi.cu's passes and selections for one segment of n values */
static void device_pool(const float *c, uint32_t n, uint32_t k,
                        VgCambiPoolResult *r)
{
    VgCambiPoolSeg *s = calloc(1, sizeof(*s));

    ck_assert_ptr_nonnull(s);
    /* histogram 1, its adds in reverse order */
    for (uint32_t i = n; i-- > 0;) {
        const uint32_t bits = bits_of(c[i]);
        const int cl = vg_cambi_pool_class(bits);

        if (cl < 0)
            s->bad = 1;
        if (cl <= 0)
            continue;
        s->cnt1[(bits >> 20) - VG_CAMBI_POOL_BIN0]++;
        s->sig1[(bits >> 20) - VG_CAMBI_POOL_BIN0] += vg_cambi_pool_sig(bits);
    }
    vg_cambi_pool_select1(s, k);
    if (s->level == VG_CAMBI_POOL_LEVEL2 && !s->bad) {
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t bits = bits_of(c[i]);

            if (bits && bits >> 20 == s->b1) {
                s->cnt2[bits >> 10 & 1023]++;
                s->sig2[bits >> 10 & 1023] += vg_cambi_pool_sig(bits);
            }
        }
        vg_cambi_pool_select2(s);
    }
    if (s->level == VG_CAMBI_POOL_LEVEL3 && !s->bad) {
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t bits = bits_of(c[i]);

            if (bits && bits >> 10 == s->b2)
                s->cnt3[bits & 1023]++;
        }
    }
    vg_cambi_pool_select3(s, n, k, r);
    free(s);
}

/* k of spatial_pooling() */
static uint32_t topk_count(double topk, uint32_t n)
{
    const int t = (int)(topk * (int)n);

    return (uint32_t)(t < 1 ? 1 : t > (int)n ? (int)n : t);
}

static unsigned n_exact, n_host;

/* the device's outcome against the home's, on c (n values) */
static void check_segment(const float *c, uint32_t n, double topk,
                          const char *what)
{
    static VgCambiPoolSeg bins;
    const uint32_t k = topk_count(topk, n);
    VgCambiPoolResult r;
    double home, dev, ordered;
    float *copy = malloc(n * sizeof(*c));
    int ok;

    ck_assert_ptr_nonnull(copy);
    device_pool(c, n, k, &r);
    ok = vg_cambi_pool_exact(c, n, k, &bins, &home);
    ck_assert_msg(r.exact == ok, "%s (n %u, k %u): device %s, home %s", what, n,
                  k, r.exact ? "exact" : "to the host",
                  ok ? "exact" : "to the host");
    ck_assert_uint_eq(r.k, k);
    if (ok) {
        dev = vg_cambi_pool_mean(&r);
        ck_assert_msg(dev == home, "%s (n %u, k %u): device %.17g, home %.17g",
                      what, n, k, dev, home);
        memcpy(copy, c, n * sizeof(*c));
        ordered = vg_cambi_pool(copy, topk, n, 1);
        ck_assert_msg(dev == ordered,
                      "%s (n %u, k %u): device %.17g, "
                      "cambi.c's order %.17g",
                      what, n, k, dev, ordered);
        n_exact++;
    } else {
        n_host++;
    }
    free(copy);
}

/* cambi.c's c-values: a sum of weight / count terms, often 0 */
static float cvalue(void)
{
    float v = 0.0f;

    if (rnd() % 4)
        return 0.0f;
    for (int t = 1 + rnd() % 4; t > 0; t--)
        v += (float)(1 + rnd() % 8) * (1.0f / (float)(1 + rnd() % 64));
    return v < 0.125f ? 0.0f : v;
}

START_TEST(test_random)
{
    static const uint32_t sizes[] = {
        1,    2,       7,        64,        1000,      4095,
        4097, 60 * 34, 120 * 68, 480 * 270, 960 * 540, 1920 * 1080,
    };
    static const double topks[] = { 0.6, 1.0, 0.0001, 0.25 };

    for (unsigned z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
        const uint32_t n = sizes[z];
        float *c = malloc(n * sizeof(*c));

        ck_assert_ptr_nonnull(c);
        for (unsigned t = 0; t < sizeof(topks) / sizeof(topks[0]); t++) {
            for (uint32_t i = 0; i < n; i++)
                c[i] = cvalue();
            check_segment(c, n, topks[t], "cambi-like");
            /* few values, many ties */
            for (uint32_t i = 0; i < n; i++)
                c[i] = rnd() % 3 ? 0.0f : (float)(1 + rnd() % 3) * 0.125f;
            check_segment(c, n, topks[t], "ties");
            /* large values and ones near 1/8: past the exactness bound
             * where many add up */
            for (uint32_t i = 0; i < n; i++)
                c[i] = rnd() % 2 ? (float)(8192 + rnd() % 8192) -
                                       (float)(rnd() % 7) / 8.0f
                                 : 0.125f + (float)(rnd() % 8) / 64.0f;
            check_segment(c, n, topks[t], "large and small");
        }
        free(c);
    }
}
END_TEST

START_TEST(test_edges)
{
    enum {
        N = 4096
    };
    float *c = calloc(N, sizeof(*c));

    ck_assert_ptr_nonnull(c);
    /* all zero; one value; k = n */
    check_segment(c, N, 0.6, "zeros");
    c[17] = 3.5f;
    check_segment(c, N, 0.0001, "one value, k 1");
    check_segment(c, N, 1.0, "one value, k n");
    /* the range's ends */
    c[18] = 0.125f;
    c[19] = nextafterf(16384.0f, 0.0f);
    check_segment(c, N, 0.6, "range ends");
    check_segment(c, N, 0.0001, "range ends, k 1");
    /* values outside [1/8, 2^14): bad, to the host */
    c[20] = nextafterf(0.125f, 0.0f);
    check_segment(c, N, 0.6, "below 1/8");
    c[20] = 16384.0f;
    check_segment(c, N, 0.6, "2^14");
    c[20] = -1.0f;
    check_segment(c, N, 0.6, "negative");
    c[20] = NAN;
    check_segment(c, N, 0.6, "NaN");
    /* the k-th largest inside one level-1 bin, then one level-2 bin, with
     * values on both sides of the boundaries */
    for (uint32_t i = 0; i < N; i++) {
        const uint32_t bits = 0x40a00000u + (rnd() % 8) * 0x400u + rnd() % 4;

        memcpy(&c[i], &bits, sizeof(bits));
    }
    for (unsigned t = 1; t < 40; t++)
        check_segment(c, N, t / 40.0, "one level-1 bin");
    for (uint32_t i = 0; i < N; i++) {
        const uint32_t bits = 0x40a00000u + rnd() % 2048;

        memcpy(&c[i], &bits, sizeof(bits));
    }
    for (unsigned t = 1; t < 40; t++)
        check_segment(c, N, t / 40.0, "one level-2 bin");
    /* 64 values, 64 times each: the k-th largest amid its copies */
    for (uint32_t i = 0; i < N; i++) {
        const uint32_t bits = 0x40a00000u + rnd() % 64;

        memcpy(&c[i], &bits, sizeof(bits));
    }
    for (unsigned t = 1; t < 40; t++)
        check_segment(c, N, t / 40.0, "copies in one level-3 bin");
    free(c);
    /* the bound, 2^(30 + e) with e = -3: 2^14 - 1 values of 2^13 and one
     * of 1/8 add up to below it, 2^14 values of 2^13 and 1/8 to past it */
    c = calloc(1u << 14 | 1, sizeof(*c));
    ck_assert_ptr_nonnull(c);
    for (uint32_t i = 0; i < 1u << 14; i++)
        c[i] = 8192.0f;
    check_segment(c, 1u << 14, 1.0, "2^14 x 2^13");
    c[(1u << 14) - 1] = 0.125f;
    check_segment(c, 1u << 14, 1.0, "(2^14 - 1) x 2^13 and 1/8");
    c[(1u << 14) - 1] = 8192.0f;
    c[1u << 14] = 0.125f;
    check_segment(c, (1u << 14) + 1, 1.0, "2^14 x 2^13 and 1/8");
    free(c);
}
END_TEST

START_TEST(test_both_outcomes)
{
    /* the cases above reach both outcomes */
    ck_assert_uint_gt(n_exact, 0);
    ck_assert_uint_gt(n_host, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cambi_pool");
    TCase *tc = tcase_create("pool");

    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_edges);
    tcase_add_test(tc, test_random);
    tcase_add_test(tc, test_both_outcomes);
    suite_add_tcase(s, tc);
    return vg_check_run_nofork(s);
}
