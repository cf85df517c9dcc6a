/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Model files (common/model.c: libvmaf's JSON models and the libsvm text
 * inside them) on any input.
 *
 * Input: one that starts with '{' is a model file; any other input is the
 * libsvm text of a three-feature model (the "model" string of the small
 * model of fuzz_util.h), so that the libsvm parser sees bytes the fuzzer
 * chose directly. The input's length picks the specification's flags.
 *
 * The model is loaded through the public API (vg_use_model() with
 * path=FILE on a context); when it loads, two 48x48 frames are scored and
 * the model's pooled scores read, then it is loaded again through
 * vg_model_load() and predicts on three fixed feature vectors (with the
 * bootstrap outputs of a collection). Checked: no memory error, leak or
 * undefined behaviour; a refused model has logged an error line.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/model.h"
#include "tests/fuzz/fuzz_util.h"

#define W 48
#define H 48

static FuzzFile file;
static uint8_t ref_y[W * H], dis_y[W * H], ref_c[W * H / 4], dis_c[W * H / 4];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    uint32_t r = 1;

    fuzz_file_init(&file, "fuzz_model");
    for (unsigned i = 0; i < W * H; i++) {
        r = r * 1103515245 + 12345;
        ref_y[i] = (uint8_t)(16 + (i % W) * 4 + (i / W));
        dis_y[i] = (uint8_t)(ref_y[i] + (r >> 16) % 9 - 4);
    }
    for (unsigned i = 0; i < W * H / 4; i++) {
        ref_c[i] = (uint8_t)(128 + i % 7);
        dis_c[i] = (uint8_t)(127 + i % 5);
    }
    return 0;
}

/** The libsvm text as the "model" string of the small model. */
static char *wrap_svm(const uint8_t *data, size_t size)
{
    json_object *top = json_tokener_parse(fuzz_model_single), *md = NULL;
    char *out;

    if (!top || !json_object_object_get_ex(top, "model_dict", &md))
        fuzz_fail("the small model does not parse");
    json_object_object_add(
        md, "model", json_object_new_string_len((const char *)data, (int)size));
    out = strdup(json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN));
    json_object_put(top);
    if (!out)
        fuzz_fail("out of memory");
    return out;
}

static void score(VgContext *ctx, FuzzLog *log)
{
    const VgPicture ref = {
        .fmt = VG_PIX_FMT_YUV420P,
        .width = W,
        .height = H,
        .bitdepth = 8,
        .data = { ref_y, ref_c, ref_c },
        .stride = { W, W / 2, W / 2 },
    };
    VgPicture dis = ref;
    double v;

    dis.data[0] = dis_y;
    dis.data[1] = dis.data[2] = dis_c;
    for (int i = 0; i < 2; i++) {
        unsigned n = log->n_error;
        fuzz_check_logged(log, n, vg_submit(ctx, &ref, &dis), "vg_submit", "");
    }
    fuzz_check_logged(log, log->n_error, vg_flush(ctx), "vg_flush", "");
    for (unsigned i = 0; i < vg_metric_count(ctx); i++) {
        const char *name = vg_metric_name(ctx, i);
        vg_get_score(ctx, name, 1, &v);
        vg_get_pooled(ctx, name, VG_POOL_HARMONIC_MEAN, &v);
    }
}

static void predict(const char *spec)
{
    VgModel *m = NULL;
    VgLog log;
    FuzzLog cap = { 0 };
    const VgModelInfo *info;
    double x[VG_MODEL_MAX_FEATURES], s;
    VgBootstrapScores b;

    vg_log_init(&log, fuzz_log_cb, &cap, VG_LOG_DEBUG);
    if (vg_model_load(&m, spec, &log) < 0) {
        /* the same file loaded through vg_use_model() */
        fuzz_fail("vg_model_load() refused what vg_use_model() took");
    }
    info = vg_model_info(m);
    for (int k = 0; k < 3; k++) {
        for (unsigned i = 0; i < info->n_features; i++)
            x[i] = k == 0 ? 0.0 : k == 1 ? 0.5 + 0.1 * i : 1e3 * (i + 1);
        vg_model_predict(m, x, &s);
        if (info->is_collection)
            vg_model_predict_bootstrap(m, x, &b);
    }
    vg_model_free(&m);
    vg_log_uninit(&log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const flags[] = {
        "",
        ":disable_clip",
        ":enable_transform",
        ":name=m:enable_transform:disable_clip",
    };
    char spec[128];
    char *wrapped = NULL;
    FuzzLog log = { 0 };
    VgContext *ctx;
    int ret;

    if (size && data[0] == '{') {
        fuzz_file_set(&file, data, size);
    } else {
        wrapped = wrap_svm(data, size);
        fuzz_file_set(&file, wrapped, strlen(wrapped));
        free(wrapped);
    }
    snprintf(spec, sizeof(spec), "path=%s%s", file.path, flags[size % 4]);

    ctx = fuzz_context(&log);
    ret = vg_use_model(ctx, spec);
    fuzz_check_logged(&log, 0, ret, "vg_use_model", spec);
    if (ret == 0) {
        for (unsigned i = 0; i < vg_model_count(ctx); i++) {
            const char *name = vg_model_name(ctx, i);
            const char *src = vg_model_source(ctx, i);
            if (!name || !src || strlen(name) + strlen(src) == 0)
                fuzz_fail("model %u has no name or source", i);
            vg_model_is_collection(ctx, i);
        }
        score(ctx, &log);
    }
    vg_context_destroy(&ctx);
    if (ret == 0)
        predict(spec);
    return 0;
}
