/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * vmafgpu: command-line front end with the options of libvmaf v3.2.0's
 * `vmaf` tool (tools/cli_parse.c, tools/vmaf.c), built on the public API
 * (include/vmafgpu.h) only.
 *
 * Differences from `vmaf`, all documented in --help:
 *  - the pooled score of each model is printed to stdout, always (unless
 *    -q together with -o), not only when stderr is a terminal;
 *  - odd-sized 4:2:0 / 4:2:2 raw and y4m input is read with its ceil-sized
 *    chroma planes (FFmpeg's rawvideo layout), so frames stay in sync;
 *  - reference and distorted of different lengths: the frames both have
 *    are scored and a warning names the shorter file;
 *  - bit depths 8..16 (not only 8/10/12/16), --backend and --precision;
 *  - --plot writes an SVG chart of the per-frame scores, and the
 *    subcommand `vmafgpu plot LOG...` draws one from logs (vg_write_plot()).
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vmafgpu.h"
#include "tools/yuv_input.h"

typedef struct Settings {
    const char *path_ref, *output_path;
    const char *path_dis[VG_MAX_RENDITIONS]; ///< -d, one per rendition
    unsigned n_dis;
    unsigned width, height, bitdepth;
    int have_fmt, use_raw;
    enum VgPixFmt fmt;
    enum VgLogFormat log_fmt;
    enum VgPrecision precision;
    enum VgBackend backend;
    enum VgScale scale; ///< --scale: a distorted input of its own size
    unsigned threads, subsample, frame_cnt, skip_ref, skip_dis;
    int no_prediction, quiet;
    const char *model[VG_MAX_MODELS];
    unsigned n_models;
    const char *feature[VG_MAX_FEATURES];
    unsigned n_features;
    const char *plot_path; ///< --plot
    VgPlotConfig plot;     ///< --metrics, --worst, --fps
    int have_plot_opts;
    int chunk; ///< --chunk START:COUNT given
    unsigned chunk_start, chunk_count;
} Settings;

enum {
    ARG_XML = 256,
    ARG_JSON,
    ARG_CSV,
    ARG_SUB,
    ARG_THREADS,
    ARG_FEATURE,
    ARG_SUBSAMPLE,
    ARG_FRAME_CNT,
    ARG_FRAME_SKIP_REF,
    ARG_FRAME_SKIP_DIST,
    ARG_CPUMASK,
    ARG_GPUMASK,
    ARG_BACKEND,
    ARG_PRECISION,
    ARG_PLOT,
    ARG_SCALE,
    ARG_METRICS,
    ARG_WORST,
    ARG_FPS,
    ARG_TITLE,
    ARG_CHUNK,
    ARG_HELP,
};

/** --worst when not given. */
#define DEFAULT_WORST 3

/* the leading ':' makes getopt return ':' for a missing argument */
static const char short_opts[] = ":r:d:w:h:p:b:m:o:nqv";

static const struct option long_opts[] = {
    { "reference", required_argument, NULL, 'r' },
    { "distorted", required_argument, NULL, 'd' },
    { "width", required_argument, NULL, 'w' },
    { "height", required_argument, NULL, 'h' },
    { "pixel_format", required_argument, NULL, 'p' },
    { "bitdepth", required_argument, NULL, 'b' },
    { "model", required_argument, NULL, 'm' },
    { "output", required_argument, NULL, 'o' },
    { "xml", no_argument, NULL, ARG_XML },
    { "json", no_argument, NULL, ARG_JSON },
    { "csv", no_argument, NULL, ARG_CSV },
    { "sub", no_argument, NULL, ARG_SUB },
    { "threads", required_argument, NULL, ARG_THREADS },
    { "feature", required_argument, NULL, ARG_FEATURE },
    { "subsample", required_argument, NULL, ARG_SUBSAMPLE },
    { "frame_cnt", required_argument, NULL, ARG_FRAME_CNT },
    { "frame_skip_ref", required_argument, NULL, ARG_FRAME_SKIP_REF },
    { "frame_skip_dist", required_argument, NULL, ARG_FRAME_SKIP_DIST },
    { "cpumask", required_argument, NULL, ARG_CPUMASK },
    { "gpumask", required_argument, NULL, ARG_GPUMASK },
    { "backend", required_argument, NULL, ARG_BACKEND },
    { "precision", required_argument, NULL, ARG_PRECISION },
    { "scale", required_argument, NULL, ARG_SCALE },
    { "plot", required_argument, NULL, ARG_PLOT },
    { "metrics", required_argument, NULL, ARG_METRICS },
    { "worst", required_argument, NULL, ARG_WORST },
    { "fps", required_argument, NULL, ARG_FPS },
    { "chunk", required_argument, NULL, ARG_CHUNK },
    { "no_prediction", no_argument, NULL, 'n' },
    { "quiet", no_argument, NULL, 'q' },
    { "version", no_argument, NULL, 'v' },
    { "help", no_argument, NULL, ARG_HELP },
    { NULL, 0, NULL, 0 },
};

static void usage(FILE *f, const char *app)
{
    const char *const *models = vg_builtin_models();

    fprintf(
        f,
        "Usage: %s -r REF -d DIS [options]\n"
        "       %s -r REF -d DIS1 -d DIS2... [-o LOG_%%d.json] [options]\n"
        "       %s -r REF -d DIS --chunk START:COUNT -o CHUNK.json [options]\n"
        "       %s merge CHUNK.json... [-o LOG] [log options]\n"
        "       %s plot LOG... -o FILE.svg [plot options]\n\n",
        app, app, app, app, app);
    fprintf(
        f,
        "Computes VMAF and its features (libvmaf v3.2.0 compatible) on the CPU or a\n"
        "CUDA GPU. Long options take their value as --opt VALUE or --opt=VALUE;\n"
        "flags (--json, -n, -q...) take none.\n\n"
        "Input:\n"
        " --reference/-r PATH       reference, raw planar .yuv or .y4m ('-' = stdin)\n"
        " --distorted/-d PATH       distorted, raw planar .yuv or .y4m (not the\n"
        "                           reference's stream: '-' for both is refused);\n"
        "                           repeatable: a ladder of up to 16 renditions\n"
        "                           scored against the one reference in one pass,\n"
        "                           each as a run of it alone would score it\n"
        " --width/-w N              width  } raw .yuv input needs all four; without\n"
        " --height/-h N             height } them both files are read as .y4m\n"
        " --pixel_format/-p FMT     420, 422, 444 (or 400)\n"
        " --bitdepth/-b N           8..16 (above 8: 16-bit little-endian samples)\n"
        " --frame_cnt N             score at most N frames\n"
        " --frame_skip_ref N        skip the first N reference frames\n"
        " --frame_skip_dist N       skip the first N distorted frames\n"
        "Raw files hold planes of ceil(w/2) x ceil(h/2) chroma samples for 4:2:0\n"
        "(FFmpeg's rawvideo layout), which is read correctly for odd sizes.\n"
        "If one file has fewer frames than the other, the frames both have are\n"
        "scored and a warning names the shorter file.\n\n"
        "Scoring:\n"
        " --model/-m PARAMS         ':'-separated version=NAME or path=FILE, name=NAME,\n"
        "                           disable_clip, enable_transform,\n"
        "                           <feature>.<option>=<value>; repeatable.\n"
        "                           Default: version=vmaf_v0.6.1 unless -n.\n"
        " --feature NAME[=OPT=VAL[:OPT=VAL...]]\n"
        "                           extra feature (psnr, motion, ...); repeatable\n"
        " --no_prediction/-n        features only, no default model\n"
        " --subsample N             score every N-th frame (motion, psnr: every frame)\n"
        " --threads N               worker threads (0 = none; results do not depend on it)\n"
        " --backend auto|cpu|cuda   where features run (default auto)\n"
        " --scale ALGORITHM         score a distorted .y4m of another size scaled to\n"
        "                           the reference's as libswscale scales it with\n"
        "                           ALGORITHM+accurate_rnd+bitexact: bilinear,\n"
        "                           bicubic, neighbor, area, bicublin, gauss, sinc,\n"
        "                           lanczos, spline (default none: sizes must match)\n"
        " --cpumask N, --gpumask N  accepted for compatibility with vmaf; no effect\n\n"
        "Chunks (one title scored in parts, merged into exactly the whole run):\n"
        " --chunk START:COUNT       score frames START..START+COUNT-1 of the inputs\n"
        "                           (START: to their end)\n"
        "                           (reading the few frames before START that\n"
        "                           temporal features need) and write the chunk log\n"
        "                           to --output; '%s merge' joins the chunk logs\n"
        "                           of one title into its log and scores\n\n"
        "Output:\n"
        " --output/-o PATH          write the per-frame log ('-' = stdout); with\n"
        "                           several -d, one log per rendition: %%d in PATH\n"
        "                           is its number (0 for the first -d), as in\n"
        "                           --plot's path and the chunk logs'\n"
        " --xml | --json | --csv | --sub   log format (default xml)\n"
        " --precision default|max   numbers as libvmaf (%%.6f, %%.16f for tiny\n"
        "                           fractions) or %%.17g (exact doubles)\n"
        " --quiet/-q                no progress; with -o, no score lines either\n"
        " --version/-v              print the version and exit\n"
        " --help                    this text\n\n"
        "Plot:\n"
        " --plot FILE.svg           also draw the per-frame scores as an SVG chart\n"
        " --metrics M1,M2,...       metrics to draw (default: every model's score)\n"
        " --worst N                 label the N worst frames of each curve (default 3)\n"
        " --fps RATE                frame rate for a time axis (N or N/D; default:\n"
        "                           the y4m header's, else none)\n"
        "'%s plot --help' and '%s merge --help' describe the subcommands.\n\n"
        "The pooled (mean) score of each model is printed to stdout as\n"
        "\"<version or path>: <score>\" (bootstrap models add ci.p95 and stddev),\n"
        "after \"rendition N (FILE): \" for each rendition of a ladder;\n"
        "messages go to stderr. Exit status 0 on success, 1 on any error.\n",
        app, app, app);
    if (models && models[0]) {
        fprintf(f, "\nBuilt-in models:");
        for (unsigned i = 0; models[i]; i++)
            fprintf(f, " %s", models[i]);
        fprintf(f, "\n");
    }
}

static void plot_usage(FILE *f, const char *app)
{
    fprintf(f, "Usage: %s plot LOG... -o FILE.svg [options]\n\n", app);
    fprintf(
        f,
        "Draws the per-frame scores of vmafgpu or libvmaf logs (--json or --xml;\n"
        "'-' = stdin) as an SVG chart: one curve per log and metric, one panel per\n"
        "scale, the pooled mean, harmonic mean and minimum marked and in the legend,\n"
        "the worst frames labelled with their numbers.\n\n"
        " --output/-o FILE.svg       the chart ('-' = stdout); required\n"
        " --metrics M1,M2,...        metrics to draw (default: every model's score,\n"
        "                            i.e. the log's metrics named vmaf*)\n"
        " --worst N                  label the N worst frames of each curve\n"
        "                            (0..100, default 3)\n"
        " --fps RATE                 frame rate (N or N/D, e.g. 30000/1001) for a\n"
        "                            time axis; logs do not record it (their \"fps\"\n"
        "                            is the scoring speed)\n"
        " --title TEXT               chart title (default: the metrics' names)\n"
        " --help                     this text\n\n"
        "Exit status 0 on success, 1 on any error.\n");
}

static int bad_arg(const char *app, const char *opt, const char *arg,
                   const char *want)
{
    fprintf(stderr,
            "vmafgpu: invalid argument \"%s\" for %s; should be %s\n"
            "Try '%s --help'.\n",
            arg, opt, want, app);
    return -EINVAL;
}

/** Decimal/hex/octal unsigned, no sign, no trailing characters. */
static int parse_unsigned(const char *s, unsigned *v)
{
    char *end;
    unsigned long x;

    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -EINVAL;
    errno = 0;
    x = strtoul(s, &end, 0);
    if (errno || *end || x > UINT_MAX)
        return -EINVAL;
    *v = (unsigned)x;
    return 0;
}

/** A frame rate: a positive number, or N/D (30000/1001). */
static int parse_fps(const char *s, double *fps)
{
    char *end;
    double num, den = 1;

    errno = 0;
    num = strtod(s, &end);
    if (end == s || errno)
        return -EINVAL;
    if (*end == '/') {
        const char *d = end + 1;

        den = strtod(d, &end);
        if (end == d || errno)
            return -EINVAL;
    }
    if (*end || !(num > 0) || !(den > 0) || !isfinite(num / den) ||
        !(num / den > 0))
        return -EINVAL;
    *fps = num / den;
    return 0;
}

static const char *opt_name(int o)
{
    static char buf[64];

    for (unsigned i = 0; long_opts[i].name; i++) {
        if (long_opts[i].val != o)
            continue;
        if (o < 256)
            snprintf(buf, sizeof(buf), "-%c/--%s", o, long_opts[i].name);
        else
            snprintf(buf, sizeof(buf), "--%s", long_opts[i].name);
        return buf;
    }
    return "?";
}

/** @return 1 if o is an option of opts without an argument (a flag). */
static int is_flag(const struct option *opts, int o)
{
    for (unsigned i = 0; opts[i].name; i++)
        if (opts[i].val == o)
            return opts[i].has_arg == no_argument;
    return 0;
}

/*
 * A ladder writes a file per rendition: its path is the pattern with %d
 * replaced by the rendition's number (0 for the first -d); %% is a '%'
 * (vg_rendition_path()).
 */
static int check_pattern(const char *opt, const char *pattern, unsigned n)
{
    char *path;
    int ret = vg_rendition_path(&path, pattern, 0, n);

    free(path);
    if (ret == -EINVAL)
        fprintf(stderr,
                "vmafgpu: %s %s: a ladder of several --distorted/-d inputs "
                "writes a file per rendition; put one %%d in the path (the "
                "rendition's number, 0 for the first -d; %%%% for a '%%')\n",
                opt, pattern);
    else if (ret < 0)
        fprintf(stderr, "vmafgpu: out of memory\n");
    return ret;
}

/** @return 0 parsed, 1 done (help/version printed), negative on error. */
static int parse_args(int argc, char **argv, Settings *s)
{
    const char *app = argv[0];
    unsigned *uv;
    unsigned dummy;
    int o;

    memset(s, 0, sizeof(*s));
    s->log_fmt = VG_LOG_FMT_XML;
    s->plot.worst = DEFAULT_WORST;
    opterr = 0;

    while ((o = getopt_long(argc, argv, short_opts, long_opts, NULL)) >= 0) {
        uv = NULL;
        switch (o) {
        case 'r':
            s->path_ref = optarg;
            break;
        case 'd':
            if (s->n_dis == VG_MAX_RENDITIONS) {
                fprintf(stderr,
                        "vmafgpu: more than %d --distorted/-d inputs: a "
                        "ladder scores at most %d renditions\n",
                        VG_MAX_RENDITIONS, VG_MAX_RENDITIONS);
                return -EINVAL;
            }
            s->path_dis[s->n_dis++] = optarg;
            break;
        case 'o':
            s->output_path = optarg;
            break;
        case 'w':
            uv = &s->width;
            s->use_raw = 1;
            break;
        case 'h':
            uv = &s->height;
            s->use_raw = 1;
            break;
        case 'b':
            uv = &s->bitdepth;
            s->use_raw = 1;
            break;
        case ARG_THREADS:
            uv = &s->threads;
            break;
        case ARG_SUBSAMPLE:
            uv = &s->subsample;
            break;
        case ARG_FRAME_CNT:
            uv = &s->frame_cnt;
            break;
        case ARG_FRAME_SKIP_REF:
            uv = &s->skip_ref;
            break;
        case ARG_FRAME_SKIP_DIST:
            uv = &s->skip_dis;
            break;
        case ARG_CPUMASK:
        case ARG_GPUMASK:
            uv = &dummy;
            break;
        case 'p':
            s->use_raw = 1;
            s->have_fmt = 1;
            if (!strcmp(optarg, "420"))
                s->fmt = VG_PIX_FMT_YUV420P;
            else if (!strcmp(optarg, "422"))
                s->fmt = VG_PIX_FMT_YUV422P;
            else if (!strcmp(optarg, "444"))
                s->fmt = VG_PIX_FMT_YUV444P;
            else if (!strcmp(optarg, "400"))
                s->fmt = VG_PIX_FMT_YUV400P;
            else
                return bad_arg(app, opt_name(o), optarg,
                               "a pixel format (420/422/444/400)");
            break;
        case 'm':
        case ARG_FEATURE: {
            const char **list = o == 'm' ? s->model : s->feature;
            unsigned *n = o == 'm' ? &s->n_models : &s->n_features;

            if (!*optarg || *optarg == '=' || *optarg == ':')
                return bad_arg(app, opt_name(o), optarg,
                               o == 'm' ? "version=NAME or path=FILE ..."
                                        : "NAME[=OPT=VAL:...]");
            /* the library's limits */
            if (*n == (o == 'm' ? VG_MAX_MODELS : VG_MAX_FEATURES)) {
                fprintf(stderr, "vmafgpu: at most %d %s are supported\n",
                        o == 'm' ? VG_MAX_MODELS : VG_MAX_FEATURES,
                        o == 'm' ? "models" : "features");
                return -E2BIG;
            }
            list[(*n)++] = optarg;
            break;
        }
        case ARG_XML:
            s->log_fmt = VG_LOG_FMT_XML;
            break;
        case ARG_JSON:
            s->log_fmt = VG_LOG_FMT_JSON;
            break;
        case ARG_CSV:
            s->log_fmt = VG_LOG_FMT_CSV;
            break;
        case ARG_SUB:
            s->log_fmt = VG_LOG_FMT_SUB;
            break;
        case ARG_BACKEND:
            if (!strcmp(optarg, "auto"))
                s->backend = VG_BACKEND_AUTO;
            else if (!strcmp(optarg, "cpu"))
                s->backend = VG_BACKEND_CPU;
            else if (!strcmp(optarg, "cuda"))
                s->backend = VG_BACKEND_CUDA;
            else
                return bad_arg(app, opt_name(o), optarg, "auto, cpu or cuda");
            break;
        case ARG_PRECISION:
            if (!strcmp(optarg, "max"))
                s->precision = VG_PRECISION_MAX;
            else if (!strcmp(optarg, "default"))
                s->precision = VG_PRECISION_DEFAULT;
            else
                return bad_arg(app, opt_name(o), optarg, "default or max");
            break;
        case ARG_PLOT:
            s->plot_path = optarg;
            break;
        case ARG_SCALE: {
            const int v = vg_scale_from_name(optarg);
            if (v < 0)
                return bad_arg(app, opt_name(o), optarg,
                               "none, bilinear, "
                               "bicubic, neighbor, area, bicublin, gauss, "
                               "sinc, lanczos or spline");
            s->scale = (enum VgScale)v;
            break;
        }
        case ARG_METRICS:
            s->plot.metrics = optarg;
            s->have_plot_opts = 1;
            break;
        case ARG_WORST:
            uv = &s->plot.worst;
            s->have_plot_opts = 1;
            break;
        case ARG_FPS:
            if (parse_fps(optarg, &s->plot.fps) < 0)
                return bad_arg(app, opt_name(o), optarg,
                               "a frame rate (N or N/D, above 0)");
            s->have_plot_opts = 1;
            break;
        case ARG_CHUNK: {
            char *colon = strchr(optarg, ':');
            if (!colon)
                return bad_arg(app, opt_name(o), optarg, "START:COUNT");
            *colon = 0;
            /* START: (no COUNT) scores to the end of the inputs */
            if (parse_unsigned(optarg, &s->chunk_start) < 0 ||
                (colon[1] && (parse_unsigned(colon + 1, &s->chunk_count) < 0 ||
                              !s->chunk_count))) {
                *colon = ':';
                return bad_arg(
                    app, opt_name(o), optarg,
                    "START:COUNT or START: (frame numbers, COUNT > 0)");
            }
            *colon = ':';
            s->chunk = 1;
            break;
        }
        case 'n':
            s->no_prediction = 1;
            break;
        case 'q':
            s->quiet = 1;
            break;
        case 'v':
            printf("%s\n", vg_version());
            return 1;
        case ARG_HELP:
            usage(stdout, app);
            return 1;
        case ':':
            fprintf(stderr, "vmafgpu: option %s needs an argument\n",
                    opt_name(optopt));
            fprintf(stderr, "Try '%s --help'.\n", app);
            return -EINVAL;
        case '?':
        default:
            if (optopt && is_flag(long_opts, optopt)) /* --json=1 */
                fprintf(stderr, "vmafgpu: option %s takes no argument (%s)\n",
                        opt_name(optopt), argv[optind - 1]);
            else if (optopt)
                fprintf(stderr, "vmafgpu: unknown option -%c\n", optopt);
            else
                fprintf(stderr, "vmafgpu: unknown option %s\n",
                        argv[optind - 1]);
            fprintf(stderr, "Try '%s --help'.\n", app);
            return -EINVAL;
        }
        if (uv && parse_unsigned(optarg, uv) < 0)
            return bad_arg(app, opt_name(o), optarg, "an unsigned integer");
    }

    if (optind < argc) {
        fprintf(stderr,
                "vmafgpu: unexpected argument \"%s\"\nTry '%s --help'.\n",
                argv[optind], app);
        return -EINVAL;
    }
    if (!s->path_ref || !s->n_dis) {
        fprintf(stderr,
                "vmafgpu: both --reference/-r and --distorted/-d are "
                "required\nTry '%s --help'.\n",
                app);
        return -EINVAL;
    }
    if (s->use_raw && !(s->width && s->height && s->have_fmt && s->bitdepth)) {
        fprintf(stderr,
                "vmafgpu: raw .yuv input needs all of --width/-w (> 0), "
                "--height/-h (> 0), --pixel_format/-p, --bitdepth/-b\n");
        return -EINVAL;
    }
    if (s->use_raw && (s->bitdepth < 8 || s->bitdepth > 16)) {
        fprintf(stderr,
                "vmafgpu: invalid bit depth %u for -b/--bitdepth; should "
                "be 8..16\n",
                s->bitdepth);
        return -EINVAL;
    }
    if (s->have_plot_opts && !s->plot_path) {
        fprintf(stderr, "vmafgpu: --metrics, --worst and --fps set up the "
                        "chart of --plot FILE.svg, which is missing\n");
        return -EINVAL;
    }
    if (s->plot.worst > 100) {
        fprintf(stderr, "vmafgpu: --worst %u: at most 100\n", s->plot.worst);
        return -EINVAL;
    }
    if (s->chunk && (!s->output_path || !strcmp(s->output_path, "-") ||
                     s->frame_cnt || s->plot_path)) {
        fprintf(
            stderr,
            "vmafgpu: --chunk writes its chunk log to --output/-o "
            "FILE (required, not stdout) and takes neither --frame_cnt (the "
            "chunk's COUNT) nor --plot (plot the merged log)\n");
        return -EINVAL;
    }
    if ((s->output_path &&
         check_pattern("--output/-o", s->output_path, s->n_dis) < 0) ||
        (s->plot_path && check_pattern("--plot", s->plot_path, s->n_dis) < 0))
        return -EINVAL;
    if (!s->n_models && !s->no_prediction)
        s->model[s->n_models++] = "version=vmaf_v0.6.1";
    if (!s->n_models && !s->n_features) {
        fprintf(stderr, "vmafgpu: nothing to compute: -n without --feature\n");
        return -EINVAL;
    }
    return 0;
}

static void log_cb(void *opaque, enum VgLogLevel level, const char *msg)
{
    static const char *const prefix[] = { "error: ", "warning: ", "", "" };

    (void)opaque;
    fprintf(stderr, "vmafgpu: %s%s\n",
            level >= VG_LOG_ERROR && level <= VG_LOG_DEBUG ? prefix[level] : "",
            msg);
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

/** `vmafgpu plot LOG... -o FILE.svg`: argv[0] is "plot". */
static int plot_main(const char *app, int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "metrics", required_argument, NULL, ARG_METRICS },
        { "worst", required_argument, NULL, ARG_WORST },
        { "fps", required_argument, NULL, ARG_FPS },
        { "title", required_argument, NULL, ARG_TITLE },
        { "help", no_argument, NULL, ARG_HELP },
        { NULL, 0, NULL, 0 },
    };
    VgPlotConfig pc = { .worst = DEFAULT_WORST };
    VgConfig cfg = { 0 };
    VgContext *ctx = NULL;
    const char *out = NULL;
    int o, ret;

    opterr = 0;
    while ((o = getopt_long(argc, argv, ":o:", opts, NULL)) >= 0) {
        switch (o) {
        case 'o':
            out = optarg;
            break;
        case ARG_METRICS:
            pc.metrics = optarg;
            break;
        case ARG_TITLE:
            pc.title = optarg;
            break;
        case ARG_WORST:
            if (parse_unsigned(optarg, &pc.worst) < 0 || pc.worst > 100)
                return bad_arg(app, "--worst", optarg, "0..100");
            break;
        case ARG_FPS:
            if (parse_fps(optarg, &pc.fps) < 0)
                return bad_arg(app, "--fps", optarg,
                               "a frame rate (N or N/D, above 0)");
            break;
        case ARG_HELP:
            plot_usage(stdout, app);
            return 1;
        case ':':
            fprintf(stderr, "vmafgpu plot: option %s needs an argument\n",
                    argv[optind - 1]);
            fprintf(stderr, "Try '%s plot --help'.\n", app);
            return -EINVAL;
        default:
            if (optopt && is_flag(opts, optopt)) /* --help=1 */
                fprintf(stderr, "vmafgpu plot: option %s takes no argument\n",
                        argv[optind - 1]);
            else
                fprintf(stderr, "vmafgpu plot: unknown option %s\n",
                        argv[optind - 1]);
            fprintf(stderr, "Try '%s plot --help'.\n", app);
            return -EINVAL;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "vmafgpu plot: no log given\nTry '%s plot --help'.\n",
                app);
        return -EINVAL;
    }
    if (!out) {
        fprintf(stderr,
                "vmafgpu plot: -o/--output FILE.svg is required\n"
                "Try '%s plot --help'.\n",
                app);
        return -EINVAL;
    }
    pc.logs = (const char *const *)(argv + optind);
    pc.n_logs = (unsigned)(argc - optind);

    /* a context without frames: the plot's messages take our format */
    cfg.backend = VG_BACKEND_CPU;
    cfg.log_level = VG_LOG_WARNING;
    cfg.log_cb = log_cb;
    if ((ret = vg_context_create(&ctx, &cfg)) < 0) {
        fprintf(stderr, "vmafgpu: cannot create a context (%s)\n",
                strerror(-ret));
        return ret;
    }
    ret = vg_write_plot(ctx, out, &pc);
    vg_context_destroy(&ctx);
    return ret;
}

