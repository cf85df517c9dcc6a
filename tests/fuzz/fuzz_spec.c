/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Model specifications and feature option strings (vg_use_model(),
 * vg_use_feature(): common/model.c parse_spec(), common/opt.c, the
 * feature registration of common/context.c) on any input.
 *
 * Input: lines, each one call on one context, as the vmafgpu tool makes
 * them from --model and --feature:
 *   m SPEC            vg_use_model(SPEC), e.g. "m version=vmaf_v0.6.1:
 *                     name=a:vif.vif_enhn_gain_limit=1.0"
 *   f NAME[ OPTIONS]  vg_use_feature(NAME, OPTIONS or NULL), e.g.
 *                     "f vif vif_enhn_gain_limit=1.0:debug"
 * other lines are ignored. A path= loads one of the small files of
 * fuzz_util.h (fuzz_spec_paths()); version= the built-in models.
 * After the calls, the context's models and metrics are listed, the
 * context is flushed without frames and every metric's pooled score
 * asked for. Checked: no memory error, leak or undefined behaviour; a
 * refused call has logged an error line.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_util.h"

/** Calls per input (the library takes at most 16 models, 64 features). */
#define MAX_CALLS 96

static FuzzPaths paths;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_paths_init(&paths);
    return 0;
}

static void call(VgContext *ctx, FuzzLog *log, char *line)
{
    unsigned n = log->n_error;
    int ret;

    if (line[0] == 'm' && line[1] == ' ') {
        char *spec = fuzz_spec_paths(&paths, line + 2);
        ret = vg_use_model(ctx, spec);
        fuzz_check_logged(log, n, ret, "vg_use_model", spec);
        free(spec);
    } else if (line[0] == 'f' && line[1] == ' ') {
        char *name = line + 2, *opts = strchr(name, ' ');
        if (opts)
            *opts++ = '\0';
        ret = vg_use_feature(ctx, name, opts);
        fuzz_check_logged(log, n, ret, "vg_use_feature", name);
    }
}

/** What a caller reads after set-up: names, and results without frames. */
static void read_back(VgContext *ctx)
{
    double v;

    for (unsigned i = 0; i < vg_model_count(ctx); i++) {
        if (!vg_model_name(ctx, i) || !vg_model_source(ctx, i))
            fuzz_fail("model %u has no name or source", i);
        vg_model_is_collection(ctx, i);
    }
    vg_flush(ctx);
    for (unsigned i = 0; i < vg_metric_count(ctx); i++) {
        const char *name = vg_metric_name(ctx, i);
        if (!name)
            fuzz_fail("metric %u has no name", i);
        vg_get_pooled(ctx, name, VG_POOL_MEAN, &v);
        vg_get_score(ctx, name, 0, &v);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_strndup(data, size), *p = text, *line;
    FuzzLog log = { 0 };
    VgContext *ctx = fuzz_context(&log);
    unsigned calls = 0;

    while ((line = strsep(&p, "\n")) && calls++ < MAX_CALLS)
        call(ctx, &log, line);
    read_back(ctx);
    vg_context_destroy(&ctx);
    free(text);
    return 0;
}
