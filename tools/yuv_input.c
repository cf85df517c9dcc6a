/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Raw .yuv and .y4m readers for the vmafgpu tool (see yuv_input.h).
 */

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/yuv_input.h"

/** Largest width or height accepted (the library's, and keeps every size
 *  computation in range). */
#define MAX_DIM 32768
/** Largest frame read (16K 4:4:4 16-bit takes 0.8 GB). */
#define MAX_FRAME_BYTES ((uint64_t)2 << 30)
/** Longest YUV4MPEG2 stream or frame header line accepted. */
#define MAX_HEADER 1024

struct YuvInput {
    FILE *f;
    int is_stdin;
    char *path;
    YuvInputInfo info;
    unsigned plane_w[3], plane_h[3]; ///< stored (ceil) plane sizes
    unsigned n_planes;
    size_t extra; ///< bytes read and dropped per frame (y4m alpha)
    uint8_t *buf;
    unsigned frames_read;
    int tail_reported; ///< open already warned about a partial last frame
};

static void say(const YuvInput *in, const char *fmt, const char *what)
{
    fprintf(stderr, "vmafgpu: %s: %s%s\n", in->path, fmt, what ? what : "");
}

/** Plane geometry for the stored layout: ceil-sized chroma. */
static int setup_geometry(YuvInput *in)
{
    YuvInputInfo *i = &in->info;
    unsigned cw, ch;
    uint64_t size, bps;

    if (!i->width || !i->height || i->width > MAX_DIM || i->height > MAX_DIM) {
        fprintf(stderr, "vmafgpu: %s: invalid size %ux%u (1..%u)\n", in->path,
                i->width, i->height, MAX_DIM);
        return -EINVAL;
    }
    if (i->bitdepth < 8 || i->bitdepth > 16) {
        fprintf(stderr, "vmafgpu: %s: invalid bit depth %u (8..16)\n", in->path,
                i->bitdepth);
        return -EINVAL;
    }

    switch (i->fmt) {
    case VG_PIX_FMT_YUV420P:
        cw = (i->width + 1) / 2;
        ch = (i->height + 1) / 2;
        break;
    case VG_PIX_FMT_YUV422P:
        cw = (i->width + 1) / 2;
        ch = i->height;
        break;
    case VG_PIX_FMT_YUV444P:
        cw = i->width;
        ch = i->height;
        break;
    case VG_PIX_FMT_YUV400P:
        cw = ch = 0;
        break;
    default:
        say(in, "unsupported pixel format", NULL);
        return -EINVAL;
    }

    in->n_planes = i->fmt == VG_PIX_FMT_YUV400P ? 1 : 3;
    in->plane_w[0] = i->width;
    in->plane_h[0] = i->height;
    in->plane_w[1] = in->plane_w[2] = cw;
    in->plane_h[1] = in->plane_h[2] = ch;

    bps = i->bitdepth > 8 ? 2 : 1;
    size = ((uint64_t)i->width * i->height + 2 * (uint64_t)cw * ch) * bps;
    i->frame_size = (size_t)size;
    return 0;
}

/**
 * The frame buffer, once the geometry is known to fit the file: a frame
 * of a huge size given by mistake is refused before memory is taken.
 */
static int alloc_frame(YuvInput *in)
{
    const uint64_t size = (uint64_t)in->info.frame_size + in->extra;

    if (size > MAX_FRAME_BYTES) {
        fprintf(stderr,
                "vmafgpu: %s: a %ux%u frame of %u-bit samples takes "
                "%llu bytes, more than the %llu this tool reads\n",
                in->path, in->info.width, in->info.height, in->info.bitdepth,
                (unsigned long long)size, (unsigned long long)MAX_FRAME_BYTES);
        return -E2BIG;
    }
    in->buf = malloc((size_t)size);
    if (!in->buf) {
        say(in, "out of memory", NULL);
        return -ENOMEM;
    }
    return 0;
}

static int open_file(YuvInput **pin, const char *path)
{
    YuvInput *in = calloc(1, sizeof(*in));
    struct stat st;

    *pin = NULL;
    if (!in)
        goto nomem;
    in->path = strdup(path);
    if (!in->path)
        goto nomem;
    if (!strcmp(path, "-")) {
        in->f = stdin;
        in->is_stdin = 1;
    } else {
        in->f = fopen(path, "rb");
        if (!in->f) {
            int err = errno;
            fprintf(stderr, "vmafgpu: %s: cannot open: %s\n", path,
                    strerror(err));
            yuv_input_close(&in);
            return -err;
        }
    }
    /* fopen() opens a directory, and then reading fails */
    if (!fstat(fileno(in->f), &st) && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "vmafgpu: %s: cannot read: %s\n", path,
                strerror(EISDIR));
        yuv_input_close(&in);
        return -EISDIR;
    }
    *pin = in;
    return 0;

