/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The public API: argument checks (every refusal is logged), feature and
 * model registration, backend choice, incremental post-processing and model
 * prediction, pooling and logs. Backends trust what reaches them.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "common/context.h"
#include "common/framestore.h"
#include "common/opt.h"
#include "common/report/output.h"
#include "common/picture.h"
#include "common/pool.h"

/* user-facing names of the public enums */
static const char *kind_name(enum VgBackend b)
{
    return b == VG_BACKEND_CPU ? "CPU" : b == VG_BACKEND_CUDA ? "CUDA" : "auto";
}

/* the value of the backend option as users type it ("cpu") */
static const char *kind_option(enum VgBackend b, char buf[8])
{
    const char *n = kind_name(b);
    unsigned i = 0;

    for (; n[i] && i < 7; i++)
        buf[i] = (char)(n[i] >= 'A' && n[i] <= 'Z' ? n[i] - 'A' + 'a' : n[i]);
    buf[i] = 0;
    return buf;
}

static const char *memory_name(enum VgMemory m)
{
    return m == VG_MEMORY_HOST ? "host" : "CUDA";
}

static const VgBackendOps *find_backend(enum VgBackend kind)
{
    for (unsigned i = 0; vg_backends[i]; i++)
        if (vg_backends[i]->kind == kind)
            return vg_backends[i];
    return NULL;
}

/* The header promises one logged line for every refusal, a NULL argument
 * included: through the context's callback, or on stderr without one. */
static int null_argument(VgContext *ctx, const char *func)
{
    vg_log(ctx ? &ctx->log : NULL, VG_LOG_ERROR, "%s(): NULL argument", func);
    return -EINVAL;
}

static double vg_now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * A ladder's renditions: a pair context each, with the ladder's settings
 * and a share of its threads (each rendition works on every frame).
 */
static int create_renditions(VgContext *ctx)
{
    const unsigned n = ctx->cfg.n_distorted, threads = ctx->cfg.n_threads;

    for (unsigned r = 0; r < n; r++) {
        VgConfig cfg = ctx->cfg;
        VgContext *rend;
        int ret;

        cfg.n_distorted = 0;
        if (threads) {
            cfg.n_threads = threads / n + (r < threads % n);
            if (!cfg.n_threads)
                cfg.n_threads = 1;
        }
        if ((ret = vg_context_create(&rend, &cfg)) < 0)
            return ret;
        rend->ladder = ctx;
        rend->rend_index = r;
        ctx->rend[ctx->n_rend++] = rend;
    }
    return 0;
}

static int rendition_refuse(VgContext *ctx, const char *func)
{
    vg_log(&ctx->log, VG_LOG_ERROR,
           "%s: rendition %u of a ladder takes its frames, models, "
           "features and flushes from the ladder",
           func, ctx->rend_index);
    return -EINVAL;
}

int vg_ladder_refuse(VgContext *ctx, const char *func)
{
    vg_log(&ctx->log, VG_LOG_ERROR,
           "%s(): a ladder of %u renditions has no results of its own: "
           "read those of rendition r from vg_rendition(ctx, r)",
           func, ctx->n_rend);
    return -EINVAL;
}

int vg_context_create(VgContext **pctx, const VgConfig *cfg)
{
    VgContext *ctx;
    int ret;

    if (!pctx || !cfg)
        return null_argument(NULL, "vg_context_create");
    *pctx = NULL;
    ctx = calloc(1, sizeof(*ctx));
    if (!ctx) {
        vg_log(NULL, VG_LOG_ERROR, "vg_context_create(): out of memory");
        return -ENOMEM;
    }
    ctx->cfg = *cfg;
    vg_log_init(&ctx->log, cfg->log_cb, cfg->log_opaque, cfg->log_level);
    if (!ctx->cfg.n_subsample)
        ctx->cfg.n_subsample = 1;
    if ((unsigned)cfg->backend > VG_BACKEND_CUDA) {
        vg_log(&ctx->log, VG_LOG_ERROR, "unknown backend %d",
               (int)cfg->backend);
        ret = -EINVAL;
        goto fail;
    }
    if ((unsigned)cfg->scale >= VG_SCALE_NB) {
        vg_log(&ctx->log, VG_LOG_ERROR, "unknown scaling algorithm %d",
               (int)cfg->scale);
        ret = -EINVAL;
        goto fail;
    }
    if (cfg->n_threads > VG_MAX_THREADS) {
        vg_log(&ctx->log, VG_LOG_ERROR, "%u threads requested; at most %d",
               cfg->n_threads, VG_MAX_THREADS);
        ret = -EINVAL;
        goto fail;
    }
    if (cfg->n_distorted > VG_MAX_RENDITIONS) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "n_distorted=%u: a ladder scores at most %d renditions",
               cfg->n_distorted, VG_MAX_RENDITIONS);
        ret = -EINVAL;
        goto fail;
    }
    if (cfg->backend != VG_BACKEND_AUTO) {
        const VgBackendOps *ops = find_backend(cfg->backend);
        char typed[8];
        if (!ops) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "backend=%s: this build of "
                   "libvmafgpu has no %s backend",
                   kind_option(cfg->backend, typed), kind_name(cfg->backend));
            ret = -ENODEV;
            goto fail;
        }
        if ((ret = ops->usable(&ctx->cfg, &ctx->log)) < 0) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "backend=%s: no usable %s device "
                   "(see the messages above)",
                   ops->name, kind_name(ops->kind));
            ret = -ENODEV;
            goto fail;
        }
    }
    if ((ret = vg_collector_create(&ctx->collector)) < 0 ||
        (ret = vg_collector_create(&ctx->scratch)) < 0) {
        vg_collector_destroy(&ctx->collector);
        goto fail;
    }
    if (cfg->n_distorted >= 2 && (ret = create_renditions(ctx)) < 0) {
        vg_context_destroy(&ctx);
        return ret;
    }
    *pctx = ctx;
    return 0;
fail:
    vg_log_uninit(&ctx->log);
    free(ctx);
    return ret;
}

static int output_used(const VgFeatureDesc *d, const void *opts, unsigned out)
{
    if (d->outputs_used)
        return d->outputs_used(opts, out);
    if (VG_OUTPUT_IS_INTERNAL(d, out))
        return 1;
    if (d->outputs[out].debug_only & VG_OUTPUT_DEBUG) {
        for (const VgFeatureOption *o = d->options; o && o->name; o++)
            if (!strcmp(o->name, "debug"))
                return vg_opt_value(o, opts) != 0.0;
        return 0;
    }
    return 1;
}

/* Register a feature instance, or find the same one (libvmaf's dedupe:
 * extractor name + non-default feature params). @return its index. */
