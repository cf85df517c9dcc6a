/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * adm_host: the CUDA ADM kernels' code (gpu/adm_ops.cuh), run on the host
 * with the kernels' buffer layout (gpu/adm_layout.h) against the CPU ADM
 * (cpu/adm.c through the public API): the DWT's per-column and per-output
 * arithmetic output by output (its warp mapping, lanes lending columns and
 * pair loads, is checked on the device by checkasm), then the
 * decouple + CM kernel's steps thread by thread with its tile and row
 * mapping and its per-row reduction. Exactly: every per-scale num and den
 * value (debug outputs), the per-scale ratios, adm2 and aim, compared as
 * doubles with memcmp. No GPU needed; built with nvcc (host code only).
 * Inputs: 8/10/12/16 bits (9 and 11 on fewer cases); sizes from the smallest legal (33x33) over odd
 * sizes to 1920x1080; patterns smooth+noise, flat, extremes, ref == dis,
 * full-range noise; options egl=1, nvd=4, Barten CSF, skip scale 0, skip
 * AIM. Exit status 0 when every case matched.
 *
 *   make tests/gpu/adm_host && ./tests/gpu/adm_host [--quick]
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

extern "C" {
#include "vmafgpu.h"
#include "common/features/adm.h"
}
#include "gpu/adm_layout.h"
#include "gpu/adm_ops.cuh"

enum {
    PAT_SMOOTH,
    PAT_FLAT,
    PAT_MAX,
    PAT_EQUAL,
    PAT_NOISE,
    PAT_NB
};
static const char *const pat_name[PAT_NB] = {
    "smooth+noise", "flat", "extremes", "ref==dis", "full-range noise",
};

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

typedef struct Case {
    unsigned w, h, bpc;
    int pat;
    const char *opts; ///< option string (besides debug=true)
    VgAdmOpts o;      ///< the same options as a struct
    uint64_t seed;
} Case;

/* luma of ref and dis; bytes per sample 1 or 2, pitch with padding */
typedef struct Luma {
    std::vector<uint8_t> buf;
    ptrdiff_t pitch;
} Luma;

static void make_luma(const Case *c, Luma *ref, Luma *dis, uint64_t *seed)
{
    const unsigned bps = c->bpc > 8 ? 2 : 1;
    const unsigned max = (1u << c->bpc) - 1;
    const unsigned fr = (unsigned)(rnd(seed) & max),
                   fd = (unsigned)(rnd(seed) & max);

    ref->pitch = dis->pitch = (ptrdiff_t)c->w * bps + 10 * bps;
    ref->buf.assign((size_t)ref->pitch * c->h, 0xa5);
    dis->buf.assign((size_t)dis->pitch * c->h, 0x5a);
    for (unsigned y = 0; y < c->h; y++) {
        for (unsigned x = 0; x < c->w; x++) {
            unsigned r, d;
            switch (c->pat) {
            case PAT_FLAT:
                r = fr;
                d = fd;
                break;
            case PAT_MAX:
                r = ((x ^ y) & 1) ? max : 0;
                d = ((x + y / 3) & 1) ? 0 : max;
                break;
            case PAT_NOISE:
                r = (unsigned)(rnd(seed) & max);
                d = (unsigned)(rnd(seed) & max);
                break;
            default:
                r = ((x * 3 + y * 5) * (max / 64 + 1) +
                     (unsigned)(rnd(seed) % (max / 16 + 2))) &
                    max;
                d = c->pat == PAT_EQUAL
                        ? r
                        : (unsigned)((r + (rnd(seed) % 9) - 4) & max);
                break;
            }
            if (bps == 1) {
                ref->buf[y * ref->pitch + x] = (uint8_t)r;
                dis->buf[y * dis->pitch + x] = (uint8_t)d;
            } else {
                ((uint16_t *)&ref->buf[y * ref->pitch])[x] = (uint16_t)r;
                ((uint16_t *)&dis->buf[y * dis->pitch])[x] = (uint16_t)d;
            }
        }
    }
}

