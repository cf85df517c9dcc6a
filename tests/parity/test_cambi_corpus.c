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
 *
 * heatmaps_path: the five files of four runs, two worker threads each,
 * have libvmaf v3.2.0's names, sizes and bytes (64-bit FNV-1a of each file
 * as libvmaf wrote it): default options on r640x360_444p8; a subdirectory,
 * window_size 31, max_log_contrast 3 and full_ref on r640x360_422p10; an
 * empty histogram band (vlt 84: every c-value 0) on r352x288_420p12; and
 * three frames of p1080_crf32 with cambi_high_res_speedup, whose first
 * file is named for 1920x1080 but holds 960x540 pictures. A heatmaps_path
 * that cannot be created fails the first frame.
 */

#include <sys/stat.h>
#include <unistd.h>

#include "tests/parity/api_corpus.h"
#include "tests/check_run.h"

#define N_SCALES 5
#define KEY "cambi_hrs_1080_cmxv_17_vlt_0.06"
#define OPTS                                                                   \
    "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:"                \
    "cambi_max_val=17"

static const char *const pool_names[] = { "min", "max", "mean",
                                          "harmonic_mean" };
static const enum VgPool pools[] = {
    VG_POOL_MIN,
    VG_POOL_MAX,
    VG_POOL_MEAN,
    VG_POOL_HARMONIC_MEAN,
};