nomem:
    fprintf(stderr, "vmafgpu: out of memory\n");
    yuv_input_close(&in);
    return -ENOMEM;
}

/** For a regular file, check that it holds at least one whole frame. */
static int check_file_size(YuvInput *in, long long header)
{
    struct stat st;
    long long data, frame = (long long)(in->info.frame_size + in->extra);

    if (in->is_stdin || fstat(fileno(in->f), &st) || !S_ISREG(st.st_mode))
        return 0;
    data = (long long)st.st_size - header;
    if (data <= 0) {
        say(in, "no frame data (empty file)", NULL);
        return -EINVAL;
    }
    if (!in->info.is_y4m && data < frame) {
        fprintf(stderr,
                "vmafgpu: %s: file is shorter than one frame "
                "(%lld bytes, a %ux%u frame needs %lld): check -w/-h/-p/-b\n",
                in->path, data, in->info.width, in->info.height, frame);
        return -EINVAL;
    }
    /* y4m: "FRAME\n" and the samples */
    if (in->info.is_y4m && data < frame + 6) {
        fprintf(stderr,
                "vmafgpu: %s: file is shorter than one frame "
                "(%lld bytes after the header, a %ux%u frame needs %lld)\n",
                in->path, data, in->info.width, in->info.height, frame + 6);
        return -EINVAL;
    }
    if (!in->info.is_y4m && data % frame) {
        in->tail_reported = 1;
        fprintf(stderr,
                "vmafgpu: %s: warning: size %lld is not a multiple of "
                "the frame size %lld; the trailing %lld bytes are ignored\n",
                in->path, data, frame, data % frame);
    }
    return 0;
}

int yuv_input_open_raw(YuvInput **pin, const char *path, unsigned width,
                       unsigned height, enum VgPixFmt fmt, unsigned bitdepth)
{
    YuvInput *in;
    int ret = open_file(&in, path);

    if (ret < 0)
        return ret;
    in->info.width = width;
    in->info.height = height;
    in->info.bitdepth = bitdepth;
    in->info.fmt = fmt;
    if ((ret = setup_geometry(in)) < 0 || (ret = check_file_size(in, 0)) < 0 ||
        (ret = alloc_frame(in)) < 0)
        goto fail;
    *pin = in;
    return 0;

fail:
    yuv_input_close(&in);
    return ret;
}

/** Read one line (without '\n') of at most MAX_HEADER - 1 bytes. */
static int read_line(FILE *f, char *line, size_t *len)
{
    size_t n = 0;
    int c;

    while ((c = getc(f)) != EOF && c != '\n') {
        if (n + 1 >= MAX_HEADER)
            return -EINVAL;
        line[n++] = (char)c;
    }
    line[n] = '\0';
    *len = n;
    if (c == EOF)
        return n ? -EINVAL : 0;
    return 1;
}

static int parse_dim(const char *s, unsigned *v)
{
    char *end;
    unsigned long x;

    if (*s < '0' || *s > '9')
        return -EINVAL;
    errno = 0;
    x = strtoul(s, &end, 10);
    if (errno || *end || x > UINT_MAX)
        return -EINVAL;
    *v = (unsigned)x;
    return 0;
}

/** A YUV4MPEG2 F tag "num:den"; leaves 0/0 unless both are positive. */
static void parse_rate(const char *s, unsigned *num, unsigned *den)
{
    char buf[32];
    const char *colon = strchr(s, ':');
    unsigned n, d;

    if (!colon || (size_t)(colon - s) >= sizeof(buf))
        return;
    memcpy(buf, s, (size_t)(colon - s));
    buf[colon - s] = '\0';
    if (parse_dim(buf, &n) < 0 || parse_dim(colon + 1, &d) < 0 || !n || !d)
        return;
    *num = n;
    *den = d;
}