static int print_pooled(VgContext *ctx, const Settings *s, unsigned i,
                        const char *prefix);
static int flush_stdout(void);

static void merge_usage(FILE *f, const char *app)
{
    fprintf(f, "Usage: %s merge CHUNK.json... [-o LOG] [options]\n\n", app);
    fprintf(
        f,
        "Joins the chunk logs of one title (written by --chunk START:COUNT, in any\n"
        "order) into the log and scores of one run over the whole title: the\n"
        "values that need the frames around a chunk's edges (motion2, motion3),\n"
        "the aggregate PSNR, the models and the pooling are computed once, over\n"
        "all frames. Chunks of different runs (models, features, options, sizes),\n"
        "gaps, overlaps and a title without its last chunk are refused.\n\n"
        " --output/-o PATH           the per-frame log ('-' = stdout)\n"
        " --xml | --json | --csv | --sub   log format (default xml)\n"
        " --precision default|max    as for scoring\n"
        " --quiet/-q                 with -o, no score lines\n"
        " --help                     this text\n\n"
        "The pooled score of each model is printed as scoring prints it.\n"
        "Exit status 0 on success, 1 on any error.\n");
}

static int merge_main(const char *app, int argc, char **argv)
{
    static const struct option opts[] = {
        { "output", required_argument, NULL, 'o' },
        { "xml", no_argument, NULL, ARG_XML },
        { "json", no_argument, NULL, ARG_JSON },
        { "csv", no_argument, NULL, ARG_CSV },
        { "sub", no_argument, NULL, ARG_SUB },
        { "precision", required_argument, NULL, ARG_PRECISION },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, ARG_HELP },
        { NULL, 0, NULL, 0 },
    };
    Settings s;
    VgConfig cfg = { 0 };
    VgContext *ctx = NULL;
    int o, ret;

    memset(&s, 0, sizeof(s));
    s.log_fmt = VG_LOG_FMT_XML;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":o:q", opts, NULL)) >= 0) {
        switch (o) {
        case 'o':
            s.output_path = optarg;
            break;
        case 'q':
            s.quiet = 1;
            break;
        case ARG_XML:
            s.log_fmt = VG_LOG_FMT_XML;
            break;
        case ARG_JSON:
            s.log_fmt = VG_LOG_FMT_JSON;
            break;
        case ARG_CSV:
            s.log_fmt = VG_LOG_FMT_CSV;
            break;
        case ARG_SUB:
            s.log_fmt = VG_LOG_FMT_SUB;
            break;
        case ARG_PRECISION:
            if (!strcmp(optarg, "max"))
                s.precision = VG_PRECISION_MAX;
            else if (!strcmp(optarg, "default"))
                s.precision = VG_PRECISION_DEFAULT;
            else
                return bad_arg(app, "--precision", optarg, "default or max");
            break;
        case ARG_HELP:
            merge_usage(stdout, app);
            return 1;
        case ':':
            fprintf(stderr,
                    "vmafgpu merge: option %s needs an argument\n"
                    "Try '%s merge --help'.\n",
                    argv[optind - 1], app);
            return -EINVAL;
        default:
            fprintf(stderr,
                    "vmafgpu merge: unknown option %s\n"
                    "Try '%s merge --help'.\n",
                    argv[optind - 1], app);
            return -EINVAL;
        }
    }
    if (optind >= argc) {
        fprintf(stderr,
                "vmafgpu merge: no chunk log given\n"
                "Try '%s merge --help'.\n",
                app);
        return -EINVAL;
    }
    cfg.log_level = VG_LOG_WARNING;
    cfg.log_cb = log_cb;
    if ((ret = vg_merge_chunks(&ctx, &cfg, (const char *const *)(argv + optind),
                               (unsigned)(argc - optind))) < 0) {
        fprintf(stderr, "vmafgpu merge: the chunk logs cannot be merged\n");
        return ret;
    }
    if (!(s.quiet && s.output_path)) {
        for (unsigned i = 0; i < vg_model_count(ctx); i++)
            if ((ret = print_pooled(ctx, &s, i, "")) < 0)
                goto end;
        if ((ret = flush_stdout()) < 0)
            goto end;
    }
    if (s.output_path &&
        (ret = vg_write_log(ctx, s.output_path, s.log_fmt, s.precision)) < 0)
        fprintf(stderr, "vmafgpu: cannot write %s (%s)\n", s.output_path,
                strerror(-ret));
