/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM (cpu/adm.c) on synthetic pictures through the public API:
 *  - exact values against libvmaf v3.2.0's portable C path for ref == dis,
 *    flat frames, the minimum size (33x33), odd sizes, 16-bit maximum
 *    values, full-range noise (8-bit noise wraps the int16 centre term of
 *    the scale-0 masking threshold) and every option (CSF modes, viewing
 *    conditions, skips, weights); cases and expected values in
 *    tests/unit/adm_cases.h;
 *  - refusals: 32x33 and 33x32, adm_norm_view_dist * adm_ref_display_height
 *    below 3240, a blended CSF without a table for the viewing condition;
 *  - our definition where libvmaf reads an uninitialised value (AIM when
 *    the denominator is 0);
 *  - identical results over repeated runs and 0..3 worker threads.
 */

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "tests/unit/adm_cases.h"
#include "tests/check_run.h"

static const char *const keys[7] = {
    "integer_adm2",       "integer_aim",        "integer_adm3",
    "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
    "integer_adm_scale3",
};

static char last_error[1024];

static void capture_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    /* keep every error line of a call: the engine adds its own after ours */
    if (level == VG_LOG_ERROR) {
        size_t len = strlen(last_error);
        snprintf(last_error + len, sizeof(last_error) - len, "%s|", msg);
    }
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

/** Submit frame k of a case (seeds advance by 7919 per frame). */
static int submit_frame(VgContext *ctx, const AdmCase *c, unsigned k)
{
    SynthPic r, d;
    int ret;

    ck_assert_int_eq(synth_pic_make(&r, c->w, c->h, c->bpc, c->ref_pat,
                                    c->ref_seed + 7919u * k, 40),
                     0);
    ck_assert_int_eq(synth_pic_make(&d, c->w, c->h, c->bpc, c->dis_pat,
                                    c->dis_seed + 7919u * k, 40),
                     0);
    ret = vg_submit(ctx, &r.pic, &d.pic);
    synth_pic_free(&r);
    synth_pic_free(&d);
    return ret;
}

/** Run a case; values[k][o] get the 7 outputs of frame k. */
static void run_case(const AdmCase *c, unsigned threads,
                     double values[MAX_FRAMES][7])
{
    VgContext *ctx = make_ctx(threads);
    char key[128];

    ck_assert_msg(vg_use_feature(ctx, "adm", c->opts) == 0, "%s: %s", c->name,
                  last_error);
    for (unsigned k = 0; k < c->frames; k++)
        ck_assert_msg(submit_frame(ctx, c, k) == 0, "%s: %s", c->name,
                      last_error);
    ck_assert_int_eq(vg_flush(ctx), 0);
    for (unsigned k = 0; k < c->frames; k++) {
        for (unsigned o = 0; o < 7; o++) {
            snprintf(key, sizeof(key), "%s%s", keys[o], c->suffix);
            ck_assert_msg(vg_get_score(ctx, key, k, &values[k][o]) == 0,
                          "%s: no %s at frame %u", c->name, key, k);
        }
    }
    vg_context_destroy(&ctx);
}

START_TEST(test_libvmaf_values)
{
    const AdmCase *c = &cases[_i];
    double v[MAX_FRAMES][7];

    run_case(c, 0, v);
    for (unsigned k = 0; k < c->frames; k++)
        for (unsigned o = 0; o < 7; o++)
            ck_assert_msg(v[k][o] == c->expect[k][o],
                          "%s frame %u %s: %.17g, libvmaf %.17g", c->name, k,
                          keys[o], v[k][o], c->expect[k][o]);
}
END_TEST

static int find_case(const char *name)
{
    for (unsigned i = 0; i < N_CASES; i++)
        if (!strcmp(cases[i].name, name))
            return (int)i;
    ck_abort_msg("no case %s", name);
    return -1;
}

START_TEST(test_identical_and_flat)
{
    /* ref == dis: nothing is additive (aim 0), adm2 within 1e-5 of 1;
     * flat pictures: no detail at all, every ratio is exactly 1 */
    const AdmCase *same = &cases[find_case("same_smooth")];
    const AdmCase *flat = &cases[find_case("flat")];

    for (unsigned k = 0; k < same->frames; k++) {
        ck_assert(same->expect[k][1] == 0.0);
        ck_assert(same->expect[k][0] > 0.99999 && same->expect[k][0] < 1.00001);
    }
    for (unsigned o = 0; o < 7; o++)
        ck_assert(flat->expect[0][o] == (o == 1 ? 0.0 : 1.0));
}
END_TEST

