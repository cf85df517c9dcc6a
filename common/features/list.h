/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * The registration list: one line per feature, VG_FEATURE(name, gpu).
 * `name` is libvmaf's extractor name; the feature lives in
 * common/features/name.{c,h}, cpu/name.c and, when `gpu` is 1, in
 * gpu/name.c and gpu/name.cu. Everything else (the descriptor table, the
 * backends' implementation tables, the build's source lists in
 * features.am, the kernels' translation unit) is derived from this list.
 *
 * Order matters for output names provided by several features (libvmaf's
 * feature_extractor_list): the first one wins. No include guard: included
 * once per use with VG_FEATURE defined.
 */

VG_FEATURE(adm, 1)
VG_FEATURE(psnr, 1)
VG_FEATURE(motion, 1)
VG_FEATURE(vif, 1)
VG_FEATURE(float_ssim, 1)
VG_FEATURE(float_ms_ssim, 1)
VG_FEATURE(float_vif, 1)
VG_FEATURE(float_adm, 1)
VG_FEATURE(float_moment, 1)
VG_FEATURE(float_psnr, 1)
VG_FEATURE(float_ansnr, 1)
VG_FEATURE(float_motion, 1)
VG_FEATURE(psnr_hvs, 1)
VG_FEATURE(ciede, 1)
VG_FEATURE(cambi, 1)
VG_FEATURE(speed_chroma, 1)
VG_FEATURE(speed_temporal, 1)