end:
    vg_context_destroy(&ctx);
    return ret < 0 ? ret : 0;
}

/**
 * Both inputs read from one stream (stdin twice, or the same pipe, FIFO or
 * device under two names) would take frames from it in turn: reference
 * frame 0, distorted frame 0, reference frame 1... and score those. A
 * regular file named twice is opened twice, each with its own position,
 * and scores against itself.
 */
static int one_stream(const char *pa, const char *pb)
{
    struct stat a, b;

    if (!strcmp(pa, "-") && !strcmp(pb, "-"))
        return 1;
    if ((!strcmp(pa, "-") ? fstat(STDIN_FILENO, &a) : stat(pa, &a)) ||
        (!strcmp(pb, "-") ? fstat(STDIN_FILENO, &b) : stat(pb, &b)))
        return 0; /* opening the input reports why */
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino && !S_ISREG(a.st_mode);
}

/* "the reference", "the distorted" (a pair) or "rendition 2" (a ladder) */
static const char *input_name(const Settings *s, int i, char buf[32])
{
    if (i < 0)
        return "the reference";
    if (s->n_dis == 1)
        return "the distorted";
    snprintf(buf, 32, "rendition %d", i);
    return buf;
}

static int check_distinct_inputs(const Settings *s)
{
    char na[32], nb[32];

    for (int i = -1; i < (int)s->n_dis; i++)
        for (int j = i + 1; j < (int)s->n_dis; j++) {
            const char *pa = i < 0 ? s->path_ref : s->path_dis[i];

            if (!one_stream(pa, s->path_dis[j]))
                continue;
            fprintf(stderr,
                    "vmafgpu: %s (%s) and %s (%s) input are one stream; each "
                    "input needs its own file or pipe\n",
                    input_name(s, i, na), pa, input_name(s, j, nb),
                    s->path_dis[j]);
            return -EINVAL;
        }
    return 0;
}

