# cython: language_level=3
"""The partition the grower calls (see _partition.pyx)."""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t


cdef Py_ssize_t _partition(const uint8_t* row, int32_t* idx, double* ow, int32_t* oc,
                           double* owy, bint is_reg, Py_ssize_t start, Py_ssize_t end,
                           int split_bin, bint missing_left, int missing_bin, int32_t* buf_i,
                           double* buf_w, int32_t* buf_c, double* buf_y, double* left_tot,
                           double* right_tot, int ns) noexcept nogil
cdef Py_ssize_t _partition_table(const uint8_t* row, int32_t* idx, double* ow, int32_t* oc,
                                 double* owy, bint is_reg, Py_ssize_t start, Py_ssize_t end,
                                 const uint8_t* table, int32_t* buf_i, double* buf_w,
                                 int32_t* buf_c, double* buf_y, double* left_tot,
                                 double* right_tot, int ns) noexcept nogil
