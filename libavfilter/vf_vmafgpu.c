/*
 * Copyright (c) 2026 the vmafgpu authors
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/**
 * @file
 * Calculate VMAF and its features between two input videos with libvmafgpu,
 * on the CPU or on CUDA frames in place.
 *
 * The first input is the distorted video, the second the reference. The
 * distorted frames pass through unchanged, with their per-frame scores as
 * lavfi.vmafgpu.<metric> metadata. Scores are computed asynchronously (worker
 * threads, CUDA streams), so passed-through frames wait in a small queue
 * until the library reports them scored (vg_frames_ready()).
 *
 * With renditions=N (N >= 2; vmafgpu's name only), the filter scores an
 * ABR ladder: N distorted inputs (renditions 0 .. N-1) then the reference,
 * in one libvmafgpu ladder context (VgConfig.n_distorted). Rendition 0
 * drives the output as a pair's distorted input does, the others are
 * paired with it by their timestamps as the reference is, so that each
 * rendition of rendition 0's timestamps is paired with the reference by
 * the pair's rules. Rendition 0's frames pass through, with every
 * rendition's scores as
 * lavfi.vmafgpu.<r>.<metric>; each rendition writes its own log and chart
 * (log_path and plot_path with %d, replaced by r) and summary line, as a
 * pair of that rendition and the reference alone would.
 *
 * Frames are scored as they arrive, ahead of the output. A frame leaves the
 * queue only when the consumer asks for one, and the log and the summary
 * cover exactly the frames the consumer took from the output: when the
 * graph is torn down before the end of the inputs (ffmpeg -frames:v N),
 * the stream is ended there (vg_flush_frames()), so the result does not
 * depend on how far scoring had run ahead.
 *
 * A distorted input of another size than the reference (a lower-resolution
 * rendition) is scored, with the scale option, on a copy scaled to the
 * reference's size by libswscale exactly as the scale filter in front of
 * this one scales it with flags=<algorithm>+accurate_rnd+bitexact; CUDA
 * frames are scaled on the device by the library, to the same samples
 * (libvmafgpu's VgConfig.scale). The frames passed through keep their
 * size.
 */

#include "config.h"
#include "config_components.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vmafgpu.h>

#include "libavutil/avstring.h"
#include "libavutil/bprint.h"
#include "libavutil/dict.h"
#include "libavutil/fifo.h"
#include "libavutil/file_open.h"
#include "libavutil/hwcontext.h"
#include "libavutil/imgutils.h"
#include "libavutil/internal.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/version.h"
#include "libswscale/swscale.h"
#include "libswscale/version.h"
#include "avfilter.h"
#include "buffersink.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "version_major.h"
#include "video.h"

#if CONFIG_CUDA
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext_cuda_internal.h"

/* The CUDA driver API's handle of the legacy default stream (cuda.h);
 * the nv-codec-headers do not define it. */
#ifndef CU_STREAM_LEGACY
#define CU_STREAM_LEGACY ((CUstream)0x1)
#endif
/* CU_MEMORYTYPE_UNIFIED of cuda.h, missing there too */
#define VG_CU_MEMORYTYPE_UNIFIED ((CUmemorytype)4)
#endif

/** A passed-through frame waiting for its scores. */
typedef struct QueuedFrame {
    AVFrame *frame;
    int64_t index;              ///< frame index in the library, -1: not scored
} QueuedFrame;

/**
 * A distorted input: the pair's, or rendition r of a ladder (input r).
 */
typedef struct Rendition {
    char name[32];              ///< "distorted (main)" for a pair, else "rendition <r>"
    char prefix[32];            ///< "" for a pair, else "rendition <r>: "
    VgContext *vg;              ///< its results: the pair's context, or the
                                ///< ladder's vg_rendition() (owned by the ladder)
    char *log_path;             ///< the log_path option, %d replaced by r
    char *plot_path;            ///< the plot_path option, %d replaced by r
    int log_created;            ///< check_output_path() made the file, unwritten
    int plot_created;
    char **meta_keys;           ///< "lavfi.vmafgpu.[<r>.]<metric>" of metric i
    unsigned nb_meta_keys;
    VgPicture pic;              ///< per-stream constant fields of its pictures:
                                ///< of the reference's size when scaling
                                ///< software frames, of its own for CUDA
    int w, h;                   ///< size of the input's frames
    struct SwsContext *sws;     ///< scales its frames, NULL: same size
    double frame_rate;          ///< of the input, 0 if unknown (plot's time axis)
    double half_interval;       ///< half a frame interval in seconds, 0 if unknown
    /* how framesync paired its frames with the reference's (check_pairing()) */
    int64_t last_pts[2];        ///< the previous pair's frames (framesync's time base)
    unsigned n_apart;           ///< pairs more than half a frame interval apart
    int warned_apart;
    /* the current run of pairs that repeat a frame of one input: at the
     * end of the stream, that input had ended; before, its apart pairs
     * were mispaired */
    unsigned run_len, run_apart;
    int run_ref;                ///< the reference's frame repeats, else the distorted one's
    unsigned run_apart_frame;   ///< the run's first apart pair
    int64_t run_apart_pts[2];
    int64_t run_pts;            ///< the repeated frame
} Rendition;

#if CONFIG_CUDA
/**
 * Frames of an input from another CUDA context than rendition 0's (where
 * scoring runs), on the same GPU, are copied into frames of that context
 * first: kernels of one context cannot read memory of another.
 */
typedef struct InputCopy {
    AVCUDADeviceContext *hwctx; ///< the input's, NULL: no copy
    AVBufferRef *device_ref;
    AVBufferRef *frames_ref;    ///< frames of the copies, in the scoring context
    CUevent written;            ///< in hwctx's context
    CUevent copied;             ///< in the scoring context
} InputCopy;
#endif

typedef struct VMAFGPUContext {
    const AVClass *class;
    FFFrameSync fs;

    /* options */
    char *model_cfg;
    char *feature_cfg;
    char *log_path;
    char *log_fmt_name;
    int log_fmt;                ///< VG_LOG_FMT_*, from log_fmt_name
    char *plot_path;
    char *pool_name;
    int pool;                   ///< VG_POOL_*, from pool_name
    int n_threads;
    int n_subsample;
    int backend;
    int precision;
    int queue_size;
    int bitdepth;
    char *scale_name;
    int nb_renditions;          ///< distorted inputs, before the reference

    /* state */
    VgContext *vg;              ///< the pair's context, or the ladder
    Rendition *rend;            ///< nb_renditions
    AVFifo *queue;              ///< QueuedFrame, oldest first
    AVFifo *sent;               ///< int64_t library index (-1: not scored) of
                                ///< each frame sent on, not yet seen taken
    int64_t n_taken;            ///< frames sent on and taken by the consumer
    unsigned n_passed;          ///< library frames 0 .. n_passed-1 were taken
    unsigned frame_cnt;         ///< frames submitted
    int eof_sent;               ///< every frame was sent on with the end of the stream
    int flushed;                ///< 0: not yet, 1: vg_flush() done, <0: its error
    int is_cuda;                ///< inputs are AV_PIX_FMT_CUDA frames
    enum AVPixelFormat sw_format; ///< of the inputs' frames (of CUDA frames' data)
    VgPicture pic_ref;          ///< per-stream constant fields of the reference
    const AVPixFmtDescriptor *desc; ///< of the inputs' (sw_)format
    int scale_flags;            ///< SWS_* algorithm of the scale option, 0: none
    enum VgScale scale_cuda;    ///< the library scales the distorted CUDA frames
    const char *scale_cuda_refusal; ///< why it cannot, or NULL
#if CONFIG_CUDA
    AVCUDADeviceContext *hwctx; ///< rendition 0's, where scoring runs
    AVBufferRef *device_ref;    ///< keeps hwctx alive until uninit
    InputCopy *copies;          ///< of each input (never rendition 0's)
#endif
} VMAFGPUContext;

#define OFFSET(x) offsetof(VMAFGPUContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

