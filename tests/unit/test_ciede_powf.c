/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The device's stand-in for glibc's powf(x, 7) (vg_ciede_powf7(),
 * common/features/ciede_params.h) against this host's libm, for every
 * float of the range where the kernel relies on it: a settled result must
 * be powf's, an ambiguous one must have powf's among its two candidates.
 * Also the squares the kernel computes as products (glibc's pow(f, 2) of
 * a float is the exact double f * f) and the constant powf(25, 7).
 *
 * glibc picks its powf at load time (an FMA build on CPUs that have FMA):
 * the program checks the one it got, then runs itself again with the
 * plain SSE2 build (GLIBC_TUNABLES), so both are covered on such hosts.
 */

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/features/ciede.h"
#include "common/features/ciede_params.h"
#include "tests/check_run.h"

/* counts of one range */
typedef struct Tally {
    uint64_t n, settled, ambiguous, wrong;
    float first_wrong;
} Tally;

/* every float of [lo, hi) (lo, hi > 0 powers of two) */
static void sweep(double lo, double hi, Tally *t)
{
    const uint32_t a = vg_ciede_fbits((float)lo), b = vg_ciede_fbits((float)hi);

    for (uint32_t u = a; u < b; u++) {
        const float x = vg_ciede_bitsf(u);
        /* volatile: the call as common/features/ciede.c makes it, never folded */
        volatile float k = 7;
        const float g = powf(x, k);
        float r0, r1;
        const int st = vg_ciede_powf7(x, &r0, &r1);

        t->n++;
        if (st == 1 && vg_ciede_fbits(g) == vg_ciede_fbits(r0)) {
            t->settled++;
            continue;
        }
        if (st == 2 && (vg_ciede_fbits(g) == vg_ciede_fbits(r0) ||
                        vg_ciede_fbits(g) == vg_ciede_fbits(r1))) {
            t->ambiguous++;
            continue;
        }
        if (!t->wrong++)
            t->first_wrong = x;
    }
}

static void report(const char *what, const Tally *t)
{
    printf(
        "%s: %llu floats, %llu settled, %llu ambiguous (%.3f%%), %llu wrong\n",
        what, (unsigned long long)t->n, (unsigned long long)t->settled,
        (unsigned long long)t->ambiguous, 100.0 * t->ambiguous / t->n,
        (unsigned long long)t->wrong);
    ck_assert_msg(!t->wrong,
                  "%s: powf(%a) is neither the settled float nor "
                  "a candidate (%llu such floats)",
                  what, t->first_wrong, (unsigned long long)t->wrong);
    /* the window is 1/128 ulp wide at most: a rule that gives up often
     * would send many pixels to the host */
    ck_assert_msg(t->ambiguous < t->n / 50, "%s: %llu of %llu ambiguous", what,
                  (unsigned long long)t->ambiguous, (unsigned long long)t->n);
}

START_TEST(test_powf7)
{
    Tally t = { 0 };

    sweep(VG_CIEDE_POWF7_MIN, VG_CIEDE_POWF7_MAX, &t);
    report("powf(x, 7)", &t);
}
END_TEST

START_TEST(test_edges)
{
    volatile float k = 7, x25 = 25;
    float a, b;

    /* +0 settles; -0 and what lies outside the range go to the host */
    ck_assert_int_eq(vg_ciede_powf7(0.0f, &a, &b), 1);
    ck_assert(vg_ciede_fbits(a) == vg_ciede_fbits(powf(0.0f, k)));
    ck_assert_int_eq(vg_ciede_powf7(-0.0f, &a, &b), 0);
    ck_assert_int_eq(vg_ciede_powf7(-1.0f, &a, &b), 0);
    ck_assert_int_eq(vg_ciede_powf7((float)VG_CIEDE_POWF7_MAX, &a, &b), 0);
    ck_assert_int_eq(
        vg_ciede_powf7(nextafterf((float)VG_CIEDE_POWF7_MIN, 0), &a, &b), 0);
    ck_assert_int_eq(vg_ciede_powf7(NAN, &a, &b), 0);
    /* the constant, as glibc computes it and as compilers fold it */
    ck_assert(powf(x25, k) == VG_CIEDE_POWF_25_7);
    ck_assert(powf(25., 7) == VG_CIEDE_POWF_25_7);
}
END_TEST

/* pow(f, 2) of a float f is exactly f * f in double: every float of
 * [1, 2) and 2^24 others spread over the exponents ciede sees */
START_TEST(test_pow_square)
{
    uint64_t bad = 0;
    uint32_t u, seed = 12345;

    for (u = vg_ciede_fbits(1.0f); u < vg_ciede_fbits(2.0f); u++) {
        const double f = vg_ciede_bitsf(u);
        bad += pow(f, 2) != f * f;
    }
    for (int i = 0; i < 1 << 24; i++) {
        double f;

        seed = seed * 1664525u + 1013904223u;
        /* exponents 2^-40 .. 2^23, either sign */
        u = (seed & 0x807fffffu) | (uint32_t)(87 + (seed >> 8) % 64) << 23;
        f = vg_ciede_bitsf(u);
        bad += pow(f, 2) != f * f;
    }
    ck_assert_msg(!bad, "pow(f, 2) != f * f for %llu floats",
                  (unsigned long long)bad);
}
END_TEST

/* the CUDA backend's check of the process's powf passes on glibc */
START_TEST(test_host_agrees)
{
    ck_assert_int_eq(vg_ciede_host_powf_agrees(), 1);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("ciede_powf");
    TCase *tc = tcase_create("ciede_powf");
    const char *variant = getenv("VG_TEST_POWF_VARIANT");
    int ret;

    (void)argc;
    printf("libm build: %s\n", variant ? variant : "as loaded");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_edges);
    tcase_add_test(tc, test_host_agrees);
    tcase_add_test(tc, test_pow_square);
    tcase_add_test(tc, test_powf7);
    suite_add_tcase(s, tc);
    ret = vg_check_run(s);
    if (ret || variant)
        return ret;
#if defined(__x86_64__)
    /* again with glibc's SSE2 powf (ignored where there is no other) */
    fflush(stdout);
    setenv("VG_TEST_POWF_VARIANT", "sse2", 1);
    /* the names of glibc 2.33 and later, then those of 2.26 to 2.32;
     * each ignores the other's */
    setenv("GLIBC_TUNABLES",
           "glibc.cpu.hwcaps=-AVX2,-FMA,-AVX2_Usable,"
           "-FMA_Usable",
           1);
    execv("/proc/self/exe", argv);
    perror("test_ciede_powf: exec");
    return 1;
#else
    return ret;
#endif
}
