/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The public API's checks and the CPU motion and PSNR paths on synthetic
 * pictures: refusals, naming, motion2/motion3 semantics, thread-count
 * independence, semi-planar input, PSNR caps per bit depth.
 */

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "vmafgpu.h"
#include "common/cpu.h"
#include "tests/check_run.h"
#include "tests/slurp.h"

static char last_error[1024];

/* the error messages since last_error was emptied, one per line */
static void capture_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    const size_t n = strlen(last_error);

    if (level == VG_LOG_ERROR)
        snprintf(last_error + n, sizeof(last_error) - n, "%s%s", n ? "\n" : "",
                 msg);
}

static VgContext *make_ctx(unsigned threads, enum VgBackend backend)
{
    VgConfig cfg = {
        .backend = backend,
        .n_threads = threads,
        .log_level = VG_LOG_WARNING,
        .log_cb = capture_log,
    };
    VgContext *ctx = NULL;

    ck_assert_int_eq(vg_context_create(&ctx, &cfg), 0);
    return ctx;
}

/* A synthetic planar picture: deterministic pattern per frame and seed. */
typedef struct Frame {
    VgPicture pic;
    void *buf[3];
} Frame;

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static void frame_make(Frame *f, enum VgPixFmt fmt, unsigned w, unsigned h,
                       unsigned bpc, uint32_t seed, int flat)
{
    const unsigned bps = bpc > 8 ? 2 : 1;
    const unsigned ssx = fmt == VG_PIX_FMT_YUV444P ? 0 : 1;
    const unsigned ssy = fmt == VG_PIX_FMT_YUV420P ? 1 : 0;
    const unsigned max = (1u << bpc) - 1;

    memset(f, 0, sizeof(*f));
    f->pic.fmt = fmt;
    f->pic.width = w;
    f->pic.height = h;
    f->pic.bitdepth = bpc;
    for (unsigned p = 0; p < 3; p++) {
        const unsigned pw = p ? (w + ssx) >> ssx : w;
        const unsigned ph = p ? (h + ssy) >> ssy : h;
        const ptrdiff_t stride = (ptrdiff_t)(pw * bps + 16);
        f->buf[p] = calloc(ph, stride);
        ck_assert_ptr_nonnull(f->buf[p]);
        for (unsigned i = 0; i < ph; i++) {
            for (unsigned j = 0; j < pw; j++) {
                unsigned v = flat ? max / 2
                                  : ((i * 7 + j * 3 + seed * 5) & max) ^
                                        (rnd(&seed) & 15);
                v &= max;
                if (bps == 1)
                    ((uint8_t *)f->buf[p])[i * stride + j] = (uint8_t)v;
                else
                    ((uint16_t *)((uint8_t *)f->buf[p] + i * stride))[j] =
                        (uint16_t)v;
            }
        }
        f->pic.data[p] = f->buf[p];
        f->pic.stride[p] = stride;
    }
}

static void frame_free(Frame *f)
{
    for (unsigned p = 0; p < 3; p++)
        free(f->buf[p]);
}

START_TEST(test_bad_config)
{
    VgConfig cfg = { .backend = 7, .log_cb = capture_log };
    VgContext *ctx = NULL;

    ck_assert_int_eq(vg_context_create(&ctx, &cfg), -EINVAL);
    ck_assert_ptr_null(ctx);
    ck_assert_int_eq(vg_context_create(NULL, &cfg), -EINVAL);
#if !HAVE_CUDA
    cfg.backend = VG_BACKEND_CUDA;
    last_error[0] = 0;
    ck_assert_int_eq(vg_context_create(&ctx, &cfg), -ENODEV);
    ck_assert_ptr_nonnull(strstr(last_error, "no CUDA backend"));
#endif
}
END_TEST

/* Run f with stderr in a file; @return what it wrote there. */
static char *stderr_of(void (*f)(void))
{
    static char buf[4096];
    FILE *tmp = tmpfile();
    int saved = dup(2);
    size_t n;

    ck_assert_ptr_nonnull(tmp);
    ck_assert_int_ge(saved, 0);
    fflush(stderr);
    dup2(fileno(tmp), 2);
    f();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    n = fread(buf, 1, sizeof(buf) - 1, tmp);
    buf[n] = '\0';
    fclose(tmp);
    return buf;
}

static void null_context_calls(void)
{
    VgPicture pic = { 0 };
    double v;

    ck_assert_int_eq(vg_use_model(NULL, "version=vmaf_v0.6.1"), -EINVAL);
    ck_assert_int_eq(vg_use_feature(NULL, "psnr", NULL), -EINVAL);
    ck_assert_int_eq(vg_submit(NULL, &pic, &pic), -EINVAL);
    ck_assert_int_eq(vg_flush(NULL), -EINVAL);
    ck_assert_int_eq(vg_flush_frames(NULL, 0), -EINVAL);
    ck_assert_int_eq(vg_get_score(NULL, "psnr_y", 0, &v), -EINVAL);
    ck_assert_int_eq(vg_get_pooled(NULL, "psnr_y", VG_POOL_MEAN, &v), -EINVAL);
    ck_assert_int_eq(
        vg_write_log(NULL, "-", VG_LOG_FMT_XML, VG_PRECISION_DEFAULT), -EINVAL);
    ck_assert_int_eq(vg_context_create(NULL, NULL), -EINVAL);
}

/* Every refusal of a NULL argument is logged: through the callback with a
 * context, on stderr without one. */
START_TEST(test_null_arguments)
{
    static const char *const funcs[] = {
        "vg_use_model",  "vg_use_feature",  "vg_submit",
        "vg_flush",      "vg_flush_frames", "vg_get_score",
        "vg_get_pooled", "vg_write_log",    "vg_context_create",
    };
    VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
    VgPicture pic = { 0 };
    const char *err;
    double v;

#define EXPECT_LOGGED(call, func)                                              \
    do {                                                                       \
        last_error[0] = 0;                                                     \
        ck_assert_int_eq(call, -EINVAL);                                       \
        ck_assert_str_eq(last_error, func "(): NULL argument");                \
    } while (0)
    EXPECT_LOGGED(vg_use_model(ctx, NULL), "vg_use_model");
    EXPECT_LOGGED(vg_use_feature(ctx, NULL, "x=1"), "vg_use_feature");
    EXPECT_LOGGED(vg_submit(ctx, NULL, &pic), "vg_submit");
    EXPECT_LOGGED(vg_submit(ctx, &pic, NULL), "vg_submit");
    EXPECT_LOGGED(vg_get_score(ctx, NULL, 0, &v), "vg_get_score");
    EXPECT_LOGGED(vg_get_score(ctx, "psnr_y", 0, NULL), "vg_get_score");
    EXPECT_LOGGED(vg_get_pooled(ctx, NULL, VG_POOL_MEAN, &v), "vg_get_pooled");
    EXPECT_LOGGED(vg_get_pooled(ctx, "psnr_y", VG_POOL_MEAN, NULL),
                  "vg_get_pooled");
    EXPECT_LOGGED(vg_write_log(ctx, NULL, VG_LOG_FMT_XML, VG_PRECISION_DEFAULT),
                  "vg_write_log");
#undef EXPECT_LOGGED
    vg_context_destroy(&ctx);

    err = stderr_of(null_context_calls);
    for (unsigned i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
        char want[64];
        snprintf(want, sizeof(want), "%s(): NULL argument", funcs[i]);
        ck_assert_msg(strstr(err, want), "stderr lacks '%s': %s", want, err);
    }
}
END_TEST

START_TEST(test_unknown_feature_and_option)
{
    VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);

    ck_assert_int_eq(vg_use_feature(ctx, "nosuch", NULL), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "unknown feature 'nosuch'"));
    ck_assert_int_eq(vg_use_feature(ctx, "motion", "no_such_opt=1"), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "no option 'no_such_opt'"));
    ck_assert_int_eq(vg_use_feature(ctx, "motion", "motion_max_val=20000"),
                     -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "outside"));
    ck_assert_int_eq(vg_use_feature(ctx, "motion", "motion_max_val=abc"),
                     -EINVAL);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", "enable_chroma=maybe"),
                     -EINVAL);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", "enable_apsnr=maybe"),
                     -EINVAL);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", "enable_apsnr=true"), 0);
    vg_context_destroy(&ctx);
    ck_assert_ptr_null(ctx);
}
END_TEST