/* the options of vmafgpu's own that both tables have */
#define OPT_PLOT_PATH \
    { "plot_path", "Set the file path of an SVG chart of the per-frame model scores", \
        OFFSET(plot_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS }
#define OPTS_OWN \
    { "backend", "Set the compute backend", \
        OFFSET(backend), AV_OPT_TYPE_INT, { .i64 = VG_BACKEND_AUTO }, VG_BACKEND_AUTO, VG_BACKEND_CUDA, FLAGS, .unit = "backend" }, \
        { "auto", "CUDA for CUDA frames or when a GPU is usable, else CPU", 0, AV_OPT_TYPE_CONST, { .i64 = VG_BACKEND_AUTO }, 0, 0, FLAGS, .unit = "backend" }, \
        { "cuda", "CUDA",                                                    0, AV_OPT_TYPE_CONST, { .i64 = VG_BACKEND_CUDA }, 0, 0, FLAGS, .unit = "backend" }, \
        { "cpu",  "CPU, bit-exact with libvmaf",                             0, AV_OPT_TYPE_CONST, { .i64 = VG_BACKEND_CPU },  0, 0, FLAGS, .unit = "backend" }, \
    { "precision", "Set the number format of the log and of the frame metadata", \
        OFFSET(precision), AV_OPT_TYPE_INT, { .i64 = VG_PRECISION_DEFAULT }, VG_PRECISION_DEFAULT, VG_PRECISION_MAX, FLAGS, .unit = "precision" }, \
        { "default", "libvmaf's (%.6f)",               0, AV_OPT_TYPE_CONST, { .i64 = VG_PRECISION_DEFAULT }, 0, 0, FLAGS, .unit = "precision" }, \
        { "max",     "full double precision (%.17g)",  0, AV_OPT_TYPE_CONST, { .i64 = VG_PRECISION_MAX },     0, 0, FLAGS, .unit = "precision" }, \
    { "queue_size", "Set how many passed-through frames may wait for their scores", \
        OFFSET(queue_size), AV_OPT_TYPE_INT, { .i64 = 16 }, 0, 1024, FLAGS }, \
    { "bitdepth", "Set the significant (high) bits of the 16-bit words of p016, p216 and yuv444p16 inputs (0: all 16)", \
        OFFSET(bitdepth), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 16, FLAGS }, \
    { "scale", "Set the libswscale algorithm that scales a distorted input of another size to the reference's " \
               "(CUDA frames on the GPU, to the same samples; fast_bilinear software frames only): " \
               "none (refuse), fast_bilinear, bilinear, bicubic, neighbor, area, bicublin, gauss, sinc, lanczos, spline", \
        OFFSET(scale_name), AV_OPT_TYPE_STRING, { .str = "none" }, 0, 0, FLAGS }

static const AVOption vmafgpu_options[] = {
    { "model", "Set the models: '|'-separated libvmaf model specs (version=NAME or path=FILE, name=, disable_clip, enable_transform, <feature>.<option>=)",
        OFFSET(model_cfg), AV_OPT_TYPE_STRING, { .str = "version=vmaf_v0.6.1" }, 0, 0, FLAGS },
    { "feature", "Set extra features: '|'-separated name=NAME:option=value lists",
        OFFSET(feature_cfg), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_path", "Set the file path of the per-frame log (\"-\" for stdout)",
        OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "Set the format of the log: xml, json, csv or sub",
        OFFSET(log_fmt_name), AV_OPT_TYPE_STRING, { .str = "xml" }, 0, 0, FLAGS },
    OPT_PLOT_PATH,
    { "pool", "Set the pooling method of the summary score: mean, harmonic_mean, min or max",
        OFFSET(pool_name), AV_OPT_TYPE_STRING, { .str = "mean" }, 0, 0, FLAGS },
    { "n_threads", "Set the number of CPU worker threads (0: compute on the filter thread; above 256: 256)",
        OFFSET(n_threads), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "n_subsample", "Compute non-temporal features on every n-th frame only",
        OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    OPTS_OWN,
    { "renditions", "Set the number of distorted inputs (an ABR ladder's renditions) in front of the reference, the last input",
        OFFSET(nb_renditions), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, VG_MAX_RENDITIONS, FLAGS },
    { NULL }
};

#if CONFIG_VMAFGPU_LIBVMAF_FILTER || CONFIG_VMAFGPU_LIBVMAF_CUDA_FILTER
/* Under libvmaf's names: libvmaf's options first, in the order of
 * vf_libvmaf.c's table (FFmpeg 7.1 to 9.0), which is the order of the
 * values given without a name (libvmaf=FILE:json is log_path=FILE:
 * log_fmt=json), with its ranges (n_threads and n_subsample up to
 * UINT_MAX) and meanings; then vmafgpu's own. */
static const AVOption libvmaf_options[] = {
    { "log_path", "Set the file path to be used to write log (\"-\": a file named -, as libvmaf)",
        OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "Set the format of the log: xml, json, csv or sub (another value: xml, as libvmaf)",
        OFFSET(log_fmt_name), AV_OPT_TYPE_STRING, { .str = "xml" }, 0, 0, FLAGS },
    { "pool", "Set the pool method of the summary score: mean, harmonic_mean or min (another value, max too: mean, as libvmaf)",
        OFFSET(pool_name), AV_OPT_TYPE_STRING, { .str = "mean" }, 0, 0, FLAGS },
    { "n_threads", "Set the number of CPU worker threads (0: compute on the filter thread; above 256: 256)",
        OFFSET(n_threads), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, UINT_MAX, FLAGS },
    { "n_subsample", "Compute non-temporal features on every n-th frame only",
        OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, UINT_MAX, FLAGS },
    { "model", "Set the models: '|'-separated libvmaf model specs (version=NAME or path=FILE, name=, disable_clip=true, enable_transform=true, <feature>.<option>=)",
        OFFSET(model_cfg), AV_OPT_TYPE_STRING, { .str = "version=vmaf_v0.6.1" }, 0, 0, FLAGS },
    { "feature", "Set extra features: '|'-separated name=NAME:option=value lists",
        OFFSET(feature_cfg), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    OPT_PLOT_PATH,
    OPTS_OWN,
    { NULL }
};
#endif

FRAMESYNC_DEFINE_CLASS(vmafgpu, VMAFGPUContext, fs);
/* the same filter under libvmaf's names, in a build without libvmaf
 * (configure: vmafgpu_libvmaf_filter_conflict), so that the tools that
 * drive the libvmaf filter find it; their classes are named as the
 * filters, for -h and the option errors */
#if CONFIG_VMAFGPU_LIBVMAF_FILTER
FRAMESYNC_DEFINE_CLASS_EXT(libvmaf, VMAFGPUContext, fs, libvmaf_options);
#endif
#if CONFIG_VMAFGPU_LIBVMAF_CUDA_FILTER
FRAMESYNC_DEFINE_CLASS_EXT(libvmaf_cuda, VMAFGPUContext, fs, libvmaf_options);
#endif

/* Frames scaled without an initialised context, configured from their
 * properties, from libswscale 8.12 (FFmpeg 8.0), as the scale filter does
 * there; before, the context is set up from the links' properties, as the
 * scale filter does then. */
#define HAVE_SWS_FRAME_SETUP (LIBSWSCALE_VERSION_INT >= AV_VERSION_INT(8, 12, 100))

/** Values of the scale option: the names of libswscale's sws_flags. */
static const struct {
    const char *name;
    int flags;
} scale_algs[] = {
    { "none",          0 },
    { "fast_bilinear", SWS_FAST_BILINEAR },
    { "bilinear",      SWS_BILINEAR },
    { "bicubic",       SWS_BICUBIC },
    { "neighbor",      SWS_POINT },
    { "area",          SWS_AREA },
    { "bicublin",      SWS_BICUBLIN },
    { "gauss",         SWS_GAUSS },
    { "sinc",          SWS_SINC },
    { "lanczos",       SWS_LANCZOS },
    { "spline",        SWS_SPLINE },
};

/* The planar formats with their samples in the high bits of 16-bit words
 * (libavutil 60, FFmpeg 8.0; NVDEC's 10- and 12-bit 4:4:4 output there). */
#if LIBAVUTIL_VERSION_MAJOR >= 60 && defined(AV_PIX_FMT_YUV444P10MSB)
#define HAVE_MSB_FORMATS 1
#else
#define HAVE_MSB_FORMATS 0
#endif

/**
 * Pixel formats of software frames and sw_formats of CUDA frames, and how
 * the library reads them: the bit depth is the format's, never that of the
 * 16-bit words holding MSB-aligned samples.
 */
static const struct {
    enum AVPixelFormat av;
    enum VgPixFmt vg;
    unsigned bitdepth;
} fmt_map[] = {
    { AV_PIX_FMT_YUV420P,   VG_PIX_FMT_YUV420P,  8 },
    { AV_PIX_FMT_YUV422P,   VG_PIX_FMT_YUV422P,  8 },
    { AV_PIX_FMT_YUV444P,   VG_PIX_FMT_YUV444P,  8 },
    { AV_PIX_FMT_YUV420P9,  VG_PIX_FMT_YUV420P,  9 },
    { AV_PIX_FMT_YUV422P9,  VG_PIX_FMT_YUV422P,  9 },
    { AV_PIX_FMT_YUV444P9,  VG_PIX_FMT_YUV444P,  9 },
    { AV_PIX_FMT_YUV420P10, VG_PIX_FMT_YUV420P, 10 },
    { AV_PIX_FMT_YUV422P10, VG_PIX_FMT_YUV422P, 10 },
    { AV_PIX_FMT_YUV444P10, VG_PIX_FMT_YUV444P, 10 },
    { AV_PIX_FMT_YUV420P12, VG_PIX_FMT_YUV420P, 12 },
    { AV_PIX_FMT_YUV422P12, VG_PIX_FMT_YUV422P, 12 },
    { AV_PIX_FMT_YUV444P12, VG_PIX_FMT_YUV444P, 12 },
    { AV_PIX_FMT_YUV420P14, VG_PIX_FMT_YUV420P, 14 },
    { AV_PIX_FMT_YUV422P14, VG_PIX_FMT_YUV422P, 14 },
    { AV_PIX_FMT_YUV444P14, VG_PIX_FMT_YUV444P, 14 },
    { AV_PIX_FMT_YUV420P16, VG_PIX_FMT_YUV420P, 16 },
    { AV_PIX_FMT_YUV422P16, VG_PIX_FMT_YUV422P, 16 },
    { AV_PIX_FMT_YUV444P16, VG_PIX_FMT_YUV444P, 16 },
    { AV_PIX_FMT_GRAY8,     VG_PIX_FMT_YUV400P,  8 },
    { AV_PIX_FMT_GRAY9,     VG_PIX_FMT_YUV400P,  9 },
    { AV_PIX_FMT_GRAY10,    VG_PIX_FMT_YUV400P, 10 },
    { AV_PIX_FMT_GRAY12,    VG_PIX_FMT_YUV400P, 12 },
    { AV_PIX_FMT_GRAY14,    VG_PIX_FMT_YUV400P, 14 },
    { AV_PIX_FMT_GRAY16,    VG_PIX_FMT_YUV400P, 16 },
    { AV_PIX_FMT_NV12,      VG_PIX_FMT_NV12,     8 },
    { AV_PIX_FMT_P010,      VG_PIX_FMT_P010,    10 },
    { AV_PIX_FMT_P012,      VG_PIX_FMT_P016,    12 },
    { AV_PIX_FMT_P016,      VG_PIX_FMT_P016,    16 },
    { AV_PIX_FMT_NV16,      VG_PIX_FMT_NV16,     8 },
    { AV_PIX_FMT_P210,      VG_PIX_FMT_P216,    10 },
    { AV_PIX_FMT_P212,      VG_PIX_FMT_P216,    12 },
    { AV_PIX_FMT_P216,      VG_PIX_FMT_P216,    16 },
#if HAVE_MSB_FORMATS
    { AV_PIX_FMT_YUV444P10MSB, VG_PIX_FMT_YUV444P_MSB, 10 },
    { AV_PIX_FMT_YUV444P12MSB, VG_PIX_FMT_YUV444P_MSB, 12 },
#endif
};

/* Formats for negotiation: every entry of fmt_map, plus AV_PIX_FMT_CUDA
 * where FFmpeg is built with CUDA. */
static const enum AVPixelFormat pix_fmts[] = {
    AV_PIX_FMT_YUV420P,   AV_PIX_FMT_YUV422P,   AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUV420P9,  AV_PIX_FMT_YUV422P9,  AV_PIX_FMT_YUV444P9,
    AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV422P10, AV_PIX_FMT_YUV444P10,
    AV_PIX_FMT_YUV420P12, AV_PIX_FMT_YUV422P12, AV_PIX_FMT_YUV444P12,
    AV_PIX_FMT_YUV420P14, AV_PIX_FMT_YUV422P14, AV_PIX_FMT_YUV444P14,
    AV_PIX_FMT_YUV420P16, AV_PIX_FMT_YUV422P16, AV_PIX_FMT_YUV444P16,
    AV_PIX_FMT_GRAY8,  AV_PIX_FMT_GRAY9,  AV_PIX_FMT_GRAY10,
    AV_PIX_FMT_GRAY12, AV_PIX_FMT_GRAY14, AV_PIX_FMT_GRAY16,
    AV_PIX_FMT_NV12,   AV_PIX_FMT_P010,   AV_PIX_FMT_P012,  AV_PIX_FMT_P016,
    AV_PIX_FMT_NV16,   AV_PIX_FMT_P210,   AV_PIX_FMT_P212,  AV_PIX_FMT_P216,
#if HAVE_MSB_FORMATS
    AV_PIX_FMT_YUV444P10MSB, AV_PIX_FMT_YUV444P12MSB,
#endif
#if CONFIG_CUDA
    AV_PIX_FMT_CUDA,
#endif
    AV_PIX_FMT_NONE
};

static int map_format(enum AVPixelFormat fmt, enum VgPixFmt *vg,
                      unsigned *bitdepth)
{
    for (int i = 0; i < FF_ARRAY_ELEMS(fmt_map); i++) {
        if (fmt_map[i].av != fmt)
            continue;
        *vg       = fmt_map[i].vg;
        *bitdepth = fmt_map[i].bitdepth;
        return 0;
    }
    return AVERROR(ENOTSUP);
}

/* ff_make_pixel_format_list() from libavfilter 11 (FFmpeg 8.0) */
#if LIBAVFILTER_VERSION_MAJOR < 11
#define ff_make_pixel_format_list(fmts) ff_make_format_list((const int *)(fmts))
#endif

static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *main_fmts;
    int ret;

    /* The distorted input (rendition 0) and the output share one list:
     * frames pass through. The other inputs negotiate each on its own, so
     * that inputs of different formats reach config_output() and are
     * refused there with a message, rather than being converted silently.
     * Under libvmaf's names, all three share the list, as in libvmaf's
     * filter: FFmpeg then converts the inputs to one format (a 10-bit
     * reference against an 8-bit distorted video is scored in 8 bits, as
     * there). */
    main_fmts = ff_make_pixel_format_list(pix_fmts);
    if ((ret = ff_formats_ref(main_fmts, &cfg_in[0]->formats)) < 0 ||
        (ret = ff_formats_ref(main_fmts, &cfg_out[0]->formats)) < 0)
        return ret;
    if (strcmp(ctx->filter->name, "vmafgpu"))
        return ff_formats_ref(main_fmts, &cfg_in[1]->formats);
    for (unsigned i = 1; i < ctx->nb_inputs; i++)
        if ((ret = ff_formats_ref(ff_make_pixel_format_list(pix_fmts),
                                  &cfg_in[i]->formats)) < 0)
            return ret;
    return 0;
}

static void log_callback(void *opaque, enum VgLogLevel level, const char *msg)
{
    int av_level;

    switch (level) {
    case VG_LOG_ERROR:   av_level = AV_LOG_ERROR;   break;
    case VG_LOG_WARNING: av_level = AV_LOG_WARNING; break;
    case VG_LOG_INFO:    av_level = AV_LOG_INFO;    break;
    default:             av_level = AV_LOG_DEBUG;   break;
    }
    av_log(opaque, av_level, "%s\n", msg);
}

static enum VgLogLevel log_level(void)
{
    int level = av_log_get_level();

    if (level >= AV_LOG_DEBUG)
        return VG_LOG_DEBUG;
    if (level >= AV_LOG_INFO)
        return VG_LOG_INFO;
    if (level >= AV_LOG_WARNING)
        return VG_LOG_WARNING;
    if (level >= AV_LOG_ERROR)
        return VG_LOG_ERROR;
    return VG_LOG_QUIET;
}

#if CONFIG_CUDA

/** Make a device context's CUDA context current on this thread. */
static int push_context(AVFilterContext *ctx, AVCUDADeviceContext *hw)
{
    CudaFunctions *cu = hw->internal->cuda_dl;

    return FF_CUDA_CHECK_DL(ctx, cu, cu->cuCtxPushCurrent(hw->cuda_ctx));
}

/** Undo push_context(); returns ret if it is an error, else the pop's result. */
static int pop_context(AVFilterContext *ctx, AVCUDADeviceContext *hw, int ret)
{
    CudaFunctions *cu = hw->internal->cuda_dl;
    CUcontext dummy;
    int err = FF_CUDA_CHECK_DL(ctx, cu, cu->cuCtxPopCurrent(&dummy));

    return ret < 0 ? ret : err;
}

static int cuda_push(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;

    return s->is_cuda ? push_context(ctx, s->hwctx) : 0;
}

static int cuda_pop(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;

    return s->is_cuda ? pop_context(ctx, s->hwctx, 0) : 0;
}

/** The CUdevice and its name of a device context's CUDA context. */
static int cuda_context_device(AVFilterContext *ctx, AVCUDADeviceContext *hw,
                               CUdevice *dev, char *name, int name_size)
{
    CudaFunctions *cu = hw->internal->cuda_dl;
    int ret = push_context(ctx, hw);

    if (ret < 0)
        return ret;
    ret = FF_CUDA_CHECK_DL(ctx, cu, cu->cuCtxGetDevice(dev));
    if (ret >= 0 && cu->cuDeviceGetName(name, name_size, *dev) != CUDA_SUCCESS)
        av_strlcpy(name, "?", name_size);
    return pop_context(ctx, hw, ret);
}

/** Create an event in a device context's CUDA context. */
static int create_event(AVFilterContext *ctx, AVCUDADeviceContext *hw, CUevent *ev)
{
    CudaFunctions *cu = hw->internal->cuda_dl;
    int ret = push_context(ctx, hw);

    if (ret < 0)
        return ret;
    ret = FF_CUDA_CHECK_DL(ctx, cu, cu->cuEventCreate(ev, CU_EVENT_DISABLE_TIMING));
    return pop_context(ctx, hw, ret);
}

/**
 * Make later work on to's stream wait for the work queued so far on from's
 * stream; ev belongs to from's context. Both may be different contexts.
 */
static int order_streams(AVFilterContext *ctx, CUevent ev,
                         AVCUDADeviceContext *from, AVCUDADeviceContext *to)
{
    CudaFunctions *cu = from->internal->cuda_dl;
    int ret = push_context(ctx, from);

    if (ret < 0)
        return ret;
    ret = FF_CUDA_CHECK_DL(ctx, cu, cu->cuEventRecord(ev, from->stream));
    ret = pop_context(ctx, from, ret);
    if (ret < 0)
        return ret;
    ret = push_context(ctx, to);
    if (ret < 0)
        return ret;
    ret = FF_CUDA_CHECK_DL(ctx, cu, cu->cuStreamWaitEvent(to->stream, ev, 0));
    return pop_context(ctx, to, ret);
}

/**
 * Prepare copying the frames of an input (of frames context fc) from their
 * CUDA context into frames of rendition 0's context, on the same GPU.
 */
static int init_input_copy(AVFilterContext *ctx, InputCopy *c,
                           AVHWFramesContext *fc, const char *name)
{
    VMAFGPUContext *s = ctx->priv;
    AVHWFramesContext *cfc;
    int ret;

    c->hwctx = fc->device_ctx->hwctx;
    c->device_ref = av_buffer_ref(fc->device_ref);
    c->frames_ref = av_hwframe_ctx_alloc(s->device_ref);
    if (!c->device_ref || !c->frames_ref)
        return AVERROR(ENOMEM);
    cfc = (AVHWFramesContext *)c->frames_ref->data;
    cfc->format    = AV_PIX_FMT_CUDA;
    cfc->sw_format = fc->sw_format;
    cfc->width     = fc->width;
    cfc->height    = fc->height;
    ret = av_hwframe_ctx_init(c->frames_ref);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "Could not allocate CUDA frames for the "
               "%s copies: %s\n", name, av_err2str(ret));
        return ret;
    }
    ret = create_event(ctx, c->hwctx, &c->written);
    if (ret < 0)
        return ret;
    return create_event(ctx, s->hwctx, &c->copied);
}

/**
 * Copy a frame of an input's context into a new frame of hwctx's.
 * The copy waits on the GPU for the work queued on the input's stream
 * (its decoding or upload), and later work there waits for the copy, so the
 * source frame may be reused as soon as this returns.
 */
static int copy_input(AVFilterContext *ctx, InputCopy *c, const AVFrame *src,
                      AVFrame **dst)
{
    VMAFGPUContext *s = ctx->priv;
    CudaFunctions *cu = s->hwctx->internal->cuda_dl;
    AVHWFramesContext *fc = (AVHWFramesContext *)c->frames_ref->data;
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fc->sw_format);
    AVFrame *out;
    int ret, err;

    out = av_frame_alloc();
    if (!out)
        return AVERROR(ENOMEM);
    /* only the planes matter: the copy is read for scoring, then freed */
    ret = av_hwframe_get_buffer(c->frames_ref, out, 0);
    if (ret < 0)
        goto fail;

    ret = order_streams(ctx, c->written, c->hwctx, s->hwctx);
    if (ret < 0)
        goto fail;
    ret = cuda_push(ctx);
    if (ret < 0)
        goto fail;
    for (int i = 0; ret >= 0 && i < FF_ARRAY_ELEMS(src->data) && src->data[i]; i++) {
        /* UNIFIED: the driver finds each pointer's context itself */
        CUDA_MEMCPY2D cpy = {
            .srcMemoryType = VG_CU_MEMORYTYPE_UNIFIED,
            .srcDevice     = (CUdeviceptr)src->data[i],
            .srcPitch      = src->linesize[i],
            .dstMemoryType = VG_CU_MEMORYTYPE_UNIFIED,
            .dstDevice     = (CUdeviceptr)out->data[i],
            .dstPitch      = out->linesize[i],
            .WidthInBytes  = av_image_get_linesize(fc->sw_format, src->width, i),
            .Height        = i ? AV_CEIL_RSHIFT(src->height, desc->log2_chroma_h)
                               : src->height,
        };

        ret = FF_CUDA_CHECK_DL(ctx, cu, cu->cuMemcpy2DAsync(&cpy, s->hwctx->stream));
    }
    err = cuda_pop(ctx);
    if (ret < 0 || (ret = err) < 0)
        goto fail;
    ret = order_streams(ctx, c->copied, s->hwctx, c->hwctx);
    if (ret < 0)
        goto fail;
    *dst = out;
    return 0;

fail:
    av_frame_free(&out);
    return ret;
}

