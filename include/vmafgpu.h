/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * libvmafgpu public API: VMAF and friends on the GPU (CUDA) or the CPU,
 * with the CPU path bit-exact with libvmaf v3.2.0.
 *
 * Usage:
 *  1. vg_context_create() with a VgConfig.
 *  2. vg_use_model() and/or vg_use_feature() once per model / feature.
 *  3. vg_submit() a (reference, distorted) pair per frame, in order.
 *     vg_frames_ready() says how many leading frames are fully scored.
 *  4. vg_flush(); then read per-frame scores (vg_get_score()), pooled
 *     scores (vg_get_pooled()), write logs (vg_write_log()) and charts
 *     (vg_write_plot()).
 *  5. vg_context_destroy().
 *
 * Every function that can fail returns 0 or a negative errno value
 * (AVERROR-compatible) and logs one line naming the cause, a NULL argument
 * included: through the context's log callback, or on stderr where there
 * is no context (vg_context_create(), a NULL context).
 */

#ifndef VMAFGPU_H
#define VMAFGPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VG_VERSION_MAJOR 0
#define VG_VERSION_MINOR 4
#define VG_VERSION_MICRO 0

/** Log levels, in increasing verbosity. */
enum VgLogLevel {
    VG_LOG_QUIET = -1,
    VG_LOG_ERROR = 0,
    VG_LOG_WARNING = 1,
    VG_LOG_INFO = 2,
    VG_LOG_DEBUG = 3,
};

/**
 * Log callback. msg is one line without the trailing newline.
 * May be called from worker threads (never concurrently: calls are serialised).
 */
typedef void (*VgLogCallback)(void *opaque, enum VgLogLevel level,
                              const char *msg);

/** Largest VgConfig.n_threads. */
#define VG_MAX_THREADS 256
/** Most models one context takes (vg_use_model()). */
#define VG_MAX_MODELS 16
/**
 * Most feature instances one context computes: those of vg_use_feature()
 * and the models' inputs, an instance with the same options counted once.
 */
#define VG_MAX_FEATURES 64

/** Which backend computes the features. */
enum VgBackend {
    VG_BACKEND_AUTO =
        0, ///< CUDA if pictures are on the device or a GPU is usable, else CPU
    VG_BACKEND_CPU = 1,
    VG_BACKEND_CUDA = 2,
};

/** Memory layout of a picture. */
enum VgPixFmt {
    VG_PIX_FMT_YUV420P =
        0, ///< planar 4:2:0; bitdepth 8 -> uint8 samples, 9..16 -> uint16 LSB-aligned
    VG_PIX_FMT_YUV422P, ///< planar 4:2:2
    VG_PIX_FMT_YUV444P, ///< planar 4:4:4
    VG_PIX_FMT_YUV400P, ///< luma only
    VG_PIX_FMT_NV12, ///< semi-planar 4:2:0, 8-bit; data[1] holds interleaved Cb,Cr
    VG_PIX_FMT_P010, ///< semi-planar 4:2:0, uint16 words, 10 significant bits in the high bits
    VG_PIX_FMT_P016, ///< semi-planar 4:2:0, uint16 words, `bitdepth` significant bits in the high bits
    VG_PIX_FMT_NV16, ///< semi-planar 4:2:2, 8-bit; data[1] holds interleaved Cb,Cr
    VG_PIX_FMT_P216, ///< semi-planar 4:2:2, uint16 words, `bitdepth` significant bits in the high bits (P210, P212, P216)
    VG_PIX_FMT_YUV444P_MSB, ///< planar 4:4:4, uint16 words, `bitdepth` significant bits in the high bits (FFmpeg's yuv444p10msb, yuv444p12msb)
};

/** Where picture memory lives. */
enum VgMemory {
    VG_MEMORY_HOST = 0, ///< data[] are host pointers
    VG_MEMORY_CUDA = 1, ///< data[] are CUdeviceptr values cast to pointers
};

/**
 * One picture (one frame of reference or distorted video).
 * The library copies or consumes it before vg_submit() returns, or, for
 * VG_MEMORY_CUDA, before work queued on `cuda_stream` after the call
 * completes; the caller may reuse the memory after that.
 */
