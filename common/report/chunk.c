/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Chunked scoring (include/vmafgpu.h: vg_chunk_lead_in(), vg_write_chunk(),
 * vg_merge_chunks()).
 *
 * Why it is exact. A feature's value of frame n depends on frames n and,
 * for the temporal ones, the few frames before it (the descriptor's
 * lead_in: integer motion 1, or 2 with the five-frame window; float
 * motion and SpEED temporal 1); what depends on later frames or on the
 * whole stream (motion2/motion3, the aggregate PSNR) is the features'
 * post-processing, which reads values already emitted. So a chunk run
 * that first submits the lead-in frames computes its frames' extracted
 * values exactly as the whole run does, provided each frame keeps the
 * properties of its index the features look at: whether it is frame 0 or
 * within the first lead frames (the lead-in is not taken where the chunk
 * starts that close to 0, so the indices are the title's there), and its
 * remainder modulo n_subsample (the lead-in is lengthened to keep it).
 * The merge puts every chunk's values back at the title's indices and runs
 * the post-processing and the models once, over the whole title, as a
 * flush does; pooling and logs then read the same values in the same
 * order as after one run.
 *
 * The chunk log (JSON): "run" identifies the run (library version, the
 * vg_use_model()/vg_use_feature() calls in order, subsampling, picture
 * format and sizes, scaling, the value keys) and must be equal in every
 * chunk of one merge; "chunk" holds start, count, last and the seconds
 * the chunk took; "frames" one entry per frame: the value of each key
 * (the double's bits as 16 hexadecimal digits, null where not written),
 * the same for the features' internal values, and the features'
 * per-frame records in hexadecimal.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/context.h"
#include "common/framestore.h"

#define CHUNK_FORMAT 1

static json_object *bits_string(double v)
{
    uint64_t u;
    char buf[17];

    memcpy(&u, &v, sizeof(u));
    snprintf(buf, sizeof(buf), "%016" PRIx64, u);
    return json_object_new_string(buf);
}

static int parse_bits(const char *s, double *v)
{
    uint64_t u = 0;

    if (!s || strlen(s) != 16)
        return -EINVAL;
    for (int i = 0; i < 16; i++) {
        const char c = s[i];
        const int d = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                             : -1;
        if (d < 0)
            return -EINVAL;
        u = u << 4 | (uint64_t)d;
    }
    memcpy(v, &u, sizeof(*v));
    return 0;
}

static json_object *hex_bytes(const uint8_t *p, size_t n)
{
    char *buf = malloc(2 * n + 1);
    json_object *o;

    if (!buf)
        return NULL;
    for (size_t i = 0; i < n; i++)
        snprintf(buf + 2 * i, 3, "%02x", p[i]);
    buf[2 * n] = 0;
    o = json_object_new_string(buf);
    free(buf);
    return o;
}

static int parse_hex_bytes(const char *s, uint8_t *p, size_t n)
{
    if (!s || strlen(s) != 2 * n)
        return -EINVAL;
    for (size_t i = 0; i < n; i++) {
        unsigned b;
        if (sscanf(s + 2 * i, "%2x", &b) != 1)
            return -EINVAL;
        p[i] = (uint8_t)b;
    }
    return 0;
}

static unsigned feature_lead_in(const VgFeatureInst *inst)
{
    const VgFeatureDesc *d = inst->desc;

    if (d->lead_in)
        return d->lead_in(inst->opts);
    return d->flags & (VG_FEATURE_PREV_REF | VG_FEATURE_PREV_DIS) ? 1 : 0;
}

unsigned vg_chunk_lead_in(VgContext *ctx, unsigned start)
{
    unsigned lead = 0, sub;

    if (!ctx)
        return 0;
    if (ctx->n_rend) /* the renditions are set up alike */
        ctx = ctx->rend[0];
    sub = ctx->cfg.n_subsample ? ctx->cfg.n_subsample : 1;
    for (unsigned i = 0; i < ctx->n_feats; i++) {
        const unsigned l = feature_lead_in(&ctx->feats[i]);
        if (l > lead)
            lead = l;
    }
    /* near the start the chunk starts at frame 0: its frames keep the
     * title's indices (frame 0, the first frames of the motion window) */
    if (lead >= start)
        return start;
    /* the first submitted frame at a multiple of n_subsample */
    return lead + (start - lead) % sub;
}

static json_object *key_names(const VgCollector *c)
{
    json_object *a = json_object_new_array();

    for (unsigned k = 0; a && k < vg_collector_count(c); k++)
        json_object_array_add(
            a, json_object_new_string(vg_collector_name(c, (int)k)));
    return a;
}

/* what identifies the run: equal in every chunk of one merge */
static json_object *run_identity(VgContext *ctx)
{
    const VgEngineParams *p = &ctx->params;
    json_object *run = json_object_new_object(),
                *uses = json_object_new_array();

    for (unsigned u = 0; u < ctx->n_uses; u++) {
        json_object *e = json_object_new_array();
        json_object_array_add(e, json_object_new_string(ctx->uses[u].is_model
                                                            ? "model"
                                                            : "feature"));
        json_object_array_add(e, json_object_new_string(ctx->uses[u].name));
        json_object_array_add(e, ctx->uses[u].opts
                                     ? json_object_new_string(ctx->uses[u].opts)
                                     : NULL);
        json_object_array_add(uses, e);
    }
    json_object_object_add(run, "version",
                           json_object_new_string(vg_version()));
    json_object_object_add(run, "uses", uses);
    json_object_object_add(run, "subsample",
                           json_object_new_int64(ctx->cfg.n_subsample));
    json_object_object_add(run, "format", json_object_new_int64(p->fmt));
    json_object_object_add(run, "width", json_object_new_int64(p->width));
    json_object_object_add(run, "height", json_object_new_int64(p->height));
    json_object_object_add(run, "dis_width",
                           json_object_new_int64(p->dis_width));
    json_object_object_add(run, "dis_height",
                           json_object_new_int64(p->dis_height));
    json_object_object_add(run, "bitdepth", json_object_new_int64(p->bpc));
    json_object_object_add(run, "scale", json_object_new_int64(ctx->cfg.scale));
    json_object_object_add(run, "keys", key_names(ctx->collector));
    json_object_object_add(run, "internal_keys", key_names(ctx->scratch));
    return run;
}

static json_object *frame_values(VgCollector *c, unsigned i)
{
    json_object *a = json_object_new_array();

    for (unsigned k = 0; a && k < vg_collector_count(c); k++) {
        double v;
        json_object_array_add(
            a, vg_collector_get(c, (int)k, i, &v) < 0 ? NULL : bits_string(v));
    }
    return a;
}

int vg_write_chunk(VgContext *ctx, const char *path, unsigned lead,
                   unsigned start, int last)
{
    json_object *root, *chunk, *frames;
    unsigned count;
    int ret = 0;

    if (!ctx || !path) {
        vg_log(ctx ? &ctx->log : NULL, VG_LOG_ERROR,
               "vg_write_chunk(): NULL argument");
        return -EINVAL;
    }
    if (ctx->n_rend)
        return vg_ladder_refuse(ctx, "vg_write_chunk");
    if (!ctx->started || !ctx->flushed || ctx->error || !ctx->ops) {
        vg_log(&ctx->log, VG_LOG_ERROR, "vg_write_chunk(): %s",
               ctx->error ? "the run failed"
               : !ctx->ops && ctx->started
                   ? "not a scoring run"
                   : "call vg_flush() after the chunk's frames first");
        return ctx->error ? ctx->error : -EINVAL;
    }
    if (lead != vg_chunk_lead_in(ctx, start) || lead > ctx->n_frames) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "vg_write_chunk(): a lead-in of %u frames "
               "for a chunk starting at frame %u, %u frames submitted (the "
               "lead-in must be vg_chunk_lead_in()'s %u)",
               lead, start, ctx->n_frames, vg_chunk_lead_in(ctx, start));
        return -EINVAL;
    }
    count = ctx->n_frames - lead;
    if ((uint64_t)start + count > UINT32_MAX) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "vg_write_chunk(): frame %u + %u is past "
               "the last frame index",
               start, count);
        return -EINVAL;
    }
    root = json_object_new_object();
    chunk = json_object_new_object();
    frames = json_object_new_array();
    if (!root || !chunk || !frames) {
        json_object_put(root);
        json_object_put(chunk);
        json_object_put(frames);
        return -ENOMEM;
    }
    json_object_object_add(root, "vmafgpu_chunk_log",
                           json_object_new_int64(CHUNK_FORMAT));
    json_object_object_add(root, "run", run_identity(ctx));
    json_object_object_add(chunk, "start", json_object_new_int64(start));
    json_object_object_add(chunk, "count", json_object_new_int64(count));
    json_object_object_add(chunk, "last", json_object_new_boolean(last != 0));
    json_object_object_add(chunk, "seconds",
                           json_object_new_double(ctx->t_end - ctx->t_start));
    json_object_object_add(root, "chunk", chunk);
    for (unsigned i = lead; i < ctx->n_frames; i++) {
        json_object *f = json_object_new_array(),
                    *rec = json_object_new_array();

        json_object_array_add(f, frame_values(ctx->collector, i));
        json_object_array_add(f, frame_values(ctx->scratch, i));
        for (unsigned k = 0; k < ctx->n_feats; k++) {
            const VgFeatureInst *inst = &ctx->feats[k];
            uint8_t buf[256];

            if (!inst->store)
                continue;
            if (inst->desc->frame_record_size > sizeof(buf)) {
                ret = -E2BIG;
                break;
            }
            json_object_array_add(
                rec, vg_framestore_get(inst->store, i, buf) < 0
                         ? NULL
                         : hex_bytes(buf, inst->desc->frame_record_size));
        }
        json_object_array_add(f, rec);
        json_object_array_add(frames, f);
    }
    json_object_object_add(root, "frames", frames);
    if (ret >= 0 &&
        json_object_to_file_ext(path, root, JSON_C_TO_STRING_PLAIN) < 0) {
        vg_log(&ctx->log, VG_LOG_ERROR, "cannot write the chunk log '%s': %s",
               path, json_util_get_last_err());
        ret = -EIO;
    } else if (ret < 0) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "vg_write_chunk(): a per-frame record "
               "larger than 256 bytes");
    }
    json_object_put(root);
    return ret;
}

