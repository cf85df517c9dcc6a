/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float ANSNR on the CPU, bit-exact with libvmaf v3.2.0
 * src/feature/ansnr_tools.c ansnr_filter2d_s() and ansnr_mse_s(): per
 * output sample, a float sum per filter row of float products, the rows
 * added into a float; per plane row, float sums of r^2 and (r - d)^2.
 */

#include <errno.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/features/float_ansnr.h"
#include "common/features/float_ansnr_params.h"
#include "common/fplane.h"

static const float ref_taps[] = VG_ANSNR_REF_TAPS;
static const float dis_taps[] = VG_ANSNR_DIS_TAPS;

typedef struct AnsnrState {
    float *ref, *dis; ///< luma as float with the offset, w per row
    float *ref_filt, *dis_filt;
    float *rows;        ///< per row: signal, noise
    VgFplaneDSP fplane; ///< the planes' conversion to float
} AnsnrState;

static int ansnr_init(VgFeatureCtx *fc)
{
    AnsnrState *s = fc->priv;
    const size_t n = (size_t)fc->width * fc->height;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());

    s->ref = malloc(n * sizeof(float));
    s->dis = malloc(n * sizeof(float));
    s->ref_filt = malloc(n * sizeof(float));
    s->dis_filt = malloc(n * sizeof(float));
    s->rows = malloc(2 * (size_t)fc->height * sizeof(float));
    return s->ref && s->dis && s->ref_filt && s->dis_filt && s->rows ? 0
                                                                     : -ENOMEM;
}

static void ansnr_close(VgFeatureCtx *fc)
{
    AnsnrState *s = fc->priv;

    free(s->ref);
    free(s->dis);
    free(s->ref_filt);
    free(s->dis_filt);
    free(s->rows);
}

static void filter2d(const float *f, int fw, const float *src, float *dst,
                     int w, int h)
{
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int fi = 0; fi < fw; fi++) {
                const int ii = vg_ansnr_mirror(i - fw / 2 + fi, h);
                float inner = 0;
                for (int fj = 0; fj < fw; fj++) {
                    const int jj = vg_ansnr_mirror(j - fw / 2 + fj, w);
                    inner += f[fi * fw + fj] * src[(size_t)ii * w + jj];
                }
                acc += inner;
            }
            dst[(size_t)i * w + j] = acc;
        }
    }
}

static int ansnr_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    AnsnrState *s = fc->priv;
    const int w = (int)fc->width, h = (int)fc->height;
    float sig, noise;

    s->fplane.to_float(s->ref, w, f->ref, 0, VG_ANSNR_OFFSET);
    s->fplane.to_float(s->dis, w, f->dis, 0, VG_ANSNR_OFFSET);
    filter2d(ref_taps, VG_ANSNR_REF_WIDTH, s->ref, s->ref_filt, w, h);
    filter2d(dis_taps, VG_ANSNR_DIS_WIDTH, s->dis, s->dis_filt, w, h);
    for (int i = 0; i < h; i++) {
        const float *r = s->ref_filt + (size_t)i * w;
        const float *d = s->dis_filt + (size_t)i * w;
        float rs = 0, ns = 0;
        for (int j = 0; j < w; j++) {
            rs += r[j] * r[j];
            ns += (r[j] - d[j]) * (r[j] - d[j]);
        }
        s->rows[2 * i] = rs;
        s->rows[2 * i + 1] = ns;
    }
    vg_float_ansnr_add_rows(s->rows, (unsigned)h, &sig, &noise);
    return vg_float_ansnr_emit(fc, f->index, sig, noise);
}

const VgFeatureImpl vg_cpu_float_ansnr = {
    .priv_size = sizeof(AnsnrState),
    .init = ansnr_init,
    .extract = ansnr_extract,
    .close = ansnr_close,
};