static void uninit_input_copy(AVFilterContext *ctx, InputCopy *c)
{
    VMAFGPUContext *s = ctx->priv;
    CudaFunctions *cu;

    if (!c->hwctx)
        return;
    cu = c->hwctx->internal->cuda_dl;
    if (c->written && push_context(ctx, c->hwctx) >= 0) {
        cu->cuEventDestroy(c->written);
        pop_context(ctx, c->hwctx, 0);
    }
    if (c->copied && push_context(ctx, s->hwctx) >= 0) {
        cu->cuEventDestroy(c->copied);
        pop_context(ctx, s->hwctx, 0);
    }
    c->written = c->copied = NULL;
    av_buffer_unref(&c->frames_ref);
    av_buffer_unref(&c->device_ref);
    c->hwctx = NULL;
}
#else
static int cuda_push(AVFilterContext *ctx) { return 0; }
static int cuda_pop(AVFilterContext *ctx)  { return 0; }
#endif

/** The filter runs under one of libvmaf's names (libvmaf, libvmaf_cuda). */
static int is_libvmaf(const AVFilterContext *ctx)
{
    return strcmp(ctx->filter->name, "vmafgpu") != 0;
}

/** The name of input i in messages: its rendition's, or "reference". */
static const char *input_name(const VMAFGPUContext *s, int i)
{
    return i < s->nb_renditions ? s->rend[i].name : "reference";
}

/*
 * Under libvmaf's names, the model and feature options are read as FFmpeg's
 * libvmaf filter reads them (vf_libvmaf.c parse_models() and
 * parse_features(), the same in FFmpeg 7.1 to 9.0) with libvmaf v3.2.0:
 * the value is cut at every '|', and each part is a list of key=value pairs
 * read by av_dict_parse_string() with '=' and ':' (its escapes such as \:
 * and its quotes; the blanks around keys and values dropped; a pair without
 * a key, an '=' or a value refused; a later key replacing an earlier one of
 * the same name in any case). A model takes version= (a built-in model;
 * then path= is not read) or path=, name=, disable_clip and
 * enable_transform (set by the value true only) and
 * <extractor>.<option>=<value>, which sets that option of the model's
 * features that extractor computes; a feature takes name= and its
 * extractor's options. libvmaf ignores the other keys of a model, the
 * options an extractor does not have and the options of an extractor that
 * computes none of the model's features; here each is ignored with a
 * warning. Option values are read as vmaf_feature_dictionary_set() and
 * vmaf_option_set() read them. The library is then given each model and
 * feature as libvmaf took it, in its own syntax, which has no escapes: a
 * value with a ':' is refused.
 */

/**
 * libvmaf v3.2.0's feature extractors (feature_extractor_list of a build
 * with float features and CUDA) and their options, each <type>:<name> with
 * the type b(ool), i(nt), d(ouble) or s(tring); ours: the extractor of
 * the same outputs here (NULL for null, which computes nothing).
 */
static const struct {
    const char *name, *ours, *opts;
} libvmaf_fex[] = {
    { "float_psnr",     "float_psnr",     "" },
    { "float_ansnr",    "float_ansnr",    "" },
    { "float_adm",      "float_adm",      "b:debug d:adm_enhn_gain_limit "
      "d:adm_norm_view_dist d:adm_noise_weight d:adm_csf_scale "
      "d:adm_csf_diag_scale i:adm_ref_display_height i:adm_csf_mode "
      "i:adm_bypass_cm b:adm_adm3_apply_hm d:adm_p_norm d:adm_dlm_weight "
      "d:adm_min_val d:adm_f1s0 d:adm_f1s1 d:adm_f1s2 d:adm_f1s3 d:adm_f2s0 "
      "d:adm_f2s1 d:adm_f2s2 d:adm_f2s3 i:adm_skip_aim_scale b:adm_skip_scale0" },
    { "float_vif",      "float_vif",      "b:debug d:vif_enhn_gain_limit "
      "d:vif_kernelscale d:vif_prescale d:vif_scale1_min_val "
      "d:vif_scale2_min_val d:vif_scale3_min_val s:vif_prescale_method "
      "d:vif_sigma_nsq b:vif_skip_scale0" },
    { "float_motion",   "float_motion",   "b:debug b:motion_force_zero "
      "d:motion_fps_weight d:motion_blend_factor d:motion_blend_offset "
      "b:motion_add_scale1 i:motion_filter_size b:motion_add_uv "
      "d:motion_max_val" },
    { "float_moment",   "float_moment",   "" },
    { "speed_chroma",   "speed_chroma",   "d:speed_kernelscale d:speed_prescale "
      "s:speed_prescale_method d:speed_sigma_nn d:speed_nn_floor "
      "d:speed_max_val i:speed_weight_var_mode" },
    { "speed_temporal", "speed_temporal", "d:speed_kernelscale d:speed_prescale "
      "s:speed_prescale_method d:speed_sigma_nn d:speed_nn_floor "
      "d:speed_max_val b:speed_use_ref_diff" },
    { "float_ms_ssim",  "float_ms_ssim",  "b:enable_lcs b:enable_db b:clip_db" },
    { "float_ssim",     "float_ssim",     "b:enable_lcs b:enable_db b:clip_db i:scale" },
    { "ciede",          "ciede",          "" },
    { "psnr",           "psnr",           "b:enable_chroma b:enable_mse "
      "b:enable_apsnr b:reduced_hbd_peak d:min_sse" },
    { "psnr_hvs",       "psnr_hvs",       "" },
    { "adm",            "adm",            "b:debug d:adm_csf_scale "
      "d:adm_csf_diag_scale d:adm_dlm_weight d:adm_enhn_gain_limit "
      "d:adm_norm_view_dist i:adm_ref_display_height i:adm_csf_mode "
      "d:adm_noise_weight b:adm_skip_aim b:adm_skip_scale0 d:adm_min_val" },
    { "motion",         "motion",         "b:motion_force_zero "
      "d:motion_blend_factor d:motion_blend_offset d:motion_fps_weight "
      "d:motion_max_val b:motion_five_frame_window b:motion_moving_average "
      "b:debug" },
    { "vif",            "vif",            "b:debug d:vif_enhn_gain_limit b:vif_skip_scale0" },
    { "cambi",          "cambi",          "d:cambi_max_val i:enc_width "
      "i:enc_height i:enc_bitdepth i:src_width i:src_height i:window_size "
      "d:topk d:cambi_topk d:tvi_threshold d:cambi_vis_lum_threshold "
      "i:max_log_contrast s:heatmaps_path b:full_ref s:eotf s:cambi_eotf "
      "i:cambi_high_res_speedup" },
    /* libvmaf's CUDA extractors: the outputs of the CPU ones, fewer options */
    { "adm_cuda",       "adm",            "b:debug d:adm_enhn_gain_limit "
      "d:adm_norm_view_dist i:adm_ref_display_height" },
    { "vif_cuda",       "vif",            "b:debug d:vif_enhn_gain_limit" },
    { "motion_cuda",    "motion",         "b:debug b:motion_force_zero" },
    { "null",           NULL,             "" },
};

static int libvmaf_fex_find(const char *name)
{
    for (int i = 0; i < FF_ARRAY_ELEMS(libvmaf_fex); i++)
        if (!strcmp(libvmaf_fex[i].name, name))
            return i;
    return -1;
}

/** @return the type of option opt of libvmaf_fex[fex], 0 if it has none */
static char libvmaf_opt_type(int fex, const char *opt)
{
    const size_t len = strlen(opt);
    const char *p = libvmaf_fex[fex].opts;

    while (*p) {
        if (len && !strncmp(p + 2, opt, len) && (!p[2 + len] || p[2 + len] == ' '))
            return p[0];
        p += strcspn(p, " ");
        p += *p == ' ';
    }
    return 0;
}

/**
 * Append option opt=val of libvmaf_fex[fex] to out (':'-separated, the key
 * prefixed by "prefix." if prefix is set) as libvmaf reads it:
 * vmaf_feature_dictionary_set() stores a value that reads whole as a float
 * as "%g" of that float, and vmaf_option_set() reads an int with atoi(), a
 * double with atof() (a value reading 0 not starting with '0' is refused
 * by both), a bool as true or false. The value appended is one the library
 * reads the same way. An option the extractor does not have is left out,
 * with a warning: libvmaf ignores it.
 * @return 0, or AVERROR(EINVAL) (logged)
 */
static int libvmaf_option(AVFilterContext *ctx, const char *where, int fex,
                          const char *prefix, const char *opt,
                          const char *val, AVBPrint *out)
{
    const char type = libvmaf_opt_type(fex, opt);
    char norm[64], num[64];
    const char *v = val;
    float f;
    char c;
    const int numeric = sscanf(val, "%f %c", &f, &c) == 1;

    if (!type) {
        av_log(ctx, AV_LOG_WARNING, "%s: libvmaf's %s extractor has no option "
               "'%s'; '%s%s%s=%s' ignored, as libvmaf's filter ignores it\n",
               where, libvmaf_fex[fex].name, opt, prefix ? prefix : "",
               prefix ? "." : "", opt, val);
        return 0;
    }
    if (numeric) {
        snprintf(norm, sizeof(norm), "%g", (double)strtof(val, NULL));
        v = norm;
    }
    if (type == 'i') {
        const int n = (int)strtol(v, NULL, 10); /* glibc's atoi() */

        if (n || v[0] == '0') {
            snprintf(num, sizeof(num), "%d", n);
            if (strcmp(num, v))
                av_log(ctx, AV_LOG_WARNING, "%s: %s=%s is read as %d, as "
                       "libvmaf reads it (atoi)\n", where, opt, val, n);
            v = num;
        }
    } else if (type == 'd' && !numeric) {
        const double n = atof(v);

        if (n || v[0] == '0') {
            /* a number followed by something else: libvmaf reads the
             * number, exactly; the library a float's "%g" of it */
            snprintf(num, sizeof(num), "%.17g", n);
            snprintf(norm, sizeof(norm), "%g", (double)strtof(num, NULL));
            if (atof(norm) != n) {
                av_log(ctx, AV_LOG_ERROR, "%s: libvmaf reads %s=%s as %s (atof, "
                       "up to the end of the number), a value vmafgpu reads "
                       "as %s; give the number alone\n", where, opt, val, num,
                       norm);
                return AVERROR(EINVAL);
            }
            av_log(ctx, AV_LOG_WARNING, "%s: %s=%s is read as %s, as libvmaf "
                   "reads it (atof)\n", where, opt, val, norm);
            v = norm;
        }
    }
    if (strchr(v, ':')) {
        av_log(ctx, AV_LOG_ERROR, "%s: the value of %s, '%s', has a ':', which "
               "vmafgpu's option lists cannot carry (libvmaf's filter takes it, "
               "escaped as \\:); refused\n", where, opt, v);
        return AVERROR(EINVAL);
    }
    av_bprintf(out, "%s%s%s%s=%s", out->len ? ":" : "", prefix ? prefix : "",
               prefix ? "." : "", opt, v);
    return 0;
}

/**
 * The models of the model option under libvmaf's names, read as libvmaf's
 * filter reads them (above), each given to the library as a specification
 * of its own syntax.
 */
