/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The vmafgpu tool on bad input and on input libvmaf's own tool mishandles.
 *  - Bad input (short file, zero/negative size, bit depth 7/17, unknown
 *    model, malformed model JSON, model needing a feature we lack, unknown
 *    feature/option, ...): exit status 1, a message on stderr, no crash.
 *    A few run under valgrind when it is installed (--error-exitcode=99,
 *    so a memory error or a definite leak is told apart from our status 1).
 *  - Inputs of different lengths: the common frames are scored, with a
 *    warning; y4m and stdin input of an odd 4:2:0 size give exactly the
 *    values of the raw file.
 */

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "vmafgpu.h"
#include "tests/cli_util.h"
#include "tests/check_run.h"

static const char *const tmp_files[] = {
    "fm.log",        "short.yuv",      "small.yuv",
    "small_dis.yuv", "bad_model.json", "unknown_feature_model.json",
    "ref577.y4m",    "dis577.y4m",     "dis5.yuv",
    "noheader.y4m",  "interlaced.y4m", "paldv.y4m",
    "badframe.y4m",  "both.yuv",       "both.y4m",
    "over10.yuv",    "over12.yuv",     "over10.y4m",
    "max16.yuv",     "huge.y4m",       "o1.json",
    "o2.json",       "o3.json",        "o4.json",
    "err.txt",       "out.txt",        "gray1000x16.yuv",
    "gray216x8.yuv", "gray216p10.yuv", "ref577s.y4m",
    "small64.y4m",   "o5.json",        "kept.json",
    "new.json",      "new.svg",        NULL
};

static char raw_dir[CLI_PATH_MAX + 64];
static int have_valgrind;

