/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Helpers for parity tests that run the corpus through the public API
 * (vg_submit) and compare with libvmaf's goldens: the pair table, raw
 * frame reading, golden JSON access and exact comparison with a report.
 *
 * Inputs: encoded pairs decoded by tests/prepare-corpus.sh into
 * VG_CORPUS_RAW (default <builddir>/tests/corpus-raw), raw pairs and
 * goldens from VG_SHARED_DIR (default <srcdir>/../shared). The contexts
 * run on the CPU backend, or with VG_TEST_BACKEND=cuda on the CUDA one
 * (on a machine with a GPU: tests/gpu/run-device.sh).
 */

#ifndef VG_TESTS_PARITY_API_CORPUS_H
#define VG_TESTS_PARITY_API_CORPUS_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "vmafgpu.h"
#include "common/report/output.h"
#include "tests/report.h"

#define AC_PATH_MAX 4096

typedef struct AcPair {
    const char *name;
    int in_shared_raw; ///< inputs in corpus/raw (else VG_CORPUS_RAW)
    const char *ref, *dis;
    unsigned w, h, bpc;
    enum VgPixFmt fmt;
    const char *golden; ///< golden/hp/<golden> if has_hp, else golden/<golden>
    int has_hp;
    unsigned frames;
} AcPair;

/* golden/commands.log: the pairs and their -w -h -p -b */
static const AcPair ac_pairs[] = {
    { "p1080_crf32", 0, "p1080_ref.yuv", "p1080_dist_crf32.yuv", 1920, 1080, 8,
      VG_PIX_FMT_YUV420P, "p1080_crf32.json", 1, 60 },
    { "p1080_scaled", 0, "p1080_ref.yuv", "p1080_dist_scaled.yuv", 1920, 1080,
      8, VG_PIX_FMT_YUV420P, "p1080_scaled.json", 1, 60 },
    { "p2160", 0, "p2160_ref.yuv", "p2160_dist_x265crf30.yuv", 3840, 2160, 8,
      VG_PIX_FMT_YUV420P, "p2160.json", 1, 30 },
    { "p720_10", 0, "p720_10_ref.yuv", "p720_10_dist_x265crf30.yuv", 1280, 720,
      10, VG_PIX_FMT_YUV420P, "p720_10.json", 1, 30 },
    { "r577x323_420p8", 1, "r577x323_yuv420p_ref.yuv",
      "r577x323_yuv420p_dist.yuv", 577, 323, 8, VG_PIX_FMT_YUV420P,
      "r577x323_420p8.FROM_FFMPEG.json", 0, 10 },
    { "r640x360_444p8", 1, "r640x360_yuv444p_ref.yuv",
      "r640x360_yuv444p_dist.yuv", 640, 360, 8, VG_PIX_FMT_YUV444P,
      "r640x360_444p8.json", 1, 10 },
    { "r640x360_422p10", 1, "r640x360_yuv422p10le_ref.yuv",
      "r640x360_yuv422p10le_dist.yuv", 640, 360, 10, VG_PIX_FMT_YUV422P,
      "r640x360_422p10.json", 1, 10 },
    { "r352x288_420p12", 1, "r352x288_yuv420p12le_ref.yuv",
      "r352x288_yuv420p12le_dist.yuv", 352, 288, 12, VG_PIX_FMT_YUV420P,
      "r352x288_420p12.json", 1, 10 },
};
#define AC_N_PAIRS (sizeof(ac_pairs) / sizeof(ac_pairs[0]))

static struct {
    char shared[AC_PATH_MAX];
    char corpus_raw[AC_PATH_MAX];
} ac_env;

static void ac_env_init(void)
{
    const char *top = getenv("VG_TOP_BUILDDIR");
    const char *src = getenv("VG_TOP_SRCDIR");
    const char *v;

    if (!top || !*top)
        top = ".";
    if (!src || !*src)
        src = "..";
    if ((v = getenv("VG_SHARED_DIR")) && *v)
        snprintf(ac_env.shared, sizeof(ac_env.shared), "%s", v);
    else
        snprintf(ac_env.shared, sizeof(ac_env.shared), "%s/../shared", src);
    if ((v = getenv("VG_CORPUS_RAW")) && *v)
        snprintf(ac_env.corpus_raw, sizeof(ac_env.corpus_raw), "%s", v);
    else
        snprintf(ac_env.corpus_raw, sizeof(ac_env.corpus_raw),
                 "%s/tests/corpus-raw", top);
}

/* ---- reading a raw pair --------------------------------------------------- */

typedef struct AcReader {
    FILE *f[2];
    uint8_t *buf[2];
    size_t frame_size;
    size_t plane_off[3];
    ptrdiff_t stride[3];
    VgPicture pic[2];
} AcReader;

static void ac_input_path(char *buf, size_t size, const AcPair *p,
                          const char *f)
{
    if (p->in_shared_raw)
        snprintf(buf, size, "%s/corpus/raw/%s", ac_env.shared, f);
    else
        snprintf(buf, size, "%s/%s", ac_env.corpus_raw, f);
}

