/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/framestore.h"

struct VgFrameStore {
    pthread_mutex_t lock;
    size_t size;      ///< bytes per record
    unsigned cap;     ///< records allocated
    uint8_t *data;    ///< cap records
    uint8_t *written; ///< cap flags
};

int vg_framestore_create(VgFrameStore **ps, size_t size)
{
    VgFrameStore *s = calloc(1, sizeof(*s));

    *ps = s;
    if (!s)
        return -ENOMEM;
    pthread_mutex_init(&s->lock, NULL);
    s->size = size;
    return 0;
}

void vg_framestore_destroy(VgFrameStore **ps)
{
    VgFrameStore *s = *ps;

    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    free(s->data);
    free(s->written);
    free(s);
    *ps = NULL;
}

static int grow(VgFrameStore *s, unsigned index)
{
    unsigned cap = s->cap ? s->cap : 256;
    uint8_t *d, *w;

    while (cap <= index) {
        if (cap > UINT32_MAX / 2)
            return -ENOMEM;
        cap *= 2;
    }
    if (!(d = realloc(s->data, (size_t)cap * s->size)))
        return -ENOMEM;
    s->data = d;
    if (!(w = realloc(s->written, cap)))
        return -ENOMEM;
    memset(w + s->cap, 0, cap - s->cap);
    s->written = w;
    s->cap = cap;
    return 0;
}

int vg_framestore_put(VgFrameStore *s, unsigned index, const void *rec)
{
    int ret = 0;

    pthread_mutex_lock(&s->lock);
    if (index >= s->cap && (ret = grow(s, index)) < 0)
        goto end;
    memcpy(s->data + (size_t)index * s->size, rec, s->size);
    s->written[index] = 1;
end:
    pthread_mutex_unlock(&s->lock);
    return ret;
}

int vg_framestore_get(VgFrameStore *s, unsigned index, void *rec)
{
    int ret = -EAGAIN;

    pthread_mutex_lock(&s->lock);
    if (index < s->cap && s->written[index]) {
        memcpy(rec, s->data + (size_t)index * s->size, s->size);
        ret = 0;
    }
    pthread_mutex_unlock(&s->lock);
    return ret;
}