START_TEST(test_bad_pictures)
{
    VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
    Frame a, b;

    ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
    frame_make(&a, VG_PIX_FMT_YUV420P, 64, 48, 8, 1, 0);
    frame_make(&b, VG_PIX_FMT_YUV420P, 64, 48, 8, 2, 0);

    a.pic.width = 0;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "size 0x48"));
    a.pic.width = 64;
    a.pic.bitdepth = b.pic.bitdepth = 7;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "bit depth 7"));
    a.pic.bitdepth = b.pic.bitdepth = 17;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "bit depth 17"));
    a.pic.bitdepth = b.pic.bitdepth = 8;
    a.pic.stride[0] = 10;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "stride"));
    a.pic.stride[0] = b.pic.stride[0];
    a.pic.data[2] = NULL;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "plane 2 is NULL"));
    a.pic.data[2] = a.buf[2];
    b.pic.height = 46;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "reference picture is 64x48"));
    b.pic.height = 48;
    b.pic.memory = VG_MEMORY_CUDA;
    a.pic.memory = VG_MEMORY_CUDA;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -ENOTSUP);
    a.pic.memory = b.pic.memory = VG_MEMORY_HOST;

    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), 0);
    a.pic.width = b.pic.width = 62;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "first frame"));
    ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), -EINVAL);
    ck_assert_int_eq(vg_flush(ctx), 0);
    a.pic.width = b.pic.width = 64;
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
    ck_assert_int_eq(vg_frame_count(ctx), 1);

    frame_free(&a);
    frame_free(&b);
    vg_context_destroy(&ctx);
}
END_TEST

static void set_sample(Frame *f, unsigned plane, unsigned x, unsigned y,
                       uint16_t v)
{
    uint8_t *row = (uint8_t *)f->buf[plane] + y * f->pic.stride[plane];

    ((uint16_t *)row)[x] = v;
}

/* A sample above the bit depth is refused on submit with its frame, plane,
 * value and position; only the samples the library reads are checked, and
 * a refused pair leaves the context usable. */
START_TEST(test_out_of_range_samples)
{
    for (unsigned bpc = 9; bpc <= 16; bpc++) {
        VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
        const uint16_t max = (uint16_t)((1u << bpc) - 1);
        char want[160];
        Frame a, b;

        ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
        ck_assert_int_eq(vg_use_feature(ctx, "vif", NULL), 0);
        /* odd width: chroma column 16 is stored but not read */
        frame_make(&a, VG_PIX_FMT_YUV420P, 33, 24, bpc, 1, 0);
        frame_make(&b, VG_PIX_FMT_YUV420P, 33, 24, bpc, 2, 0);
        set_sample(&a, 0, 5, 7, max);
        set_sample(&b, 1, 16, 3, 0xffff);
        set_sample(&b, 2, 17, 0, 0xffff); /* stride padding */
        ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), 0);
        if (bpc < 16) {
            set_sample(&b, 2, 3, 11, (uint16_t)(max + 1));
            last_error[0] = 0;
            ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
            snprintf(want, sizeof(want),
                     "distorted picture, frame 1, plane 2 "
                     "(Cr): sample %u at (3, 11) exceeds the %u-bit maximum %u",
                     max + 1u, bpc, (unsigned)max);
            ck_assert_msg(!strcmp(last_error, want), "got '%s', want '%s'",
                          last_error, want);
            set_sample(&b, 2, 3, 11, 0);
            set_sample(&a, 0, 32, 23, 0xffff);
            ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), -EINVAL);
            ck_assert_ptr_nonnull(
                strstr(last_error, "reference picture, frame 1, "
                                   "plane 0 (Y): sample 65535 at (32, 23)"));
            set_sample(&a, 0, 32, 23, 0);
        }
        ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), 0);
        ck_assert_int_eq(vg_flush(ctx), 0);
        ck_assert_uint_eq(vg_frame_count(ctx), 2);
        frame_free(&a);
        frame_free(&b);
        vg_context_destroy(&ctx);
    }
}
END_TEST

/* equal, or the same bits (a NaN computed the same way) */
static int same_value(double a, double b)
{
    return a == b || !memcmp(&a, &b, sizeof(a));
}

/* Every metric of frames 0..n-1 and every pooled mean, of two contexts. */
static void assert_same_scores(VgContext *a, VgContext *b, unsigned n)
{
    ck_assert_uint_eq(vg_frame_count(a), n);
    ck_assert_uint_eq(vg_frame_count(b), n);
    ck_assert_uint_eq(vg_metric_count(a), vg_metric_count(b));
    for (unsigned k = 0; k < vg_metric_count(a); k++) {
        const char *name = vg_metric_name(a, k);
        double va, vb;
        int ra, rb;

        for (unsigned i = 0; i < n; i++) {
            ra = vg_get_score(a, name, i, &va);
            rb = vg_get_score(b, name, i, &vb);
            ck_assert_int_eq(ra, rb);
            ck_assert_msg(ra < 0 || same_value(va, vb),
                          "%s frame %u: %.17g, want %.17g", name, i, va, vb);
        }
        ck_assert_int_eq(vg_get_score(a, name, n, &va), -EAGAIN);
        ra = vg_get_pooled(a, name, VG_POOL_MEAN, &va);
        rb = vg_get_pooled(b, name, VG_POOL_MEAN, &vb);
        ck_assert_int_eq(ra, rb);
        ck_assert_msg(ra < 0 || same_value(va, vb),
                      "%s pooled: %.17g, want %.17g", name, va, vb);
    }
}

static VgContext *clip_ctx(unsigned threads, unsigned n, int flush, int model)
{
    VgContext *ctx = make_ctx(threads, VG_BACKEND_CPU);

    ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), 0);
    ck_assert_int_eq(
        vg_use_feature(ctx, "motion", "motion_five_frame_window=true"), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
    if (model)
        ck_assert_int_eq(vg_use_model(ctx, "version=vmaf_v0.6.1"), 0);
    for (unsigned i = 0; i < n; i++) {
        Frame r, d;
        frame_make(&r, VG_PIX_FMT_YUV420P, 64, 48, 10, 300 + i * 11, 0);
        frame_make(&d, VG_PIX_FMT_YUV420P, 64, 48, 10, 400 + i * 5, 0);
        ck_assert_int_eq(vg_submit(ctx, &r.pic, &d.pic), 0);
        frame_free(&r);
        frame_free(&d);
    }
    if (flush)
        ck_assert_int_eq(vg_flush(ctx), 0);
    return ctx;
}

/* vg_flush_frames(n) after n + k submitted frames (before or after
 * vg_flush()) gives what a context given only n frames gives. */
START_TEST(test_flush_frames)
{
    const char *const *models = vg_builtin_models();
    const int model = models && models[0];

    for (unsigned threads = 0; threads <= 2; threads += 2) {
        for (unsigned n = 1; n <= 6; n += 5) {
            VgContext *want = clip_ctx(threads, n, 1, model);
            VgContext *a = clip_ctx(threads, 9, 0, model);
            VgContext *b = clip_ctx(threads, n + 1, 1, model);

            ck_assert_int_eq(vg_flush_frames(a, 10), -EINVAL);
            ck_assert_int_eq(vg_flush_frames(a, n), 0);
            ck_assert_int_eq(vg_flush_frames(b, n), 0);
            assert_same_scores(a, want, n);
            assert_same_scores(b, want, n);
            ck_assert_int_eq(vg_flush_frames(a, n), 0); /* again: no change */
            assert_same_scores(a, want, n);
            vg_context_destroy(&want);
            vg_context_destroy(&a);
            vg_context_destroy(&b);
        }
    }
}
END_TEST

/* the log of ctx in fmt, as text (caller frees) */
static char *log_text(VgContext *ctx, enum VgLogFormat fmt)
{
    char path[] = "/tmp/vg_test_log_XXXXXX";
    int fd = mkstemp(path);
    char *text;

    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(vg_write_log(ctx, path, fmt, VG_PRECISION_DEFAULT), 0);
    text = slurp(path, NULL);
    ck_assert_ptr_nonnull(text);
    unlink(path);
    return text;
}

/* vg_set_log_count(): refused keys, the limit, replacement, and where the
 * counts go (JSON after fps, XML's <fyi>; CSV and sub unchanged) */