static int add_instance(VgContext *ctx, const VgFeatureDesc *desc,
                        const VgOptDict *dict)
{
    char want[512], have[512];
    VgFeatureInst *inst;
    void *opts;
    unsigned n_out = 0;
    int ret;

    opts = calloc(1, desc->opts_size ? desc->opts_size : 1);
    if (!opts)
        return -ENOMEM;
    if ((ret = vg_opt_apply(desc, dict, opts, &ctx->log)) < 0)
        goto fail;
    if ((ret = vg_opt_param_string(desc, opts, want, sizeof(want))) < 0)
        goto fail;
    for (unsigned i = 0; i < ctx->n_feats; i++) {
        if (ctx->feats[i].desc != desc)
            continue;
        if (vg_opt_param_string(desc, ctx->feats[i].opts, have, sizeof(have)) <
            0)
            continue;
        if (!strcmp(want, have)) {
            free(opts);
            return (int)i;
        }
    }
    if (ctx->n_feats == VG_MAX_FEATURES) {
        vg_log(&ctx->log, VG_LOG_ERROR, "too many features (at most %d)",
               VG_MAX_FEATURES);
        ret = -E2BIG;
        goto fail;
    }
    while (desc->outputs[n_out].name)
        n_out++;
    inst = &ctx->feats[ctx->n_feats];
    inst->keys = malloc(sizeof(*inst->keys) * (n_out ? n_out : 1));
    if (!inst->keys) {
        ret = -ENOMEM;
        goto fail;
    }
    for (unsigned o = 0; o < n_out; o++) {
        char name[256];
        inst->keys[o] = -1;
        if (!output_used(desc, opts, o))
            continue;
        if ((ret = vg_opt_key_name(desc, o, opts, name, sizeof(name))) < 0 ||
            (ret = vg_collector_key(
                 VG_OUTPUT_IS_INTERNAL(desc, o) ? ctx->scratch : ctx->collector,
                 name)) < 0) {
            free(inst->keys);
            inst->keys = NULL;
            goto fail;
        }
        inst->keys[o] = ret;
    }
    if (desc->frame_record_size &&
        (ret = vg_framestore_create(&inst->store, desc->frame_record_size)) <
            0) {
        free(inst->keys);
        inst->keys = NULL;
        goto fail;
    }
    inst->desc = desc;
    inst->opts = opts;
    return (int)ctx->n_feats++;
fail:
    free(opts);
    return ret;
}

/* remember a vg_use_model() / vg_use_feature() call (common/report/chunk.c) */
static int record_use(VgContext *ctx, int is_model, const char *name,
                      const char *opts)
{
    const unsigned n = ctx->n_uses;

    if (n >= sizeof(ctx->uses) / sizeof(ctx->uses[0])) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "more than %u vg_use_model() and "
               "vg_use_feature() calls",
               n);
        return -E2BIG;
    }
    ctx->uses[n].is_model = is_model;
    ctx->uses[n].name = strdup(name);
    ctx->uses[n].opts = opts ? strdup(opts) : NULL;
    if (!ctx->uses[n].name || (opts && !ctx->uses[n].opts)) {
        free(ctx->uses[n].name);
        free(ctx->uses[n].opts);
        return -ENOMEM;
    }
    ctx->n_uses++;
    return 0;
}

static int check_not_started(VgContext *ctx, const char *what)
{
    if (ctx->started) {
        vg_log(&ctx->log, VG_LOG_ERROR, "%s after the first frame", what);
        return -EINVAL;
    }
    return 0;
}

static int use_feature(VgContext *ctx, const char *name, const char *opts)
{
    const VgFeatureDesc *desc;
    VgOptDict dict = { 0 };
    int ret;

    if ((ret = check_not_started(ctx, "vg_use_feature()")) < 0)
        return ret;
    desc = vg_feature_find(name);
    if (!desc) {
        char known[256] = "";
        size_t len = 0;
        for (unsigned i = 0; vg_features[i]; i++)
            len += snprintf(known + len,
                            len < sizeof(known) ? sizeof(known) - len : 0,
                            "%s%s", i ? ", " : "", vg_features[i]->name);
        vg_log(&ctx->log, VG_LOG_ERROR, "unknown feature '%s' (known: %s)",
               name, known);
        return -EINVAL;
    }
    if (opts && (ret = vg_opt_dict_parse(&dict, opts, ':', &ctx->log)) < 0)
        goto end;
    ret = add_instance(ctx, desc, &dict);
    if (ret >= 0)
        ret = record_use(ctx, 0, name, opts);
end:
    vg_opt_dict_free(&dict);
    return ret;
}

static int use_model(VgContext *ctx, const char *spec);

/* A model (is_model, name its spec) or a feature for a pair context, or
 * for every rendition of a ladder. */
static int use(VgContext *ctx, const char *func, int is_model, const char *name,
               const char *opts)
{
    const unsigned n = ctx->n_rend ? ctx->n_rend : 1;
    int ret;

    if (ctx->ladder)
        return rendition_refuse(ctx, func);
    if ((ret = check_not_started(ctx, func)) < 0)
        return ret;
    for (unsigned r = 0; r < n; r++) {
        VgContext *c = ctx->n_rend ? ctx->rend[r] : ctx;
        if ((ret = is_model ? use_model(c, name) : use_feature(c, name, opts)) <
            0)
            return ret;
    }
    return 0;
}

int vg_use_feature(VgContext *ctx, const char *name, const char *opts)
{
    if (!ctx || !name)
        return null_argument(ctx, "vg_use_feature");
    return use(ctx, "vg_use_feature()", 0, name, opts);
}

/* Model names have no length limit: a key cut short would collide with
 * another output of the model (_ci_p95_lo and _ci_p95_hi) or miss its
 * name. */
static int model_key(VgContext *ctx, const char *name, const char *suffix)
{
    size_t len = strlen(name) + strlen(suffix) + 1;
    char *buf = malloc(len);
    int ret;

    if (!buf)
        return -ENOMEM;
    snprintf(buf, len, "%s%s", name, suffix);
    ret = vg_collector_key(ctx->collector, buf);
    free(buf);
    return ret;
}

static int use_model(VgContext *ctx, const char *spec)
{
    const VgModelInfo *info;
    VgModelSlot *slot;
    int ret;

    if ((ret = check_not_started(ctx, "vg_use_model()")) < 0)
        return ret;
    if (ctx->n_models == VG_MAX_MODELS) {
        vg_log(&ctx->log, VG_LOG_ERROR, "too many models (at most %d)",
               VG_MAX_MODELS);
        return -E2BIG;
    }
    slot = &ctx->models[ctx->n_models];
    memset(slot, 0, sizeof(*slot));
    if ((ret = vg_model_load(&slot->model, spec, &ctx->log)) < 0)
        return ret;
    info = vg_model_info(slot->model);
    for (unsigned i = 0; i < ctx->n_models; i++) {
        if (!strcmp(vg_model_info(ctx->models[i].model)->name, info->name)) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "two models are named '%s'; give "
                   "one another name with name=",
                   info->name);
            ret = -EINVAL;
            goto fail;
        }
    }
    slot->feat_keys =
        malloc(sizeof(int) * (info->n_features ? info->n_features : 1));
    if (!slot->feat_keys) {
        ret = -ENOMEM;
        goto fail;
    }
    for (unsigned i = 0; i < info->n_features; i++) {
        const VgModelFeature *mf = &info->features[i];
        int idx = add_instance(ctx, mf->desc, &mf->opts);
        if (idx < 0) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "model '%s': cannot set up feature "
                   "'%s'",
                   info->name, mf->desc->name);
            ret = idx;
            goto fail;
        }
        slot->feat_keys[i] = ctx->feats[idx].keys[mf->output];
        if (slot->feat_keys[i] < 0) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "model '%s': feature output %s is "
                   "not computed with these options",
                   info->name, mf->desc->outputs[mf->output].name);
            ret = -EINVAL;
            goto fail;
        }
    }
    if ((slot->key = model_key(ctx, info->name, "")) < 0) {
        ret = slot->key;
        goto fail;
    }
    if (info->is_collection) {
        for (unsigned m = 0; m < info->n_members && m < 32; m++) {
            char suffix[16];
            snprintf(suffix, sizeof(suffix), "_%04u", m + 1);
            if ((slot->member_keys[m] = model_key(ctx, info->name, suffix)) <
                0) {
                ret = slot->member_keys[m];
                goto fail;
            }
        }
        if ((slot->bagging_key = model_key(ctx, info->name, "_bagging")) < 0 ||
            (slot->stddev_key = model_key(ctx, info->name, "_stddev")) < 0 ||
            (slot->lo_key = model_key(ctx, info->name, "_ci_p95_lo")) < 0 ||
            (slot->hi_key = model_key(ctx, info->name, "_ci_p95_hi")) < 0) {
            ret = -ENOMEM;
            goto fail;
        }
    }
    ctx->n_models++;
    if ((ret = record_use(ctx, 1, spec, NULL)) < 0) {
        ctx->n_models--;
        goto fail;
    }
    return 0;
