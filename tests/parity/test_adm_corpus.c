/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM (cpu/adm.c) on every corpus pair through the public API,
 * against libvmaf v3.2.0's goldens:
 *  - default options: integer_adm2, integer_aim, integer_adm3 and
 *    integer_adm_scale0..3 of every frame equal, as doubles, to
 *    golden/hp/<pair>.json (r577x323_420p8 has no hp golden: there the
 *    libvmaf-formatted text equals its FROM_FFMPEG golden);
 *  - adm_enhn_gain_limit=1 (the vmaf_v0.6.1neg setting) on both p1080
 *    pairs: the same outputs under their _egl_1 names equal
 *    golden/hp/p1080_*__vmaf_v0.6.1neg.json.
 */

#include "tests/parity/api_corpus.h"
#include "tests/check_run.h"

static const char *const adm_keys[] = {
    "integer_adm2",       "integer_aim",        "integer_adm3",
    "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
    "integer_adm_scale3",
};
#define N_ADM_KEYS (sizeof(adm_keys) / sizeof(adm_keys[0]))

static void check_pair(const AcPair *p, const char *opts, const char *suffix,
                       const char *golden, int hp)
{
    VgContext *ctx = ac_context(2);
    json_object *g = ac_golden_load(golden, hp);
    VgReport rep = { .len = 0 };
    char key[128];
    unsigned n;

    ck_assert_int_eq(vg_use_feature(ctx, "adm", opts), 0);
    n = ac_run_pair(ctx, p);
    for (unsigned i = 0; i < n; i++) {
        for (unsigned k = 0; k < N_ADM_KEYS; k++) {
            double v;
            snprintf(key, sizeof(key), "%s%s", adm_keys[k], suffix);
            int ret = vg_get_score(ctx, key, i, &v);
            if (ret < 0) {
                vg_report(&rep, "%s: frame %u: %s not computed (%d)", p->name,
                          i, key, ret);
                continue;
            }
            ac_compare(&rep, p->name, i, key, v, ac_golden_frame(g, i, key),
                       hp);
        }
    }
    ck_assert_msg(rep.n == 0, "%u mismatches (%s, opts '%s'):\n%s", rep.n,
                  golden, opts ? opts : "", rep.text);
    json_object_put(g);
    vg_context_destroy(&ctx);
}

START_TEST(test_adm_pair)
{
    const AcPair *p = &ac_pairs[_i];
    check_pair(p, NULL, "", p->golden, p->has_hp);
}
END_TEST

START_TEST(test_adm_neg)
{
    /* vmaf_v0.6.1neg: adm_enhn_gain_limit = 1.0 -> keys ..._egl_1 */
    const AcPair *p = &ac_pairs[_i];
    char golden[128];

    snprintf(golden, sizeof(golden), "%s__vmaf_v0.6.1neg.json", p->name);
    check_pair(p, "adm_enhn_gain_limit=1", "_egl_1", golden, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("adm_corpus");
    TCase *tc = tcase_create("corpus");

    ac_env_init();
    tcase_set_timeout(tc, 600);
    VG_ADD_PAIR_TESTS(tc, test_adm_pair, AC_N_PAIRS, ac_pairs);
    /* ac_pairs[0], [1]: p1080_crf32, p1080_scaled */
    VG_ADD_PAIR_TESTS(tc, test_adm_neg, 2, ac_pairs);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