typedef struct VgPicture {
    enum VgPixFmt fmt;
    unsigned width;  ///< luma width in samples
    unsigned height; ///< luma height in samples
    unsigned
        bitdepth; ///< 8..16 (NV12, NV16: 8, P010: 10, P016, P216, YUV444P_MSB: 9..16)
    enum VgMemory memory;
    const void *data[3]; ///< planes (Y, U, V) or (Y, UV) for semi-planar
    ptrdiff_t stride[3]; ///< in bytes
    void *
        cuda_stream; ///< CUstream the device data is produced on (VG_MEMORY_CUDA), or NULL
} VgPicture;

/**
 * Scaling of distorted pictures whose size differs from the reference's
 * (VgConfig.scale): libswscale's algorithms, under their sws_flags names.
 */
enum VgScale {
    VG_SCALE_NONE = 0, ///< no scaling: both pictures must have one size
    VG_SCALE_BILINEAR,
    VG_SCALE_BICUBIC, ///< libvmaf's recipe (scale=W:H:flags=bicubic)
    VG_SCALE_NEIGHBOR,
    VG_SCALE_AREA,
    VG_SCALE_BICUBLIN, ///< bicubic luma, bilinear chroma
    VG_SCALE_GAUSS,
    VG_SCALE_SINC,
    VG_SCALE_LANCZOS,
    VG_SCALE_SPLINE,
    VG_SCALE_NB ///< number of values; not an algorithm
};

/** Context configuration. Zero-initialise, then set what you need. */
typedef struct VgConfig {
    enum VgBackend backend;
    unsigned
        n_threads; ///< host worker threads (CPU backend; CUDA backend: features without a CUDA implementation and the host steps of CUDA features), at most VG_MAX_THREADS; 0 = on the calling thread, except the CUDA backend's host steps (cambi's, SpEED's), which then run on one thread per processor, up to 16
    unsigned
        n_subsample; ///< compute non-temporal features on every n-th frame (0, 1 = all)
    enum VgLogLevel log_level;
    VgLogCallback log_cb; ///< NULL: log to stderr
    void *log_opaque;
    int cuda_device; ///< device index when the library creates its own CUDA context
    void *
        cuda_context; ///< caller's CUcontext, or NULL (then `cuda_device` is used)
    void *cuda_stream; ///< caller's CUstream, or NULL (the library creates one)
    /**
     * With an algorithm, vg_submit() takes distorted pictures of another
     * size than the reference (one size for the whole stream) and scores
     * them scaled to the reference's size, on either backend, as
     * libswscale scales a frame of the same format with
     * `<algorithm>|SWS_ACCURATE_RND|SWS_BITEXACT` and centred chroma (the
     * scale filter's `flags=<algorithm>+accurate_rnd+bitexact` on frames
     * of unspecified chroma location): the same samples, bit for bit.
     * 8..14-bit pictures; the chroma planes of an odd-sized distorted
     * picture hold ceil(w / 2) (and ceil(h / 2)) samples, as FFmpeg's do.
     */
    enum VgScale scale;
    /**
     * Distorted streams scored against the one reference stream (an ABR
     * ladder): 0 or 1 for a pair; 2 .. VG_MAX_RENDITIONS make the context
     * a ladder. A ladder takes one reference picture and one picture of
     * each rendition per frame (vg_submit_ladder()); each rendition has a
     * size of its own with `scale`. What depends on the reference alone
     * is computed once per frame for all renditions (the features whose
     * descriptors say so: motion, float_motion). Each rendition's results
     * are read from its own context, vg_rendition(): every value, log,
     * chart and chunk log is what a pair context given that rendition
     * alone computes. n_threads are shared out between the renditions.
     */
    unsigned n_distorted;
} VgConfig;

/** Most renditions one ladder scores (VgConfig.n_distorted). */
#define VG_MAX_RENDITIONS 16

typedef struct VgContext VgContext;

/** Pooling methods (libvmaf names). */
enum VgPool {
    VG_POOL_MEAN = 0,
    VG_POOL_HARMONIC_MEAN,
    VG_POOL_MIN,
    VG_POOL_MAX,
};

/** Log formats (libvmaf's). */
enum VgLogFormat {
    VG_LOG_FMT_XML = 0,
    VG_LOG_FMT_JSON,
    VG_LOG_FMT_CSV,
    VG_LOG_FMT_SUB,
};

/** Number formatting in logs. */
enum VgPrecision {
    VG_PRECISION_DEFAULT = 0, ///< libvmaf's: %.6f, %.16f for tiny fractions
    VG_PRECISION_MAX = 1,     ///< %.17g: full double precision
};

