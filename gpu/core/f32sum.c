/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Launch of the sequential float sums (gpu/core/f32sum.cu): two launches per
 * submission, whatever the number of sums in it.
 */

#include <errno.h>
#include <string.h>

#include "gpu/core/f32sum.h"

static size_t chunks_of(size_t n)
{
    return (n + VG_F32SUM_CHUNK - 1) / VG_F32SUM_CHUNK;
}

int vg_cuda_f32sum_init(VgCudaDevice *d, VgCudaF32sum *s, int max_arrays,
                        size_t max_terms)
{
    int ret;

    memset(s, 0, sizeof(*s));
    if (max_arrays < 1 || max_arrays > VG_F32SUM_MAX_ARRAYS)
        return -EINVAL;
    s->max_chunks = chunks_of(max_terms) + (size_t)max_arrays;
    if ((ret = vg_cuda_device_function(d, "vg_f32sum_chunks", &s->chunks)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_f32sum_walk", &s->walk)) < 0 ||
        (ret = VG_DCU(d, cuMemAlloc, &s->scratch,
                      s->max_chunks * VG_F32SUM_RECS * sizeof(VgF32sumChunk))) <
            0)
        return ret;
    s->p.chunks = (uint64_t)s->scratch;
    return 0;
}

void vg_cuda_f32sum_close(VgCudaDevice *d, VgCudaF32sum *s)
{
    if (s->scratch)
        VG_DCU(d, cuMemFree, s->scratch);
    s->scratch = 0;
}

void vg_cuda_f32sum_reset(VgCudaF32sum *s)
{
    s->p.count = 0;
}

int vg_cuda_f32sum_add(VgCudaF32sum *s, CUdeviceptr x, size_t n,
                       CUdeviceptr out)
{
    const int k = s->p.count;
    const int32_t c0 = k ? s->p.a[k - 1].chunk0 + s->p.a[k - 1].nchunks : 0;
    const size_t nc = chunks_of(n);

    if (k >= VG_F32SUM_MAX_ARRAYS || (size_t)c0 + nc > s->max_chunks ||
        (x & 15))
        return -EINVAL;
    s->p.a[k] = (VgF32sumArray){
        .x = (uint64_t)x,
        .out = (uint64_t)out,
        .n = (int64_t)n,
        .chunk0 = c0,
        .nchunks = (int32_t)nc,
    };
    s->p.count = k + 1;
    return 0;
}

int vg_cuda_f32sum_submit(VgCudaDevice *d, VgCudaF32sum *s)
{
    const VgF32sumParams *p = &s->p;
    const int n = p->count;
    const unsigned nc =
        n ? (unsigned)(p->a[n - 1].chunk0 + p->a[n - 1].nchunks) : 0;
    int ret;

    if (!n)
        return 0;
    if (nc && (ret = vg_cuda_device_launch(d, s->chunks, nc, 1, 1,
                                           VG_F32SUM_THREADS, 1, &s->p)) < 0)
        return ret;
    return vg_cuda_device_launch(d, s->walk, (unsigned)n, 1, 1, 32, 1, &s->p);
}