/* Fixture set-up runs outside the Check tests: fail the whole program. */
#define MUST(c)                                                                \
    do {                                                                       \
        if (!(c)) {                                                            \
            fprintf(stderr, "test_cli: set-up failed: %s\n", #c);              \
            exit(EXIT_FAILURE);                                                \
        }                                                                      \
    } while (0)

static void write_file(const char *name, const void *data, size_t size)
{
    FILE *f = fopen(tmp_path(name), "wb");

    MUST(f);
    MUST(fwrite(data, 1, size, f) == size);
    MUST(fclose(f) == 0);
}

static char *raw_input(const char *name)
{
    static char buf[4][CLI_PATH_MAX + 128];
    static unsigned k;
    char *p = buf[k++ % 4];

    snprintf(p, CLI_PATH_MAX + 128, "%s/%s", raw_dir, name);
    return p;
}

/* ---- fixtures ------------------------------------------------------------ */

static void make_fixtures(void)
{
    static uint8_t small[3 * (64 * 48 * 3 / 2)];
    char models[CLI_PATH_MAX + 64], *json, *at;
    const char *needle = "VMAF_integer_feature_adm2_score";
    size_t len;
    FILE *f;

    write_file("short.yuv", small, 100);

    /* 3 frames 64x48 4:2:0 8-bit, a simple pattern; dis = ref + 1. */
    for (size_t i = 0; i < sizeof(small); i++)
        small[i] = (uint8_t)((i * 7 + i / 64) & 0xff);
    write_file("small.yuv", small, sizeof(small));
    for (size_t i = 0; i < sizeof(small); i++)
        small[i] = (uint8_t)(small[i] ^ 1);
    write_file("small_dis.yuv", small, sizeof(small));
    /* one 16x16 4:2:0 8-bit frame: below float_adm's minimum size */
    write_file("tiny16.yuv", small, 16 * 16 * 3 / 2);
    /* 4:0:0 frames for cambi's size checks (contents do not matter) */
    {
        static uint8_t gray[216 * 216 * 2];

        write_file("gray1000x16.yuv", gray, 1000 * 16);
        write_file("gray216x8.yuv", gray, 216 * 8);
        write_file("gray216p10.yuv", gray, sizeof(gray));
    }

    write_file("bad_model.json", "{ \"model_dict\": { not json",
               strlen("{ \"model_dict\": { not json"));

    /* vmaf_v0.6.1 with adm2 replaced by an output no extractor provides. */
    snprintf(models, sizeof(models), "%s/models/vmaf_v0.6.1.json",
             cli_env.shared);
    json = slurp(models, &len);
    MUST(json);
    at = strstr(json, needle);
    MUST(at);
    f = fopen(tmp_path("unknown_feature_model.json"), "wb");
    MUST(f);
    fwrite(json, 1, (size_t)(at - json), f);
    fputs("VMAF_feature_unknown_score", f);
    fputs(at + strlen(needle), f);
    MUST(fclose(f) == 0);
    free(json);

    write_file("noheader.y4m", "YUV4MPEG2 W0 H16 C420jpeg\n",
               strlen("YUV4MPEG2 W0 H16 C420jpeg\n"));
    write_file("huge.y4m", "YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n",
               strlen("YUV4MPEG2 W32768 H32768 C444p16\nFRAME\n"));
    write_file("interlaced.y4m", "YUV4MPEG2 W16 H16 Ib C420jpeg\n",
               strlen("YUV4MPEG2 W16 H16 Ib C420jpeg\n"));
    write_file("paldv.y4m", "YUV4MPEG2 W16 H16 C420paldv\n",
               strlen("YUV4MPEG2 W16 H16 C420paldv\n"));
    {
        static char y4m[64 + 2 * (6 + 16 * 16 * 3 / 2)];
        int n = snprintf(y4m, sizeof(y4m), "YUV4MPEG2 W16 H16 C420\nFRAME\n");

        n += 16 * 16 * 3 / 2;
        memcpy(y4m + n, "FRAMX\n", 6);
        write_file("badframe.y4m", y4m, (size_t)n + 6 + 16 * 16 * 3 / 2);
        /* two whole y4m files back to back, as `cat ref.y4m dis.y4m` */
        memcpy(y4m + n, y4m, (size_t)n);
        write_file("both.y4m", y4m, 2 * (size_t)n);
    }
    /* 10-bit 64x48 4:2:0, 2 frames; frame 1 has 1024 at (5, 3) of Cb */
    {
        static uint16_t w10[2 * 64 * 48 * 3 / 2];
        const size_t frame = 64 * 48 * 3 / 2;
        static char y4m[64 + 2 * (6 + sizeof(w10) / 2)];
        int n = snprintf(y4m, sizeof(y4m), "YUV4MPEG2 W64 H48 C420p10\n");

        for (size_t i = 0; i < 2 * frame; i++)
            w10[i] = (uint16_t)((i * 13) & 1023);
        w10[frame + 64 * 48 + 3 * 32 + 5] = 1024;
        write_file("over10.yuv", w10, sizeof(w10));
        for (unsigned f = 0; f < 2; f++) {
            n += snprintf(y4m + n, sizeof(y4m) - n, "FRAME\n");
            memcpy(y4m + n, w10 + f * frame, 2 * frame);
            n += (int)(2 * frame);
        }
        write_file("over10.y4m", y4m, (size_t)n);
        /* 12 bit, 0xffff in frame 0's luma at (63, 47) */
        w10[frame + 64 * 48 + 3 * 32 + 5] = 0;
        w10[64 * 48 - 1] = 0xffff;
        write_file("over12.yuv", w10, sizeof(w10));
        /* 16 bit: every word is in range */
        for (size_t i = 0; i < 2 * frame; i++)
            w10[i] = (uint16_t)(0xffff - (i & 255));
        write_file("max16.yuv", w10, sizeof(w10));
    }
    /* `cat ref.yuv dis.yuv`: reference then distorted, 3 frames each */
    {
        static uint8_t both[2 * sizeof(small)];

        for (size_t i = 0; i < sizeof(small); i++) {
            both[sizeof(small) + i] = small[i];
            both[i] = (uint8_t)(small[i] ^ 1);
        }
        write_file("both.yuv", both, sizeof(both));
    }
    /* 3 frames 256x256 4:4:4 8-bit, pseudo-random texture that changes;
     * dis = ref plus noise; then both with a flat U plane */
    {
        static uint8_t tex[3 * 256 * 256 * 3], noisy[sizeof(tex)];
        const size_t plane = 256 * 256;
        uint32_t seed = 12345;

        for (size_t i = 0; i < sizeof(tex); i++) {
            seed = seed * 1103515245u + 12345u;
            tex[i] = (uint8_t)(64 + ((seed >> 16) & 127));
            noisy[i] = (uint8_t)(tex[i] + ((seed >> 8) & 15));
        }
        write_file("tex256.yuv", tex, sizeof(tex));
        write_file("tex256_dis.yuv", noisy, sizeof(noisy));
        for (size_t k = 0; k < 3; k++) {
            memset(tex + (3 * k + 1) * plane, 128, plane);
            memset(noisy + (3 * k + 1) * plane, 128, plane);
        }
        write_file("tex256_flatu.yuv", tex, sizeof(tex));
        write_file("tex256_flatu_dis.yuv", noisy, sizeof(noisy));
    }
    /* one 640x360 4:2:0 8-bit frame, flat: read as 352x288 it has two */
    {
        static uint8_t gray[640 * 360 * 3 / 2];

        memset(gray, 128, sizeof(gray));
        write_file("gray640.yuv", gray, sizeof(gray));
    }
    /* two frames of 64x48 4:2:0 16-bit words, all 0: in range at any depth */
    {
        static uint8_t zero[2 * 2 * (64 * 48 * 3 / 2)];

        write_file("zero16.yuv", zero, sizeof(zero));
    }
}

/** y4m copy of a raw 4:2:0 8-bit file. */
static void make_y4m(const char *raw, const char *name, unsigned w, unsigned h)
{
    size_t len,
        frame = (size_t)w * h + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
    char *data = slurp(raw, &len);
    FILE *f = fopen(tmp_path(name), "wb");

    ck_assert_msg(data != NULL, "cannot read %s", raw);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(len % frame, 0);
    fprintf(f, "YUV4MPEG2 W%u H%u F30:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\n", w,
            h);
    for (size_t off = 0; off < len; off += frame) {
        fputs(off ? "FRAME\n" : "FRAME Ixyz\n", f);
        ck_assert_uint_eq(fwrite(data + off, 1, frame, f), frame);
    }
    ck_assert_int_eq(fclose(f), 0);
    free(data);
}

/* ---- running ------------------------------------------------------------- */

/**
 * Run the tool with args (NULL-terminated), optionally under valgrind;
 * stdin from `in`. @return its exit status; stderr is in err.txt.
 */
static const char *stdout_path; ///< NULL: out.txt

static int run_tool(int valgrind, const char *in, const char *const *args)
{
    char *argv[96];
    int n = 0;

    if (valgrind) {
        argv[n++] = "/usr/bin/valgrind";
        argv[n++] = "-q";
        argv[n++] = "--error-exitcode=99";
        argv[n++] = "--leak-check=full";
        argv[n++] = "--errors-for-leak-kinds=definite,indirect";
    }
    argv[n++] = cli_env.cli;
    for (; *args && n < 95; args++)
        argv[n++] = (char *)*args;
    argv[n] = NULL;
    return run_cmd(argv, in, stdout_path ? stdout_path : tmp_path("out.txt"),
                   tmp_path("err.txt"));
}

static char *err_text(void)
{
    char *e = slurp(tmp_path("err.txt"), NULL);

    ck_assert_ptr_nonnull(e);
    return e;
}

/* ---- bad input ----------------------------------------------------------- */

typedef struct BadCase {
    const char *what;
    const char *args[24];
    const char *expect; ///< substring of the message
    int valgrind;       ///< also run under valgrind
    const char *in;     ///< stdin ("@name" = temporary file), NULL: /dev/null
    const char *out;    ///< stdout, NULL: a temporary file
} BadCase;

#define SMALL "-w", "64", "-h", "48", "-p", "420", "-b", "8"
#define R_SMALL "-r", "@small.yuv", "-d", "@small_dis.yuv"

static const BadCase bad_cases[] = {
    { "file shorter than one frame",
      { "-r", "@short.yuv", "-d", "@short.yuv", SMALL, "-n", "--feature",
        "psnr" },
      "shorter than one frame",
      1 },
    { "zero width",
      { R_SMALL, "-w", "0", "-h", "48", "-p", "420", "-b", "8" },
      "--width",
      0 },
    { "negative height",
      { R_SMALL, "-w", "64", "-h", "-48", "-p", "420", "-b", "8" },
      "invalid argument \"-48\"",
      0 },
    { "bit depth 7",
      { R_SMALL, "-w", "64", "-h", "48", "-p", "420", "-b", "7" },
      "bit depth 7",
      0 },
    { "bit depth 17",
      { R_SMALL, "-w", "64", "-h", "48", "-p", "420", "-b", "17" },
      "bit depth 17",
      0 },
    { "pixel format 411",
      { R_SMALL, "-w", "64", "-h", "48", "-p", "411", "-b", "8" },
      "pixel format",
      0 },
    { "raw without all four of -w -h -p -b",
      { R_SMALL, "-w", "64", "-h", "48" },
      "--pixel_format",
      0 },
    { "unknown model name",
      { R_SMALL, SMALL, "-m", "version=vmaf_v9.9.9" },
      "vmaf_v9.9.9",
      1 },
    { "malformed model JSON",
      { R_SMALL, SMALL, "-m", "path=@bad_model.json" },
      "bad_model.json",
      1 },
    { "model file missing",
      { R_SMALL, SMALL, "-m", "path=@no_such_model.json" },
      "no_such_model.json",
      0 },
    { "model needing a feature we do not compute",
      { R_SMALL, SMALL, "-m", "path=@unknown_feature_model.json" },
      "needs feature VMAF_feature_unknown_score which is not available",
      1 },
    { "two models with the same name",
      { R_SMALL, SMALL, "-m", "version=vmaf_v0.6.1", "-m",
        "version=vmaf_v0.6.1neg" },
      "named",
      0 },
    { "unknown feature",
      { R_SMALL, SMALL, "-n", "--feature", "no_such_feature" },
      "no_such_feature",
      1 },
    { "unknown feature option",
      { R_SMALL, SMALL, "-n", "--feature", "psnr=no_such_opt=1" },
      "psnr",
      1 },
    { "unknown option",
      { R_SMALL, SMALL, "--no_such_option" },
      "unknown option --no_such_option",
      0 },
    { "option without its argument",
      { R_SMALL, SMALL, "--threads" },
      "--threads needs an argument",
      0 },
    { "a flag given a value",
      { R_SMALL, SMALL, "--json=1" },
      "option --json takes no argument (--json=1)",
      0 },
    { "a short flag's long name given a value",
      { R_SMALL, SMALL, "--quiet=yes" },
      "option -q/--quiet takes no argument",
      0 },
    { "plot: a flag given a value",
      { "plot", "--help=1" },
      "vmafgpu plot: option --help=1 takes no argument",
      0 },
    { "plot: an option without its argument",
      { "plot", "@o1.json", "--worst" },
      "vmafgpu plot: option --worst needs an argument",
      0 },
    { "--opt= without its value",
      { R_SMALL, SMALL, "--threads=" },
      "invalid argument \"\" for --threads",
      0 },
    { "bad thread count",
      { R_SMALL, SMALL, "--threads", "two" },
      "--threads",
      0 },
    { "missing distorted", { "-r", "@small.yuv", SMALL }, "--distorted", 0 },
    { "missing file",
      { "-r", "@small.yuv", "-d", "@nonexistent.yuv", SMALL },
      "nonexistent.yuv",
      0 },
    { "raw file without -w -h -p -b", { R_SMALL }, "YUV4MPEG2", 0 },
    { "y4m with a zero width",
      { "-r", "@noheader.y4m", "-d", "@noheader.y4m" },
      "invalid size",
      0 },
    { "interlaced y4m",
      { "-r", "@interlaced.y4m", "-d", "@interlaced.y4m" },
      "interlaced YUV4MPEG2 input is not supported",
      0 },
    { "y4m chroma that needs resampling",
      { "-r", "@paldv.y4m", "-d", "@paldv.y4m" },
      "420paldv",
      0 },
    { "y4m with a broken frame header",
      { "-r", "@badframe.y4m", "-d", "@badframe.y4m", "-n", "--feature",
        "psnr" },
      "frame 1: bad YUV4MPEG2 frame header",
      1 },
    { "no model and no feature",
      { R_SMALL, SMALL, "-n" },
      "nothing to compute",
      0 },
    { "unknown backend",
      { R_SMALL, SMALL, "--backend", "opencl" },
      "--backend",
      0 },
    { "log into a missing directory",
      { R_SMALL, SMALL, "-n", "--feature", "psnr", "-o",
        "/nonexistent/dir/log.xml" },
      "log.xml",
      0 },
    /* refused before the first frame is read: the broken second frame
     * would be the error otherwise */
    { "log into a missing directory, before any frame",
      { "-r", "@badframe.y4m", "-d", "@badframe.y4m", "-n", "--feature", "psnr",
        "-o", "/nonexistent/dir/log.json" },
      "cannot write --output /nonexistent/dir/log.json (No such file or directory)",
      0 },
    { "chart into a directory, before any frame",
      { "-r", "@badframe.y4m", "-d", "@badframe.y4m", "-n", "--feature", "psnr",
        "--plot", "@." },
      "(Is a directory)",
      0 },
    { "stdin for both inputs (raw)",
      { "-r", "-", "-d", "-", SMALL },
      "are one stream",
      0,
      "@both.yuv" },
    { "stdin for both inputs (y4m)",
      { "-r", "-", "-d", "-", "-n", "--feature", "psnr" },
      "are one stream",
      0,
      "@both.y4m" },
    { "10-bit sample above 1023 (raw)",
      { "-r", "@over10.yuv", "-d", "@over10.yuv", "-w", "64", "-h", "48", "-p",
        "420", "-b", "10", "-n", "--feature", "psnr", "--feature", "vif" },
      "over10.yuv: frame 1, plane 1 (Cb): sample 1024 at (5, 3) exceeds the "
      "10-bit maximum 1023",
      1 },
    { "12-bit sample 0xffff (raw)",
      { "-r", "@over10.yuv", "-d", "@over12.yuv", "-w", "64", "-h", "48", "-p",
        "420", "-b", "12", "--frame_cnt", "1" },
      "over12.yuv: frame 0, plane 0 (Y): sample 65535 at (63, 47) exceeds the "
      "12-bit maximum 4095",
      1 },
    { "10-bit sample above 1023 (y4m)",
      { "-r", "@over10.y4m", "-d", "@over10.y4m", "-n", "--feature", "vif" },
      "frame 1, plane 1 (Cb): sample 1024 at (5, 3) exceeds the 10-bit maximum",
      0 },
    { "scores to a full stdout",
      { R_SMALL, SMALL },
      "cannot write to stdout: No space left on device",
      0,
      NULL,
      "/dev/full" },
    { "log to a full stdout",
      { R_SMALL, SMALL, "-q", "-n", "--feature", "psnr", "-o", "-" },
      "No space left on device",
      0,
      NULL,
      "/dev/full" },
    { "log to a full disk",
      { R_SMALL, SMALL, "-n", "--feature", "psnr", "-o", "/dev/full" },
      "writing the log '/dev/full' failed: No space left on device",
      0 },
    { "version to a full stdout",
      { "--version" },
      "cannot write to stdout: No space left on device",
      0,
      NULL,
      "/dev/full" },
    { "a directory as input",
      { "-r", "@.", "-d", "@small_dis.yuv", SMALL },
      "cannot read: Is a directory",
      0 },
    { "a directory as stdin",
      { "-r", "-", "-d", "@small_dis.yuv", SMALL },
      "-: cannot read: Is a directory",
      0,
      "@." },
    { "a huge frame from a pipe",
      { "-r", "-", "-d", "@small.yuv", "-w", "32768", "-h", "32768", "-p",
        "444", "-b", "16" },
      "-: a 32768x32768 frame of 16-bit samples takes 6442450944 bytes, more "
      "than the 2147483648 this tool reads",
      0 },
    { "a y4m header with a frame larger than the file",
      { "-r", "@huge.y4m", "-d", "@huge.y4m" },
      "file is shorter than one frame",
      0 },
    { "float_psnr at a bit depth libvmaf refuses",
      { "-r", "@zero16.yuv", "-d", "@zero16.yuv", "-w", "64", "-h", "48", "-p",
        "420", "-b", "9", "-n", "--feature", "float_psnr" },
      "feature 'float_psnr' does not take 9-bit pictures (bit depths: 8, 10, 12, 16)",
      1 },
    { "float_ansnr at a bit depth libvmaf refuses",
      { "-r", "@zero16.yuv", "-d", "@zero16.yuv", "-w", "64", "-h", "48", "-p",
        "420", "-b", "14", "-n", "--feature", "float_ansnr" },
      "feature 'float_ansnr' does not take 14-bit pictures",
      0 },
    { "float_ansnr below its 3x3 minimum",
      { "-r", "@short.yuv", "-d", "@short.yuv", "-w", "2", "-h", "8", "-p",
        "420", "-b", "8", "-n", "--feature", "float_ansnr" },
      "feature 'float_ansnr' needs pictures of at least 3x3, got 2x8",
      0 },
    { "an option of a feature that has none",
      { R_SMALL, SMALL, "-n", "--feature", "float_moment=enable_chroma=true" },
      "feature 'float_moment' has no option 'enable_chroma' (options: none)",
      0 },
    { "one device under two names",
      { "-r", "/dev/stdin", "-d", "-", SMALL },
      "are one stream",
      0 },
    { "float_ms_ssim below its 5-scale minimum",
      { R_SMALL, SMALL, "-n", "--feature", "float_ms_ssim" },
      "feature 'float_ms_ssim' needs pictures of at least 176x176, got 64x48",
      1 },
    { "float_ssim below the window",
      { R_SMALL, "-w", "8", "-h", "8", "-p", "420", "-b", "8", "-n",
        "--feature", "float_ssim" },
      "feature 'float_ssim' needs pictures of at least 11x11, got 8x8",
      0 },
    { "float_ssim decimated below the window",
      { R_SMALL, SMALL, "-n", "--feature", "float_ssim=scale=5" },
      "float_ssim: 64x48 decimated by 5 is 12x9, smaller than the 11x11 window",
      1 },
    { "float_ssim scale out of range",
      { R_SMALL, SMALL, "-n", "--feature", "float_ssim=scale=11" },
      "feature 'float_ssim': option 'scale' needs an integer in [0, 10], not '11'",
      0 },
    { "float_vif: a kernel scale libvmaf does not list",
      { R_SMALL, SMALL, "-n", "--feature", "float_vif=vif_kernelscale=0.3" },
      "feature 'float_vif': vif_kernelscale=0.3 is not one of 1, 1/2,",
      0 },
    { "float_vif: a kernel scale out of range",
      { R_SMALL, SMALL, "-n", "--feature", "float_vif=vif_kernelscale=5" },
      "option 'vif_kernelscale' = 5 is outside [0.1, 4]",
      0 },
    { "float_vif: a prescale method libvmaf does not have",
      { R_SMALL, SMALL, "-n", "--feature",
        "float_vif=vif_prescale_method=area" },
      "option 'vif_prescale_method' takes one of nearest, bilinear, bicubic, "
      "lanczos4, not 'area'",
      0 },
    { "float_vif: a picture too small for the filters",
      { R_SMALL, SMALL, "-n", "--feature",
        "float_vif=vif_prescale=0.5:vif_kernelscale=3" },
      "float_vif: a 64x48 picture (prescaled) is too small: scale 0 is "
      "32x24, its 51-tap filter needs at least 26x26",
      1 },
    { "float_adm below its minimum size",
      { "-r", "@tiny16.yuv", "-d", "@tiny16.yuv", "-w", "16", "-h", "16", "-p",
        "420", "-b", "8", "-n", "--feature", "float_adm" },
      "feature 'float_adm' needs pictures of at least 17x17, got 16x16",
      1 },
    { "float_adm: adm_skip_aim_scale set to its default -1",
      { R_SMALL, SMALL, "-n", "--feature", "float_adm=adm_skip_aim_scale=-1" },
      "feature 'float_adm': option 'adm_skip_aim_scale' needs an integer in "
      "[0, 3], not '-1'",
      0 },
    { "float_adm: adm_csf_mode above 9",
      { R_SMALL, SMALL, "-n", "--feature", "float_adm=adm_csf_mode=10" },
      "option 'adm_csf_mode' needs an integer in [0, 9], not '10'",
      0 },
    { "float_adm: adm_p_norm below 1",
      { R_SMALL, SMALL, "-n", "--feature", "float_adm=adm_p_norm=0.5" },
      "option 'adm_p_norm' = 0.5 is outside [1, 20]",
      0 },
    { "float_adm: adm_f1s2 below -1",
      { R_SMALL, SMALL, "-n", "--feature", "float_adm=adm_f1s2=-1.5" },
      "option 'adm_f1s2' = -1.5 is outside [-1, 10]",
      0 },
    { "float_adm: adm_bypass_cm 2",
      { R_SMALL, SMALL, "-n", "--feature", "float_adm=adm_bypass_cm=2" },
      "option 'adm_bypass_cm' needs an integer in [0, 1], not '2'",
      0 },
    { "float_motion: motion_add_uv on 4:0:0",
      { R_SMALL, "-w", "64", "-h", "48", "-p", "400", "-b", "8", "-n",
        "--feature", "float_motion=motion_add_uv=true" },
      "float_motion: motion_add_uv needs chroma planes, and 4:0:0 pictures "
      "have none",
      0 },
    { "float_motion: motion_add_uv on 2x2 chroma",
      { R_SMALL, "-w", "4", "-h", "4", "-p", "420", "-b", "8", "-n",
        "--feature", "float_motion=motion_add_uv=true" },
      "float_motion: motion_add_uv needs chroma planes of at least 3x3, these "
      "are 2x2",
      0 },
    { "float_motion: motion_add_uv on 5x5 4:2:0 (2x2 chroma)",
      { R_SMALL, "-w", "5", "-h", "5", "-p", "420", "-b", "8", "-n",
        "--feature", "float_motion=motion_add_uv=true" },
      "float_motion: motion_add_uv needs chroma planes of at least 3x3, these "
      "are 2x2",
      0 },
    { "float_motion: motion_add_scale1 with motion_add_uv on 4:2:0",
      { R_SMALL, "-w", "64", "-h", "48", "-p", "420", "-b", "8", "-n",
        "--feature", "float_motion=motion_add_uv=true:motion_add_scale1=true" },
      "float_motion: motion_add_scale1 with motion_add_uv is undefined for "
      "32x24 chroma planes of a 64-wide picture: libvmaf reads them with a "
      "32-sample row stride and takes uninitialised memory (use 4:4:4 input, "
      "or leave one of the options off)",
      0 },
    { "float_motion: a picture under 3x3",
      { R_SMALL, "-w", "2", "-h", "8", "-p", "444", "-b", "8", "-n",
        "--feature", "float_motion" },
      "feature 'float_motion' needs pictures of at least 3x3, got 2x8",
      0 },
    { "float_motion: motion_filter_size out of range",
      { R_SMALL, SMALL, "-n", "--feature",
        "float_motion=motion_filter_size=10" },
      "option 'motion_filter_size' needs an integer in [0, 9], not '10'",
      0 },
    { "float_motion: motion_fps_weight out of range",
      { R_SMALL, SMALL, "-n", "--feature",
        "float_motion=motion_fps_weight=5.5" },
      "option 'motion_fps_weight' = 5.5 is outside [0, 5]",
      0 },
    { "psnr_hvs on 16-bit samples",
      { "-r", "@max16.yuv", "-d", "@max16.yuv", "-w", "64", "-h", "48", "-p",
        "420", "-b", "16", "-n", "--feature", "psnr_hvs" },
      "psnr_hvs: 16-bit pictures are not supported, only 8 to 12 bits",
      1 },
    { "psnr_hvs on 4:0:0",
      { R_SMALL, "-w", "64", "-h", "48", "-p", "400", "-b", "8", "-n",
        "--feature", "psnr_hvs" },
      "psnr_hvs: needs chroma planes, 4:0:0 pictures have none",
      0 },
    { "psnr_hvs on chroma planes smaller than one block",
      { R_SMALL, "-w", "15", "-h", "16", "-p", "420", "-b", "8", "-n",
        "--feature", "psnr_hvs", "--frame_cnt", "1" },
      "psnr_hvs: the chroma planes of a 15x16 picture are 7x8, smaller than "
      "one 8x8 block",
      0 },
    { "psnr_hvs on a picture smaller than one block",
      { R_SMALL, "-w", "7", "-h", "8", "-p", "444", "-b", "8", "-n",
        "--feature", "psnr_hvs", "--frame_cnt", "1" },
      "feature 'psnr_hvs' needs pictures of at least 8x8, got 7x8",
      0 },
    { "psnr_hvs has no options",
      { R_SMALL, SMALL, "-n", "--feature", "psnr_hvs=enable_chroma=false" },
      "enable_chroma",
      0 },
    { "cambi below 216 in both dimensions",
      { R_SMALL, SMALL, "-n", "--feature", "cambi" },
      "cambi: 64x48 is too small (width or height must be at least 216)",
      1 },
    { "cambi: a window past the coarsest scale",
      { "-r", "@gray1000x16.yuv", "-d", "@gray1000x16.yuv", "-w", "1000", "-h",
        "16", "-p", "400", "-b", "8", "-n", "--feature", "cambi" },
      "cambi: picture 1000x16 is too small for its window of 11 at the "
      "coarsest scale (63x1)",
      0 },
    { "cambi: a source window too large for the reciprocal table",
      { "-r", "@gray216x8.yuv", "-d", "@gray216x8.yuv", "-w", "216", "-h", "8",
        "-p", "400", "-b", "8", "-n", "--feature",
        "cambi=src_width=7680:src_height=4320" },
      "cambi: window_size 131 too large for reciprocal LUT",
      0 },
    { "cambi: source narrower but taller than the encode",
      { "-r", "@gray1000x16.yuv", "-d", "@gray1000x16.yuv", "-w", "1000", "-h",
        "16", "-p", "400", "-b", "8", "-n", "--feature",
        "cambi=src_width=320:src_height=200" },
      "cambi: source 320x200 and encode 1000x16 differ in aspect",
      0 },
    { "cambi: full_ref, 10 bits, source wider than the input",
      { "-r", "@gray216p10.yuv", "-d", "@gray216p10.yuv", "-w", "216", "-h",
        "216", "-p", "400", "-b", "10", "-n", "--feature",
        "cambi=full_ref=true:src_width=320:src_height=320" },
      "cambi: full_ref with src_width 320 wider than the 216-wide 10-bit "
      "input is not supported",
      0 },
    { "cambi: window_size below 15",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=window_size=13" },
      "option 'window_size' needs an integer in [15, 127], not '13'",
      0 },
    { "cambi: topk 0",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=topk=0" },
      "option 'topk' = 0 is outside [0.0001, 1]",
      0 },
    { "cambi: cambi_topk above 1",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=cambi_topk=1.5" },
      "option 'cambi_topk' = 1.5 is outside [0.0001, 1]",
      0 },
    { "cambi: tvi_threshold 0",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=tvi_threshold=0" },
      "option 'tvi_threshold' = 0 is outside [0.0001, 1]",
      0 },
    { "cambi: cambi_vis_lum_threshold above 300",
      { R_SMALL, SMALL, "-n", "--feature",
        "cambi=cambi_vis_lum_threshold=301" },
      "option 'cambi_vis_lum_threshold' = 301 is outside [0, 300]",
      0 },
    { "cambi: cambi_max_val above 1000",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=cambi_max_val=1001" },
      "option 'cambi_max_val' = 1001 is outside [0, 1000]",
      0 },
    { "cambi: max_log_contrast 6",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=max_log_contrast=6" },
      "option 'max_log_contrast' needs an integer in [0, 5], not '6'",
      0 },
    { "cambi: enc_width below 180",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=enc_width=179" },
      "option 'enc_width' needs an integer in [180, 7680], not '179'",
      0 },
    { "cambi: enc_height below 150",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=enc_height=149" },
      "option 'enc_height' needs an integer in [150, 7680], not '149'",
      0 },
    { "cambi: enc_bitdepth 17",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=enc_bitdepth=17" },
      "option 'enc_bitdepth' needs an integer in [6, 16], not '17'",
      0 },
    { "cambi: src_width above 7680",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=src_width=7681" },
      "option 'src_width' needs an integer in [320, 7680], not '7681'",
      0 },
    { "cambi: src_height below 200",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=src_height=199" },
      "option 'src_height' needs an integer in [200, 4320], not '199'",
      0 },
    { "cambi: cambi_high_res_speedup above 2160",
      { R_SMALL, SMALL, "-n", "--feature",
        "cambi=cambi_high_res_speedup=2161" },
      "option 'cambi_high_res_speedup' needs an integer in [0, 2160], not '2161'",
      0 },
    { "cambi: an EOTF libvmaf does not have",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=cambi_eotf=hlg" },
      "option 'cambi_eotf' takes one of bt1886, pq, not 'hlg'",
      0 },
    { "cambi: eotf not a name",
      { R_SMALL, SMALL, "-n", "--feature", "cambi=eotf=2" },
      "option 'eotf' takes one of bt1886, pq, not '2'",
      0 },
    { "ciede on gray input",
      { R_SMALL, "-w", "64", "-h", "48", "-p", "400", "-b", "8", "-n",
        "--feature", "ciede" },
      "ciede: needs chroma planes; 4:0:0 (gray) input has none",
      0 },
    { "ciede with an option (it has none)",
      { R_SMALL, SMALL, "-n", "--feature", "ciede=enable_chroma=true" },
      "no option 'enable_chroma'",
      0 },
    { "speed_chroma on gray input",
      { R_SMALL, "-w", "64", "-h", "48", "-p", "400", "-b", "8", "-n",
        "--feature", "speed_chroma" },
      "speed_chroma: needs chroma planes; 4:0:0 (gray) input has none",
      1 },
    { "speed_chroma below 5x5 blocks after the decimation",
      { R_SMALL, SMALL, "-n", "--feature", "speed_chroma" },
      "speed_chroma: a 32x24 plane is too small for SpEED (speed_prescale=1 "
      "makes it 32x24; it needs at least 5x5 after the decimation by 16, "
      "i.e. 80x80)",
      1 },
    { "speed_temporal below 5x5 blocks after the decimation",
      { R_SMALL, SMALL, "-n", "--feature", "speed_temporal" },
      "speed_temporal: a 64x48 plane is too small for SpEED",
      0 },
    { "speed_chroma prescaled below 5x5 blocks (vmaf_v1.0.16 2160 models "
      "on 352x288)",
      { "-r", "@gray640.yuv", "-d", "@gray640.yuv", "-w", "352", "-h", "288",
        "-p", "420", "-b", "8", "-n", "--feature",
        "speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear" },
      "speed_chroma: a 176x144 plane is too small for SpEED (speed_prescale=0.5 "
      "makes it 88x72",
      1 },
    { "speed_temporal: a prescale near 1 that changes the size",
      { "-r", "@gray640.yuv", "-d", "@gray640.yuv", "-w", "640", "-h", "360",
        "-p", "420", "-b", "8", "-n", "--feature",
        "speed_temporal=speed_prescale=1.0009" },
      "speed_temporal: speed_prescale=1.0009 is within 1e-3 of 1, so the "
      "640x360 plane is not resampled, yet its scaled size is 641x360",
      0 },
    { "speed_chroma: a kernel scale libvmaf does not list",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_chroma=speed_kernelscale=0.3" },
      "feature 'speed_chroma': speed_kernelscale=0.3 is not one of 1, 1/2,",
      0 },
    { "speed_temporal: a kernel scale libvmaf does not list",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_temporal=speed_kernelscale=2.2" },
      "feature 'speed_temporal': speed_kernelscale=2.2 is not one of",
      0 },
    { "speed_chroma: speed_kernelscale above 4",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_chroma=speed_kernelscale=4.5" },
      "option 'speed_kernelscale' = 4.5 is outside [0.1, 4]",
      0 },
    { "speed_chroma: speed_prescale below 0.1",
      { R_SMALL, SMALL, "-n", "--feature", "speed_chroma=speed_prescale=0.05" },
      "option 'speed_prescale' = 0.05 is outside [0.1, 4]",
      0 },
    { "speed_temporal: speed_prescale above 4",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_temporal=speed_prescale=4.5" },
      "option 'speed_prescale' = 4.5 is outside [0.1, 4]",
      0 },
    { "speed_chroma: a prescale method libvmaf does not have",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_chroma=speed_prescale_method=area" },
      "option 'speed_prescale_method' takes one of nearest, bilinear, bicubic, "
      "lanczos4, not 'area'",
      0 },
    { "speed_temporal: an alias is not an option name",
      { R_SMALL, SMALL, "-n", "--feature", "speed_temporal=psm=nearest" },
      "feature 'speed_temporal' has no option 'psm'",
      0 },
    { "speed_chroma: speed_sigma_nn below 0.1",
      { R_SMALL, SMALL, "-n", "--feature", "speed_chroma=speed_sigma_nn=0.05" },
      "option 'speed_sigma_nn' = 0.05 is outside [0.1, 2]",
      0 },
    { "speed_temporal: speed_sigma_nn above 2",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_temporal=speed_sigma_nn=2.5" },
      "option 'speed_sigma_nn' = 2.5 is outside [0.1, 2]",
      0 },
    { "speed_chroma: speed_nn_floor above 1",
      { R_SMALL, SMALL, "-n", "--feature", "speed_chroma=speed_nn_floor=1.5" },
      "option 'speed_nn_floor' = 1.5 is outside [0, 1]",
      0 },
    { "speed_temporal: speed_nn_floor below 0",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_temporal=speed_nn_floor=-0.1" },
      "option 'speed_nn_floor' = -0.1 is outside [0, 1]",
      0 },
    { "speed_chroma: speed_max_val above 1000",
      { R_SMALL, SMALL, "-n", "--feature", "speed_chroma=speed_max_val=1001" },
      "option 'speed_max_val' = 1001 is outside [0, 1000]",
      0 },
    { "speed_temporal: speed_max_val below 0",
      { R_SMALL, SMALL, "-n", "--feature", "speed_temporal=speed_max_val=-1" },
      "option 'speed_max_val' = -1 is outside [0, 1000]",
      0 },
    { "speed_chroma: speed_weight_var_mode above 6",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_chroma=speed_weight_var_mode=7" },
      "option 'speed_weight_var_mode' needs an integer in [0, 6], not '7'",
      0 },
    { "speed_chroma: speed_weight_var_mode below 0",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_chroma=speed_weight_var_mode=-1" },
      "option 'speed_weight_var_mode' needs an integer in [0, 6], not '-1'",
      0 },
    { "speed_temporal has no speed_weight_var_mode",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_temporal=speed_weight_var_mode=1" },
      "feature 'speed_temporal' has no option 'speed_weight_var_mode'",
      0 },
    { "speed_chroma has no speed_use_ref_diff",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_chroma=speed_use_ref_diff=true" },
      "feature 'speed_chroma' has no option 'speed_use_ref_diff'",
      0 },
    { "speed_temporal: speed_use_ref_diff not a boolean",
      { R_SMALL, SMALL, "-n", "--feature",
        "speed_temporal=speed_use_ref_diff=2" },
      "speed_use_ref_diff",
      0 },
};
#define N_BAD (sizeof(bad_cases) / sizeof(bad_cases[0]))

START_TEST(test_bad_input)
{
    const BadCase *c = &bad_cases[_i];
    char paths[24][CLI_PATH_MAX + 128];
    const char *args[25];
    int n = 0;

    /* "@name" is a file of the temporary directory, also after "path=". */
    for (; c->args[n]; n++) {
        const char *a = c->args[n], *at = strchr(a, '@');

        if (at) {
            snprintf(paths[n], sizeof(paths[n]), "%.*s%s", (int)(at - a), a,
                     tmp_path(at + 1));
            args[n] = paths[n];
        } else {
            args[n] = a;
        }
    }
    args[n] = NULL;

    stdout_path = c->out;
    for (int vg = 0; vg <= (c->valgrind && have_valgrind); vg++) {
        int rc = run_tool(
            vg, c->in && *c->in == '@' ? tmp_path(c->in + 1) : c->in, args);
        char *err = err_text();

        ck_assert_msg(rc == 1, "%s%s: exit status %d, want 1; stderr: %s",
                      c->what, vg ? " (valgrind)" : "", rc, err);
        ck_assert_msg(strstr(err, c->expect) != NULL,
                      "%s: stderr lacks \"%s\": %s", c->what, c->expect, err);
        free(err);
    }
}
END_TEST

/* ---- good input ---------------------------------------------------------- */

static json_object *frames_of(const char *name, size_t *n)
{
    json_object *root = json_object_from_file(tmp_path(name)), *fr = NULL;

    ck_assert_msg(root != NULL, "cannot parse %s", name);
    ck_assert(json_object_object_get_ex(root, "frames", &fr));
    *n = json_object_array_length(fr);
    json_object_get(fr);
    json_object_put(root);
    return fr;
}

static json_object *metric(json_object *frames, size_t i, const char *key)
{
    json_object *m = NULL, *v = NULL;

    ck_assert(json_object_object_get_ex(json_object_array_get_idx(frames, i),
                                        "metrics", &m));
    ck_assert_msg(json_object_object_get_ex(m, key, &v), "frame %zu: no %s", i,
                  key);
    return v;
}

/** Every metric of every frame equal (doubles). */
static void assert_same_frames(const char *a, const char *b)
{
    size_t na, nb;
    json_object *fa = frames_of(a, &na), *fb = frames_of(b, &nb);

    ck_assert_uint_eq(na, nb);
    for (size_t i = 0; i < na; i++) {
        json_object *m = NULL;

        ck_assert(json_object_object_get_ex(json_object_array_get_idx(fa, i),
                                            "metrics", &m));
        json_object_object_foreach(m, key, v)
            ck_assert_msg(json_object_get_double(v) ==
                              json_object_get_double(metric(fb, i, key)),
                          "%s vs %s: frame %zu %s differs", a, b, i, key);
    }
    json_object_put(fa);
    json_object_put(fb);
}

/* --threads past the library's maximum: libvmaf's tool takes any count, so
 * it is clamped with a warning, and the scores are those of --threads 2 */
START_TEST(test_threads_clamped)
{
    char *data;
    int rc;

    for (int k = 0; k < 2; k++) {
        const char *args[] = { "-r",
                               raw_input("r640x360_yuv444p_ref.yuv"),
                               "-d",
                               raw_input("r640x360_yuv444p_dist.yuv"),
                               "-w",
                               "640",
                               "-h",
                               "360",
                               "-p",
                               "444",
                               "-b",
                               "8",
                               "--frame_cnt",
                               "3",
                               "--threads",
                               k ? "100000" : "2",
                               "--json",
                               "--precision",
                               "max",
                               "-o",
                               tmp_path(k ? "thr-big.json" : "thr-2.json"),
                               NULL };
        rc = run_tool(0, NULL, args);
        data = err_text();
        ck_assert_msg(rc == 0, "exit status %d: %s", rc, data);
        if (k)
            ck_assert_msg(strstr(data, "--threads 100000 is more host threads "
                                       "than vmafgpu runs; using 256"),
                          "no clamp warning: %s", data);
        free(data);
    }
    assert_same_frames("thr-2.json", "thr-big.json");
}
END_TEST

START_TEST(test_different_lengths)
{
    char *data, golden[CLI_PATH_MAX + 64];
    size_t len, n;
    const size_t frame = 640 * 360 * 3;
    json_object *fr, *g, *gf = NULL;
    int rc;

    data = slurp(raw_input("r640x360_yuv444p_dist.yuv"), &len);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_ge(len, 10 * frame);
    write_file("dis5.yuv", data, 5 * frame);
    free(data);

    {
        const char *args[] = {
            "-r",          raw_input("r640x360_yuv444p_ref.yuv"),
            "-d",          tmp_path("dis5.yuv"),
            "-w",          "640",
            "-h",          "360",
            "-p",          "444",
            "-b",          "8",
            "-n",          "--feature",
            "psnr",        "--json",
            "--precision", "max",
            "-o",          tmp_path("o1.json"),
            NULL
        };
        rc = run_tool(0, NULL, args);
    }
    data = err_text();
    ck_assert_msg(rc == 0, "exit status %d: %s", rc, data);
    ck_assert_msg(strstr(data, "ended before") && strstr(data, "5 frames"),
                  "no length warning: %s", data);
    free(data);

    /* The 5 common frames are scored, with the golden values. */
    fr = frames_of("o1.json", &n);
    ck_assert_uint_eq(n, 5);
    snprintf(golden, sizeof(golden), "%s/golden/hp/r640x360_444p8.json",
             cli_env.shared);
    g = json_object_from_file(golden);
    ck_assert_ptr_nonnull(g);
    ck_assert(json_object_object_get_ex(g, "frames", &gf));
    for (size_t i = 0; i < n; i++)
        ck_assert(json_object_get_double(metric(fr, i, "psnr_y")) ==
                  json_object_get_double(metric(gf, i, "psnr_y")));
    json_object_put(fr);
    json_object_put(g);
}
END_TEST

START_TEST(test_y4m_and_stdin_odd_size)
{
    const char *ref = raw_input("r577x323_yuv420p_ref.yuv");
    const char *dis = raw_input("r577x323_yuv420p_dist.yuv");
    int rc;

    make_y4m(ref, "ref577.y4m", 577, 323);
    make_y4m(dis, "dis577.y4m", 577, 323);
    {
        const char *args[] = { "-r",          ref,
                               "-d",          dis,
                               "-w",          "577",
                               "-h",          "323",
                               "-p",          "420",
                               "-b",          "8",
                               "-n",          "--feature",
                               "psnr",        "--feature",
                               "motion",      "--json",
                               "--precision", "max",
                               "-o",          tmp_path("o2.json"),
                               NULL };
        ck_assert_int_eq(run_tool(0, NULL, args), 0);
    }
    {
        const char *args[] = { "-r",          tmp_path("ref577.y4m"),
                               "-d",          tmp_path("dis577.y4m"),
                               "-n",          "--feature",
                               "psnr",        "--feature",
                               "motion",      "--json",
                               "--precision", "max",
                               "-o",          tmp_path("o3.json"),
                               NULL };
        rc = run_tool(0, NULL, args);
        ck_assert_msg(rc == 0, "y4m: exit status %d", rc);
    }
    {
        const char *args[] = { "-r",          "-",
                               "-d",          tmp_path("dis577.y4m"),
                               "-n",          "--feature",
                               "psnr",        "--feature",
                               "motion",      "--json",
                               "--precision", "max",
                               "-o",          tmp_path("o4.json"),
                               NULL };
        rc = run_tool(0, tmp_path("ref577.y4m"), args);
        ck_assert_msg(rc == 0, "stdin: exit status %d", rc);
    }
    assert_same_frames("o2.json", "o3.json");
    assert_same_frames("o2.json", "o4.json");
}
END_TEST

/* --scale: a distorted y4m of another size is refused without it, with a
 * hint; an unknown algorithm is refused with the list; with it the frames
 * both files have are scored. */
START_TEST(test_scale_option)
{
    char ref[512], dis[512], *e;
    size_t n;
    json_object *fr;
    int rc;

    make_y4m(raw_input("r577x323_yuv420p_ref.yuv"), "ref577s.y4m", 577, 323);
    make_y4m(tmp_path("small.yuv"), "small64.y4m", 64, 48);
    /* tmp_path() returns one buffer: copies */
    snprintf(ref, sizeof(ref), "%s", tmp_path("ref577s.y4m"));
    snprintf(dis, sizeof(dis), "%s", tmp_path("small64.y4m"));
    {
        const char *args[] = { "-r", ref,         "-d",   dis,
                               "-n", "--feature", "psnr", NULL };
        rc = run_tool(0, NULL, args);
    }
    e = err_text();
    ck_assert_msg(rc == 1 && strstr(e, "inputs differ") &&
                      strstr(e,
                             "(--scale ALGORITHM scores a distorted input of "
                             "another size)"),
                  "exit status %d: %s", rc, e);
    free(e);
    {
        const char *args[] = { "-r",        ref,    "-d",      dis,     "-n",
                               "--feature", "psnr", "--scale", "cubic", NULL };
        rc = run_tool(0, NULL, args);
    }
    e = err_text();
    ck_assert_msg(rc == 1 &&
                      strstr(e, "invalid argument \"cubic\" for --scale; "
                                "should be none, bilinear, bicubic"),
                  "exit status %d: %s", rc, e);
    free(e);
    {
        const char *args[] = { "-r",     ref,       "-d",
                               dis,      "-n",      "--feature",
                               "psnr",   "--scale", "bicubic",
                               "--json", "-o",      tmp_path("o5.json"),
                               NULL };
        rc = run_tool(0, NULL, args);
    }
    e = err_text();
    ck_assert_msg(rc == 0, "exit status %d: %s", rc, e);
    free(e);
    fr = frames_of("o5.json", &n);
    ck_assert_uint_eq(n, 3);
    json_object_put(fr);
}
END_TEST

/* A size far too large for a short regular file is refused from the
 * file's size, before the frame buffer is allocated: with 1 GiB of
 * address space, a 6 GiB frame. */
START_TEST(test_size_checked_before_allocation)
{
    const char *args[] = { "-r", tmp_path("small.yuv"),
                           "-d", tmp_path("small_dis.yuv"),
                           "-w", "32768",
                           "-h", "32768",
                           "-p", "444",
                           "-b", "16",
                           NULL };
    struct rlimit old, lim;
    char *e;
    int rc;

    ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)1 << 30;
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur)
        lim.rlim_cur = old.rlim_max;
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
    {
        /* a sanitizer build cannot start in 1 GiB: nothing to check */
        const char *version[] = { "--version", NULL };
        if (run_tool(0, NULL, version)) {
            ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
            fprintf(stderr, "test_cli: the tool does not run with 1 GiB of "
                            "address space; allocation check skipped\n");
            return;
        }
    }
    rc = run_tool(0, NULL, args);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
    e = err_text();
    ck_assert_msg(rc == 1 &&
                      strstr(e, "small.yuv: file is shorter than one "
                                "frame (13824 bytes, a 32768x32768 frame "
                                "needs 6442450944)"),
                  "exit status %d: %s", rc, e);
    free(e);
}
END_TEST