START_TEST(test_too_small)
{
    static const unsigned sizes[][2] = { { 32, 33 }, { 33, 32 }, { 16, 16 } };

    for (unsigned i = 0; i < 3; i++) {
        VgContext *ctx = make_ctx(0);
        AdmCase c = { "small",   sizes[i][0], sizes[i][1], 8,
                      PAT_NOISE, 1,           PAT_NOISE,   2,
                      1,         "",          "",          { { 0 } } };
        ck_assert_int_eq(vg_use_feature(ctx, "adm", NULL), 0);
        last_error[0] = 0;
        ck_assert_int_eq(submit_frame(ctx, &c, 0), -EINVAL);
        ck_assert_ptr_nonnull(strstr(last_error, "33x33"));
        vg_context_destroy(&ctx);
    }
}
END_TEST

/** Run one frame with options; @return the first error of submit/flush. */
static int run_opts(const char *opts, unsigned threads)
{
    VgContext *ctx = make_ctx(threads);
    AdmCase c = { "opts",    64, 48, 8,  PAT_SMOOTH, 1,
                  PAT_NOISE, 2,  1,  "", "",         { { 0 } } };
    int ret;

    last_error[0] = 0;
    ret = vg_use_feature(ctx, "adm", opts);
    if (!ret)
        ret = submit_frame(ctx, &c, 0);
    if (!ret)
        ret = vg_flush(ctx);
    vg_context_destroy(&ctx);
    return ret;
}

START_TEST(test_refusals)
{
    /* integer_adm.c extract(): nvd * rdh < 3 * 1080 is refused */
    ck_assert_int_eq(run_opts("adm_norm_view_dist=2", 0), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "below 3240"));
    ck_assert_int_eq(run_opts("adm_ref_display_height=720", 0), -EINVAL);
    /* blended CSF tables exist only for a few viewing conditions */
    ck_assert_int_eq(run_opts("adm_csf_mode=2:adm_norm_view_dist=4", 0),
                     -EINVAL);
    ck_assert_int_eq(run_opts("adm_csf_mode=3:adm_ref_display_height=1440", 0),
                     -EINVAL);
    /* option ranges (integer_adm.c options) */
    ck_assert_int_eq(run_opts("adm_csf_mode=4", 0), -EINVAL);
    ck_assert_int_eq(run_opts("adm_enhn_gain_limit=0.5", 0), -EINVAL);
    /* accepted limits */
    ck_assert_int_eq(
        run_opts("adm_norm_view_dist=3:adm_ref_display_height=1080", 0), 0);
    ck_assert_int_eq(
        run_opts(
            "adm_csf_mode=3:adm_norm_view_dist=1.5:adm_ref_display_height=2160",
            0),
        0);
}
END_TEST

/* Combinations of in-range options that ADM cannot compute are refused
 * when the options are set, with the cause, not at the first frame. */
START_TEST(test_refusals_when_set)
{
    static const struct {
        const char *opts, *why;
    } bad[] = {
        { "adm_norm_view_dist=0.75", "0.75 * 1080 = 810 is below 3240" },
        { "adm_ref_display_height=1", "3 * 1 = 3 is below 3240" },
        { "adm_norm_view_dist=1.5:adm_ref_display_height=2159", "below 3240" },
        { "adm_csf_mode=2:adm_norm_view_dist=4", "no CSF table" },
        { "adm_csf_mode=3:adm_ref_display_height=1440", "no CSF table" },
    };
    const char *const *models = vg_builtin_models();
    VgContext *ctx = make_ctx(0);

    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        last_error[0] = 0;
        ck_assert_int_eq(vg_use_feature(ctx, "adm", bad[i].opts), -EINVAL);
        ck_assert_msg(strstr(last_error, bad[i].why), "%s: '%s' lacks '%s'",
                      bad[i].opts, last_error, bad[i].why);
    }
    /* the same through a model's feature overload */
    if (models && models[0]) {
        last_error[0] = 0;
        ck_assert_int_eq(vg_use_model(ctx, "version=vmaf_v0.6.1:"
                                           "adm.adm_norm_view_dist=0.75"),
                         -EINVAL);
        ck_assert_ptr_nonnull(strstr(last_error, "below 3240"));
    }
    ck_assert_uint_eq(vg_model_count(ctx), 0);
    vg_context_destroy(&ctx);
    /* the smallest distance with the tallest display is 1080 lines at 3H */
    ck_assert_int_eq(
        run_opts("adm_norm_view_dist=0.75:adm_ref_display_height=4320", 0), 0);
}
END_TEST