START_TEST(test_log_counts)
{
    static const char *const bad[] = {
        "",        "fps",
        "version", "Frames",
        "a-b",     "a b",
        "a:b",     "abcdefghijklmnopqrstuvwxyz_01234", /* 32 characters */
    };
    VgContext *ctx = clip_ctx(0, 3, 1, 0);
    char *plain[4], *text;

    for (int f = VG_LOG_FMT_XML; f <= VG_LOG_FMT_SUB; f++)
        plain[f - VG_LOG_FMT_XML] = log_text(ctx, (enum VgLogFormat)f);
    ck_assert_ptr_null(
        strstr(plain[VG_LOG_FMT_JSON - VG_LOG_FMT_XML], "frames_"));
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        ck_assert_int_eq(vg_set_log_count(ctx, bad[i], 1), -EINVAL);
    ck_assert_int_eq(vg_set_log_count(ctx, NULL, 1), -EINVAL);
    ck_assert_int_eq(vg_set_log_count(NULL, "a", 1), -EINVAL);
    ck_assert_int_eq(vg_set_log_count(ctx, "frames_paired_apart", 7), 0);
    ck_assert_int_eq(vg_set_log_count(ctx, "b2", 1), 0);
    ck_assert_int_eq(vg_set_log_count(ctx, "frames_paired_apart", 2), 0);
    ck_assert_int_eq(vg_set_log_count(ctx, "c3", 18446744073709551615u), 0);
    ck_assert_int_eq(
        vg_set_log_count(ctx, "abcdefghijklmnopqrstuvwxyz_0123", 4), 0);
    ck_assert_int_eq(vg_set_log_count(ctx, "e5", 5), -ENOSPC);
    ck_assert_int_eq(vg_set_log_count(ctx, "b2", 3), 0);

    text = log_text(ctx, VG_LOG_FMT_JSON);
    ck_assert_ptr_nonnull(
        strstr(text, ",\n  \"frames_paired_apart\": 2,\n"
                     "  \"b2\": 3,\n  \"c3\": 18446744073709551615,\n"
                     "  \"abcdefghijklmnopqrstuvwxyz_0123\": 4,\n"
                     "  \"frames\": ["));
    free(text);
    text = log_text(ctx, VG_LOG_FMT_XML);
    ck_assert_ptr_nonnull(strstr(text,
                                 "\" frames_paired_apart=\"2\" b2=\"3\" "
                                 "c3=\"18446744073709551615\" "
                                 "abcdefghijklmnopqrstuvwxyz_0123=\"4\" />\n"
                                 "  <frames>"));
    free(text);
    for (int f = VG_LOG_FMT_CSV; f <= VG_LOG_FMT_SUB; f++) {
        text = log_text(ctx, (enum VgLogFormat)f);
        ck_assert_str_eq(text, plain[f - VG_LOG_FMT_XML]);
        free(text);
    }
    for (int f = 0; f < 4; f++)
        free(plain[f]);
    vg_context_destroy(&ctx);
}
END_TEST

/* Model names of any length: every output of a bootstrap model keeps its
 * own key (a name cut at 255 bytes made _ci_p95_lo and _ci_p95_hi one). */
START_TEST(test_long_model_names)
{
    static const unsigned lens[] = { 246, 247, 250, 256, 300, 4000 };
    const char *const *models = vg_builtin_models();

    if (!models || !models[0])
        return; /* a build without embedded models */
    for (unsigned l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
        static const char *const sfx[] = {
            "",           "_bagging", "_stddev", "_ci_p95_lo",
            "_ci_p95_hi", "_0001",    "_0020",
        };
        VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
        char *name = malloc(lens[l] + 1), *spec, *key;
        double lo, hi, v;

        ck_assert_ptr_nonnull(name);
        memset(name, 'a' + l, lens[l]);
        name[lens[l]] = '\0';
        spec = malloc(lens[l] + 64);
        key = malloc(lens[l] + 64);
        ck_assert_ptr_nonnull(spec);
        ck_assert_ptr_nonnull(key);
        snprintf(spec, lens[l] + 64, "version=vmaf_b_v0.6.3:name=%s", name);
        ck_assert_int_eq(vg_use_model(ctx, spec), 0);
        snprintf(spec, lens[l] + 64, "version=vmaf_v0.6.1:name=%s_plain", name);
        ck_assert_int_eq(vg_use_model(ctx, spec), 0);
        for (unsigned i = 0; i < 3; i++) {
            Frame r, d;
            frame_make(&r, VG_PIX_FMT_YUV420P, 64, 48, 8, 10 + i, 0);
            frame_make(&d, VG_PIX_FMT_YUV420P, 64, 48, 8, 20 + i, 0);
            ck_assert_msg(vg_submit(ctx, &r.pic, &d.pic) == 0, "%u: %s",
                          lens[l], last_error);
            frame_free(&r);
            frame_free(&d);
        }
        ck_assert_int_eq(vg_flush(ctx), 0);
        ck_assert_str_eq(vg_model_name(ctx, 0), name);
        for (unsigned k = 0; k < sizeof(sfx) / sizeof(sfx[0]); k++) {
            snprintf(key, lens[l] + 64, "%s%s", name, sfx[k]);
            ck_assert_msg(vg_get_pooled(ctx, key, VG_POOL_MEAN, &v) == 0,
                          "%u: no pooled %s", lens[l], sfx[k]);
        }
        snprintf(key, lens[l] + 64, "%s_plain", name);
        ck_assert_int_eq(vg_get_pooled(ctx, key, VG_POOL_MEAN, &v), 0);
        snprintf(key, lens[l] + 64, "%s_ci_p95_lo", name);
        ck_assert_int_eq(vg_get_score(ctx, key, 0, &lo), 0);
        snprintf(key, lens[l] + 64, "%s_ci_p95_hi", name);
        ck_assert_int_eq(vg_get_score(ctx, key, 0, &hi), 0);
        ck_assert(lo < hi);
        free(name);
        free(spec);
        free(key);
        vg_context_destroy(&ctx);
    }
}
END_TEST

START_TEST(test_minimum_size)
{
    VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
    Frame a;

    ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), 0);
    frame_make(&a, VG_PIX_FMT_YUV444P, 2, 5, 8, 1, 0);
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &a.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "at least 3x3"));
    frame_free(&a);
    vg_context_destroy(&ctx);

    ctx = make_ctx(0, VG_BACKEND_CPU);
    ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), 0);
    frame_make(&a, VG_PIX_FMT_YUV444P, 3, 3, 8, 1, 0);
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &a.pic), 0);
    ck_assert_int_eq(vg_flush(ctx), 0);
    frame_free(&a);
    vg_context_destroy(&ctx);

    /* float_vif: 16x16 with the default filters (scale 3 is then 2x2) */
    ctx = make_ctx(0, VG_BACKEND_CPU);
    ck_assert_int_eq(vg_use_feature(ctx, "float_vif", NULL), 0);
    frame_make(&a, VG_PIX_FMT_YUV444P, 16, 15, 8, 1, 0);
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &a.pic), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error,
                                 "feature 'float_vif' needs "
                                 "pictures of at least 16x16, got 16x15"));
    frame_free(&a);
    vg_context_destroy(&ctx);

    ctx = make_ctx(0, VG_BACKEND_CPU);
    ck_assert_int_eq(vg_use_feature(ctx, "float_vif", NULL), 0);
    frame_make(&a, VG_PIX_FMT_YUV444P, 16, 16, 8, 1, 0);
    ck_assert_int_eq(vg_submit(ctx, &a.pic, &a.pic), 0);
    ck_assert_int_eq(vg_flush(ctx), 0);
    frame_free(&a);
    vg_context_destroy(&ctx);
}
END_TEST

