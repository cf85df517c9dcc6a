/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Shared by the libFuzzer harnesses (tests/fuzz/run.sh builds them):
 * an in-memory file that the readers open by path, a log callback that
 * counts error lines, and the check that fails a harness with a message.
 */

#ifndef VG_TESTS_FUZZ_UTIL_H
#define VG_TESTS_FUZZ_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmafgpu.h"

/** A failed harness invariant: report it on the fuzzer's stderr and abort,
 *  which libFuzzer records as a crash with the input that caused it. */
static inline void __attribute__((noreturn, format(printf, 1, 2)))
fuzz_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    dprintf(2, "fuzz: invariant failed: ");
    vdprintf(2, fmt, ap);
    dprintf(2, "\n");
    va_end(ap);
    abort();
}

/** An anonymous in-memory file, reachable as path "/proc/self/fd/N". */
typedef struct FuzzFile {
    int fd;
    char path[64];
} FuzzFile;

static inline void fuzz_file_init(FuzzFile *f, const char *name)
{
    f->fd = memfd_create(name, 0);
    if (f->fd < 0)
        fuzz_fail("memfd_create failed");
    snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
}

/** Replace the file's contents with data[0..size). */
static inline void fuzz_file_set(FuzzFile *f, const void *data, size_t size)
{
    const uint8_t *p = data;

    if (ftruncate(f->fd, 0) < 0)
        fuzz_fail("ftruncate failed");
    for (size_t done = 0; done < size;) {
        ssize_t n = pwrite(f->fd, p + done, size - done, (off_t)done);
        if (n <= 0)
            fuzz_fail("pwrite failed");
        done += (size_t)n;
    }
}

/** What the library logged during one call. */
typedef struct FuzzLog {
    unsigned n_error;
    size_t bytes;
} FuzzLog;

static inline void fuzz_log_cb(void *opaque, enum VgLogLevel level,
                               const char *msg)
{
    FuzzLog *l = opaque;

    if (level == VG_LOG_ERROR)
        l->n_error++;
    l->bytes += strlen(msg); /* the sanitizers check the message's end */
}

/** A context on the CPU backend that logs everything to fuzz_log_cb. */
static inline VgContext *fuzz_context(FuzzLog *log)
{
    VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .log_level = VG_LOG_DEBUG,
        .log_cb = fuzz_log_cb,
        .log_opaque = log,
    };
    VgContext *ctx = NULL;

    if (vg_context_create(&ctx, &cfg) < 0)
        fuzz_fail("vg_context_create failed");
    return ctx;
}

/**
 * The library's contract: a call that fails has logged an error line.
 * n_before is log->n_error before the call.
 */
static inline void fuzz_check_logged(const FuzzLog *log, unsigned n_before,
                                     int ret, const char *call, const char *arg)
{
    if (ret < 0 && log->n_error == n_before)
        fuzz_fail("%s(\"%.200s\") returned %d without an error message", call,
                  arg ? arg : "", ret);
    if (ret > 0)
        fuzz_fail("%s(\"%.200s\") returned %d", call, arg ? arg : "", ret);
}

/** data[0..size) as a NUL-terminated string (free() it). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);

    if (!s)
        fuzz_fail("out of memory");
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/*
 * Small models, written for the harnesses (corpus/model/single.json and
 * collection.json are variants): what a path= of a fuzzed specification
 * loads (fuzz_spec_paths()), and the template whose libsvm text the model
 * harness replaces. Three features with libvmaf's option dictionaries,
 * rescaling, clip and transform; the collection has a main model "0" and
 * two members.
 */