typedef struct ChunkRange {
    unsigned start, count;
    int last;
    const char *path;
} ChunkRange;

static int cmp_range(const void *a, const void *b)
{
    const ChunkRange *x = a, *y = b;

    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->count < y->count ? -1 : x->count > y->count;
}

static int64_t get_int(json_object *o, const char *key, int64_t def)
{
    json_object *v;

    return json_object_object_get_ex(o, key, &v) &&
                   json_object_is_type(v, json_type_int)
               ? json_object_get_int64(v)
               : def;
}

/* o is an array of at least n elements (json-c asserts on the type) */
static int is_array(json_object *o, size_t n)
{
    return o && json_object_is_type(o, json_type_array) &&
           json_object_array_length(o) >= n;
}

/* the models and features of the run, as its chunks were set up */
static int replay_uses(VgContext *ctx, json_object *run, const char *path)
{
    json_object *uses;
    int ret;

    if (!json_object_object_get_ex(run, "uses", &uses) || !is_array(uses, 0)) {
        vg_log(&ctx->log, VG_LOG_ERROR,
               "chunk log '%s': malformed (no "
               "models and features)",
               path);
        return -EINVAL;
    }
    for (size_t u = 0; u < json_object_array_length(uses); u++) {
        json_object *e = json_object_array_get_idx(uses, u), *o;
        const char *kind, *name, *opts;

        if (!is_array(e, 3)) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "chunk log '%s': malformed (its "
                   "models and features)",
                   path);
            return -EINVAL;
        }
        kind = json_object_get_string(json_object_array_get_idx(e, 0));
        name = json_object_get_string(json_object_array_get_idx(e, 1));
        o = json_object_array_get_idx(e, 2);
        opts = o ? json_object_get_string(o) : NULL;

        if (!kind || !name) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "chunk log '%s': malformed (its "
                   "models and features)",
                   path);
            return -EINVAL;
        }
        if (strcmp(kind, "model") && strcmp(kind, "feature")) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "chunk log '%s': malformed (a use "
                   "of kind '%s')",
                   path, kind);
            return -EINVAL;
        }
        ret = !strcmp(kind, "model") ? vg_use_model(ctx, name)
                                     : vg_use_feature(ctx, name, opts);
        if (ret < 0) {
            vg_log(&ctx->log, VG_LOG_ERROR,
                   "chunk log '%s': its %s '%s' cannot "
                   "be set up here (see above)",
                   path, kind, name);
            return ret;
        }
    }
    return 0;
}

