/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Feature descriptors: each feature is declared once, in its home
 * common/features/<feat>.{c,h} (name, options, outputs, flags, the
 * backend-independent finish), listed once in common/features/list.h, and
 * implemented per backend (cpu/<feat>.c, gpu/<feat>.{c,cu}). Every
 * backend's implementation table is typed from the prototypes below.
 */

#ifndef VG_COMMON_FEATURE_H
#define VG_COMMON_FEATURE_H

#include <stddef.h>
#include <stdint.h>

#include "common/image.h"
#include "common/log.h"

enum VgOptType {
    VG_OPT_BOOL,
    VG_OPT_INT,
    VG_OPT_DOUBLE,
    /** One of the names in `values`, stored as its index (an int);
     *  libvmaf's string options that take a fixed set of words. */
    VG_OPT_ENUM,
    /** Free text, stored in a char[VG_OPT_STRING_MAX] of the options
     *  struct; "" (the default) means unset. */
    VG_OPT_STRING,
};

/** Size of a VG_OPT_STRING value, its terminating NUL included. */
#define VG_OPT_STRING_MAX 1024

/**
 * One option of a feature; values live in the feature's options struct.
 * Tables are written with designated initialisers, one field per name.
 */
typedef struct VgFeatureOption {
    const char *name;  ///< option name as users type it (libvmaf's)
    const char *alias; ///< short name used in output keys (libvmaf's), or NULL
    enum VgOptType type;
    size_t offset; ///< offset in the options struct
    double def, min, max;
    int feature_param; ///< non-default values rename the outputs (libvmaf VMAF_OPT_FLAG_FEATURE_PARAM)
    const char *help;
    const char *const *
        values; ///< VG_OPT_ENUM: the accepted names, NULL-terminated; def is an index
} VgFeatureOption;

/** Feature flags. */
enum {
    /** Needs the previous reference pictures (n-1, n-2): see VgFrame. */
    VG_FEATURE_PREV_REF = 1 << 0,
    /** Runs on every frame even with n_subsample (libvmaf TEMPORAL/PREV_REF). */
    VG_FEATURE_EVERY_FRAME = 1 << 1,
    /** Reads chroma planes. */
    VG_FEATURE_CHROMA = 1 << 2,
    /** Needs the previous distorted picture (n-1) too: see VgFrame. */
    VG_FEATURE_PREV_DIS = 1 << 3,
    /**
     * Every output depends on the reference pictures alone (and the
     * options): a ladder (VgConfig.n_distorted) computes the feature for
     * its first rendition only, and every value it emits is written to the
     * other renditions too (VgFeatureSink). Only for features without
     * per-frame records (frame_record_size 0).
     */
    VG_FEATURE_REF_ONLY = 1 << 4,
    /**
     * Part of the work depends on the reference pictures alone (the
     * feature's home says which): in a ladder, a backend that implements
     * it (gpu/core/feature.h ref_stage_size) computes that part for
     * rendition 0 and the other renditions read it.
     */
    VG_FEATURE_REF_STAGE = 1 << 5,
};

/** Output of a feature. */
typedef struct VgFeatureOutput {
    const char *
        name; ///< libvmaf's provided name (VMAF_integer_feature_vif_scale0_score)
    const char
        *alias; ///< printed name (integer_vif_scale0), or NULL to print `name`
    int debug_only; ///< VG_OUTPUT_* flags (0: always written)
} VgFeatureOutput;

/** VgFeatureOutput.debug_only flags. */
enum {
    /** Only written with debug=true (1 in older tables). */
    VG_OUTPUT_DEBUG = 1 << 0,
    /**
     * Printed without the feature-param suffixes: a name libvmaf emits but
     * does not list in its provided features.
     */
    VG_OUTPUT_NO_PARAMS = 1 << 1,
    /**
     * A per-frame value kept for the feature's post() only (the context's
     * scratch collector), never printed, pooled or resolved by a model.
     */
    VG_OUTPUT_INTERNAL = 1 << 2,
};

/** 1 if output `out` of `d` is internal. */
#define VG_OUTPUT_IS_INTERNAL(d, out)                                          \
    (((d)->outputs[out].debug_only & VG_OUTPUT_INTERNAL) != 0)

typedef struct VgFeatureCtx VgFeatureCtx;

/**
 * Another place a feature instance's emitted values go: the same instance
 * in another rendition of a ladder, which does not compute it
 * (VG_FEATURE_REF_ONLY).
 */
typedef struct VgFeatureSink {
    struct VgCollector *collector;
    struct VgCollector *scratch;
    const int *keys; ///< that rendition's keys of the outputs
} VgFeatureSink;