/* Scores for n frames of a generated clip, every metric, as a flat array. */
static double *run_clip(unsigned threads, unsigned n, const char *motion_opts,
                        unsigned bpc, unsigned w, unsigned h,
                        unsigned *n_metrics)
{
    VgContext *ctx = make_ctx(threads, VG_BACKEND_CPU);
    double *out;
    unsigned m;

    ck_assert_int_eq(vg_use_feature(ctx, "motion", motion_opts), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", "enable_mse=true"), 0);
    for (unsigned i = 0; i < n; i++) {
        Frame r, d;
        frame_make(&r, VG_PIX_FMT_YUV420P, w, h, bpc, 100 + i * 13, 0);
        frame_make(&d, VG_PIX_FMT_YUV420P, w, h, bpc, 200 + i * 7, 0);
        ck_assert_int_eq(vg_submit(ctx, &r.pic, &d.pic), 0);
        frame_free(&r);
        frame_free(&d);
    }
    ck_assert_int_eq(vg_flush(ctx), 0);
    ck_assert_uint_eq(vg_frames_ready(ctx), n);
    m = vg_metric_count(ctx);
    out = malloc(sizeof(*out) * m * n);
    for (unsigned k = 0; k < m; k++)
        for (unsigned i = 0; i < n; i++)
            ck_assert_int_eq(
                vg_get_score(ctx, vg_metric_name(ctx, k), i, &out[k * n + i]),
                0);
    *n_metrics = m;
    vg_context_destroy(&ctx);
    return out;
}

START_TEST(test_threads_identical)
{
    unsigned m0, m;
    double *ref = run_clip(0, 9, NULL, 10, 67, 41, &m0);

    for (unsigned t = 1; t <= 4; t++) {
        double *v = run_clip(t, 9, NULL, 10, 67, 41, &m);
        ck_assert_uint_eq(m, m0);
        ck_assert_mem_eq(v, ref, sizeof(*v) * m * 9);
        free(v);
    }
    free(ref);
}
END_TEST

static double get(VgContext *ctx, const char *name, unsigned i)
{
    double v = NAN;

    ck_assert_msg(vg_get_score(ctx, name, i, &v) == 0, "%s[%u] missing", name,
                  i);
    return v;
}

static double blend(double s, double f, double off)
{
    return s * f + (1 - f) * (off < s ? off : s);
}

/* float motion with the chroma planes and the half scale refuses 4:2:0
 * pictures whose chroma planes libvmaf would read with the wrong stride */
START_TEST(test_float_motion_uv_refused)
{
    static const char *const uv_opts =
        "motion_add_uv=true:motion_add_scale1=true";
    VgContext *ctx;
    Frame r, d;

    ctx = make_ctx(0, VG_BACKEND_CPU);
    ck_assert_int_eq(vg_use_feature(ctx, "float_motion", uv_opts), 0);
    frame_make(&r, VG_PIX_FMT_YUV420P, 19, 11, 8, 1, 0);
    frame_make(&d, VG_PIX_FMT_YUV420P, 19, 11, 8, 2, 0);
    last_error[0] = 0;
    ck_assert_int_eq(vg_submit(ctx, &r.pic, &d.pic), -EINVAL);
    ck_assert_msg(strstr(last_error, "motion_add_scale1 with motion_add_uv") &&
                      strstr(last_error, "9x5 chroma planes"),
                  "%s", last_error);
    frame_free(&r);
    frame_free(&d);
    vg_context_destroy(&ctx);
}
END_TEST

/* motion2/motion3 from the SAD scores, written out from libvmaf's flush() */
START_TEST(test_motion_post)
{
    static const char *const opts[] = {
        NULL,
        "motion_five_frame_window=true",
        "motion_moving_average=true",
        "motion_blend_factor=0.5:motion_blend_offset=1",
    };
    static const char *const suffix[] = { "", "_mffw", "_mma",
                                          "_mbf_0.5_mbo_1" };

    for (unsigned o = 0; o < 4; o++) {
        for (unsigned n = 1; n <= 6; n++) {
            VgContext *ctx = make_ctx(o & 1, VG_BACKEND_CPU);
            const int ffw = o == 1, mma = o == 2;
            const double f = o == 3 ? 0.5 : 1.0, off = o == 3 ? 1.0 : 40.0;
            const unsigned min_idx = ffw ? 2 : 1, stride = ffw ? 2 : 1;
            char k_sad[96], k_m2[64], k_m3[64];
            double s[8], prev, stamp = 0;

            snprintf(k_sad, sizeof(k_sad),
                     "VMAF_integer_feature_motion_sad_score%s", suffix[o]);
            snprintf(k_m2, sizeof(k_m2), "integer_motion2%s", suffix[o]);
            snprintf(k_m3, sizeof(k_m3), "integer_motion3%s", suffix[o]);
            ck_assert_int_eq(vg_use_feature(ctx, "motion", opts[o]), 0);
            for (unsigned i = 0; i < n; i++) {
                Frame r;
                frame_make(&r, VG_PIX_FMT_YUV444P, 16, 12, 8, 10 * i * i + 1,
                           0);
                ck_assert_int_eq(vg_submit(ctx, &r.pic, &r.pic), 0);
                frame_free(&r);
            }
            ck_assert_int_eq(vg_flush(ctx), 0);
            for (unsigned i = 0; i < n; i++)
                s[i] = get(ctx, k_sad, i);
            for (unsigned i = 0; i < min_idx && i < n; i++)
                ck_assert(s[i] == 0.0);
            if (n > min_idx)
                stamp = fmin(blend(s[min_idx], f, off), 10000.0);
            prev = 0;
            for (unsigned i = 0; i < n; i++) {
                double m2, m3;
                if (i < min_idx)
                    m2 = 0;
                else if (i + 1 >= n)
                    m2 = s[i];
                else if ((int)i - (int)(stride - 1) >= (int)min_idx)
                    m2 = fmin(s[i - (stride - 1)], s[i + 1]);
                else
                    m2 = s[i + 1];
                if (i < min_idx) {
                    m3 = stamp;
                    prev = stamp;
                } else {
                    double p = fmin(blend(m2, f, off), 10000.0);
                    m3 = mma ? (p + prev) / 2.0 : p;
                    prev = p;
                }
                ck_assert_msg(get(ctx, k_m2, i) == m2,
                              "opt %u n %u motion2[%u]", o, n, i);
                ck_assert_msg(get(ctx, k_m3, i) == m3,
                              "opt %u n %u motion3[%u]", o, n, i);
            }
            vg_context_destroy(&ctx);
        }
    }
}
END_TEST

START_TEST(test_frames_ready_lags_one_frame)
{
    VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
    Frame r[4];

    ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), 0);
    for (unsigned i = 0; i < 4; i++) {
        frame_make(&r[i], VG_PIX_FMT_YUV420P, 32, 32, 8, i + 1, 0);
        ck_assert_int_eq(vg_submit(ctx, &r[i].pic, &r[i].pic), 0);
        /* motion2 of frame i needs frame i + 1's SAD */
        ck_assert_uint_eq(vg_frames_ready(ctx), i);
    }
    ck_assert_int_eq(vg_flush(ctx), 0);
    ck_assert_uint_eq(vg_frames_ready(ctx), 4);
    for (unsigned i = 0; i < 4; i++)
        frame_free(&r[i]);
    vg_context_destroy(&ctx);
}
END_TEST

START_TEST(test_psnr_caps)
{
    /* identical inputs: the cap 6 * bpc + 12 (integer_psnr.c init()) */
    for (unsigned bpc = 8; bpc <= 16; bpc++) {
        VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
        Frame a;
        ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
        frame_make(&a, VG_PIX_FMT_YUV422P, 33, 17, bpc, 5, 0);
        ck_assert_int_eq(vg_submit(ctx, &a.pic, &a.pic), 0);
        ck_assert_int_eq(vg_flush(ctx), 0);
        ck_assert(get(ctx, "psnr_y", 0) == 6.0 * bpc + 12);
        ck_assert(get(ctx, "psnr_cb", 0) == 6.0 * bpc + 12);
        ck_assert(get(ctx, "psnr_cr", 0) == 6.0 * bpc + 12);
        frame_free(&a);
        vg_context_destroy(&ctx);
    }
}
END_TEST

START_TEST(test_psnr_values)
{
    /* max error everywhere: MSE = peak^2, PSNR = 0 dB; 8-bit ignores
     * reduced_hbd_peak, 10-bit with it: peak 1020 vs error 1023 */
    static const unsigned depth[] = { 8, 10, 16 };

    for (unsigned k = 0; k < 3; k++) {
        const unsigned bpc = depth[k], max = (1u << bpc) - 1;
        for (int reduced = 0; reduced <= 1; reduced++) {
            VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
            Frame a, b;
            double expect;
            ck_assert_int_eq(
                vg_use_feature(ctx, "psnr",
                               reduced
                                   ? "reduced_hbd_peak=true:enable_chroma=false"
                                   : "enable_chroma=false"),
                0);
            frame_make(&a, VG_PIX_FMT_YUV444P, 8, 8, bpc, 1, 0);
            frame_make(&b, VG_PIX_FMT_YUV444P, 8, 8, bpc, 1, 0);
            for (unsigned i = 0; i < 8; i++) {
                for (unsigned j = 0; j < 8; j++) {
                    if (bpc == 8) {
                        ((uint8_t *)a.buf[0])[i * a.pic.stride[0] + j] = 0;
                        ((uint8_t *)b.buf[0])[i * b.pic.stride[0] + j] =
                            (uint8_t)max;
                    } else {
                        ((uint16_t *)((uint8_t *)a.buf[0] +
                                      i * a.pic.stride[0]))[j] = 0;
                        ((uint16_t *)((uint8_t *)b.buf[0] +
                                      i * b.pic.stride[0]))[j] = (uint16_t)max;
                    }
                }
            }
            ck_assert_int_eq(vg_submit(ctx, &a.pic, &b.pic), 0);
            ck_assert_int_eq(vg_flush(ctx), 0);
            if (bpc == 8 || !reduced) {
                expect = 10. * log10((double)max * max / ((double)max * max));
            } else {
                const uint32_t peak = 255u << (bpc - 8);
                expect =
                    10. * log10((uint32_t)(peak * peak) / ((double)max * max));
            }
            ck_assert_msg(get(ctx, "psnr_y", 0) == expect, "bpc %u reduced %d",
                          bpc, reduced);
            ck_assert_int_eq(vg_get_score(ctx, "psnr_cb", 0, &expect), -EINVAL);
            frame_free(&a);
            frame_free(&b);
            vg_context_destroy(&ctx);
        }
    }
}
END_TEST

