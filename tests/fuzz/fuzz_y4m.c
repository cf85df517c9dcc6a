/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The vmafgpu tool's frame reader (tools/yuv_input.c) on any file.
 *
 * Input: a file that starts with 'Y' is opened as YUV4MPEG2, as the tool
 * opens a .y4m; any other input is a raw .yuv file whose geometry, which
 * the tool takes from its flags, comes from the first 4 bytes (1 + b1 % 64
 * by 1 + b2 % 64 samples, layout b3 % 4 (4:2:0, 4:2:2, 4:4:4, 4:0:0) or
 * for b3 >= 252 one the reader does not take, bit depth 7 + (b3 >> 2) % 11),
 * the file being the rest. The reader opens the
 * input by path (a memory file), reads up to 16 frames and every sample of
 * the planes each frame claims to have. Checked: no memory error, leak or
 * undefined behaviour; a refused file or frame has printed a message;
 * geometry within the documented limits.
 *
 * The reader prints its messages on stderr; they go to a memory buffer
 * (VG_FUZZ_VERBOSE=1 shows them).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_util.h"
#include "tools/yuv_input.h"

/** Declared pictures above this many luma samples are not opened (see
 *  too_large()). */
#define MAX_PIXELS (1 << 20)

static FuzzFile file;
static char err_buf[4096];
static FILE *err;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_file_init(&file, "fuzz_y4m");
    if (!getenv("VG_FUZZ_VERBOSE")) {
        err = fmemopen(err_buf, sizeof(err_buf), "w");
        if (!err)
            fuzz_fail("fmemopen failed");
        setvbuf(err, NULL, _IONBF, 0);
        stderr = err;
    }
    return 0;
}

/*
 * The reader allocates one frame of the declared size when it opens a
 * file (up to 6 GiB for 32768x32768 16-bit 4:4:4), which is what a real
 * stream of that size needs, and more than the fuzzer's memory limit. A
 * YUV4MPEG2 header that declares more than MAX_PIXELS is skipped: any
 * W or H token that the reader could accept (all digits) is at most the
 * largest number that starts such a token.
 */
static int too_large(const uint8_t *data, size_t size)
{
    unsigned long w = 0, h = 0;
    size_t i = 0;

    while (i < size && data[i] != '\n') {
        char tok = (char)data[i];
        unsigned long v = 0;

        if ((tok == 'W' || tok == 'H') && i && data[i - 1] == ' ') {
            for (i++; i < size && data[i] >= '0' && data[i] <= '9'; i++)
                v = v < (1UL << 40) ? v * 10 + (data[i] - '0') : v;
            if (tok == 'W' && v > w)
                w = v;
            if (tok == 'H' && v > h)
                h = v;
            continue;
        }
        i++;
    }
    return w <= 32768 && h <= 32768 && w * h > MAX_PIXELS;
}

static size_t err_len(void)
{
    return err ? (size_t)ftell(err) : 1;
}

static void check_message(int ret, const char *what)
{
    if (ret < 0 && !err_len())
        fuzz_fail("%s returned %d without a message", what, ret);
}

/** Read every sample the picture claims to have (stored, ceil-sized). */
static unsigned touch(const YuvInputInfo *info, const VgPicture *pic)
{
    const unsigned bps = info->bitdepth > 8 ? 2 : 1;
    const unsigned planes = info->fmt == VG_PIX_FMT_YUV400P ? 1 : 3;
    volatile unsigned sum = 0;

    if (pic->fmt != info->fmt || pic->width != info->width ||
        pic->height != info->height || pic->bitdepth != info->bitdepth ||
        pic->memory != VG_MEMORY_HOST)
        fuzz_fail("picture geometry differs from the input's");
    for (unsigned p = 0; p < planes; p++) {
        unsigned w = info->width, h = info->height;
        const uint8_t *row = pic->data[p];

        if (p && info->fmt != VG_PIX_FMT_YUV444P)
            w = (w + 1) / 2;
        if (p && info->fmt == VG_PIX_FMT_YUV420P)
            h = (h + 1) / 2;
        if (!row || pic->stride[p] < (ptrdiff_t)(w * bps))
            fuzz_fail("plane %u: no data or stride %td < %u", p, pic->stride[p],
                      w * bps);
        for (unsigned y = 0; y < h; y++, row += pic->stride[p])
            for (unsigned x = 0; x < w * bps; x++)
                sum += row[x];
    }
    return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    YuvInput *in = NULL;
    const YuvInputInfo *info;
    VgPicture pic;
    int ret;

    if (err)
        rewind(err);
    if (size && data[0] == 'Y') {
        if (too_large(data, size))
            return -1;
        fuzz_file_set(&file, data, size);
        ret = yuv_input_open_y4m(&in, file.path);
    } else if (size >= 4) {
        static const enum VgPixFmt fmts[] = {
            VG_PIX_FMT_YUV420P,
            VG_PIX_FMT_YUV422P,
            VG_PIX_FMT_YUV444P,
            VG_PIX_FMT_YUV400P,
        };
        unsigned w = 1 + data[1] % 64, h = 1 + data[2] % 64;
        unsigned bitdepth = 7 + (data[3] >> 2) % 11;
        /* b3 = 252..255: a layout the raw reader does not take */
        enum VgPixFmt fmt =
            data[3] >= 252 ? VG_PIX_FMT_NV12 : fmts[data[3] & 3];

        fuzz_file_set(&file, data + 4, size - 4);
        ret = yuv_input_open_raw(&in, file.path, w, h, fmt, bitdepth);
    } else {
        return -1;
    }
    check_message(ret, "open");
    if (ret < 0) {
        if (in)
            fuzz_fail("open failed but returned an input");
        return 0;
    }

    info = yuv_input_info(in);
    if (!info->width || !info->height || info->width > 32768 ||
        info->height > 32768 || info->bitdepth < 8 || info->bitdepth > 16)
        fuzz_fail("open accepted %ux%u at %u bits", info->width, info->height,
                  info->bitdepth);
    if (size & 1)
        yuv_input_skip(in, 1);
    for (unsigned n = 0; n < 16; n++) {
        if (err)
            rewind(err);
        ret = yuv_input_read(in, &pic);
        check_message(ret, "read");
        if (ret <= 0)
            break;
        if (ret != 1)
            fuzz_fail("read returned %d", ret);
        touch(info, &pic);
    }
    yuv_input_close(&in);
    if (in)
        fuzz_fail("close left the input set");
    return 0;
}