/** The pictures one extract call sees (all in the backend's memory). */
typedef struct VgFrame {
    unsigned index;
    const VgImage *ref;
    const VgImage *dis;
    const VgImage *prev_ref; ///< reference n-1 (PREV_REF only), NULL at n = 0
    const VgImage
        *prev_prev_ref;      ///< reference n-2 (PREV_REF only), NULL at n < 2
    const VgImage *prev_dis; ///< distorted n-1 (PREV_DIS only), NULL at n = 0
    /**
     * In a ladder, the frame's entry of the feature's reference stage
     * (VG_FEATURE_REF_STAGE, VgFeatureImpl.ref_stage_size bytes):
     * rendition 0 writes it (stage_role VG_STAGE_WRITE) while computing
     * its frame, the others read it (VG_STAGE_READ) instead of computing
     * it. NULL (and 0) outside a ladder.
     */
    void *stage;
    int stage_role;
} VgFrame;

/** VgFrame.stage_role */
enum {
    VG_STAGE_WRITE = 1,
    VG_STAGE_READ = 2,
};

/*
 * The prototypes every backend's implementation table is typed from: a
 * callback of the wrong shape fails to compile (-Werror=incompatible-
 * pointer-types).
 */
/** Initialise one state (fc->priv is zeroed). @return 0 or negative errno. */
typedef int VgFeatureInitFn(VgFeatureCtx *fc);
/** Release what init allocated; runs after a failed init too. */
typedef void VgFeatureCloseFn(VgFeatureCtx *fc);
/** End of stream, after every frame's work. @return 0 or negative errno. */
typedef int VgFeatureFlushFn(VgFeatureCtx *fc);
/** Compute and emit one frame's outputs. @return 0 or negative errno. */
typedef int VgFeatureExtractFn(VgFeatureCtx *fc, const VgFrame *frame);

/**
 * The reference (CPU) implementation of a feature, cpu/<feat>.c.
 * init/close run once per worker state; extract may run for different
 * frames concurrently on different states (never on the same state);
 * flush runs once, on the caller, after all extract calls.
 */
typedef struct VgFeatureImpl {
    size_t priv_size;
    VgFeatureInitFn *init;
    VgFeatureExtractFn *extract;
    VgFeatureFlushFn *flush;
    VgFeatureCloseFn *close;
    /**
     * Optional, for features with VG_FEATURE_REF_STAGE: the bytes of the
     * results that depend on the reference alone (VgFrame.stage), asked
     * of an initialised state; 0 when these options leave nothing to
     * share (the feature then runs per rendition).
     */
    size_t (*ref_stage_size)(const VgFeatureCtx *fc);
} VgFeatureImpl;

/** A feature, declared once for all backends. */
typedef struct VgFeatureDesc {
    unsigned id; ///< VG_FEATURE_ID_<name> (common/features/list.h)
    /** extractor name (libvmaf's): "vif", "adm", "motion", "psnr" */
    const char *name;
    const VgFeatureOption *options; ///< terminated by { NULL }
    size_t opts_size;               ///< size of the options struct
    const VgFeatureOutput *outputs; ///< terminated by { NULL }
    /**
     * Optional: 1 if output `out` is written with these options. Without
     * it, every output is written except debug_only ones when the
     * feature's "debug" option is off.
     */
    int (*outputs_used)(const void *opts, unsigned out);
    unsigned flags;
    /** Smallest luma width/height accepted (0 = 1). */
    unsigned min_width, min_height;
    /** Bit depths accepted, as a mask of 1 << bpc (0 = every one). */
    uint32_t bit_depths;
    /**
     * Backend-independent post-processing of emitted values, run by the
     * context on the calling thread (e.g. motion2/motion3 from the SAD):
     * n_done = leading frames whose extract has finished on every backend,
     * final = 1 at end of stream. Emits what has become final. Optional.
     * Its VgFeatureCtx has priv = post_priv_size bytes, zeroed, kept for
     * the whole stream.
     */
    int (*post)(VgFeatureCtx *fc, unsigned n_done, int final);
    size_t post_priv_size;
    /**
     * Optional: refuse a combination of option values that each lie in
     * their range but that the feature cannot compute (logged, negative
     * errno). vg_opt_apply() runs it, so a bad combination fails when the
     * options are set, not at the first frame.
     */
    int (*check_opts)(const void *opts, VgLog *log);
    /**
     * Optional: bytes of a per-frame record (common/framestore.h) that the
     * extract of every backend writes and post reads; 0 = none.
     */
    size_t frame_record_size;
    /**
     * Optional: how many frames before frame n its values read (the lead-in
     * a run of frames that does not start at 0 must submit first, see
     * vg_chunk_lead_in()). Without it: 1 with VG_FEATURE_PREV_REF or
     * VG_FEATURE_PREV_DIS, else 0.
     */
    unsigned (*lead_in)(const void *opts);
} VgFeatureDesc;