static int use_models_libvmaf(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    char *cfg = NULL, *seg, *saveptr = NULL, *key = NULL;
    char *names[VG_MAX_MODELS] = { NULL };
    unsigned n_names = 0;
    AVDictionary *dict = NULL;
    AVBPrint spec;
    int ret = 0;

    av_bprint_init(&spec, 0, AV_BPRINT_SIZE_UNLIMITED);
    if (!(cfg = av_strdup(s->model_cfg))) {
        ret = AVERROR(ENOMEM);
        goto end;
    }
    for (seg = av_strtok(cfg, "|", &saveptr); seg;
         seg = av_strtok(NULL, "|", &saveptr)) {
        const AVDictionaryEntry *e = NULL;
        const char *version = NULL, *path = NULL, *name = NULL, *bad = NULL;
        int clip = 0, transform = 0;
        char where[96];

        snprintf(where, sizeof(where), "Model '%.60s%s'", seg,
                 strlen(seg) > 60 ? "..." : "");
        av_dict_free(&dict);
        av_bprint_clear(&spec);
        if ((ret = av_dict_parse_string(&dict, seg, "=", ":", 0)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "Could not parse model '%s': it must be "
                   "':'-separated key=value pairs, each with a value, as "
                   "libvmaf's filter requires too\n", seg);
            goto end;
        }
        while ((e = av_dict_iterate(dict, e))) {
            if (!strcmp(e->key, "disable_clip") ||
                !strcmp(e->key, "enable_transform")) {
                const int on = !strcmp(e->value, "true");

                if (!on && strcmp(e->value, "false"))
                    av_log(ctx, AV_LOG_WARNING, "%s: %s=%s leaves the flag "
                           "unset, as libvmaf's filter does: it sets it for "
                           "the value true only\n", where, e->key, e->value);
                if (e->key[0] == 'd')
                    clip = on;
                else
                    transform = on;
            } else if (!strcmp(e->key, "name")) {
                name = e->value;
            } else if (!strcmp(e->key, "version")) {
                version = e->value;
            } else if (!strcmp(e->key, "path")) {
                path = e->value;
            } else if (!strchr(e->key, '.')) {
                av_log(ctx, AV_LOG_WARNING, "%s: unknown key '%s' ignored, as "
                       "libvmaf's filter ignores it (it reads version, path, "
                       "name, disable_clip, enable_transform and "
                       "<extractor>.<option>)\n", where, e->key);
            }
        }
        if (!version && !path) {
            av_log(ctx, AV_LOG_ERROR, "%s has neither version= nor path=: "
                   "libvmaf's filter loads no model from it, logs an error and "
                   "runs on without scoring any model (an undefined VMAF score, "
                   "no log); refused\n", where);
            ret = AVERROR(EINVAL);
            goto end;
        }
        if (version && path)
            av_log(ctx, AV_LOG_WARNING, "%s: path=%s ignored: with version=, "
                   "libvmaf's filter loads the built-in model and reads no "
                   "path\n", where, path);
        if (version && strchr(version, ':')) {
            av_log(ctx, AV_LOG_ERROR, "%s: no built-in model is named '%s' "
                   "(libvmaf's filter fails on it too)\n", where, version);
            ret = AVERROR(EINVAL);
            goto end;
        }
        bad = !version && strchr(path, ':') ? "path" :
              name && strchr(name, ':') ? "name" : NULL;
        if (bad) {
            av_log(ctx, AV_LOG_ERROR, "%s: the %s has a ':', which vmafgpu's "
                   "model specifications cannot carry (libvmaf's filter takes "
                   "it, escaped as \\:); refused%s\n", where, bad,
                   *bad == 'p' ? ": link or copy the file to a path without one" : "");
            ret = AVERROR(EINVAL);
            goto end;
        }
        av_bprintf(&spec, "%s=%s", version ? "version" : "path",
                   version ? version : path);
        if (name)
            av_bprintf(&spec, ":name=%s", name);
        if (clip)
            av_bprintf(&spec, ":disable_clip=true");
        if (transform)
            av_bprintf(&spec, ":enable_transform=true");

        /* <extractor>.<option>: the extractor's name ends at the first '.'
         * (after any leading ones), the option is the rest (av_strtok()) */
        e = NULL;
        while ((e = av_dict_iterate(dict, e))) {
            char *fex_name, *opt = NULL;
            int fex;

            if (!strchr(e->key, '.'))
                continue;
            av_freep(&key);
            if (!(key = av_strdup(e->key))) {
                ret = AVERROR(ENOMEM);
                goto end;
            }
            if (!(fex_name = av_strtok(key, ".", &opt))) {
                av_log(ctx, AV_LOG_ERROR, "%s: key '%s' names no extractor; "
                       "libvmaf's filter fails on it too (could not overload "
                       "feature)\n", where, e->key);
                ret = AVERROR(EINVAL);
                goto end;
            }
            fex = libvmaf_fex_find(fex_name);
            if (fex < 0 || !libvmaf_fex[fex].ours ||
                strcmp(libvmaf_fex[fex].ours, fex_name)) {
                av_log(ctx, AV_LOG_WARNING, "%s: '%s' ignored, as libvmaf's "
                       "filter ignores it: no model feature is computed by a "
                       "libvmaf extractor named '%s'\n", where, e->key,
                       fex_name);
                continue;
            }
            if ((ret = libvmaf_option(ctx, where, fex, fex_name, opt, e->value,
                                      &spec)) < 0)
                goto end;
        }
        if (!av_bprint_is_complete(&spec)) {
            ret = AVERROR(ENOMEM);
            goto end;
        }

        if (!name)
            name = "vmaf";
        for (unsigned i = 0; i < n_names; i++) {
            if (!strcmp(names[i], name)) {
                av_log(ctx, AV_LOG_ERROR, "Models %u and %u are both named "
                       "'%s': libvmaf's filter would score the first one only "
                       "and print its score for both; give one another name "
                       "with name=\n", i + 1, n_names + 1, name);
                ret = AVERROR(EINVAL);
                goto end;
            }
        }
        if (n_names < FF_ARRAY_ELEMS(names) &&
            !(names[n_names++] = av_strdup(name))) {
            ret = AVERROR(ENOMEM);
            goto end;
        }
        if (strcmp(spec.str, seg))
            av_log(ctx, AV_LOG_VERBOSE, "Model '%s' as libvmaf's filter reads "
                   "it: '%s'\n", seg, spec.str);
        if ((ret = vg_use_model(s->vg, spec.str)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "Could not load model '%s': %s\n", seg,
                   av_err2str(ret));
            goto end;
        }
    }

end:
    for (unsigned i = 0; i < n_names; i++)
        av_free(names[i]);
    av_dict_free(&dict);
    av_bprint_finalize(&spec, NULL);
    av_free(key);
    av_free(cfg);
    return ret;
}

/**
 * Add the models of the model option: '|'-separated libvmaf model specs
 * whose ':'-separated keys the library parses (libvmaf filter syntax);
 * under libvmaf's names, read as libvmaf's filter reads them.
 */
static int use_models(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    char *cfg = NULL, *spec, *saveptr = NULL;
    int ret = 0;

    if (!s->model_cfg || !*s->model_cfg)
        return 0;
    if (is_libvmaf(ctx))
        return use_models_libvmaf(ctx);
    cfg = av_strdup(s->model_cfg);
    if (!cfg)
        return AVERROR(ENOMEM);

    for (spec = av_strtok(cfg, "|", &saveptr); spec;
         spec = av_strtok(NULL, "|", &saveptr)) {
        ret = vg_use_model(s->vg, spec);
        if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "Could not load model '%s': %s\n",
                   spec, av_err2str(ret));
            goto fail;
        }
    }

fail:
    av_free(cfg);
    return ret;
}

/**
 * Add the features of the feature option: '|'-separated lists of
 * ':'-separated key=value pairs, one of which is name=. Under libvmaf's
 * names, the options of libvmaf's extractors are read as libvmaf reads
 * them (libvmaf_option()); its null extractor is left out, and its CUDA
 * extractors are computed by the CPU ones of the same outputs.
 */
static int use_features(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    char *cfg = NULL, *spec, *saveptr = NULL;
    AVDictionary *dict = NULL;
    AVBPrint opts;
    int ret = 0;

    av_bprint_init(&opts, 0, AV_BPRINT_SIZE_UNLIMITED);
    if (!s->feature_cfg || !*s->feature_cfg)
        goto fail;
    cfg = av_strdup(s->feature_cfg);
    if (!cfg) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }

    for (spec = av_strtok(cfg, "|", &saveptr); spec;
         spec = av_strtok(NULL, "|", &saveptr)) {
        const AVDictionaryEntry *e = NULL;
        const char *name = NULL;
        char where[96];
        int fex = -1;

        av_dict_free(&dict);
        av_bprint_clear(&opts);
        ret = av_dict_parse_string(&dict, spec, "=", ":", 0);
        if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "Could not parse feature '%s': "
                   "expected name=NAME[:option=value...]\n", spec);
            goto fail;
        }
        while ((e = av_dict_iterate(dict, e)))
            if (!strcmp(e->key, "name"))
                name = e->value;
        if (!name) {
            av_log(ctx, AV_LOG_ERROR, "Feature '%s' has no name=\n", spec);
            ret = AVERROR(EINVAL);
            goto fail;
        }
        if (is_libvmaf(ctx) && (fex = libvmaf_fex_find(name)) >= 0) {
            if (!libvmaf_fex[fex].ours) {
                av_log(ctx, AV_LOG_VERBOSE, "Feature '%s': libvmaf's %s "
                       "extractor computes nothing; left out\n", spec, name);
                continue;
            }
            if (strcmp(libvmaf_fex[fex].ours, name))
                av_log(ctx, AV_LOG_VERBOSE, "Feature '%s': computed by %s, "
                       "the extractor of the same outputs\n", spec,
                       libvmaf_fex[fex].ours);
        }
        snprintf(where, sizeof(where), "Feature '%.60s%s'", spec,
                 strlen(spec) > 60 ? "..." : "");
        e = NULL;
        while ((e = av_dict_iterate(dict, e))) {
            if (!strcmp(e->key, "name"))
                continue;
            if (fex >= 0) {
                if ((ret = libvmaf_option(ctx, where, fex, NULL, e->key,
                                          e->value, &opts)) < 0)
                    goto fail;
                continue;
            }
            av_bprintf(&opts, "%s%s=%s", opts.len ? ":" : "", e->key, e->value);
        }
        if (!av_bprint_is_complete(&opts)) {
            ret = AVERROR(ENOMEM);
            goto fail;
        }
        ret = vg_use_feature(s->vg, fex >= 0 ? libvmaf_fex[fex].ours : name,
                             opts.str);
        if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "Could not use feature '%s' with "
                   "options '%s': %s\n", name, opts.str, av_err2str(ret));
            goto fail;
        }
    }

fail:
    av_dict_free(&dict);
    av_bprint_finalize(&opts, NULL);
    av_free(cfg);
    return ret;
}

/** Set scale_flags from the scale option; log the valid names if unknown. */
static int parse_scale(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    AVBPrint names;

    for (int i = 0; i < FF_ARRAY_ELEMS(scale_algs); i++) {
        if (!strcmp(s->scale_name, scale_algs[i].name)) {
            s->scale_flags = scale_algs[i].flags;
            return 0;
        }
    }
    av_bprint_init(&names, 0, AV_BPRINT_SIZE_AUTOMATIC);
    for (int i = 0; i < FF_ARRAY_ELEMS(scale_algs); i++)
        av_bprintf(&names, "%s%s", i ? ", " : "", scale_algs[i].name);
    av_log(ctx, AV_LOG_ERROR, "Unknown scale algorithm '%s'; valid are: %s\n",
           s->scale_name, names.str);
    av_bprint_finalize(&names, NULL);
    return AVERROR(EINVAL);
}

/**
 * Set up the scaling of the distorted frames (of fmt) to the reference's
 * size, with the libswscale options of the scale filter given
 * flags=<algorithm>+accurate_rnd+bitexact and no other option, so that the
 * frames scored are those that filter would give.
 */
static int init_scaler(AVFilterContext *ctx, int r, enum AVPixelFormat fmt)
{
    VMAFGPUContext *s = ctx->priv;
    Rendition *rend = &s->rend[r];
    AVFilterLink *dis = ctx->inputs[r], *ref = ctx->inputs[s->nb_renditions];
    int ret;

#if HAVE_SWS_FRAME_SETUP
    if (!sws_test_format(fmt, 0) || !sws_test_format(fmt, 1)) {
#else
    if (!sws_isSupportedInput(fmt) || !sws_isSupportedOutput(fmt)) {
#endif
        av_log(ctx, AV_LOG_ERROR, "libswscale cannot scale %s frames: scale "
               "the %s input in front of the filter (scale=%d:%d)\n",
               av_get_pix_fmt_name(fmt), s->nb_renditions > 1 ? rend->name :
               "distorted", ref->w, ref->h);
        return AVERROR(EINVAL);
    }
    rend->sws = sws_alloc_context();
    if (!rend->sws)
        return AVERROR(ENOMEM);
    if ((ret = av_opt_set_int(rend->sws, "sws_flags", s->scale_flags |
                              SWS_ACCURATE_RND | SWS_BITEXACT, 0)) < 0 ||
        (ret = av_opt_set_int(rend->sws, "threads",
                              ff_filter_get_nb_threads(ctx), 0)) < 0)
        return ret;
#if !HAVE_SWS_FRAME_SETUP
    /* the chroma siting stays libswscale's default, centred, which is the
     * scale filter's for frames of unspecified or any chroma location */
    if ((ret = av_opt_set_int(rend->sws, "srcw", dis->w, 0)) < 0 ||
        (ret = av_opt_set_int(rend->sws, "srch", dis->h, 0)) < 0 ||
        (ret = av_opt_set_int(rend->sws, "src_format", fmt, 0)) < 0 ||
        (ret = av_opt_set_int(rend->sws, "dstw", ref->w, 0)) < 0 ||
        (ret = av_opt_set_int(rend->sws, "dsth", ref->h, 0)) < 0 ||
        (ret = av_opt_set_int(rend->sws, "dst_format", fmt, 0)) < 0)
        return ret;
    if (dis->color_range != AVCOL_RANGE_UNSPECIFIED &&
        ((ret = av_opt_set_int(rend->sws, "src_range",
                               dis->color_range == AVCOL_RANGE_JPEG, 0)) < 0 ||
         (ret = av_opt_set_int(rend->sws, "dst_range",
                               dis->color_range == AVCOL_RANGE_JPEG, 0)) < 0))
        return ret;
    ret = sws_init_context(rend->sws, NULL, NULL);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "%sCould not set up the scaling of %s "
               "frames from %dx%d to %dx%d: %s\n", rend->prefix,
               av_get_pix_fmt_name(fmt), dis->w, dis->h, ref->w, ref->h,
               av_err2str(ret));
        return ret;
    }
#endif
    av_log(ctx, AV_LOG_VERBOSE, "Scaling the %s frames from %dx%d to the "
           "reference's %dx%d: libswscale %s+accurate_rnd+bitexact\n",
           rend->name, dis->w, dis->h, ref->w, ref->h, s->scale_name);
    return 0;
}

/**
 * Scale a distorted frame to the reference's size into a new frame, as the
 * scale filter with its default options does it: with the frame's
 * properties, the chroma location left to libswscale's default and the
 * frame scaled as a whole (progressive).
 */