/**
 * An output that cannot be written fails the run at its start rather than
 * after the last frame. The probe appends nothing, so a file already there
 * stays as it is until the end; standard output, devices and pipes (whose
 * reader would see the probe's writer leave) are not probed. *created:
 * the probe made the (empty) file, for remove_unwritten() to take back if
 * the run writes nothing there.
 */
static int check_output(const char *opt, const char *path, int *created)
{
    struct stat st;
    FILE *f;
    int err, found, missing;

    *created = 0;
    if (!path || !strcmp(path, "-"))
        return 0;
    found = !stat(path, &st);
    missing = !found && errno == ENOENT;
    if (found && !S_ISREG(st.st_mode)) {
        if (!S_ISDIR(st.st_mode))
            return 0;
        err = EISDIR;
    } else if ((f = fopen(path, "a"))) {
        fclose(f);
        *created = missing && !stat(path, &st) && !st.st_size;
        return 0;
    } else {
        err = errno;
    }
    fprintf(stderr, "vmafgpu: cannot write %s %s (%s)\n", opt, path,
            strerror(err));
    return -err;
}

/** The file the probe made, never written and still empty: no trace of a
 * failed run. */
static void remove_unwritten(const char *path, int created)
{
    struct stat st;

    if (created && !stat(path, &st) && !st.st_size)
        remove(path);
}

