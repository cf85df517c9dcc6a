/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * vmafbench: vmaf_v0.6.1 on the CUDA backend through the public API, with
 * N decoded frame pairs resident in GPU memory, scored in a loop. For
 * 1920x1080 and 3840x2160, NV12 (8-bit) and P010 (10-bit), it prints
 * frames/s (wall clock, submit to flush) and GPU ms per frame (CUDA events
 * recorded on the stream the library works on), for the whole model and
 * for each of its features alone (the time split), plus psnr.
 *
 * The frames are the 640x360 corpus pair (raw 4:4:4 8-bit, given as
 * arguments), scaled up with bilinear interpolation, so that the content
 * (and VIF's and ADM's data-dependent paths) is natural video.
 *
 * Usage: vmafbench REF.yuv DIS.yuv [frames [setup]] (frames per
 * measurement, default 600). With VMAFBENCH_SET=float, the rows after
 * vmaf_v0.6.1 are vmaf_v0.6.1 + psnr + float_ssim + float_ms_ssim,
 * vmaf_float_v0.6.1 and each float feature (and psnr_hvs, ciede) alone; with
 * VMAFBENCH_SET=v1, vmaf_v1.0.16_3d0h, vmaf_v1.0.16_hfr_3d0h and each of
 * their features alone, with the options the models give them. setup says how the caller's CUDA state looks:
 *   caller    (default) the device's primary context; the library works on
 *             the caller's stream, where the pictures are produced
 *   ffmpeg    as in FFmpeg's CUDA device: a context of its own created with
 *             CU_CTX_SCHED_BLOCKING_SYNC, the library's own stream, pictures
 *             produced on the legacy default stream (GPU ms not measured)
 *   blocking  ffmpeg's context, otherwise as caller
 *   legacy    the primary context, otherwise as ffmpeg
 * VMAFBENCH_SIZE=1080|2160 and VMAFBENCH_FORMAT=nv12|p010 keep one size
 * or format; VMAFBENCH_ROW=TEXT[,TEXT...] keeps the rows whose label
 * contains one of the TEXTs (for a profiler run of one configuration).
 * VMAFBENCH_INFO=1 logs the library's INFO lines (the features' own
 * figures, such as how many of cambi's scales were pooled in libvmaf's
 * order) to stderr. VMAFBENCH_THREADS=N sets VgConfig.n_threads (default
 * 0: the library's choice).
 */

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "gpu/core/cuda.h"
#include "tests/bench/bench_util.h"

#define SRC_W 640
#define SRC_H 360
#define N_PAIRS 8

typedef CUresult CUDAAPI ElapsedFn(float *ms, CUevent a, CUevent b);

static const VgCuda *cu;
static ElapsedFn *elapsed;
static CUcontext cctx;
static CUstream stream;     ///< the library's and the pictures' stream
static CUstream lib_stream; ///< given to the library (NULL: its own)
static CUstream pic_stream; ///< where the pictures are produced

/* the CUDA driver API's handle of the legacy default stream */
#define LEGACY_STREAM ((CUstream)0x1)

/* one NV12 / P010 picture in device memory from a 4:4:4 8-bit frame */
static int make_picture(VgPicture *pic, CUdeviceptr *mem, const uint8_t *src,
                        unsigned w, unsigned h, int p010)
{
    const size_t size = (size_t)w * h * (p010 ? 2 : 1) * 3 / 2;
    uint8_t *buf;

    if (bench_semiplanar_picture(pic, &buf, src, SRC_W, SRC_H, w, h, p010) < 0)
        return -1;
    if (VG_CU(cu, NULL, cuMemAlloc, mem, size) < 0 ||
        VG_CU(cu, NULL, cuMemcpyHtoD, *mem, buf, size) < 0) {
        free(buf);
        return -1;
    }
    free(buf);
    pic->memory = VG_MEMORY_CUDA;
    pic->data[0] = (const void *)(uintptr_t)*mem;
    pic->data[1] =
        (const void *)(uintptr_t)(*mem + (CUdeviceptr)pic->stride[0] * h);
    pic->cuda_stream = pic_stream;
    return 0;
}

typedef struct Result {
    double fps, gpu_ms;
    double pooled;
} Result;

/* whether the environment's VMAFBENCH_ROW (TEXT[,TEXT...]) keeps the row
 * labelled label */
static int keep_row(const char *label)
{
    const char *want = getenv("VMAFBENCH_ROW");
    char one[128];

    if (!want)
        return 1;
    for (const char *w = want; *w;) {
        const size_t n = strcspn(w, ",");

        if (n && n < sizeof(one)) {
            memcpy(one, w, n);
            one[n] = 0;
            if (strstr(label, one))
                return 1;
        }
        w += n + (w[n] == ',');
    }
    return 0;
}

static int run(const char *model, const char *feature, const VgPicture *ref,
               const VgPicture *dis, unsigned frames, Result *r)
{
    const char *threads = getenv("VMAFBENCH_THREADS");
    VgConfig cfg = { .backend = VG_BACKEND_CUDA,
                     .log_level = getenv("VMAFBENCH_INFO") ? VG_LOG_INFO
                                                           : VG_LOG_WARNING,
                     .n_threads = threads ? (unsigned)atoi(threads) : 0,
                     .cuda_context = cctx,
                     .cuda_stream = lib_stream };
    static int started;
    VgContext *ctx = NULL;
    CUevent e0, e1;
    float ms = 0;
    double t0, t1, ts[4];
    int ret = -1;

    ts[0] = bench_now();
    if (vg_context_create(&ctx, &cfg) < 0)
        return -1;
    if (model && vg_use_model(ctx, model) < 0)
        goto end;
    /* feature: NAME or NAME=OPTIONS, or several separated by spaces */
    for (const char *f = feature; f && *f;) {
        char one[256], *opts;
        const size_t n = strcspn(f, " ");

        if (!n || n >= sizeof(one))
            goto end;
        memcpy(one, f, n);
        one[n] = 0;
        if ((opts = strchr(one, '=')))
            *opts++ = 0;
        if (vg_use_feature(ctx, one, opts) < 0)
            goto end;
        f += n + (f[n] == ' ');
    }
    if (VG_CU(cu, NULL, cuEventCreate, &e0, 0) < 0 ||
        VG_CU(cu, NULL, cuEventCreate, &e1, 0) < 0)
        goto end;
    /* warm-up: engine start, module load, allocations; the first run of
     * the process says what its first frame cost */
    ts[1] = bench_now();
    for (unsigned i = 0; i < N_PAIRS; i++) {
        if (vg_submit(ctx, &ref[i], &dis[i]) < 0)
            goto end;
        /* the first frame's outputs are complete when the library says so
         * (its work runs on streams of its own as well as this one); a
         * temporal feature's (motion2 is the smaller of two frames')
         * need the second frame, so the wait starts after its submit */
        if (!i)
            ts[2] = bench_now();
        if (i == 1) {
            while (!vg_frames_ready(ctx) && bench_now() - ts[2] < 10)
                ;
            ts[3] = bench_now();
        }
    }
    VG_CU(cu, NULL, cuStreamSynchronize, stream);
    if (!started++)
        printf("vmafbench: start-up of the process's first run (%s%s%s): "
               "context and model %.1f ms, first submit (device, module, "
               "features) %.1f ms, the second submit and until the first "
               "frame's outputs are ready %.1f ms, in all %.1f ms\n",
               model ? model : "", model && feature ? " " : "",
               feature ? feature : "", 1e3 * (ts[1] - ts[0]),
               1e3 * (ts[2] - ts[1]), 1e3 * (ts[3] - ts[2]),
               1e3 * (ts[3] - ts[0]));
    t0 = bench_now();
    VG_CU(cu, NULL, cuEventRecord, e0, stream);
    for (unsigned i = 0; i < frames; i++)
        if (vg_submit(ctx, &ref[i % N_PAIRS], &dis[i % N_PAIRS]) < 0)
            goto end;
    VG_CU(cu, NULL, cuEventRecord, e1, stream);
    if (vg_flush(ctx) < 0)
        goto end;
    t1 = bench_now();
    VG_CU(cu, NULL, cuEventSynchronize, e1);
    elapsed(&ms, e0, e1);
    r->fps = (frames + N_PAIRS) > 0 ? frames / (t1 - t0) : 0;
    r->gpu_ms = lib_stream ? ms / frames : -1;
    r->pooled = 0;
    if (model)
        vg_get_pooled(ctx, "vmaf", VG_POOL_MEAN, &r->pooled);
    cu->f->cuEventDestroy(e0);
    cu->f->cuEventDestroy(e1);
    ret = 0;
end:
    vg_context_destroy(&ctx);
    return ret;
}

static const char *gpu_ms(char buf[16], double ms)
{
    if (ms < 0)
        return "n/a";
    snprintf(buf, 16, "%.3f", ms);
    return buf;
}

int main(int argc, char **argv)
{
    static const unsigned sizes[2][2] = { { 1920, 1080 }, { 3840, 2160 } };
    static const char *const alone_v061[] = { "vif", "adm", "motion", "psnr",
                                              NULL };
    /* VMAFBENCH_SET=float: the float features and the sets users ask for */
    static const char *const alone_float[] = { "float_vif",
                                               "float_adm",
                                               "float_motion",
                                               "float_ssim",
                                               "float_ms_ssim",
                                               "float_moment",
                                               "float_psnr",
                                               "float_ansnr",
                                               "psnr_hvs",
                                               "ciede",
                                               NULL };
    static const struct {
        const char *label, *model, *features;
    } sets[] = {
        { "vmaf_v0.6.1 + psnr + float_ssim + float_ms_ssim",
          "version=vmaf_v0.6.1", "psnr float_ssim float_ms_ssim" },
        { "vmaf_float_v0.6.1", "version=vmaf_float_v0.6.1", NULL },
    };
    /* VMAFBENCH_SET=v1: the v1.0.16 models and their features, with the
     * options vmaf_v1.0.16_3d0h gives them (_hfr_ adds the motion window) */
    static const char *const alone_v1[] = {
        "cambi=cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:"
        "cambi_max_val=17",
        "speed_chroma=speed_kernelscale=1.0:speed_nn_floor=0.1:"
        "speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_max_val=45",
        "adm=adm_dlm_weight=0.7:adm_enhn_gain_limit=1.0:adm_noise_weight=0.02:"
        "adm_norm_view_dist=3.0:adm_ref_display_height=1080:adm_min_val=0.5:"
        "adm_csf_mode=2",
        "motion=motion_max_val=18",
        "motion=motion_max_val=18:motion_five_frame_window=true:"
        "motion_moving_average=true",
        NULL
    };
    static const struct {
        const char *label, *model, *features;
    } sets_v1[] = {
        { "vmaf_v1.0.16_3d0h", "version=vmaf_v1.0.16_3d0h", NULL },
        { "vmaf_v1.0.16_hfr_3d0h", "version=vmaf_v1.0.16_hfr_3d0h", NULL },
    };
    const char *set = getenv("VMAFBENCH_SET");
    const int float_set = set && !strcmp(set, "float");
    const int v1_set = set && !strcmp(set, "v1");
    const char *const *alone = float_set ? alone_float
                               : v1_set  ? alone_v1
                                         : alone_v061;
    const unsigned frames = argc > 3 ? (unsigned)atoi(argv[3]) : 600;
    const char *setup = argc > 4 ? argv[4] : "caller";
    const int own_ctx = !strcmp(setup, "ffmpeg") || !strcmp(setup, "blocking");
    const int legacy = !strcmp(setup, "ffmpeg") || !strcmp(setup, "legacy");
    const size_t fsz = (size_t)SRC_W * SRC_H * 3;
    uint8_t *src[2];
    CUdevice dev;
    char name[128] = "";
    void *lib;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 3 || (strcmp(setup, "caller") && !own_ctx && !legacy)) {
        fprintf(
            stderr,
            "usage: vmafbench REF.yuv DIS.yuv [frames [caller|ffmpeg|blocking|legacy]]\n"
            "  (640x360 4:4:4 8-bit raw files with >= %d frames)\n",
            N_PAIRS);
        return 2;
    }
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(argv[1 + k], "rb");
        src[k] = malloc(fsz * N_PAIRS);
        if (!f || !src[k] || fread(src[k], fsz, N_PAIRS, f) != N_PAIRS) {
            fprintf(stderr, "vmafbench: cannot read %d frames of %s\n", N_PAIRS,
                    argv[1 + k]);
            return 2;
        }
        fclose(f);
    }
    lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (vg_cuda_load(&cu, NULL, VG_LOG_WARNING) < 0 || !lib ||
        !(elapsed = (ElapsedFn *)dlsym(lib, "cuEventElapsedTime")) ||
        VG_CU(cu, NULL, cuInit, 0) < 0 ||
        VG_CU(cu, NULL, cuDeviceGet, &dev, 0) < 0 ||
        (own_ctx ? VG_CU(cu, NULL, cuCtxCreate, &cctx,
                         CU_CTX_SCHED_BLOCKING_SYNC, dev) < 0
                 : VG_CU(cu, NULL, cuDevicePrimaryCtxRetain, &cctx, dev) < 0 ||
                       VG_CU(cu, NULL, cuCtxPushCurrent, cctx) < 0) ||
        VG_CU(cu, NULL, cuStreamCreate, &stream, 1 /* non-blocking */) < 0) {
        fprintf(stderr, "vmafbench: no usable CUDA device\n");
        return 77;
    }
    lib_stream = legacy ? NULL : stream;
    pic_stream = legacy ? LEGACY_STREAM : stream;
    cu->f->cuDeviceGetName(name, sizeof(name) - 1, dev);
    printf("vmafbench: %s, %u frames per figure, %d resident pairs, "
           "device pictures, setup %s\n",
           name, frames, N_PAIRS, setup);
    for (int z = 0; z < 2; z++) {
        for (int p010 = 0; p010 < 2; p010++) {
            const unsigned w = sizes[z][0], h = sizes[z][1];
            const char *want_size = getenv("VMAFBENCH_SIZE");
            const char *want_fmt = getenv("VMAFBENCH_FORMAT");
            VgPicture ref[N_PAIRS], dis[N_PAIRS];
            char gms[16];
            CUdeviceptr mem[2 * N_PAIRS];
            Result r;

            if ((want_size && (unsigned)atoi(want_size) != h) ||
                (want_fmt && strcmp(want_fmt, p010 ? "p010" : "nv12")))
                continue;
            for (int i = 0; i < N_PAIRS; i++)
                if (make_picture(&ref[i], &mem[2 * i], src[0] + i * fsz, w, h,
                                 p010) < 0 ||
                    make_picture(&dis[i], &mem[2 * i + 1], src[1] + i * fsz, w,
                                 h, p010) < 0)
                    return 1;
            if (keep_row("vmaf_v0.6.1") &&
                run("version=vmaf_v0.6.1", NULL, ref, dis, frames, &r) < 0) {
                printf("vmafbench: %ux%u %s: FAILED\n", w, h,
                       p010 ? "p010" : "nv12");
                return 1;
            }
            if (keep_row("vmaf_v0.6.1"))
                printf(
                    "vmafbench: %ux%u %-4s vmaf_v0.6.1: %8.1f frames/s, GPU %s ms/frame "
                    "(pooled vmaf %.6f)\n",
                    w, h, p010 ? "p010" : "nv12", r.fps, gpu_ms(gms, r.gpu_ms),
                    r.pooled);
            for (unsigned k = 0;
                 float_set && k < sizeof(sets) / sizeof(sets[0]); k++) {
                if (!keep_row(sets[k].label))
                    continue;
                if (run(sets[k].model, sets[k].features, ref, dis, frames, &r) <
                    0) {
                    printf("vmafbench: %s: FAILED\n", sets[k].label);
                    return 1;
                }
                printf(
                    "vmafbench: %ux%u %-4s %s: %8.1f frames/s, GPU %s ms/frame\n",
                    w, h, p010 ? "p010" : "nv12", sets[k].label, r.fps,
                    gpu_ms(gms, r.gpu_ms));
            }
            for (unsigned k = 0;
                 v1_set && k < sizeof(sets_v1) / sizeof(sets_v1[0]); k++) {
                if (!keep_row(sets_v1[k].label))
                    continue;
                if (run(sets_v1[k].model, NULL, ref, dis, frames, &r) < 0) {
                    printf("vmafbench: %s: FAILED\n", sets_v1[k].label);
                    return 1;
                }
                printf(
                    "vmafbench: %ux%u %-4s %s: %8.1f frames/s, GPU %s ms/frame "
                    "(pooled %.6f)\n",
                    w, h, p010 ? "p010" : "nv12", sets_v1[k].label, r.fps,
                    gpu_ms(gms, r.gpu_ms), r.pooled);
            }
            for (unsigned k = 0; alone[k]; k++) {
                if (!keep_row(alone[k]))
                    continue;
                if (run(NULL, alone[k], ref, dis, frames, &r) < 0) {
                    printf("vmafbench: %s alone: FAILED\n", alone[k]);
                    return 1;
                }
                printf(
                    "vmafbench: %ux%u %-4s   %-13s alone: %8.1f frames/s, GPU %s "
                    "ms/frame\n",
                    w, h, p010 ? "p010" : "nv12", alone[k], r.fps,
                    gpu_ms(gms, r.gpu_ms));
            }
            for (int i = 0; i < 2 * N_PAIRS; i++)
                cu->f->cuMemFree(mem[i]);
        }
    }
    return 0;
}
