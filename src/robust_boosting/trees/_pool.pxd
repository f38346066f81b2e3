# cython: language_level=3
"""The grower's histogram pool (see _pool.pyx)."""


cdef struct Pool:
    # histogram slots, each allocated at its first use and kept for the workspace's
    # next trees (a tree's histograms alive at once, not one per node)
    double** ptr
    Py_ssize_t cap
    Py_ssize_t hist_size


cdef bint _reserve(Pool* p, Py_ssize_t n) noexcept nogil
cdef double* _slot(Pool* p, Py_ssize_t s) noexcept nogil
cdef void _take_spares(Pool* p) noexcept
cdef void _keep_spares(Pool* p) noexcept