/** Map a YUV4MPEG2 C tag to our layout. */
static int parse_chroma(YuvInput *in, const char *c)
{
    YuvInputInfo *i = &in->info;
    static const struct {
        const char *prefix;
        enum VgPixFmt fmt;
    } layouts[] = {
        { "420", VG_PIX_FMT_YUV420P },
        { "422", VG_PIX_FMT_YUV422P },
        { "444", VG_PIX_FMT_YUV444P },
        { "mono", VG_PIX_FMT_YUV400P },
    };

    for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
        size_t n = strlen(layouts[k].prefix);
        const char *rest = c + n;

        if (strncmp(c, layouts[k].prefix, n))
            continue;
        i->fmt = layouts[k].fmt;
        i->bitdepth = 8;
        /* 4:2:0 chroma siting only changes the meaning of the samples, which
         * are used as stored (libvmaf tools/y4m_input.c reads these three
         * without conversion). paldv would need resampling. */
        if (!*rest || (i->fmt == VG_PIX_FMT_YUV420P &&
                       (!strcmp(rest, "jpeg") || !strcmp(rest, "mpeg2"))))
            return 0;
        if (i->fmt == VG_PIX_FMT_YUV444P && !strcmp(rest, "alpha"))
            return 1; /* alpha plane read and dropped */
        if (*rest == 'p' && i->fmt != VG_PIX_FMT_YUV400P)
            rest++;
        if (parse_dim(rest, &i->bitdepth) < 0 || i->bitdepth < 8 ||
            i->bitdepth > 16)
            break;
        return 0;
    }
    say(in, "unsupported YUV4MPEG2 colour space C", c);
    return -EINVAL;
}

