/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF (cpu/vif.c) on synthetic pictures, through the public API:
 *  - exact values against libvmaf v3.2.0's portable C path (built with
 *    -Denable_asm=false, the reference) for 8/10/12/16-bit pictures of the
 *    smallest accepted size, odd sizes, identical inputs, 16-bit maxima
 *    (0/65535 checkerboards against flat 65535 and noise, the largest
 *    variances there are), full-range noise and the options egl and ssclz;
 *    the planes come from tests/unit/adm_synth.h, and the expected values
 *    were printed with %.17g by a program that fed the same planes to
 *    libvmaf's vmaf_read_pictures() with feature "vif" and debug=true;
 *  - derived values: flat pictures give exactly 1.0 at every scale;
 *  - the bounds that make every intermediate of cpu/vif.c fit its type for
 *    16-bit maxima;
 *  - refusals: below 16x16, float-VIF-only options, out-of-range egl.
 * The libvmaf cases run twice: with the AVX2 build of cpu/vif.c where the
 * CPU has AVX2, and with the baseline build (VG_CPU_NO_AVX2 set).
 */

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "common/features/vif.h"
#include "tests/unit/adm_synth.h"
#include "tests/check_run.h"

static char last_error[1024];

static void capture_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    if (level == VG_LOG_ERROR)
        snprintf(last_error, sizeof(last_error), "%s", msg);
}

static VgContext *make_ctx(unsigned threads)
{
    VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .n_threads = threads,
        .log_level = VG_LOG_WARNING,
        .log_cb = capture_log,
    };
    VgContext *ctx = NULL;

    ck_assert_int_eq(vg_context_create(&ctx, &cfg), 0);
    return ctx;
}

/* Output names in libvmaf's order (provided_features of integer_vif.c). */
static const char *const out_names[15] = {
    "integer_vif_scale0",
    "integer_vif_scale1",
    "integer_vif_scale2",
    "integer_vif_scale3",
    "integer_vif",
    "integer_vif_num",
    "integer_vif_den",
    "integer_vif_num_scale0",
    "integer_vif_den_scale0",
    "integer_vif_num_scale1",
    "integer_vif_den_scale1",
    "integer_vif_num_scale2",
    "integer_vif_den_scale2",
    "integer_vif_num_scale3",
    "integer_vif_den_scale3",
};

typedef struct VifCase {
    const char *name;
    unsigned w, h, bpc;
    int ref_pat;
    uint32_t ref_seed;
    int dis_pat;
    uint32_t dis_seed;
    double egl;
    int ssclz;
    double expect[15]; ///< libvmaf's values of out_names[]
} VifCase;