/* the pairs with an hp golden of the model, but for the two largest */
static int pair_runs(const AcPair *p)
{
    return p->has_hp && strcmp(p->name, "p1080_scaled") &&
           strcmp(p->name, "p2160");
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

static const struct HeatmapCase {
    const char *pair;
    const char *dir;  ///< under the test's directory
    const char *opts; ///< cambi options but heatmaps_path
    unsigned frames;  ///< 0 = all
    struct {
        const char *name;
        long size;
        uint64_t fnv;
    } file[N_SCALES];
} hm_cases[] = {
    { "r640x360_444p8",
      "c1",
      "",
      0,
      {
          { "cambi_heatmap_scale_0_640x360_16b.gray", 4608000,
            0xcafd825b1419ddb0ull },
          { "cambi_heatmap_scale_1_320x180_16b.gray", 1152000,
            0x8d3ff0d00f14c461ull },
          { "cambi_heatmap_scale_2_160x90_16b.gray", 288000,
            0x26539047c34972c2ull },
          { "cambi_heatmap_scale_3_80x45_16b.gray", 72000,
            0xd7e4b225e5103523ull },
          { "cambi_heatmap_scale_4_40x23_16b.gray", 18400,
            0x7daae4d4047cde6aull },
      } },
    { "r640x360_422p10",
      "c2/sub",
      ":window_size=31:max_log_contrast=3:full_ref=true",
      0,
      {
          { "cambi_heatmap_scale_0_640x360_16b.gray", 4608000,
            0xbbc946147c8b8c26ull },
          { "cambi_heatmap_scale_1_320x180_16b.gray", 1152000,
            0x63df3fb344f1680bull },
          { "cambi_heatmap_scale_2_160x90_16b.gray", 288000,
            0x4b1fbf1604f94284ull },
          { "cambi_heatmap_scale_3_80x45_16b.gray", 72000,
            0x86aa048654a0d533ull },
          { "cambi_heatmap_scale_4_40x23_16b.gray", 18400,
            0xc2df20bae67441afull },
      } },
    { "r352x288_420p12",
      "c3",
      ":cambi_vis_lum_threshold=84",
      0,
      {
          { "cambi_heatmap_scale_0_352x288_16b.gray", 2027520,
            0xb7de366e9af4e325ull },
          { "cambi_heatmap_scale_1_176x144_16b.gray", 506880,
            0x55b54f6a2256d325ull },
          { "cambi_heatmap_scale_2_88x72_16b.gray", 126720,
            0xfee1e758bd374f25ull },
          { "cambi_heatmap_scale_3_44x36_16b.gray", 31680,
            0xf9d57d0861ffee25ull },
          { "cambi_heatmap_scale_4_22x18_16b.gray", 7920,
            0x352223d7bc7d1de5ull },
      } },
    { "p1080_crf32",
      "c4",
      ":cambi_high_res_speedup=1080",
      3,
      {
          { "cambi_heatmap_scale_0_1920x1080_16b.gray", 3110400,
            0xd187f68b585776fbull },
          { "cambi_heatmap_scale_1_960x540_16b.gray", 777600,
            0xdc8fbaffeeacb3f4ull },
          { "cambi_heatmap_scale_2_480x270_16b.gray", 194400,
            0x63de9babad8216aaull },
          { "cambi_heatmap_scale_3_240x135_16b.gray", 48960,
            0xfada858dc9ee2c6dull },
          { "cambi_heatmap_scale_4_120x68_16b.gray", 12240,
            0xefa6b56618339461ull },
      } },
};
#define N_HM_CASES (sizeof(hm_cases) / sizeof(hm_cases[0]))

static const AcPair *find_pair(const char *name)
{
    for (unsigned i = 0; i < AC_N_PAIRS; i++)
        if (!strcmp(ac_pairs[i].name, name))
            return &ac_pairs[i];
    ck_abort_msg("no pair %s", name);
    return NULL;
}

/** Submit the first `frames` frames of p (0: all) and flush. */
static int run_frames(VgContext *ctx, const AcPair *p, unsigned frames)
{
    AcReader r;
    unsigned n = 0;
    int ret = 0;

    ac_reader_open(&r, p);
    while ((!frames || n < frames) && ac_reader_next(&r) && ret == 0) {
        ret = vg_submit(ctx, &r.pic[0], &r.pic[1]);
        n++;
    }
    ac_reader_close(&r);
    return ret ? ret : vg_flush(ctx);
}

/** 64-bit FNV-1a of a file and its size; the size is -1 without one. */
static uint64_t file_fnv(const char *path, long *size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    FILE *f = fopen(path, "rb");
    int c;

    *size = -1;
    if (!f)
        return 0;
    *size = 0;
    while ((c = getc(f)) != EOF) {
        h = (h ^ (uint64_t)c) * 0x100000001b3ull;
        (*size)++;
    }
    fclose(f);
    return h;
}

START_TEST(test_cambi_heatmaps)
{
    const struct HeatmapCase *c = &hm_cases[_i];
    const AcPair *p = find_pair(c->pair);
    char top[64], dir[128], opts[256], path[512];
    VgContext *ctx;
    VgReport rep = { .len = 0 };

    snprintf(top, sizeof(top), "cambi-heatmaps-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(top));
    snprintf(dir, sizeof(dir), "%s/%s", top, c->dir);
    snprintf(opts, sizeof(opts), "heatmaps_path=%s%s", dir, c->opts);
    ctx = ac_context(2);
    ck_assert_int_eq(vg_use_feature(ctx, "cambi", opts), 0);
    ck_assert_int_eq(run_frames(ctx, p, c->frames), 0);
    vg_context_destroy(&ctx);

    for (unsigned s = 0; s < N_SCALES; s++) {
        long size;
        uint64_t h;

        snprintf(path, sizeof(path), "%s/%s", dir, c->file[s].name);
        h = file_fnv(path, &size);
        if (size < 0)
            vg_report(&rep, "%s: %s missing", c->pair, path);
        else if (size != c->file[s].size || h != c->file[s].fnv)
            vg_report(&rep,
                      "%s: %s: %ld bytes, FNV-1a 0x%016llx; libvmaf's "
                      "%ld, 0x%016llx",
                      c->pair, path, size, (unsigned long long)h,
                      c->file[s].size, (unsigned long long)c->file[s].fnv);
        unlink(path);
    }
    rmdir(dir);
    if (strchr(c->dir, '/')) {
        snprintf(path, sizeof(path), "%s/%.*s", top,
                 (int)(strchr(c->dir, '/') - c->dir), c->dir);
        rmdir(path);
    }
    rmdir(top);
    ck_assert_msg(rep.n == 0, "%u mismatches:\n%s", rep.n, rep.text);
}
END_TEST

/* a heatmaps_path below a regular file cannot be created */
START_TEST(test_cambi_heatmaps_refused)
{
    const char *file = "cambi-heatmaps-file";
    FILE *f = fopen(file, "w");
    VgContext *ctx;

    ck_assert_ptr_nonnull(f);
    fclose(f);
    ctx = ac_context(1);
    ck_assert_int_eq(
        vg_use_feature(ctx, "cambi", "heatmaps_path=cambi-heatmaps-file/x"), 0);
    ck_assert_int_lt(run_frames(ctx, find_pair("r640x360_444p8"), 1), 0);
    vg_context_destroy(&ctx);
    unlink(file);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cambi_corpus");
    TCase *tc = tcase_create("corpus");

    ac_env_init();
    tcase_set_timeout(tc, 600);
    for (int i = 0; i < (int)AC_N_PAIRS; i++)
        if (pair_runs(&ac_pairs[i]) &&
            vg_corpus_pair_selected(ac_pairs[i].name))
            tcase_add_loop_test(tc, test_cambi_model_options, i, i + 1);
    for (int i = 0; i < (int)N_HM_CASES; i++)
        if (vg_corpus_pair_selected(hm_cases[i].pair))
            tcase_add_loop_test(tc, test_cambi_heatmaps, i, i + 1);
    tcase_add_test(tc, test_cambi_heatmaps_refused);
    suite_add_tcase(s, tc);
    return vg_check_run(s);
}
