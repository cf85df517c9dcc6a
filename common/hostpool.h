/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The host job pool: runs the reference implementations (cpu/<feat>.c) of
 * a set of features on frames, for every engine that has features on the
 * host (the CPU engine: all of them; the CUDA engine: those without a CUDA
 * implementation). Each worker owns one state per feature, so frames run
 * in parallel and every value depends only on its frame; results do not
 * depend on the thread count.
 *
 * With n_threads 0 there are no threads: vg_host_pool_push() runs the job
 * on the calling thread before it returns. A pool may have no features and
 * only run its jobs' own functions (VgHostJob.run).
 */

#ifndef VG_COMMON_HOSTPOOL_H
#define VG_COMMON_HOSTPOOL_H

#include "common/backend.h"

typedef struct VgHostJob VgHostJob;

/**
 * The owner's own work on a job's frame, run after the pool's features on
 * the same thread (the CUDA engine's host steps of its CUDA features).
 * @return 0 or negative errno (logged).
 */
typedef int VgHostJobFn(void *owner, const VgHostJob *job);

/** One frame's work: the frame and what the owner needs to release it. */
struct VgHostJob {
    VgFrame frame;
    VgHostJobFn *run; ///< optional, after the features
    void *opaque[5];
};

/**
 * Called once per job on the thread that ran it, after every feature ran
 * (or failed: ret < 0, logged already; jobs after a failure are not run
 * and report the first error).
 */
typedef void VgHostJobDoneFn(void *owner, const VgHostJob *job, int ret);

typedef struct VgHostPool VgHostPool;

/**
 * Open a pool running the n features insts[] (states opened with
 * vg_feature_ctxs_open_cpu()) on n_threads worker threads (0: the caller).
 * @return 0 or negative errno (logged); *pool is NULL on failure.
 */
int vg_host_pool_open(VgHostPool **pool, const VgEngineParams *p,
                      const VgFeatureInst *const *insts, unsigned n,
                      unsigned n_threads, VgHostJobDoneFn *done, void *owner);

/**
 * Queue a job; blocks while 2 * n_threads jobs are queued. Without
 * threads, runs it and returns its result. @return 0 or negative errno.
 */
int vg_host_pool_push(VgHostPool *pool, const VgHostJob *job);

/** Wait until every queued job has run. @return the first error or 0. */
int vg_host_pool_wait(VgHostPool *pool);

/** Run each feature's flush (after vg_host_pool_wait()). */
int vg_host_pool_flush(VgHostPool *pool);

/** A ladder's reference stage of one feature (common/hostpool.c). */
typedef struct VgHostStage VgHostStage;

/**
 * A ladder's rendition r > 0 (pool) reads the reference stages
 * (VG_FEATURE_REF_STAGE, VgFeatureImpl.ref_stage_size) of rendition 0's
 * pool (src) for every feature both run, instead of computing them; src
 * owns the stages and must be closed after pool. Before the first job of
 * either. names gets the features' names, comma-separated.
 * @return 0 or negative errno
 */
int vg_host_pool_share_stages(VgHostPool *pool, VgHostPool *src, char *names,
                              size_t names_size);

/** Threads in the pool (0: jobs run on the caller). */
unsigned vg_host_pool_threads(const VgHostPool *pool);

/** Finish the queued jobs, stop the threads, close the states. */
void vg_host_pool_close(VgHostPool **pool);

#endif /* VG_COMMON_HOSTPOOL_H */