static int open_input(YuvInput **in, const Settings *s, const char *path)
{
    if (s->use_raw)
        return yuv_input_open_raw(in, path, s->width, s->height, s->fmt,
                                  s->bitdepth);
    return yuv_input_open_y4m(in, path);
}

static const char *fmt_name(enum VgPixFmt f)
{
    switch (f) {
    case VG_PIX_FMT_YUV420P:
        return "420";
    case VG_PIX_FMT_YUV422P:
        return "422";
    case VG_PIX_FMT_YUV444P:
        return "444";
    case VG_PIX_FMT_YUV400P:
        return "400";
    default:
        return "?";
    }
}

static int check_inputs(const Settings *s, YuvInput *ref, YuvInput *dis,
                        unsigned r)
{
    const YuvInputInfo *a = yuv_input_info(ref), *b = yuv_input_info(dis);
    char name[32] = "";

    if (s->n_dis > 1)
        snprintf(name, sizeof(name), "rendition %u: ", r);
    if (((a->width != b->width || a->height != b->height) && !s->scale) ||
        a->fmt != b->fmt || a->bitdepth != b->bitdepth) {
        fprintf(
            stderr,
            "vmafgpu: %sinputs differ: %s is %ux%u %s %u-bit, "
            "%s is %ux%u %s %u-bit%s\n",
            name, s->path_ref, a->width, a->height, fmt_name(a->fmt),
            a->bitdepth, s->path_dis[r], b->width, b->height, fmt_name(b->fmt),
            b->bitdepth,
            a->fmt == b->fmt && a->bitdepth == b->bitdepth
                ? " (--scale ALGORITHM scores a distorted input of another size)"
                : "");
        return -EINVAL;
    }
    return 0;
}

