/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Launch of the sequential sums (gpu/core/seqsum.cu): one set of six launches
 * (five when the terms' producer added the chunk sums) per submission,
 * whatever the number of sums in it.
 */

#include <errno.h>
#include <string.h>

#include "gpu/core/seqsum.h"

static size_t chunks_of(size_t n)
{
    return (n + VG_SEQSUM_CHUNK - 1) / VG_SEQSUM_CHUNK;
}

int vg_cuda_seqsum_init(VgCudaDevice *d, VgCudaSeqsum *s, int max_arrays,
                        size_t max_terms)
{
    size_t bytes;
    int ret;

    memset(s, 0, sizeof(*s));
    if (max_arrays < 1 || max_arrays > VG_SEQSUM_MAX_ARRAYS)
        return -EINVAL;
    s->max_chunks = chunks_of(max_terms) + (size_t)max_arrays;
    bytes = s->max_chunks * sizeof(VgSeqsumChunk) +
            VG_SEQSUM_POOL * sizeof(VgSeqsumFlag) +
            2 * VG_SEQSUM_MAX_ARRAYS * sizeof(int32_t);
    if ((ret = vg_cuda_device_function(d, "vg_seqsum_chunks", &s->chunks)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_seqsum_scan", &s->scan)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_seqsum_local", &s->local)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_seqsum_resolve", &s->resolve)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_seqsum_fallback", &s->fallback)) <
            0 ||
        (ret = VG_DCU(d, cuMemAlloc, &s->scratch, bytes)) < 0)
        return ret;
    /* zero chunk sums for the first presummed submission; the verify pass
     * zeroes them again after each */
    if ((ret = VG_DCU(d, cuMemsetD8Async, s->scratch, 0, bytes, d->stream)) < 0)
        return ret;
    s->p.chunks = (uint64_t)s->scratch;
    s->p.flags = s->p.chunks + s->max_chunks * sizeof(VgSeqsumChunk);
    s->p.fail = s->p.flags + VG_SEQSUM_POOL * sizeof(VgSeqsumFlag);
    s->p.used = s->p.fail + VG_SEQSUM_MAX_ARRAYS * sizeof(int32_t);
    return 0;
}

void vg_cuda_seqsum_close(VgCudaDevice *d, VgCudaSeqsum *s)
{
    if (s->scratch)
        VG_DCU(d, cuMemFree, s->scratch);
    s->scratch = 0;
}

void vg_cuda_seqsum_reset(VgCudaSeqsum *s)
{
    s->p.count = 0;
    s->p.presummed = 0;
}

CUdeviceptr vg_cuda_seqsum_last_chunks(const VgCudaSeqsum *s)
{
    const int k = s->p.count - 1;

    return k < 0 ? 0
                 : (CUdeviceptr)(s->p.chunks + (uint64_t)s->p.a[k].chunk0 *
                                                   sizeof(VgSeqsumChunk));
}

void vg_cuda_seqsum_presummed(VgCudaSeqsum *s)
{
    s->p.presummed = 1;
}

int vg_cuda_seqsum_add(VgCudaSeqsum *s, CUdeviceptr x, size_t n,
                       CUdeviceptr out)
{
    const int k = s->p.count;
    const int32_t c0 = k ? s->p.a[k - 1].chunk0 + s->p.a[k - 1].nchunks : 0;
    const size_t nc = chunks_of(n);

    if (k >= VG_SEQSUM_MAX_ARRAYS || (size_t)c0 + nc > s->max_chunks)
        return -EINVAL;
    s->p.a[k] = (VgSeqsumArray){
        .x = (uint64_t)x,
        .out = (uint64_t)out,
        .n = (int64_t)n,
        .chunk0 = c0,
        .nchunks = (int32_t)nc,
    };
    s->p.count = k + 1;
    return 0;
}

int vg_cuda_seqsum_submit(VgCudaDevice *d, VgCudaSeqsum *s)
{
    VgSeqsumParams *p = &s->p;
    const int n = p->count;
    const unsigned nc =
        n ? (unsigned)(p->a[n - 1].chunk0 + p->a[n - 1].nchunks) : 0;
    int64_t total = 0;
    int32_t pool0 = 0;
    int ret;

    if (!n)
        return 0;
    for (int k = 0; k < n; k++)
        total += p->a[k].n;
    for (int k = 0; k < n; k++) {
        p->a[k].pool0 = pool0;
        p->a[k].pool_n = vg_seqsum_pool_share(p->a[k].n, total, n);
        pool0 += p->a[k].pool_n;
    }
    p->verify = 0;
    if ((!p->presummed &&
         (ret = vg_cuda_device_launch(d, s->chunks, nc, 1, 1, VG_SEQSUM_THREADS,
                                      1, p)) < 0) ||
        (ret = vg_cuda_device_launch(d, s->scan, n, 1, 1, VG_SEQSUM_THREADS, 1,
                                     p)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->local, nc, 1, 1, VG_SEQSUM_THREADS,
                                     1, p)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->resolve, n, 1, 1, VG_SEQSUM_THREADS,
                                     1, p)) < 0)
        return ret;
    p->verify = 1;
    if ((ret = vg_cuda_device_launch(d, s->local, nc, 1, 1, VG_SEQSUM_THREADS,
                                     1, p)) < 0)
        return ret;
    return vg_cuda_device_launch(d, s->fallback, 1, 1, 1, 32, 1, p);
}
