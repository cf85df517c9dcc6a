/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/collector.h"
#include "common/feature.h"

/* Lookup order matters for output names provided by several features
 * (libvmaf's feature_extractor_list): the first one wins. */
const VgFeatureDesc *const vg_features[] = {
#define VG_FEATURE(name, gpu) &vg_feature_##name,
#include "common/features/list.h"
#undef VG_FEATURE
    NULL,
};

static const VgFeatureImpl *const cpu_impls[VG_NB_FEATURES] = {
#define VG_FEATURE(name, gpu) [VG_FEATURE_ID_##name] = &vg_cpu_##name,
#include "common/features/list.h"
#undef VG_FEATURE
};

const VgFeatureImpl *vg_feature_cpu(const VgFeatureDesc *desc)
{
    return desc->id < VG_NB_FEATURES ? cpu_impls[desc->id] : NULL;
}

const VgFeatureDesc *vg_feature_find(const char *name)
{
    for (unsigned i = 0; vg_features[i]; i++)
        if (!strcmp(vg_features[i]->name, name))
            return vg_features[i];
    return NULL;
}

const VgFeatureDesc *vg_feature_find_by_output(const char *output_name,
                                               unsigned *out_index)
{
    for (unsigned i = 0; vg_features[i]; i++) {
        const VgFeatureOutput *o = vg_features[i]->outputs;
        for (unsigned j = 0; o && o[j].name; j++) {
            if (!(o[j].debug_only & VG_OUTPUT_INTERNAL) &&
                !strcmp(o[j].name, output_name)) {
                if (out_index)
                    *out_index = j;
                return vg_features[i];
            }
        }
    }
    return NULL;
}

int vg_feature_emit(VgFeatureCtx *fc, unsigned out, unsigned index,
                    double value)
{
    const int internal = VG_OUTPUT_IS_INTERNAL(fc->desc, out);
    int ret;

    if (fc->keys[out] < 0)
        return 0;
    ret = vg_collector_set(internal ? fc->scratch : fc->collector,
                           fc->keys[out], index, value);
    for (unsigned s = 0; s < fc->n_sinks && ret >= 0; s++) {
        const VgFeatureSink *sink = &fc->sinks[s];
        ret = vg_collector_set(internal ? sink->scratch : sink->collector,
                               sink->keys[out], index, value);
    }
    if (ret == -EEXIST) {
        vg_log(fc->log, VG_LOG_ERROR,
               "feature '%s': output %s of frame %u "
               "written twice",
               fc->desc->name, fc->desc->outputs[out].name, index);
    }
    return ret;
}

int vg_feature_read(VgFeatureCtx *fc, unsigned out, unsigned index,
                    double *value)
{
    if (fc->keys[out] < 0)
        return -EINVAL;
    return vg_collector_get(
        VG_OUTPUT_IS_INTERNAL(fc->desc, out) ? fc->scratch : fc->collector,
        fc->keys[out], index, value);
}

int vg_feature_ctx_twin(const VgFeatureCtx *fcs, unsigned f,
                        const VgFeatureCtx *src, unsigned n_src)
{
    const VgFeatureDesc *d = fcs[f].desc;
    unsigned k = 0;

    for (unsigned i = 0; i < f; i++)
        k += fcs[i].desc == d;
    for (unsigned g = 0; g < n_src; g++)
        if (src[g].desc == d && !k--)
            return memcmp(src[g].opts, fcs[f].opts, d->opts_size) ? -1 : (int)g;
    return -1;
}

void vg_feature_names_add(char *buf, size_t size, const char *name)
{
    const size_t n = strlen(buf);

    if (n + strlen(name) + 3 < size)
        snprintf(buf + n, size - n, "%s%s", n ? ", " : "", name);
}