/** Open a pair (FFmpeg rawvideo layout: ceil-sized chroma). */
static void ac_reader_open(AcReader *r, const AcPair *p)
{
    const unsigned bps = p->bpc > 8 ? 2 : 1;
    const unsigned ssx = p->fmt == VG_PIX_FMT_YUV444P ? 0 : 1;
    const unsigned ssy = p->fmt == VG_PIX_FMT_YUV420P ? 1 : 0;
    const size_t cw = (p->w + ssx) >> ssx, ch = (p->h + ssy) >> ssy;
    const char *names[2] = { p->ref, p->dis };
    char path[AC_PATH_MAX + 64];

    memset(r, 0, sizeof(*r));
    r->stride[0] = (ptrdiff_t)(p->w * bps);
    r->stride[1] = r->stride[2] = (ptrdiff_t)(cw * bps);
    r->plane_off[1] = (size_t)p->w * p->h * bps;
    r->plane_off[2] = r->plane_off[1] + cw * ch * bps;
    r->frame_size = r->plane_off[2] + cw * ch * bps;
    for (int k = 0; k < 2; k++) {
        ac_input_path(path, sizeof(path), p, names[k]);
        r->f[k] = fopen(path, "rb");
        ck_assert_msg(r->f[k] != NULL,
                      "%s: missing input %s (run "
                      "tests/prepare-corpus.sh, or set VG_CORPUS_RAW / "
                      "VG_SHARED_DIR)",
                      p->name, path);
        r->buf[k] = malloc(r->frame_size);
        ck_assert_ptr_nonnull(r->buf[k]);
        r->pic[k].fmt = p->fmt;
        r->pic[k].width = p->w;
        r->pic[k].height = p->h;
        r->pic[k].bitdepth = p->bpc;
        r->pic[k].memory = VG_MEMORY_HOST;
        for (int pl = 0; pl < 3; pl++) {
            r->pic[k].data[pl] = r->buf[k] + r->plane_off[pl];
            r->pic[k].stride[pl] = r->stride[pl];
        }
    }
}

/** Read the next frame of both files; 0 at the end of either. */
static int ac_reader_next(AcReader *r)
{
    for (int k = 0; k < 2; k++)
        if (fread(r->buf[k], 1, r->frame_size, r->f[k]) != r->frame_size)
            return 0;
    return 1;
}

static void ac_reader_close(AcReader *r)
{
    for (int k = 0; k < 2; k++) {
        if (r->f[k])
            fclose(r->f[k]);
        free(r->buf[k]);
    }
}

/**
 * Run every frame of a pair through ctx (features/models already added)
 * and flush. @return the number of frames.
 */
static unsigned ac_run_pair(VgContext *ctx, const AcPair *p)
{
    AcReader r;
    unsigned n = 0;

    ac_reader_open(&r, p);
    while (ac_reader_next(&r)) {
        int ret = vg_submit(ctx, &r.pic[0], &r.pic[1]);
        ck_assert_msg(ret == 0, "%s: vg_submit frame %u: %d", p->name, n, ret);
        n++;
    }
    ac_reader_close(&r);
    ck_assert_int_eq(vg_flush(ctx), 0);
    ck_assert_msg(n == p->frames, "%s: read %u frames, expected %u", p->name, n,
                  p->frames);
    return n;
}

/* ---- goldens ------------------------------------------------------------ */

/** Load golden/hp/<file> (or golden/<file> when hp is 0). */
static json_object *ac_golden_load(const char *file, int hp)
{
    char path[AC_PATH_MAX + 128];
    json_object *j;

    snprintf(path, sizeof(path), "%s/golden/%s%s", ac_env.shared,
             hp ? "hp/" : "", file);
    j = json_object_from_file(path);
    ck_assert_msg(j != NULL, "cannot read golden %s", path);
    return j;
}

/** frames[i].metrics[key] of a golden, or NULL. */
static json_object *ac_golden_frame(json_object *g, unsigned i, const char *key)
{
    json_object *frames, *fr, *metrics, *v;

    if (!json_object_object_get_ex(g, "frames", &frames) ||
        i >= json_object_array_length(frames))
        return NULL;
    fr = json_object_array_get_idx(frames, i);
    if (!json_object_object_get_ex(fr, "metrics", &metrics) ||
        !json_object_object_get_ex(metrics, key, &v))
        return NULL;
    return v;
}

/** pooled_metrics[key][pool] of a golden, or NULL. */
static inline json_object *ac_golden_pooled(json_object *g, const char *key,
                                            const char *pool)
{
    json_object *pm, *k, *v;

    if (!json_object_object_get_ex(g, "pooled_metrics", &pm) ||
        !json_object_object_get_ex(pm, key, &k) ||
        !json_object_object_get_ex(k, pool, &v))
        return NULL;
    return v;
}

/**
 * Compare one value with a golden entry: as doubles (== on the %.17g text
 * parsed by strtod) for hp goldens, as libvmaf's printed text otherwise.
 */
static void ac_compare(VgReport *rep, const char *what, unsigned i,
                       const char *key, double ours, json_object *gold, int hp)
{
    char buf[64];

    if (!gold) {
        vg_report(rep, "%s: frame %u: %s missing from the golden", what, i,
                  key);
        return;
    }
    if (hp) {
        const double g = strtod(json_object_get_string(gold), NULL);
        if (!(ours == g))
            vg_report(rep, "%s: frame %u: %s = %.17g, golden %.17g", what, i,
                      key, ours, g);
    } else {
        vg_output_format_number(buf, sizeof(buf), ours, VG_PRECISION_DEFAULT);
        if (strcmp(buf, json_object_get_string(gold)))
            vg_report(rep, "%s: frame %u: %s = %s, golden %s", what, i, key,
                      buf, json_object_get_string(gold));
    }
}

static VgContext *ac_context(unsigned threads)
{
    const char *backend = getenv("VG_TEST_BACKEND");
    VgConfig cfg = {
        .backend = backend && !strcmp(backend, "cuda") ? VG_BACKEND_CUDA
                                                       : VG_BACKEND_CPU,
        .n_threads = threads,
        .log_level = VG_LOG_WARNING,
    };
    VgContext *ctx = NULL;

    ck_assert_int_eq(vg_context_create(&ctx, &cfg), 0);
    return ctx;
}

#endif /* VG_TESTS_PARITY_API_CORPUS_H */
