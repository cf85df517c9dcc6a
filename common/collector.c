/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/collector.h"

typedef struct Metric {
    char *name;
    double *value;
    uint8_t *written;
    unsigned capacity;
} Metric;

typedef struct Aggregate {
    char *name;
    double value;
} Aggregate;

struct VgCollector {
    pthread_mutex_t lock;
    Metric **metric;
    unsigned n_metrics, cap_metrics;
    Aggregate *aggregate;
    unsigned n_aggregates;
    int rewrite; ///< vg_collector_set() may replace values
};

int vg_collector_create(VgCollector **c)
{
    VgCollector *col = calloc(1, sizeof(*col));

    if (!col)
        return -ENOMEM;
    pthread_mutex_init(&col->lock, NULL);
    *c = col;
    return 0;
}

void vg_collector_destroy(VgCollector **c)
{
    VgCollector *col = *c;

    if (!col)
        return;
    for (unsigned i = 0; i < col->n_metrics; i++) {
        free(col->metric[i]->name);
        free(col->metric[i]->value);
        free(col->metric[i]->written);
        free(col->metric[i]);
    }
    free(col->metric);
    for (unsigned i = 0; i < col->n_aggregates; i++)
        free(col->aggregate[i].name);
    free(col->aggregate);
    pthread_mutex_destroy(&col->lock);
    free(col);
    *c = NULL;
}

static int find_locked(const VgCollector *c, const char *name)
{
    for (unsigned i = 0; i < c->n_metrics; i++)
        if (!strcmp(c->metric[i]->name, name))
            return (int)i;
    return -EINVAL;
}

int vg_collector_key(VgCollector *c, const char *name)
{
    Metric *m;
    int ret;

    pthread_mutex_lock(&c->lock);
    ret = find_locked(c, name);
    if (ret >= 0)
        goto end;
    if (c->n_metrics == c->cap_metrics) {
        unsigned cap = c->cap_metrics ? 2 * c->cap_metrics : 16;
        Metric **tmp = realloc(c->metric, cap * sizeof(*tmp));
        if (!tmp) {
            ret = -ENOMEM;
            goto end;
        }
        c->metric = tmp;
        c->cap_metrics = cap;
    }
    m = calloc(1, sizeof(*m));
    if (!m || !(m->name = strdup(name))) {
        free(m);
        ret = -ENOMEM;
        goto end;
    }
    c->metric[c->n_metrics] = m;
    ret = (int)c->n_metrics++;
end:
    pthread_mutex_unlock(&c->lock);
    return ret;
}

int vg_collector_find(const VgCollector *c, const char *name)
{
    int ret;

    pthread_mutex_lock((pthread_mutex_t *)&c->lock);
    ret = find_locked(c, name);
    pthread_mutex_unlock((pthread_mutex_t *)&c->lock);
    return ret;
}

static int grow(Metric *m, unsigned index)
{
    unsigned cap = m->capacity ? m->capacity : 64;
    double *v;
    uint8_t *w;

    while (cap <= index) {
        if (cap > UINT32_MAX / 2)
            return -ENOMEM;
        cap *= 2;
    }
    v = realloc(m->value, (size_t)cap * sizeof(*v));
    if (!v)
        return -ENOMEM;
    m->value = v;
    w = realloc(m->written, cap);
    if (!w)
        return -ENOMEM;
    memset(w + m->capacity, 0, cap - m->capacity);
    m->written = w;
    m->capacity = cap;
    return 0;
}

int vg_collector_set(VgCollector *c, int key, unsigned index, double value)
{
    Metric *m;
    int ret = 0;

    pthread_mutex_lock(&c->lock);
    if (key < 0 || (unsigned)key >= c->n_metrics) {
        ret = -EINVAL;
        goto end;
    }
    m = c->metric[key];
    if (index >= m->capacity && (ret = grow(m, index)) < 0)
        goto end;
    if (m->written[index] && !c->rewrite) {
        ret = -EEXIST;
        goto end;
    }
    m->value[index] = value;
    m->written[index] = 1;
end:
    pthread_mutex_unlock(&c->lock);
    return ret;
}

void vg_collector_set_rewrite(VgCollector *c, int on)
{
    pthread_mutex_lock(&c->lock);
    c->rewrite = on;
    pthread_mutex_unlock(&c->lock);
}

int vg_collector_get(VgCollector *c, int key, unsigned index, double *value)
{
    Metric *m;
    int ret = 0;

    pthread_mutex_lock(&c->lock);
    if (key < 0 || (unsigned)key >= c->n_metrics) {
        ret = -EINVAL;
        goto end;
    }
    m = c->metric[key];
    if (index >= m->capacity || !m->written[index]) {
        ret = -EAGAIN;
        goto end;
    }
    *value = m->value[index];
end:
    pthread_mutex_unlock(&c->lock);
    return ret;
}

unsigned vg_collector_count(const VgCollector *c)
{
    return c->n_metrics;
}

const char *vg_collector_name(const VgCollector *c, int key)
{
    if (key < 0 || (unsigned)key >= c->n_metrics)
        return NULL;
    return c->metric[key]->name;
}

int vg_collector_set_aggregate(VgCollector *c, const char *name, double v)
{
    Aggregate *tmp;
    int ret = 0;

    pthread_mutex_lock(&c->lock);
    for (unsigned i = 0; i < c->n_aggregates; i++) {
        if (!strcmp(c->aggregate[i].name, name)) {
            c->aggregate[i].value = v;
            goto end;
        }
    }
    tmp = realloc(c->aggregate, (c->n_aggregates + 1) * sizeof(*tmp));
    if (!tmp) {
        ret = -ENOMEM;
        goto end;
    }
    c->aggregate = tmp;
    if (!(tmp[c->n_aggregates].name = strdup(name))) {
        ret = -ENOMEM;
        goto end;
    }
    tmp[c->n_aggregates++].value = v;
end:
    pthread_mutex_unlock(&c->lock);
    return ret;
}

unsigned vg_collector_aggregate_count(const VgCollector *c)
{
    return c->n_aggregates;
}

const char *vg_collector_aggregate(const VgCollector *c, unsigned i,
                                   double *value)
{
    if (i >= c->n_aggregates)
        return NULL;
    *value = c->aggregate[i].value;
    return c->aggregate[i].name;
}
