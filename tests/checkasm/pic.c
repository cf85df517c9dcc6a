/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/checkasm/pic.h"

const char *const ca_pattern_names[CA_PAT_NB] = {
    [CA_PAT_RANDOM] = "random",     [CA_PAT_FLAT] = "flat",
    [CA_PAT_MAX] = "max",           [CA_PAT_EQUAL] = "ref==dis",
    [CA_PAT_PM1] = "ref=dis+-1",    [CA_PAT_NOISE] = "noise",
    [CA_PAT_GRADIENT] = "gradient",
};

const char *const ca_pitch_names[CA_PITCH_NB] = {
    [CA_PITCH_TIGHT] = "tight",
    [CA_PITCH_PADDED] = "padded",
};

uint64_t ca_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

uint64_t ca_seed(uint64_t a, uint64_t b)
{
    /* splitmix64's finaliser over a and b */
    uint64_t z = a + UINT64_C(0x9e3779b97f4a7c15) * (b + 1);

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return z ? z : 1;
}

const char *ca_fmt_name(enum VgPixFmt fmt)
{
    switch (fmt) {
    case VG_PIX_FMT_YUV420P:
        return "yuv420p";
    case VG_PIX_FMT_YUV422P:
        return "yuv422p";
    case VG_PIX_FMT_YUV444P:
        return "yuv444p";
    case VG_PIX_FMT_YUV400P:
        return "gray";
    case VG_PIX_FMT_NV12:
        return "nv12";
    case VG_PIX_FMT_P010:
        return "p010";
    case VG_PIX_FMT_P016:
        return "p016";
    case VG_PIX_FMT_NV16:
        return "nv16";
    case VG_PIX_FMT_P216:
        return "p216";
    case VG_PIX_FMT_YUV444P_MSB:
        return "yuv444p_msb";
    }
    return "?";
}

static int semiplanar(enum VgPixFmt fmt)
{
    return fmt == VG_PIX_FMT_NV12 || fmt == VG_PIX_FMT_P010 ||
           fmt == VG_PIX_FMT_P016 || fmt == VG_PIX_FMT_NV16 ||
           fmt == VG_PIX_FMT_P216;
}

/* samples in the high bits of 16-bit words */
static int msb(enum VgPixFmt fmt)
{
    return fmt == VG_PIX_FMT_P010 || fmt == VG_PIX_FMT_P016 ||
           fmt == VG_PIX_FMT_P216 || fmt == VG_PIX_FMT_YUV444P_MSB;
}

static void shifts(enum VgPixFmt fmt, unsigned *ssx, unsigned *ssy)
{
    const int s444 = fmt == VG_PIX_FMT_YUV444P || fmt == VG_PIX_FMT_YUV444P_MSB;
    const int s422 = fmt == VG_PIX_FMT_YUV422P || fmt == VG_PIX_FMT_NV16 ||
                     fmt == VG_PIX_FMT_P216;

    *ssx = !s444;
    *ssy = !s444 && !s422;
}

/* ---- frame pairs ---------------------------------------------------------- */

int ca_frame_alloc(CaFrame *f, enum VgPixFmt fmt, unsigned bpc, unsigned width,
                   unsigned height)
{
    unsigned ssx, ssy;

    memset(f, 0, sizeof(*f));
    f->fmt = fmt;
    f->bpc = bpc;
    f->width = width;
    f->height = height;
    f->n_planes = fmt == VG_PIX_FMT_YUV400P ? 1 : 3;
    shifts(fmt, &ssx, &ssy);
    for (unsigned p = 0; p < f->n_planes; p++) {
        const size_t n = (size_t)(f->w[p] = p ? width >> ssx : width) *
                         (f->h[p] = p ? height >> ssy : height);
        f->ref[p] = malloc((n ? n : 1) * sizeof(uint16_t));
        f->dis[p] = malloc((n ? n : 1) * sizeof(uint16_t));
        if (!f->ref[p] || !f->dis[p]) {
            ca_frame_free(f);
            return -ENOMEM;
        }
    }
    return 0;
}

void ca_frame_free(CaFrame *f)
{
    for (unsigned p = 0; p < 3; p++) {
        free(f->ref[p]);
        free(f->dis[p]);
        f->ref[p] = f->dis[p] = NULL;
    }
}

static unsigned clip(int64_t v, unsigned max)
{
    return v < 0 ? 0 : v > max ? max : (unsigned)v;
}

