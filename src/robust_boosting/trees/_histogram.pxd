# cython: language_level=3
"""The histogram kernel the node kernels and the grower call (see _histogram.pyx)."""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t


cdef void _build_hist_group(int f0, const uint8_t* codes, Py_ssize_t n_rows, int n_features,
                            const int32_t* idx, const double* ow, const int32_t* oc,
                            const double* owy, bint is_reg, bint has_cnt, bint dense,
                            Py_ssize_t start, Py_ssize_t end, const int32_t* n_bins,
                            int missing_bin, double* hist, int ns,
                            double* spare) noexcept nogil