/** Run the tool on a 256x256 4:4:4 pair with two --feature arguments
 *  into `out`; assert success. */
static void run_tex256(const char *ref, const char *dis, const char *f1,
                       const char *f2, const char *out)
{
    const char *args[] = { "-r",
                           tmp_path(ref),
                           "-d",
                           tmp_path(dis),
                           "-w",
                           "256",
                           "-h",
                           "256",
                           "-p",
                           "444",
                           "-b",
                           "8",
                           "-n",
                           "--feature",
                           f1,
                           "--feature",
                           f2,
                           "--json",
                           "--precision",
                           "max",
                           "-q",
                           "-o",
                           tmp_path(out),
                           NULL };
    int rc = run_tool(0, NULL, args);
    char *e = err_text();

    ck_assert_msg(rc == 0, "%s %s: exit status %d: %s", f1, f2, rc, e);
    free(e);
}

/*
 * speed_chroma and speed_temporal (libvmaf speed.c): frame 0 of
 * speed_temporal is 0; equal pictures score 0 exactly on every output; the
 * option suffixes name the outputs; speed_max_val clips speed_chroma and
 * (as in libvmaf) not speed_temporal; a flat (singular) U plane scores 0
 * and uv is then V's score.
 */
START_TEST(test_speed_outputs)
{
    static const char *const chroma[] = { "speed_chroma_u", "speed_chroma_v",
                                          "speed_chroma_uv" };
    json_object *fr;
    size_t n;
    int above_max = 0;

    run_tex256("tex256.yuv", "tex256.yuv", "speed_chroma", "speed_temporal",
               "s1.json");
    fr = frames_of("s1.json", &n);
    ck_assert_uint_eq(n, 3);
    for (size_t i = 0; i < n; i++) {
        ck_assert(json_object_get_double(metric(fr, i, "speed_temporal")) ==
                  0.0);
        for (unsigned k = 0; k < 3; k++)
            ck_assert_msg(json_object_get_double(metric(fr, i, chroma[k])) ==
                              0.0,
                          "ref == dis: frame %zu: %s is not 0", i, chroma[k]);
    }
    json_object_put(fr);

    run_tex256("tex256.yuv", "tex256_dis.yuv", "speed_chroma=speed_max_val=0.5",
               "speed_temporal=speed_max_val=0.5:speed_use_ref_diff=true",
               "s2.json");
    fr = frames_of("s2.json", &n);
    ck_assert_uint_eq(n, 3);
    ck_assert(json_object_get_double(
                  metric(fr, 0, "speed_temporal_mxv_0.5_urd")) == 0.0);
    for (size_t i = 0; i < n; i++) {
        for (unsigned k = 0; k < 3; k++) {
            char key[64];
            snprintf(key, sizeof(key), "%s_mxv_0.5", chroma[k]);
            ck_assert_msg(json_object_get_double(metric(fr, i, key)) == 0.5,
                          "frame %zu: %s is not clipped to 0.5", i, key);
        }
        above_max |= json_object_get_double(
                         metric(fr, i, "speed_temporal_mxv_0.5_urd")) > 0.5;
    }
    ck_assert_msg(above_max, "speed_temporal: no frame above speed_max_val, "
                             "which it does not clip");
    json_object_put(fr);

    run_tex256("tex256_flatu.yuv", "tex256_flatu_dis.yuv", "speed_chroma",
               "psnr", "s3.json");
    fr = frames_of("s3.json", &n);
    ck_assert_uint_eq(n, 3);
    for (size_t i = 0; i < n; i++) {
        const double u =
            json_object_get_double(metric(fr, i, "speed_chroma_u"));
        const double v =
            json_object_get_double(metric(fr, i, "speed_chroma_v"));
        const double uv =
            json_object_get_double(metric(fr, i, "speed_chroma_uv"));
        ck_assert_msg(u == 0.0 && v > 0.0 && uv == v,
                      "flat U: frame %zu: "
                      "u %.17g v %.17g uv %.17g",
                      i, u, v, uv);
    }
    json_object_put(fr);
}
END_TEST