#define FUZZ_MODEL_DICT(type)                                                  \
    "{\"model_dict\": {\"model_type\": \"" type "\", "                         \
    "\"norm_type\": \"linear_rescale\", \"feature_names\": "                   \
    "[\"VMAF_integer_feature_adm2_score\", "                                   \
    "\"VMAF_integer_feature_motion2_score\", "                                 \
    "\"VMAF_integer_feature_vif_scale0_score\"], "                             \
    "\"feature_opts_dicts\": [{\"adm_enhn_gain_limit\": 1.0}, {}, "            \
    "{\"vif_enhn_gain_limit\": 1.0}], "                                        \
    "\"slopes\": [0.012, 2.81, 0.0626, 1.22], "                                \
    "\"intercepts\": [-0.309, -1.80, -0.003, -0.173], "                        \
    "\"score_clip\": [0.0, 100.0], \"score_transform\": {\"p0\": 1.707, "      \
    "\"p1\": 1.726, \"p2\": -0.00705, \"out_gte_in\": \"true\"}, "             \
    "\"model\": \"" FUZZ_SVM_JSON "\"}}"
#define FUZZ_SVM_JSON                                                          \
    "svm_type nu_svr\\nkernel_type rbf\\ngamma 0.04\\nnr_class 2\\n"           \
    "total_sv 3\\nrho -1.33133\\nSV\\n-4 1:0.657 2:0.347 3:0.094 \\n"          \
    "4 1:0.873 2:0.496 3:0.591 \\n4 1:0.204 3:0.105 \\n"

static const char fuzz_model_single[] = FUZZ_MODEL_DICT("LIBSVMNUSVR");
static const char fuzz_model_collection[] = "{\"0\": " FUZZ_MODEL_DICT(
    "BOOTSTRAP_LIBSVMNUSVR") ", "
                             "\"1\": " FUZZ_MODEL_DICT(
                                 "BOOTSTRAP_LIBSVMNUSVR") ", "
                                                          "\"2\": " FUZZ_MODEL_DICT(
                                                              "BOOTSTRAP_LIBSVMNUSVR") "}";

/** The files a fuzzed path= may name: the two models above, an empty file
 *  and one that does not exist. */
typedef struct FuzzPaths {
    FuzzFile single, collection, empty;
} FuzzPaths;

static inline void fuzz_paths_init(FuzzPaths *p)
{
    fuzz_file_init(&p->single, "model_single");
    fuzz_file_set(&p->single, fuzz_model_single, strlen(fuzz_model_single));
    fuzz_file_init(&p->collection, "model_collection");
    fuzz_file_set(&p->collection, fuzz_model_collection,
                  strlen(fuzz_model_collection));
    fuzz_file_init(&p->empty, "model_empty");
}

/**
 * A model specification with every path= value (the ':'-separated items
 * that the library reads as path=, see common/model.c parse_spec())
 * replaced by one of the files of p, chosen by the value's first byte, so
 * that a fuzzed specification never reads other files (or blocks on a
 * device or a pipe). @return a new string (free() it).
 */
static inline char *fuzz_spec_paths(const FuzzPaths *p, const char *spec)
{
    size_t n = strlen(spec), len = 0;
    char *out = malloc(n + 64 * (n / 6 + 1) + 1);
    const char *s = spec;

    if (!out)
        fuzz_fail("out of memory");
    for (;;) {
        const char *end = strchr(s, ':');
        size_t item = end ? (size_t)(end - s) : strlen(s);

        if (item >= 5 && !memcmp(s, "path=", 5)) {
            const char *path;
            switch (item > 5 ? (unsigned char)s[5] % 4 : 3) {
            case 0:
                path = p->single.path;
                break;
            case 1:
                path = p->collection.path;
                break;
            case 2:
                path = p->empty.path;
                break;
            default:
                path = "/nonexistent/model.json";
                break;
            }
            len += (size_t)sprintf(out + len, "path=%s", path);
        } else {
            memcpy(out + len, s, item);
            len += item;
        }
        if (!end)
            break;
        out[len++] = ':';
        s = end + 1;
    }
    out[len] = '\0';
    return out;
}

#endif /* VG_TESTS_FUZZ_UTIL_H */
