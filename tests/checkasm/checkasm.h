/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * What a feature test of checkasm (tests/checkasm/<feat>.c) describes and
 * calls. See checkasm.c for the runner and how to add a feature.
 */

#ifndef VG_TESTS_CHECKASM_CHECKASM_H
#define VG_TESTS_CHECKASM_CHECKASM_H

#include "tests/checkasm/pic.h"

/*
 * The feature tests, one per line of common/features/list.h: the feature
 * FEAT is checked by checkasm_check_FEAT() in tests/checkasm/FEAT.c. A
 * feature of the list without its test does not link.
 */
#define VG_FEATURE(feat, gpu) void checkasm_check_##feat(void);
#include "common/features/list.h"
#undef VG_FEATURE

/** The whole-API cases (tests/checkasm/api.c), after the features. */
void checkasm_check_api(void);

/** A picture size. */
typedef struct CaSize {
    unsigned w, h;
} CaSize;

/** One feature as checkasm runs it. */
typedef struct CaFeature {
    const char *name;      ///< extractor name, as vg_use_feature() takes it
    unsigned min_w, min_h; ///< smallest size the feature accepts
    /** frames per case: enough for every temporal output (big sizes: 3 at most) */
    unsigned frames;
    /**
     * option strings for vg_use_feature(), NULL-terminated; opts[0] is the
     * defaults ("") and is what --bench times
     */
    const char *const *opts;
    /** the feature's own edge sizes (its minimum first), {0, 0}-terminated */
    const CaSize *sizes;
    /**
     * Optional: 1 for the cases the feature refuses (a depth, a layout, a
     * chroma plane too small); there every backend must refuse the first
     * frame with the same error, and nothing is compared.
     */
    int (*refuses)(enum VgPixFmt fmt, unsigned bpc, unsigned w, unsigned h);
    /** 1: the feature refuses 4:0:0 (it needs chroma); those cases are skipped */
    int needs_chroma;
    /**
     * Optional: fills the frame pair instead of ca_frame_fill() (which it
     * may call), for content the patterns do not give the feature.
     */
    void (*fill)(CaFrame *fr, enum CaPattern pat, unsigned frame,
                 uint64_t *rng);
} CaFeature;

/**
 * A CaFeature's first fields: extractor name, smallest size, frames per
 * case, and the tables <prefix>_opts and <prefix>_sizes.
 */
#define CA_FEATURE(feat, prefix, w, h, n_frames)                               \
    .name = feat, .min_w = w, .min_h = h, .frames = n_frames,                  \
    .opts = prefix##_opts, .sizes = prefix##_sizes

/**
 * Run the case matrix of feature f (bit depths x layouts x sizes x
 * patterns x pitches x memory x option sets) on the CPU backend and on
 * the CUDA backend (or, with --cpu-only, on the CPU with and without
 * threads), comparing every output of every frame bit for bit; with
 * --bench, time f alone in each CPU build and on the GPU instead (with
 * --builds, nothing: see ca_check_builds()). Failures are counted and
 * printed by the runner.
 */
void ca_check_feature(const CaFeature *f);

/**
 * One comparison of the CPU backend's builds (C, AVX2, AVX-512: the
 * CPU-flags mask of common/cpu.h): 4:2:0 frame pairs of every size, depth
 * and pattern scored on the calling thread by each build this processor
 * runs, in a fresh context each, and the outputs `keys` (with `suffix`
 * appended) compared bit for bit with the C build's.
 */
typedef struct CaBuilds {
    const char *name;        ///< extractor name
    const char *opts;        ///< option string, NULL for the defaults
    const char *const *keys; ///< outputs compared, NULL-terminated
    const char *suffix;      ///< appended to every key, or NULL
    const CaSize *sizes;     ///< {0, 0}-terminated
    const unsigned *depths;  ///< bit depths, 0-terminated
    unsigned frames;         ///< frames per case (0: 2)
    /**
     * Optional: fills frame pair t with pattern pat (0..patterns - 1)
     * instead of ca_frame_fill_builds() (patterns: CA_BPAT_NB)
     */
    void (*fill)(CaFrame *fr, unsigned pat, unsigned t);
    unsigned patterns;
} CaBuilds;

/**
 * Run the builds comparison b (with --builds); with --bench, nothing
 * (the CPU builds are timed by ca_check_feature()).
 */
void ca_check_builds(const CaBuilds *b);

/* ---- for tests that run their own cases (api.c) ---- */

/** The log callback of the runner's contexts (opaque: a label). */
void ca_log(void *opaque, enum VgLogLevel level, const char *msg);

/** The caller's CUDA set-up of the GPU mode, else NULL. */
const BenchCuda *ca_cuda(void);

/** --seed, --verbose, --quick and --sample (1 without it). */
uint64_t ca_run_seed(void);
int ca_verbose(void);
int ca_quick(void);
unsigned ca_sample(void);

/** Add a test's own cases to the runner's totals. */
void ca_count_cases(unsigned passed, unsigned failed,
                    unsigned long long values);

#endif /* VG_TESTS_CHECKASM_CHECKASM_H */
