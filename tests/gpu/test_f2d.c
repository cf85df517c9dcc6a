/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * gpu/core/f2d.h on the host: the double built from a float's bits times the
 * scale built from its sign is the float's value exactly (signed zeros
 * included), in both forms (any sign; sign bit clear), for every exponent
 * of both signs (every float of the zero and subnormal exponent and of the
 * two lowest and highest normal ones, 2^16 of each other); on a sample of
 * floats and sums, and on every pairing of signed zeros and subnormals
 * with signed zero sums, the sums vg_f2d_add(), vg_f2d_add_pos() and
 * vg_f2d_sub_pos() return are those of a conversion and an addition.
 * The device compiles the same functions with its own intrinsics for the
 * bit casts (the kernels of gpu/float_ssim.cu and gpu/float_ms_ssim.cu);
 * tests/checkasm compares their outputs with the CPU's.
 */

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gpu/core/f2d.h"
#include "tests/check_run.h"

static uint64_t bits64(double d)
{
    uint64_t u;

    memcpy(&u, &d, sizeof(u));
    return u;
}

static float float_of(uint32_t b)
{
    float f;

    memcpy(&f, &b, sizeof(f));
    return f;
}

static int finite_bits(uint32_t b)
{
    return (b & 0x7f800000u) != 0x7f800000u;
}

/* one float: the product against the conversion; the count of failures */
static unsigned check_one(uint32_t b)
{
    const double up = vg_f2d_words(VG_F2D_SCALE_HI, 0);
    const double want = (double)float_of(b);
    const double s = vg_f2d_words(VG_F2D_SCALE_HI | (b & 0x80000000u), 0);
    unsigned bad = bits64(vg_f2d_mag(b) * s) != bits64(want);

    if (!(b & 0x80000000u))
        bad += bits64(vg_f2d_mag_pos(b) * up) != bits64(want);
    return bad;
}

/*
 * Both signs of exponent field _i: every mantissa for the zero and
 * subnormal field and the two lowest and highest normal ones, 2^15
 * mantissas (all top bits, low bits from a generator) for the others.
 */
START_TEST(every_exponent)
{
    const int whole = _i <= 2 || _i >= 253;
    uint64_t s = 0x1234 + (uint64_t)_i;
    unsigned long bad = 0, n = 0;

    ck_assert(vg_f2d_words(VG_F2D_SCALE_HI, 0) == 0x1p896);
    ck_assert(vg_f2d_words(VG_F2D_SCALE_HI | 0x80000000u, 0) == -0x1p896);
    for (uint32_t sign = 0; sign < 2; sign++) {
        for (uint32_t m = 0; m < (whole ? 1u << 23 : 1u << 15); m++) {
            uint64_t r = s =
                s * 6364136223846793005ull + 1442695040888963407ull;
            const uint32_t mant = whole ? m : m << 8 | (uint32_t)(r >> 56);

            bad += check_one(sign << 31 | (uint32_t)_i << 23 | mant);
            n++;
        }
    }
    ck_assert_msg(!bad, "exponent field %d: %lu of %lu floats differ", _i, bad,
                  n);
}
END_TEST

static uint32_t rng32(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

/* the sums: against a conversion and an addition, on random floats and
 * sums (ties among them), and on signed zeros and subnormals added to
 * signed zeros (exact zero results take their sign from the rounding
 * rule) */
START_TEST(sums)
{
    static const double accs[] = {
        0.0,       -0.0,
        1.0,       -1.0,
        0x1p-30,   3.0e10,
        -7.25e-3,  0x1.fffffffffffffp+52,
        0x1p-1074, 255.0 * 255.0 * 1920.0 * 1080.0,
    };
    uint64_t s = 0x5eed;
    unsigned long n = 0, bad = 0, checks = 0;

    for (unsigned i = 0; i < 4000000; i++) {
        uint32_t b = rng32(&s);
        if (i % 5 == 0)
            b &= 0x80000000u | 0xffu; /* zeros and subnormals */
        if (!finite_bits(b))
            continue;
        const float f = float_of(b), pos = float_of(b & 0x7fffffffu);
        double acc = accs[i % (sizeof(accs) / sizeof(accs[0]))];

        if (i & 64) { /* a float's value, as random as f's */
            const uint32_t a = rng32(&s);
            acc = finite_bits(a) ? (double)float_of(a) : acc;
        }
        bad += bits64(vg_f2d_add(acc, f)) != bits64(acc + (double)f);
        bad += bits64(vg_f2d_add_pos(acc, pos)) != bits64(acc + (double)pos);
        bad += bits64(vg_f2d_sub_pos(acc, pos)) != bits64(acc + (double)-pos);
        checks += 3;
        n++;
    }
    static const uint32_t small[] = { 0x00000000u, 0x80000000u, 0x00000001u,
                                      0x80000001u, 0x007fffffu, 0x807fffffu };
    static const double zeros[] = { 0.0, -0.0 };
    for (unsigned i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
        for (unsigned k = 0; k < 2; k++) {
            const float f = float_of(small[i]),
                        pos = float_of(small[i] & 0x7fffffffu);
            const double acc = zeros[k];

            bad += bits64(vg_f2d_add(acc, f)) != bits64(acc + (double)f);
            bad +=
                bits64(vg_f2d_add_pos(acc, pos)) != bits64(acc + (double)pos);
            bad +=
                bits64(vg_f2d_sub_pos(acc, pos)) != bits64(acc + (double)-pos);
            /* a subnormal's negation added back: an exact zero */
            bad += bits64(vg_f2d_add(-(double)f, f)) !=
                   bits64(-(double)f + (double)f);
            checks += 4;
        }
    }
    ck_assert_msg(!bad, "%lu of %lu sums differ", bad, checks);
    ck_assert_uint_gt(n, 3000000);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("f2d");
    TCase *tc = tcase_create("exact");

    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, every_exponent, 0, 255);
    tcase_add_test(tc, sums);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
