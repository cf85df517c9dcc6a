/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Per-frame records of one feature instance, seen by all its states: a
 * backend's extract writes frame i's record, the feature's post step
 * (VgFeatureDesc.post, on the caller's thread) reads them back in frame
 * order. For values of the whole stream that libvmaf accumulates in its
 * extractor (integer_psnr.c's APSNR): kept per frame, they add up in
 * frame order whatever the thread count, and a stream finished again at an
 * earlier frame (vg_flush_frames()) adds up only its frames. Thread-safe.
 */

#ifndef VG_COMMON_FRAMESTORE_H
#define VG_COMMON_FRAMESTORE_H

#include <stddef.h>

typedef struct VgFrameStore VgFrameStore;

/** A store of records of `size` bytes. @return 0 or -ENOMEM. */
int vg_framestore_create(VgFrameStore **s, size_t size);
void vg_framestore_destroy(VgFrameStore **s);

/** Write frame `index`'s record. @return 0 or -ENOMEM. */
int vg_framestore_put(VgFrameStore *s, unsigned index, const void *rec);

/** Read frame `index`'s record. @return 0, or -EAGAIN if never written. */
int vg_framestore_get(VgFrameStore *s, unsigned index, void *rec);

#endif /* VG_COMMON_FRAMESTORE_H */