fail:
    free(slot->feat_keys);
    slot->feat_keys = NULL;
    vg_model_free(&slot->model);
    return ret;
}

int vg_use_model(VgContext *ctx, const char *spec)
{
    if (!ctx || !spec)
        return null_argument(ctx, "vg_use_model");
    return use(ctx, "vg_use_model()", 1, spec, NULL);
}

static const char *fmt_name(enum VgPixFmt fmt)
{
    static const char *const names[] = {
        "yuv420p", "yuv422p", "yuv444p", "gray", "nv12",
        "p010",    "p016",    "nv16",    "p216", "yuv444p_msb",
    };
    return (unsigned)fmt < sizeof(names) / sizeof(names[0]) ? names[fmt] : "?";
}

static int check_picture(VgContext *ctx, const VgPicture *pic,
                         const char *which)
{
    const unsigned bps = pic->bitdepth > 8 ? 2 : 1;
    unsigned planes;

    if ((unsigned)pic->fmt > VG_PIX_FMT_YUV444P_MSB) {
        vg_log(&ctx->log, VG_LOG_ERROR, "%s picture: unknown pixel format %d",
               which, (int)pic->fmt);
        return -EINVAL;
    }
    if (!pic->width || !pic->height || pic->width > 32768 ||
        pic->height > 32768) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "%s picture: size %ux%u is out of "
               "range (1..32768)",
               which, pic->width, pic->height);
        return -EINVAL;
    }
    if (pic->bitdepth < 8 || pic->bitdepth > 16) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "%s picture: bit depth %u is out of "
               "range (8..16)",
               which, pic->bitdepth);
        return -EINVAL;
    }
    if (((pic->fmt == VG_PIX_FMT_NV12 || pic->fmt == VG_PIX_FMT_NV16) &&
         pic->bitdepth != 8) ||
        (pic->fmt == VG_PIX_FMT_P010 && pic->bitdepth != 10) ||
        ((pic->fmt == VG_PIX_FMT_P016 || pic->fmt == VG_PIX_FMT_P216 ||
          pic->fmt == VG_PIX_FMT_YUV444P_MSB) &&
         pic->bitdepth < 9)) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "%s picture: %s cannot hold %u-bit "
               "samples",
               which, fmt_name(pic->fmt), pic->bitdepth);
        return -EINVAL;
    }
    if (pic->memory != VG_MEMORY_HOST && pic->memory != VG_MEMORY_CUDA) {
        vg_log(&ctx->log, VG_LOG_ERROR, "%s picture: unknown memory type %d",
               which, (int)pic->memory);
        return -EINVAL;
    }
    planes = pic->fmt == VG_PIX_FMT_YUV400P       ? 1
             : vg_pix_fmt_is_semiplanar(pic->fmt) ? 2
                                                  : 3;
    for (unsigned p = 0; p < planes; p++) {
        unsigned ssx = 0, ssy = 0, w;
        if (p)
            vg_layout_shifts(vg_pix_fmt_layout(pic->fmt), &ssx, &ssy);
        w = p && vg_pix_fmt_is_semiplanar(pic->fmt) ? 2 * (pic->width >> 1)
                                                    : pic->width >> ssx;
        if (!pic->data[p]) {
            vg_log(&ctx->log, VG_LOG_ERROR, "%s picture: plane %u is NULL",
                   which, p);
            return -EINVAL;
        }
        if (pic->stride[p] < (ptrdiff_t)w * (ptrdiff_t)bps) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "%s picture: plane %u stride %td "
                   "is smaller than its row (%u bytes)",
                   which, p, pic->stride[p], w * bps);
            return -EINVAL;
        }
    }
    return 0;
}

static int same_geometry(VgContext *ctx, const VgPicture *a, const char *an,
                         const VgPicture *b, const char *bn)
{
    if (a->fmt != b->fmt || a->width != b->width || a->height != b->height ||
        a->bitdepth != b->bitdepth || a->memory != b->memory) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "%s picture is %ux%u %s %u-bit in %s "
               "memory but %s picture is %ux%u %s %u-bit in %s memory",
               an, a->width, a->height, fmt_name(a->fmt), a->bitdepth,
               memory_name(a->memory), bn, b->width, b->height,
               fmt_name(b->fmt), b->bitdepth, memory_name(b->memory));
        return -EINVAL;
    }
    return 0;
}

/* a distorted picture of another size than the reference, to scale */
static int is_scaled(const VgPicture *ref, const VgPicture *dis)
{
    return dis->width != ref->width || dis->height != ref->height;
}

/*
 * The distorted picture against the reference: the same geometry, or with
 * a scaling algorithm the same format, depth and memory and a size of its
 * own, which must then stay that of the first distorted picture.
 */
static int check_pair(VgContext *ctx, const VgPicture *ref,
                      const VgPicture *dis)
{
    const VgEngineParams *p = &ctx->params;
    const unsigned bps = dis->bitdepth > 8 ? 2 : 1;
    const int sp = vg_pix_fmt_is_semiplanar(dis->fmt);
    unsigned ssx, ssy;

    if (!ctx->cfg.scale || dis->fmt != ref->fmt ||
        dis->bitdepth != ref->bitdepth || dis->memory != ref->memory)
        return same_geometry(ctx, ref, "reference", dis, "distorted");
    /* a picture to scale is read with ceil-sized chroma, as libswscale
     * reads it: its rows must hold them */
    vg_layout_shifts(vg_pix_fmt_layout(dis->fmt), &ssx, &ssy);
    for (unsigned i = 1;
         is_scaled(ref, dis) && i < (dis->fmt == VG_PIX_FMT_YUV400P ? 1u
                                     : sp                           ? 2u
                                                                    : 3u);
         i++) {
        const unsigned cw = (dis->width + (1u << ssx) - 1) >> ssx;
        const size_t row = (size_t)cw * (sp ? 2 : 1) * bps;

        if (dis->stride[i] < (ptrdiff_t)row) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "distorted picture: plane %u "
                   "stride %td is smaller than its row (%zu bytes: %u "
                   "ceil-sized chroma samples, as the scaling reads them)",
                   i, dis->stride[i], row, cw);
            return -EINVAL;
        }
    }
    if (ctx->started &&
        (dis->width != p->dis_width || dis->height != p->dis_height)) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "distorted picture is %ux%u but the "
               "first one was %ux%u: scale=%s takes one distorted size per "
               "stream",
               dis->width, dis->height, p->dis_width, p->dis_height,
               vg_scale_name(ctx->cfg.scale));
        return -EINVAL;
    }
    return 0;
}

