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
 *  - bit depths 8..16 (not only 8/10/12/16), --backend and --precision.
 */

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vmafgpu.h"
#include "tools/yuv_input.h"

#define MAX_ITEMS 32

typedef struct Settings {
    const char *path_ref, *path_dis, *output_path;
    unsigned width, height, bitdepth;
    int have_fmt, use_raw;
    enum VgPixFmt fmt;
    enum VgLogFormat log_fmt;
    enum VgPrecision precision;
    enum VgBackend backend;
    unsigned threads, subsample, frame_cnt, skip_ref, skip_dis;
    int no_prediction, quiet;
    const char *model[MAX_ITEMS];
    unsigned n_models;
    const char *feature[MAX_ITEMS];
    unsigned n_features;
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
    ARG_HELP,
};

static const char short_opts[] = "r:d:w:h:p:b:m:o:nqv";

static const struct option long_opts[] = {
    { "reference",       required_argument, NULL, 'r' },
    { "distorted",       required_argument, NULL, 'd' },
    { "width",           required_argument, NULL, 'w' },
    { "height",          required_argument, NULL, 'h' },
    { "pixel_format",    required_argument, NULL, 'p' },
    { "bitdepth",        required_argument, NULL, 'b' },
    { "model",           required_argument, NULL, 'm' },
    { "output",          required_argument, NULL, 'o' },
    { "xml",             no_argument,       NULL, ARG_XML },
    { "json",            no_argument,       NULL, ARG_JSON },
    { "csv",             no_argument,       NULL, ARG_CSV },
    { "sub",             no_argument,       NULL, ARG_SUB },
    { "threads",         required_argument, NULL, ARG_THREADS },
    { "feature",         required_argument, NULL, ARG_FEATURE },
    { "subsample",       required_argument, NULL, ARG_SUBSAMPLE },
    { "frame_cnt",       required_argument, NULL, ARG_FRAME_CNT },
    { "frame_skip_ref",  required_argument, NULL, ARG_FRAME_SKIP_REF },
    { "frame_skip_dist", required_argument, NULL, ARG_FRAME_SKIP_DIST },
    { "cpumask",         required_argument, NULL, ARG_CPUMASK },
    { "gpumask",         required_argument, NULL, ARG_GPUMASK },
    { "backend",         required_argument, NULL, ARG_BACKEND },
    { "precision",       required_argument, NULL, ARG_PRECISION },
    { "no_prediction",   no_argument,       NULL, 'n' },
    { "quiet",           no_argument,       NULL, 'q' },
    { "version",         no_argument,       NULL, 'v' },
    { "help",            no_argument,       NULL, ARG_HELP },
    { NULL,              0,                 NULL, 0 },
};

static void usage(FILE *f, const char *app)
{
    const char *const *models = vg_builtin_models();

    fprintf(f, "Usage: %s -r REF -d DIS [options]\n\n", app);
    fprintf(f,
"Computes VMAF and its features (libvmaf v3.2.0 compatible) on the CPU or a\n"
"CUDA GPU.\n\n"
"Input:\n"
" --reference/-r PATH       reference, raw planar .yuv or .y4m ('-' = stdin)\n"
" --distorted/-d PATH       distorted, raw planar .yuv or .y4m\n"
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
" --cpumask N, --gpumask N  accepted for compatibility with vmaf; no effect\n\n"
"Output:\n"
" --output/-o PATH          write the per-frame log ('-' = stdout)\n"
" --xml | --json | --csv | --sub   log format (default xml)\n"
" --precision default|max   numbers as libvmaf (%%.6f, %%.16f for tiny\n"
"                           fractions) or %%.17g (exact doubles)\n"
" --quiet/-q                no progress; with -o, no score lines either\n"
" --version/-v              print the version and exit\n"
" --help                    this text\n\n"
"The pooled (mean) score of each model is printed to stdout as\n"
"\"<version or path>: <score>\" (bootstrap models add ci.p95 and stddev);\n"
"messages go to stderr. Exit status 0 on success, 1 on any error.\n");
    if (models && models[0]) {
        fprintf(f, "\nBuilt-in models:");
        for (unsigned i = 0; models[i]; i++)
            fprintf(f, " %s", models[i]);
        fprintf(f, "\n");
    }
}

