/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The eight vmaf_v1.0.16 models on the CPU through the public API, all in
 * one context per pair, against libvmaf v3.2.0's goldens
 * (golden/hp/<pair>__<model>.json, as doubles): every key of every frame
 * (cambi, speed_chroma_u/v/uv, the adm and motion scores under libvmaf's
 * option-suffixed names, and the model's score with the chroma
 * correction) and the pooled scores.
 *
 * Where libvmaf has no golden because it fails (the 2160 models' SpEED
 * prescale of 0.5 on 352x288), a context with that model alone must refuse
 * the first frame; the message itself is checked by tests/unit/test_cli.
 *
 * p1080_scaled and p2160 run only with VG_CORPUS_FULL set
 * (tests/check_run.h): p1080_crf32 runs the same code at 1080p.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "common/model.h"
#include "tests/check_run.h"
#include "tests/parity/api_corpus.h"

static const char *const pool_names[] = { "min", "max", "mean",
                                          "harmonic_mean" };
static const enum VgPool pools[] = {
    VG_POOL_MIN,
    VG_POOL_MAX,
    VG_POOL_MEAN,
    VG_POOL_HARMONIC_MEAN,
};

static const char *const models[] = {
    "vmaf_v1.0.16_3d0h",          "vmaf_v1.0.16_5d0h",
    "vmaf_v1.0.16_1d5h_2160",     "vmaf_v1.0.16_3d0h_2160",
    "vmaf_v1.0.16_hfr_3d0h",      "vmaf_v1.0.16_hfr_5d0h",
    "vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h_2160",
};
#define N_MODELS (sizeof(models) / sizeof(models[0]))

/** golden/hp/<pair>__<model>.json, or NULL where libvmaf made none. */
static json_object *model_golden(const AcPair *p, unsigned m)
{
    char file[128], path[AC_PATH_MAX + 192];
    FILE *f;

    snprintf(file, sizeof(file), "%s__%s.json", p->name, models[m]);
    snprintf(path, sizeof(path), "%s/golden/hp/%s", ac_env.shared, file);
    if (!(f = fopen(path, "r")))
        return NULL;
    fclose(f);
    return ac_golden_load(file, 1);
}

/** Our metric for golden key `key` of model m: "vmaf" is the model's name. */
static const char *our_name(const char *key, unsigned m)
{
    return strcmp(key, "vmaf") ? key : models[m];
}

static void check_model(VgReport *rep, VgContext *ctx, const AcPair *p,
                        unsigned n, unsigned m, json_object *g)
{
    json_object *frames, *metrics, *pooled;
    char what[192];
    double v;

    snprintf(what, sizeof(what), "%s %s", p->name, models[m]);
    if (!json_object_object_get_ex(g, "frames", &frames) ||
        json_object_array_length(frames) != n) {
        vg_report(rep, "%s: the golden does not hold %u frames", what, n);
        return;
    }
    ck_assert(json_object_object_get_ex(json_object_array_get_idx(frames, 0),
                                        "metrics", &metrics));
    json_object_object_foreach(metrics, key, unused)
    {
        const char *ours = our_name(key, m);
        (void)unused;
        for (unsigned i = 0; i < n; i++) {
            int ret = vg_get_score(ctx, ours, i, &v);
            if (ret < 0) {
                vg_report(rep, "%s: frame %u: %s not computed (%d)", what, i,
                          ours, ret);
                break;
            }
            ac_compare(rep, what, i, key, v, ac_golden_frame(g, i, key), 1);
        }
    }
    /* libvmaf pools every key; the model's score is what users read */
    ck_assert(json_object_object_get_ex(g, "pooled_metrics", &pooled));
    json_object_object_foreach(pooled, pkey, unused2)
    {
        const char *ours = our_name(pkey, m);
        (void)unused2;
        for (unsigned k = 0; k < 4; k++) {
            int ret = vg_get_pooled(ctx, ours, pools[k], &v);
            if (ret < 0) {
                vg_report(rep, "%s: pooled %s of %s failed (%d)", what,
                          pool_names[k], ours, ret);
                continue;
            }
            /* frame index n marks pooled values in the report */
            ac_compare(rep, what, n, pool_names[k], v,
                       ac_golden_pooled(g, pkey, pool_names[k]), 1);
        }
    }
}

/** A context with model m alone must refuse the pair's first frame. */
static void check_refusal(VgReport *rep, const AcPair *p, unsigned m)
{
    VgContext *ctx = ac_context(1);
    char spec[96];
    AcReader r;
    int ret;

    snprintf(spec, sizeof(spec), "version=%s", models[m]);
    ck_assert_int_eq(vg_use_model(ctx, spec), 0);
    ac_reader_open(&r, p);
    ck_assert(ac_reader_next(&r));
    ret = vg_submit(ctx, &r.pic[0], &r.pic[1]);
    if (ret == 0)
        ret = vg_flush(ctx);
    ac_reader_close(&r);
    if (ret >= 0)
        vg_report(rep, "%s %s: libvmaf fails here, we scored (%d)", p->name,
                  models[m], ret);
    vg_context_destroy(&ctx);
}

START_TEST(test_v1_models_pair)
{
    const AcPair *p = &ac_pairs[_i];
    json_object *g[N_MODELS];
    VgReport rep = { .len = 0 };
    VgContext *ctx;
    unsigned n, used = 0;

    if (!p->has_hp)
        return; /* libvmaf has no model golden for this pair */
    if ((!strcmp(p->name, "p1080_scaled") || !strcmp(p->name, "p2160")) &&
        !vg_corpus_full()) {
        fprintf(stderr, "%s: left out (VG_CORPUS_FULL=1 runs it)\n", p->name);
        return;
    }
    for (unsigned m = 0; m < N_MODELS; m++)
        if (!vg_builtin_model_json(models[m], NULL))
            ck_abort_msg(
                "built-in model %s missing: configure --with-models=DIR "
                "with libvmaf v3.2.0's model/ directory",
                models[m]);

    ctx = ac_context(2);
    for (unsigned m = 0; m < N_MODELS; m++) {
        char spec[96];
        if (!(g[m] = model_golden(p, m)))
            continue;
        snprintf(spec, sizeof(spec), "version=%s:name=%s", models[m],
                 models[m]);
        ck_assert_int_eq(vg_use_model(ctx, spec), 0);
        used++;
    }
    ck_assert_uint_gt(used, 0);
    n = ac_run_pair(ctx, p);
    for (unsigned m = 0; m < N_MODELS; m++) {
        if (g[m]) {
            check_model(&rep, ctx, p, n, m, g[m]);
            json_object_put(g[m]);
        } else {
            check_refusal(&rep, p, m);
        }
    }
    vg_context_destroy(&ctx);
    ck_assert_msg(rep.n == 0, "%u mismatches:\n%s", rep.n, rep.text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("v1_model_corpus");
    TCase *tc = tcase_create("corpus");

    ac_env_init();
    tcase_set_timeout(tc, 900);
    VG_ADD_PAIR_TESTS(tc, test_v1_models_pair, AC_N_PAIRS, ac_pairs);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