START_TEST(test_zero_denominator)
{
    /* flat pictures and no noise weight: den = 0. libvmaf then writes
     * adm2 = 1 and an uninitialised AIM; we define AIM = 0 */
    VgContext *ctx = make_ctx(0);
    AdmCase c = { "den0",   64,  48, 10, PAT_FLAT, 300,
                  PAT_FLAT, 700, 1,  "", "",       { { 0 } } };
    double v;

    ck_assert_int_eq(
        vg_use_feature(ctx, "adm", "adm_noise_weight=0:debug=true"), 0);
    ck_assert_int_eq(submit_frame(ctx, &c, 0), 0);
    ck_assert_int_eq(vg_flush(ctx), 0);
    ck_assert_int_eq(vg_get_score(ctx, "integer_adm_den_nw_0", 0, &v), 0);
    ck_assert(v == 0.0);
    ck_assert_int_eq(vg_get_score(ctx, "integer_adm2_nw_0", 0, &v), 0);
    ck_assert(v == 1.0);
    ck_assert_int_eq(vg_get_score(ctx, "integer_aim_nw_0", 0, &v), 0);
    ck_assert(v == 0.0);
    ck_assert_int_eq(vg_get_score(ctx, "integer_adm3_nw_0", 0, &v), 0);
    ck_assert(v == 1.0);
    vg_context_destroy(&ctx);
}
END_TEST

START_TEST(test_debug_outputs)
{
    /* debug adds integer_adm (= adm2), num/den and per-scale num/den, with
     * integer_adm_scaleN = num_scaleN / den_scaleN and adm2 = num / den */
    const AdmCase *c = &cases[find_case("odd_wide")];
    VgContext *ctx = make_ctx(0);
    double adm2, adm, num, den, sn, sd, s;
    char key[64];

    ck_assert_int_eq(vg_use_feature(ctx, "adm", "debug=true"), 0);
    ck_assert_int_eq(submit_frame(ctx, c, 0), 0);
    ck_assert_int_eq(vg_flush(ctx), 0);
    ck_assert_int_eq(vg_get_score(ctx, "integer_adm2", 0, &adm2), 0);
    ck_assert(adm2 == c->expect[0][0]);
    ck_assert_int_eq(vg_get_score(ctx, "integer_adm", 0, &adm), 0);
    ck_assert(adm == adm2);
    ck_assert_int_eq(vg_get_score(ctx, "integer_adm_num", 0, &num), 0);
    ck_assert_int_eq(vg_get_score(ctx, "integer_adm_den", 0, &den), 0);
    ck_assert(num / den == adm2);
    for (unsigned i = 0; i < 4; i++) {
        snprintf(key, sizeof(key), "integer_adm_num_scale%u", i);
        ck_assert_int_eq(vg_get_score(ctx, key, 0, &sn), 0);
        snprintf(key, sizeof(key), "integer_adm_den_scale%u", i);
        ck_assert_int_eq(vg_get_score(ctx, key, 0, &sd), 0);
        snprintf(key, sizeof(key), "integer_adm_scale%u", i);
        ck_assert_int_eq(vg_get_score(ctx, key, 0, &s), 0);
        ck_assert(s == sn / sd);
        ck_assert(s == c->expect[0][3 + i]);
    }
    vg_context_destroy(&ctx);

    /* without debug the extra outputs do not exist */
    ctx = make_ctx(0);
    ck_assert_int_eq(vg_use_feature(ctx, "adm", NULL), 0);
    ck_assert_int_eq(submit_frame(ctx, c, 0), 0);
    ck_assert_int_eq(vg_flush(ctx), 0);
    ck_assert_int_ne(vg_get_score(ctx, "integer_adm_num", 0, &num), 0);
    vg_context_destroy(&ctx);
}
END_TEST

START_TEST(test_threads_deterministic)
{
    /* 8 frames of noise against a smooth picture, 0..3 workers, twice */
    enum {
        NF = 8
    };
    AdmCase c = { "threads", 96, 64, 10, PAT_SMOOTH, 5,
                  PAT_NOISE, 6,  NF, "", "",         { { 0 } } };
    double first[NF][7];
    char key[64];

    for (unsigned run = 0; run < 8; run++) {
        const unsigned threads = run % 4;
        VgContext *ctx = make_ctx(threads);
        ck_assert_int_eq(vg_use_feature(ctx, "adm", NULL), 0);
        for (unsigned k = 0; k < NF; k++)
            ck_assert_int_eq(submit_frame(ctx, &c, k), 0);
        ck_assert_int_eq(vg_flush(ctx), 0);
        for (unsigned k = 0; k < NF; k++) {
            for (unsigned o = 0; o < 7; o++) {
                double v;
                snprintf(key, sizeof(key), "%s", keys[o]);
                ck_assert_int_eq(vg_get_score(ctx, key, k, &v), 0);
                if (run == 0)
                    first[k][o] = v;
                else
                    ck_assert_msg(v == first[k][o],
                                  "threads %u frame %u %s: "
                                  "%.17g vs %.17g",
                                  threads, k, key, v, first[k][o]);
            }
        }
        vg_context_destroy(&ctx);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("adm");
    TCase *tc = tcase_create("adm");

    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_libvmaf_values, 0, N_CASES);
    tcase_add_test(tc, test_identical_and_flat);
    tcase_add_test(tc, test_too_small);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_refusals_when_set);
    tcase_add_test(tc, test_zero_denominator);
    tcase_add_test(tc, test_debug_outputs);
    tcase_add_test(tc, test_threads_deterministic);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
