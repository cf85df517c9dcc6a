/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF (cpu/vif.c) on every corpus pair through the public API,
 * against libvmaf v3.2.0's goldens:
 *  - default options: integer_vif_scale0..3 of every frame equal, as
 *    doubles, to golden/hp/<pair>.json, and their libvmaf-formatted text
 *    (%.6f) equals the text of the stock golden/<pair>.json
 *    (r577x323_420p8 has only its FROM_FFMPEG text golden);
 *  - with 2 worker threads on every pair, and with 1 worker thread on the
 *    pairs other than p2160 and p1080_scaled (time: 4K is the largest
 *    pair; the values do not depend on the thread count); the 1-thread
 *    runs use the baseline build of cpu/vif.c (VG_CPU_NO_AVX2), the others
 *    the AVX2 build where the CPU has AVX2;
 *  - vif_enhn_gain_limit=1 (the vmaf_v0.6.1neg setting) on both p1080
 *    pairs: integer_vif_scale0..3_egl_1 equal
 *    golden/hp/p1080_*__vmaf_v0.6.1neg.json.
 */

#include "tests/parity/api_corpus.h"
#include "tests/check_run.h"

static const char *const vif_keys[] = {
    "integer_vif_scale0",
    "integer_vif_scale1",
    "integer_vif_scale2",
    "integer_vif_scale3",
};

/* Compare the four scales of every frame with one golden (hp: doubles;
 * otherwise libvmaf's printed text). */
static void compare(VgContext *ctx, const AcPair *p, unsigned n,
                    const char *suffix, const char *golden, int hp,
                    unsigned threads)
{
    json_object *g = ac_golden_load(golden, hp);
    VgReport rep = { .len = 0 };
    char key[128];

    for (unsigned i = 0; i < n; i++) {
        for (unsigned k = 0; k < 4; k++) {
            double v;
            int ret;

            snprintf(key, sizeof(key), "%s%s", vif_keys[k], suffix);
            if ((ret = vg_get_score(ctx, key, i, &v)) < 0) {
                vg_report(&rep, "%s: frame %u: %s not computed (%d)", p->name,
                          i, key, ret);
                continue;
            }
            ac_compare(&rep, p->name, i, key, v, ac_golden_frame(g, i, key),
                       hp);
        }
    }
    ck_assert_msg(rep.n == 0, "%u mismatches (%s, %u threads):\n%s", rep.n,
                  golden, threads, rep.text);
    json_object_put(g);
}

static void check_pair(const AcPair *p, unsigned threads)
{
    VgContext *ctx = ac_context(threads);
    unsigned n;

    ck_assert_int_eq(vg_use_feature(ctx, "vif", NULL), 0);
    n = ac_run_pair(ctx, p);
    if (p->has_hp)
        compare(ctx, p, n, "", p->golden, 1, threads);
    compare(ctx, p, n, "", p->golden, 0, threads);
    vg_context_destroy(&ctx);
}

START_TEST(test_vif_pair_2threads)
{
    ck_assert_int_eq(unsetenv("VG_CPU_NO_AVX2"), 0);
    check_pair(&ac_pairs[_i], 2);
}
END_TEST

START_TEST(test_vif_pair_1thread)
{
    const AcPair *p = &ac_pairs[_i];

    if (!strcmp(p->name, "p2160") || !strcmp(p->name, "p1080_scaled"))
        return;
    ck_assert_int_eq(setenv("VG_CPU_NO_AVX2", "1", 1), 0);
    check_pair(p, 1);
    ck_assert_int_eq(unsetenv("VG_CPU_NO_AVX2"), 0);
}
END_TEST

START_TEST(test_vif_neg)
{
    /* vmaf_v0.6.1neg: vif_enhn_gain_limit = 1.0 -> keys ..._egl_1 */
    const AcPair *p = &ac_pairs[_i];
    VgContext *ctx = ac_context(2);
    char golden[128];
    unsigned n;

    ck_assert_int_eq(unsetenv("VG_CPU_NO_AVX2"), 0);
    snprintf(golden, sizeof(golden), "%s__vmaf_v0.6.1neg.json", p->name);
    ck_assert_int_eq(vg_use_feature(ctx, "vif", "vif_enhn_gain_limit=1"), 0);
    n = ac_run_pair(ctx, p);
    compare(ctx, p, n, "_egl_1", golden, 1, 2);
    vg_context_destroy(&ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("vif_corpus");
    TCase *tc = tcase_create("corpus");

    ac_env_init();
    tcase_set_timeout(tc, 600);
    VG_ADD_PAIR_TESTS(tc, test_vif_pair_2threads, AC_N_PAIRS, ac_pairs);
    VG_ADD_PAIR_TESTS(tc, test_vif_pair_1thread, AC_N_PAIRS, ac_pairs);
    /* ac_pairs[0], [1]: p1080_crf32, p1080_scaled */
    VG_ADD_PAIR_TESTS(tc, test_vif_neg, 2, ac_pairs);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