/* NV12 / P010 / P016 host pictures score like their planar equivalent */
START_TEST(test_semiplanar_equals_planar)
{
    static const enum VgPixFmt fmts[] = { VG_PIX_FMT_NV12, VG_PIX_FMT_P010,
                                          VG_PIX_FMT_P016 };
    static const unsigned depths[] = { 8, 10, 12 };
    const unsigned w = 37, h = 23, cw = 18, ch = 11;

    for (unsigned k = 0; k < 3; k++) {
        const unsigned bpc = depths[k], shift = bpc > 8 ? 16 - bpc : 0;
        double planar[2][6], semi[2][6];
        for (int pass = 0; pass < 2; pass++) {
            VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
            ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
            ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), 0);
            for (unsigned n = 0; n < 2; n++) {
                Frame r, d;
                frame_make(&r, VG_PIX_FMT_YUV420P, w, h, bpc, 3 + n, 0);
                frame_make(&d, VG_PIX_FMT_YUV420P, w, h, bpc, 9 + n, 0);
                if (pass) {
                    Frame *fr[2] = { &r, &d };
                    for (unsigned q = 0; q < 2; q++) {
                        Frame *f = fr[q];
                        const unsigned bps = bpc > 8 ? 2 : 1;
                        uint8_t *y = malloc((size_t)w * h * bps);
                        uint8_t *uv = malloc((size_t)2 * cw * ch * bps);
                        for (unsigned i = 0; i < h; i++)
                            for (unsigned j = 0; j < w; j++) {
                                if (bps == 1)
                                    y[i * w + j] =
                                        ((uint8_t *)
                                             f->buf[0])[i * f->pic.stride[0] +
                                                        j];
                                else
                                    ((uint16_t *)y)[i * w + j] =
                                        (uint16_t)(((uint16_t
                                                         *)((uint8_t *)
                                                                f->buf[0] +
                                                            i * f->pic.stride
                                                                    [0]))[j]
                                                   << shift);
                            }
                        for (unsigned i = 0; i < ch; i++)
                            for (unsigned j = 0; j < cw; j++)
                                for (unsigned c = 0; c < 2; c++) {
                                    const uint8_t *src =
                                        (uint8_t *)f->buf[1 + c] +
                                        i * f->pic.stride[1 + c];
                                    if (bps == 1)
                                        uv[(i * cw + j) * 2 + c] = src[j];
                                    else
                                        ((uint16_t *)uv)[(i * cw + j) * 2 + c] =
                                            (uint16_t)(((const uint16_t *)
                                                            src)[j]
                                                       << shift);
                                }
                        free(f->buf[0]);
                        free(f->buf[1]);
                        free(f->buf[2]);
                        f->buf[0] = y;
                        f->buf[1] = uv;
                        f->buf[2] = NULL;
                        f->pic.fmt = fmts[k];
                        f->pic.data[0] = y;
                        f->pic.data[1] = uv;
                        f->pic.data[2] = NULL;
                        f->pic.stride[0] = (ptrdiff_t)w * bps;
                        f->pic.stride[1] = (ptrdiff_t)2 * cw * bps;
                        if (fmts[k] == VG_PIX_FMT_P016)
                            f->pic.bitdepth = bpc;
                    }
                }
                ck_assert_int_eq(vg_submit(ctx, &r.pic, &d.pic), 0);
                frame_free(&r);
                frame_free(&d);
            }
            ck_assert_int_eq(vg_flush(ctx), 0);
            for (unsigned n = 0; n < 2; n++) {
                double *dst = pass ? semi[n] : planar[n];
                dst[0] = get(ctx, "psnr_y", n);
                dst[1] = get(ctx, "psnr_cb", n);
                dst[2] = get(ctx, "psnr_cr", n);
                dst[3] = get(ctx, "VMAF_integer_feature_motion_sad_score", n);
                dst[4] = get(ctx, "integer_motion2", n);
                dst[5] = get(ctx, "integer_motion3", n);
            }
            vg_context_destroy(&ctx);
        }
        ck_assert_mem_eq(planar, semi, sizeof(planar));
    }
}
END_TEST

/*
 * Rewrite planar LSB-aligned frame f into fmt: semi-planar formats
 * interleave Cb,Cr; 16-bit MSB formats move each sample to the high bits
 * and fill the bits below with noise, which conversion must drop.
 */
static void frame_to_format(Frame *f, enum VgPixFmt fmt, unsigned cw,
                            unsigned ch)
{
    const unsigned w = f->pic.width, h = f->pic.height, bpc = f->pic.bitdepth;
    const int semi = fmt != VG_PIX_FMT_YUV444P_MSB;
    const int msb = fmt != VG_PIX_FMT_NV16;
    const unsigned bps = bpc > 8 ? 2 : 1, shift = msb ? 16 - bpc : 0;
    const unsigned noise = (1u << shift) - 1;
    uint32_t seed = 77;
    void *out[3] = { NULL, NULL, NULL };
    ptrdiff_t ostride[3] = { 0, 0, 0 };

    for (unsigned p = 0; p < (semi ? 2u : 3u); p++) {
        const unsigned pw = p ? cw * (semi ? 2 : 1) : w, ph = p ? ch : h;
        ostride[p] = (ptrdiff_t)pw * bps + 8;
        out[p] = calloc(ph, (size_t)ostride[p]);
        ck_assert_ptr_nonnull(out[p]);
        for (unsigned i = 0; i < ph; i++)
            for (unsigned j = 0; j < pw; j++) {
                const unsigned q = !p ? 0 : semi ? 1 + (j & 1) : p;
                const unsigned x = p && semi ? j >> 1 : j;
                const uint8_t *row =
                    (const uint8_t *)f->buf[q] + i * f->pic.stride[q];
                unsigned v = bps == 1 ? row[x] : ((const uint16_t *)row)[x];
                if (msb)
                    v = v << shift | (rnd(&seed) & noise);
                if (bps == 1)
                    ((uint8_t *)out[p])[i * ostride[p] + j] = (uint8_t)v;
                else
                    ((uint16_t *)((uint8_t *)out[p] + i * ostride[p]))[j] =
                        (uint16_t)v;
            }
    }
    for (unsigned p = 0; p < 3; p++) {
        free(f->buf[p]);
        f->buf[p] = out[p];
        f->pic.data[p] = out[p];
        f->pic.stride[p] = ostride[p];
    }
    f->pic.fmt = fmt;
}

/* NV16 / P210 / P212 / P216 and planar MSB 4:4:4 (FFmpeg's yuv444p10msb,
 * yuv444p12msb) score like the planar LSB-aligned picture they hold */
START_TEST(test_more_formats_equal_planar)
{
    static const struct {
        enum VgPixFmt fmt, planar;
        unsigned bpc;
    } cases[] = {
        { VG_PIX_FMT_NV16, VG_PIX_FMT_YUV422P, 8 },
        { VG_PIX_FMT_P216, VG_PIX_FMT_YUV422P, 10 },
        { VG_PIX_FMT_P216, VG_PIX_FMT_YUV422P, 12 },
        { VG_PIX_FMT_P216, VG_PIX_FMT_YUV422P, 16 },
        { VG_PIX_FMT_YUV444P_MSB, VG_PIX_FMT_YUV444P, 10 },
        { VG_PIX_FMT_YUV444P_MSB, VG_PIX_FMT_YUV444P, 12 },
    };
    const unsigned w = 37, h = 23;

    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const unsigned bpc = cases[k].bpc;
        const unsigned cw =
            cases[k].planar == VG_PIX_FMT_YUV444P ? w : (w + 1) / 2;
        double res[2][2][6];
        for (int pass = 0; pass < 2; pass++) {
            VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
            ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
            ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), 0);
            for (unsigned n = 0; n < 2; n++) {
                Frame r, d;
                frame_make(&r, cases[k].planar, w, h, bpc, 3 + n, 0);
                frame_make(&d, cases[k].planar, w, h, bpc, 9 + n, 0);
                if (pass) {
                    frame_to_format(&r, cases[k].fmt, cw, h);
                    frame_to_format(&d, cases[k].fmt, cw, h);
                }
                ck_assert_int_eq(vg_submit(ctx, &r.pic, &d.pic), 0);
                frame_free(&r);
                frame_free(&d);
            }
            ck_assert_int_eq(vg_flush(ctx), 0);
            for (unsigned n = 0; n < 2; n++) {
                double *dst = res[pass][n];
                dst[0] = get(ctx, "psnr_y", n);
                dst[1] = get(ctx, "psnr_cb", n);
                dst[2] = get(ctx, "psnr_cr", n);
                dst[3] = get(ctx, "VMAF_integer_feature_motion_sad_score", n);
                dst[4] = get(ctx, "integer_motion2", n);
                dst[5] = get(ctx, "integer_motion3", n);
            }
            vg_context_destroy(&ctx);
        }
        ck_assert_msg(!memcmp(res[0], res[1], sizeof(res[0])),
                      "case %u (format %d, %u bits) differs from planar", k,
                      (int)cases[k].fmt, bpc);
    }
}
END_TEST