static int reads(const VgBackendOps *ops, enum VgMemory memory)
{
    return !!(ops->memories & (1u << memory));
}

/*
 * backend=cpu/cuda: that backend. backend=auto: the first backend of the
 * build's preference list that reads the pictures' memory and is usable
 * here; when none is usable, the first that reads that memory, so that
 * its open() says why it cannot run.
 */
static int choose_backend(VgContext *ctx, enum VgMemory memory)
{
    enum VgBackend b = ctx->cfg.backend;
    const VgBackendOps *ops = NULL;

    if (b != VG_BACKEND_AUTO) {
        ops = find_backend(b);
        if (ops->usable(&ctx->cfg, &ctx->log) < 0) {
            vg_log(&ctx->log, VG_LOG_ERROR, "backend=%s: no usable %s device",
                   ops->name, kind_name(ops->kind));
            return -ENODEV;
        }
    } else {
        const VgBackendOps *passed = NULL;

        for (unsigned i = 0; vg_backends[i]; i++) {
            if (!reads(vg_backends[i], memory))
                continue;
            if (vg_backends[i]->usable(&ctx->cfg, &ctx->log) >= 0) {
                ops = vg_backends[i];
                break;
            }
            if (!passed)
                passed = vg_backends[i];
        }
        if (!ops)
            ops = passed;
        if (!ops) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "pictures are in %s memory, which "
                   "no backend of this build can read",
                   memory_name(memory));
            return -ENOTSUP;
        }
        if (passed && passed != ops)
            vg_log(&ctx->log, VG_LOG_INFO,
                   "backend=auto: using the %s "
                   "backend (no usable %s device here)",
                   ops->name, passed->name);
        else
            vg_log(&ctx->log, VG_LOG_INFO,
                   "backend=auto: using the %s "
                   "backend",
                   ops->name);
    }
    if (!reads(ops, memory)) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "pictures are in %s memory, which the "
               "%s backend cannot read",
               memory_name(memory), kind_name(ops->kind));
        return -ENOTSUP;
    }
    ctx->ops = ops;
    return 0;
}

static int set_params(VgContext *ctx, enum VgPixFmt fmt, unsigned width,
                      unsigned height, unsigned dis_width, unsigned dis_height,
                      unsigned bpc, enum VgMemory memory);
static int progress(VgContext *ctx, int final);

static int start(VgContext *ctx, const VgPicture *pic, const VgPicture *dis)
{
    VgEngineParams *p = &ctx->params;
    int ret;

    for (unsigned i = 0; i < ctx->n_feats; i++) {
        const VgFeatureDesc *d = ctx->feats[i].desc;
        unsigned mw = d->min_width ? d->min_width : 1;
        unsigned mh = d->min_height ? d->min_height : 1;
        if (pic->width < mw || pic->height < mh) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "feature '%s' needs pictures of at "
                   "least %ux%u, got %ux%u",
                   d->name, mw, mh, pic->width, pic->height);
            return -EINVAL;
        }
        if (d->bit_depths && !(d->bit_depths >> pic->bitdepth & 1)) {
            char list[64] = "";
            size_t len = 0;
            for (unsigned b = 1; b < 32; b++)
                if (d->bit_depths >> b & 1)
                    len += snprintf(list + len, sizeof(list) - len, "%s%u",
                                    len ? ", " : "", b);
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "feature '%s' does not take %u-bit "
                   "pictures (bit depths: %s)",
                   d->name, pic->bitdepth, list);
            return -EINVAL;
        }
    }
    if (!ctx->n_feats) {
        vg_log(&ctx->log, VG_LOG_ERROR, "no model and no feature to compute");
        return -EINVAL;
    }
    if ((ret = choose_backend(ctx, pic->memory)) < 0)
        return ret;
    if ((ret = set_params(ctx, pic->fmt, pic->width, pic->height, dis->width,
                          dis->height, pic->bitdepth, pic->memory)) < 0)
        return ret;
    if ((ret = ctx->ops->open(&ctx->engine, p)) < 0)
        return ret;
    ctx->started = 1;
    ctx->t_start = vg_now_s();
    return 0;
}

/* The engine parameters of pictures of this geometry, and the post-
 * processing states. */
static int set_params(VgContext *ctx, enum VgPixFmt fmt, unsigned width,
                      unsigned height, unsigned dis_width, unsigned dis_height,
                      unsigned bpc, enum VgMemory memory)
{
    VgEngineParams *p = &ctx->params;

    p->cfg = &ctx->cfg;
    p->log = &ctx->log;
    p->collector = ctx->collector;
    p->scratch = ctx->scratch;
    p->feats = ctx->feats;
    p->n_feats = ctx->n_feats;
    if (ctx->source) {
        /* the engine computes what rendition 0 does not compute for it */
        p->feats = ctx->engine_feats;
        p->n_feats = 0;
        for (unsigned i = 0; i < ctx->n_feats; i++)
            if (!ctx->borrowed[i])
                ctx->engine_feats[p->n_feats++] = ctx->feats[i];
    }
    p->width = width;
    p->height = height;
    p->dis_width = dis_width;
    p->dis_height = dis_height;
    p->bpc = bpc;
    p->layout = vg_pix_fmt_layout(fmt);
    p->fmt = fmt;
    p->memory = memory;
    p->n_renditions = ctx->ladder ? ctx->ladder->n_rend : 0;
    p->rendition = ctx->ladder ? ctx->rend_index : 0;

    for (unsigned i = 0; i < ctx->n_feats; i++) {
        const VgFeatureDesc *d = ctx->feats[i].desc;
        VgFeatureCtx *fc = &ctx->post[i];

        vg_feature_ctx_fill(fc, p, &ctx->feats[i]);
        fc->sinks = NULL; /* each rendition's post step writes its own */
        fc->n_sinks = 0;
        if (d->post && !fc->priv &&
            !(fc->priv = calloc(1, d->post_priv_size ? d->post_priv_size : 1)))
            return -ENOMEM;
    }
    return 0;
}

int vg_context_start_imported(VgContext *ctx, enum VgPixFmt fmt, unsigned width,
                              unsigned height, unsigned dis_width,
                              unsigned dis_height, unsigned bpc)
{
    int ret;

    if ((ret = check_not_started(ctx, "an import")) < 0)
        return ret;
    if (!ctx->n_feats) {
        vg_log(&ctx->log, VG_LOG_ERROR, "no model and no feature to compute");
        return -EINVAL;
    }
    if ((ret = set_params(ctx, fmt, width, height, dis_width, dis_height, bpc,
                          VG_MEMORY_HOST)) < 0)
        return ret;
    ctx->started = 1;
    ctx->flushed = 1; /* no engine: nothing is submitted or flushed */
    return 0;
}

/* End the stream (again) at frame n_frames - 1: the post-processing and
 * the models run from frame 0 on fresh states and replace the values
 * they wrote before. */
static int refinish(VgContext *ctx, unsigned n_frames)
{
    int ret;

    ctx->n_frames = n_frames;
    ctx->n_scored = 0;
    if (ctx->n_complete > n_frames)
        ctx->n_complete = n_frames;
    for (unsigned i = 0; i < ctx->n_feats; i++) {
        const VgFeatureDesc *d = ctx->feats[i].desc;
        if (d->post && ctx->post[i].priv)
            memset(ctx->post[i].priv, 0,
                   d->post_priv_size ? d->post_priv_size : 1);
    }
    vg_collector_set_rewrite(ctx->collector, 1);
    ret = progress(ctx, 1);
    vg_collector_set_rewrite(ctx->collector, 0);
    if (ret < 0)
        ctx->error = ret;
    return ret;
}