/* the chunk's values into ctx at the title's indices */
static int import_frames(VgContext *ctx, json_object *root, unsigned start,
                         unsigned count, const char *path)
{
    json_object *frames, *run, *keys, *ikeys;
    VgCollector *cols[2] = { ctx->collector, ctx->scratch };
    int *map[2] = { NULL, NULL };
    unsigned n_map[2];
    int ret = -EINVAL;

    if (!json_object_object_get_ex(root, "frames", &frames) ||
        !json_object_is_type(frames, json_type_array) ||
        json_object_array_length(frames) != count ||
        !json_object_object_get_ex(root, "run", &run) ||
        !json_object_object_get_ex(run, "keys", &keys) || !is_array(keys, 0) ||
        !json_object_object_get_ex(run, "internal_keys", &ikeys) ||
        !is_array(ikeys, 0))
        goto bad;
    for (int c = 0; c < 2; c++) {
        json_object *names = c ? ikeys : keys;

        n_map[c] = (unsigned)json_object_array_length(names);
        if (n_map[c] != vg_collector_count(cols[c]))
            goto bad;
        if (!(map[c] = malloc((n_map[c] ? n_map[c] : 1) * sizeof(int)))) {
            ret = -ENOMEM;
            goto end;
        }
        for (unsigned k = 0; k < n_map[c]; k++) {
            const char *nm =
                json_object_get_string(json_object_array_get_idx(names, k));
            if (!nm || (map[c][k] = vg_collector_find(cols[c], nm)) < 0)
                goto bad;
        }
    }
    for (unsigned i = 0; i < count; i++) {
        json_object *f = json_object_array_get_idx(frames, i), *rec;
        unsigned r = 0;

        if (!is_array(f, 3) ||
            !is_array(rec = json_object_array_get_idx(f, 2), 0))
            goto bad;

        for (int c = 0; c < 2; c++) {
            json_object *vals = json_object_array_get_idx(f, (size_t)c);
            if (!is_array(vals, n_map[c]) ||
                json_object_array_length(vals) != n_map[c])
                goto bad;
            for (unsigned k = 0; k < n_map[c]; k++) {
                json_object *v = json_object_array_get_idx(vals, k);
                double d;

                if (!v)
                    continue;
                if (parse_bits(json_object_get_string(v), &d) < 0)
                    goto bad;
                if ((ret = vg_collector_set(cols[c], map[c][k], start + i, d)) <
                    0) {
                    vg_log(&ctx->log, VG_LOG_ERROR,
                           "chunk log '%s': frame %u: %s", path, start + i,
                           ret == -EEXIST ? "a value is "
                                            "there twice"
                                          : strerror(-ret));
                    goto end;
                }
            }
        }
        for (unsigned k = 0; k < ctx->n_feats; k++) {
            VgFeatureInst *inst = &ctx->feats[k];
            uint8_t buf[256];
            json_object *v;

            if (!inst->store)
                continue;
            v = r < json_object_array_length(rec)
                    ? json_object_array_get_idx(rec, r)
                    : NULL;
            r++;
            if (!v)
                continue;
            if (inst->desc->frame_record_size > sizeof(buf) ||
                parse_hex_bytes(json_object_get_string(v), buf,
                                inst->desc->frame_record_size) < 0 ||
                vg_framestore_put(inst->store, start + i, buf) < 0)
                goto bad;
        }
    }
    ret = 0;
    goto end;
bad:
    vg_log(&ctx->log, VG_LOG_ERROR,
           "chunk log '%s': malformed or not of this "
           "run's features",
           path);
    ret = -EINVAL;
end:
    free(map[0]);
    free(map[1]);
    return ret;
}