/* each format's bit depths: the others are refused with a message */
START_TEST(test_format_bitdepths)
{
    static const struct {
        enum VgPixFmt fmt;
        unsigned bpc;
        int ok;
    } cases[] = {
        { VG_PIX_FMT_NV16, 8, 1 },         { VG_PIX_FMT_NV16, 10, 0 },
        { VG_PIX_FMT_P216, 8, 0 },         { VG_PIX_FMT_P216, 9, 1 },
        { VG_PIX_FMT_P216, 16, 1 },        { VG_PIX_FMT_YUV444P_MSB, 8, 0 },
        { VG_PIX_FMT_YUV444P_MSB, 10, 1 }, { VG_PIX_FMT_YUV444P_MSB, 12, 1 },
    };

    for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const enum VgPixFmt planar = cases[k].fmt == VG_PIX_FMT_YUV444P_MSB
                                         ? VG_PIX_FMT_YUV444P
                                         : VG_PIX_FMT_YUV422P;
        VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
        Frame r, d;

        ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
        /* the buffers are made for the larger sample size */
        frame_make(&r, planar, 16, 8, cases[k].bpc > 8 ? cases[k].bpc : 9, 1,
                   0);
        frame_make(&d, planar, 16, 8, cases[k].bpc > 8 ? cases[k].bpc : 9, 2,
                   0);
        frame_to_format(&r, cases[k].fmt, planar == VG_PIX_FMT_YUV444P ? 16 : 8,
                        8);
        frame_to_format(&d, cases[k].fmt, planar == VG_PIX_FMT_YUV444P ? 16 : 8,
                        8);
        r.pic.bitdepth = d.pic.bitdepth = cases[k].bpc;
        last_error[0] = 0;
        ck_assert_int_eq(vg_submit(ctx, &r.pic, &d.pic),
                         cases[k].ok ? 0 : -EINVAL);
        if (!cases[k].ok)
            ck_assert_msg(strstr(last_error, "cannot hold"), "message: %s",
                          last_error);
        frame_free(&r);
        frame_free(&d);
        vg_context_destroy(&ctx);
    }
}
END_TEST

START_TEST(test_feature_names_and_dedupe)
{
    VgContext *ctx = make_ctx(0, VG_BACKEND_CPU);
    unsigned n;

    ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), 0);
    n = vg_metric_count(ctx);
    ck_assert_int_eq(vg_use_feature(ctx, "motion", "motion_blend_offset=40.0"),
                     0);
    ck_assert_uint_eq(vg_metric_count(ctx), n); /* same as the default */
    ck_assert_int_eq(
        vg_use_feature(
            ctx, "motion",
            "motion_max_val=18:motion_five_frame_window=true:debug=true"),
        0);
    ck_assert_uint_eq(vg_metric_count(ctx), n + 4);
    ck_assert_str_eq(vg_metric_name(ctx, n),
                     "VMAF_integer_feature_motion_sad_score_mffw_mmxv_18");
    ck_assert_str_eq(vg_metric_name(ctx, n + 1), "integer_motion_mffw_mmxv_18");
    ck_assert_str_eq(vg_metric_name(ctx, n + 2),
                     "integer_motion2_mffw_mmxv_18");
    ck_assert_str_eq(vg_metric_name(ctx, n + 3),
                     "integer_motion3_mffw_mmxv_18");
    vg_context_destroy(&ctx);
}
END_TEST

/* the INFO lines since info_lines was emptied */
static char info_lines[4096];

static void capture_info(void *opaque, enum VgLogLevel level, const char *msg)
{
    const size_t n = strlen(info_lines);

    if (level == VG_LOG_INFO)
        snprintf(info_lines + n, sizeof(info_lines) - n, "%s\n", msg);
    else
        capture_log(opaque, level, msg);
}

/* renditions 0..2 of the ladder tests: 64x48, 48x36 and 32x24 */
static const unsigned rend_w[3] = { 64, 48, 32 }, rend_h[3] = { 48, 36, 24 };

static void ladder_uses(VgContext *ctx, int model)
{
    ck_assert_int_eq(vg_use_feature(ctx, "motion", NULL), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "float_motion", NULL), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", "enable_apsnr=true"), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "adm", NULL), 0);
    if (model)
        ck_assert_int_eq(vg_use_model(ctx, "version=vmaf_v0.6.1"), 0);
}

/* frame i of the clip: the reference, or rendition r's picture */
static void ladder_frame(Frame *f, int r, unsigned i)
{
    if (r < 0)
        frame_make(f, VG_PIX_FMT_YUV420P, 64, 48, 10, 300 + i * 11, 0);
    else
        frame_make(f, VG_PIX_FMT_YUV420P, rend_w[r], rend_h[r], 10,
                   400 + i * 5 + (unsigned)r * 77, 0);
}

/* A ladder of three renditions of three sizes gives, for each, what a pair
 * context of that rendition alone gives, every score and the log; with
 * vg_flush_frames() too; motion and float_motion are computed once. */
START_TEST(test_ladder_equals_pairs)
{
    const char *const *models = vg_builtin_models();
    const int model = models && models[0];
    const unsigned n = 24;
    /* 7 threads: rendition 0 gets 3 workers, the others 2 each, so its
     * workers race ahead of the readers of its stages */
    static const unsigned thread_counts[] = { 0, 5, 7 };

    for (unsigned t = 0; t < 3; t++) {
        const unsigned threads = thread_counts[t];
        VgConfig cfg = {
            .backend = VG_BACKEND_CPU,
            .n_threads = threads,
            .n_distorted = 3,
            .scale = VG_SCALE_BICUBIC,
            .log_level = VG_LOG_INFO,
            .log_cb = capture_info,
        };
        VgContext *ladder = NULL, *pair[3];

        info_lines[0] = '\0';
        ck_assert_int_eq(vg_context_create(&ladder, &cfg), 0);
        ck_assert_uint_eq(vg_rendition_count(ladder), 3);
        ladder_uses(ladder, model);
        cfg.n_distorted = 0;
        for (unsigned r = 0; r < 3; r++) {
            ck_assert_int_eq(vg_context_create(&pair[r], &cfg), 0);
            ladder_uses(pair[r], model);
        }
        for (unsigned i = 0; i < n; i++) {
            Frame ref, dis[3];
            const VgPicture *pics[3];

            ladder_frame(&ref, -1, i);
            for (unsigned r = 0; r < 3; r++) {
                ladder_frame(&dis[r], (int)r, i);
                pics[r] = &dis[r].pic;
                ck_assert_int_eq(vg_submit(pair[r], &ref.pic, pics[r]), 0);
            }
            ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), 0);
            ck_assert_uint_le(vg_frames_ready(ladder), i + 1);
            frame_free(&ref);
            for (unsigned r = 0; r < 3; r++)
                frame_free(&dis[r]);
        }
        ck_assert_uint_eq(vg_frame_count(ladder), n);
        ck_assert_int_eq(vg_flush(ladder), 0);
        ck_assert_uint_eq(vg_frames_ready(ladder), n);
        ck_assert_ptr_nonnull(strstr(info_lines, "feature 'motion' depends "
                                                 "on the reference alone"));
        ck_assert_ptr_nonnull(strstr(info_lines, "feature 'float_motion'"));
        ck_assert_ptr_null(strstr(info_lines, "feature 'psnr'"));
        /* VIF's and ADM's reference stages are computed by rendition 0
         * and read by the others: a line for each of them */
        {
            const char *at = info_lines;

            for (unsigned r = 1; r < 3; r++) {
                const char *end;

                at = strstr(at, "the reference stage of ");
                ck_assert_ptr_nonnull(at);
                end = strchr(at, '\n');
                ck_assert_ptr_nonnull(end);
                ck_assert(memmem(at, (size_t)(end - at), "adm", 3));
                ck_assert(memmem(at, (size_t)(end - at), "vif", 3));
                at = end;
            }
        }
        for (unsigned r = 0; r < 3; r++) {
            VgContext *rend = vg_rendition(ladder, r);
            char *a, *b;

            ck_assert_int_eq(vg_flush(pair[r]), 0);
            assert_same_scores(rend, pair[r], n);
            a = log_text(rend, VG_LOG_FMT_CSV);
            b = log_text(pair[r], VG_LOG_FMT_CSV);
            ck_assert_str_eq(a, b);
            free(a);
            free(b);
        }
        /* the stream ended early: each rendition as its pair ended there */
        ck_assert_int_eq(vg_flush_frames(ladder, n - 2), 0);
        ck_assert_uint_eq(vg_frame_count(ladder), n - 2);
        for (unsigned r = 0; r < 3; r++) {
            ck_assert_int_eq(vg_flush_frames(pair[r], n - 2), 0);
            assert_same_scores(vg_rendition(ladder, r), pair[r], n - 2);
            vg_context_destroy(&pair[r]);
        }
        vg_context_destroy(&ladder);
    }
}
END_TEST

/* a 4:4:4 8-bit picture of w x h sampling smooth content (waves in every
 * plane) laid over 480 x 480, plus noise from seed: the reference at 480,
 * a rendition at another size, each frame's content moving with t */