int vg_context_finish_imported(VgContext *ctx, unsigned n_frames,
                               double seconds)
{
    int ret;

    /* the chunks' own post-processing wrote values for their last frames
     * as if the stream ended there: this run replaces them */
    if ((ret = refinish(ctx, n_frames)) < 0)
        return ret;
    ctx->t_start = 0;
    ctx->t_end = seconds;
    return 0;
}

/* One model's scores of frame i from its inputs x. */
static int predict_frame(VgContext *ctx, VgModelSlot *slot, unsigned i,
                         const double *x)
{
    const VgModelInfo *info = vg_model_info(slot->model);
    VgBootstrapScores bs;
    double score;
    int ret;

    if ((ret = vg_model_predict(slot->model, x, &score)) < 0 ||
        (ret = vg_collector_set(ctx->collector, slot->key, i, score)) < 0 ||
        !info->is_collection)
        return ret;
    if ((ret = vg_model_predict_bootstrap(slot->model, x, &bs)) < 0)
        return ret;
    for (unsigned k = 0; k < bs.n_members && k < 32; k++)
        if ((ret = vg_collector_set(ctx->collector, slot->member_keys[k], i,
                                    bs.member[k])) < 0)
            return ret;
    if ((ret = vg_collector_set(ctx->collector, slot->bagging_key, i,
                                bs.bagging)) < 0 ||
        (ret = vg_collector_set(ctx->collector, slot->stddev_key, i,
                                bs.stddev)) < 0 ||
        (ret = vg_collector_set(ctx->collector, slot->lo_key, i, bs.ci_lo)) < 0)
        return ret;
    return vg_collector_set(ctx->collector, slot->hi_key, i, bs.ci_hi);
}

/* Predict the models for frames whose inputs are all there, in order. */
static int score_models(VgContext *ctx, int final)
{
    const unsigned sub = ctx->cfg.n_subsample;
    double x[VG_MAX_MODELS][VG_MODEL_MAX_FEATURES];

    while (ctx->n_scored < ctx->n_frames) {
        const unsigned i = ctx->n_scored;

        if (i % sub) {
            ctx->n_scored++;
            continue;
        }
        /* every model's inputs first: a frame is scored for all or none */
        for (unsigned m = 0; m < ctx->n_models; m++) {
            VgModelSlot *slot = &ctx->models[m];
            const VgModelInfo *info = vg_model_info(slot->model);

            for (unsigned f = 0; f < info->n_features; f++) {
                int ret = vg_collector_get(ctx->collector, slot->feat_keys[f],
                                           i, &x[m][f]);
                if (ret == -EAGAIN && !final)
                    return 0;
                if (ret < 0) {
                    vg_log(
                        &ctx->log, VG_LOG_ERROR,
                        "model '%s': frame %u has no "
                        "value for %s",
                        info->name, i,
                        vg_collector_name(ctx->collector, slot->feat_keys[f]));
                    return ret;
                }
            }
        }
        for (unsigned m = 0; m < ctx->n_models; m++) {
            int ret = predict_frame(ctx, &ctx->models[m], i, x[m]);

            if (ret < 0) {
                vg_log(&ctx->log, VG_LOG_ERROR, "model '%s': frame %u: %s",
                       vg_model_info(ctx->models[m].model)->name, i,
                       ret == -EEXIST ? "a score is written twice"
                                      : strerror(-ret));
                return ret;
            }
        }
        ctx->n_scored++;
    }
    return 0;
}

static int progress(VgContext *ctx, int final)
{
    unsigned n_done;
    int ret;

    if (!ctx->started)
        return 0;
    n_done = final ? ctx->n_frames : ctx->ops->frames_ready(ctx->engine);
    if (ctx->source && !final) {
        /* the shared features' values come from rendition 0's engine */
        VgContext *src = ctx->source;
        unsigned n_src =
            src->flushed ? src->n_frames : src->ops->frames_ready(src->engine);
        if (n_done > n_src)
            n_done = n_src;
    }
    for (unsigned i = 0; i < ctx->n_feats; i++) {
        const VgFeatureDesc *d = ctx->feats[i].desc;
        if (d->post && (ret = d->post(&ctx->post[i], n_done, final)) < 0)
            return ret;
    }
    return score_models(ctx, final);
}

static int check_submit(VgContext *ctx, const char *func)
{
    if (ctx->error)
        return ctx->error;
    if (ctx->flushed) {
        vg_log(&ctx->log, VG_LOG_ERROR, "%s() after vg_flush()", func);
        return -EINVAL;
    }
    return 0;
}

/* Everything that can refuse a frame before any work is queued; the
 * reference's samples are checked with check_ref (a ladder checks them
 * once). */
static int check_frame(VgContext *ctx, const VgPicture *ref,
                       const VgPicture *dis, int check_ref)
{
    int ret;

    if ((ret = check_picture(ctx, ref, "reference")) < 0 ||
        (ret = check_picture(ctx, dis, "distorted")) < 0 ||
        (ret = check_pair(ctx, ref, dis)) < 0)
        return ret;
    if (ref->memory == VG_MEMORY_HOST &&
        ((check_ref &&
          (ret = vg_picture_check_range(ref, "reference", ctx->n_frames, 0,
                                        &ctx->log)) < 0) ||
         (ret = vg_picture_check_range(dis, "distorted", ctx->n_frames,
                                       is_scaled(ref, dis), &ctx->log)) < 0))
        return ret;
    if (ctx->n_frames == UINT32_MAX) {
        vg_log(&ctx->log, VG_LOG_ERROR, "too many frames");
        return -E2BIG;
    }
    if (ctx->started) {
        VgPicture first = {
            .fmt = ctx->params.fmt,
            .width = ctx->params.width,
            .height = ctx->params.height,
            .bitdepth = ctx->params.bpc,
            .memory = ctx->params.memory,
        };
        return same_geometry(ctx, ref, "this frame's", &first,
                             "the first frame's");
    }
    return 0;
}

/* Queue a checked frame; the engine starts at the first one. */
static int push_frame(VgContext *ctx, const VgPicture *ref,
                      const VgPicture *dis)
{
    int ret;

    if (!ctx->started && (ret = start(ctx, ref, dis)) < 0)
        return ret;
    if ((ret = ctx->ops->submit(ctx->engine, ref, dis, ctx->n_frames)) < 0) {
        ctx->error = ret;
        return ret;
    }
    ctx->n_frames++;
    if ((ret = progress(ctx, 0)) < 0)
        ctx->error = ret;
    return ret;
}

int vg_submit(VgContext *ctx, const VgPicture *ref, const VgPicture *dis)
{
    int ret;

    if (!ctx || !ref || !dis)
        return null_argument(ctx, "vg_submit");
    if (ctx->ladder)
        return rendition_refuse(ctx, "vg_submit()");
    if (ctx->n_rend) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "vg_submit(): a ladder of %u renditions "
               "takes its frames with vg_submit_ladder()",
               ctx->n_rend);
        return -EINVAL;
    }
    if ((ret = check_submit(ctx, "vg_submit")) < 0 ||
        (ret = check_frame(ctx, ref, dis, 1)) < 0)
        return ret;
    return push_frame(ctx, ref, dis);
}

