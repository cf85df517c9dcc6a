/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer motion on the CPU, bit-exact with libvmaf v3.2.0
 * (src/feature/integer_motion.c motion_score_pipeline_8/16): the SAD of the
 * 5-tap filtered difference between the previous and the current reference
 * luma. The score, motion2 and motion3 are the feature's home's
 * (common/features/motion.c). Mirrors are reflect-101 on both axes, so W
 * and H must be >= 3.
 */

#include <errno.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/features/motion.h"

typedef uint64_t MotionSadFn(const VgImage *prev, const VgImage *cur,
                             int32_t *y_row, unsigned bpc);

typedef struct VgMotionDSP {
    MotionSadFn *sad; ///< the C, AVX2 or AVX-512 build of motion_sad_any()
} VgMotionDSP;

typedef struct MotionCpu {
    int32_t *y_row;
    VgMotionDSP dsp;
} MotionCpu;

/* integer_motion.c mirror(): reflect-101 */
static inline int mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 2;
    return i;
}

/* |horizontal pass| at a column of a row (taps at columns j0..j4), R_16 */
VG_CPU_INLINE uint32_t habs(const int32_t *y, int j0, int j1, int j2, int j3,
                            int j4)
{
    const int64_t acc =
        (int64_t)VG_MOTION_TAP0 * y[j0] + (int64_t)VG_MOTION_TAP1 * y[j1] +
        (int64_t)VG_MOTION_TAP2 * y[j2] + (int64_t)VG_MOTION_TAP1 * y[j3] +
        (int64_t)VG_MOTION_TAP0 * y[j4];
    const int32_t v = (int32_t)((acc + 32768) >> 16);

    return (uint32_t)(v < 0 ? -v : v);
}

/* the vertical pass on prev - cur over five rows, samples of type T */
#define MOTION_VPASS(T, ACC)                                                   \
    do {                                                                       \
        const T *p0 = (const T *)((const uint8_t *)prev->data[0] + r0 * ps);   \
        const T *p1 = (const T *)((const uint8_t *)prev->data[0] + r1 * ps);   \
        const T *p2 = (const T *)((const uint8_t *)prev->data[0] + r2 * ps);   \
        const T *p3 = (const T *)((const uint8_t *)prev->data[0] + r3 * ps);   \
        const T *p4 = (const T *)((const uint8_t *)prev->data[0] + r4 * ps);   \
        const T *c0 = (const T *)((const uint8_t *)cur->data[0] + r0 * cs);    \
        const T *c1 = (const T *)((const uint8_t *)cur->data[0] + r1 * cs);    \
        const T *c2 = (const T *)((const uint8_t *)cur->data[0] + r2 * cs);    \
        const T *c3 = (const T *)((const uint8_t *)cur->data[0] + r3 * cs);    \
        const T *c4 = (const T *)((const uint8_t *)cur->data[0] + r4 * cs);    \
        for (int j = 0; j < w; j++) {                                          \
            const ACC acc = (ACC)VG_MOTION_TAP0 * (p0[j] - c0[j]) +            \
                            (ACC)VG_MOTION_TAP1 * (p1[j] - c1[j]) +            \
                            (ACC)VG_MOTION_TAP2 * (p2[j] - c2[j]) +            \
                            (ACC)VG_MOTION_TAP1 * (p3[j] - c3[j]) +            \
                            (ACC)VG_MOTION_TAP0 * (p4[j] - c4[j]);             \
            y_row[j] = (int32_t)((acc + (ACC)y_round) >> shift);               \
        }                                                                      \
    } while (0)

/*
 * Vertical pass on the difference prev - cur, rounded by R_8 (8-bit, int32)
 * or R_bpc (int64); horizontal pass R_16 in int64; |v| summed per row in
 * uint32 (wrapping as libvmaf's: in any order, as the sum is modulo 2^32),
 * rows in uint64. Integer throughout: any build gives the same SAD. The
 * columns away from the edges need no mirroring, which lets the compiler
 * vectorise them.
 */
VG_CPU_INLINE uint64_t motion_sad_any(const VgImage *prev, const VgImage *cur,
                                      int32_t *y_row, unsigned bpc)
{
    const int w = (int)cur->w[0], h = (int)cur->h[0];
    const int shift = bpc == 8 ? 8 : (int)bpc;
    const int64_t y_round = (int64_t)1 << (shift - 1);
    const ptrdiff_t ps = prev->stride[0], cs = cur->stride[0];
    uint64_t sad = 0;

    for (int i = 0; i < h; i++) {
        const ptrdiff_t r0 = mirror(i - 2, h), r1 = mirror(i - 1, h), r2 = i;
        const ptrdiff_t r3 = mirror(i + 1, h), r4 = mirror(i + 2, h);
        uint32_t row_sad = 0;

        if (bpc == 8)
            MOTION_VPASS(uint8_t, int32_t);
        else
            MOTION_VPASS(uint16_t, int64_t);

        /* mirrored columns at both ends, the inside [2, w - 2) without */
        for (int j = 0; j < w && j < 2; j++)
            row_sad += habs(y_row, mirror(j - 2, w), mirror(j - 1, w), j,
                            mirror(j + 1, w), mirror(j + 2, w));
        for (int j = 2; j < w - 2; j++)
            row_sad += habs(y_row, j - 2, j - 1, j, j + 1, j + 2);
        for (int j = w - 2 > 2 ? w - 2 : 2; j < w; j++)
            row_sad += habs(y_row, mirror(j - 2, w), mirror(j - 1, w), j,
                            mirror(j + 1, w), mirror(j + 2, w));
        sad += row_sad;
    }
    return sad;
}

VG_CPU_O3 static uint64_t motion_sad_c(const VgImage *prev, const VgImage *cur,
                                       int32_t *y_row, unsigned bpc)
{
    return motion_sad_any(prev, cur, y_row, bpc);
}

#if VG_CPU_HAVE_AVX2
VG_CPU_TARGET_AVX2 VG_CPU_O3 static uint64_t motion_sad_avx2(
    const VgImage *prev, const VgImage *cur, int32_t *y_row, unsigned bpc)
{
    return motion_sad_any(prev, cur, y_row, bpc);
}

VG_CPU_TARGET_AVX512 VG_CPU_O3 static uint64_t motion_sad_avx512(
    const VgImage *prev, const VgImage *cur, int32_t *y_row, unsigned bpc)
{
    return motion_sad_any(prev, cur, y_row, bpc);
}
#endif

static void vg_motion_dsp_init(VgMotionDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->sad, motion_sad, flags);
}

static int motion_init(VgFeatureCtx *fc)
{
    MotionCpu *s = fc->priv;

    s->y_row = malloc(sizeof(*s->y_row) * fc->width);
    vg_motion_dsp_init(&s->dsp, vg_cpu_flags());
    return s->y_row ? 0 : -ENOMEM;
}

static void motion_close(VgFeatureCtx *fc)
{
    MotionCpu *s = fc->priv;

    free(s->y_row);
    s->y_row = NULL;
}

static int motion_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    MotionCpu *s = fc->priv;
    const VgImage *prev;
    int ret;

    if ((ret = vg_motion_prev(fc, f->index, f->prev_ref, f->prev_prev_ref,
                              &prev)) < 0)
        return ret;
    return vg_motion_emit_sad(fc, f->index, prev != NULL,
                              prev ? s->dsp.sad(prev, f->ref, s->y_row, fc->bpc)
                                   : 0);
}

const VgFeatureImpl vg_cpu_motion = {
    .priv_size = sizeof(MotionCpu),
    .init = motion_init,
    .extract = motion_extract,
    .close = motion_close,
};