static void smooth_make(Frame *f, unsigned w, unsigned h, unsigned t,
                        uint32_t seed, int banded)
{
    memset(f, 0, sizeof(*f));
    f->pic.fmt = VG_PIX_FMT_YUV444P;
    f->pic.width = w;
    f->pic.height = h;
    f->pic.bitdepth = 8;
    for (unsigned p = 0; p < 3; p++) {
        const unsigned pw = w, ph = h;
        const double sx = 480.0 / pw, sy = 480.0 / ph;
        uint8_t *b = malloc((size_t)pw * ph);

        ck_assert_ptr_nonnull(b);
        f->buf[p] = b;
        for (unsigned i = 0; i < ph; i++) {
            for (unsigned j = 0; j < pw; j++) {
                const double x = j * sx + t, y = i * sy;
                double v = 128 + 50 * sin(x * 0.11 + p) * cos(y * 0.07) +
                           25 * sin((x + 2 * y) * 0.23 + p * 0.5) +
                           (double)(rnd(&seed) & 7) - 3.5;

                /* banded: the luma's top left quarter a staircase of flat
                 * bands one code apart, moving with t (cambi's banding) */
                if (banded && !p && i < ph / 2 && j < pw / 2)
                    v = 100 + (double)((j + 5 * t) / 24 + i / 60);

                b[(size_t)i * pw + j] = (uint8_t)(v < 0     ? 0
                                                  : v > 255 ? 255
                                                            : v);
            }
        }
        f->pic.data[p] = f->buf[p];
        f->pic.stride[p] = (ptrdiff_t)pw;
    }
}

/* A ladder of cfg.n_distorted renditions and a pair context per rendition
 * with the same settings; all[] holds the ladder then the pairs, for the
 * calls every one of them takes. */
static void ladder_with_pairs(VgConfig cfg, VgContext **ladder,
                              VgContext **pair, VgContext **all)
{
    const unsigned n = cfg.n_distorted;

    ck_assert_int_eq(vg_context_create(ladder, &cfg), 0);
    all[0] = *ladder;
    cfg.n_distorted = 0;
    for (unsigned r = 0; r < n; r++) {
        ck_assert_int_eq(vg_context_create(&pair[r], &cfg), 0);
        all[1 + r] = pair[r];
    }
}

/* The SSIM family's, SpEED chroma's, cambi's (full_ref) and VIF's
 * reference stages on the CPU: a ladder of a 480x480 4:4:4 reference
 * (SpEED's 5x5 blocks of its planes reduced 16 times: 36 of them; bands in
 * a quarter of its luma, so that cambi_source differs from frame to
 * frame) and renditions of 480x480 and 360x360, scaled, each rendition's
 * log the pair's; float_ssim twice, the second with another decimation,
 * and VIF twice, the second without scale 0, each instance reading its
 * own stage. */
START_TEST(test_ladder_cpu_stages)
{
    static const unsigned size[2] = { 480, 360 };
    const unsigned n = 6;
    VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .n_threads = 3,
        .n_distorted = 2,
        .scale = VG_SCALE_BICUBIC,
        .log_level = VG_LOG_INFO,
        .log_cb = capture_info,
    };
    VgContext *ladder = NULL, *pair[2], *all[3];
    const char *at, *end;

    info_lines[0] = '\0';
    ladder_with_pairs(cfg, &ladder, pair, all);
    for (unsigned k = 0; k < 3; k++) {
        VgContext *ctx = all[k];

        ck_assert_int_eq(vg_use_feature(ctx, "float_ssim", "enable_lcs=true"),
                         0);
        ck_assert_int_eq(vg_use_feature(ctx, "float_ssim", "scale=2"), 0);
        ck_assert_int_eq(
            vg_use_feature(ctx, "float_ms_ssim", "enable_lcs=true"), 0);
        ck_assert_int_eq(vg_use_feature(ctx, "speed_chroma", NULL), 0);
        ck_assert_int_eq(vg_use_feature(ctx, "cambi", "full_ref=true"), 0);
        ck_assert_int_eq(vg_use_feature(ctx, "vif", NULL), 0);
        ck_assert_int_eq(vg_use_feature(ctx, "vif", "vif_skip_scale0=true"), 0);
    }
    for (unsigned i = 0; i < n; i++) {
        Frame ref, dis[2];
        const VgPicture *pics[2];

        smooth_make(&ref, 480, 480, i, 900 + i * 7, 1);
        for (unsigned r = 0; r < 2; r++) {
            smooth_make(&dis[r], size[r], size[r], i, 950 + i * 3 + r * 31, 0);
            pics[r] = &dis[r].pic;
            ck_assert_int_eq(vg_submit(pair[r], &ref.pic, pics[r]), 0);
        }
        ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), 0);
        frame_free(&ref);
        for (unsigned r = 0; r < 2; r++)
            frame_free(&dis[r]);
    }
    ck_assert_int_eq(vg_flush(ladder), 0);
    at = strstr(info_lines, "the reference stage of ");
    ck_assert_ptr_nonnull(at);
    end = strchr(at, '\n');
    ck_assert_ptr_nonnull(end);
    ck_assert(memmem(at, (size_t)(end - at), "float_ssim", 10));
    ck_assert(memmem(at, (size_t)(end - at), "float_ms_ssim", 13));
    ck_assert(memmem(at, (size_t)(end - at), "speed_chroma", 12));
    ck_assert(memmem(at, (size_t)(end - at), "cambi", 5));
    ck_assert(memmem(at, (size_t)(end - at), "vif", 3));
    for (unsigned r = 0; r < 2; r++) {
        char *a, *b;
        double lo, hi;

        ck_assert_int_eq(vg_flush(pair[r]), 0);
        /* the reference's bands: a cambi_source of its own each frame */
        ck_assert_int_eq(
            vg_get_pooled(pair[r], "cambi_source", VG_POOL_MIN, &lo), 0);
        ck_assert_int_eq(
            vg_get_pooled(pair[r], "cambi_source", VG_POOL_MAX, &hi), 0);
        ck_assert(lo > 0 && hi > lo);
        assert_same_scores(vg_rendition(ladder, r), pair[r], n);
        a = log_text(vg_rendition(ladder, r), VG_LOG_FMT_CSV);
        b = log_text(pair[r], VG_LOG_FMT_CSV);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
        vg_context_destroy(&pair[r]);
    }
    vg_context_destroy(&ladder);
}
END_TEST

/* VIF's reference stage in each CPU build (C, AVX2, AVX-512, as far as
 * the processor has them): the readers' passes are per build, so a
 * ladder of renditions of two sizes, 8- and 10-bit, each scored the same
 * as its pair run in the same build; VIF twice, the second without scale
 * 0 and with another gain limit. 210 columns: 13 whole blocks of 16 (the
 * AVX-512 kernels leave the last to the AVX2 ones) and 2 left to C. */
START_TEST(test_ladder_cpu_vif_builds)
{
    static const unsigned masks[3] = { VG_CPU_FLAG_AVX2, VG_CPU_FLAG_AVX512,
                                       0 };
    static const unsigned size[2][2] = { { 210, 120 }, { 150, 90 } };
    const unsigned n = 3;

    for (unsigned m = 0; m < 3; m++) {
        for (unsigned bpc = 8; bpc <= 10; bpc += 2) {
            VgConfig cfg = {
                .backend = VG_BACKEND_CPU,
                .n_threads = 2,
                .n_distorted = 2,
                .scale = VG_SCALE_BICUBIC,
                .log_level = VG_LOG_WARNING,
                .log_cb = capture_log,
            };
            VgContext *ladder = NULL, *pair[2], *all[3];

            vg_cpu_set_mask(masks[m]);
            ladder_with_pairs(cfg, &ladder, pair, all);
            for (unsigned k = 0; k < 3; k++) {
                VgContext *ctx = all[k];

                ck_assert_int_eq(vg_use_feature(ctx, "vif", NULL), 0);
                ck_assert_int_eq(vg_use_feature(ctx, "vif",
                                                "vif_skip_scale0=true:"
                                                "vif_enhn_gain_limit=1.0"),
                                 0);
            }
            for (unsigned i = 0; i < n; i++) {
                Frame ref, dis[2];
                const VgPicture *pics[2];

                frame_make(&ref, VG_PIX_FMT_YUV420P, 210, 120, bpc,
                           700 + i * 13, 0);
                for (unsigned r = 0; r < 2; r++) {
                    frame_make(&dis[r], VG_PIX_FMT_YUV420P, size[r][0],
                               size[r][1], bpc, 700 + i * 13 + r, 0);
                    pics[r] = &dis[r].pic;
                    ck_assert_int_eq(vg_submit(pair[r], &ref.pic, pics[r]), 0);
                }
                ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), 0);
                frame_free(&ref);
                for (unsigned r = 0; r < 2; r++)
                    frame_free(&dis[r]);
            }
            ck_assert_int_eq(vg_flush(ladder), 0);
            for (unsigned r = 0; r < 2; r++) {
                ck_assert_int_eq(vg_flush(pair[r]), 0);
                assert_same_scores(vg_rendition(ladder, r), pair[r], n);
                vg_context_destroy(&pair[r]);
            }
            vg_context_destroy(&ladder);
        }
    }
    vg_cpu_set_mask(0);
}
END_TEST