/* Every option with an argument also as --opt=value: the same log. */
START_TEST(test_long_options_with_equals)
{
    char a[8][CLI_PATH_MAX + 64];
    const char *split[] = { "--reference",
                            tmp_path("small.yuv"),
                            "--distorted",
                            tmp_path("small_dis.yuv"),
                            "--width",
                            "64",
                            "--height",
                            "48",
                            "--pixel_format",
                            "420",
                            "--bitdepth",
                            "8",
                            "--model",
                            "version=vmaf_v0.6.1",
                            "--feature",
                            "psnr=enable_mse=true",
                            "--threads",
                            "2",
                            "--subsample",
                            "1",
                            "--frame_cnt",
                            "2",
                            "--frame_skip_ref",
                            "1",
                            "--frame_skip_dist",
                            "1",
                            "--backend",
                            "cpu",
                            "--precision",
                            "max",
                            "--cpumask",
                            "0",
                            "--gpumask",
                            "0",
                            "--json",
                            "--output",
                            tmp_path("o1.json"),
                            NULL };
    const char *joined[] = { a[0],
                             a[1],
                             "--width=64",
                             "--height=48",
                             "--pixel_format=420",
                             "--bitdepth=8",
                             "--model=version=vmaf_v0.6.1",
                             "--feature=psnr=enable_mse=true",
                             "--threads=2",
                             "--subsample=1",
                             "--frame_cnt=2",
                             "--frame_skip_ref=1",
                             "--frame_skip_dist=1",
                             "--backend=cpu",
                             "--precision=max",
                             "--cpumask=0",
                             "--gpumask=0",
                             "--json",
                             a[2],
                             NULL };
    char *e, *x, *y;
    int rc;

    snprintf(a[0], sizeof(a[0]), "--reference=%s", tmp_path("small.yuv"));
    snprintf(a[1], sizeof(a[1]), "--distorted=%s", tmp_path("small_dis.yuv"));
    snprintf(a[2], sizeof(a[2]), "--output=%s", tmp_path("o2.json"));
    rc = run_tool(0, NULL, split);
    e = err_text();
    ck_assert_msg(rc == 0, "split: exit status %d: %s", rc, e);
    free(e);
    rc = run_tool(0, NULL, joined);
    e = err_text();
    ck_assert_msg(rc == 0, "--opt=value: exit status %d: %s", rc, e);
    free(e);
    assert_same_frames("o1.json", "o2.json");
    x = slurp(tmp_path("o1.json"), NULL);
    y = slurp(tmp_path("o2.json"), NULL);
    ck_assert_ptr_nonnull(x);
    ck_assert_ptr_nonnull(y);
    ck_assert(strstr(x, "\"psnr_y\"") && strstr(x, "\"vmaf\"") &&
              strstr(x, "\"mse_y\""));
    free(x);
    free(y);
}
END_TEST