int yuv_input_open_y4m(YuvInput **pin, const char *path)
{
    YuvInput *in;
    char line[MAX_HEADER], *tok, *save = NULL;
    size_t len;
    int ret = open_file(&in, path), has_alpha = 0, have_w = 0, have_h = 0;

    if (ret < 0)
        return ret;
    in->info.is_y4m = 1;
    in->info.fmt = VG_PIX_FMT_YUV420P;
    in->info.bitdepth = 8;

    ret = read_line(in->f, line, &len);
    if (ret <= 0 || strncmp(line, "YUV4MPEG2", 9) ||
        (line[9] && line[9] != ' ')) {
        say(in,
            "not a YUV4MPEG2 file; raw .yuv input needs "
            "--width, --height, --pixel_format and --bitdepth",
            NULL);
        ret = -EINVAL;
        goto fail;
    }

    for (tok = strtok_r(line + 9, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        switch (tok[0]) {
        case 'W':
            ret = parse_dim(tok + 1, &in->info.width);
            have_w = 1;
            break;
        case 'H':
            ret = parse_dim(tok + 1, &in->info.height);
            have_h = 1;
            break;
        case 'I':
            ret = (tok[1] == 'p' || tok[1] == '?') ? 0 : -ENOTSUP;
            if (ret < 0)
                say(in, "interlaced YUV4MPEG2 input is not supported: I",
                    tok + 1);
            break;
        case 'C':
            ret = parse_chroma(in, tok + 1);
            if (ret > 0) {
                has_alpha = 1;
                ret = 0;
            }
            break;
        case 'F':
            /* the frame rate only labels the plot's time axis: a malformed
             * one is ignored, as before it was read */
            parse_rate(tok + 1, &in->info.fps_num, &in->info.fps_den);
            ret = 0;
            break;
        default:
            ret = 0; /* A, X: irrelevant to scoring */
            break;
        }
        if (ret < 0) {
            if (ret == -EINVAL && (tok[0] == 'W' || tok[0] == 'H'))
                say(in, "bad YUV4MPEG2 size ", tok);
            goto fail;
        }
    }
    if (!have_w || !have_h) {
        say(in, "YUV4MPEG2 header lacks W or H", NULL);
        ret = -EINVAL;
        goto fail;
    }
    if (has_alpha)
        in->extra = (size_t)in->info.width * in->info.height;

    if ((ret = setup_geometry(in)) < 0 ||
        (ret = check_file_size(in, in->is_stdin ? 0 : ftell(in->f))) < 0 ||
        (ret = alloc_frame(in)) < 0)
        goto fail;
    *pin = in;
    return 0;

fail:
    yuv_input_close(&in);
    return ret;
}

const YuvInputInfo *yuv_input_info(const YuvInput *in)
{
    return &in->info;
}

/** y4m: consume "FRAME[ params]\n". @return 1, 0 at EOF, negative error. */
static int read_frame_header(YuvInput *in)
{
    char line[MAX_HEADER];
    size_t len;
    int ret = read_line(in->f, line, &len);

    if (ret == 0)
        return 0;
    if (ret < 0 || strncmp(line, "FRAME", 5) || (line[5] && line[5] != ' ')) {
        fprintf(stderr, "vmafgpu: %s: frame %u: bad YUV4MPEG2 frame header\n",
                in->path, in->frames_read);
        return -EINVAL;
    }
    return 1;
}

/**
 * 9..15-bit samples are 16-bit words, which can hold larger values: refuse
 * a frame with one (every stored sample, alpha aside), naming where it is.
 */
static int check_samples(const YuvInput *in)
{
    static const char *const names[] = { "Y", "Cb", "Cr" };
    const unsigned bd = in->info.bitdepth;
    const uint16_t over = (uint16_t)(0xffffu << bd);
    const uint8_t *p = in->buf;

    if (bd <= 8 || bd >= 16)
        return 0;
    for (unsigned k = 0; k < in->n_planes; k++) {
        const size_t n = (size_t)in->plane_w[k] * in->plane_h[k];
        uint16_t acc = 0, v;

        for (size_t j = 0; j < n; j++) {
            memcpy(&v, p + 2 * j, 2);
            acc |= v;
        }
        for (size_t j = 0; (acc & over) && j < n; j++) {
            memcpy(&v, p + 2 * j, 2);
            if (v & over) {
                fprintf(stderr,
                        "vmafgpu: %s: frame %u, plane %u (%s): sample "
                        "%u at (%zu, %zu) exceeds the %u-bit maximum %u\n",
                        in->path, in->frames_read, k, names[k], v,
                        j % in->plane_w[k], j / in->plane_w[k], bd,
                        (1u << bd) - 1);
                return -EINVAL;
            }
        }
        p += 2 * n;
    }
    return 0;
}

int yuv_input_read(YuvInput *in, VgPicture *pic)
{
    const YuvInputInfo *i = &in->info;
    size_t want = i->frame_size + in->extra, got;
    unsigned bps = i->bitdepth > 8 ? 2 : 1;
    uint8_t *p = in->buf;
    int ret;

    if (i->is_y4m && (ret = read_frame_header(in)) <= 0)
        return ret;

    errno = 0;
    got = fread(in->buf, 1, want, in->f);
    if (got != want) {
        if (ferror(in->f)) {
            int err = errno ? errno : EIO;
            fprintf(stderr, "vmafgpu: %s: read error: %s\n", in->path,
                    strerror(err));
            return -err;
        }
        if ((got || i->is_y4m) && !in->tail_reported)
            fprintf(stderr,
                    "vmafgpu: %s: warning: frame %u is truncated "
                    "(%zu of %zu bytes) and ignored\n",
                    in->path, in->frames_read, got, want);
        return 0;
    }

    if ((ret = check_samples(in)) < 0)
        return ret;

    memset(pic, 0, sizeof(*pic));
    pic->fmt = i->fmt;
    pic->width = i->width;
    pic->height = i->height;
    pic->bitdepth = i->bitdepth;
    pic->memory = VG_MEMORY_HOST;
    for (unsigned k = 0; k < in->n_planes; k++) {
        pic->data[k] = p;
        pic->stride[k] = (ptrdiff_t)in->plane_w[k] * bps;
        p += (size_t)pic->stride[k] * in->plane_h[k];
    }
    in->frames_read++;
    return 1;
}

unsigned yuv_input_skip(YuvInput *in, unsigned n)
{
    const uint64_t want = in->info.frame_size + in->extra;
    struct stat st;
    VgPicture pic;
    unsigned k = 0;

    /* a regular file: seek over the frames' samples instead of reading
     * them (a chunk far into a long title skips most of it); a y4m frame
     * header is still read and checked */
    if (!in->is_stdin && !fstat(fileno(in->f), &st) && S_ISREG(st.st_mode)) {
        for (; k < n; k++) {
            off_t pos;

            if (in->info.is_y4m && read_frame_header(in) <= 0)
                break;
            pos = ftello(in->f);
            /* a truncated last frame is not a frame, as for reading */
            if (pos < 0 || pos > st.st_size ||
                (uint64_t)(st.st_size - pos) < want ||
                fseeko(in->f, (off_t)want, SEEK_CUR) < 0)
                break;
            in->frames_read++;
        }
        return k;
    }
    for (; k < n; k++)
        if (yuv_input_read(in, &pic) <= 0)
            break;
    return k;
}

void yuv_input_close(YuvInput **pin)
{
    YuvInput *in = *pin;

    if (!in)
        return;
    if (in->f && !in->is_stdin)
        fclose(in->f);
    free(in->buf);
    free(in->path);
    free(in);
    *pin = NULL;
}