void ca_frame_fill(CaFrame *f, enum CaPattern pat, unsigned t, uint64_t *rng)
{
    const unsigned max = (1u << f->bpc) - 1;
    /* the random pattern's distortion: +-4 steps of an 8-bit sample */
    const int amp = 4 << (f->bpc - 8);
    /* the gradient's distortion: 32 levels */
    const unsigned band = ~((1u << (f->bpc - 5)) - 1);

    for (unsigned p = 0; p < f->n_planes; p++) {
        const unsigned w = f->w[p], h = f->h[p];
        const unsigned flat_r = (unsigned)(ca_rand(rng) & max);
        const unsigned flat_d = (unsigned)(ca_rand(rng) & max);
        uint16_t *ref = f->ref[p], *dis = f->dis[p];

        for (unsigned y = 0; y < h; y++) {
            for (unsigned x = 0; x < w; x++) {
                unsigned r, d;

                switch (pat) {
                case CA_PAT_FLAT:
                    r = flat_r;
                    d = flat_d;
                    break;
                case CA_PAT_MAX:
                    r = t & 1 ? 0 : max;
                    d = t & 1 ? max : 0;
                    break;
                case CA_PAT_NOISE:
                    r = (unsigned)(ca_rand(rng) & max);
                    d = (unsigned)(ca_rand(rng) & max);
                    break;
                case CA_PAT_GRADIENT:
                    r = (unsigned)((((uint64_t)((x + 2 * t) % w) * max) /
                                        (w > 1 ? w - 1 : 1) +
                                    ((uint64_t)y * max) / (h > 1 ? h - 1 : 1)) /
                                   2);
                    d = r & band;
                    break;
                default:
                    /* sawtooth ramps moving by frame, plus noise */
                    r = (unsigned)(((x * 3 + y * 5 + t * 7) * (max / 64 + 1) +
                                    ca_rand(rng) % (max / 16 + 2)) &
                                   max);
                    if (pat == CA_PAT_EQUAL)
                        d = r;
                    else if (pat == CA_PAT_PM1)
                        d = r == 0             ? 1
                            : r == max         ? max - 1
                            : ca_rand(rng) & 1 ? r + 1
                                               : r - 1;
                    else
                        d = clip((int64_t)r +
                                     (int64_t)(ca_rand(rng) % (2 * amp + 1)) -
                                     amp,
                                 max);
                    break;
                }
                ref[(size_t)y * w + x] = (uint16_t)r;
                dis[(size_t)y * w + x] = (uint16_t)d;
            }
        }
    }
}

uint32_t ca_lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

void ca_frame_fill_base(CaFrame *f, int dis, uint32_t seed, int flat)
{
    const unsigned max = (1u << f->bpc) - 1;
    unsigned ssx, ssy;

    shifts(f->fmt, &ssx, &ssy);
    for (unsigned p = 0; p < f->n_planes; p++) {
        const unsigned pw = p ? (f->width + ssx) >> ssx : f->width;
        const unsigned ph = p ? (f->height + ssy) >> ssy : f->height;
        uint16_t *out = dis ? f->dis[p] : f->ref[p];

        for (unsigned i = 0; i < ph; i++) {
            for (unsigned j = 0; j < pw; j++) {
                unsigned v;

                if (flat) {
                    v = max / 2;
                } else {
                    v = (i * 7 + j * 3 + seed * 5) & max;
                    v ^= ca_lcg(&seed) & 15;
                }
                v &= max;
                if (i < f->h[p] && j < f->w[p])
                    out[(size_t)i * f->w[p] + j] = (uint16_t)v;
            }
        }
    }
}

void ca_frame_fill_builds(CaFrame *f, unsigned pat, unsigned t)
{
    const unsigned max = (1u << f->bpc) - 1, w = f->width, h = f->height;
    uint16_t *ref = f->ref[0], *dis = f->dis[0];

    ca_frame_fill_base(f, 0, 300 + t * 11, pat == CA_BPAT_FLAT);
    ca_frame_fill_base(f, 1, 400 + t * 5, pat == CA_BPAT_FLAT);
    if (pat < CA_BPAT_EXTREMES)
        return;
    for (unsigned y = 0; y < h; y++) {
        uint16_t *rr = ref + (size_t)y * w, *dr = dis + (size_t)y * w;

        for (unsigned x = 0; x < w; x++) {
            const unsigned k = (x + 2 * y + t) % 3;
            const int mid = (int)(max + 1) / 2, r0 = rr[x];
            int c;

            switch (pat) {
            case CA_BPAT_PM1:
                dr[x] = (uint16_t)(k == 0   ? (r0 ? r0 - 1 : r0)
                                   : k == 1 ? (r0 < (int)max ? r0 + 1 : r0)
                                            : r0);
                break;
            case CA_BPAT_CONTRAST:
            case CA_BPAT_HALVED:
                c = pat == CA_BPAT_CONTRAST ? mid + (r0 - mid) * 3 / 2
                                            : mid + (r0 - mid) / 2;
                dr[x] = (uint16_t)(c < 0 ? 0 : c > (int)max ? (int)max : c);
                break;
            case CA_BPAT_MAX_REF:
                rr[x] = (uint16_t)max;
                break;
            default:
                rr[x] = (uint16_t)((t + x + y) & 1 ? max : 0);
                dr[x] = (uint16_t)(max - rr[x]);
                break;
            }
        }
    }
}

/* ---- caller pictures ------------------------------------------------------ */

/* bytes per sample word in the caller's layout */
static unsigned caller_bps(enum VgPixFmt fmt, unsigned bpc)
{
    return msb(fmt) || bpc > 8 ? 2 : 1;
}