/**
 * A descriptor's identity, from the feature's name: its id, its name and
 * its outputs table, <name>_outputs. VG_FEATURE_OPTIONS() adds its
 * options table, <name>_options, and the size of its options struct.
 */
#define VG_FEATURE_DESC(feat)                                                  \
    .id = VG_FEATURE_ID_##feat, .name = #feat, .outputs = feat##_outputs
#define VG_FEATURE_OPTIONS(feat, type)                                         \
    .options = feat##_options, .opts_size = sizeof(type)

/** Per-instance state handed to implementations. */
struct VgFeatureCtx {
    const VgFeatureDesc *desc;
    const void *opts;       ///< filled options struct (desc->opts_size bytes)
    void *priv;             ///< impl->priv_size bytes, zeroed
    unsigned width, height; ///< luma size
    unsigned bpc;           ///< bit depth
    enum VgImageLayout layout; ///< chroma layout of the pictures the impl sees
    unsigned n_subsample;
    VgLog *log;
    /** Collector keys of desc->outputs (index-aligned); -1 if not written. */
    int *keys;
    struct VgCollector *collector;
    /** Per-frame records of this instance (desc->frame_record_size), or NULL. */
    struct VgFrameStore *store;
    struct VgCollector *scratch; ///< where internal outputs are kept
    void *backend;               ///< backend handle (gpu/: the device services)
    /** where each emitted value is written too (a ladder's shared feature;
     * the engine's states only, never the post step's) */
    const VgFeatureSink *sinks;
    unsigned n_sinks;
    /** in a ladder, the number of its renditions (0 outside one) and the
     *  instance's rendition (VgEngineParams) */
    unsigned n_renditions, rendition;
};

/**
 * Write output `out` (index in desc->outputs) of frame `index`, and to
 * fc->sinks. Thread-safe. Ignores debug-only outputs when debug is off
 * (keys[out] < 0).
 */
int vg_feature_emit(VgFeatureCtx *fc, unsigned out, unsigned index,
                    double value);

/** Read back an output value already emitted (for flush-time computations). */
int vg_feature_read(VgFeatureCtx *fc, unsigned out, unsigned index,
                    double *value);

/**
 * A ladder's twin of the instance fcs[f] among another rendition's
 * instances src[0 .. n_src): the k-th instance of the same feature there
 * when fcs[f] is the k-th here (a feature may run twice with other
 * options, and the renditions are set up by the same calls), if its
 * options are the same. @return its index in src, or -1
 */
int vg_feature_ctx_twin(const VgFeatureCtx *fcs, unsigned f,
                        const VgFeatureCtx *src, unsigned n_src);

/** Append name to the comma-separated list in buf (size bytes) if it fits. */
void vg_feature_names_add(char *buf, size_t size, const char *name);

/** @return the registered feature with this extractor name, or NULL. */
const VgFeatureDesc *vg_feature_find(const char *name);

/** @return the feature providing this libvmaf output name, or NULL. */
const VgFeatureDesc *vg_feature_find_by_output(const char *output_name,
                                               unsigned *out_index);

/** Feature ids, in the order of common/features/list.h. */
enum VgFeatureId {
#define VG_FEATURE(name, gpu) VG_FEATURE_ID_##name,
#include "common/features/list.h"
#undef VG_FEATURE
    VG_NB_FEATURES
};

/** Every feature's descriptor, vg_feature_<name> in its home. */
#define VG_FEATURE(name, gpu) extern const VgFeatureDesc vg_feature_##name;
#include "common/features/list.h"
#undef VG_FEATURE

/** Every feature's reference implementation, vg_cpu_<name> in cpu/<name>.c. */
#define VG_FEATURE(name, gpu) extern const VgFeatureImpl vg_cpu_##name;
#include "common/features/list.h"
#undef VG_FEATURE

/** NULL-terminated table of every feature, in list order (common/feature.c). */
extern const VgFeatureDesc *const vg_features[];

/** The reference implementation of a feature. */
const VgFeatureImpl *vg_feature_cpu(const VgFeatureDesc *desc);

#define VG_OPT_OFFSET(type, field) offsetof(type, field)

#endif /* VG_COMMON_FEATURE_H */
