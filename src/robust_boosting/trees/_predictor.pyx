# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Prediction kernels of the histogram tree (private): the leaf of each row, from
binned codes or raw values, for threshold and categorical (set) splits.

A tree is given by its node arrays: ``feature``, ``split_bin`` or ``threshold``,
``missing_left``, ``left``/``right`` children (``-1`` at a leaf).
"""

from cython.parallel cimport prange
from libc.math cimport isnan
from libc.stdint cimport int32_t, int64_t, uint8_t

from robust_boosting.trees._common cimport *

ctypedef fused floating:
    float
    double


cdef inline int32_t _leaf_of_binned(const uint8_t* codes, Py_ssize_t n_rows,
                                    const int32_t* feature, const int32_t* split_bin,
                                    const uint8_t* missing_left, const int32_t* left,
                                    const int32_t* right, int missing_bin,
                                    Py_ssize_t i) noexcept nogil:
    cdef int32_t node = 0
    cdef int v
    cdef bint go_left
    while left[node] >= 0:
        v = codes[feature[node] * n_rows + i]
        if v == missing_bin:
            go_left = missing_left[node] != 0
        else:
            go_left = v <= split_bin[node]
        node = left[node] if go_left else right[node]
    return node


def apply_binned_rows(const uint8_t[:, ::1] codes, const int32_t[::1] feature,
                      const int32_t[::1] split_bin, const uint8_t[::1] missing_left,
                      const int32_t[::1] left, const int32_t[::1] right, int missing_bin,
                      const int32_t[::1] rows, int32_t[::1] out, int n_threads=1):
    """``out[r] = leaf of column r of codes`` for every ``r`` in ``rows`` (on ``n_threads``
    threads from ``PRED_CHUNK`` rows on: each row on its own, so the same result)."""
    cdef Py_ssize_t q
    cdef Py_ssize_t m = rows.shape[0]
    with nogil:
        if n_threads > 1 and m >= PRED_CHUNK:
            for q in prange(m, num_threads=n_threads, schedule="static"):
                out[rows[q]] = _leaf_of_binned(&codes[0, 0], codes.shape[1], &feature[0],
                                               &split_bin[0], &missing_left[0], &left[0],
                                               &right[0], missing_bin, rows[q])
        else:  # no parallel region at all: even a team of one costs a call per tree
            for q in range(m):
                out[rows[q]] = _leaf_of_binned(&codes[0, 0], codes.shape[1], &feature[0],
                                               &split_bin[0], &missing_left[0], &left[0],
                                               &right[0], missing_bin, rows[q])


def apply_binned(const uint8_t[:, ::1] codes, const int32_t[::1] feature,
                 const int32_t[::1] split_bin, const uint8_t[::1] missing_left,
                 const int32_t[::1] left, const int32_t[::1] right, int missing_bin,
                 int32_t[::1] out, int n_threads=1):
    """Leaf index of every column of ``codes`` (n_features, n_samples), in parallel
    over chunks of samples if ``n_threads > 1``."""
    cdef Py_ssize_t n = codes.shape[1]
    cdef Py_ssize_t n_chunks = (n + PRED_CHUNK - 1) // PRED_CHUNK
    cdef Py_ssize_t c, i, lo, hi
    if n == 0:
        return
    with nogil:
        if n_threads > 1 and n_chunks > 1:
            for c in prange(n_chunks, num_threads=n_threads, schedule="static"):
                lo = c * PRED_CHUNK
                hi = min(n, lo + PRED_CHUNK)
                for i in range(lo, hi):
                    out[i] = _leaf_of_binned(&codes[0, 0], n, &feature[0], &split_bin[0],
                                             &missing_left[0], &left[0], &right[0],
                                             missing_bin, i)
        else:  # one chunk: no parallel region (a thread team costs more than the chunk)
            for i in range(n):
                out[i] = _leaf_of_binned(&codes[0, 0], n, &feature[0], &split_bin[0],
                                         &missing_left[0], &left[0], &right[0], missing_bin,
                                         i)


cdef inline int32_t _leaf_of_raw(const floating[:, :] X, Py_ssize_t i, const int32_t* feature,
                                 const double* threshold, const uint8_t* missing_left,
                                 const int32_t* left, const int32_t* right) noexcept nogil:
    cdef int32_t node = 0
    cdef double x
    cdef bint go_left
    while left[node] >= 0:
        x = X[i, feature[node]]
        if isnan(x):
            go_left = missing_left[node] != 0
        else:
            go_left = x <= threshold[node]
        node = left[node] if go_left else right[node]
    return node


def apply_raw(const floating[:, :] X, const int32_t[::1] feature, const double[::1] threshold,
              const uint8_t[::1] missing_left, const int32_t[::1] left,
              const int32_t[::1] right, int32_t[::1] out, int n_threads=1):
    """Leaf index of every row of raw ``X``: left iff ``x <= threshold``; NaN follows
    ``missing_left``.  In parallel over chunks of rows if ``n_threads > 1``."""
    cdef Py_ssize_t n = X.shape[0]
    cdef Py_ssize_t n_chunks = (n + PRED_CHUNK - 1) // PRED_CHUNK
    cdef Py_ssize_t c, i, lo, hi
    if n == 0:
        return
    with nogil:
        if n_threads > 1 and n_chunks > 1:
            for c in prange(n_chunks, num_threads=n_threads, schedule="static"):
                lo = c * PRED_CHUNK
                hi = min(n, lo + PRED_CHUNK)
                for i in range(lo, hi):
                    out[i] = _leaf_of_raw(X, i, &feature[0], &threshold[0], &missing_left[0],
                                          &left[0], &right[0])
        else:  # one chunk: no parallel region
            for i in range(n):
                out[i] = _leaf_of_raw(X, i, &feature[0], &threshold[0], &missing_left[0],
                                      &left[0], &right[0])


def apply_binned_table(const uint8_t[:, ::1] codes, const int32_t[::1] feature,
                       const uint8_t[:, ::1] table, const int32_t[::1] left,
                       const int32_t[::1] right, const int32_t[::1] rows, int32_t[::1] out):
    """``out[r] = leaf of column r of codes`` for every ``r`` in ``rows``, for a tree
    given as routing tables: at node ``n`` a code ``c`` goes left iff ``table[n, c]``
    (see :meth:`~robust_boosting.trees.HistTree.routing_table`; any split kind)."""
    cdef Py_ssize_t q, i
    cdef int32_t node
    with nogil:
        for q in range(rows.shape[0]):
            i = rows[q]
            node = 0
            while left[node] >= 0:
                if table[node, codes[feature[node], i]]:
                    node = left[node]
                else:
                    node = right[node]
            out[i] = node


def apply_raw_cat(const floating[:, :] X, const int32_t[::1] feature,
                  const double[::1] threshold, const uint8_t[::1] missing_left,
                  const uint8_t[::1] is_cat, const uint8_t[:, ::1] bits,
                  const int32_t[::1] left, const int32_t[::1] right, int32_t[::1] out):
    """:func:`apply_raw` for a tree with categorical splits: a categorical
    feature's value is its category code (checked by the caller); code ``c`` goes
    left at node ``n`` iff bit ``c % 8`` of ``bits[n, c // 8]`` is set."""
    cdef Py_ssize_t i
    cdef int32_t node
    cdef double x
    cdef int64_t c
    cdef bint go_left
    with nogil:
        for i in range(X.shape[0]):
            node = 0
            while left[node] >= 0:
                x = X[i, feature[node]]
                if isnan(x):
                    go_left = missing_left[node] != 0
                elif is_cat[node]:
                    c = <int64_t>x
                    go_left = (bits[node, c >> 3] >> (c & 7)) & 1 != 0
                else:
                    go_left = x <= threshold[node]
                node = left[node] if go_left else right[node]
            out[i] = node