/*
 * Before a ladder's first frame: the features whose values depend on the
 * reference alone are computed by rendition 0, whose engine writes them to
 * the others too; their engines leave them out.
 */
static int share_reference(VgContext *ctx)
{
    VgContext *src = ctx->rend[0];

    for (unsigned f = 0; f < src->n_feats; f++) {
        VgFeatureInst *inst = &src->feats[f];
        const VgFeatureDesc *d = inst->desc;

        if (!(d->flags & VG_FEATURE_REF_ONLY) || d->frame_record_size)
            continue;
        inst->sinks = calloc(ctx->n_rend - 1, sizeof(*inst->sinks));
        if (!inst->sinks)
            return -ENOMEM;
        for (unsigned r = 1; r < ctx->n_rend; r++) {
            VgContext *rend = ctx->rend[r];

            /* the renditions were set up by the same calls */
            if (f >= rend->n_feats || rend->feats[f].desc != d)
                return -EINVAL;
            inst->sinks[r - 1] = (VgFeatureSink){
                .collector = rend->collector,
                .scratch = rend->scratch,
                .keys = rend->feats[f].keys,
            };
            rend->borrowed[f] = 1;
            rend->source = src;
        }
        inst->n_sinks = ctx->n_rend - 1;
        vg_log(&ctx->log, VG_LOG_INFO,
               "ladder of %u renditions: feature '%s' depends on the "
               "reference alone and is computed once",
               ctx->n_rend, d->name);
    }
    return 0;
}

/*
 * Once every rendition's engine is open: those of rendition 0's backend
 * read the reference stages rendition 0's engine computes
 * (VG_FEATURE_REF_STAGE), where the backend shares them.
 */
static int link_stages(VgContext *ctx)
{
    VgContext *src = ctx->rend[0];
    int ret;

    for (unsigned r = 1; r < ctx->n_rend; r++) {
        VgContext *rend = ctx->rend[r];

        if (rend->ops != src->ops || !rend->ops->link)
            continue;
        if ((ret = rend->ops->link(rend->engine, src->engine)) < 0)
            return ret;
    }
    return 0;
}

int vg_submit_ladder(VgContext *ctx, const VgPicture *ref,
                     const VgPicture *const *dis)
{
    int ret;

    if (!ctx || !ref || !dis)
        return null_argument(ctx, "vg_submit_ladder");
    if (ctx->ladder)
        return rendition_refuse(ctx, "vg_submit_ladder()");
    if (!ctx->n_rend)
        return vg_submit(ctx, ref, dis[0]);
    if ((ret = check_submit(ctx, "vg_submit_ladder")) < 0)
        return ret;
    /* every rendition's picture is checked before any work is queued */
    for (unsigned r = 0; r < ctx->n_rend; r++) {
        VgContext *rend = ctx->rend[r];

        if (!ctx->started)
            snprintf(rend->log.prefix, sizeof(rend->log.prefix),
                     "rendition %u: ", r);
        if (!dis[r]) {
            vg_log(&rend->log, VG_LOG_ERROR,
                   "vg_submit_ladder(): NULL distorted picture");
            return -EINVAL;
        }
        if ((ret = check_frame(rend, ref, dis[r], r == 0)) < 0)
            return ret;
    }
    if (!ctx->started) {
        if ((ret = share_reference(ctx)) < 0)
            goto fail;
        for (unsigned r = 0; r < ctx->n_rend; r++)
            if ((ret = start(ctx->rend[r], ref, dis[r])) < 0)
                goto fail;
        if ((ret = link_stages(ctx)) < 0)
            goto fail;
        ctx->started = 1;
    }
    for (unsigned r = 0; r < ctx->n_rend; r++)
        if ((ret = push_frame(ctx->rend[r], ref, dis[r])) < 0)
            goto fail;
    ctx->n_frames++;
    return 0;
fail:
    /* renditions have started, or hold a frame the others lack */
    ctx->error = ret;
    return ret;
}

static int frame_complete(VgContext *ctx, unsigned i)
{
    const unsigned sub = ctx->cfg.n_subsample;
    double v;

    for (unsigned f = 0; f < ctx->n_feats; f++) {
        const VgFeatureInst *inst = &ctx->feats[f];
        if (!(inst->desc->flags & VG_FEATURE_EVERY_FRAME) && i % sub)
            continue;
        for (unsigned o = 0; inst->desc->outputs[o].name; o++)
            if (inst->keys[o] >= 0 && !VG_OUTPUT_IS_INTERNAL(inst->desc, o) &&
                vg_collector_get(ctx->collector, inst->keys[o], i, &v) < 0)
                return 0;
    }
    if (i % sub)
        return 1;
    for (unsigned m = 0; m < ctx->n_models; m++)
        if (vg_collector_get(ctx->collector, ctx->models[m].key, i, &v) < 0)
            return 0;
    return 1;
}

unsigned vg_frames_ready(VgContext *ctx)
{
    if (ctx && ctx->n_rend) {
        unsigned n = ctx->n_frames;
        for (unsigned r = 0; r < ctx->n_rend; r++) {
            unsigned nr = vg_frames_ready(ctx->rend[r]);
            if (nr < n)
                n = nr;
        }
        return n;
    }
    if (!ctx || !ctx->started)
        return 0;
    if (!ctx->error && !ctx->flushed && progress(ctx, 0) < 0)
        return 0;
    /* outputs are never taken back: continue where the last call stopped */
    while (ctx->n_complete < ctx->n_frames &&
           frame_complete(ctx, ctx->n_complete))
        ctx->n_complete++;
    return ctx->n_complete;
}

static int flush(VgContext *ctx)
{
    int ret;

    if (ctx->flushed)
        return ctx->error;
    ctx->flushed = 1;
    if (!ctx->started)
        return 0;
    if (ctx->error)
        return ctx->error;
    if ((ret = ctx->ops->flush(ctx->engine)) < 0 ||
        (ret = progress(ctx, 1)) < 0) {
        ctx->error = ret;
        return ret;
    }
    ctx->t_end = vg_now_s();
    return 0;
}

int vg_flush(VgContext *ctx)
{
    int ret;

    if (!ctx)
        return null_argument(ctx, "vg_flush");
    if (ctx->ladder)
        return rendition_refuse(ctx, "vg_flush()");
    if (!ctx->n_rend)
        return flush(ctx);
    if (ctx->flushed)
        return ctx->error;
    ctx->flushed = 1;
    if (ctx->error)
        return ctx->error;
    /* rendition 0 first: it computes what the others share */
    for (unsigned r = 0; r < ctx->n_rend; r++)
        if ((ret = flush(ctx->rend[r])) < 0) {
            ctx->error = ret;
            return ret;
        }
    return 0;
}

static int check_frames_asked(VgContext *ctx, unsigned n)
{
    if (n <= ctx->n_frames)
        return 0;
    vg_log(&ctx->log, VG_LOG_ERROR,
           "vg_flush_frames: %u frames asked for, "
           "%u submitted",
           n, ctx->n_frames);
    return -EINVAL;
}

static int flush_frames(VgContext *ctx, unsigned n)
{
    int ret;

    if ((ret = check_frames_asked(ctx, n)) < 0)
        return ret;
    if ((ret = flush(ctx)) < 0 || n == ctx->n_frames)
        return ret;

    /* Finish the stream again, as if frame n - 1 were the last one
     * (motion2/motion3 of frame n - 1 looked at frame n). Frames n and
     * later are out of the logs, pooling and vg_get_score(). */
    return refinish(ctx, n);
}