/* PAT_NOISE 0, PAT_SMOOTH 1, PAT_FLAT 2, PAT_CHECKER 3, PAT_MAX 4 */
static const VifCase cases[] = {
    { "min16_8",
      16,
      16,
      8,
      0,
      1,
      0,
      2,
      100,
      0,
      { 0.00042429546010680497, 0.04450562596321106, 0.19454826414585114,
        0.54587352275848389, 0.0092004957835315343, 30.35888671875,
        3299.701171875, 1.2421875, 2927.6474609375, 14.02587890625, 315.1484375,
        8.8447265625, 45.462890625, 6.24609375, 11.4423828125 } },
    { "min16_16",
      16,
      16,
      16,
      1,
      3,
      0,
      4,
      100,
      0,
      { 0.00088036595843732357, 0.017680510878562927, 0.016960164532065392,
        0.097681626677513123, 0.0058165698660591729, 17.6396484375,
        3032.65478515625, 2.025390625, 2300.62353515625, 9.8720703125,
        558.35888671875, 2.35791015625, 139.0263671875, 3.38427734375,
        34.64599609375 } },
    { "odd17x19_10",
      17,
      19,
      10,
      1,
      5,
      1,
      6,
      100,
      0,
      { 0.26733076572418213, 0.84277534484863281, 0.93536394834518433,
        0.98540127277374268, 0.39685001334913172, 1423.2822265625,
        3586.44873046875, 750.947265625, 2809.056640625, 514.0390625,
        609.93603515625, 125.53515625, 134.2099609375, 32.7607421875,
        33.24609375 } },
    { "odd33x35_12",
      33,
      35,
      12,
      0,
      7,
      1,
      8,
      100,
      0,
      { 0.00010781049786601216, 0.01136765256524086, 0.066711917519569397,
        0.16918404400348663, 0.0027529681167083285, 40.8798828125,
        14849.384765625, 1.4091796875, 13070.89453125, 17.041015625,
        1499.07958984375, 16.1728515625, 242.42822265625, 6.2568359375,
        36.982421875 } },
    { "odd101x37_8",
      101,
      37,
      8,
      1,
      9,
      1,
      10,
      100,
      0,
      { 0.054879043251276016, 0.73494815826416016, 0.87100571393966675,
        0.91823649406433105, 0.20659824752846179, 6218.955078125,
        30101.68359375, 1301.4384765625, 23714.671875, 3560.66943359375,
        4844.7900390625, 1093.15771484375, 1255.05224609375, 263.689453125,
        287.16943359375 } },
    { "same_noise8",
      64,
      48,
      8,
      0,
      11,
      0,
      11,
      100,
      0,
      { 1, 0.99999988079071045, 1, 1, 0.9999999879457323, 40506.9189453125,
        40506.91943359375, 35092.265625, 35092.265625, 4395.5791015625,
        4395.57958984375, 843.0107421875, 843.0107421875, 176.0634765625,
        176.0634765625 } },
    { "same_smooth16",
      64,
      48,
      16,
      1,
      12,
      1,
      12,
      100,
      0,
      { 1, 1, 1, 1, 1, 26153.5849609375, 26153.5849609375, 20185.177734375,
        20185.177734375, 4488.9189453125, 4488.9189453125, 1165.2861328125,
        1165.2861328125, 314.2021484375, 314.2021484375 } },
    { "same_smooth10",
      61,
      47,
      10,
      1,
      13,
      1,
      13,
      100,
      0,
      { 1, 1, 1, 1, 1, 24328.35791015625, 24328.35791015625, 18997.810546875,
        18997.810546875, 4090.134765625, 4090.134765625, 1011.8056640625,
        1011.8056640625, 228.60693359375, 228.60693359375 } },
    { "checker16_noise",
      48,
      40,
      16,
      3,
      0,
      0,
      14,
      100,
      0,
      { 0.00038432586006820202, 0.99294209480285645, 0.99732917547225952,
        0.99871617555618286, 0.024847439463691071, 635.84597587585449, 25590,
        9.5927734375, 24960, 476.61221313476562, 480, 119.67950439453125, 120,
        29.961484909057617, 30 } },
    { "max16_checker",
      48,
      40,
      16,
      4,
      0,
      3,
      0,
      100,
      0,
      { -0.0078277578577399254, 1, 1, 1, 0.241164981991637, 614.97070407867432,
        2550, -15.029295921325684, 1920, 480, 480, 120, 120, 30, 30 } },
    { "checker16_max",
      48,
      40,
      16,
      3,
      0,
      4,
      0,
      100,
      0,
      { 0, 1, 1, 1, 0.024618991793669401, 630, 25590, 0, 24960, 480, 480, 120,
        120, 30, 30 } },
    { "noise16",
      64,
      64,
      16,
      0,
      15,
      0,
      16,
      100,
      0,
      { 0.00043431637459434569, 0.010791809298098087, 0.012500005774199963,
        0.0052560358308255672, 0.0018257295647834896, 98.4912109375,
        53946.22119140625, 20.31298828125, 46770.02734375, 63.11279296875,
        5848.21240234375, 13.9521484375, 1116.17138671875, 1.11328125,
        211.81005859375 } },
    { "smooth16_egl1",
      80,
      64,
      16,
      1,
      17,
      1,
      18,
      1,
      0,
      { 0.052887074649333954, 0.74506783485412598, 0.87818747758865356,
        0.94685530662536621, 0.21147437504839015, 8626.228515625,
        40790.892578125, 1688.044921875, 31917.91015625, 4961.2939453125,
        6658.8486328125, 1529.2314453125, 1741.349609375, 447.658203125,
        472.7841796875 } },
    { "smooth8_egl1",
      80,
      64,
      8,
      1,
      19,
      0,
      20,
      1,
      0,
      { 0.00069154304219409823, 0.021178826689720154, 0.029922394081950188,
        0.032987985759973526, 0.0056424552595733405, 230.14453125,
        40788.01171875, 22.08984375, 31942.83203125, 140.62890625,
        6640.07080078125, 51.89111328125, 1734.18994140625, 15.53466796875,
        470.9189453125 } },
    { "smooth12_egl1.5",
      80,
      64,
      12,
      1,
      21,
      1,
      22,
      1.5,
      0,
      { 0.052066721022129059, 0.75587403774261475, 0.88215291500091553,
        0.93482118844985962, 0.21196081830599503, 8639.80322265625,
        40761.322265625, 1662.56689453125, 31931.46875, 5009.18359375,
        6627.00830078125, 1527.7587890625, 1731.8525390625, 440.2939453125,
        470.99267578125 } },
    { "noise10",
      128,
      72,
      10,
      0,
      23,
      1,
      24,
      100,
      0,
      { 0.0003186951216775924, 0.011115510016679764, 0.022297084331512451,
        0.040733039379119873, 0.0021345951597281222, 259.01025390625,
        121339.28662109375, 33.4345703125, 104910.8359375, 148.828125,
        13389.23046875, 56.90283203125, 2552.0302734375, 19.8447265625,
        487.18994140625 } },
    { "skip_scale0_12",
      64,
      48,
      12,
      1,
      25,
      0,
      26,
      100,
      1,
      { 0, 0.014531821012496948, 0.024093452841043472, 0.022530326619744301,
        0.016817726311465921, 100.28369140625, 5962.9755859375, 0, -1,
        65.19287109375, 4486.21484375, 28.0361328125, 1163.64111328125,
        7.0546875, 313.11962890625 } },
    { "skip_egl_8",
      64,
      48,
      8,
      1,
      27,
      1,
      28,
      1,
      1,
      { 0, 0.73996788263320923, 0.86637592315673828, 0.93060952425003052,
        0.77461176751035221, 4623.533203125, 5968.83935546875, 0, -1,
        3323.88232421875, 4491.927734375, 1008.5859375, 1164.1435546875,
        291.06494140625, 312.76806640625 } },
};