/*
 * float_adm's keys with a feature param: libvmaf (feature_name.c) suffixes
 * the names it lists in provided_features, and not the debug value "adm",
 * which float_adm.c emits without listing it.
 */
START_TEST(test_float_adm_key_names)
{
    const char *args[] = {
        "-r",
        tmp_path("small.yuv"),
        "-d",
        tmp_path("small_dis.yuv"),
        SMALL,
        "-n",
        "--feature",
        "float_adm=debug=true:adm_p_norm=2:adm_skip_scale0=true",
        "--json",
        "-o",
        tmp_path("fadm.json"),
        NULL
    };
    static const char *const want[] = {
        "adm",
        "adm2_apn_2_ssz",
        "aim_apn_2_ssz",
        "adm3_apn_2_ssz",
        "adm_scale0_apn_2_ssz",
        "adm_scale3_apn_2_ssz",
        "adm_num_apn_2_ssz",
        "adm_den_apn_2_ssz",
        "adm_num_scale0_apn_2_ssz",
        "adm_den_scale3_apn_2_ssz",
    };
    size_t n;
    json_object *fr, *m = NULL;
    int rc = run_tool(0, NULL, args);
    char *e = err_text();

    ck_assert_msg(rc == 0, "exit status %d: %s", rc, e);
    free(e);
    fr = frames_of("fadm.json", &n);
    ck_assert_uint_eq(n, 3);
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        metric(fr, 0, want[i]);
    ck_assert(json_object_object_get_ex(json_object_array_get_idx(fr, 0),
                                        "metrics", &m));
    ck_assert_int_eq(json_object_object_length(m), 18);
    json_object_put(fr);
}
END_TEST

