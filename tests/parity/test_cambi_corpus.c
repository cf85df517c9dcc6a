/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * cambi with the options of the vmaf_v1.0.16 models
 * (cambi_high_res_speedup=1080, cambi_vis_lum_threshold=0.06,
 * cambi_max_val=17) through the public API, against libvmaf v3.2.0's
 * golden/hp/<pair>__vmaf_v1.0.16_3d0h.json: key
 * cambi_hrs_1080_cmxv_17_vlt_0.06, every frame and the four pooled values,
 * as doubles. On the small pairs and p720_10 the speed-up is off (they
 * are below 1080p) but the key keeps its suffix; p1080_crf32 runs it.
 * The default options are tests/parity/test_corpus's.
 */

#include "tests/parity/api_corpus.h"
#include "tests/check_run.h"

#define KEY "cambi_hrs_1080_cmxv_17_vlt_0.06"
#define OPTS "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:" \
             "cambi_max_val=17"

static const char *const pool_names[] = { "min", "max", "mean", "harmonic_mean" };
static const enum VgPool pools[] = {
    VG_POOL_MIN, VG_POOL_MAX, VG_POOL_MEAN, VG_POOL_HARMONIC_MEAN,
};

/* the pairs with an hp golden of the model, but for the two largest */
static int pair_runs(const AcPair *p)
{
    return p->has_hp && strcmp(p->name, "p1080_scaled") && strcmp(p->name, "p2160");
}

START_TEST(test_cambi_model_options)
{
    const AcPair *p = &ac_pairs[_i];
    VgContext *ctx;
    VgReport rep = { .len = 0 };
    char golden[128], what[160];
    json_object *g;
    unsigned n;
    double v;

    ctx = ac_context(2);
    ck_assert_int_eq(vg_use_feature(ctx, "cambi", OPTS), 0);
    n = ac_run_pair(ctx, p);

    snprintf(golden, sizeof(golden), "%s__vmaf_v1.0.16_3d0h.json", p->name);
    snprintf(what, sizeof(what), "%s %s", p->name, golden);
    g = ac_golden_load(golden, 1);
    for (unsigned i = 0; i < n; i++) {
        int ret = vg_get_score(ctx, KEY, i, &v);

        if (ret < 0) {
            vg_report(&rep, "%s: frame %u: %s not computed (%d)", what, i, KEY,
                      ret);
            continue;
        }
        ac_compare(&rep, what, i, KEY, v, ac_golden_frame(g, i, KEY), 1);
    }
    for (unsigned k = 0; k < 4; k++) {
        if (vg_get_pooled(ctx, KEY, pools[k], &v) < 0) {
            vg_report(&rep, "%s: pooled %s failed", what, pool_names[k]);
            continue;
        }
        ac_compare(&rep, what, n, pool_names[k], v,
                   ac_golden_pooled(g, KEY, pool_names[k]), 1);
    }
    json_object_put(g);
    ck_assert_msg(rep.n == 0, "%u mismatches:\n%s", rep.n, rep.text);
    vg_context_destroy(&ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cambi_corpus");
    TCase *tc = tcase_create("corpus");

    ac_env_init();
    tcase_set_timeout(tc, 600);
    for (int i = 0; i < (int)AC_N_PAIRS; i++)
        if (pair_runs(&ac_pairs[i]) && vg_corpus_pair_selected(ac_pairs[i].name))
            tcase_add_loop_test(tc, test_cambi_model_options, i, i + 1);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