/* chunk c's header: checked, its range recorded, its run string (owned
 * by root, which the caller frees) in *rs */
static int read_header(VgLog *log, const char *path, json_object **proot,
                       const char **rs, ChunkRange *r, double *seconds)
{
    json_object *root = json_object_from_file(path), *run, *chunk, *last, *sec;

    *proot = root;
    if (!root || !json_object_is_type(root, json_type_object) ||
        get_int(root, "vmafgpu_chunk_log", 0) != CHUNK_FORMAT ||
        !json_object_object_get_ex(root, "run", &run) ||
        !json_object_is_type(run, json_type_object) ||
        !json_object_object_get_ex(root, "chunk", &chunk) ||
        !json_object_is_type(chunk, json_type_object) ||
        get_int(chunk, "start", -1) < 0 || get_int(chunk, "count", -1) < 0 ||
        get_int(chunk, "start", 0) + get_int(chunk, "count", 0) > UINT32_MAX ||
        !json_object_object_get_ex(chunk, "last", &last) ||
        !json_object_is_type(last, json_type_boolean)) {
        vg_log(log, VG_LOG_ERROR, "'%s' is not a vmafgpu chunk log%s%s", path,
               root ? "" : ": ", root ? "" : json_util_get_last_err());
        return -EINVAL;
    }
    r->start = (unsigned)get_int(chunk, "start", 0);
    r->count = (unsigned)get_int(chunk, "count", 0);
    r->last = json_object_get_boolean(last);
    r->path = path;
    if (json_object_object_get_ex(chunk, "seconds", &sec))
        *seconds += json_object_get_double(sec);
    *rs = json_object_to_json_string_ext(run, JSON_C_TO_STRING_PLAIN);
    return *rs ? 0 : -ENOMEM;
}