/* float_motion's internal per-frame score stays out of every log format. */
START_TEST(test_internal_output_not_printed)
{
    static const char *const fmt[] = { "--json", "--xml", "--csv", "--sub" };
    char out[CLI_PATH_MAX + 16];

    snprintf(out, sizeof(out), "%s", tmp_path("fm.log"));
    for (unsigned k = 0; k < sizeof(fmt) / sizeof(fmt[0]); k++) {
        const char *args[] = { "-r",        tmp_path("small.yuv"),
                               "-d",        tmp_path("small_dis.yuv"),
                               SMALL,       "-n",
                               "--feature", "float_motion",
                               fmt[k],      "-q",
                               "-o",        out,
                               NULL };
        int rc = run_tool(0, NULL, args);
        char *e = err_text(), *x;

        ck_assert_msg(rc == 0, "%s: exit status %d: %s", fmt[k], rc, e);
        free(e);
        x = slurp(out, NULL);
        ck_assert_ptr_nonnull(x);
        ck_assert_msg(strstr(x, "motion2") && strstr(x, "motion3") &&
                          !strstr(x, "float_motion_score"),
                      "%s: motion2/motion3 missing or the internal score "
                      "printed:\n%s",
                      fmt[k], x);
        free(x);
    }
}
END_TEST

