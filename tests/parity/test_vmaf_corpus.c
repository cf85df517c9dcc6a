/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The whole VMAF on CPU through the public API (vg_use_model), against
 * libvmaf v3.2.0's goldens, per frame and pooled (min, max, mean,
 * harmonic_mean):
 *  - vmaf_v0.6.1 on every corpus pair (golden/hp/<pair>.json, as doubles;
 *    r577x323_420p8 as libvmaf-formatted text against its FROM_FFMPEG
 *    golden);
 *  - vmaf_v0.6.1neg on both p1080 pairs (in the same run, named vmaf_neg);
 *  - vmaf_4k_v0.6.1 on p2160 (in the same run, named vmaf_4k).
 */

#include "tests/parity/api_corpus.h"
#include "tests/check_run.h"

static const char *const pool_names[] = { "min", "max", "mean",
                                          "harmonic_mean" };
static const enum VgPool pools[] = {
    VG_POOL_MIN,
    VG_POOL_MAX,
    VG_POOL_MEAN,
    VG_POOL_HARMONIC_MEAN,
};

/** Compare model output `ours` (per frame and pooled) with golden key "vmaf". */
static void check_model(VgReport *rep, VgContext *ctx, const AcPair *p,
                        unsigned n, const char *ours, const char *golden,
                        int hp)
{
    json_object *g = ac_golden_load(golden, hp);
    char what[256];
    double v;

    snprintf(what, sizeof(what), "%s %s", p->name, golden);
    for (unsigned i = 0; i < n; i++) {
        int ret = vg_get_score(ctx, ours, i, &v);
        if (ret < 0) {
            vg_report(rep, "%s: frame %u: %s not computed (%d)", what, i, ours,
                      ret);
            continue;
        }
        ac_compare(rep, what, i, "vmaf", v, ac_golden_frame(g, i, "vmaf"), hp);
    }
    for (unsigned k = 0; k < 4; k++) {
        int ret = vg_get_pooled(ctx, ours, pools[k], &v);
        if (ret < 0) {
            vg_report(rep, "%s: pooled %s of %s failed (%d)", what,
                      pool_names[k], ours, ret);
            continue;
        }
        /* frame index n marks pooled values in the report */
        ac_compare(rep, what, n, pool_names[k], v,
                   ac_golden_pooled(g, "vmaf", pool_names[k]), hp);
    }
    json_object_put(g);
}

START_TEST(test_vmaf_pair)
{
    const AcPair *p = &ac_pairs[_i];
    const int p1080 = !strncmp(p->name, "p1080_", 6);
    const int p2160 = !strcmp(p->name, "p2160");
    VgContext *ctx = ac_context(2);
    VgReport rep = { .len = 0 };
    char golden[128];
    unsigned n;

    ck_assert_int_eq(vg_use_model(ctx, "version=vmaf_v0.6.1"), 0);
    if (p1080)
        ck_assert_int_eq(
            vg_use_model(ctx, "version=vmaf_v0.6.1neg:name=vmaf_neg"), 0);
    if (p2160)
        ck_assert_int_eq(
            vg_use_model(ctx, "version=vmaf_4k_v0.6.1:name=vmaf_4k"), 0);
    n = ac_run_pair(ctx, p);

    check_model(&rep, ctx, p, n, "vmaf", p->golden, p->has_hp);
    if (p1080) {
        snprintf(golden, sizeof(golden), "%s__vmaf_v0.6.1neg.json", p->name);
        check_model(&rep, ctx, p, n, "vmaf_neg", golden, 1);
    }
    if (p2160)
        check_model(&rep, ctx, p, n, "vmaf_4k", "p2160__vmaf_4k_v0.6.1.json",
                    1);
    ck_assert_msg(rep.n == 0, "%u mismatches:\n%s", rep.n, rep.text);
    vg_context_destroy(&ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("vmaf_corpus");
    TCase *tc = tcase_create("corpus");

    ac_env_init();
    tcase_set_timeout(tc, 900);
    VG_ADD_PAIR_TESTS(tc, test_vmaf_pair, AC_N_PAIRS, ac_pairs);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
