/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm's picture maker, shared by every feature test, the CPU builds'
 * comparison (ca_frame_fill_builds()) and the whole-API cases (api.c).
 *
 * A CaFrame holds one frame pair as the library reads it: planar samples,
 * LSB-aligned, chroma planes floor-sized (libvmaf's VmafPicture), filled
 * with one of the patterns. A CaPic is one caller picture built from it in
 * any layout the API takes (planar 4:2:0/4:2:2/4:4:4/4:0:0, NV12, P010,
 * P016), FFmpeg-style with ceil-sized chroma, in host or CUDA device
 * memory. Every byte of a CaPic that the library must not read is garbage
 * drawn anew for each copy and each frame: the guard bytes before and
 * after each plane, the padding after each row, the extra chroma column
 * and row of odd sizes, and the low bits of P010/P016 words. Two copies of
 * a frame therefore differ exactly where a correct reader never looks, and
 * a read out of bounds shows up as a mismatch between two runs.
 */

#ifndef VG_TESTS_CHECKASM_PIC_H
#define VG_TESTS_CHECKASM_PIC_H

#include <stddef.h>
#include <stdint.h>

#include "vmafgpu.h"
#include "tests/checkasm/cuda.h"

/** Garbage bytes before and after each plane (keeps the plane aligned). */
#define CA_GUARD 256

/** Content of a frame pair. */
enum CaPattern {
    CA_PAT_RANDOM, ///< ramps plus noise, moving by frame; dis = ref + small noise
    CA_PAT_FLAT,   ///< one value per plane and frame, ref and dis independent
    CA_PAT_MAX,    ///< ref at the maximum, dis at 0, swapped every frame
    CA_PAT_EQUAL,    ///< random content, dis == ref
    CA_PAT_PM1,      ///< random content, dis = ref + 1 or ref - 1
    CA_PAT_NOISE,    ///< independent full-range noise in ref and dis
    CA_PAT_GRADIENT, ///< ramps across the picture, moving by frame; dis banded
    CA_PAT_NB
};

/** Row pitch of a caller picture. */
enum CaPitch {
    CA_PITCH_TIGHT,  ///< the row's bytes exactly
    CA_PITCH_PADDED, ///< 22 samples of garbage after each row
    CA_PITCH_NB
};

extern const char *const ca_pattern_names[CA_PAT_NB];
extern const char *const ca_pitch_names[CA_PITCH_NB];

/** Next value of a xorshift64* generator (state must not be 0). */
uint64_t ca_rand(uint64_t *state);

/** @return a nonzero generator state derived from a and b. */
uint64_t ca_seed(uint64_t a, uint64_t b);

/** @return the format's name (yuv420p ... p016). */
const char *ca_fmt_name(enum VgPixFmt fmt);

/** One frame pair in the library's internal meaning. */
typedef struct CaFrame {
    enum VgPixFmt fmt; ///< the caller format the planes are for
    unsigned bpc;      ///< bit depth
    unsigned width, height;
    unsigned n_planes;   ///< 1 (4:0:0) or 3
    unsigned w[3], h[3]; ///< plane sizes (chroma floor-sized, may be 0)
    uint16_t *ref[3];    ///< samples, w[p] * h[p] each
    uint16_t *dis[3];
} CaFrame;

/** Allocate a frame pair of this format. @return 0 or -ENOMEM. */
int ca_frame_alloc(CaFrame *f, enum VgPixFmt fmt, unsigned bpc, unsigned width,
                   unsigned height);

/** Fill frame number `index` of a sequence with pattern `pat`. */
void ca_frame_fill(CaFrame *f, enum CaPattern pat, unsigned index,
                   uint64_t *rng);

void ca_frame_free(CaFrame *f);

/** Next value of a 32-bit linear congruential generator (24 bits). */
uint32_t ca_lcg(uint32_t *state);

/**
 * Patterns of the CPU builds' comparison (ca_frame_fill_builds()), from
 * the planes' base content: ramps with a few bits of noise, moving with a
 * seed per frame, ref and dis independent.
 */
enum CaBuildsPattern {
    CA_BPAT_RANDOM,   ///< the base content
    CA_BPAT_FLAT,     ///< every sample at half the maximum
    CA_BPAT_EXTREMES, ///< luma alternating 0 and the maximum, dis inverted
    CA_BPAT_MAX_REF,  ///< luma at the maximum in ref, the base content in dis
    CA_BPAT_CONTRAST, ///< dis luma: ref's contrast raised by half
    CA_BPAT_HALVED,   ///< dis luma: ref's contrast halved
    CA_BPAT_PM1,      ///< dis luma: ref +- 1 on two samples out of three
    CA_BPAT_NB
};

/**
 * The base content of one plane set (ref: dis = 0, dis: dis = 1) of frame
 * pair t, every sample at half the maximum with flat set; chroma drawn
 * over ceil-sized planes, of which the floor-sized part is kept.
 */
void ca_frame_fill_base(CaFrame *f, int dis, uint32_t seed, int flat);

/** Fill frame pair t with pattern pat (enum CaBuildsPattern). */
void ca_frame_fill_builds(CaFrame *f, unsigned pat, unsigned t);

/** One caller picture and the memory behind it. */
typedef struct CaPic {
    VgPicture pic;      ///< what vg_submit() gets
    unsigned n_planes;  ///< caller planes: 1, 2 (semi-planar) or 3
    uint8_t *buf[3];    ///< host bytes of each plane, guards included
    CUdeviceptr dev[3]; ///< device copy of buf[p] (device pictures), else 0
    size_t size[3];     ///< bytes of buf[p] and dev[p]
} CaPic;

/**
 * Allocate a picture of f's format and size. cuda NULL: host memory; else
 * CUDA device memory on cuda's context, pic.cuda_stream = cuda->st.
 * @return 0, or a negative errno (then ca_pic_free() is still safe).
 */
int ca_pic_alloc(CaPic *p, const CaFrame *f, enum CaPitch pitch,
                 const BenchCuda *cuda);

/**
 * Write f's reference (dis = 0) or distorted (dis = 1) planes into the
 * picture's host bytes, and fresh garbage from `garbage` everywhere else.
 */
void ca_pic_pack(CaPic *p, const CaFrame *f, int dis, uint64_t *garbage);

/**
 * Queue the host bytes (guards included) into the device copy on
 * cuda->st. The host bytes may be rewritten when this returns.
 * @return 0, or a negative errno (logged).
 */
int ca_pic_upload(const CaPic *p, const BenchCuda *cuda);

/**
 * Free what ca_pic_alloc() allocated (device memory through cuda).
 * @return 0, or -EIO if the driver failed to free (logged).
 */
int ca_pic_free(CaPic *p, const BenchCuda *cuda);

#endif /* VG_TESTS_CHECKASM_PIC_H */