static int bad_arg(const char *app, const char *opt, const char *arg,
                   const char *want)
{
    fprintf(stderr, "vmafgpu: invalid argument \"%s\" for %s; should be %s\n"
            "Try '%s --help'.\n", arg, opt, want, app);
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

/** @return 0 parsed, 1 done (help/version printed), negative on error. */
static int parse_args(int argc, char **argv, Settings *s)
{
    const char *app = argv[0];
    unsigned *uv;
    unsigned dummy;
    int o;

    memset(s, 0, sizeof(*s));
    s->log_fmt = VG_LOG_FMT_XML;
    opterr = 0;

    while ((o = getopt_long(argc, argv, short_opts, long_opts, NULL)) >= 0) {
        uv = NULL;
        switch (o) {
        case 'r': s->path_ref = optarg; break;
        case 'd': s->path_dis = optarg; break;
        case 'o': s->output_path = optarg; break;
        case 'w': uv = &s->width; s->use_raw = 1; break;
        case 'h': uv = &s->height; s->use_raw = 1; break;
        case 'b': uv = &s->bitdepth; s->use_raw = 1; break;
        case ARG_THREADS: uv = &s->threads; break;
        case ARG_SUBSAMPLE: uv = &s->subsample; break;
        case ARG_FRAME_CNT: uv = &s->frame_cnt; break;
        case ARG_FRAME_SKIP_REF: uv = &s->skip_ref; break;
        case ARG_FRAME_SKIP_DIST: uv = &s->skip_dis; break;
        case ARG_CPUMASK:
        case ARG_GPUMASK: uv = &dummy; break;
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
            if (*n == MAX_ITEMS) {
                fprintf(stderr, "vmafgpu: at most %d %s are supported\n",
                        MAX_ITEMS, o == 'm' ? "models" : "features");
                return -E2BIG;
            }
            list[(*n)++] = optarg;
            break;
        }
        case ARG_XML: s->log_fmt = VG_LOG_FMT_XML; break;
        case ARG_JSON: s->log_fmt = VG_LOG_FMT_JSON; break;
        case ARG_CSV: s->log_fmt = VG_LOG_FMT_CSV; break;
        case ARG_SUB: s->log_fmt = VG_LOG_FMT_SUB; break;
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
        case 'n': s->no_prediction = 1; break;
        case 'q': s->quiet = 1; break;
        case 'v':
            printf("%s\n", vg_version());
            return 1;
        case ARG_HELP:
            usage(stdout, app);
            return 1;
        case ':':
        case '?':
        default:
            if (optopt >= 256 || (optopt && strchr(short_opts, optopt)))
                fprintf(stderr, "vmafgpu: option %s needs an argument\n",
                        opt_name(optopt));
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
        fprintf(stderr, "vmafgpu: unexpected argument \"%s\"\nTry '%s --help'.\n",
                argv[optind], app);
        return -EINVAL;
    }
    if (!s->path_ref || !s->path_dis) {
        fprintf(stderr, "vmafgpu: both --reference/-r and --distorted/-d are "
                "required\nTry '%s --help'.\n", app);
        return -EINVAL;
    }
    if (s->use_raw && !(s->width && s->height && s->have_fmt && s->bitdepth)) {
        fprintf(stderr, "vmafgpu: raw .yuv input needs all of --width/-w (> 0), "
                "--height/-h (> 0), --pixel_format/-p, --bitdepth/-b\n");
        return -EINVAL;
    }
    if (s->use_raw && (s->bitdepth < 8 || s->bitdepth > 16)) {
        fprintf(stderr, "vmafgpu: invalid bit depth %u for -b/--bitdepth; should "
                "be 8..16\n", s->bitdepth);
        return -EINVAL;
    }
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
    case VG_PIX_FMT_YUV420P: return "420";
    case VG_PIX_FMT_YUV422P: return "422";
    case VG_PIX_FMT_YUV444P: return "444";
    case VG_PIX_FMT_YUV400P: return "400";
    default: return "?";
    }
}

static int check_inputs(const Settings *s, YuvInput *ref, YuvInput *dis)
{
    const YuvInputInfo *a = yuv_input_info(ref), *b = yuv_input_info(dis);

    if (a->width != b->width || a->height != b->height || a->fmt != b->fmt ||
        a->bitdepth != b->bitdepth) {
        fprintf(stderr, "vmafgpu: inputs differ: %s is %ux%u %s %u-bit, "
                "%s is %ux%u %s %u-bit\n", s->path_ref, a->width, a->height,
                fmt_name(a->fmt), a->bitdepth, s->path_dis, b->width,
                b->height, fmt_name(b->fmt), b->bitdepth);
        return -EINVAL;
    }
    return 0;
}