static int scale_distorted(AVFilterContext *ctx, Rendition *rend,
                           const AVFrame *dis, AVFrame **scaled)
{
    VMAFGPUContext *s = ctx->priv;
    AVFrame *src = av_frame_clone(dis), *dst = av_frame_alloc();
    int ret;

    if (!src || !dst) {
        ret = AVERROR(ENOMEM);
        goto fail;
    }
    src->chroma_location = AVCHROMA_LOC_UNSPECIFIED;
    src->flags &= ~AV_FRAME_FLAG_INTERLACED;
    ret = av_frame_copy_props(dst, src);
    if (ret < 0)
        goto fail;
    dst->format = src->format;
    dst->width  = rend->pic.width;
    dst->height = rend->pic.height;
    ret = av_frame_get_buffer(dst, 0);
    if (ret < 0)
        goto fail;
    ret = sws_scale_frame(rend->sws, dst, src);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "Could not scale %s frame %u: %s\n",
               s->nb_renditions > 1 ? rend->name : "distorted", s->frame_cnt,
               av_err2str(ret));
        goto fail;
    }
    av_frame_free(&src);
    *scaled = dst;
    return 0;

fail:
    av_frame_free(&src);
    av_frame_free(&dst);
    return ret;
}

/**
 * Check that the inputs carry the same kind of pictures and fill in the
 * per-stream fields of the library pictures.
 */
static int check_inputs(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    const int n = s->nb_renditions;
    AVFilterLink *ref = ctx->inputs[n];
    enum AVPixelFormat ref_fmt = ref->format;
    enum AVPixelFormat fmts[VG_MAX_RENDITIONS + 1];
    void *streams[VG_MAX_RENDITIONS + 1] = { NULL };
    enum VgPixFmt vg_fmt;
    unsigned bitdepth;
    int scaled = 0, ret;

    for (int r = 0; r < n; r++) {
        AVFilterLink *dis = ctx->inputs[r];

        if ((dis->format == AV_PIX_FMT_CUDA) != (ref_fmt == AV_PIX_FMT_CUDA)) {
            av_log(ctx, AV_LOG_ERROR, "Inputs must %s be CUDA frames or %s "
                   "software frames: %s is %s, reference is %s\n",
                   n > 1 ? "all" : "both", n > 1 ? "all" : "both",
                   s->rend[r].name, av_get_pix_fmt_name(dis->format),
                   av_get_pix_fmt_name(ref_fmt));
            return AVERROR(EINVAL);
        }
        if (dis->w == ref->w && dis->h == ref->h)
            continue;
        if (!s->scale_flags) {
            av_log(ctx, AV_LOG_ERROR, "Input sizes differ: %s is %dx%d, "
                   "reference is %dx%d; set the scale option (scale=bicubic, "
                   "bilinear, lanczos, ...) to score the distorted input "
                   "scaled to the reference's size\n", s->rend[r].name,
                   dis->w, dis->h, ref->w, ref->h);
            return AVERROR(EINVAL);
        }
        scaled = 1;
    }
    if (!scaled && s->scale_flags)
        av_log(ctx, AV_LOG_VERBOSE, "scale=%s: the inputs have the same size, "
               "%dx%d; nothing to scale\n", s->scale_name, ref->w, ref->h);

    s->is_cuda = ref_fmt == AV_PIX_FMT_CUDA;
    for (int i = 0; i <= n; i++)
        fmts[i] = ctx->inputs[i]->format;
    if (s->is_cuda) {
#if CONFIG_CUDA
        AVHWFramesContext *fc[VG_MAX_RENDITIONS + 1];
        CUdevice dev0;
        char name0[128];

        for (int i = 0; i <= n; i++) {
            FilterLink *l = ff_filter_link(ctx->inputs[i]);

            if (!l->hw_frames_ctx) {
                av_log(ctx, AV_LOG_ERROR, "CUDA input without a hardware frames "
                       "context (%s)\n", n == 1 ? (i ? "reference" : "distorted") :
                       input_name(s, i));
                return AVERROR(EINVAL);
            }
            fc[i] = (AVHWFramesContext *)l->hw_frames_ctx->data;
            fmts[i] = fc[i]->sw_format;
        }
        s->hwctx = fc[0]->device_ctx->hwctx;
        s->device_ref = av_buffer_ref(fc[0]->device_ref);
        if (!s->device_ref)
            return AVERROR(ENOMEM);
        /* Decoders and uploads queue their writes on the device's stream,
         * by default NULL, the legacy default stream. The library orders its
         * reads after the work queued on a picture's cuda_stream (and later
         * work there after its reads) but skips that for NULL, so NULL is
         * named explicitly. */
        streams[0] = s->hwctx->stream ? s->hwctx->stream : CU_STREAM_LEGACY;
        for (int i = 1; i <= n; i++) {
            AVCUDADeviceContext *hw = fc[i]->device_ctx->hwctx;
            CUdevice dev;
            char name[128];

            streams[i] = hw->stream ? hw->stream : CU_STREAM_LEGACY;
            if (hw->cuda_ctx == s->hwctx->cuda_ctx)
                continue;
            ret = cuda_context_device(ctx, s->hwctx, &dev0, name0, sizeof(name0));
            if (ret >= 0)
                ret = cuda_context_device(ctx, hw, &dev, name, sizeof(name));
            if (ret < 0)
                return ret;
            if (dev != dev0) {
                av_log(ctx, AV_LOG_ERROR, "CUDA inputs are on different GPUs: "
                       "%s on device %d (%s), %s on device %d (%s); decode or "
                       "upload %s on one device (-hwaccel_device, "
                       "-filter_hw_device)\n", s->rend[0].name, (int)dev0,
                       name0, input_name(s, i), (int)dev, name,
                       n > 1 ? "all" : "both");
                return AVERROR(EINVAL);
            }
            av_log(ctx, AV_LOG_VERBOSE, "CUDA inputs come from two contexts on "
                   "device %d (%s): %s frames are copied into %s's context; "
                   "decode or upload %s with one device to avoid the copies\n",
                   (int)dev, name, input_name(s, i),
                   n > 1 ? s->rend[0].name : "the distorted input",
                   n > 1 ? "all" : "both");
            ret = init_input_copy(ctx, &s->copies[i], fc[i], input_name(s, i));
            if (ret < 0)
                return ret;
            /* the copies are written on rendition 0's stream */
            streams[i] = streams[0];
        }
#else
        return AVERROR(ENOSYS);
#endif
    }

    for (int r = 0; r < n; r++) {
        if (fmts[r] == fmts[n])
            continue;
        av_log(ctx, AV_LOG_ERROR, "Input %sformats differ: %s is %s, reference "
               "is %s\n", s->is_cuda ? "CUDA sw_" : "", s->rend[r].name,
               av_get_pix_fmt_name(fmts[r]), av_get_pix_fmt_name(fmts[n]));
        return AVERROR(EINVAL);
    }
    ref_fmt = fmts[n];
    ret = map_format(ref_fmt, &vg_fmt, &bitdepth);
    if (ret < 0) {
        if (s->is_cuda)
            av_log(ctx, AV_LOG_ERROR, "Unsupported CUDA sw_format %s: convert "
                   "%s on the GPU (scale_cuda=format=nv12, p010, yuv444p, ...) "
                   "or download them (hwdownload,format=%s,format=yuv420p, "
                   "...)\n", av_get_pix_fmt_name(ref_fmt),
                   n > 1 ? "every input" : "both inputs",
                   av_get_pix_fmt_name(ref_fmt));
        else
            av_log(ctx, AV_LOG_ERROR, "Unsupported pixel format %s: convert "
                   "%s to a YUV or gray format (format=yuv420p, yuv420p10le, "
                   "...)\n", av_get_pix_fmt_name(ref_fmt),
                   n > 1 ? "every input" : "both inputs");
        return AVERROR(EINVAL);
    }
    if (s->bitdepth) {
        /* 16-bit words holding fewer MSB-aligned bits: NVDEC's 12-bit
         * 4:2:0 and 10/12-bit 4:4:4 before FFmpeg 9 */
        if (ref_fmt == AV_PIX_FMT_YUV444P16)
            vg_fmt = VG_PIX_FMT_YUV444P_MSB;
        else if (ref_fmt != AV_PIX_FMT_P016 && ref_fmt != AV_PIX_FMT_P216) {
            av_log(ctx, AV_LOG_ERROR, "bitdepth=%d applies to p016, p216 and "
                   "yuv444p16 inputs only; the inputs are %s, %u-bit\n",
                   s->bitdepth, av_get_pix_fmt_name(ref_fmt), bitdepth);
            return AVERROR(EINVAL);
        }
        if (s->bitdepth < 9) {
            av_log(ctx, AV_LOG_ERROR, "bitdepth=%d: 16-bit words hold 9 to "
                   "16 significant bits\n", s->bitdepth);
            return AVERROR(EINVAL);
        }
        bitdepth = s->bitdepth;
    }
#if LIBAVUTIL_VERSION_MAJOR < 61
    else if (s->is_cuda && (ref_fmt == AV_PIX_FMT_P016 ||
                            ref_fmt == AV_PIX_FMT_YUV444P16))
        av_log(ctx, AV_LOG_INFO, "CUDA %s frames are scored as 16-bit; NVDEC "
               "of this FFmpeg gives 12-bit 4:2:0 and 10/12-bit 4:4:4 video in "
               "them: set bitdepth= to the source's bit depth\n",
               av_get_pix_fmt_name(ref_fmt));
#endif
    if (s->is_cuda && s->scale_flags) {
        /* the library scales CUDA frames as libswscale scales the same
         * format; it does so up to 14 bits, from the format's own depth.
         * Set whenever it can: the frames' crop rectangles may still make
         * the sizes differ. */
        s->scale_cuda_refusal = s->scale_flags == SWS_FAST_BILINEAR ?
            "libswscale's fast_bilinear is its own arithmetic, not done on "
            "CUDA frames: use scale=bilinear" :
            s->bitdepth || bitdepth > 14 ?
            "the GPU scales 8- to 14-bit formats at their own depth (no "
            "bitdepth option), as libswscale does: scale in front "
            "(scale_cuda, or hwdownload and scale with "
            "accurate_rnd+bitexact)" : NULL;
        if (!s->scale_cuda_refusal) {
            s->scale_cuda = vg_scale_from_name(s->scale_name);
            if ((int)s->scale_cuda < 0)
                return AVERROR_BUG;
        }
    }

    s->sw_format = ref_fmt;
    s->desc      = av_pix_fmt_desc_get(ref_fmt);
    s->pic_ref   = (VgPicture) {
        .fmt         = vg_fmt,
        .width       = ref->w,
        .height      = ref->h,
        .bitdepth    = bitdepth,
        .memory      = s->is_cuda ? VG_MEMORY_CUDA : VG_MEMORY_HOST,
        .cuda_stream = streams[n],
    };
    for (int r = 0; r < n; r++) {
        AVFilterLink *dis = ctx->inputs[r];
        Rendition *rend = &s->rend[r];
        const int own = dis->w != ref->w || dis->h != ref->h;

        if (s->is_cuda && own && s->scale_cuda_refusal) {
            av_log(ctx, AV_LOG_ERROR, "%sscale=%s on CUDA %s frames of "
                   "different sizes: %s\n", rend->prefix, s->scale_name,
                   av_get_pix_fmt_name(ref_fmt), s->scale_cuda_refusal);
            return AVERROR(EINVAL);
        }
        if (s->is_cuda && own)
            av_log(ctx, AV_LOG_VERBOSE, "Scaling the %s CUDA frames from "
                   "%dx%d to the reference's %dx%d on the GPU: the samples of "
                   "libswscale %s+accurate_rnd+bitexact\n", rend->name,
                   dis->w, dis->h, ref->w, ref->h, s->scale_name);
        if (dis->color_range != ref->color_range)
            av_log(ctx, AV_LOG_WARNING, "Inputs use different color ranges: "
                   "%s is %s, reference is %s\n", rend->name,
                   av_color_range_name(dis->color_range),
                   av_color_range_name(ref->color_range));
        if (own && !s->is_cuda) {
            ret = init_scaler(ctx, r, ref_fmt);
            if (ret < 0)
                return ret;
        }
        rend->w   = dis->w;
        rend->h   = dis->h;
        rend->pic = s->pic_ref;
        rend->pic.cuda_stream = streams[r];
        if (s->scale_cuda && own) {
            /* scaled by the library, from the frames' own size */
            rend->pic.width  = dis->w;
            rend->pic.height = dis->h;
        }
    }
    av_log(ctx, AV_LOG_VERBOSE, "%s frames %dx%d %s, %u bits\n",
           s->is_cuda ? "CUDA" : "Software", ref->w, ref->h,
           av_get_pix_fmt_name(ref_fmt), bitdepth);
    return 0;
}

static int init_library(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    VgConfig cfg;
    int ret, err;

    /* libvmaf takes any thread count (tools pass the processor count), up
     * to UINT_MAX under its names: the option's int holds it as unsigned,
     * as in libvmaf's filter */
    if ((unsigned)s->n_threads > VG_MAX_THREADS) {
        av_log(ctx, AV_LOG_WARNING, "n_threads=%u is more host threads than "
               "vmafgpu runs; using %d (the scores do not depend on it)\n",
               (unsigned)s->n_threads, VG_MAX_THREADS);
        s->n_threads = VG_MAX_THREADS;
    }
    cfg = (VgConfig) {
        .backend     = s->backend,
        .n_threads   = s->n_threads,
        .n_subsample = (unsigned)s->n_subsample,
        .log_level   = log_level(),
        .log_cb      = log_callback,
        .log_opaque  = ctx,
        .scale       = s->scale_cuda,
        .n_distorted = s->nb_renditions > 1 ? s->nb_renditions : 0,
    };

#if CONFIG_CUDA
    if (s->is_cuda) {
        cfg.cuda_context = s->hwctx->cuda_ctx;
        cfg.cuda_stream  = s->hwctx->stream;
    }
#endif
    if (s->is_cuda && s->backend == VG_BACKEND_CPU) {
        av_log(ctx, AV_LOG_ERROR, "backend=cpu cannot read CUDA frames; "
               "download them (hwdownload) or use backend=auto|cuda\n");
        return AVERROR(EINVAL);
    }

    ret = cuda_push(ctx);
    if (ret < 0)
        return ret;
    ret = vg_context_create(&s->vg, &cfg);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "Could not create the libvmafgpu context "
               "(backend %s): %s\n", s->backend == VG_BACKEND_CUDA ? "cuda" :
               s->backend == VG_BACKEND_CPU ? "cpu" : "auto", av_err2str(ret));
        goto fail;
    }
    for (int r = 0; r < s->nb_renditions; r++) {
        s->rend[r].vg = vg_rendition(s->vg, r);
        if (!s->rend[r].vg) {
            ret = AVERROR_BUG;
            goto fail;
        }
    }
    ret = use_models(ctx);
    if (ret < 0)
        goto fail;
    ret = use_features(ctx);
    if (ret < 0)
        goto fail;