/* a context for the run of the chunk logs, its geometry checked */
static int merge_context(VgContext **pctx, const VgConfig *cfg, VgLog *log,
                         json_object *run, const char *path)
{
    const int64_t w = get_int(run, "width", 0), h = get_int(run, "height", 0);
    const int64_t dw = get_int(run, "dis_width", 0),
                  dh = get_int(run, "dis_height", 0);
    const int64_t bpc = get_int(run, "bitdepth", 0),
                  fmt = get_int(run, "format", -1);
    const int64_t sub = get_int(run, "subsample", 0),
                  scale = get_int(run, "scale", -1);
    VgConfig mc = *cfg;
    int ret;

    if (w < 1 || h < 1 || w > 65536 || h > 65536 || dw < 1 || dh < 1 ||
        dw > 65536 || dh > 65536 || bpc < 8 || bpc > 16 || fmt < 0 ||
        fmt > VG_PIX_FMT_YUV444P_MSB || sub < 1 || sub > INT32_MAX ||
        scale < 0 || scale >= VG_SCALE_NB) {
        vg_log(log, VG_LOG_ERROR,
               "chunk log '%s': malformed (picture format, "
               "size or subsampling out of range)",
               path);
        return -EINVAL;
    }
    mc.backend = VG_BACKEND_CPU;
    mc.n_threads = 1;
    mc.n_distorted = 0; /* a ladder's chunks are merged per rendition */
    mc.n_subsample = (unsigned)sub;
    mc.scale = (enum VgScale)scale;
    if ((ret = vg_context_create(pctx, &mc)) < 0 ||
        (ret = replay_uses(*pctx, run, path)) < 0)
        return ret;
    return vg_context_start_imported(*pctx, (enum VgPixFmt)fmt, (unsigned)w,
                                     (unsigned)h, (unsigned)dw, (unsigned)dh,
                                     (unsigned)bpc);
}