/* A run that fails leaves a log already at its --output path as it was:
 * the check that the path can be written appends nothing. */
START_TEST(test_failed_run_keeps_log)
{
    static const char old[] = "an earlier log\n";
    const char *args[] = { "-r",
                           tmp_path("badframe.y4m"),
                           "-d",
                           tmp_path("badframe.y4m"),
                           "-n",
                           "--feature",
                           "psnr",
                           "-o",
                           tmp_path("kept.json"),
                           NULL };
    char *e, *kept;
    size_t n;
    int rc;

    write_file("kept.json", old, sizeof(old) - 1);
    rc = run_tool(0, NULL, args);
    e = err_text();
    ck_assert_msg(rc == 1 && strstr(e, "bad YUV4MPEG2 frame header"),
                  "exit status %d: %s", rc, e);
    kept = slurp(tmp_path("kept.json"), &n);
    ck_assert_ptr_nonnull(kept);
    ck_assert_msg(n == sizeof(old) - 1 && !memcmp(kept, old, n),
                  "the earlier log changed: %.*s", (int)n, kept);
    free(kept);
    free(e);
}
END_TEST

/* ... and makes no new log or chart: the files the check made go again */
START_TEST(test_failed_run_leaves_no_log)
{
    const char *args[] = { "-r",
                           tmp_path("badframe.y4m"),
                           "-d",
                           tmp_path("badframe.y4m"),
                           "-n",
                           "--feature",
                           "psnr",
                           "-o",
                           tmp_path("new.json"),
                           "--plot",
                           tmp_path("new.svg"),
                           "--metrics",
                           "psnr_y",
                           NULL };
    struct stat st;
    char *e;
    int rc;

    remove(tmp_path("new.json"));
    remove(tmp_path("new.svg"));
    rc = run_tool(0, NULL, args);
    e = err_text();
    ck_assert_msg(rc == 1 && strstr(e, "bad YUV4MPEG2 frame header"),
                  "exit status %d: %s", rc, e);
    ck_assert_msg(stat(tmp_path("new.json"), &st) &&
                      stat(tmp_path("new.svg"), &st),
                  "a file of the failed run is left");
    free(e);
}
END_TEST

/* A bootstrap model with a name longer than 255 bytes: both score lines. */
START_TEST(test_long_model_name)
{
    static char spec[400] = "version=vmaf_b_v0.6.3:name=";
    const char *args[] = { "-r",  tmp_path("small.yuv"),
                           "-d",  tmp_path("small_dis.yuv"),
                           SMALL, "-m",
                           spec,  NULL };
    char *out, *e;
    int rc;

    memset(spec + strlen(spec), 'n', 300);
    rc = run_tool(0, NULL, args);
    e = err_text();
    ck_assert_msg(rc == 0, "exit status %d: %s", rc, e);
    out = slurp(tmp_path("out.txt"), NULL);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(strstr(out, "vmaf_b_v0.6.3: ") && strstr(out, ", ci.p95: ["),
                  "stdout: %s", out);
    free(out);
    free(e);
}
END_TEST

