# cython: language_level=3
"""The histogram and node kernels the grower calls (see _histogram.pyx)."""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

from robust_boosting.trees._common cimport NodeArgs


cdef void _build_hist_group(int f0, const uint8_t* codes, Py_ssize_t n_rows, int n_features,
                            const int32_t* idx, const double* ow, const int32_t* oc,
                            const double* owy, bint is_reg, bint has_cnt, bint dense,
                            Py_ssize_t start, Py_ssize_t end, const int32_t* n_bins,
                            int missing_bin, double* hist, int ns,
                            double* spare) noexcept nogil
cdef void _tree_args(NodeArgs* a, const uint8_t* codes, Py_ssize_t n_rows, int n_features,
                     bint is_reg, int crit, const int32_t* n_bins, int missing_bin, int ns,
                     int n_val, double min_cnt, double min_w, double lam, double* scores,
                     int32_t* bins, uint8_t* mls, double* scratch,
                     int scratch_stride) noexcept nogil
cdef void _run_groups(NodeArgs* a, int n_threads) noexcept nogil