/**
 * @return the libswscale name of a scaling algorithm ("bicubic", ...;
 *         "none" for VG_SCALE_NONE), or NULL for a value out of range.
 */
const char *vg_scale_name(enum VgScale scale);

/** @return the algorithm of a libswscale name, or -EINVAL if unknown. */
int vg_scale_from_name(const char *name);

/** @return the library version as "MAJOR.MINOR.MICRO". */
const char *vg_version(void);

/**
 * Create a context.
 * @return 0, or a negative errno (-EINVAL bad config, -ENOMEM, -ENODEV
 *         backend=cuda without a usable GPU).
 */
int vg_context_create(VgContext **ctx, const VgConfig *cfg);

/** Destroy a context (flushes pending GPU work first); *ctx becomes NULL. */
void vg_context_destroy(VgContext **ctx);

/**
 * Add a model, with libvmaf's model syntax: ':'-separated
 * `version=NAME` (built-in) or `path=FILE`, `name=NAME` (default "vmaf"),
 * flags `disable_clip`, `enable_transform`, and per-feature option
 * overloads `<feature>.<option>=<value>` (e.g. `vif.vif_enhn_gain_limit=1.0`).
 * Must be called before the first vg_submit().
 */
int vg_use_model(VgContext *ctx, const char *spec);

/**
 * Add a feature by extractor name (`psnr`, `motion`, `vif`, `adm`, ...)
 * with options `opt=val:opt=val` (NULL or "" for defaults).
 */
int vg_use_feature(VgContext *ctx, const char *name, const char *opts);

/**
 * Submit the next frame pair (indices 0, 1, 2 ... in call order).
 * Both pictures must have the same format, size and bit depth as every
 * earlier pair; with VgConfig.scale, the distorted picture may have its
 * own size (the same for every pair), scaled to the reference's.
 *
 * Samples must not exceed (1 << bitdepth) - 1. Planar 9..15-bit pictures
 * in host memory are checked (one pass over the samples the library
 * reads): a larger sample refuses the pair with -EINVAL and an error
 * naming the picture, frame, plane, value and position; the pair is not
 * counted and the context stays usable. Planar 9..15-bit pictures in
 * CUDA memory are checked on the device as they are read: a larger sample
 * fails that frame when it completes, with the same message, returned by
 * the vg_submit(), vg_frames_ready() or vg_flush() that finds it; no value
 * of that frame is written and the stream stops. (8- and 16-bit samples
 * and the high-bit-aligned semi-planar words cannot exceed their depth.)
 * @return 0, or a negative errno; -ENOTSUP for memory/layouts the chosen
 *         backend cannot read.
 */
int vg_submit(VgContext *ctx, const VgPicture *ref, const VgPicture *dis);

/**
 * Submit the next frame of a ladder: the reference picture and dis[r] for
 * each rendition r < VgConfig.n_distorted (a pair context: dis[0] alone,
 * as vg_submit()). Every picture is checked before any is scored: a bad
 * one refuses the whole frame with an error naming its rendition, and the
 * ladder stays usable. The rules of vg_submit() hold for each rendition
 * against the reference, each with its own distorted size.
 * @return 0, or a negative errno.
 */
int vg_submit_ladder(VgContext *ctx, const VgPicture *ref,
                     const VgPicture *const *dis);

/** @return VgConfig.n_distorted of a ladder, 1 for a pair context. */
unsigned vg_rendition_count(const VgContext *ctx);

/**
 * The results of rendition r of a ladder (r < vg_rendition_count()): a
 * context owned by the ladder on which every function that reads or
 * writes results works (vg_get_score(), vg_get_pooled(), vg_write_log(),
 * vg_write_plot(), vg_write_chunk(), vg_set_log_count(), vg_metric_*(),
 * vg_model_*(), vg_frames_ready(), vg_frame_count()). Frames, models,
 * features and flushes go to the ladder; vg_context_destroy() of a
 * rendition does nothing (the ladder destroys its renditions). For a pair
 * context, r = 0 gives the context itself.
 *
 * On the ladder itself, vg_use_model(), vg_use_feature(), vg_flush(),
 * vg_flush_frames() and vg_set_log_count() act on every rendition;
 * vg_frame_count(), vg_frames_ready(), vg_chunk_lead_in(),
 * vg_backend_used() and vg_model_*() answer for all of them; scores,
 * metrics, logs, charts and chunk logs are the renditions' (the ladder
 * refuses them with -EINVAL).
 * @return the rendition's context, or NULL (r out of range, logged).
 */