/* ---- the CPU path through the API ---------------------------------------- */

static const char *const bases[] = {
    "integer_adm_num_scale0", "integer_adm_num_scale1",
    "integer_adm_num_scale2", "integer_adm_num_scale3",
    "integer_adm_den_scale0", "integer_adm_den_scale1",
    "integer_adm_den_scale2", "integer_adm_den_scale3",
    "integer_adm_scale0",     "integer_adm_scale1",
    "integer_adm_scale2",     "integer_adm_scale3",
    "integer_adm_num",        "integer_adm_den",
    "integer_adm2",           "integer_aim",
};
#define N_BASES (sizeof(bases) / sizeof(bases[0]))

/* index in bases[] of a metric name (suffixes of non-default options
 * allowed: the longest base that the name equals or extends with '_') */
static int base_of(const char *name)
{
    int best = -1;
    size_t best_len = 0;
    for (unsigned i = 0; i < N_BASES; i++) {
        const size_t n = strlen(bases[i]);
        if (!strncmp(name, bases[i], n) && (name[n] == 0 || name[n] == '_') &&
            n > best_len) {
            best = (int)i;
            best_len = n;
        }
    }
    return best;
}

static int cpu_scores(const Case *c, const Luma *ref, const Luma *dis,
                      double out[N_BASES], int have[N_BASES])
{
    VgConfig cfg = {};
    VgContext *ctx = NULL;
    VgPicture pr = {}, pd = {};
    char opts[256];
    std::vector<uint8_t> chroma((size_t)c->w * c->h * 2 + 64, 0);
    int ret;

    cfg.backend = VG_BACKEND_CPU;
    cfg.log_level = VG_LOG_WARNING;
    snprintf(opts, sizeof(opts), "debug=true%s%s", *c->opts ? ":" : "",
             c->opts);
    if ((ret = vg_context_create(&ctx, &cfg)) < 0 ||
        (ret = vg_use_feature(ctx, "adm", opts)) < 0)
        goto end;
    pr.fmt = pd.fmt = VG_PIX_FMT_YUV420P;
    pr.width = pd.width = c->w;
    pr.height = pd.height = c->h;
    pr.bitdepth = pd.bitdepth = c->bpc;
    pr.memory = pd.memory = VG_MEMORY_HOST;
    pr.data[0] = ref->buf.data();
    pd.data[0] = dis->buf.data();
    pr.stride[0] = ref->pitch;
    pd.stride[0] = dis->pitch;
    for (int p = 1; p < 3; p++) {
        pr.data[p] = pd.data[p] = chroma.data();
        pr.stride[p] = pd.stride[p] = (ptrdiff_t)c->w * 2 + 8;
    }
    if ((ret = vg_submit(ctx, &pr, &pd)) < 0 || (ret = vg_flush(ctx)) < 0)
        goto end;
    memset(have, 0, sizeof(int) * N_BASES);
    for (unsigned m = 0; m < vg_metric_count(ctx); m++) {
        const char *name = vg_metric_name(ctx, m);
        const int b = base_of(name);
        if (b >= 0 && !vg_get_score(ctx, name, 0, &out[b]))
            have[b] = 1;
    }
end:
    vg_context_destroy(&ctx);
    return ret;
}

/* ---- the kernels, on the host ---------------------------------------------- */