static void opts_of(const VifCase *c, char *opts, size_t size, char *sfx,
                    size_t sfx_size)
{
    /* key suffixes: non-default feature params in alphabetical order of
     * option name (libvmaf src/feature/feature_name.c) */
    snprintf(opts, size, "debug=true");
    sfx[0] = 0;
    if (c->egl != 100.0) {
        snprintf(opts + strlen(opts), size - strlen(opts),
                 ":vif_enhn_gain_limit=%g", c->egl);
        snprintf(sfx + strlen(sfx), sfx_size - strlen(sfx), "_egl_%g", c->egl);
    }
    if (c->ssclz) {
        snprintf(opts + strlen(opts), size - strlen(opts),
                 ":vif_skip_scale0=true");
        snprintf(sfx + strlen(sfx), sfx_size - strlen(sfx), "_ssclz");
    }
}

static void check_frame(VgContext *ctx, const VifCase *c, const char *sfx,
                        unsigned index)
{
    for (unsigned k = 0; k < 15; k++) {
        char key[128];
        double v;

        snprintf(key, sizeof(key), "%s%s", out_names[k], sfx);
        ck_assert_msg(vg_get_score(ctx, key, index, &v) == 0,
                      "%s: %s missing (frame %u)", c->name, key, index);
        ck_assert_msg(v == c->expect[k],
                      "%s: %s = %.17g, libvmaf %.17g "
                      "(frame %u)",
                      c->name, key, v, c->expect[k], index);
    }
}

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* Loop index i: case i % N_CASES, baseline build for i >= N_CASES. */
static const VifCase *case_and_isa(int i)
{
    if (i >= (int)N_CASES)
        ck_assert_int_eq(setenv("VG_CPU_NO_AVX2", "1", 1), 0);
    else
        ck_assert_int_eq(unsetenv("VG_CPU_NO_AVX2"), 0);
    return &cases[i % N_CASES];
}