VgContext *vg_rendition(VgContext *ctx, unsigned r);

/**
 * The path of rendition r's file (log, chart, chunk log, heatmaps'
 * folder) in a ladder of n renditions: the pattern with its one %d
 * replaced by r (0 for the first rendition) and each %% by a '%'. With
 * n = 1 (a pair) the pattern is the path as it is, any '%' literal.
 * A ladder's pattern must have exactly one %d and no other '%'.
 * @return 0 and *path (free() it), -EINVAL (the pattern is refused, or
 *         r >= n) or -ENOMEM; *path is NULL on failure. Nothing is logged:
 *         the caller names the option.
 */
int vg_rendition_path(char **path, const char *pattern, unsigned r, unsigned n);

/**
 * @return how many leading frames (0 .. n-1) have every per-frame output
 *         readable now, without blocking (a ladder: of every rendition). Temporal outputs (motion2/3) and
 *         model scores become readable only after vg_flush().
 */
unsigned vg_frames_ready(VgContext *ctx);

/**
 * Wait for all submitted work, run end-of-stream computations (motion2/3,
 * model scores). No vg_submit() afterwards.
 */
int vg_flush(VgContext *ctx);

/**
 * Like vg_flush(), but end the stream after its first n frames
 * (n <= vg_frame_count()); may also follow vg_flush(). Later frames are
 * waited for and dropped from the logs, pooling and vg_get_score(), and
 * frame n - 1 is finished as the last frame: its temporal outputs
 * (motion2/3) and model scores are computed again without the frames
 * after it, replacing what was readable before. The result equals that of
 * a context given only the first n frames. For callers that submit ahead
 * of what their consumer takes (a filter whose output stops early).
 * Afterwards vg_frame_count() is n.
 */
int vg_flush_frames(VgContext *ctx, unsigned n);

/** @return number of frames submitted so far (after vg_flush_frames(): n). */
unsigned vg_frame_count(const VgContext *ctx);

/** @return number of output metrics (features and model outputs) known now. */
unsigned vg_metric_count(const VgContext *ctx);

/** @return name of metric i (as printed in logs), or NULL. */
const char *vg_metric_name(const VgContext *ctx, unsigned i);

/**
 * Read a metric of one frame.
 * @return 0, -EINVAL unknown name, -EAGAIN not computed (yet).
 */
int vg_get_score(VgContext *ctx, const char *name, unsigned index,
                 double *score);

/**
 * Pooled score over all frames (every n_subsample-th), after vg_flush().
 */
int vg_get_pooled(VgContext *ctx, const char *name, enum VgPool pool,
                  double *score);

/**
 * Write the per-frame log. path "-" writes to stdout.
 */
int vg_write_log(VgContext *ctx, const char *path, enum VgLogFormat fmt,
                 enum VgPrecision precision);

/** Most counts vg_set_log_count() keeps. */
#define VG_MAX_LOG_COUNTS 4

/**
 * A count of the caller's, written into the header of the logs that
 * vg_write_log() writes from then on, after fps: in JSON a top-level
 * "key": count, in XML an attribute of <fyi>. CSV and sub logs have no
 * header and carry none. For what the caller knows of the frames and the
 * library cannot (the FFmpeg filter: frames paired with a reference frame
 * more than half a frame interval away). Setting a key again replaces its
 * count.
 * @param key 1 to 31 characters of [a-z0-9_], not "fps" or "version"
 * @return 0, -EINVAL bad key, -ENOSPC VG_MAX_LOG_COUNTS keys already set.
 */
int vg_set_log_count(VgContext *ctx, const char *key, uint64_t count);

/**
 * Chunked scoring: frames [start, start + count) of a title scored by one
 * run, many such runs (on many machines) merged into exactly the result of
 * one run over the whole title: every per-frame and pooled value, and the
 * log (its fps aside, which is measured).
 *
 * A chunk run sets up its models and features as the whole run would,
 * then asks vg_chunk_lead_in() how many frames before start it must submit
 * first (the previous frames its features read, and as many more as keep
 * n_subsample's choice of frames), submits frames start - lead up to
 * start + count - 1 (or to the end of the title), calls vg_flush() and
 * vg_write_chunk(). vg_merge_chunks() reads the chunk logs back, checks
 * that they come from one run and cover the title without gap or overlap,
 * and computes what needs the whole stream (motion2/motion3 across chunk
 * edges, the aggregate PSNR), the models and the pooling once.
 *
 * @return the number of frames to submit before frame start (<= start).
 */