static void gpu_emulated(const Case *c, const Luma *ref, const Luma *dis,
                         double out[N_BASES])
{
    VgAdmScale sc[VG_ADM_NB_SCALES];
    VgAdmFactors fac;
    VgAdmParams par;
    VgAdmDwtParams dwt[VG_ADM_NB_SCALES];
    VgAdmResults res;
    int64_t tot[VG_ADM_CUDA_SCALES][9];

    vg_adm_scales(c->w, c->h, sc);
    if (vg_adm_factors(&c->o, &fac, NULL) < 0)
        abort();
    const size_t bytes = vg_adm_cuda_layout(&par, dwt, sc, &fac, &c->o, 0);
    /* garbage everywhere: the kernels must write what they read */
    std::vector<uint8_t> mem(bytes + 256, 0x3c);
    const uint64_t base =
        ((uint64_t)(uintptr_t)mem.data() + 255) & ~(uint64_t)255;
    vg_adm_cuda_layout(&par, dwt, sc, &fac, &c->o, base);
    /* the device buffers start zeroed (gpu/adm.c init) */
    memset((void *)(uintptr_t)base, 0, bytes);

    /* DWT: every output of both images (z = ref / dis), one at a time */
    dwt[0].src[0] = (uint64_t)(uintptr_t)ref->buf.data();
    dwt[0].src[1] = (uint64_t)(uintptr_t)dis->buf.data();
    dwt[0].src_pitch = ref->pitch;
    dwt[0].bpc = (int32_t)c->bpc;
    for (int k = 0; k < VG_ADM_NB_SCALES; k++)
        for (int z = 0; z < 2; z++)
            for (int i = 0; i < dwt[k].h; i++)
                for (int j = 0; j < dwt[k].w; j++) {
                    if (k == 0 && c->bpc == 8)
                        vg_adm_dwt_elem<1, uint8_t>(&dwt[k], z, i, j);
                    else if (k == 0)
                        vg_adm_dwt_elem<1, uint16_t>(&dwt[k], z, i, j);
                    else if (k == 1)
                        vg_adm_dwt_elem<0, int16_t>(&dwt[k], z, i, j);
                    else
                        vg_adm_dwt_elem<0, int32_t>(&dwt[k], z, i, j);
                }

    /* vg_adm_dcm: per tile, step 1 for every thread, step 2 for every
     * ring position, step 3 for every thread (the block's barrier between
     * steps 2 and 3); each warp's sums added to its row's sums in p->rows;
     * then every row rounded, per scale, as the last tile of each tile row
     * does. The tile memory starts as garbage, like shared memory. */
    int64_t *rows = (int64_t *)(uintptr_t)par.rows;
    std::vector<VgAdmTileMem> tmem(1);
    std::vector<int64_t> acc((size_t)VG_ADM_CM_THREADS * 9);
    for (int t = 0; t < par.n_cm_tiles; t++) {
        const VgAdmTile tl = vg_adm_tile(&par, t);
        const VgAdmGeo *g = &par.g[tl.s];
        VgAdmTileMem *m = tmem.data();

        memset((void *)m, 0xa5, sizeof(*m));
        std::fill(acc.begin(), acc.end(), 0);
        for (int tid = 0; tid < VG_ADM_CM_THREADS; tid++)
            vg_adm_tile_centre(&par, &tl, tid >> 5, tid & 31, m,
                               &acc[(size_t)tid * 9]);
        for (int k = 0; k < vg_adm_tile_ring_n(&tl); k++)
            vg_adm_tile_ring(&par, &tl, k, m);
        for (int tid = 0; tid < VG_ADM_CM_THREADS; tid++)
            vg_adm_tile_cm(&par, &tl, tid >> 5, tid & 31, m,
                           &acc[(size_t)tid * 9]);
        for (int tid = 0; tid < VG_ADM_CM_THREADS; tid++) {
            const int w = tid >> 5;
            if (w >= tl.nr)
                continue;
            int64_t *row = rows + (size_t)(g->row0 + tl.i0 - g->ct + w) * 9;
            for (int k = 0; k < 9; k++)
                row[k] = (int64_t)((uint64_t)row[k] +
                                   (uint64_t)acc[(size_t)tid * 9 + k]);
        }
    }
    memset(tot, 0, sizeof(tot));
    for (int s = par.s_first; s < VG_ADM_CUDA_SCALES; s++) {
        const VgAdmGeo *g = &par.g[s];
        for (int r = 0; r < g->cb - g->ct; r++) {
            int64_t *row = rows + (size_t)(g->row0 + r) * 9;
            vg_adm_round_row(&par, s, row, tot[s]);
            memset(row, 0, 9 * sizeof(*row));
        }
    }
    /* what the kernel leaves for the next frame */
    for (int r = 0; r < par.n_rows * 9; r++)
        if (rows[r])
            abort();
    /* every tile belongs to one tile row of its scale */
    for (int s = par.s_first; s < VG_ADM_CUDA_SCALES; s++) {
        const VgAdmGeo *g = &par.g[s];
        const int trows = (g->cb - g->ct + VG_ADM_CM_TH - 1) / VG_ADM_CM_TH;
        const int next =
            s + 1 < VG_ADM_CUDA_SCALES ? par.g[s + 1].cm_tile0 : par.n_cm_tiles;
        if (next - g->cm_tile0 != trows * g->cm_tiles_x ||
            (s + 1 < VG_ADM_CUDA_SCALES ? par.g[s + 1].cm_trow0
                                        : par.n_cm_trows) -
                    g->cm_trow0 !=
                trows)
            abort();
    }
    int64_t *flat = &res.num[0][0];
    for (int s = 0; s < VG_ADM_CUDA_SCALES; s++)
        for (int k = 0; k < 9; k++)
            flat[(k / 3) * VG_ADM_CUDA_SCALES * 3 + s * 3 + k % 3] = tot[s][k];

    /* gpu/adm.c adm_cuda_collect() */
    float num_s[4], den_s[4], aim_s[4] = { 0, 0, 0, 0 };
    for (int k = 0; k < VG_ADM_NB_SCALES; k++) {
        uint64_t den[3];
        if (k < par.s_first) {
            num_s[k] = 0.0f;
            den_s[k] = 1e-10f;
            continue;
        }
        for (int b = 0; b < 3; b++)
            den[b] = (uint64_t)res.den[k][b];
        den_s[k] = vg_adm_den_score(&sc[k], &fac, k, den, c->o.noise_weight);
        num_s[k] = vg_adm_cm_score(&sc[k], k, res.num[k], c->o.noise_weight);
        if (par.aim)
            aim_s[k] = vg_adm_cm_score(&sc[k], k, res.aim[k], 0.0);
    }
    /* the values vg_adm_finish() emits */
    double num = 0, den = 0, aim_num = 0;
    for (int k = 0; k < 4; k++) {
        num += num_s[k];
        den += den_s[k];
        aim_num += aim_s[k];
        out[k] = num_s[k];
        out[4 + k] = den_s[k];
        out[8 + k] = (double)num_s[k] / (double)den_s[k];
    }
    const double limit = 1e-10 * (double)(c->w * c->h) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    out[12] = num;
    out[13] = den;
    out[14] = den == 0.0 ? 1.0 : num / den;
    out[15] = den == 0.0 ? 0.0 : aim_num / den;
}