int vg_flush_frames(VgContext *ctx, unsigned n)
{
    int ret;

    if (!ctx)
        return null_argument(ctx, "vg_flush_frames");
    if (ctx->ladder)
        return rendition_refuse(ctx, "vg_flush_frames()");
    if (!ctx->n_rend)
        return flush_frames(ctx, n);
    if ((ret = check_frames_asked(ctx, n)) < 0 || (ret = vg_flush(ctx)) < 0)
        return ret;
    for (unsigned r = 0; r < ctx->n_rend; r++)
        if ((ret = flush_frames(ctx->rend[r], n)) < 0) {
            ctx->error = ret;
            return ret;
        }
    ctx->n_frames = n;
    return 0;
}

void vg_context_destroy(VgContext **pctx)
{
    VgContext *ctx = pctx ? *pctx : NULL;

    if (!ctx)
        return;
    if (ctx->ladder) {
        vg_log(&ctx->log, VG_LOG_WARNING,
               "vg_context_destroy(): rendition %u "
               "is destroyed with its ladder",
               ctx->rend_index);
        return;
    }
    /* the engines first, the last first: the renditions read rendition
     * 0's reference stages; then rendition 0's context first: its
     * engine's features write the others' shared values */
    for (unsigned r = ctx->n_rend; r-- > 0;)
        if (ctx->rend[r]->engine)
            ctx->rend[r]->ops->close(&ctx->rend[r]->engine);
    for (unsigned r = 0; r < ctx->n_rend; r++) {
        ctx->rend[r]->ladder = NULL;
        vg_context_destroy(&ctx->rend[r]);
    }
    if (ctx->engine)
        ctx->ops->close(&ctx->engine);
    for (unsigned i = 0; i < ctx->n_feats; i++) {
        free(ctx->feats[i].sinks);
        free(ctx->feats[i].opts);
        free(ctx->feats[i].keys);
        vg_framestore_destroy(&ctx->feats[i].store);
        free(ctx->post[i].priv);
    }
    for (unsigned m = 0; m < ctx->n_models; m++) {
        free(ctx->models[m].feat_keys);
        vg_model_free(&ctx->models[m].model);
    }
    for (unsigned u = 0; u < ctx->n_uses; u++) {
        free(ctx->uses[u].name);
        free(ctx->uses[u].opts);
    }
    vg_collector_destroy(&ctx->collector);
    vg_collector_destroy(&ctx->scratch);
    vg_log_uninit(&ctx->log);
    free(ctx);
    *pctx = NULL;
}

unsigned vg_frame_count(const VgContext *ctx)
{
    return ctx ? ctx->n_frames : 0;
}

unsigned vg_metric_count(const VgContext *ctx)
{
    return ctx && !ctx->n_rend ? vg_collector_count(ctx->collector) : 0;
}

const char *vg_metric_name(const VgContext *ctx, unsigned i)
{
    return ctx && !ctx->n_rend ? vg_collector_name(ctx->collector, (int)i)
                               : NULL;
}

static int find_metric(VgContext *ctx, const char *name)
{
    int key = vg_collector_find(ctx->collector, name);

    if (key < 0)
        vg_log(&ctx->log, VG_LOG_ERROR, "unknown metric '%s'", name);
    return key;
}

int vg_get_score(VgContext *ctx, const char *name, unsigned index,
                 double *score)
{
    int key;

    if (!ctx || !name || !score)
        return null_argument(ctx, "vg_get_score");
    if (ctx->n_rend)
        return vg_ladder_refuse(ctx, "vg_get_score");
    if ((key = find_metric(ctx, name)) < 0)
        return key;
    if (index >= ctx->n_frames)
        return -EAGAIN;
    return vg_collector_get(ctx->collector, key, index, score);
}

int vg_get_pooled(VgContext *ctx, const char *name, enum VgPool pool,
                  double *score)
{
    int key, ret;

    if (!ctx || !name || !score)
        return null_argument(ctx, "vg_get_pooled");
    if (ctx->n_rend)
        return vg_ladder_refuse(ctx, "vg_get_pooled");
    if ((unsigned)pool > VG_POOL_MAX) {
        vg_log(&ctx->log, VG_LOG_ERROR, "unknown pooling method %d", (int)pool);
        return -EINVAL;
    }
    if ((key = find_metric(ctx, name)) < 0)
        return key;
    if (!ctx->n_frames) {
        vg_log(&ctx->log, VG_LOG_ERROR, "no frames to pool");
        return -EINVAL;
    }
    ret = vg_pool(ctx->collector, key, ctx->n_frames, ctx->cfg.n_subsample,
                  pool, score);
    if (ret < 0)
        vg_log(&ctx->log, VG_LOG_ERROR,
               "cannot pool '%s': a frame has no "
               "value%s",
               name, ctx->flushed ? "" : " (call vg_flush() first)");
    return ret;
}

/* ---- the order of the metrics in a log ----------------------------------- */

/*
 * libvmaf v3.2.0 lists a log's metrics in the order in which its feature
 * collector first received a value of each (src/feature/feature_collector.c
 * appends a vector per new name), which is not the order of registration:
 *  - with n_threads > 0 (src/libvmaf.c's thread pool), the values of
 *    psnr, float_motion and speed_temporal (extractors that run on every
 *    frame, but not integer_motion) come first: they are computed before
 *    the frame's pooled jobs finish;
 *  - the others follow in registration order (the pool is a FIFO; with one
 *    worker this is exact, with more it is what the timing gives in practice:
 *    a frame-0 job finishes before the next frame's temporal work);
 *  - some outputs are first written one frame late (float_motion's motion3)
 *    or later still (integer_motion's motion2 and motion3, written for frame
 *    n - 1 or at the flush): they come after every frame-0 value of their
 *    group;
 *  - float_motion writes motion2 before motion;
 *  - model scores are predicted when the scores are pooled, after every
 *    feature: they come last, in model order.
 * Checked against ffmpeg's libvmaf filter with n_threads 0, 1, 2 and 4, and
 * libvmaf's CLI with --threads 2.
 */

/** Sort entry of one collector key. */
typedef struct LogKey {
    int key;
    int group;     ///< LOG_GROUP_*
    unsigned inst; ///< feature instance (registration order)
    int pos;       ///< position among the instance's outputs
} LogKey;

enum {
    LOG_GROUP_SYNC, ///< temporal extractors' frame-0 values (n_threads > 0)
    LOG_GROUP_SYNC_LATE, ///< their later first values
    LOG_GROUP_FRAME0,    ///< everything else's frame-0 values
    LOG_GROUP_LATE1,     ///< first written at frame 1
    LOG_GROUP_LATE2,     ///< first written later (integer_motion)
    LOG_GROUP_MODEL,     ///< model scores and anything not a feature's
};

/** @return how late libvmaf first writes an output: 0, 1 or 2. */
static int output_lateness(const char *name)
{
    if (!strcmp(name, "VMAF_integer_feature_motion2_score") ||
        !strcmp(name, "VMAF_integer_feature_motion3_score"))
        return 2;
    return !strcmp(name, "VMAF_feature_motion3_score");
}