fail:
    err = cuda_pop(ctx);
    return ret < 0 ? ret : err;
}

/**
 * Set up framesync as ff_framesync_init_dualinput() does for a pair:
 * rendition 0 drives the output, a frame scored for each of its frames;
 * the other renditions are paired with it by their timestamps as the
 * reference is (the frame at or before, ts_sync_mode=nearest: the
 * nearest), and one that ends first repeats its last frame. Renditions
 * that share rendition 0's timestamps are thus each paired with the
 * reference as in a pair of its own.
 */
static int init_framesync(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    const int n = s->nb_renditions;
    FFFrameSync *fs = &s->fs;
    int ret;

    if (n == 1)
        return ff_framesync_init_dualinput(fs, ctx);
    ret = ff_framesync_init(fs, ctx, n + 1);
    if (ret < 0)
        return ret;
    for (int i = 0; i <= n; i++) {
        fs->in[i].time_base = ctx->inputs[i]->time_base;
        fs->in[i].sync      = i ? 1 : 2;
        fs->in[i].before    = i ? EXT_NULL : EXT_STOP;
        fs->in[i].after     = EXT_INFINITY;
    }
    return 0;
}

/**
 * ff_framesync_configure() of a ladder: with eof_action=pass
 * (repeatlast=0) it stops syncing the inputs after the first and drops
 * their frames after their end, which is meant for the reference alone:
 * the renditions keep their last frame. The time base is set first, as it
 * would set it from the inputs synced, the renditions included.
 */
static int configure_framesync(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    const int n = s->nb_renditions;
    FFFrameSync *fs = &s->fs;
    int ret;

    if (n > 1) {
        const int pass = !fs->opt_repeatlast ||
                         fs->opt_eof_action == EOF_ACTION_PASS;

        for (int i = 0; i < n + !pass; i++)
            fs->time_base = i ? av_gcd_q(fs->time_base, fs->in[i].time_base,
                                         AV_TIME_BASE / 2, AV_TIME_BASE_Q) :
                                fs->in[i].time_base;
    }
    ret = ff_framesync_configure(fs);
    if (ret < 0)
        return ret;
    for (int r = 1; r < n; r++)
        if (fs->in[r].after == EXT_NULL)
            fs->in[r].after = EXT_INFINITY;
    return 0;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    VMAFGPUContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    /* the reference's rate, else each rendition's */
    const AVRational rr = ff_filter_link(ctx->inputs[s->nb_renditions])->frame_rate;
    int ret;

    if (s->vg) {
        av_log(ctx, AV_LOG_ERROR, "Reconfiguration is not supported\n");
        return AVERROR(ENOSYS);
    }
    ret = check_inputs(ctx);
    if (ret < 0)
        return ret;
    ret = init_library(ctx);
    if (ret < 0)
        return ret;

    ret = init_framesync(ctx);
    if (ret < 0)
        return ret;
    outlink->w                   = mainlink->w;
    outlink->h                   = mainlink->h;
    outlink->time_base           = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ol->frame_rate               = il->frame_rate;
    for (int r = 0; r < s->nb_renditions; r++) {
        Rendition *rend = &s->rend[r];
        const AVRational fr = ff_filter_link(ctx->inputs[r])->frame_rate;
        double rate;

        rend->frame_rate = fr.num > 0 && fr.den > 0 ? av_q2d(fr) : 0;
        rate = rr.num > 0 && rr.den > 0 ? av_q2d(rr) : rend->frame_rate;
        rend->half_interval = rate > 0 ? 0.5 / rate : 0;
        rend->last_pts[0] = rend->last_pts[1] = AV_NOPTS_VALUE;
    }
    return configure_framesync(ctx);
}

static void warn_apart(AVFilterContext *ctx, Rendition *rend, unsigned frame,
                       int64_t t_dis, int64_t t_ref)
{
    VMAFGPUContext *s = ctx->priv;
    const double tb = av_q2d(s->fs.time_base);

    if (rend->warned_apart++)
        return;
    av_log(ctx, AV_LOG_WARNING, "Frame %u: the %s frame at %.6f s is scored "
           "against the reference frame at %.6f s, more than half a frame "
           "interval apart (libvmaf pairs them so too). Inputs from different "
           "containers (Matroska keeps millisecond timestamps) can pair every "
           "frame with its neighbour: set ts_sync_mode=nearest, or use the "
           "same container for %s\n", frame, rend->name, t_dis * tb, t_ref * tb,
           s->nb_renditions > 1 ? "all" : "both");
}

/* the run of repeats ends: mid-stream, its apart pairs were mispaired */
static void end_run(AVFilterContext *ctx, Rendition *rend)
{
    if (rend->run_apart) {
        rend->n_apart += rend->run_apart;
        warn_apart(ctx, rend, rend->run_apart_frame, rend->run_apart_pts[0],
                   rend->run_apart_pts[1]);
    }
    rend->run_len = rend->run_apart = 0;
}

/**
 * Check how framesync paired the frames of rendition r being scored with
 * the reference's: libvmaf's filter pairs them the same way and says
 * nothing. Count the pairs more than half a frame interval apart
 * (timestamps of other containers, Matroska's milliseconds, can put each
 * distorted frame just before its reference and pair it with the one
 * before) and the frames of an input that ended first scored again;
 * print_summary() warns about those, warn_apart() once about the first.
 */
static void check_pairing(AVFilterContext *ctx, int r)
{
    VMAFGPUContext *s = ctx->priv;
    Rendition *rend = &s->rend[r];
    const int64_t t_dis = s->fs.in[r].pts;
    const int64_t t_ref = s->fs.in[s->nb_renditions].pts;
    const double tb = av_q2d(s->fs.time_base);
    int apart, repeat;

    if (t_dis == AV_NOPTS_VALUE || t_ref == AV_NOPTS_VALUE)
        return;
    apart = rend->half_interval > 0 &&
            fabs((double)(t_dis - t_ref) * tb) > rend->half_interval;
    repeat = s->frame_cnt &&
             (t_dis == rend->last_pts[0] || t_ref == rend->last_pts[1]);
    if (repeat) {
        if (!rend->run_len++) {
            rend->run_ref = t_ref == rend->last_pts[1];
            rend->run_pts = rend->run_ref ? t_ref : t_dis;
        }
        if (apart && !rend->run_apart++) {
            rend->run_apart_frame = s->frame_cnt;
            rend->run_apart_pts[0] = t_dis;
            rend->run_apart_pts[1] = t_ref;
        }
    } else {
        end_run(ctx, rend);
        if (apart) {
            rend->n_apart++;
            warn_apart(ctx, rend, s->frame_cnt, t_dis, t_ref);
        }
    }
    rend->last_pts[0] = t_dis;
    rend->last_pts[1] = t_ref;
}

