# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Binning kernel of the histogram tree (private): raw values to uint8 bin codes.

Part of the compiled kernels (see ``_common.pxd`` for the layout): ``codes`` is the
*transposed* binned matrix, shape ``(n_features, n_samples)``, C-contiguous ``uint8``;
the missing-value bin is ``missing_bin`` (the same for every feature) and the
non-missing bins of feature ``f`` are ``0 .. n_bins[f]-1``.
"""

from cython.parallel cimport prange
from libc.math cimport isnan
from libc.stdint cimport int64_t, uint8_t

from robust_boosting.trees._common cimport *

ctypedef fused floating:
    float
    double


cdef inline uint8_t _bin_one(double x, const double* thr, int64_t a, int64_t b,
                             int missing_bin) noexcept nogil:
    cdef int64_t base, m, half
    if isnan(x):
        return <uint8_t>missing_bin
    if b == a:
        return 0
    base = a
    m = b - a
    while m > 1:
        half = m >> 1
        if thr[base + half] < x:
            base = base + half
        m -= half
    return <uint8_t>(base - a + (1 if thr[base] < x else 0))


def bin_matrix(const floating[:, :] X, const double[::1] thr, const int64_t[::1] thr_off,
               int missing_bin, uint8_t[:, ::1] out, int n_threads=1):
    """Write the bin code of ``X[i, f]`` into ``out[f, i]``.

    A value goes to the number of thresholds strictly below it, so
    ``x <= thr[b]`` if and only if ``code(x) <= b``.  NaN goes to ``missing_bin``.
    """
    cdef Py_ssize_t n = X.shape[0]
    cdef Py_ssize_t n_features = X.shape[1]
    cdef Py_ssize_t n_chunks = (n + BIN_CHUNK - 1) // BIN_CHUNK
    cdef Py_ssize_t c, lo, hi, f, i
    cdef const double* t = &thr[0] if thr.shape[0] > 0 else NULL
    if n == 0:
        return
    with nogil:
        # one chunk: no thread to wake (a region of one thread; it runs once per binning)
        for c in prange(n_chunks, num_threads=max(1, n_threads), schedule="static",
                        use_threads_if=n_threads > 1 and n_chunks > 1):
            lo = c * BIN_CHUNK
            hi = min(n, lo + BIN_CHUNK)
            for f in range(n_features):
                for i in range(lo, hi):
                    out[f, i] = _bin_one(<double>X[i, f], t, thr_off[f], thr_off[f + 1],
                                         missing_bin)