/* One frame per case, in a fresh context. */
START_TEST(test_against_libvmaf)
{
    const VifCase *c = case_and_isa(_i);
    char opts[128], sfx[64];
    VgContext *ctx = make_ctx(0);
    SynthPic r, d;

    opts_of(c, opts, sizeof(opts), sfx, sizeof(sfx));
    ck_assert_int_eq(vg_use_feature(ctx, "vif", opts), 0);
    ck_assert_int_eq(
        synth_pic_make(&r, c->w, c->h, c->bpc, c->ref_pat, c->ref_seed, 6), 0);
    ck_assert_int_eq(
        synth_pic_make(&d, c->w, c->h, c->bpc, c->dis_pat, c->dis_seed, 6), 0);
    ck_assert_int_eq(vg_submit(ctx, &r.pic, &d.pic), 0);
    ck_assert_int_eq(vg_flush(ctx), 0);
    check_frame(ctx, c, sfx, 0);
    vg_context_destroy(&ctx);
    synth_pic_free(&r);
    synth_pic_free(&d);
}
END_TEST

/* Several frames on one context and 2 workers: no state leaks between
 * frames (flat frame in between), values independent of the thread count. */
START_TEST(test_frames_threads)
{
    const VifCase *c = case_and_isa(_i);
    char opts[128], sfx[64];
    VgContext *ctx = make_ctx(2);
    SynthPic r, d, f;

    opts_of(c, opts, sizeof(opts), sfx, sizeof(sfx));
    ck_assert_int_eq(vg_use_feature(ctx, "vif", opts), 0);
    ck_assert_int_eq(
        synth_pic_make(&r, c->w, c->h, c->bpc, c->ref_pat, c->ref_seed, 6), 0);
    ck_assert_int_eq(
        synth_pic_make(&d, c->w, c->h, c->bpc, c->dis_pat, c->dis_seed, 6), 0);
    ck_assert_int_eq(synth_pic_make(&f, c->w, c->h, c->bpc, PAT_FLAT, 7, 6), 0);
    for (unsigned i = 0; i < 5; i++) {
        const int flat = i & 1;
        ck_assert_int_eq(
            vg_submit(ctx, flat ? &f.pic : &r.pic, flat ? &f.pic : &d.pic), 0);
    }
    ck_assert_int_eq(vg_flush(ctx), 0);
    for (unsigned i = 0; i < 5; i += 2)
        check_frame(ctx, c, sfx, i);
    for (unsigned i = 1; i < 5; i += 2) {
        double v;
        for (unsigned s = c->ssclz; s < 4; s++) {
            char key[128];
            snprintf(key, sizeof(key), "%s%s", out_names[s], sfx);
            ck_assert_int_eq(vg_get_score(ctx, key, i, &v), 0);
            ck_assert_msg(v == 1.0, "%s: flat frame %u %s = %.17g", c->name, i,
                          key, v);
        }
    }
    vg_context_destroy(&ctx);
    synth_pic_free(&r);
    synth_pic_free(&d);
    synth_pic_free(&f);
}
END_TEST

/*
 * Flat pictures: every mean is exact, so sigma1^2 = sigma2^2 = sigma12 = 0
 * at every pixel of every scale; each pixel takes the non-log branch
 * (sigma1^2 < 2 * 65536) and adds sigma2^2 = 0 to the non-log numerator
 * and 1 to the non-log count. So num = den = (W >> s) * (H >> s) and the
 * score is exactly 1.0, whatever the two levels are (ref == dis or not).
 */