/** "vmaf" -> the pooled mean of metric `name`, printed like libvmaf's %f. */
static int print_pooled(VgContext *ctx, const Settings *s, unsigned i,
                        const char *prefix)
{
    const char *name = vg_model_name(ctx, i);
    const char *label = vg_model_source(ctx, i);
    const char *num = s->precision == VG_PRECISION_MAX ? "%.17g" : "%f";
    double v;
    int ret;

    if ((ret = vg_get_pooled(ctx, name, VG_POOL_MEAN, &v)) < 0) {
        fprintf(stderr, "vmafgpu: no pooled score for model %s\n", label);
        return ret;
    }
    printf("%s%s: ", prefix, label);
    printf(num, v);
    if (vg_model_is_collection(ctx, i)) {
        static const char *const sfx[] = { "bagging", "ci_p95_lo", "ci_p95_hi",
                                           "stddev" };
        static const char *const txt[] = { "", ", ci.p95: [", ", ",
                                           "], stddev: " };
        /* model names have no length limit */
        size_t len = strlen(name) + sizeof("_ci_p95_lo");
        char *key = malloc(len);

        if (!key) {
            fprintf(stderr, "vmafgpu: out of memory\n");
            return -ENOMEM;
        }
        /* libvmaf tools/vmaf.c: "%s: %f, ci.p95: [%f, %f], stddev: %f". */
        printf("\n%s%s: ", prefix, label);
        for (unsigned k = 0; k < 4; k++) {
            snprintf(key, len, "%s_%s", name, sfx[k]);
            if ((ret = vg_get_pooled(ctx, key, VG_POOL_MEAN, &v)) < 0) {
                printf("\n");
                fprintf(stderr, "vmafgpu: no pooled %s\n", key);
                free(key);
                return ret;
            }
            printf("%s", txt[k]);
            printf(num, v);
        }
        free(key);
    }
    printf("\n");
    return 0;
}

/**
 * Push out what was printed to stdout; a full disk or a closed pipe makes
 * the scores lost, which is an error (a message and exit status 1).
 */
static int flush_stdout(void)
{
    int ret;

    errno = 0;
    if (!fflush(stdout) && !ferror(stdout))
        return 0;
    ret = errno ? -errno : -EIO;
    fprintf(stderr, "vmafgpu: cannot write to stdout: %s\n", strerror(-ret));
    return ret;
}

/* Read the next frame of every input: 1 all read, 0 an input ended (after
 * a warning naming those that ended, unless all did), negative on error. */
