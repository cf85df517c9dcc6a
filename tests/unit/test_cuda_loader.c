/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Without a CUDA driver the library still loads and works on the CPU:
 * backend=auto falls back to the CPU (and says so at INFO),
 * backend=cuda fails with -ENODEV and a message naming the cause, device
 * pictures are refused. The driver is hidden by pointing VG_CUDA_DRIVER at
 * a file that does not exist, so this runs the same on GPU machines.
 */

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "vmafgpu.h"
#include "tests/check_run.h"

static char log_text[8192];

static void capture_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    size_t n = strlen(log_text);

    snprintf(log_text + n, sizeof(log_text) - n, "%d:%s\n", (int)level, msg);
}

static int make_ctx(VgContext **ctx, enum VgBackend b)
{
    VgConfig cfg = {
        .backend = b,
        .log_level = VG_LOG_INFO,
        .log_cb = capture_log,
    };

    log_text[0] = 0;
    return vg_context_create(ctx, &cfg);
}

/* a 64x48 4:2:0 8-bit picture of one value */
static void picture(VgPicture *pic, uint8_t *buf, uint8_t v, enum VgMemory mem)
{
    memset(buf, v, 64 * 48 * 3 / 2);
    memset(pic, 0, sizeof(*pic));
    pic->fmt = VG_PIX_FMT_YUV420P;
    pic->width = 64;
    pic->height = 48;
    pic->bitdepth = 8;
    pic->memory = mem;
    pic->data[0] = buf;
    pic->data[1] = buf + 64 * 48;
    pic->data[2] = buf + 64 * 48 + 32 * 24;
    pic->stride[0] = 64;
    pic->stride[1] = pic->stride[2] = 32;
}

START_TEST(test_cuda_refused)
{
    VgContext *ctx = NULL;

    ck_assert_int_eq(make_ctx(&ctx, VG_BACKEND_CUDA), -ENODEV);
    ck_assert_ptr_null(ctx);
    ck_assert_ptr_nonnull(strstr(log_text, "backend=cuda"));
#if HAVE_CUDA
    /* the cause, at WARNING, before the error */
    ck_assert_ptr_nonnull(strstr(log_text, "1:CUDA driver not available"));
    ck_assert_ptr_nonnull(strstr(log_text, "/nonexistent/libcuda.so.1"));
#endif
}
END_TEST

START_TEST(test_auto_falls_back)
{
    static uint8_t a[64 * 48 * 3 / 2], b[64 * 48 * 3 / 2];
    VgContext *ctx = NULL;
    VgPicture ra, rb;
    double psnr;

    ck_assert_int_eq(make_ctx(&ctx, VG_BACKEND_AUTO), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
    picture(&ra, a, 100, VG_MEMORY_HOST);
    picture(&rb, b, 110, VG_MEMORY_HOST);
    ck_assert_int_eq(vg_submit(ctx, &ra, &rb), 0);
    ck_assert_int_eq(vg_flush(ctx), 0);
    ck_assert_int_eq(vg_backend_is_cuda(ctx), 0);
    /* 10 * log10(255^2 / 100) */
    ck_assert_int_eq(vg_get_score(ctx, "psnr_y", 0, &psnr), 0);
    ck_assert(psnr > 28.13 && psnr < 28.14);
    ck_assert_ptr_nonnull(
        strstr(log_text, "2:backend=auto: using the cpu backend"));
#if HAVE_CUDA
    /* one INFO line says why; the cause itself only at DEBUG */
    ck_assert_ptr_nonnull(strstr(log_text,
                                 "2:backend=auto: using the cpu "
                                 "backend (no usable cuda device here)"));
    ck_assert_ptr_null(strstr(log_text, "CUDA driver not available"));
#endif
    ck_assert_ptr_null(strstr(log_text, "0:"));
    ck_assert_ptr_null(strstr(log_text, "1:"));
    vg_context_destroy(&ctx);
}
END_TEST

START_TEST(test_device_pictures_refused)
{
    static uint8_t a[64 * 48 * 3 / 2];
    VgContext *ctx = NULL;
    VgPicture ra;
    int ret;

    ck_assert_int_eq(make_ctx(&ctx, VG_BACKEND_AUTO), 0);
    ck_assert_int_eq(vg_use_feature(ctx, "psnr", NULL), 0);
    picture(&ra, a, 100, VG_MEMORY_CUDA);
    ret = vg_submit(ctx, &ra, &ra);
    ck_assert(ret == -ENODEV || ret == -ENOTSUP);
    ck_assert_ptr_nonnull(strstr(log_text, "0:"));
    vg_context_destroy(&ctx);
}
END_TEST

static Suite *loader_suite(void)
{
    Suite *s = suite_create("cuda_loader");
    TCase *tc = tcase_create("no_driver");

    tcase_add_test(tc, test_cuda_refused);
    tcase_add_test(tc, test_auto_falls_back);
    tcase_add_test(tc, test_device_pictures_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    /* before any context: the driver is loaded on first use */
    setenv("VG_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
    return vg_check_run(loader_suite());
}
