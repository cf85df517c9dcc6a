/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM on CUDA: the integer pipeline (DWT, decouple, CSF, contrast
 * masking and denominator with libvmaf's per-row rounding) runs on the
 * device (gpu/adm.cu) and returns 36 int64 totals per frame; the float and
 * double steps are the feature's home's (common/features/adm.c), so both
 * backends print the same bits.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/features/adm.h"
#include "gpu/adm_layout.h"
#include "gpu/core/feature.h"

typedef struct AdmCuda {
    VgAdmScale sc[VG_ADM_NB_SCALES];
    VgAdmFactors fac;
    VgAdmLaunch l; ///< the decouple + CM kernel's parameters
    VgAdmDwtParams dwt[VG_ADM_NB_SCALES];
    CUfunction f_dwt0, f_dwt1, f_dwt23, f_dcm;
    CUdeviceptr mem;
    size_t mem_bytes;
} AdmCuda;

static void adm_cuda_close(VgFeatureCtx *fc)
{
    AdmCuda *s = fc->priv;
    const VgCuda *cu = vg_cuda_fc_device(fc)->cu;

    if (s->mem)
        VG_CU(cu, fc->log, cuMemFree, s->mem);
    s->mem = 0;
}

static int adm_cuda_init(VgFeatureCtx *fc)
{
    AdmCuda *s = fc->priv;
    const VgAdmOpts *o = fc->opts;
    VgCudaDevice *e = fc->backend;
    const VgCuda *cu = e->cu;
    CUstream st = e->stream;
    int ret;

    if ((ret = vg_adm_factors(o, &s->fac, fc->log)) < 0)
        return ret;
    vg_adm_scales(fc->width, fc->height, s->sc);

    if ((ret = vg_cuda_device_function(
             e, fc->bpc == 8 ? "vg_adm_dwt_s0_8" : "vg_adm_dwt_s0_16",
             &s->f_dwt0)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_adm_dwt_s1", &s->f_dwt1)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_adm_dwt_s23", &s->f_dwt23)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_adm_dcm", &s->f_dcm)) < 0)
        return ret;

    s->mem_bytes = vg_adm_cuda_layout(&s->l.par, s->dwt, s->sc, &s->fac, o, 0);
    if ((ret = VG_CU(cu, fc->log, cuMemAlloc, &s->mem, s->mem_bytes)) < 0)
        goto fail;
    vg_adm_cuda_layout(&s->l.par, s->dwt, s->sc, &s->fac, o, (uint64_t)s->mem);
    /* zeroed like the CPU path's calloc() (the CM row sums and counter
     * must start at zero) */
    if ((ret = VG_CU(cu, fc->log, cuMemsetD8Async, s->mem, 0, s->mem_bytes,
                     st)) < 0)
        goto fail;
    return 0;
fail:
    adm_cuda_close(fc);
    return ret;
}

/* a ladder's reference stage: the reference's DWT bands of every scale */
static size_t adm_cuda_ref_stage_size(const VgFeatureCtx *fc)
{
    const AdmCuda *s = fc->priv;
    VgAdmParams par = s->l.par;
    VgAdmDwtParams dwt[VG_ADM_NB_SCALES];

    memcpy(dwt, s->dwt, sizeof(dwt));
    return vg_adm_cuda_ref_stage(&par, dwt, 0);
}

static int adm_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    AdmCuda *s = fc->priv;
    VgCudaDevice *e = fc->backend;
    VgAdmDwtParams dwt[VG_ADM_NB_SCALES];
    VgAdmLaunch l = s->l;
    unsigned gz = 2; /* blockIdx.z: 0 the reference, 1 the distorted */
    int ret;

    if (f->ref->stride[0] != f->dis->stride[0]) {
        vg_log(fc->log, VG_LOG_ERROR, "adm: picture geometry changed");
        return -EINVAL;
    }
    /* the parameters are copied at the launch */
    memcpy(dwt, s->dwt, sizeof(dwt));
    dwt[0].src[0] = (uint64_t)(uintptr_t)f->ref->data[0];
    dwt[0].src[1] = (uint64_t)(uintptr_t)f->dis->data[0];
    dwt[0].src_pitch = f->ref->stride[0];
    dwt[0].bpc = (int32_t)fc->bpc;
    /* in a ladder the reference's bands are in the frame's stage entry:
     * rendition 0 writes them, the others transform the distorted
     * picture alone, as image 0 of the launch */
    if (f->stage_role)
        vg_adm_cuda_ref_stage(&l.par, dwt, f->stage);
    if (f->stage_role == VG_STAGE_READ) {
        for (int k = 0; k < VG_ADM_NB_SCALES; k++) {
            dwt[k].src[0] = dwt[k].src[1];
            memcpy(dwt[k].dst[0], dwt[k].dst[1], sizeof(dwt[k].dst[0]));
        }
        gz = 1;
    }
    for (int k = 0; k < VG_ADM_NB_SCALES; k++) {
        VgAdmDwtParams *d = &dwt[k];
        CUfunction fn = k == 0 ? s->f_dwt0 : k == 1 ? s->f_dwt1 : s->f_dwt23;
        if ((ret = vg_cuda_device_launch(e, fn, vg_adm_dwt_grid_x(d),
                                         vg_adm_dwt_grid_y(d, k), gz, VG_ADM_BX,
                                         VG_ADM_BY, d)) < 0)
            return ret;
    }
    l.res = (uint64_t)f->res;
    return vg_cuda_device_launch(e, s->f_dcm, (unsigned)l.par.n_cm_tiles, 1, 1,
                                 VG_ADM_CM_THREADS, 1, &l);
}

static int adm_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const AdmCuda *s = fc->priv;
    const VgAdmOpts *o = fc->opts;
    const VgAdmResults *r = f->host_res;
    float num_s[VG_ADM_NB_SCALES], den_s[VG_ADM_NB_SCALES];
    float aim_s[VG_ADM_NB_SCALES] = { 0.0f, 0.0f, 0.0f, 0.0f };

    for (int k = 0; k < VG_ADM_NB_SCALES; k++) {
        uint64_t den[3];
        if (k < s->l.par.s_first) {
            /* adm_skip_scale0: num 0, den 1e-10f (integer_compute_adm) */
            num_s[k] = 0.0f;
            den_s[k] = 1e-10f;
            continue;
        }
        for (int b = 0; b < 3; b++)
            den[b] = (uint64_t)r->den[k][b];
        den_s[k] =
            vg_adm_den_score(&s->sc[k], &s->fac, k, den, o->noise_weight);
        num_s[k] = vg_adm_cm_score(&s->sc[k], k, r->num[k], o->noise_weight);
        if (s->l.par.aim)
            aim_s[k] = vg_adm_cm_score(&s->sc[k], k, r->aim[k], 0.0);
    }
    return vg_adm_finish(fc, f->index, num_s, den_s, aim_s);
}

const VgCudaFeatureImpl vg_cuda_adm = {
    .priv_size = sizeof(AdmCuda),
    .res_size = sizeof(VgAdmResults),
    .init = adm_cuda_init,
    .submit = adm_cuda_submit,
    .collect = adm_cuda_collect,
    .close = adm_cuda_close,
    .ref_stage_size = adm_cuda_ref_stage_size,
};