int main(int argc, char **argv)
{
    const int quick = argc > 1 && !strcmp(argv[1], "--quick");
    static const unsigned depths[] = { 8, 10, 12, 16, 9, 11 };
    static const struct {
        unsigned w, h;
    } sizes[] = {
        { 33, 33 },   { 34, 35 },   { 37, 41 },     { 40, 36 },
        { 64, 36 },   { 80, 48 },   { 127, 65 },    { 257, 131 },
        { 320, 180 }, { 577, 323 }, { 1920, 1080 },
    };
    struct {
        const char *s;
        double egl, nvd;
        int csf, ssz, skip_aim;
    } optset[] = {
        { "", 100.0, 3.0, 0, 0, 0 },
        { "adm_enhn_gain_limit=1", 1.0, 3.0, 0, 0, 0 },
        { "adm_norm_view_dist=4", 100.0, 4.0, 0, 0, 0 },
        { "adm_csf_mode=1", 100.0, 3.0, 1, 0, 0 },
        { "adm_skip_scale0=true", 100.0, 3.0, 0, 1, 0 },
        { "adm_skip_aim=true", 100.0, 3.0, 0, 0, 1 },
    };
    uint64_t seed = 0x1234abcd5678ef01ull;
    unsigned pass = 0, fail = 0, n = 0;

    /* the reciprocal computed on the fly is the table's */
    const int32_t *div = vg_adm_div_lookup();
    for (int i = -32768; i <= 32768; i++)
        if (i && vg_adm_recip(i) != div[32768 + i]) {
            printf("adm_host: reciprocal of %d: %d, table %d\n", i,
                   vg_adm_recip(i), div[32768 + i]);
            return 1;
        }

    for (unsigned zi = 0; zi < sizeof(sizes) / sizeof(sizes[0]); zi++) {
        if (quick && sizes[zi].w > 600)
            continue;
        for (unsigned d = 0; d < 6; d++) {
            for (int pat = 0; pat < PAT_NB; pat++) {
                /* 9 and 11 bits: two patterns per size */
                if (d >= 4 && (pat + zi) % 3)
                    continue;
                /* large sizes: fewer combinations */
                if (sizes[zi].w >= 1920 && (pat + d) % 3)
                    continue;
                Case c = {};
                c.w = sizes[zi].w;
                c.h = sizes[zi].h;
                c.bpc = depths[d];
                c.pat = pat;
                const unsigned oi = (zi + d + (unsigned)pat) % 6;
                c.opts = optset[oi].s;
                c.o.csf_scale = 1.0;
                c.o.csf_diag_scale = 1.0;
                c.o.dlm_weight = 0.5;
                c.o.enhn_gain_limit = optset[oi].egl;
                c.o.norm_view_dist = optset[oi].nvd;
                c.o.ref_display_height = 1080;
                c.o.csf_mode = optset[oi].csf;
                c.o.noise_weight = 0.03125;
                c.o.skip_aim = optset[oi].skip_aim;
                c.o.skip_scale0 = optset[oi].ssz;
                c.seed = rnd(&seed);
                uint64_t s = c.seed;
                Luma ref, dis;
                make_luma(&c, &ref, &dis, &s);

                double want[N_BASES], got[N_BASES];
                int have[N_BASES], bad = 0, nh = 0;
                n++;
                if (cpu_scores(&c, &ref, &dis, want, have) < 0) {
                    printf("FAIL: CPU ADM failed\n");
                    bad = 1;
                } else {
                    gpu_emulated(&c, &ref, &dis, got);
                    for (unsigned b = 0; b < N_BASES; b++) {
                        if (!have[b])
                            continue;
                        nh++;
                        /* aim is not written by the CPU path when skipped */
                        if (memcmp(&want[b], &got[b], sizeof(double))) {
                            printf("FAIL: %s: CPU %.17g, kernels %.17g\n",
                                   bases[b], want[b], got[b]);
                            bad = 1;
                        }
                    }
                    if (nh < 15) {
                        printf("FAIL: only %d ADM outputs found\n", nh);
                        bad = 1;
                    }
                }
                if (bad) {
                    printf("  case %ux%u %u-bit %s opts '%s' seed %" PRIu64
                           "\n",
                           c.w, c.h, c.bpc, pat_name[pat], c.opts, c.seed);
                    fail++;
                } else {
                    pass++;
                }
            }
        }
        printf("adm_host: %ux%u: %u passed, %u failed\n", sizes[zi].w,
               sizes[zi].h, pass, fail);
        fflush(stdout);
    }
    printf("adm_host: %u cases, %u passed, %u failed\n", n, pass, fail);
    return fail || !pass ? 1 : 0;
}