int vg_merge_chunks(VgContext **pctx, const VgConfig *cfg,
                    const char *const *paths, unsigned n_paths)
{
    VgContext *ctx = NULL;
    VgLog log;
    ChunkRange *ranges = NULL;
    json_object *run = NULL;
    char *run_str = NULL;
    unsigned next = 0;
    double seconds = 0;
    int ret = 0;

    if (!pctx || !cfg || (!paths && n_paths)) {
        vg_log(NULL, VG_LOG_ERROR, "vg_merge_chunks(): NULL argument");
        return -EINVAL;
    }
    *pctx = NULL;
    vg_log_init(&log, cfg->log_cb, cfg->log_opaque, cfg->log_level);
    if (!n_paths) {
        vg_log(&log, VG_LOG_ERROR, "no chunk log to merge");
        ret = -EINVAL;
        goto end;
    }
    if (!(ranges = calloc(n_paths, sizeof(*ranges)))) {
        ret = -ENOMEM;
        goto end;
    }
    /* first the headers: one run, the title covered, nothing imported yet */
    for (unsigned c = 0; c < n_paths; c++) {
        json_object *root;
        const char *rs;

        ret = read_header(&log, paths[c], &root, &rs, &ranges[c], &seconds);
        if (ret >= 0 && !run_str && !(run_str = strdup(rs)))
            ret = -ENOMEM;
        if (ret >= 0 && strcmp(rs, run_str)) {
            vg_log(&log, VG_LOG_ERROR,
                   "chunk log '%s' comes from another run "
                   "than '%s' (models, features, options, picture format or "
                   "size, or version differ): chunks of different runs are not "
                   "merged",
                   paths[c], paths[0]);
            ret = -EINVAL;
        }
        json_object_put(root);
        if (ret < 0)
            goto end;
    }
    qsort(ranges, n_paths, sizeof(*ranges), cmp_range);
    for (unsigned c = 0; c < n_paths; c++) {
        const ChunkRange *r = &ranges[c];

        if (r->start > next) {
            vg_log(&log, VG_LOG_ERROR,
                   "frames %u..%u are missing: no chunk log "
                   "holds them (the next one, '%s', starts at frame %u)",
                   next, r->start - 1, r->path, r->start);
            ret = -EINVAL;
            goto end;
        }
        if (r->start < next && r->count) {
            vg_log(&log, VG_LOG_ERROR,
                   "chunk logs '%s' (frames %u..%u) and "
                   "'%s' (frames %u..%u) overlap from frame %u",
                   ranges[c - 1].path, ranges[c - 1].start,
                   ranges[c - 1].start + ranges[c - 1].count - 1, r->path,
                   r->start, r->start + r->count - 1, r->start);
            ret = -EINVAL;
            goto end;
        }
        if (r->last && c + 1 < n_paths && ranges[c + 1].count) {
            vg_log(&log, VG_LOG_ERROR,
                   "chunk log '%s' ends the title at frame "
                   "%u, but '%s' holds frames after it",
                   r->path, r->start + r->count, ranges[c + 1].path);
            ret = -EINVAL;
            goto end;
        }
        if (r->start + r->count > next)
            next = r->start + r->count;
    }
    if (!ranges[n_paths - 1].last) {
        vg_log(&log, VG_LOG_ERROR,
               "frames from %u on are missing: no chunk log "
               "ends the title (the last one, '%s', ends at frame %u)",
               next, ranges[n_paths - 1].path, next ? next - 1 : 0);
        ret = -EINVAL;
        goto end;
    }
    if (!next) {
        vg_log(&log, VG_LOG_ERROR, "the chunk logs hold no frame");
        ret = -EINVAL;
        goto end;
    }
    if (!(run = json_tokener_parse(run_str))) {
        ret = -ENOMEM;
        goto end;
    }
    if ((ret = merge_context(&ctx, cfg, &log, run, paths[0])) < 0)
        goto end;
    /* then the values */
    for (unsigned c = 0; c < n_paths; c++) {
        json_object *root = json_object_from_file(ranges[c].path);

        ret = root ? import_frames(ctx, root, ranges[c].start, ranges[c].count,
                                   ranges[c].path)
                   : -EIO;
        if (!root)
            vg_log(&log, VG_LOG_ERROR,
                   "chunk log '%s' cannot be read again: %s", ranges[c].path,
                   json_util_get_last_err());
        json_object_put(root);
        if (ret < 0)
            goto end;
    }
    ret = vg_context_finish_imported(ctx, next, seconds);
end:
    if (ret < 0)
        vg_context_destroy(&ctx);
    *pctx = ctx;
    json_object_put(run);
    free(ranges);
    free(run_str);
    vg_log_uninit(&log);
    return ret;
}