static int log_key_cmp(const void *a, const void *b)
{
    const LogKey *x = a, *y = b;

    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->inst != y->inst)
        return x->inst < y->inst ? -1 : 1;
    if (x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

/** The collector's keys in libvmaf's order (above); *out is malloc()ed. */
static int log_order(VgContext *ctx, int **out, unsigned *n_out)
{
    const unsigned n = vg_collector_count(ctx->collector);
    LogKey *k = malloc((n ? n : 1) * sizeof(*k));
    int *order = malloc((n ? n : 1) * sizeof(*order));

    if (!k || !order) {
        free(k);
        free(order);
        return -ENOMEM;
    }
    for (unsigned i = 0; i < n; i++)
        k[i] = (LogKey){ .key = (int)i, .group = LOG_GROUP_MODEL };
    /* later instances never take a key an earlier one gave (deduplicated
     * names keep the first writer's place) */
    for (unsigned f = ctx->n_feats; f-- > 0;) {
        const VgFeatureInst *inst = &ctx->feats[f];
        const VgFeatureDesc *d = inst->desc;
        const int sync = ctx->cfg.n_threads > 0 &&
                         (d->flags & VG_FEATURE_EVERY_FRAME) &&
                         d != &vg_feature_motion;

        for (unsigned o = 0; d->outputs[o].name; o++) {
            const char *name = d->outputs[o].name;
            const int key = inst->keys ? inst->keys[o] : -1;
            int late;

            if (key < 0 || (unsigned)key >= n || VG_OUTPUT_IS_INTERNAL(d, o))
                continue;
            late = output_lateness(name);
            k[key].group = sync ? (late ? LOG_GROUP_SYNC_LATE : LOG_GROUP_SYNC)
                                : LOG_GROUP_FRAME0 + late;
            k[key].inst = f;
            k[key].pos =
                strcmp(name, "VMAF_feature_motion2_score") ? (int)o : -1;
        }
    }
    qsort(k, n, sizeof(*k), log_key_cmp);
    for (unsigned i = 0; i < n; i++)
        order[i] = k[i].key;
    free(k);
    *out = order;
    *n_out = n;
    return 0;
}

int vg_write_log(VgContext *ctx, const char *path, enum VgLogFormat fmt,
                 enum VgPrecision precision)
{
    VgOutputParams p = { 0 };
    int *order = NULL;
    FILE *f;
    int ret;

    if (!ctx || !path)
        return null_argument(ctx, "vg_write_log");
    if (ctx->n_rend)
        return vg_ladder_refuse(ctx, "vg_write_log");
    if ((unsigned)fmt > VG_LOG_FMT_SUB ||
        (unsigned)precision > VG_PRECISION_MAX) {
        vg_log(&ctx->log, VG_LOG_ERROR, "unknown log format or precision");
        return -EINVAL;
    }
    if ((ret = log_order(ctx, &order, &p.n_order)) < 0)
        return ret;
    p.order = order;
    f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) {
        ret = -errno;
        vg_log(&ctx->log, VG_LOG_ERROR, "cannot open '%s' for writing: %s",
               path, strerror(errno));
        free(order);
        return ret;
    }
    p.fmt = fmt;
    p.precision = precision;
    p.n_frames = ctx->n_frames;
    p.subsample = ctx->cfg.n_subsample;
    p.width = ctx->params.width;
    p.height = ctx->params.height;
    p.fps = ctx->t_end > ctx->t_start
                ? ctx->n_frames / (ctx->t_end - ctx->t_start)
                : -1.0;
    p.version = vg_version();
    p.count_key = ctx->log_key;
    p.count = ctx->log_count;
    p.n_counts = ctx->n_log_counts;
    ret = vg_output_write(f, ctx->collector, &p);
    if (ret < 0)
        vg_log(&ctx->log, VG_LOG_ERROR, "writing the log '%s' failed: %s", path,
               strerror(-ret));
    if (f != stdout && fclose(f) && ret >= 0) {
        ret = errno ? -errno : -EIO;
        vg_log(&ctx->log, VG_LOG_ERROR, "closing the log '%s' failed: %s", path,
               strerror(-ret));
    }
    free(order);
    return ret;
}

int vg_set_log_count(VgContext *ctx, const char *key, uint64_t count)
{
    size_t n;
    unsigned i;

    if (!ctx || !key)
        return null_argument(ctx, "vg_set_log_count");
    n = strlen(key);
    if (!n || n >= sizeof(ctx->log_key[0]) ||
        strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") != n ||
        !strcmp(key, "fps") || !strcmp(key, "version")) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "log count key '%s': 1 to %zu "
               "characters of a-z, 0-9 and _, not fps or version",
               key, sizeof(ctx->log_key[0]) - 1);
        return -EINVAL;
    }
    /* a ladder's counts are its renditions': each writes its own logs */
    if (ctx->n_rend) {
        for (unsigned r = 0; r < ctx->n_rend; r++) {
            int ret = vg_set_log_count(ctx->rend[r], key, count);
            if (ret < 0)
                return ret;
        }
        return 0;
    }
    for (i = 0; i < ctx->n_log_counts && strcmp(ctx->log_key[i], key); i++)
        ;
    if (i == VG_MAX_LOG_COUNTS) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "log count '%s': %d counts are "
               "already set",
               key, VG_MAX_LOG_COUNTS);
        return -ENOSPC;
    }
    if (i == ctx->n_log_counts) {
        memcpy(ctx->log_key[i], key, n + 1);
        ctx->n_log_counts++;
    }
    ctx->log_count[i] = count;
    return 0;
}

/* a ladder answers for its renditions with rendition 0's values */
static const VgContext *first(const VgContext *ctx)
{
    return ctx && ctx->n_rend ? ctx->rend[0] : ctx;
}

enum VgBackend vg_backend_used(const VgContext *ctx)
{
    ctx = first(ctx);
    if (!ctx)
        return VG_BACKEND_AUTO;
    return ctx->ops ? ctx->ops->kind : ctx->cfg.backend;
}

unsigned vg_model_count(const VgContext *ctx)
{
    ctx = first(ctx);
    return ctx ? ctx->n_models : 0;
}

const char *vg_model_name(const VgContext *ctx, unsigned i)
{
    ctx = first(ctx);
    if (!ctx || i >= ctx->n_models)
        return NULL;
    return vg_model_info(ctx->models[i].model)->name;
}

const char *vg_model_source(const VgContext *ctx, unsigned i)
{
    ctx = first(ctx);
    if (!ctx || i >= ctx->n_models)
        return NULL;
    return vg_model_info(ctx->models[i].model)->source;
}

int vg_model_is_collection(const VgContext *ctx, unsigned i)
{
    ctx = first(ctx);
    if (!ctx || i >= ctx->n_models)
        return 0;
    return vg_model_info(ctx->models[i].model)->is_collection;
}

unsigned vg_rendition_count(const VgContext *ctx)
{
    return ctx && ctx->n_rend ? ctx->n_rend : 1;
}

VgContext *vg_rendition(VgContext *ctx, unsigned r)
{
    if (!ctx) {
        null_argument(ctx, "vg_rendition");
        return NULL;
    }
    if (r >= vg_rendition_count(ctx)) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "vg_rendition(): rendition %u asked for, the %s has %u", r,
               ctx->n_rend ? "ladder" : "pair context",
               vg_rendition_count(ctx));
        return NULL;
    }
    return ctx->n_rend ? ctx->rend[r] : ctx;
}