static int read_frames(const Settings *s, YuvInput *ref, YuvInput **dis,
                       VgPicture *pref, VgPicture *pdis, unsigned n, int warn)
{
    int got[1 + VG_MAX_RENDITIONS], all = 1, none = 1;
    int ret;

    for (unsigned i = 0; i <= s->n_dis; i++) {
        ret = i ? yuv_input_read(dis[i - 1], &pdis[i - 1])
                : yuv_input_read(ref, pref);
        if (ret < 0)
            return ret;
        got[i] = ret;
        all &= !!ret;
        none &= !ret;
    }
    if (all)
        return 1;
    if (warn && !none && s->n_dis == 1)
        fprintf(stderr,
                "vmafgpu: warning: \"%s\" ended before \"%s\"; scoring the "
                "%u frames both have\n",
                got[0] ? s->path_dis[0] : s->path_ref,
                got[0] ? s->path_ref : s->path_dis[0], n);
    else if (warn && !none)
        for (unsigned i = 0; i <= s->n_dis; i++)
            if (!got[i])
                fprintf(stderr,
                        "vmafgpu: warning: %s%u (\"%s\") has %u frames, "
                        "fewer than the other inputs; scoring the %u frames "
                        "all have\n",
                        i ? "rendition " : "the reference", i ? i - 1 : 0,
                        i ? s->path_dis[i - 1] : s->path_ref, n, n);
    return 0;
}

/* The files of each rendition (one for a pair): -o's and --plot's paths,
 * probed before the first frame. */
typedef struct Outputs {
    char *log[VG_MAX_RENDITIONS];  ///< NULL without -o
    char *plot[VG_MAX_RENDITIONS]; ///< NULL without --plot
    /* check_output() made the file, and nothing has written it */
    int log_created[VG_MAX_RENDITIONS], plot_created[VG_MAX_RENDITIONS];
} Outputs;

static int open_outputs(Outputs *o, const Settings *s)
{
    int ret;

    for (unsigned r = 0; r < s->n_dis; r++) {
        /* the patterns passed check_pattern(): only memory can fail */
        if ((s->output_path &&
             vg_rendition_path(&o->log[r], s->output_path, r, s->n_dis) < 0) ||
            (s->plot_path &&
             vg_rendition_path(&o->plot[r], s->plot_path, r, s->n_dis) < 0)) {
            fprintf(stderr, "vmafgpu: out of memory\n");
            return -ENOMEM;
        }
        if ((ret = check_output("--output", o->log[r], &o->log_created[r])) <
                0 ||
            (ret = check_output("--plot", o->plot[r], &o->plot_created[r])) < 0)
            return ret;
    }
    return 0;
}

static void close_outputs(Outputs *o)
{
    for (unsigned r = 0; r < VG_MAX_RENDITIONS; r++) {
        remove_unwritten(o->log[r], o->log_created[r]);
        remove_unwritten(o->plot[r], o->plot_created[r]);
        free(o->log[r]);
        free(o->plot[r]);
    }
}

static int write_results(const Settings *s, VgContext *ctx, YuvInput *ref,
                         YuvInput *dis, unsigned r, const char *log,
                         const char *plot)
{
    char prefix[64] = "";
    int ret;

    if (s->n_dis > 1)
        snprintf(prefix, sizeof(prefix), "rendition %u (%s): ", r,
                 strcmp(s->path_dis[r], "-") ? base_name(s->path_dis[r])
                                             : "stdin");
    if (!s->no_prediction && !(s->quiet && s->output_path)) {
        for (unsigned i = 0; i < vg_model_count(ctx); i++)
            if ((ret = print_pooled(ctx, s, i, prefix)) < 0)
                return ret;
        if ((ret = flush_stdout()) < 0)
            return ret;
    }
    if (log && (ret = vg_write_log(ctx, log, s->log_fmt, s->precision)) < 0) {
        fprintf(stderr, "vmafgpu: cannot write %s (%s)\n", log, strerror(-ret));
        return ret;
    }
    if (plot) {
        const YuvInputInfo *di = yuv_input_info(dis), *ri = yuv_input_info(ref);
        const YuvInputInfo *rate = di->fps_num ? di : ri;
        VgPlotConfig pc = s->plot;

        if (!pc.fps && rate->fps_num)
            pc.fps = (double)rate->fps_num / rate->fps_den;
        pc.label =
            strcmp(s->path_dis[r], "-") ? base_name(s->path_dis[r]) : "stdin";
        if ((ret = vg_write_plot(ctx, plot, &pc)) < 0) {
            fprintf(stderr, "vmafgpu: cannot write the plot %s\n", plot);
            return ret;
        }
    }
    return 0;
}

