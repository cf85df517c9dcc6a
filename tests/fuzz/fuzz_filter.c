/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The FFmpeg filter's option values as they reach the library
 * (libavfilter/vf_vmafgpu.c init_library(), use_models(), use_features())
 * on any input, without FFmpeg.
 *
 * Input: up to three lines: the value of model=, the value of feature=,
 * and "N_THREADS N_SUBSAMPLE" (outside the options' ranges, 0..1024 and
 * 1..INT_MAX, the input is skipped: FFmpeg refuses it before the filter
 * starts). As the filter does, the context is created from the numbers;
 * model= is split at '|' (av_strtok(): empty pieces dropped) and each
 * piece given to vg_use_model(); feature= is split at '|', each piece
 * parsed as av_dict_parse_string(piece, "=", ":", 0) parses it (below),
 * name= taken out and the rest joined as "key=value:..." for
 * vg_use_feature(). The first refusal ends the set-up, as in the filter.
 * A path= loads one of the small files of fuzz_util.h.
 * Checked: no memory error, leak or undefined behaviour; a refused call
 * has logged an error line.
 */

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tests/fuzz/fuzz_util.h"

static FuzzPaths paths;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_paths_init(&paths);
    return 0;
}

/* ---- FFmpeg's dictionary string syntax, as libavutil documents it ------ */

/** Ordered key/value pairs; keys compare case-insensitively (av_dict_set()
 *  without AV_DICT_MATCH_CASE: a repeated key removes the earlier entry,
 *  whose place the last entry takes, and goes to the end). */
typedef struct Dict {
    unsigned n;
    char *key[64], *val[64];
} Dict;

static void dict_free(Dict *d)
{
    for (unsigned i = 0; i < d->n; i++) {
        free(d->key[i]);
        free(d->val[i]);
    }
    d->n = 0;
}

static int dict_set(Dict *d, char *key, char *val)
{
    for (unsigned i = 0; i < d->n; i++) {
        if (!strcasecmp(d->key[i], key)) {
            free(d->key[i]);
            free(d->val[i]);
            d->n--;
            d->key[i] = d->key[d->n];
            d->val[i] = d->val[d->n];
            break;
        }
    }
    if (d->n == 64) {
        free(key);
        free(val);
        return -ENOMEM;
    }
    d->key[d->n] = key;
    d->val[d->n++] = val;
    return 0;
}

/**
 * av_get_token(): skip leading white space; read up to an unescaped,
 * unquoted character of term; '\\' takes the next character literally,
 * '...' quotes; trailing white space that is neither escaped nor quoted
 * is dropped.
 */
static char *get_token(const char **buf, const char *term)
{
    const char *p = *buf + strspn(*buf, " \n\t\r");
    char *out = malloc(strlen(p) + 1);
    size_t n = 0, keep = 0;

    if (!out)
        fuzz_fail("out of memory");
    while (*p && !strchr(term, *p)) {
        char c = *p++;
        if (c == '\\' && *p) {
            out[n++] = *p++;
            keep = n;
        } else if (c == '\'') {
            while (*p && *p != '\'')
                out[n++] = *p++;
            if (*p) {
                p++;
                keep = n;
            }
        } else {
            out[n++] = c;
        }
    }
    while (n > keep && strchr(" \n\t\r", out[n - 1]))
        n--;
    out[n] = '\0';
    *buf = p;
    return out;
}

/** av_dict_parse_string(str, "=", ":", 0). */
static int dict_parse(Dict *d, const char *str)
{
    while (*str) {
        char *key = get_token(&str, "="), *val = NULL;
        int ret;

        if (*key && *str == '=') {
            str++;
            val = get_token(&str, ":");
        }
        if (!*key || !val || !*val) {
            free(key);
            free(val);
            return -EINVAL;
        }
        if ((ret = dict_set(d, key, val)) < 0)
            return ret;
        if (*str)
            str++;
    }
    return 0;
}

/* ---- the filter's set-up ------------------------------------------------ */

static int use_models(VgContext *ctx, FuzzLog *log, char *cfg)
{
    char *save = NULL;

    for (char *spec = strtok_r(cfg, "|", &save); spec;
         spec = strtok_r(NULL, "|", &save)) {
        char *s = fuzz_spec_paths(&paths, spec);
        unsigned n = log->n_error;
        int ret = vg_use_model(ctx, s);

        fuzz_check_logged(log, n, ret, "vg_use_model", s);
        free(s);
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int use_features(VgContext *ctx, FuzzLog *log, char *cfg)
{
    char *save = NULL;
    Dict dict = { 0 };
    int ret = 0;

    for (char *spec = strtok_r(cfg, "|", &save); spec;
         spec = strtok_r(NULL, "|", &save)) {
        const char *name = NULL;
        char *opts;
        size_t len = 1;
        unsigned n;

        dict_free(&dict);
        if ((ret = dict_parse(&dict, spec)) < 0)
            break; /* the filter's own message */
        for (unsigned i = 0; i < dict.n; i++)
            len += strlen(dict.key[i]) + strlen(dict.val[i]) + 2;
        if (!(opts = malloc(len)))
            fuzz_fail("out of memory");
        opts[0] = '\0';
        for (unsigned i = 0; i < dict.n; i++) {
            if (!strcmp(dict.key[i], "name")) {
                name = dict.val[i];
                continue;
            }
            sprintf(opts + strlen(opts), "%s%s=%s", opts[0] ? ":" : "",
                    dict.key[i], dict.val[i]);
        }
        if (!name) {
            free(opts);
            ret = -EINVAL; /* the filter's own message */
            break;
        }
        n = log->n_error;
        ret = vg_use_feature(ctx, name, opts);
        fuzz_check_logged(log, n, ret, "vg_use_feature", name);
        free(opts);
        if (ret < 0)
            break;
    }
    dict_free(&dict);
    return ret;
}

static int parse_int(const char *s, long min, long max, long *v)
{
    char *end;

    errno = 0;
    *v = strtol(s, &end, 10);
    return !errno && end != s && *v >= min && *v <= max ? 0 : -EINVAL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_strndup(data, size), *p = text;
    char *model = strsep(&p, "\n"), *feature = strsep(&p, "\n");
    char *nums = strsep(&p, "\n"), *sub;
    long threads = 0, subsample = 1;
    FuzzLog log = { 0 };
    VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .log_level = VG_LOG_DEBUG,
        .log_cb = fuzz_log_cb,
        .log_opaque = &log,
    };
    VgContext *ctx = NULL;
    int ret;

    if (nums) {
        sub = strchr(nums, ' ');
        if (!sub || parse_int(nums, 0, 1024, &threads) < 0 ||
            parse_int(sub + 1, 1, INT_MAX, &subsample) < 0) {
            free(text);
            return -1;
        }
    }
    cfg.n_threads = (unsigned)threads;
    cfg.n_subsample = (unsigned)subsample;
    ret = vg_context_create(&ctx, &cfg);
    fuzz_check_logged(&log, 0, ret, "vg_context_create", nums);
    if (ret == 0) {
        if (use_models(ctx, &log, model) == 0 && feature)
            use_features(ctx, &log, feature);
        vg_context_destroy(&ctx);
    }
    free(text);
    return 0;
}
