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

#include "common/features/motion.h"

typedef struct MotionCpu {
    int32_t *y_row;
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

/*
 * Vertical pass on the difference prev - cur, rounded by R_8 (8-bit, int32)
 * or R_bpc (int64); horizontal pass R_16 in int64; |v| summed per row in
 * uint32 (wrapping as libvmaf's), rows in uint64.
 */
static uint64_t motion_sad(const VgImage *prev, const VgImage *cur,
                           int32_t *y_row, unsigned bpc)
{
    const int w = (int)cur->w[0], h = (int)cur->h[0];
    const int shift = bpc == 8 ? 8 : (int)bpc;
    const int64_t y_round = (int64_t)1 << (shift - 1);
    static const int32_t g[5] = {
        VG_MOTION_TAP0, VG_MOTION_TAP1, VG_MOTION_TAP2, VG_MOTION_TAP1,
        VG_MOTION_TAP0,
    };
    uint64_t sad = 0;

    for (int i = 0; i < h; i++) {
        const ptrdiff_t r[5] = {
            mirror(i - 2, h), mirror(i - 1, h), i, mirror(i + 1, h),
            mirror(i + 2, h),
        };
        uint32_t row_sad = 0;

        if (bpc == 8) {
            const uint8_t *p[5], *c[5];
            for (int k = 0; k < 5; k++) {
                p[k] = (const uint8_t *)prev->data[0] + r[k] * prev->stride[0];
                c[k] = (const uint8_t *)cur->data[0] + r[k] * cur->stride[0];
            }
            for (int j = 0; j < w; j++) {
                int32_t acc = 0;
                for (int k = 0; k < 5; k++)
                    acc += g[k] * (p[k][j] - c[k][j]);
                y_row[j] = (acc + (int32_t)y_round) >> shift;
            }
        } else {
            const uint16_t *p[5], *c[5];
            for (int k = 0; k < 5; k++) {
                p[k] = (const uint16_t *)((const uint8_t *)prev->data[0] +
                                          r[k] * prev->stride[0]);
                c[k] = (const uint16_t *)((const uint8_t *)cur->data[0] +
                                          r[k] * cur->stride[0]);
            }
            for (int j = 0; j < w; j++) {
                int64_t acc = 0;
                for (int k = 0; k < 5; k++)
                    acc += (int64_t)g[k] * (p[k][j] - c[k][j]);
                y_row[j] = (int32_t)((acc + y_round) >> shift);
            }
        }

        for (int j = 0; j < w; j++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++)
                acc += (int64_t)g[k] * y_row[mirror(j - 2 + k, w)];
            const int32_t v = (int32_t)((acc + 32768) >> 16);
            row_sad += (uint32_t)(v < 0 ? -v : v);
        }
        sad += row_sad;
    }
    return sad;
}

static int motion_init(VgFeatureCtx *fc)
{
    MotionCpu *s = fc->priv;

    s->y_row = malloc(sizeof(*s->y_row) * fc->width);
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
                              prev ? motion_sad(prev, f->ref, s->y_row,
                                                fc->bpc) : 0);
}

const VgFeatureImpl vg_cpu_motion = {
    .priv_size = sizeof(MotionCpu),
    .init = motion_init,
    .extract = motion_extract,
    .close = motion_close,
};