/* caller plane q: samples per row (ceil-sized chroma), components per
 * sample (2: interleaved Cb,Cr), rows */
static void caller_plane(const CaFrame *f, unsigned q, unsigned *w,
                         unsigned *comps, unsigned *h)
{
    unsigned ssx, ssy;

    shifts(f->fmt, &ssx, &ssy);
    *w = q ? (f->width + ssx) >> ssx : f->width;
    *h = q ? (f->height + ssy) >> ssy : f->height;
    *comps = semiplanar(f->fmt) && q == 1 ? 2 : 1;
}

int ca_pic_alloc(CaPic *p, const CaFrame *f, enum CaPitch pitch,
                 const BenchCuda *cuda)
{
    const unsigned bps = caller_bps(f->fmt, f->bpc);

    memset(p, 0, sizeof(*p));
    p->n_planes = f->fmt == VG_PIX_FMT_YUV400P ? 1 : semiplanar(f->fmt) ? 2 : 3;
    p->pic.fmt = f->fmt;
    p->pic.width = f->width;
    p->pic.height = f->height;
    p->pic.bitdepth = f->bpc;
    p->pic.memory = cuda ? VG_MEMORY_CUDA : VG_MEMORY_HOST;
    p->pic.cuda_stream = cuda ? cuda->st : NULL;
    for (unsigned q = 0; q < p->n_planes; q++) {
        unsigned w, comps, h;
        size_t row, stride;

        caller_plane(f, q, &w, &comps, &h);
        row = (size_t)w * comps * bps;
        stride = pitch == CA_PITCH_PADDED ? row + 22 * bps : row;
        p->size[q] = CA_GUARD + stride * h + CA_GUARD;
        if (!(p->buf[q] = malloc(p->size[q])))
            return -ENOMEM;
        p->pic.stride[q] = (ptrdiff_t)stride;
        p->pic.data[q] = p->buf[q] + CA_GUARD;
        if (cuda) {
            int ret = VG_CU(cuda->cu, NULL, cuMemAlloc, &p->dev[q], p->size[q]);
            if (ret < 0) {
                p->dev[q] = 0;
                return ret;
            }
            p->pic.data[q] = (const void *)(uintptr_t)(p->dev[q] + CA_GUARD);
        }
    }
    return 0;
}

static void garbage_fill(uint8_t *b, size_t n, uint64_t *g)
{
    size_t i = 0;

    for (; i + 8 <= n; i += 8) {
        const uint64_t v = ca_rand(g);
        memcpy(b + i, &v, 8);
    }
    for (; i < n; i++)
        b[i] = (uint8_t)ca_rand(g);
}

void ca_pic_pack(CaPic *p, const CaFrame *f, int dis, uint64_t *g)
{
    const unsigned bps = caller_bps(f->fmt, f->bpc);
    /* P010/P016/P216/YUV444P_MSB: significant bits high, garbage in the
     * bits below */
    const unsigned shift = msb(f->fmt) ? 16 - f->bpc : 0;
    const unsigned low = (1u << shift) - 1;
    uint16_t *const *src = dis ? f->dis : f->ref;

    for (unsigned q = 0; q < p->n_planes; q++) {
        const ptrdiff_t stride = p->pic.stride[q];
        unsigned w, comps, h;

        caller_plane(f, q, &w, &comps, &h);
        /* guards, padding and the ceil-sized chroma's extra column and
         * row first; the samples the library reads overwrite the rest */
        garbage_fill(p->buf[q], p->size[q], g);
        for (unsigned k = 0; k < comps; k++) {
            const unsigned s = comps == 2 ? 1 + k : q;
            for (unsigned y = 0; y < f->h[s]; y++) {
                uint8_t *row = p->buf[q] + CA_GUARD + (size_t)y * stride;
                const uint16_t *in = src[s] + (size_t)y * f->w[s];
                for (unsigned x = 0; x < f->w[s]; x++) {
                    const size_t i = (size_t)x * comps + k;
                    if (bps == 1) {
                        row[i] = (uint8_t)in[x];
                    } else {
                        const uint16_t v =
                            (uint16_t)((in[x] << shift) |
                                       (low ? ca_rand(g) & low : 0));
                        memcpy(row + 2 * i, &v, 2);
                    }
                }
            }
        }
    }
}

int ca_pic_upload(const CaPic *p, const BenchCuda *cuda)
{
    for (unsigned q = 0; q < p->n_planes; q++) {
        int ret = VG_CU(cuda->cu, NULL, cuMemcpyHtoDAsync, p->dev[q], p->buf[q],
                        p->size[q], cuda->st);
        if (ret < 0)
            return ret;
    }
    return 0;
}

int ca_pic_free(CaPic *p, const BenchCuda *cuda)
{
    int ret = 0;

    for (unsigned q = 0; q < 3; q++) {
        if (p->dev[q] && VG_CU(cuda->cu, NULL, cuMemFree, p->dev[q]) < 0)
            ret = -EIO;
        free(p->buf[q]);
        p->dev[q] = 0;
        p->buf[q] = NULL;
    }
    return ret;
}
