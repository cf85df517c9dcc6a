/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The SSIM window and constants shared by float_ssim and float_ms_ssim on
 * every backend (cpu/float_ssim.c, gpu/float_ssim.cu), and the kernels'
 * parameter structs of gpu/float_ssim.{c,cu}.
 */

#ifndef VG_FEATURES_FLOAT_SSIM_PARAMS_H
#define VG_FEATURES_FLOAT_SSIM_PARAMS_H

#include <stdint.h>

/** Taps of the Gaussian window (libvmaf v3.2.0 iqa/ssim_tools.h). */
#define VG_SSIM_WIN 11
/** Half the window: output (x, y) of a valid convolution is centred on (x + 5, y + 5). */
#define VG_SSIM_WIN_HALF 5

/*
 * g_gaussian_window_h (= _v) of iqa/ssim_tools.h, as float literals: the
 * 11x11 window applied as two 1-D passes (IQA_CONVOLVE_1D, iqa_options.h).
 */
#define VG_SSIM_GAUSS_TAPS                                                     \
    {                                                                          \
        0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,      \
            0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f              \
    }

/*
 * Stabilising constants of iqa/ssim_tools.c _iqa_ssim(): L = 255 (for
 * every bit depth, the samples being scaled to about 0..255), K1 = 0.01f,
 * K2 = 0.03f; C1 = (K1 * L)^2 and C2 = (K2 * L)^2 in float, C3 = C2 / 2.
 */
#define VG_SSIM_K1 0.01f
#define VG_SSIM_K2 0.03f
#define VG_SSIM_L 255

/** Number of per-image sums of the SSIM map (iqa/ssim_tools.c _iqa_ssim()). */
enum {
    VG_SSIM_SUM_SSIM,
    VG_SSIM_SUM_L,
    VG_SSIM_SUM_C,
    VG_SSIM_SUM_S,
    VG_SSIM_NB_SUMS
};

/** A set of those sums: bit k for VG_SSIM_SUM_k. */
#define VG_SSIM_SUM_BIT(k) (1u << (k))
#define VG_SSIM_SUMS_ALL ((1u << VG_SSIM_NB_SUMS) - 1)

/** Scales of MS-SSIM (iqa/ssim_tools.h SCALES). */
#define VG_MS_SSIM_SCALES 5
/** Taps of MS-SSIM's 2-D pyramid low-pass (ms_ssim.c LPF_LEN). */
#define VG_MS_SSIM_LPF 9

/*
 * ms_ssim.c g_lpf: the 9x9 table (not the outer product of g_lpf_h/_v,
 * which only approximates it) that _iqa_filter_pixel() applies.
 */
#define VG_MS_SSIM_LPF_TAPS                                                    \
    {                                                                          \
        { 0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f,             \
          0.007132f, -0.002090f, -0.000450f, 0.000714f },                      \
            { -0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f,        \
              -0.004490f, 0.001316f, 0.000283f, -0.000450f },                  \
            { -0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f,        \
              -0.020867f, 0.006115f, 0.001316f, -0.002090f },                  \
            { 0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f,         \
              0.071207f, -0.020867f, -0.004490f, 0.007132f },                  \
            { 0.016114f, -0.010146f, -0.047149f, 0.160885f, 0.363505f,         \
              0.160885f, -0.047149f, -0.010146f, 0.016114f },                  \
            { 0.007132f, -0.004490f, -0.020867f, 0.071207f, 0.160885f,         \
              0.071207f, -0.020867f, -0.004490f, 0.007132f },                  \
            { -0.002090f, 0.001316f, 0.006115f, -0.020867f, -0.047149f,        \
              -0.020867f, 0.006115f, 0.001316f, -0.002090f },                  \
            { -0.000450f, 0.000283f, 0.001316f, -0.004490f, -0.010146f,        \
              -0.004490f, 0.001316f, 0.000283f, -0.000450f },                  \
        {                                                                      \
            0.000714f, -0.000450f, -0.002090f, 0.007132f, 0.016114f,           \
                0.007132f, -0.002090f, -0.000450f, 0.000714f                   \
        }                                                                      \
    }

/*
 * The signs of that table: entry (v, u) is negative exactly when one and
 * only one of v and u is 1, 2, 6 or 7 (bits of 0xc6); gpu/float_ms_ssim.cu checks it
 * against the table when it compiles and takes the sign of each product
 * from it.
 */