/** Set the frame metadata of rendition r's scores of library frame index. */
static int attach_rendition(AVFilterContext *ctx, int r, AVFrame *frame,
                            unsigned index, int flags)
{
    VMAFGPUContext *s = ctx->priv;
    Rendition *rend = &s->rend[r];
    unsigned n = vg_metric_count(rend->vg);
    char val[64];
    int ret;

    /* the library only appends metrics: each key is made once */
    if (n > rend->nb_meta_keys) {
        char **keys = av_realloc_array(rend->meta_keys, n, sizeof(*keys));

        if (!keys)
            return AVERROR(ENOMEM);
        rend->meta_keys = keys;
        for (; rend->nb_meta_keys < n; rend->nb_meta_keys++) {
            const char *name = vg_metric_name(rend->vg, rend->nb_meta_keys);
            char *key = NULL;

            /* model names have no length limit */
            if (name)
                key = s->nb_renditions > 1 ?
                      av_asprintf("lavfi.vmafgpu.%d.%s", r, name) :
                      av_asprintf("lavfi.vmafgpu.%s", name);
            keys[rend->nb_meta_keys] = key;
            if (name && !key)
                return AVERROR(ENOMEM);
        }
    }
    for (unsigned i = 0; i < n; i++) {
        const char *name = vg_metric_name(rend->vg, i);
        double score;

        if (!name || !rend->meta_keys[i] ||
            vg_get_score(rend->vg, name, index, &score) < 0)
            continue;
        snprintf(val, sizeof(val),
                 s->precision == VG_PRECISION_MAX ? "%.17g" : "%.6f", score);
        ret = av_dict_set(&frame->metadata, rend->meta_keys[i], val, flags);
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int attach_scores(AVFilterContext *ctx, AVFrame *frame, unsigned index)
{
    VMAFGPUContext *s = ctx->priv;
    int flags = 0, ret;

    /* Keys that are new to the frame are added without looking each up
     * (a search per key makes the frame's scores cost quadratic time);
     * a frame scored before by another vmafgpu gets its values replaced. */
    if (!av_dict_get(frame->metadata, "lavfi.vmafgpu.", NULL,
                     AV_DICT_IGNORE_SUFFIX))
        flags = AV_DICT_MULTIKEY;
    for (int r = 0; r < s->nb_renditions; r++)
        if ((ret = attach_rendition(ctx, r, frame, index, flags)) < 0)
            return ret;
    return 0;
}

/**
 * @return how many of the frames sent on the consumer has taken: the next
 *         filter, or past filters that have passed on one frame for each
 *         one they took (format and scale filters that ffmpeg inserts
 *         before an encoder, null, metadata...), the filter at the end of
 *         that chain. ffmpeg asks once more for a frame after its output
 *         has stopped; the frame this fetches into such a chain never
 *         reaches the consumer and is no part of the result.
 *
 *         A buffer sink at the end takes a frame from its link when the
 *         application peeks at it, and ffmpeg's last request is such a
 *         peek: whether it found a frame ready depends on the timing of
 *         the scoring, so a frame the sink holds is not counted until the
 *         application has it. While the graph runs the sink's state is
 *         read from the link: it asks for a frame only when it holds none,
 *         and a frame waiting on the link arrived after such a request, so
 *         only the last frame it took is in doubt and it is counted once
 *         the sink asks again. When the graph is torn down (final), the
 *         sink is asked whether it holds one.
 */
static int64_t frames_taken(AVFilterLink *link, int final)
{
    int64_t taken = ff_filter_link(link)->frame_count_out;
    FilterLink *l;

    for (int depth = 0; depth < 64; depth++) {
        AVFilterContext *next = link->dst;
        AVFilterLink *out;

        if (!next || next->nb_inputs != 1 || next->nb_outputs != 1 ||
            !(out = next->outputs[0]) ||
            ff_filter_link(out)->frame_count_in != taken)
            break;
        link  = out;
        taken = ff_filter_link(link)->frame_count_out;
    }
    if (!link->dst || strcmp(link->dst->filter->name, "buffersink") || !taken)
        return taken;
    l = ff_filter_link(link);
    if (final) {
        /* a peek that neither runs the graph nor requests a frame; a frame
         * still waiting on the link is taken by it and not counted either */
        if (av_buffersink_get_frame_flags(link->dst, NULL, AV_BUFFERSINK_FLAG_PEEK |
                                          AV_BUFFERSINK_FLAG_NO_REQUEST) >= 0)
            taken = l->frame_count_out - 1;
    } else if (!ff_outlink_frame_wanted(link) && l->frame_count_in == taken) {
        taken--;
    }
    return taken;
}

/**
 * Account for the frames the consumer has taken since the last call: the
 * library frames they carry are the ones passed on. Called on every
 * activation (ffmpeg asks for one more frame after its output has stopped,
 * so the last frame it took is seen here) and in uninit (final).
 *
 * @return 0 when the output link is gone (the consumer was freed first),
 *         and the count is that of the last activation
 */
static int count_taken(AVFilterContext *ctx, int final)
{
    VMAFGPUContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->nb_outputs ? ctx->outputs[0] : NULL;
    int64_t taken, index;

    if (!outlink || !outlink->dst || !s->sent)
        return 0;
    taken = frames_taken(outlink, final);
    while (s->n_taken < taken && av_fifo_read(s->sent, &index, 1) >= 0) {
        s->n_taken++;
        if (index >= 0)
            s->n_passed = index + 1;
    }
    return 1;
}

/**
 * Send on the oldest queued frame when the consumer asks for one and its
 * scores are ready, or when more than queue_size frames wait (with what is
 * ready of its scores); send all when flushing. Sending only on request
 * keeps at most one frame on the output link that the consumer has not
 * taken, whatever the timing of the inputs.
 */
static int send_ready(AVFilterContext *ctx, int all)
{
    VMAFGPUContext *s = ctx->priv;
    unsigned ready = s->vg ? vg_frames_ready(s->vg) : 0;
    QueuedFrame q;
    int ret;

    count_taken(ctx, 0);
    while (av_fifo_peek(s->queue, &q, 1, 0) >= 0) {
        if (!all && (!ff_outlink_frame_wanted(ctx->outputs[0]) ||
                     (q.index >= ready &&
                      av_fifo_can_read(s->queue) <= s->queue_size)))
            break;
        av_fifo_drain2(s->queue, 1);
        if (q.index >= 0) {
            if (q.index >= ready && !all)
                av_log(ctx, AV_LOG_DEBUG, "Frame %"PRId64" leaves the queue "
                       "before all its scores are ready\n", q.index);
            ret = attach_scores(ctx, q.frame, q.index);
            if (ret < 0) {
                av_frame_free(&q.frame);
                return ret;
            }
        }
        ret = ff_filter_frame(ctx->outputs[0], q.frame);
        if (ret < 0)
            return ret;
        ret = av_fifo_write(s->sent, &q.index, 1);
        if (ret < 0)
            return ret;
        count_taken(ctx, 0);
    }
    return 0;
}

/**
 * The size of the picture of input i's frame within its cropping
 * rectangle. Hardware frames carry the rectangle in crop_* (the crop
 * filter sets it; VP9 and AV1 frames from NVDEC are padded to even sizes,
 * and crop=W:H:0:0 in front gives the stream's size back); software
 * frames arrive cropped.
 * @return 0, or AVERROR(EINVAL) for a frame of another format than the
 *         input's (or another CUDA context) or a rectangle that starts off
 *         the chroma sampling grid
 */
static int cropped_size(AVFilterContext *ctx, int i, const AVFrame *frame,
                        int *w, int *h)
{
    VMAFGPUContext *s = ctx->priv;
    const int xmask = (1 << s->desc->log2_chroma_w) - 1;
    const int ymask = (1 << s->desc->log2_chroma_h) - 1;
    const char *prefix = i < s->nb_renditions ? s->rend[i].prefix :
                         s->nb_renditions > 1 ? "reference: " : "";
    enum AVPixelFormat fmt = frame->format;

    if (fmt == AV_PIX_FMT_CUDA) {
#if CONFIG_CUDA
        const AVHWFramesContext *fc = frame->hw_frames_ctx ?
            (AVHWFramesContext *)frame->hw_frames_ctx->data : NULL;
        const AVCUDADeviceContext *hw = fc ? fc->device_ctx->hwctx : NULL;
        const AVCUDADeviceContext *want = i && s->copies[i].hwctx ?
                                          s->copies[i].hwctx : s->hwctx;

        fmt = fc ? fc->sw_format : AV_PIX_FMT_NONE;
        if (hw && hw->cuda_ctx != want->cuda_ctx) {
            av_log(ctx, AV_LOG_ERROR, "%sThe %s frames' CUDA context changed "
                   "mid-stream\n", prefix, input_name(s, i));
            return AVERROR(EINVAL);
        }
#endif
    }
    if (frame->format != ctx->inputs[i]->format || fmt != s->sw_format) {
        av_log(ctx, AV_LOG_ERROR, "%sThe %s frames' format changed "
               "mid-stream: %s, configured %s\n", prefix, input_name(s, i),
               av_get_pix_fmt_name(fmt), av_get_pix_fmt_name(s->sw_format));
        return AVERROR(EINVAL);
    }
    if ((frame->crop_left & xmask) || (frame->crop_top & ymask)) {
        av_log(ctx, AV_LOG_ERROR, "%sCropping at %zu,%zu in a %s frame starts "
               "between two chroma samples: crop at a multiple of %d,%d\n",
               prefix, frame->crop_left, frame->crop_top,
               av_get_pix_fmt_name(fmt), xmask + 1, ymask + 1);
        return AVERROR(EINVAL);
    }
    *w = frame->width  - frame->crop_left - frame->crop_right;
    *h = frame->height - frame->crop_top  - frame->crop_bottom;
    return 0;
}

/**
 * Point pic at the picture of frame within the cropping rectangle of
 * `crop` (frame itself, or the frame that frame is a copy of).
 */
static void fill_picture(AVFilterContext *ctx, VgPicture *pic,
                         const AVFrame *frame, const AVFrame *crop)
{
    VMAFGPUContext *s = ctx->priv;
    int steps[4];

    av_image_fill_max_pixsteps(steps, NULL, s->desc);
    for (int i = 0; i < 3; i++) {
        const int sx = i ? s->desc->log2_chroma_w : 0;
        const int sy = i ? s->desc->log2_chroma_h : 0;

        pic->data[i]   = frame->data[i];
        pic->stride[i] = frame->linesize[i];
        if (frame->data[i])
            pic->data[i] = frame->data[i] +
                           (crop->crop_top >> sy) * frame->linesize[i] +
                           (crop->crop_left >> sx) * steps[i];
    }
}

/**
 * Check the sizes of the frames to score (in[r] of rendition r, in[n] the
 * reference's) against those configured. CUDA frames keep their link's
 * size and carry the crop filter's rectangle: the first frames' sets the
 * sizes scored.
 */
static int check_sizes(AVFilterContext *ctx, AVFrame *const *in)
{
    VMAFGPUContext *s = ctx->priv;
    const int n = s->nb_renditions;
    int w[VG_MAX_RENDITIONS + 1], h[VG_MAX_RENDITIONS + 1], ret;

    for (int i = 0; i <= n; i++)
        if ((ret = cropped_size(ctx, i, in[i], &w[i], &h[i])) < 0)
            return ret;
    if (s->is_cuda && !s->frame_cnt) {
        int changed = w[n] != s->pic_ref.width || h[n] != s->pic_ref.height;

        for (int r = 0; r < n; r++) {
            Rendition *rend = &s->rend[r];

            changed |= w[r] != rend->w || h[r] != rend->h;
            if ((w[r] != w[n] || h[r] != h[n]) && !s->scale_cuda) {
                av_log(ctx, AV_LOG_ERROR, "Input sizes differ after cropping: "
                       "%s %dx%d, reference %dx%d%s%s\n", rend->name,
                       w[r], h[r], w[n], h[n], s->scale_flags ? "; scale: " :
                       "; set the scale option to score the distorted input "
                       "scaled to the reference's size",
                       s->scale_flags ? s->scale_cuda_refusal : "");
                return AVERROR(EINVAL);
            }
        }
        if (changed) {
            int scaled = 0;

            for (int r = 0; r < n; r++) {
                Rendition *rend = &s->rend[r];

                scaled |= w[r] != w[n] || h[r] != h[n];
                rend->w = w[r];
                rend->h = h[r];
                rend->pic.width  = s->scale_cuda ? w[r] : w[n];
                rend->pic.height = s->scale_cuda ? h[r] : h[n];
            }
            av_log(ctx, AV_LOG_VERBOSE, "Scoring the CUDA frames cropped to "
                   "%dx%d%s\n", w[n], h[n], scaled ?
                   ", the distorted ones scaled on the GPU from their own "
                   "crop" : "");
            s->pic_ref.width  = w[n];
            s->pic_ref.height = h[n];
        }
    }
    for (int r = 0; r < n; r++) {
        Rendition *rend = &s->rend[r];

        if (w[r] == rend->w && h[r] == rend->h &&
            w[n] == s->pic_ref.width && h[n] == s->pic_ref.height)
            continue;
        av_log(ctx, AV_LOG_ERROR, "Frame size changed: %s %dx%d, reference "
               "%dx%d; configured: %s %dx%d, reference %ux%u\n", rend->name,
               w[r], h[r], w[n], h[n], n > 1 ? rend->name : "distorted",
               rend->w, rend->h, s->pic_ref.width, s->pic_ref.height);
        return AVERROR(EINVAL);
    }
    return 0;
}

static int do_vmafgpu(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    VMAFGPUContext *s = ctx->priv;
    const int n = s->nb_renditions;
    /* the frames of each input, then the copies scored where they differ */
    AVFrame *in[VG_MAX_RENDITIONS + 1] = { NULL };
    AVFrame *tmp[VG_MAX_RENDITIONS + 1] = { NULL };
    const VgPicture *dis[VG_MAX_RENDITIONS];
    int scored, ret, err;
    QueuedFrame q;

    /* ff_framesync_dualinput_get() for any number of renditions: rendition
     * 0's frame is taken and passed through, the others are read */
    ret = ff_framesync_get_frame(fs, 0, &q.frame, 1);
    if (ret < 0)
        return ret;
    if (!q.frame)
        return AVERROR_BUG;
    q.frame->pts = av_rescale_q(fs->pts, fs->time_base, ctx->outputs[0]->time_base);
    q.index = -1;
    in[0] = q.frame;
    for (int i = 1; i <= n; i++)
        if ((ret = ff_framesync_get_frame(fs, i, &in[i], 0)) < 0)
            goto fail;
    /* a rendition's frame is never missing (each repeats its last), the
     * reference's before its first one */
    scored = !ctx->is_disabled;
    for (int i = 0; i <= n; i++)
        scored &= !!in[i];

    if (scored) {
        if ((ret = check_sizes(ctx, in)) < 0)
            goto fail;
        for (int i = 0; i <= n; i++) {
            AVFrame *frame = in[i];

            ret = 0;
            if (i < n && s->rend[i].sws)
                ret = scale_distorted(ctx, &s->rend[i], frame, &tmp[i]);
#if CONFIG_CUDA
            else if (i && s->copies[i].hwctx)
                ret = copy_input(ctx, &s->copies[i], frame, &tmp[i]);
#endif
            if (ret < 0)
                goto fail;
            if (i < n) {
                check_pairing(ctx, i);
                /* a scaled copy is cropped already */
                fill_picture(ctx, &s->rend[i].pic, tmp[i] ? tmp[i] : frame,
                             s->rend[i].sws ? tmp[i] : frame);
                dis[i] = &s->rend[i].pic;
            } else {
                fill_picture(ctx, &s->pic_ref, tmp[i] ? tmp[i] : frame, frame);
            }
        }

        ret = cuda_push(ctx);
        if (ret < 0)
            goto fail;
        ret = vg_submit_ladder(s->vg, &s->pic_ref, dis);
        err = cuda_pop(ctx);
        /* the library's reads come before later work on the copies'
         * stream, where the next copy into this pool buffer is queued; host
         * pictures are read before vg_submit() returns */
        for (int i = 0; i <= n; i++)
            av_frame_free(&tmp[i]);
        if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "Could not score frame %u: %s\n",
                   s->frame_cnt, av_err2str(ret));
            goto fail;
        }
        if (err < 0) {
            ret = err;
            goto fail;
        }
        q.index = s->frame_cnt++;
    }

    ret = av_fifo_write(s->queue, &q, 1);
    if (ret < 0)
        goto fail;
    return send_ready(ctx, 0);

fail:
    for (int i = 0; i <= n; i++)
        av_frame_free(&tmp[i]);
    av_frame_free(&q.frame);
    return ret;
}

/**
 * Finish scoring: all submitted frames at the end of the inputs, or the
 * first n_frames when the output stopped earlier (uninit without EOF).
 */
static int flush_library(AVFilterContext *ctx, unsigned n_frames)
{
    VMAFGPUContext *s = ctx->priv;
    int ret, err;

    if (s->flushed < 0)
        return s->flushed;
    if (!s->vg || !s->frame_cnt ||
        (s->flushed && n_frames == vg_frame_count(s->vg)))
        return 0;
    ret = cuda_push(ctx);
    if (ret >= 0) {
        ret = vg_flush_frames(s->vg, n_frames);
        err = cuda_pop(ctx);
        if (ret < 0)
            av_log(ctx, AV_LOG_ERROR, "Could not finish scoring: %s\n",
                   av_err2str(ret));
        else
            ret = err;
    }
    s->flushed = ret < 0 ? ret : 1;
    return ret;
}

static int activate(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    int ret;

    ret = ff_framesync_activate(&s->fs);
    if (ret < 0)
        return ret;

    /* framesync has marked the output EOF inside ff_framesync_activate();
     * frames queued on the link before the consumer acknowledges that
     * status still reach it, so the held frames are sent now, in this
     * same activation, with their end-of-stream scores (temporal features,
     * models). */
    if (s->fs.eof && av_fifo_can_read(s->queue)) {
        ret = flush_library(ctx, s->frame_cnt);
        if (ret < 0)
            return ret;
        ret = send_ready(ctx, 1);
        /* the consumer may take the last ones after this filter's last
         * activation: uninit counts them, or when the consumer is freed
         * first, takes them all as passed on */
        s->eof_sent = ret >= 0;
        return ret;
    }
    /* a request of the consumer may find a frame that is ready already */
    return send_ready(ctx, 0);
}

/* A log or chart file that cannot be written fails the run at its start
 * rather than after the last frame. The probe appends nothing, so a file
 * already there stays as it is until the end; standard output, devices
 * and pipes (whose reader would see the probe's writer leave) are not
 * probed. *created: the probe made the (empty) file, for
 * remove_unwritten() to take back if the run writes nothing there. */
static int check_output_path(AVFilterContext *ctx, const char *opt,
                             const char *path, int *created)
{
    struct stat st;
    int err = 0, found, missing;
    FILE *f;

    *created = 0;
    if (!path || !strcmp(path, "-"))
        return 0;
    found = !stat(path, &st);
    missing = !found && errno == ENOENT;
#if defined(S_ISREG) && defined(S_ISDIR)
    if (found && !S_ISREG(st.st_mode)) {
        if (!S_ISDIR(st.st_mode))
            return 0;
        err = AVERROR(EISDIR);
    }
#endif
    if (!err) {
        if ((f = avpriv_fopen_utf8(path, "a"))) {
            fclose(f);
            /* only where the name reaches the same file both ways */
            *created = missing && !stat(path, &st) && !st.st_size;
            return 0;
        }
        err = AVERROR(errno);
    }
    av_log(ctx, AV_LOG_ERROR, "Cannot write the %s file '%s': %s%s\n", opt, path,
           av_err2str(err), is_libvmaf(ctx) && !strcmp(opt, "log_path") ?
           " (libvmaf's filter would find it out at the end, after scoring "
           "every frame, and exit 0 without a log; refused before scoring)" : "");
    return err;
}

/* the file the probe made, never written and still empty: no trace of a
 * run that wrote nothing there */
static void remove_unwritten(const char *path, int created)
{
    struct stat st;

    if (created && !stat(path, &st) && !st.st_size)
        remove(path);
}

/**
 * log_fmt and pool. Under libvmaf's names, as libvmaf's filter takes them:
 * any string, a value it does not know meaning XML and the mean, with a
 * warning, pool=max too (libvmaf knows no max: the mean, with a warning
 * that vmafgpu's max differs); and log_path=- a file named -. Under our
 * own name, such log_fmt and pool values are refused.
 */
static int parse_names(AVFilterContext *ctx)
{
    static const struct { const char *name; int value; } fmts[] = {
        { "xml", VG_LOG_FMT_XML }, { "json", VG_LOG_FMT_JSON },
        { "csv", VG_LOG_FMT_CSV }, { "sub",  VG_LOG_FMT_SUB },
    }, pools[] = {
        { "mean", VG_POOL_MEAN }, { "harmonic_mean", VG_POOL_HARMONIC_MEAN },
        { "min",  VG_POOL_MIN },  { "max",           VG_POOL_MAX },
    };
    VMAFGPUContext *s = ctx->priv;
    const int own = !strcmp(ctx->filter->name, "vmafgpu");
    const char *fmt = s->log_fmt_name ? s->log_fmt_name : "";
    const char *pool = s->pool_name ? s->pool_name : "";
    int i;

    for (i = 0; i < FF_ARRAY_ELEMS(fmts) && strcmp(fmt, fmts[i].name); i++)
        ;
    s->log_fmt = i < FF_ARRAY_ELEMS(fmts) ? fmts[i].value : VG_LOG_FMT_XML;
    if (i == FF_ARRAY_ELEMS(fmts) && own) {
        av_log(ctx, AV_LOG_ERROR, "Invalid log_fmt '%s': xml, json, csv or "
               "sub\n", fmt);
        return AVERROR(EINVAL);
    }
    if (i == FF_ARRAY_ELEMS(fmts) && s->log_path)
        av_log(ctx, AV_LOG_WARNING, "log_fmt '%s' is none of xml, json, csv "
               "and sub: writing XML, as libvmaf's filter does\n", fmt);
    for (i = 0; i < FF_ARRAY_ELEMS(pools) && strcmp(pool, pools[i].name); i++)
        ;
    s->pool = i < FF_ARRAY_ELEMS(pools) ? pools[i].value : VG_POOL_MEAN;
    if (i == FF_ARRAY_ELEMS(pools) && own) {
        av_log(ctx, AV_LOG_ERROR, "Invalid pool '%s': mean, harmonic_mean, min "
               "or max\n", pool);
        return AVERROR(EINVAL);
    }
    if (i == FF_ARRAY_ELEMS(pools))
        av_log(ctx, AV_LOG_WARNING, "pool '%s' is none of mean, harmonic_mean, "
               "min and max: pooling by the mean, as libvmaf's filter does\n",
               pool);
    else if (s->pool == VG_POOL_MAX && !own) {
        av_log(ctx, AV_LOG_WARNING, "pool=max: libvmaf's filter knows no max "
               "and pools by the mean; so does this one under libvmaf's name "
               "(vmafgpu's pool=max prints the maximum)\n");
        s->pool = VG_POOL_MEAN;
    }
    /* libvmaf's filter opens the log by its name (vmaf_write_output()):
     * "-" is a file of that name, not the standard output */
    if (!own && s->log_path && !strcmp(s->log_path, "-")) {
        char *path = av_strdup("./-");

        if (!path)
            return AVERROR(ENOMEM);
        av_free(s->log_path);
        s->log_path = path;
    }
    return 0;
}