START_TEST(test_flat)
{
    static const unsigned bpcs[] = { 8, 9, 10, 12, 14, 16 };
    const unsigned bpc = bpcs[_i], max = (1u << bpc) - 1;
    const unsigned w = 37, h = 29;
    const uint32_t levels[][2] = {
        { 0, 0 }, { max, max }, { 0, max }, { max / 3, max / 2 }
    };

    for (unsigned l = 0; l < 4; l++) {
        VgContext *ctx = make_ctx(0);
        SynthPic r, d;

        ck_assert_int_eq(vg_use_feature(ctx, "vif", "debug=true"), 0);
        ck_assert_int_eq(
            synth_pic_make(&r, w, h, bpc, PAT_FLAT, levels[l][0], 6), 0);
        ck_assert_int_eq(
            synth_pic_make(&d, w, h, bpc, PAT_FLAT, levels[l][1], 6), 0);
        ck_assert_int_eq(vg_submit(ctx, &r.pic, &d.pic), 0);
        ck_assert_int_eq(vg_flush(ctx), 0);
        for (unsigned s = 0; s < 4; s++) {
            const double n = (double)((w >> s) * (h >> s));
            double v;
            ck_assert_int_eq(vg_get_score(ctx, out_names[s], 0, &v), 0);
            ck_assert_msg(v == 1.0, "bpc %u levels %u/%u scale %u: %.17g", bpc,
                          levels[l][0], levels[l][1], s, v);
            ck_assert_int_eq(vg_get_score(ctx, out_names[7 + 2 * s], 0, &v), 0);
            ck_assert(v == n);
            ck_assert_int_eq(vg_get_score(ctx, out_names[8 + 2 * s], 0, &v), 0);
            ck_assert(v == n);
        }
        vg_context_destroy(&ctx);
        synth_pic_free(&r);
        synth_pic_free(&d);
    }
}
END_TEST

/*
 * Identical inputs do not give 1.0 in general: with sigma = sigma1^2 =
 * sigma2^2 = sigma12, a pixel with 0 < sigma < 2 * 65536 takes
 * sigma / (16384 * 65025) off the numerator only, and one above takes
 * log2(2^17 + trunc(g^2 sigma)) with g = sigma / (sigma + 6.5536e-6) < 1,
 * i.e. the table entry of 2^17 + sigma - 1 instead of 2^17 + sigma. So the
 * score is at most 1.0 (the cases same_* above hold libvmaf's exact
 * values, e.g. 0.99999988079071045 at scale 1 of 8-bit noise).
 */
START_TEST(test_identical_at_most_one)
{
    static const unsigned bpcs[] = { 8, 10, 12, 16 };
    const unsigned bpc = bpcs[_i];

    for (int pat = PAT_NOISE; pat <= PAT_CHECKER; pat++) {
        VgContext *ctx = make_ctx(0);
        SynthPic r;

        ck_assert_int_eq(vg_use_feature(ctx, "vif", NULL), 0);
        ck_assert_int_eq(synth_pic_make(&r, 53, 41, bpc, pat, 99, 6), 0);
        ck_assert_int_eq(vg_submit(ctx, &r.pic, &r.pic), 0);
        ck_assert_int_eq(vg_flush(ctx), 0);
        for (unsigned s = 0; s < 4; s++) {
            double v;
            ck_assert_int_eq(vg_get_score(ctx, out_names[s], 0, &v), 0);
            ck_assert_msg(v <= 1.0 && v > 0.99,
                          "bpc %u pattern %d scale %u: "
                          "%.17g",
                          bpc, pat, s, v);
        }
        vg_context_destroy(&ctx);
        synth_pic_free(&r);
    }
}
END_TEST

/*
 * The bounds behind cpu/vif.c's types, from the taps themselves, for the
 * largest input (16-bit samples, value 65535):
 *  - each filter sums to 65536, so every filtered sum of 16-bit values is
 *    at most 65536 * 65535 < 2^32 (the mu sums and the sums of the 16-bit
 *    halves of the squares, uint32 lanes), and adding a rounding term of
 *    at most 2^15 does not wrap;
 *  - the vertical sums of squares are at most 65536 * 65535^2; shifted by
 *    2(b - 8) at scale 0 (b = 9..16) or 16 at scales 1..3 they fit 32 bits;
 *  - the 8-bit vertical sums (unshifted) are at most 65536 * 255^2 < 2^32;
 *  - the horizontal mu sums M are at most 65536 * 65535, and M * M + 2^31
 *    fits 64 bits.
 */
