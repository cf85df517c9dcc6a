/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The vmafgpu tool on every corpus pair against libvmaf v3.2.0's goldens
 * (golden/commands.log gives the pairs and their -w -h -p -b):
 *  - `--json --precision max --threads 2`: every key of the table below,
 *    every frame and its four pooled values, equal as doubles to
 *    golden/hp/<pair>.json;
 *  - `--threads 1` gives exactly the same values as `--threads 2`
 *    (all keys, all frames, pooled; not on p1080_scaled and p2160, which
 *    would double the run time without covering another code path);
 *  - default output (libvmaf's %.6f format): the same keys, as text, equal
 *    to golden/<pair>.json (r577x323_420p8: its FROM_FFMPEG golden only,
 *    libvmaf's own tool crashes on that odd size); on the three big pairs
 *    only the psnr and motion keys, to keep the run time modest.
 *  - ciede2000 is not compared on the odd pair: libvmaf reads past its
 *    chroma planes there (common/features/ciede.c).
 *  - p1080_scaled and p2160 leave out the costliest features
 *    (heavy_feature(): code that p1080_crf32 runs at the same size and
 *    p720_10 at another) and p1080_crf32 its --threads 1
 *    run, unless VG_CORPUS_FULL is set.
 * A key of the table missing from our output fails the test.
 *
 * Feature options as the models set them (option_rows[]): on the pairs
 * that run every feature, each row's --feature against the model golden
 * golden/hp/<pair>__<model>.json, whose keys carry libvmaf's option
 * suffixes; where libvmaf has no golden because it failed, our tool must
 * refuse with the row's message.
 *
 * Inputs: encoded pairs decoded by tests/prepare-corpus.sh into
 * VG_CORPUS_RAW, raw pairs from VG_SHARED_DIR/corpus/raw.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/golden_host.h"
#include "tests/cli_util.h"
#include "tests/check_run.h"
#include "tests/report.h"

/**
 * Compared keys, with the extractor that produces each one; a new feature
 * is covered by appending its keys. A NULL extractor means a model output:
 * the default model (vmaf_v0.6.1) then runs instead of -n, and its
 * per-frame and pooled scores are compared like any other key.
 */
static const struct KeyRow {
    const char *key;
    const char *feature; ///< --feature to request, NULL = default model
    /** 1: libvmaf has no value of its own on odd sizes (it reads past its
     *  chroma planes there), so not compared on the odd pair */
    int even_sizes_only;
} keys[] = {
    { "psnr_y", "psnr" },
    { "psnr_cb", "psnr" },
    { "psnr_cr", "psnr" },
    { "integer_motion2", "motion" },
    { "integer_motion3", "motion" },
    { "VMAF_integer_feature_motion_sad_score", "motion" },
    { "integer_vif_scale0", "vif" },
    { "integer_vif_scale1", "vif" },
    { "integer_vif_scale2", "vif" },
    { "integer_vif_scale3", "vif" },
    { "integer_adm2", "adm" },
    { "integer_aim", "adm" },
    { "integer_adm3", "adm" },
    { "integer_adm_scale0", "adm" },
    { "integer_adm_scale1", "adm" },
    { "integer_adm_scale2", "adm" },
    { "integer_adm_scale3", "adm" },
    { "float_ssim", "float_ssim" },
    { "float_ms_ssim", "float_ms_ssim" },
    { "vmaf", NULL },
    { "vif_scale0", "float_vif" },
    { "vif_scale1", "float_vif" },
    { "vif_scale2", "float_vif" },
    { "vif_scale3", "float_vif" },
    { "adm2", "float_adm" },
    { "aim", "float_adm" },
    { "adm3", "float_adm" },
    { "adm_scale0", "float_adm" },
    { "adm_scale1", "float_adm" },
    { "adm_scale2", "float_adm" },
    { "adm_scale3", "float_adm" },
    { "float_moment_ref1st", "float_moment" },
    { "float_moment_dis1st", "float_moment" },
    { "float_moment_ref2nd", "float_moment" },
    { "float_moment_dis2nd", "float_moment" },
    { "float_psnr", "float_psnr" },
    { "float_ansnr", "float_ansnr" },
    { "float_anpsnr", "float_ansnr" },
    { "motion", "float_motion" },
    { "motion2", "float_motion" },
    { "motion3", "float_motion" },
    { "psnr_hvs_y", "psnr_hvs" },
    { "psnr_hvs_cb", "psnr_hvs" },
    { "psnr_hvs_cr", "psnr_hvs" },
    { "psnr_hvs", "psnr_hvs" },
    { "ciede2000", "ciede", 1 },
    { "cambi", "cambi" },
    { "speed_chroma_u", "speed_chroma" },
    { "speed_chroma_v", "speed_chroma" },
    { "speed_chroma_uv", "speed_chroma" },
    { "speed_temporal", "speed_temporal" },
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

static const char *const pool_names[] = { "min", "max", "mean",
                                          "harmonic_mean" };

typedef struct Pair {
    const char *name;
    int in_shared_raw; ///< inputs in corpus/raw (else decoded, VG_CORPUS_RAW)
    const char *ref, *dis;
    const char *w, *h, *pix_fmt, *bits;
    const char *golden; ///< in golden/
    int has_hp;         ///< golden/hp/<name>.json exists
    int thread_check;   ///< also run --threads 1 (skipped on the two largest,
                        ///< for time; 2: only with VG_CORPUS_FULL)
    int big;            ///< default-format run with the cheap features only
    int light;          ///< no heavy_feature() unless VG_CORPUS_FULL
} Pair;

/**
 * Extractors of the default-format run on big pairs: the writer's format is
 * proven byte for byte on every golden by tests/unit/test_output, so there
 * the text check only needs to exercise the tool's default path.
 */
static int cheap_feature(const char *f)
{
    return f && (!strcmp(f, "psnr") || !strcmp(f, "motion"));
}

/**
 * The extractors whose cost dominates the run (seconds per 1080p frame on
 * the CPU) and whose code does not change with the picture size beyond
 * what p1080_crf32 and p720_10 cover; float_ssim, whose scale choice does
 * change at 2160p, is not among them.
 */
static int heavy_feature(const char *f)
{
    static const char *const heavy[] = {
        "ciede", "float_vif", "float_ms_ssim", "float_adm", "psnr_hvs",
        "cambi", NULL,
    };

    for (unsigned i = 0; f && heavy[i]; i++)
        if (!strcmp(f, heavy[i]))
            return 1;
    return 0;
}

static const Pair pairs[] = {
    { "p1080_crf32", 0, "p1080_ref.yuv", "p1080_dist_crf32.yuv", "1920", "1080",
      "420", "8", "p1080_crf32.json", 1, 2, 1, 0 },
    { "p1080_scaled", 0, "p1080_ref.yuv", "p1080_dist_scaled.yuv", "1920",
      "1080", "420", "8", "p1080_scaled.json", 1, 0, 1, 1 },
    { "p2160", 0, "p2160_ref.yuv", "p2160_dist_x265crf30.yuv", "3840", "2160",
      "420", "8", "p2160.json", 1, 0, 1, 1 },
    { "p720_10", 0, "p720_10_ref.yuv", "p720_10_dist_x265crf30.yuv", "1280",
      "720", "420", "10", "p720_10.json", 1, 1, 0 },
    { "r577x323_420p8", 1, "r577x323_yuv420p_ref.yuv",
      "r577x323_yuv420p_dist.yuv", "577", "323", "420", "8",
      "r577x323_420p8.FROM_FFMPEG.json", 0, 1, 0 },
    { "r640x360_444p8", 1, "r640x360_yuv444p_ref.yuv",
      "r640x360_yuv444p_dist.yuv", "640", "360", "444", "8",
      "r640x360_444p8.json", 1, 1, 0 },
    { "r640x360_422p10", 1, "r640x360_yuv422p10le_ref.yuv",
      "r640x360_yuv422p10le_dist.yuv", "640", "360", "422", "10",
      "r640x360_422p10.json", 1, 1, 0 },
    { "r352x288_420p12", 1, "r352x288_yuv420p12le_ref.yuv",
      "r352x288_yuv420p12le_dist.yuv", "352", "288", "420", "12",
      "r352x288_420p12.json", 1, 1, 0 },
};
#define N_PAIRS (sizeof(pairs) / sizeof(pairs[0]))

static const char *const tmp_files[] = { "t2.json",    "t1.json",    "t0.json",
                                         "stderr.txt", "stdout.txt", NULL };

/**
 * Options that libvmaf's models give a feature, and the keys they name:
 * the vmaf_v1.0.16 models' speed_chroma (speed_max_val 45, speed_nn_floor
 * 0.1, speed_sigma_nn 0.19, speed_weight_var_mode 5; the 2160 and 5d0h
 * models also prescale, bilinear, by 0.5 and 0.6).
 */
#define SPEED_V1016                                                            \
    "speed_chroma=speed_kernelscale=1.0:speed_nn_floor=0.1:"                   \
    "speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45"
#define SPEED_KEYS(sfx)                                                        \
    {                                                                          \
        "speed_chroma_u" sfx, "speed_chroma_v" sfx, "speed_chroma_uv" sfx,     \
            NULL                                                               \
    }
static const struct OptionRow {
    const char *feature; ///< --feature argument
    const char *model;   ///< golden/hp/<pair>__<model>.json
    const char *keys[4]; ///< compared keys, NULL-terminated
    /** where the golden is missing (libvmaf failed): our message */
    const char *refusal;
} option_rows[] = {
    { SPEED_V1016, "vmaf_v1.0.16_3d0h",
      SPEED_KEYS("_mxv_45_nnf_0.1_snn_0.19_wvm_5") },
    { SPEED_V1016 ":speed_prescale=0.6:speed_prescale_method=bilinear",
      "vmaf_v1.0.16_5d0h",
      SPEED_KEYS("_mxv_45_nnf_0.1_ps_0.6_psm_bilinear_snn_0.19_wvm_5") },
    { SPEED_V1016 ":speed_prescale=0.5:speed_prescale_method=bilinear",
      "vmaf_v1.0.16_3d0h_2160",
      SPEED_KEYS("_mxv_45_nnf_0.1_ps_0.5_psm_bilinear_snn_0.19_wvm_5"),
      "is too small for SpEED" },
};
#define N_OPTION_ROWS (sizeof(option_rows) / sizeof(option_rows[0]))

/* ---- running the tool --------------------------------------------------- */

static void input_path(char *buf, size_t size, const Pair *p, const char *f)
{
    if (p->in_shared_raw)
        snprintf(buf, size, "%s/corpus/raw/%s", cli_env.shared, f);
    else
        snprintf(buf, size, "%s/%s", cli_env.corpus_raw, f);
}

/** Whether key row k runs on pair p. */
static int key_runs(const Pair *p, unsigned k)
{
    return !p->light || vg_corpus_full() || !heavy_feature(keys[k].feature);
}

/** Run the tool on pair p; output JSON to `out`. */
static void run_pair(const Pair *p, const char *threads, int max_precision,
                     int cheap, const char *out)
{
    char ref[CLI_PATH_MAX + 64], dis[CLI_PATH_MAX + 64];
    char *argv[64];
    int n = 0, need_model = 0, rc;

    input_path(ref, sizeof(ref), p, p->ref);
    input_path(dis, sizeof(dis), p, p->dis);
    ck_assert_msg(file_exists(ref) && file_exists(dis),
                  "%s: missing input %s or %s (run tests/prepare-corpus.sh, "
                  "or set VG_CORPUS_RAW / VG_SHARED_DIR)",
                  p->name, ref, dis);

    argv[n++] = cli_env.cli;
    argv[n++] = "-r";
    argv[n++] = ref;
    argv[n++] = "-d";
    argv[n++] = dis;
    argv[n++] = "-w";
    argv[n++] = (char *)p->w;
    argv[n++] = "-h";
    argv[n++] = (char *)p->h;
    argv[n++] = "-p";
    argv[n++] = (char *)p->pix_fmt;
    argv[n++] = "-b";
    argv[n++] = (char *)p->bits;
    for (unsigned k = 0; k < N_KEYS; k++) {
        int seen = 0;

        if ((cheap && !cheap_feature(keys[k].feature)) || !key_runs(p, k))
            continue;
        if (!keys[k].feature) {
            need_model = 1;
            continue;
        }
        for (unsigned j = 0; j < k; j++)
            seen |=
                keys[j].feature && !strcmp(keys[j].feature, keys[k].feature);
        if (!seen) {
            argv[n++] = "--feature";
            argv[n++] = (char *)keys[k].feature;
        }
    }
    if (!need_model)
        argv[n++] = "-n";
    argv[n++] = "--threads";
    argv[n++] = (char *)threads;
    argv[n++] = "--json";
    if (max_precision) {
        argv[n++] = "--precision";
        argv[n++] = "max";
    }
    argv[n++] = "-q";
    argv[n++] = "-o";
    argv[n++] = (char *)out;
    argv[n] = NULL;

    rc = run_cmd(argv, NULL, NULL, tmp_path("stderr.txt"));
    if (rc) {
        char *err = slurp(tmp_path("stderr.txt"), NULL);
        ck_abort_msg("%s: %s exited with %d: %s", p->name, cli_env.cli, rc,
                     err ? err : "");
    }
}

static json_object *load_json(const char *path)
{
    json_object *o = json_object_from_file(path);

    ck_assert_msg(o != NULL, "cannot parse %s as JSON", path);
    return o;
}

static json_object *member(json_object *o, const char *key)
{
    json_object *v = NULL;

    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static json_object *frame_metrics(json_object *root, size_t i)
{
    return member(json_object_array_get_idx(member(root, "frames"), i),
                  "metrics");
}

static size_t frame_count(json_object *root)
{
    json_object *f = member(root, "frames");

    return f ? json_object_array_length(f) : 0;
}

static const char *text_of(json_object *v)
{
    return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/**
 * Compare `key` of ours against golden: every frame and the pooled values,
 * as doubles (exact) or as printed text.
 */
static void compare_key(VgReport *r, const char *what, json_object *ours,
                        json_object *gold, const char *key, int as_text)
{
    size_t n = frame_count(gold);
    json_object *po = member(member(ours, "pooled_metrics"), key);
    json_object *pg = member(member(gold, "pooled_metrics"), key);

    for (size_t i = 0; i < n; i++) {
        json_object *g = member(frame_metrics(gold, i), key);
        json_object *o = member(frame_metrics(ours, i), key);

        if (!g) {
            vg_report(r, "%s: frame %zu: golden has no %s", what, i, key);
            return;
        }
        if (!o) {
            vg_report(r, "%s: frame %zu: %s missing from our output", what, i,
                      key);
            return;
        }
        if (as_text ? strcmp(text_of(o), text_of(g))
                    : json_object_get_double(o) != json_object_get_double(g))
            vg_report(r, "%s: frame %zu: %s = %s, golden %s", what, i, key,
                      text_of(o), text_of(g));
    }
    if (!pg || !po) {
        vg_report(r, "%s: pooled %s missing from %s", what, key,
                  pg ? "our output" : "the golden");
        return;
    }
    for (unsigned m = 0; m < 4; m++) {
        json_object *g = member(pg, pool_names[m]),
                    *o = member(po, pool_names[m]);

        if (!g || !o ||
            (as_text ? strcmp(text_of(o), text_of(g))
                     : json_object_get_double(o) != json_object_get_double(g)))
            vg_report(r, "%s: pooled %s %s = %s, golden %s", what, key,
                      pool_names[m], o ? text_of(o) : "(missing)",
                      g ? text_of(g) : "(missing)");
    }
}

/** Every metric of a must equal b's (threads 1 vs threads 2). */
static void compare_all(VgReport *r, json_object *a, json_object *b)
{
    size_t n = frame_count(a);

    if (frame_count(b) != n) {
        vg_report(r, "threads: %zu frames vs %zu", n, frame_count(b));
        return;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *ma = frame_metrics(a, i), *mb = frame_metrics(b, i);

        if (!ma || !mb) {
            vg_report(r, "threads: frame %zu has no metrics", i);
            return;
        }
        if (json_object_object_length(ma) != json_object_object_length(mb))
            vg_report(r, "threads: frame %zu: key counts differ", i);
        json_object_object_foreach(ma, key, va)
        {
            json_object *vb = member(mb, key);
            if (!vb || json_object_get_double(va) != json_object_get_double(vb))
                vg_report(r, "threads: frame %zu: %s = %s vs %s", i, key,
                          text_of(va), vb ? text_of(vb) : "(missing)");
        }
    }
    if (!member(a, "pooled_metrics") || !member(b, "pooled_metrics")) {
        vg_report(r, "threads: no pooled_metrics");
        return;
    }
    json_object_object_foreach(member(a, "pooled_metrics"), key, pa)
    {
        json_object *pb = member(member(b, "pooled_metrics"), key);
        for (unsigned m = 0; m < 4; m++) {
            json_object *x = member(pa, pool_names[m]),
                        *y = member(pb, pool_names[m]);
            if (!x || !y ||
                json_object_get_double(x) != json_object_get_double(y))
                vg_report(r, "threads: pooled %s %s differs", key,
                          pool_names[m]);
        }
    }
}

START_TEST(test_pair)
{
    const Pair *p = &pairs[_i];
    char golden[CLI_PATH_MAX + 128];
    json_object *t2, *t1 = NULL, *t0, *g6, *ghp = NULL;
    VgReport r = { .len = 0 };
    const int fadm_host = vg_golden_float_adm_host();

    run_pair(p, "2", 1, 0, tmp_path("t2.json"));
    run_pair(p, "2", 0, p->big, tmp_path("t0.json"));
    t2 = load_json(tmp_path("t2.json"));
    t0 = load_json(tmp_path("t0.json"));
    if (p->thread_check == 1 || (p->thread_check && vg_corpus_full())) {
        run_pair(p, "1", 1, 0, tmp_path("t1.json"));
        t1 = load_json(tmp_path("t1.json"));
    }

    snprintf(golden, sizeof(golden), "%s/golden/%s", cli_env.shared, p->golden);
    g6 = load_json(golden);
    if (p->has_hp) {
        snprintf(golden, sizeof(golden), "%s/golden/hp/%s.json", cli_env.shared,
                 p->name);
        ghp = load_json(golden);
    }

    if (frame_count(t2) != frame_count(g6))
        vg_report(&r, "%s: %zu frames, golden %zu", p->name, frame_count(t2),
                  frame_count(g6));
    if (p->light && !vg_corpus_full())
        fprintf(stderr,
                "%s: ciede, float_vif, float_ms_ssim, float_adm, "
                "psnr_hvs and cambi left out (VG_CORPUS_FULL=1 runs them)\n",
                p->name);
    if (!fadm_host)
        fprintf(stderr,
                "%s: float_adm's outputs not compared with the "
                "goldens: this processor's RCPSS is not the AMD one they were "
                "made with (tests/golden_host.h)\n",
                p->name);
    for (unsigned k = 0; k < N_KEYS; k++) {
        if (!key_runs(p, k))
            continue;
        if (!fadm_host && keys[k].feature &&
            !strcmp(keys[k].feature, "float_adm"))
            continue;
        if (ghp)
            compare_key(&r, "max precision vs golden/hp", t2, ghp, keys[k].key,
                        0);
        if (keys[k].even_sizes_only && ((atoi(p->w) | atoi(p->h)) & 1))
            continue;
        if (!p->big || cheap_feature(keys[k].feature))
            compare_key(&r, "default output vs golden", t0, g6, keys[k].key, 1);
    }
    if (t1)
        compare_all(&r, t2, t1);

    json_object_put(t2);
    json_object_put(t1);
    json_object_put(t0);
    json_object_put(g6);
    json_object_put(ghp);
    ck_assert_msg(r.n == 0, "%s: %u mismatches:\n%s", p->name, r.n, r.text);
}
END_TEST

/* The pairs of the option rows: those that run every feature and have
 * golden/hp files. */
static int option_pair(const Pair *p)
{
    return p->has_hp && !p->light;
}

START_TEST(test_feature_options)
{
    const Pair *p = &pairs[_i];
    char ref[CLI_PATH_MAX + 64], dis[CLI_PATH_MAX + 64],
        golden[CLI_PATH_MAX + 128];
    VgReport r = { .len = 0 };

    input_path(ref, sizeof(ref), p, p->ref);
    input_path(dis, sizeof(dis), p, p->dis);
    for (unsigned k = 0; k < N_OPTION_ROWS; k++) {
        const struct OptionRow *o = &option_rows[k];
        char *argv[] = {
            cli_env.cli,
            "-r",
            ref,
            "-d",
            dis,
            "-w",
            (char *)p->w,
            "-h",
            (char *)p->h,
            "-p",
            (char *)p->pix_fmt,
            "-b",
            (char *)p->bits,
            "-n",
            "--feature",
            (char *)o->feature,
            "--threads",
            "2",
            "--json",
            "--precision",
            "max",
            "-q",
            "-o",
            (char *)tmp_path("t2.json"),
            NULL,
        };
        json_object *ours, *gold;
        int rc;

        snprintf(golden, sizeof(golden), "%s/golden/hp/%s__%s.json",
                 cli_env.shared, p->name, o->model);
        rc = run_cmd(argv, NULL, NULL, tmp_path("stderr.txt"));
        if (!file_exists(golden)) {
            char *err = slurp(tmp_path("stderr.txt"), NULL);
            ck_assert_msg(o->refusal, "%s: no golden %s", p->name, golden);
            if (!rc || !err || !strstr(err, o->refusal))
                vg_report(&r,
                          "%s: libvmaf fails there, we must refuse "
                          "(\"%s\"); exit %d, stderr: %s",
                          o->feature, o->refusal, rc, err ? err : "");
            free(err);
            continue;
        }
        if (rc) {
            char *err = slurp(tmp_path("stderr.txt"), NULL);
            vg_report(&r, "%s: exit %d: %s", o->feature, rc, err ? err : "");
            free(err);
            continue;
        }
        ours = load_json(tmp_path("t2.json"));
        gold = load_json(golden);
        if (frame_count(ours) != frame_count(gold))
            vg_report(&r, "%s: %zu frames, golden %zu", o->feature,
                      frame_count(ours), frame_count(gold));
        for (unsigned i = 0; o->keys[i]; i++)
            compare_key(&r, o->model, ours, gold, o->keys[i], 0);
        json_object_put(ours);
        json_object_put(gold);
    }
    ck_assert_msg(r.n == 0, "%s: %u mismatches:\n%s", p->name, r.n, r.text);
}
END_TEST

/*
 * What a user compares first: the tool with default options (the built-in
 * vmaf_v0.6.1, no log) prints the pooled mean as libvmaf's golden log has it
 * (6 decimals).
 */
START_TEST(test_default_score_line)
{
    const Pair *p = &pairs[_i];
    char ref[CLI_PATH_MAX + 64], dis[CLI_PATH_MAX + 64],
        golden[CLI_PATH_MAX + 128];
    char expect[128], *got;
    char *argv[] = {
        cli_env.cli,
        "-r",
        ref,
        "-d",
        dis,
        "-w",
        (char *)p->w,
        "-h",
        (char *)p->h,
        "-p",
        (char *)p->pix_fmt,
        "-b",
        (char *)p->bits,
        "--threads",
        "2",
        NULL,
    };
    json_object *g, *mean;
    int rc;

    input_path(ref, sizeof(ref), p, p->ref);
    input_path(dis, sizeof(dis), p, p->dis);
    snprintf(golden, sizeof(golden), "%s/golden/%s", cli_env.shared, p->golden);
    g = load_json(golden);
    mean = member(member(member(g, "pooled_metrics"), "vmaf"), "mean");
    ck_assert_msg(mean, "%s: no pooled vmaf mean in %s", p->name, golden);
    snprintf(expect, sizeof(expect), "vmaf_v0.6.1: %s\n", text_of(mean));
    json_object_put(g);

    rc = run_cmd(argv, NULL, tmp_path("stdout.txt"), tmp_path("stderr.txt"));
    ck_assert_msg(rc == 0, "%s: %s exited with %d", p->name, cli_env.cli, rc);
    got = slurp(tmp_path("stdout.txt"), NULL);
    ck_assert_msg(got && !strcmp(got, expect), "%s: printed '%s', libvmaf '%s'",
                  p->name, got ? got : "(nothing)", expect);
    free(got);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("corpus");
    TCase *tc = tcase_create("pairs");
    int ret;

    cli_env_init();
    tcase_set_timeout(tc, 900);
    VG_ADD_PAIR_TESTS(tc, test_pair, N_PAIRS, pairs);
    VG_ADD_PAIR_TESTS(tc, test_default_score_line, N_PAIRS, pairs);
    for (int i = 0; i < (int)N_PAIRS; i++)
        if (option_pair(&pairs[i]) && vg_corpus_pair_selected(pairs[i].name))
            tcase_add_loop_test(tc, test_feature_options, i, i + 1);
    suite_add_tcase(s, tc);
    ret = vg_check_run(s);
    cli_env_cleanup(tmp_files);
    return ret;
}