unsigned vg_chunk_lead_in(VgContext *ctx, unsigned start);

/**
 * After vg_flush() of a chunk run: write its chunk log (JSON, every value
 * at full precision, the features' internal values and per-frame records
 * included) for the frames submitted after the lead, as frames start,
 * start + 1, ... of the title. last: the title ends with this chunk.
 * @return 0, negative errno (logged).
 */
int vg_write_chunk(VgContext *ctx, const char *path, unsigned lead,
                   unsigned start, int last);

/**
 * Merge chunk logs (any order) into a new context *pctx, created with cfg
 * (backend, threads and n_distorted are ignored; n_subsample comes from
 * the chunks; a ladder's chunk logs are merged rendition by rendition),
 * that holds the whole title's values: vg_get_score(), vg_get_pooled(),
 * vg_write_log() and vg_write_plot() work on it as after vg_flush(). A
 * chunk of another run (other models, options, sizes), a gap, an overlap
 * or a title without its last chunk is refused with a message naming the
 * chunk or the missing frames.
 * @return 0, negative errno (logged); *pctx is NULL on failure.
 */
int vg_merge_chunks(VgContext **pctx, const VgConfig *cfg,
                    const char *const *paths, unsigned n_paths);

/** Settings of vg_write_plot(). Zero-initialise, then set what you need. */
typedef struct VgPlotConfig {
    const char *
        metrics; ///< ','-separated metric names; NULL or "": every model's score
    unsigned
        worst; ///< label the N lowest frames of each curve with their numbers (0: none)
    double
        fps; ///< frame rate of the video, for a time axis; 0: frame numbers only
    const char *title; ///< chart title; NULL: the metrics' names
    const char *label; ///< legend name of the context's scores; NULL: "vmafgpu"
    const char *const
        *logs; ///< vmafgpu or libvmaf logs (JSON or XML) drawn as well
    unsigned n_logs;
} VgPlotConfig;

/**
 * Write an SVG chart of per-frame scores: one curve per run and metric,
 * x in frames (and seconds when cfg->fps is set), one panel per scale
 * (VMAF, dB, 0..1 indices, ...), the pooled mean, harmonic mean and
 * minimum marked and written in the legend, the worst frames labelled.
 * The runs are the context's own scores, when it has frames (then after
 * vg_flush()), followed by those of cfg->logs. ctx may be NULL to draw
 * logs only (messages then go to stderr). path "-" writes to stdout.
 * Without cfg->metrics, each run draws the model scores it has (of a
 * log: its metrics named vmaf*, bootstrap members and their _bagging,
 * _stddev, _ci_p95_lo/_hi left out). The chart is drawn in memory first:
 * bad input leaves an existing file at path untouched.
 * @return 0, -EINVAL (nothing to draw, a named metric that a run lacks, a
 *         malformed log or one without frames, scores not flushed, worst
 *         above 100), a negative errno from opening a log or the output
 *         (-ENOENT, -EACCES, ...), -EIO (write error).
 */
int vg_write_plot(VgContext *ctx, const char *path, const VgPlotConfig *cfg);

/**
 * @return the backend work runs on (valid after the first vg_submit()),
 *         or the one asked for before that (VG_BACKEND_AUTO until then
 *         with backend=auto).
 */
enum VgBackend vg_backend_used(const VgContext *ctx);

/**
 * @return 1 if work runs on the CUDA backend, 0 otherwise (valid after the
 *         first vg_submit(), or after creation for a fixed backend).
 */
static inline int vg_backend_is_cuda(const VgContext *ctx)
{
    return vg_backend_used(ctx) == VG_BACKEND_CUDA;
}

/** Model and model-output names, for callers that print summaries. */
unsigned vg_model_count(const VgContext *ctx);
/** @return the name under which model i writes its score ("vmaf"). */
const char *vg_model_name(const VgContext *ctx, unsigned i);
/** @return the version= or path= that loaded model i. */
const char *vg_model_source(const VgContext *ctx, unsigned i);
/** @return 1 if model i is a bootstrap collection (has ci/stddev outputs). */
int vg_model_is_collection(const VgContext *ctx, unsigned i);

/** @return list of built-in model names, NULL-terminated. */
const char *const *vg_builtin_models(void);

#ifdef __cplusplus
}
#endif

#endif /* VMAFGPU_H */