/* One model more than the library takes: refused when parsing the
 * options, with the library's limit. */
START_TEST(test_too_many_models)
{
    static char names[VG_MAX_MODELS + 1][64];
    const char *args[12 + 2 * (VG_MAX_MODELS + 1) + 1] = {
        "-r", tmp_path("small.yuv"), "-d", tmp_path("small_dis.yuv"), SMALL,
    };
    unsigned n = 12;
    char *e, want[64];
    int rc;

    for (unsigned i = 0; i <= VG_MAX_MODELS; i++) {
        snprintf(names[i], sizeof(names[i]), "version=vmaf_v0.6.1:name=m%u", i);
        args[n++] = "-m";
        args[n++] = names[i];
    }
    args[n] = NULL;
    rc = run_tool(0, NULL, args);
    e = err_text();
    snprintf(want, sizeof(want), "at most %d models are supported",
             VG_MAX_MODELS);
    ck_assert_msg(rc == 1 && strstr(e, want), "exit status %d: %s", rc, e);
    free(e);
}
END_TEST

/* 16-bit words are all in range, 0xffff included */
START_TEST(test_16bit_full_words)
{
    const char *args[] = { "-r", tmp_path("max16.yuv"),
                           "-d", tmp_path("over12.yuv"),
                           "-w", "64",
                           "-h", "48",
                           "-p", "420",
                           "-b", "16",
                           NULL };
    int rc = run_tool(0, NULL, args);
    char *e = err_text();

    ck_assert_msg(rc == 0, "exit status %d: %s", rc, e);
    free(e);
}
END_TEST

/*
 * Identical pictures: every psnr_hvs value is +inf, which libvmaf v3.2.0
 * src/output.c prints as "inf" in xml, csv and sub, and as null in JSON,
 * per frame with no newline after it; pooled values are inf too (the
 * harmonic mean's sum of 1 / (inf + 1) is 0). Only the measured fps
 * differs from run to run.
 */
static void cut_fps(char *text)
{
    char *at = strstr(text, "fps");

    ck_assert_ptr_nonnull(at);
    at += strcspn(at, "0123456789n");
    while (*at && *at != ',' && *at != '"')
        memmove(at, at + 1, strlen(at));
}

START_TEST(test_identical_psnr_hvs)
{
    static const char *const fmts[] = { "--xml", "--json", "--csv", "--sub" };
    static const char *const names[] = {
        "psnr_hvs_y",
        "psnr_hvs_cb",
        "psnr_hvs_cr",
        "psnr_hvs",
    };
    char expect[8192], *e;
    const char *f = fmts[_i];

    e = expect;
#define OUT(...)                                                               \
    (e += snprintf(e, sizeof(expect) - (size_t)(e - expect), __VA_ARGS__))
    if (!strcmp(f, "--xml")) {
        OUT("<VMAF version=\"%s\">\n", vg_version());
        OUT("  <params qualityWidth=\"64\" qualityHeight=\"48\" />\n");
        OUT("  <fyi fps=\"\" />\n  <frames>\n");
        for (unsigned i = 0; i < 3; i++) {
            OUT("    <frame frameNum=\"%u\" ", i);
            for (unsigned k = 0; k < 4; k++)
                OUT("%s=\"inf\" ", names[k]);
            OUT("/>\n");
        }
        OUT("  </frames>\n  <pooled_metrics>\n");
        for (unsigned k = 0; k < 4; k++)
            OUT("    <metric name=\"%s\" min=\"inf\" max=\"inf\" mean=\"inf\" "
                "harmonic_mean=\"inf\" />\n",
                names[k]);
        OUT("  </pooled_metrics>\n  <aggregate_metrics />\n</VMAF>\n");
    } else if (!strcmp(f, "--json")) {
        OUT("{\n  \"version\": \"%s\",\n  \"fps\": ,\n  \"frames\": [",
            vg_version());
        for (unsigned i = 0; i < 3; i++) {
            OUT("%s    {\n      \"frameNum\": %u,\n      \"metrics\": {\n",
                i ? ",\n" : "\n", i);
            for (unsigned k = 0; k < 4; k++)
                OUT("        \"%s\": null%s", names[k], k < 3 ? "," : "");
            OUT("      }\n    }");
        }
        OUT("\n  ],\n  \"pooled_metrics\": {");
        for (unsigned k = 0; k < 4; k++)
            OUT("%s    \"%s\": {\n      \"min\": null,\n      \"max\": null,\n"
                "      \"mean\": null,\n      \"harmonic_mean\": null\n    }",
                k ? ",\n" : "\n", names[k]);
        OUT("\n  },\n  \"aggregate_metrics\": {\n  }\n}\n");
    } else if (!strcmp(f, "--csv")) {
        OUT("Frame,");
        for (unsigned k = 0; k < 4; k++)
            OUT("%s,", names[k]);
        OUT("\n");
        for (unsigned i = 0; i < 3; i++)
            OUT("%u,inf,inf,inf,inf,\n", i);
    } else {
        for (unsigned i = 0; i < 3; i++) {
            OUT("{%u}{%u}frame: %u|", i, i + 1, i);
            for (unsigned k = 0; k < 4; k++)
                OUT("%s: inf|", names[k]);
            OUT("\n");
        }
    }
#undef OUT

    {
        const char *args[] = { "-r",        tmp_path("small.yuv"),
                               "-d",        tmp_path("small.yuv"),
                               SMALL,       "-n",
                               "--feature", "psnr_hvs",
                               f,           "-q",
                               "-o",        tmp_path("o1.json"),
                               NULL };
        int rc = run_tool(0, NULL, args);
        char *err = err_text(), *got;

        ck_assert_msg(rc == 0, "%s: exit status %d: %s", f, rc, err);
        free(err);
        got = slurp(tmp_path("o1.json"), NULL);
        ck_assert_ptr_nonnull(got);
        if (strcmp(f, "--csv") && strcmp(f, "--sub"))
            cut_fps(got);
        ck_assert_msg(!strcmp(got, expect), "%s: got\n%s\nlibvmaf writes\n%s",
                      f, got, expect);
        free(got);
    }
}
END_TEST

START_TEST(test_valgrind_clean_run)
{
    const char *args[] = { "-r",
                           tmp_path("small.yuv"),
                           "-d",
                           tmp_path("small_dis.yuv"),
                           SMALL,
                           "-n",
                           "--feature",
                           "psnr",
                           "--feature",
                           "motion",
                           "--threads",
                           "2",
                           "--xml",
                           "-o",
                           tmp_path("o1.json"),
                           NULL };
    int rc;

    if (!have_valgrind)
        return;
    rc = run_tool(1, NULL, args);
    if (rc) {
        char *e = err_text();
        ck_abort_msg("valgrind: exit status %d: %s", rc, e);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("cli");
    int ret;

    cli_env_init();
    snprintf(raw_dir, sizeof(raw_dir), "%s/corpus/raw", cli_env.shared);
#ifdef VG_TEST_ASAN
    fprintf(stderr,
            "test_cli: AddressSanitizer build: valgrind runs left out\n");
#else
    /* VG_TEST_NO_VALGRIND=1: for a sanitizer build of the tool */
    have_valgrind = file_exists("/usr/bin/valgrind") &&
                    !(getenv("VG_TEST_NO_VALGRIND") &&
                      !strcmp(getenv("VG_TEST_NO_VALGRIND"), "1"));
    if (!have_valgrind)
        fprintf(stderr,
                "test_cli: no valgrind (or VG_TEST_NO_VALGRIND=1), memory "
                "checks skipped\n");
#endif
    make_fixtures();

    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_bad_input, 0, N_BAD);
    tcase_add_test(tc, test_threads_clamped);
    tcase_add_test(tc, test_different_lengths);
    tcase_add_test(tc, test_y4m_and_stdin_odd_size);
    tcase_add_test(tc, test_16bit_full_words);
    tcase_add_test(tc, test_long_model_name);
    tcase_add_test(tc, test_failed_run_keeps_log);
    tcase_add_test(tc, test_failed_run_leaves_no_log);
    tcase_add_test(tc, test_float_adm_key_names);
    tcase_add_test(tc, test_speed_outputs);
    tcase_add_test(tc, test_internal_output_not_printed);
    tcase_add_test(tc, test_long_options_with_equals);
    tcase_add_test(tc, test_size_checked_before_allocation);
    tcase_add_test(tc, test_scale_option);
    tcase_add_test(tc, test_too_many_models);
    tcase_add_test(tc, test_valgrind_clean_run);
    tcase_add_loop_test(tc, test_identical_psnr_hvs, 0, 4);
    suite_add_tcase(s, tc);
    ret = vg_check_run(s);
    cli_env_cleanup(tmp_files);
    return ret;
}