/* a ladder's file paths: one %d, %% a '%'; a pair's path as it is */
START_TEST(test_rendition_path)
{
    static const struct {
        const char *pattern;
        unsigned r, n;
        const char *path; ///< NULL: refused
    } cases[] = {
        { "log_%d.json", 0, 3, "log_0.json" },
        { "log_%d.json", 15, 16, "log_15.json" },
        { "%d", 7, 8, "7" },
        { "100%%/r%d/", 2, 3, "100%/r2/" },
        { "a%%d_%d", 1, 2, "a%d_1" },
        { "pair%d%%.json", 0, 1, "pair%d%%.json" },
        { "no_number.json", 0, 1, "no_number.json" },
        { "no_number.json", 0, 2, NULL },
        { "two_%d_%d.json", 0, 2, NULL },
        { "other_%s_%d.json", 0, 2, NULL },
        { "trailing_%d_%", 0, 2, NULL },
        { "log_%d.json", 2, 2, NULL },
        { "log_%d.json", 0, 0, NULL },
    };

    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *path = (char *)"unset";
        const int ret =
            vg_rendition_path(&path, cases[i].pattern, cases[i].r, cases[i].n);

        if (cases[i].path) {
            ck_assert_int_eq(ret, 0);
            ck_assert_str_eq(path, cases[i].path);
        } else {
            ck_assert_int_eq(ret, -EINVAL);
            ck_assert_ptr_null(path);
        }
        free(path);
    }
    ck_assert_int_eq(vg_rendition_path(NULL, "x_%d", 0, 2), -EINVAL);
}
END_TEST

/* What a ladder refuses, with a message naming the rendition at fault. */
START_TEST(test_ladder_errors)
{
    VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .n_distorted = VG_MAX_RENDITIONS + 1,
        .scale = VG_SCALE_BICUBIC,
        .log_level = VG_LOG_WARNING,
        .log_cb = capture_log,
    };
    VgContext *ladder = NULL, *rend;
    Frame ref, dis[3], other;
    const VgPicture *pics[3];
    double v;

    last_error[0] = '\0';
    ck_assert_int_eq(vg_context_create(&ladder, &cfg), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "at most 16 renditions"));
    cfg.n_distorted = 3;
    ck_assert_int_eq(vg_context_create(&ladder, &cfg), 0);
    ladder_uses(ladder, 0);
    ck_assert_ptr_null(vg_rendition(ladder, 3));
    rend = vg_rendition(ladder, 1);
    ck_assert_ptr_nonnull(rend);

    ladder_frame(&ref, -1, 0);
    for (unsigned r = 0; r < 3; r++) {
        ladder_frame(&dis[r], (int)r, 0);
        pics[r] = &dis[r].pic;
    }
    /* a ladder's frames go through vg_submit_ladder(), to the ladder */
    last_error[0] = '\0';
    ck_assert_int_eq(vg_submit(ladder, &ref.pic, pics[0]), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "vg_submit_ladder()"));
    ck_assert_int_eq(vg_submit(rend, &ref.pic, pics[1]), -EINVAL);
    ck_assert_int_eq(vg_submit_ladder(rend, &ref.pic, pics), -EINVAL);
    ck_assert_int_eq(vg_use_feature(rend, "psnr", NULL), -EINVAL);
    ck_assert_int_eq(vg_use_model(rend, "version=vmaf_v0.6.1"), -EINVAL);
    ck_assert_int_eq(vg_flush(rend), -EINVAL);
    /* a picture of another format refuses the whole frame, naming it */
    frame_make(&other, VG_PIX_FMT_YUV444P, 48, 36, 10, 5, 0);
    pics[1] = &other.pic;
    last_error[0] = '\0';
    ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "rendition 1: "));
    ck_assert_uint_eq(vg_frame_count(ladder), 0);
    pics[1] = NULL;
    last_error[0] = '\0';
    ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "rendition 1: "));
    pics[1] = &dis[1].pic;
    ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), 0);
    ck_assert_int_eq(vg_use_feature(ladder, "psnr", NULL), -EINVAL);
    /* a rendition whose size changes mid-stream */
    frame_free(&dis[2]);
    frame_make(&dis[2], VG_PIX_FMT_YUV420P, 40, 30, 10, 9, 0);
    last_error[0] = '\0';
    ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "rendition 2: distorted picture "
                                             "is 40x30 but the first one was "
                                             "32x24"));
    /* a rendition whose bit depth changes: refused, the ladder usable */
    frame_free(&dis[2]);
    frame_make(&dis[2], VG_PIX_FMT_YUV420P, 32, 24, 12, 9, 0);
    last_error[0] = '\0';
    ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "rendition 2: "));
    frame_free(&dis[2]);
    ladder_frame(&dis[2], 2, 1);
    ck_assert_int_eq(vg_submit_ladder(ladder, &ref.pic, pics), 0);
    ck_assert_uint_eq(vg_frame_count(ladder), 2);
    ck_assert_int_eq(vg_flush(ladder), 0);
    /* results are the renditions', not the ladder's */
    last_error[0] = '\0';
    ck_assert_int_eq(vg_get_score(ladder, "psnr_y", 0, &v), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "vg_rendition(ctx, r)"));
    ck_assert_int_eq(vg_get_pooled(ladder, "psnr_y", VG_POOL_MEAN, &v),
                     -EINVAL);
    ck_assert_int_eq(
        vg_write_log(ladder, "/dev/null", VG_LOG_FMT_JSON, VG_PRECISION_MAX),
        -EINVAL);
    ck_assert_uint_eq(vg_metric_count(ladder), 0);
    ck_assert_int_eq(vg_get_score(rend, "psnr_y", 1, &v), 0);
    ck_assert_int_eq(vg_set_log_count(ladder, "apart", 3), 0);
    {
        char *text = log_text(rend, VG_LOG_FMT_JSON);
        ck_assert_ptr_nonnull(strstr(text, "\"apart\": 3"));
        free(text);
    }
    last_error[0] = '\0';
    ck_assert_int_eq(vg_set_log_count(ladder, "fps", 3), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_error, "log count key 'fps'"));
    ck_assert_ptr_null(strstr(last_error, "rendition"));
    /* a rendition is destroyed with its ladder */
    vg_context_destroy(&rend);
    ck_assert_ptr_nonnull(rend);
    ck_assert_int_eq(vg_get_score(rend, "psnr_y", 1, &v), 0);
    frame_free(&ref);
    frame_free(&other);
    for (unsigned r = 0; r < 3; r++)
        frame_free(&dis[r]);
    vg_context_destroy(&ladder);

    /* a pair context is its own one rendition */
    ladder = make_ctx(0, VG_BACKEND_CPU);
    ck_assert_uint_eq(vg_rendition_count(ladder), 1);
    ck_assert_ptr_eq(vg_rendition(ladder, 0), ladder);
    ck_assert_ptr_null(vg_rendition(ladder, 1));
    vg_context_destroy(&ladder);
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("api");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bad_config);
    tcase_add_test(tc, test_null_arguments);
    tcase_add_test(tc, test_unknown_feature_and_option);
    tcase_add_test(tc, test_bad_pictures);
    tcase_add_test(tc, test_out_of_range_samples);
    tcase_add_test(tc, test_flush_frames);
    tcase_add_test(tc, test_log_counts);
    tcase_add_test(tc, test_long_model_names);
    tcase_add_test(tc, test_minimum_size);
    tcase_add_test(tc, test_threads_identical);
    tcase_add_test(tc, test_motion_post);
    tcase_add_test(tc, test_float_motion_uv_refused);
    tcase_add_test(tc, test_frames_ready_lags_one_frame);
    tcase_add_test(tc, test_psnr_caps);
    tcase_add_test(tc, test_psnr_values);
    tcase_add_test(tc, test_semiplanar_equals_planar);
    tcase_add_test(tc, test_more_formats_equal_planar);
    tcase_add_test(tc, test_format_bitdepths);
    tcase_add_test(tc, test_feature_names_and_dedupe);
    tcase_add_test(tc, test_ladder_equals_pairs);
    tcase_add_test(tc, test_ladder_cpu_stages);
    tcase_add_test(tc, test_ladder_cpu_vif_builds);
    tcase_add_test(tc, test_ladder_errors);
    tcase_add_test(tc, test_rendition_path);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return vg_check_run(core_suite());
}