/** "vmaf" -> the pooled mean of metric `name`, printed like libvmaf's %f. */
static int print_pooled(VgContext *ctx, const Settings *s, unsigned i)
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
    printf("%s: ", label);
    printf(num, v);
    if (vg_model_is_collection(ctx, i)) {
        static const char *const sfx[] = { "bagging", "ci_p95_lo",
                                           "ci_p95_hi", "stddev" };
        static const char *const txt[] = { "", ", ci.p95: [", ", ", "], stddev: " };
        char key[256];

        /* libvmaf tools/vmaf.c: "%s: %f, ci.p95: [%f, %f], stddev: %f". */
        printf("\n%s: ", label);
        for (unsigned k = 0; k < 4; k++) {
            snprintf(key, sizeof(key), "%s_%s", name, sfx[k]);
            if ((ret = vg_get_pooled(ctx, key, VG_POOL_MEAN, &v)) < 0) {
                printf("\n");
                fprintf(stderr, "vmafgpu: no pooled %s\n", key);
                return ret;
            }
            printf("%s", txt[k]);
            printf(num, v);
        }
    }
    printf("\n");
    return 0;
}

static int run(const Settings *s)
{
    YuvInput *ref = NULL, *dis = NULL;
    VgContext *ctx = NULL;
    VgConfig cfg = { 0 };
    VgPicture pref, pdis;
    const int progress = !s->quiet && isatty(fileno(stderr));
    unsigned n = 0;
    clock_t t0;
    int ret, r1, r2;

    if ((ret = open_input(&ref, s, s->path_ref)) < 0 ||
        (ret = open_input(&dis, s, s->path_dis)) < 0 ||
        (ret = check_inputs(s, ref, dis)) < 0)
        goto fail;

    cfg.backend = s->backend;
    cfg.n_threads = s->threads;
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
                fprintf(stderr, "vmafgpu: two models are named \"%s\"; give "
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

    if (yuv_input_skip(ref, s->skip_ref) < s->skip_ref ||
        yuv_input_skip(dis, s->skip_dis) < s->skip_dis) {
        fprintf(stderr, "vmafgpu: --frame_skip_ref/--frame_skip_dist skip "
                "past the end of a file\n");
        ret = -EINVAL;
        goto fail;
    }

    t0 = clock();
    for (;;) {
        if (s->frame_cnt && n >= s->frame_cnt)
            break;
        r1 = yuv_input_read(ref, &pref);
        r2 = yuv_input_read(dis, &pdis);
        if (r1 < 0 || r2 < 0) {
            ret = r1 < 0 ? r1 : r2;
            goto fail;
        }
        if (!r1 || !r2) {
            if (r1 || r2)
                fprintf(stderr, "vmafgpu: warning: \"%s\" ended before "
                        "\"%s\"; scoring the %u frames both have\n",
                        r1 ? s->path_dis : s->path_ref,
                        r1 ? s->path_ref : s->path_dis, n);
            break;
        }
        if ((ret = vg_submit(ctx, &pref, &pdis)) < 0) {
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
    if (!n) {
        fprintf(stderr, "vmafgpu: no frame to score\n");
        ret = -EINVAL;
        goto fail;
    }

    if ((ret = vg_flush(ctx)) < 0) {
        fprintf(stderr, "vmafgpu: scoring failed while flushing\n");
        goto fail;
    }

    if (!s->no_prediction && !(s->quiet && s->output_path)) {
        for (unsigned i = 0; i < vg_model_count(ctx); i++)
            if ((ret = print_pooled(ctx, s, i)) < 0)
                goto fail;
        fflush(stdout);
    }

    if (s->output_path &&
        (ret = vg_write_log(ctx, s->output_path, s->log_fmt, s->precision)) < 0) {
        fprintf(stderr, "vmafgpu: cannot write %s (%s)\n", s->output_path,
                strerror(-ret));
        goto fail;
    }
    ret = 0;

fail:
    vg_context_destroy(&ctx);
    yuv_input_close(&ref);
    yuv_input_close(&dis);
    return ret;
}

int main(int argc, char **argv)
{
    Settings s;
    int ret = parse_args(argc, argv, &s);

    if (ret)
        return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
    return run(&s) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