/**
 * Rendition r's path of a file option: a ladder's path has one %d,
 * replaced by r, and %% for a '%'; a pair's is the option's
 * (vg_rendition_path()).
 */
static int rendition_path(AVFilterContext *ctx, const char *opt,
                          const char *path, int r, char **out)
{
    VMAFGPUContext *s = ctx->priv;
    char *p;
    int ret;

    *out = NULL;
    if (!path)
        return 0;
    ret = vg_rendition_path(&p, path, r, s->nb_renditions);
    if (ret == AVERROR(EINVAL)) {
        av_log(ctx, AV_LOG_ERROR, "%s '%s': with renditions=%d, each "
               "rendition writes a file of its own, named by the path with "
               "its one %%d replaced by its number (%s=vmaf_%%d.%s; %%%% for "
               "a '%%')\n", opt, path, s->nb_renditions, opt,
               opt[0] == 'l' ? "json" : "svg");
        return ret;
    }
    if (ret < 0)
        return ret;
    *out = av_strdup(p);
    free(p);
    return *out ? 0 : AVERROR(ENOMEM);
}

static const AVFilterPad vmafgpu_inputs[] = {
    {
        .name = "main",
        .type = AVMEDIA_TYPE_VIDEO,
    },
    {
        .name = "reference",
        .type = AVMEDIA_TYPE_VIDEO,
    },
};

/**
 * vmafgpu's inputs: the pair's, or renditions 0 .. N-1 (pads
 * rendition0 ..) and the reference.
 */
static int append_inputs(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    const int n = s->nb_renditions;
    int ret;

    for (int i = 0; i <= n; i++) {
        AVFilterPad pad = vmafgpu_inputs[i == n];

        if (n == 1 || i == n) {
            ret = ff_append_inpad(ctx, &pad);
        } else {
            pad.name = av_asprintf("rendition%d", i);
            if (!pad.name)
                return AVERROR(ENOMEM);
            ret = ff_append_inpad_free_name(ctx, &pad);
        }
        if (ret < 0)
            return ret;
    }
    return 0;
}

static av_cold int init(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    int ret;

    /* libvmaf's names have no renditions option: a pair */
    if (is_libvmaf(ctx))
        s->nb_renditions = 1;
    if ((ret = parse_names(ctx)) < 0)
        return ret;
    s->rend = av_calloc(s->nb_renditions, sizeof(*s->rend));
    if (!s->rend)
        return AVERROR(ENOMEM);
#if CONFIG_CUDA
    s->copies = av_calloc(s->nb_renditions + 1, sizeof(*s->copies));
    if (!s->copies)
        return AVERROR(ENOMEM);
#endif
    for (int r = 0; r < s->nb_renditions; r++) {
        Rendition *rend = &s->rend[r];

        if (s->nb_renditions > 1) {
            snprintf(rend->name, sizeof(rend->name), "rendition %d", r);
            snprintf(rend->prefix, sizeof(rend->prefix), "rendition %d: ", r);
        } else {
            av_strlcpy(rend->name, "distorted (main)", sizeof(rend->name));
        }
        if ((ret = rendition_path(ctx, "log_path", s->log_path, r,
                                  &rend->log_path)) < 0 ||
            (ret = rendition_path(ctx, "plot_path", s->plot_path, r,
                                  &rend->plot_path)) < 0)
            return ret;
    }
    /* the files are probed once every path is known to be valid */
    for (int r = 0; r < s->nb_renditions; r++) {
        Rendition *rend = &s->rend[r];

        if ((ret = check_output_path(ctx, "log_path", rend->log_path,
                                     &rend->log_created)) < 0 ||
            (ret = check_output_path(ctx, "plot_path", rend->plot_path,
                                     &rend->plot_created)) < 0)
            return ret;
    }
    if (!is_libvmaf(ctx) && (ret = append_inputs(ctx)) < 0)
        return ret;
    s->queue = av_fifo_alloc2(s->queue_size + 1, sizeof(QueuedFrame),
                              AV_FIFO_FLAG_AUTO_GROW);
    s->sent  = av_fifo_alloc2(4, sizeof(int64_t), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->queue || !s->sent)
        return AVERROR(ENOMEM);
    s->fs.on_event = do_vmafgpu;
    return parse_scale(ctx);
}

static void print_summary(AVFilterContext *ctx, int r)
{
    VMAFGPUContext *s = ctx->priv;
    Rendition *rend = &s->rend[r];
    unsigned n_models = vg_model_count(rend->vg);
    unsigned n_metrics = vg_metric_count(rend->vg);
    double score;
    int ret;

    for (unsigned i = 0; i < n_models; i++) {
        const char *name = vg_model_name(rend->vg, i);

        ret = vg_get_pooled(rend->vg, name, s->pool, &score);
        if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "%sCould not pool the scores of model "
                   "'%s': %s\n", rend->prefix, name, av_err2str(ret));
            continue;
        }
        /* under libvmaf's names, libvmaf's lines: one per model, unnamed */
        if (n_models == 1 || is_libvmaf(ctx))
            av_log(ctx, AV_LOG_INFO, "%sVMAF score: %f\n", rend->prefix, score);
        else
            av_log(ctx, AV_LOG_INFO, "%sVMAF score: %f (%s)\n", rend->prefix,
                   score, name);
    }
    if (rend->n_apart)
        av_log(ctx, AV_LOG_WARNING, "%s%u of the %u frames scored were paired "
               "with a reference frame more than half a frame interval away "
               "(ts_sync_mode=nearest pairs the nearest)\n", rend->prefix,
               rend->n_apart, s->frame_cnt);
    if (rend->run_apart)
        av_log(ctx, AV_LOG_WARNING, "%sThe %s input ended first: its last "
               "frame, at %.6f s, was scored again against the last %u of the "
               "%u frames scored (libvmaf repeats it so too; shortest=1 stops "
               "at the end of the shorter input)\n", rend->prefix,
               rend->run_ref ? "reference" : rend->name,
               rend->run_pts * av_q2d(s->fs.time_base), rend->run_len,
               s->frame_cnt);
    if (av_log_get_level() < AV_LOG_VERBOSE)
        return;
    for (unsigned i = 0; i < n_metrics; i++) {
        const char *name = vg_metric_name(rend->vg, i);

        if (name && vg_get_pooled(rend->vg, name, s->pool, &score) >= 0)
            av_log(ctx, AV_LOG_VERBOSE, "%s%s: %f\n", rend->prefix, name, score);
    }
}

/** Rendition r's summary, log and chart, once the stream is flushed. */
static void write_results(AVFilterContext *ctx, int r)
{
    VMAFGPUContext *s = ctx->priv;
    Rendition *rend = &s->rend[r];
    int ret;

    print_summary(ctx, r);
    if (rend->log_path) {
        rend->log_created = 0;
        /* the log says what the warnings said: frames paired apart, and
         * the frames that an input's last frame was scored against after
         * that input ended */
        if (rend->n_apart)
            vg_set_log_count(rend->vg, "frames_paired_apart", rend->n_apart);
        if (rend->run_apart)
            vg_set_log_count(rend->vg, rend->run_ref ?
                             "frames_after_reference_ended" :
                             "frames_after_distorted_ended", rend->run_len);
        ret = vg_write_log(rend->vg, rend->log_path, s->log_fmt, s->precision);
        if (ret < 0)
            av_log(ctx, AV_LOG_ERROR, "Could not write the log to %s: %s\n",
                   rend->log_path, av_err2str(ret));
    }
    if (rend->plot_path) {
        VgPlotConfig plot = {
            .worst = 3,
            .fps   = rend->frame_rate,
            .label = rend->name,
        };

        rend->plot_created = 0;
        ret = vg_write_plot(rend->vg, rend->plot_path, &plot);
        if (ret < 0)
            av_log(ctx, AV_LOG_ERROR, "Could not write the plot to %s: %s\n",
                   rend->plot_path, av_err2str(ret));
    }
}

static av_cold void uninit(AVFilterContext *ctx)
{
    VMAFGPUContext *s = ctx->priv;
    QueuedFrame q;

    ff_framesync_uninit(&s->fs);

    while (s->queue && av_fifo_read(s->queue, &q, 1) >= 0)
        av_frame_free(&q.frame);
    av_fifo_freep2(&s->queue);
    if (!count_taken(ctx, 1) && s->eof_sent)
        s->n_passed = s->frame_cnt;
    av_fifo_freep2(&s->sent);

    if (!s->vg)
        goto end;
    /* Frames scored ahead but never taken by the consumer are no part of
     * the result. */
    if (s->frame_cnt && s->n_passed < s->frame_cnt)
        av_log(ctx, AV_LOG_VERBOSE, "The output took %u of the %u frames "
               "scored; the summary and the log cover those %u\n",
               s->n_passed, s->frame_cnt, s->n_passed);
    if (s->frame_cnt && !s->n_passed)
        av_log(ctx, AV_LOG_WARNING, "No scored frame was taken from the "
               "output: no summary, log or plot\n");
    else if (s->frame_cnt && flush_library(ctx, s->n_passed) >= 0)
        for (int r = 0; r < s->nb_renditions; r++)
            write_results(ctx, r);
    if (cuda_push(ctx) >= 0) {
        vg_context_destroy(&s->vg);
        cuda_pop(ctx);
    } else {
        vg_context_destroy(&s->vg);
    }
end:
    for (int r = 0; s->rend && r < s->nb_renditions; r++) {
        Rendition *rend = &s->rend[r];

        for (unsigned i = 0; i < rend->nb_meta_keys; i++)
            av_freep(&rend->meta_keys[i]);
        av_freep(&rend->meta_keys);
        remove_unwritten(rend->log_path, rend->log_created);
        remove_unwritten(rend->plot_path, rend->plot_created);
        av_freep(&rend->log_path);
        av_freep(&rend->plot_path);
        sws_freeContext(rend->sws);
    }
    av_freep(&s->rend);
#if CONFIG_CUDA
    for (int i = 0; s->copies && i <= s->nb_renditions; i++)
        uninit_input_copy(ctx, &s->copies[i]);
    av_freep(&s->copies);
    av_buffer_unref(&s->device_ref);
#endif
    return;
}

static const AVFilterPad vmafgpu_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_output,
    },
};

#define VMAFGPU_DESCRIPTION NULL_IF_CONFIG_SMALL("Calculate VMAF and its " \
    "features between two video streams, or a reference and the renditions " \
    "of an ABR ladder, with libvmafgpu (CPU or CUDA).")

#define LIBVMAF_DESCRIPTION NULL_IF_CONFIG_SMALL("Calculate VMAF and its " \
    "features between two video streams: the vmafgpu filter under libvmaf's " \
    "name, with libvmaf's options and libvmaf v3.2.0's numbers (CPU or CUDA).")

/* FFFilter wraps the public AVFilter from libavfilter 11 (FFmpeg 8.0) */
#if LIBAVFILTER_VERSION_MAJOR >= 11
#define VMAFGPU_FILTER_TYPE FFFilter
#define VMAFGPU_PUBLIC(field) .p.field
#else
#define VMAFGPU_FILTER_TYPE AVFilter
#define VMAFGPU_PUBLIC(field) .field
#endif

/* vmafgpu's inputs are made in init() (renditions); libvmaf's names keep
 * the pair's two */
#define VMAFGPU_FILTER(sym, fname, desc, prefix, dyn_flags, inputs)     \
const VMAFGPU_FILTER_TYPE sym = {                                       \
    VMAFGPU_PUBLIC(name)        = fname,                                \
    VMAFGPU_PUBLIC(description) = desc,                                 \
    VMAFGPU_PUBLIC(priv_class)  = &prefix##_class,                      \
    VMAFGPU_PUBLIC(flags)       = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL | \
                                  AVFILTER_FLAG_METADATA_ONLY | dyn_flags, \
    .preinit       = prefix##_framesync_preinit,                        \
    .init          = init,                                              \
    .uninit        = uninit,                                            \
    .activate      = activate,                                          \
    .priv_size     = sizeof(VMAFGPUContext),                            \
    FILTER_OUTPUTS(vmafgpu_outputs),                                    \
    FILTER_QUERY_FUNC2(query_formats),                                  \
    inputs                                                              \
}

VMAFGPU_FILTER(ff_vf_vmafgpu, "vmafgpu", VMAFGPU_DESCRIPTION, vmafgpu,
               AVFILTER_FLAG_DYNAMIC_INPUTS, );
#if CONFIG_VMAFGPU_LIBVMAF_FILTER
VMAFGPU_FILTER(ff_vf_vmafgpu_libvmaf, "libvmaf", LIBVMAF_DESCRIPTION, libvmaf,
               0, FILTER_INPUTS(vmafgpu_inputs));
#endif
#if CONFIG_VMAFGPU_LIBVMAF_CUDA_FILTER
VMAFGPU_FILTER(ff_vf_vmafgpu_libvmaf_cuda, "libvmaf_cuda", LIBVMAF_DESCRIPTION,
               libvmaf_cuda, 0, FILTER_INPUTS(vmafgpu_inputs));
#endif