#define VG_MS_SSIM_LPF_NEG(v, u) (((0xc6 >> (v)) ^ (0xc6 >> (u))) & 1)

/** Mirror a coordinate into 0..n-1 once (iqa/convolve.c KBND_SYMMETRIC). */
#define VG_SSIM_MIRROR(x, n)                                                   \
    ((x) < 0 ? -1 - (x) : (x) >= (n) ? 2 * (n) - (x)-1 : (x))

/* ---- CUDA kernels (gpu/float_ssim.cu, gpu/float_ms_ssim.cu) ---------- */

#define VG_SSIM_BX 32 ///< block width of the map kernels
#define VG_SSIM_BY 8  ///< block height of the map kernels

/**
 * Outputs per plane of a row of the horizontal pass's scratch: the w - 10
 * of a w-wide image rounded up to 32.
 */
#define VG_SSIM_HBUF_PITCH(w) ((((w) - (VG_SSIM_WIN - 1)) + 31) & ~31)
/**
 * The scratch's layout: row after row, each row a run of groups of 32
 * columns, each group the five planes' 32 values one after the other
 * (float[h][pitch / 32][5][32]). A warp's 32 values of a plane are one
 * 128-byte line, and a thread finds its five at fixed offsets of
 * VG_SSIM_HBUF_PLANE floats from one address: no address per plane.
 */
#define VG_SSIM_HBUF_PLANE 32
/** Index, in floats, of plane 0's value (x, y) of that layout. */
#define VG_SSIM_HBUF_AT(pitch, x, y)                                           \
    ((size_t)(y)*5 * (size_t)(pitch) + (size_t)((x) / 32) * 5 * 32 +           \
     (size_t)((x) % 32))
/** Row pitch, in floats, of a decimated w-wide image: w rounded up to 32. */
#define VG_SSIM_IMG_PITCH(w) (((w) + 31) & ~31)

/**
 * One SSIM map: the horizontal pass of the five convolutions
 * (vg_ssim_hconv), the vertical pass with the per-pixel terms
 * (vg_ssim_vmap); its sums are gpu/core/seqsum.cu's, in libvmaf's order.
 */
typedef struct VgSsimMapParams {
    uint64_t ref, cmp; ///< device float images, w x h
    int64_t pitch;     ///< their row pitch, bytes
    int32_t w, h;      ///< image size (>= 11)
    uint64_t hbuf; ///< device floats, VG_SSIM_HBUF_AT(): the horizontal pass
    /** device double[planes][h - 10][w - 10]: one map plane per sum of
     * `sums`, in the order of VG_SSIM_SUM_* */
    uint64_t map;
    /** per map plane, device VgSeqsumChunk[]: the records of the chunks of
     * its sum (gpu/core/seqsum_step.h), into whose sum and abs the kernel adds
     * its terms (vg_cuda_seqsum_presummed()) */
    uint64_t chunks[VG_SSIM_NB_SUMS];
    /** in a ladder, device float2[h - 10][w - 10]: the reference's mean and
     * mean of squares of each map pixel, as floats (the reference stage) */
    uint64_t rterm;
    uint32_t sums;  ///< the sums to take (VG_SSIM_SUM_BIT); not 0
    uint32_t stage; ///< VG_SSIM_STAGE_*
} VgSsimMapParams;

/** VgSsimMapParams.stage: what the map does with rterm. */
enum {
    VG_SSIM_STAGE_NONE,  ///< not in a ladder's stage
    VG_SSIM_STAGE_WRITE, ///< stores the reference's terms
    /** reads them: both passes leave out the reference's two
     * convolutions (vg_ssim_hconv_rd, vg_ssim_vmap_rd) */
    VG_SSIM_STAGE_READ,
};

/** Decimation of one image (iqa/decimate.c, mirrored borders). */
typedef struct VgSsimDecimateParams {
    uint64_t src[2], dst[2]; ///< ref and dis: device float images
    int64_t src_pitch;       ///< bytes
    int64_t dst_pitch;       ///< bytes
    int32_t w, h;            ///< source size
    int32_t sw, sh;          ///< destination size
    int32_t factor;          ///< float_ssim's box: its size and step
    float tap;               ///< float_ssim's box: every tap, 1.0f / factor^2
    int32_t src_pos; ///< MS-SSIM: no sample of the sources has its sign bit set
} VgSsimDecimateParams;

#endif /* VG_FEATURES_FLOAT_SSIM_PARAMS_H */