static int run(const Settings *s)
{
    YuvInput *ref = NULL, *dis[VG_MAX_RENDITIONS] = { NULL };
    VgContext *ctx = NULL;
    VgConfig cfg = { 0 };
    VgPicture pref, pdis[VG_MAX_RENDITIONS];
    const VgPicture *pdis_ptr[VG_MAX_RENDITIONS];
    const int progress = !s->quiet && isatty(fileno(stderr));
    Outputs out = { 0 };
    unsigned n = 0, lead = 0, frame_cnt = s->frame_cnt;
    int ended = 0;
    clock_t t0;
    int ret;

    if ((ret = check_distinct_inputs(s)) < 0 ||
        (ret = open_outputs(&out, s)) < 0 ||
        (ret = open_input(&ref, s, s->path_ref)) < 0)
        goto fail;
    for (unsigned r = 0; r < s->n_dis; r++) {
        if ((ret = open_input(&dis[r], s, s->path_dis[r])) < 0 ||
            (ret = check_inputs(s, ref, dis[r], r)) < 0)
            goto fail;
        pdis_ptr[r] = &pdis[r];
    }

    cfg.backend = s->backend;
    cfg.scale = s->scale;
    cfg.n_threads = s->threads;
    cfg.n_distorted = s->n_dis;
    /* libvmaf's tool takes any thread count */
    if (cfg.n_threads > VG_MAX_THREADS) {
        fprintf(stderr,
                "vmafgpu: warning: --threads %u is more host threads "
                "than vmafgpu runs; using %d (the scores do not depend on "
                "it)\n",
                s->threads, VG_MAX_THREADS);
        cfg.n_threads = VG_MAX_THREADS;
    }
    cfg.n_subsample = s->subsample;
    cfg.log_level = VG_LOG_WARNING;
    cfg.log_cb = log_cb;
    if ((ret = vg_context_create(&ctx, &cfg)) < 0) {
        fprintf(stderr, "vmafgpu: cannot create a context (%s)\n",
                strerror(-ret));
        goto fail;
    }

    for (unsigned i = 0; i < s->n_models; i++) {
        if ((ret = vg_use_model(ctx, s->model[i])) < 0) {
            fprintf(stderr, "vmafgpu: cannot use model \"%s\"\n", s->model[i]);
            goto fail;
        }
    }
    for (unsigned i = 0; i < vg_model_count(ctx); i++) {
        for (unsigned j = 0; j < i; j++) {
            if (!strcmp(vg_model_name(ctx, i), vg_model_name(ctx, j))) {
                fprintf(stderr,
                        "vmafgpu: two models are named \"%s\"; give "
                        "each a unique name with name=...\n",
                        vg_model_name(ctx, i));
                ret = -EINVAL;
                goto fail;
            }
        }
    }
    for (unsigned i = 0; i < s->n_features; i++) {
        char name[256];
        const char *eq = strchr(s->feature[i], '=');
        size_t len = eq ? (size_t)(eq - s->feature[i]) : strlen(s->feature[i]);

        if (len >= sizeof(name)) {
            fprintf(stderr, "vmafgpu: feature name too long: %s\n",
                    s->feature[i]);
            ret = -EINVAL;
            goto fail;
        }
        memcpy(name, s->feature[i], len);
        name[len] = '\0';
        if ((ret = vg_use_feature(ctx, name, eq ? eq + 1 : NULL)) < 0) {
            fprintf(stderr, "vmafgpu: cannot use feature \"%s\"\n",
                    s->feature[i]);
            goto fail;
        }
    }

    for (unsigned r = 0; r <= s->n_dis; r++) {
        if (r ? yuv_input_skip(dis[r - 1], s->skip_dis) < s->skip_dis
              : yuv_input_skip(ref, s->skip_ref) < s->skip_ref) {
            fprintf(stderr, "vmafgpu: --frame_skip_ref/--frame_skip_dist skip "
                            "past the end of a file\n");
            ret = -EINVAL;
            goto fail;
        }
    }
    if (s->chunk) {
        /* the chunk's frames and the lead-in before them */
        const unsigned skip =
            s->chunk_start - (lead = vg_chunk_lead_in(ctx, s->chunk_start));

        for (unsigned r = 0; r <= s->n_dis; r++) {
            if ((r ? yuv_input_skip(dis[r - 1], skip)
                   : yuv_input_skip(ref, skip)) < skip) {
                fprintf(stderr,
                        "vmafgpu: --chunk %u:%u starts past the end of the "
                        "inputs\n",
                        s->chunk_start, s->chunk_count);
                ret = -EINVAL;
                goto fail;
            }
        }
        /* COUNT 0 (START:) or one that reaches past the last frame
         * number: to the end of the inputs */
        frame_cnt = s->chunk_count && s->chunk_count <= UINT_MAX - lead
                        ? lead + s->chunk_count
                        : 0;
    }

    t0 = clock();
    for (;;) {
        if (frame_cnt && n >= frame_cnt)
            break;
        if ((ret = read_frames(s, ref, dis, &pref, pdis, n, 1)) < 0)
            goto fail;
        if (!ret) {
            ended = 1;
            break;
        }
        if ((ret = vg_submit_ladder(ctx, &pref, pdis_ptr)) < 0) {
            fprintf(stderr, "vmafgpu: frame %u: scoring failed\n", n);
            goto fail;
        }
        n++;
        if (progress && !(n % 10)) {
            double sec = (double)(clock() - t0) / CLOCKS_PER_SEC;
            fprintf(stderr, "\r%u frames, %.2f FPS\033[K", n,
                    sec > 0 ? n / sec : 0.0);
        }
    }
    if (progress)
        fprintf(stderr, "\r%u frames\033[K\n", n);
    if (s->chunk && n <= lead) {
        fprintf(stderr,
                "vmafgpu: --chunk %u:%u starts past the end of the "
                "inputs (%u frames)\n",
                s->chunk_start, s->chunk_count, s->chunk_start - lead + n);
        ret = -EINVAL;
        goto fail;
    }
    if (!n) {
        fprintf(stderr, "vmafgpu: no frame to score\n");
        ret = -EINVAL;
        goto fail;
    }

    if ((ret = vg_flush(ctx)) < 0) {
        fprintf(stderr, "vmafgpu: scoring failed while flushing\n");
        goto fail;
    }
    if (s->chunk) {
        /* the title ends with this chunk if the inputs end by its last frame */
        if (!ended) {
            if ((ret = read_frames(s, ref, dis, &pref, pdis, n, 0)) < 0)
                goto fail;
            ended = !ret;
        }
        for (unsigned r = 0; r < s->n_dis; r++) {
            const char *path = out.log[r];

            out.log_created[r] = 0;
            ret = vg_write_chunk(vg_rendition(ctx, r), path, lead,
                                 s->chunk_start, ended);
            if (ret < 0) {
                fprintf(stderr, "vmafgpu: cannot write the chunk log %s\n",
                        path);
                goto fail;
            }
            if (!s->quiet)
                fprintf(stderr, "vmafgpu: frames %u..%u%s in %s\n",
                        s->chunk_start, s->chunk_start + (n - lead) - 1,
                        ended ? " (the end of the title)" : "", path);
        }
        ret = 0;
        goto fail;
    }

    for (unsigned r = 0; r < s->n_dis; r++) {
        out.log_created[r] = out.plot_created[r] = 0;
        if ((ret = write_results(s, vg_rendition(ctx, r), ref, dis[r], r,
                                 out.log[r], out.plot[r])) < 0)
            goto fail;
    }
    ret = 0;

fail:
    close_outputs(&out);
    vg_context_destroy(&ctx);
    yuv_input_close(&ref);
    for (unsigned r = 0; r < s->n_dis; r++)
        yuv_input_close(&dis[r]);
    return ret;
}

int main(int argc, char **argv)
{
    Settings s;
    int ret;

    if (argc > 1 && !strcmp(argv[1], "plot")) {
        ret = plot_main(argv[0], argc - 1, argv + 1);
        return ret < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
    }
    if (argc > 1 && !strcmp(argv[1], "merge")) {
        ret = merge_main(argv[0], argc - 1, argv + 1);
        if (ret >= 0 && flush_stdout() < 0)
            ret = -EIO;
        return ret < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
    }
    ret = parse_args(argc, argv, &s);

    if (!ret)
        ret = run(&s);
    /* --help, --version, the scores and a log on stdout: all must arrive */
    if (ret >= 0 && flush_stdout() < 0)
        ret = -EIO;
    return ret < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
