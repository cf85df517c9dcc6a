/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The libsvm text model inside a VMAF model's JSON (libvmaf v3.2.0
 * src/svm.cpp: the SVMModelParser's grammar, and svm_predict_values() of
 * an epsilon/nu-SVR with the RBF kernel, Kernel::k_function()).
 */

#ifndef VG_COMMON_LIBSVM_H
#define VG_COMMON_LIBSVM_H

#include <stddef.h>

typedef struct VgSvmNode {
    int index; ///< 1-based feature index
    double value;
} VgSvmNode;

/** libsvm regression model (one decision function). */
typedef struct VgSvm {
    double gamma;
    double rho;
    unsigned n_sv;
    double *coef;    ///< n_sv coefficients, file order
    unsigned *start; ///< n_sv + 1 offsets into nodes
    VgSvmNode *nodes;
} VgSvm;

/**
 * Parse a libsvm regression model from text[0..len) into s (zeroed
 * first). On failure, writes the reason, one line, into err (err_size
 * bytes, NUL-terminated) for the caller to report.
 * @return 0, -EINVAL (malformed) or -ENOMEM
 */
int vg_svm_parse(VgSvm *s, const char *text, size_t len, char *err,
                 size_t err_size);

/** Free what vg_svm_parse() allocated (s itself is the caller's). */
void vg_svm_free(VgSvm *s);

/**
 * The decision value for x[0..n-1] (feature k + 1 is x[k]): for each
 * support vector in file order, coef * exp(-gamma * squared distance),
 * summed, less rho.
 */
double vg_svm_predict(const VgSvm *s, const double *x, unsigned n);

#endif /* VG_COMMON_LIBSVM_H */