START_TEST(test_bounds)
{
    const uint64_t u32max = UINT32_MAX;

    for (unsigned s = 0; s < 4; s++) {
        uint64_t sum = 0;
        for (unsigned k = 0; k < vg_vif_taps_len[s]; k++) {
            ck_assert_uint_eq(vg_vif_taps[s][k],
                              vg_vif_taps[s][vg_vif_taps_len[s] - 1 - k]);
            sum += vg_vif_taps[s][k];
        }
        for (unsigned k = vg_vif_taps_len[s]; k < 17; k++)
            ck_assert_uint_eq(vg_vif_taps[s][k], 0);
        ck_assert_uint_eq(sum, 65536);
        ck_assert(sum * 65535 + 32768 <= u32max);
        ck_assert(sum * 255 * 255 <= u32max);
        for (unsigned b = 9; b <= 16; b++) {
            const unsigned sh = s ? 16 : 2 * (b - 8);
            const uint64_t x = s ? 65535 : (1u << b) - 1;
            const uint64_t q = sum * x * x; /* < 2^48 */
            ck_assert((q + (1ull << (sh - 1))) >> sh <= u32max);
        }
        {
            const uint64_t m = sum * 65535;
            ck_assert(m <= u32max);
            ck_assert(m * m <= UINT64_MAX - 2147483648u);
        }
    }
}
END_TEST

/* The 8-bit and 16-bit maxima are also in the libvmaf cases (checker16_*,
 * max16_*, noise16); this is the minimum size and one below. */
START_TEST(test_min_size)
{
    static const unsigned sizes[][2] = { { 16, 16 }, { 15, 16 }, { 16, 15 },
                                         { 15, 15 }, { 8, 64 },  { 64, 8 } };
    for (unsigned i = 0; i < 6; i++) {
        const unsigned w = sizes[i][0], h = sizes[i][1];
        const int ok = w >= 16 && h >= 16;
        VgContext *ctx = make_ctx(0);
        SynthPic r, d;
        int ret;

        ck_assert_int_eq(vg_use_feature(ctx, "vif", NULL), 0);
        ck_assert_int_eq(synth_pic_make(&r, w, h, 10, PAT_NOISE, 1, 6), 0);
        ck_assert_int_eq(synth_pic_make(&d, w, h, 10, PAT_NOISE, 2, 6), 0);
        last_error[0] = 0;
        ret = vg_submit(ctx, &r.pic, &d.pic);
        if (ok) {
            double v;
            ck_assert_int_eq(ret, 0);
            ck_assert_int_eq(vg_flush(ctx), 0);
            ck_assert_int_eq(vg_get_score(ctx, "integer_vif_scale3", 0, &v), 0);
        } else {
            ck_assert_int_eq(ret, -EINVAL);
            ck_assert_msg(strstr(last_error, "vif") &&
                              strstr(last_error, "16x16"),
                          "%s", last_error);
        }
        vg_context_destroy(&ctx);
        synth_pic_free(&r);
        synth_pic_free(&d);
    }
}
END_TEST

START_TEST(test_options)
{
    /* float_vif's options (src/feature/float_vif.c) do not exist here */
    static const char *const bad[] = {
        "vif_kernelscale=1.0",
        "vif_scale0_min_val=0.1",
        "vif_enhn_gain_limit=0.5",
        "vif_enhn_gain_limit=101",
        "egl=1",
        "vif_skip_scale0=maybe",
    };
    static const char *const named[] = {
        "vif_kernelscale",
        "vif_scale0_min_val",
        "vif_enhn_gain_limit",
        "vif_enhn_gain_limit",
        "egl",
        "vif_skip_scale0",
    };

    for (unsigned i = 0; i < 6; i++) {
        VgContext *ctx = make_ctx(0);
        last_error[0] = 0;
        ck_assert_int_eq(vg_use_feature(ctx, "vif", bad[i]), -EINVAL);
        ck_assert_msg(strstr(last_error, named[i]) && strstr(last_error, "vif"),
                      "%s: %s", bad[i], last_error);
        vg_context_destroy(&ctx);
    }
}
END_TEST

static Suite *vif_suite(void)
{
    Suite *s = suite_create("vif");
    TCase *tc = tcase_create("vif");

    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_against_libvmaf, 0, 2 * N_CASES);
    tcase_add_loop_test(tc, test_frames_threads, 0, 2 * N_CASES);
    tcase_add_loop_test(tc, test_flat, 0, 6);
    tcase_add_loop_test(tc, test_identical_at_most_one, 0, 4);
    tcase_add_test(tc, test_bounds);
    tcase_add_test(tc, test_min_size);
    tcase_add_test(tc, test_options);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return vg_check_run(vif_suite());
}
