/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The float VMAF models on CPU through the public API, against libvmaf
 * v3.2.0's goldens (golden/hp/<pair>__<model>.json, as doubles), per
 * frame and pooled: vmaf_float_v0.6.1, vmaf_float_v0.6.1neg,
 * vmaf_float_4k_v0.6.1 and vmaf_float_b_v0.6.3 (its twenty members,
 * bagging, stddev and the 95% interval), all four in one context, with the
 * float_motion scores the models read (motion, motion2, motion3).
 *
 * p1080_scaled, the second pair at p1080_crf32's size, runs only with
 * VG_CORPUS_FULL set (tests/check_run.h).
 *
 * The models need float_vif and float_adm too. A build without them runs
 * float_motion alone and compares its scores with every model golden,
 * saying so on stderr; the built-in model files come from the model
 * directory given to configure (--with-models), and a build without one of
 * them fails here, naming the file.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "common/feature.h"
#include "common/model.h"
#include "tests/check_run.h"
#include "tests/golden_host.h"
#include "tests/parity/api_corpus.h"

static const char *const pool_names[] = { "min", "max", "mean",
                                          "harmonic_mean" };
static const enum VgPool pools[] = {
    VG_POOL_MIN,
    VG_POOL_MAX,
    VG_POOL_MEAN,
    VG_POOL_HARMONIC_MEAN,
};

static const struct {
    const char *version; ///< built-in name = golden suffix
    const char *name;    ///< our model name
    int bootstrap;
} models[] = {
    { "vmaf_float_v0.6.1", "vmaf", 0 },
    { "vmaf_float_v0.6.1neg", "vmaf_neg", 0 },
    { "vmaf_float_4k_v0.6.1", "vmaf_4k", 0 },
    { "vmaf_float_b_v0.6.3", "vmaf_b", 1 },
};
#define N_MODELS (sizeof(models) / sizeof(models[0]))

static const char *const motion_keys[] = { "motion", "motion2", "motion3" };

/** Compare our metric `ours` with golden key `key`, per frame and pooled. */
static void check_key(VgReport *rep, VgContext *ctx, const char *what,
                      json_object *g, unsigned n, const char *ours,
                      const char *key)
{
    double v;

    for (unsigned i = 0; i < n; i++) {
        int ret = vg_get_score(ctx, ours, i, &v);
        if (ret < 0) {
            vg_report(rep, "%s: frame %u: %s not computed (%d)", what, i, ours,
                      ret);
            return;
        }
        ac_compare(rep, what, i, key, v, ac_golden_frame(g, i, key), 1);
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
                   ac_golden_pooled(g, key, pool_names[k]), 1);
    }
}

static void check_model(VgReport *rep, VgContext *ctx, const AcPair *p,
                        unsigned n, unsigned m, int with_models)
{
    static const char *const bs_sfx[] = {
        "_bagging",
        "_stddev",
        "_ci_p95_lo",
        "_ci_p95_hi",
    };
    char golden[128], what[192], ours[64], key[64];
    json_object *g;

    snprintf(golden, sizeof(golden), "%s__%s.json", p->name, models[m].version);
    snprintf(what, sizeof(what), "%s %s", p->name, golden);
    g = ac_golden_load(golden, 1);
    for (unsigned k = 0; k < 3; k++)
        check_key(rep, ctx, what, g, n, motion_keys[k], motion_keys[k]);
    if (with_models) {
        check_key(rep, ctx, what, g, n, models[m].name, "vmaf");
        for (unsigned k = 0; models[m].bootstrap && k < 4 + 20; k++) {
            if (k < 4) {
                snprintf(ours, sizeof(ours), "%s%s", models[m].name, bs_sfx[k]);
                snprintf(key, sizeof(key), "vmaf%s", bs_sfx[k]);
            } else {
                snprintf(ours, sizeof(ours), "%s_%04u", models[m].name, k - 3);
                snprintf(key, sizeof(key), "vmaf_%04u", k - 3);
            }
            check_key(rep, ctx, what, g, n, ours, key);
        }
    }
    json_object_put(g);
}

START_TEST(test_float_models_pair)
{
    const AcPair *p = &ac_pairs[_i];
    const int with_models =
        vg_feature_find("float_vif") && vg_feature_find("float_adm");
    VgContext *ctx;
    VgReport rep = { .len = 0 };
    unsigned n;

    if (!p->has_hp)
        return; /* libvmaf has no model golden for this pair */
    if (!strcmp(p->name, "p1080_scaled") && !vg_corpus_full()) {
        fprintf(stderr, "%s: left out (VG_CORPUS_FULL=1 runs it)\n", p->name);
        return;
    }
    for (unsigned m = 0; m < N_MODELS; m++) {
        if (!vg_builtin_model_json(models[m].version, NULL))
            ck_abort_msg(
                "built-in model %s missing: configure --with-models=DIR "
                "with DIR/%s.json (libvmaf v3.2.0 model/)",
                models[m].version, models[m].version);
    }
    ctx = ac_context(2);
    if (with_models) {
        for (unsigned m = 0; m < N_MODELS; m++) {
            char spec[128];
            snprintf(spec, sizeof(spec), "version=%s:name=%s",
                     models[m].version, models[m].name);
            ck_assert_int_eq(vg_use_model(ctx, spec), 0);
        }
    } else {
        fprintf(stderr,
                "%s: no float_vif/float_adm in this build: float_motion "
                "only, the models' scores are not compared\n",
                p->name);
        ck_assert_int_eq(vg_use_feature(ctx, "float_motion", NULL), 0);
    }
    n = ac_run_pair(ctx, p);
    /* the models' scores rest on float ADM (tests/golden_host.h) */
    if (with_models && !vg_golden_float_adm_host())
        fprintf(stderr,
                "%s: the models' scores not compared with the "
                "goldens: this processor's RCPSS is not the AMD one they were "
                "made with (tests/golden_host.h); float_motion's are\n",
                p->name);
    for (unsigned m = 0; m < N_MODELS; m++)
        check_model(&rep, ctx, p, n, m,
                    with_models && vg_golden_float_adm_host());
    ck_assert_msg(rep.n == 0, "%u mismatches:\n%s", rep.n, rep.text);
    vg_context_destroy(&ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("float_model_corpus");
    TCase *tc = tcase_create("corpus");

    ac_env_init();
    tcase_set_timeout(tc, 900);
    VG_ADD_PAIR_TESTS(tc, test_float_models_pair, AC_N_PAIRS, ac_pairs);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
