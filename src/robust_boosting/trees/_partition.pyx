# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Partition kernels of the histogram tree (private): a node's rows divided by a split,
in place and stable, with the children's totals; and the node arrays of a grown tree
(thresholds, regression values, the training rows' leaves).

``idx`` (``int32``) lists the rows with non-zero weight; every node owns the
contiguous slice ``idx[start:end]``; ``ow`` (``float64``) and ``oc`` (``int32`` class
codes, classification) or ``owy`` (``float64`` weight times centred target,
regression) are stored in the same node order.
"""

from libc.math cimport INFINITY, NAN
from libc.stdint cimport int32_t, int64_t, uint8_t

from robust_boosting.trees._common cimport *


cdef Py_ssize_t _partition_table(const uint8_t* row, int32_t* idx, double* ow, int32_t* oc,
                                 double* owy, bint is_reg, Py_ssize_t start, Py_ssize_t end,
                                 const uint8_t* table, int32_t* buf_i, double* buf_w,
                                 int32_t* buf_c, double* buf_y, double* left_tot,
                                 double* right_tot, int ns) noexcept nogil:
    cdef int cnt = ns - 1
    cdef int s
    cdef Py_ssize_t q, nl, nr, gi
    cdef int32_t i, k
    cdef double w, wl, wr, v, vl
    cdef int32_t* ids = idx + start
    cdef double* ws = ow + start
    cdef double* ys = NULL
    cdef int32_t* cs = NULL
    cdef double lw = 0.0, rw = 0.0, ly = 0.0, ry = 0.0
    for s in range(ns):
        left_tot[s] = 0.0
        right_tot[s] = 0.0
    if is_reg:
        ys = owy + start
    else:
        cs = oc + start
    nl = 0
    nr = 0
    # branch-free: write to both sides, advance one (the side is unpredictable); the
    # regression sums in locals (registers: the totals of nodes divided side by side
    # may share a cache line)
    for q in range(end - start):
        i = ids[q]
        gi = table[row[i]]
        w = ws[q]
        wl = w * gi
        wr = w - wl
        ids[nl] = i
        buf_i[nr] = i
        ws[nl] = w
        buf_w[nr] = w
        if is_reg:
            v = ys[q]
            ys[nl] = v
            buf_y[nr] = v
            vl = v * gi
            lw += wl
            rw += wr
            ly += vl
            ry += v - vl
        else:
            k = cs[q]
            cs[nl] = k
            buf_c[nr] = k
            left_tot[k] += wl
            right_tot[k] += wr
        nl += gi
        nr += 1 - gi
    for q in range(nr):
        ids[nl + q] = buf_i[q]
        ws[nl + q] = buf_w[q]
        if is_reg:
            ys[nl + q] = buf_y[q]
        else:
            cs[nl + q] = buf_c[q]
    if is_reg:
        left_tot[0] = lw
        right_tot[0] = rw
        left_tot[1] = ly
        right_tot[1] = ry
    left_tot[cnt] = nl
    right_tot[cnt] = nr
    return start + nl


cdef Py_ssize_t _partition(const uint8_t* row, int32_t* idx, double* ow, int32_t* oc,
                           double* owy, bint is_reg, Py_ssize_t start, Py_ssize_t end,
                           int split_bin, bint missing_left, int missing_bin, int32_t* buf_i,
                           double* buf_w, int32_t* buf_c, double* buf_y, double* left_tot,
                           double* right_tot, int ns) noexcept nogil:
    cdef uint8_t table[256]
    cdef int b
    for b in range(missing_bin):
        table[b] = b <= split_bin
    table[missing_bin] = missing_left
    return _partition_table(row, idx, ow, oc, owy, is_reg, start, end, table, buf_i, buf_w,
                            buf_c, buf_y, left_tot, right_tot, ns)


def partition(const uint8_t[:, ::1] codes, int32_t[::1] idx, double[::1] ow, int32_t[::1] oc,
              double[::1] owy, bint is_reg, Py_ssize_t start, Py_ssize_t end, int feat,
              int split_bin, bint missing_left, int missing_bin, int32_t[::1] buf_i,
              double[::1] buf_w, int32_t[::1] buf_c, double[::1] buf_y, double[::1] left_tot,
              double[::1] right_tot):
    """Stable in-place partition of ``idx[start:end]`` (and the node-ordered
    statistics) into left then right (left: code ``<= split_bin``, missing codes
    by ``missing_left``); also sums the children's statistics.

    Returns the position where the right child starts.
    """
    return _partition(&codes[feat, 0], _iptr(idx), _dptr(ow), _iptr(oc), _dptr(owy), is_reg,
                      start, end, split_bin, missing_left, missing_bin, _iptr(buf_i),
                      _dptr(buf_w), _iptr(buf_c), _dptr(buf_y), &left_tot[0], &right_tot[0],
                      left_tot.shape[0])


def partition_table(const uint8_t[:, ::1] codes, int32_t[::1] idx, double[::1] ow,
                    int32_t[::1] oc, double[::1] owy, bint is_reg, Py_ssize_t start,
                    Py_ssize_t end, int feat, const uint8_t[::1] table, int32_t[::1] buf_i,
                    double[::1] buf_w, int32_t[::1] buf_c, double[::1] buf_y,
                    double[::1] left_tot, double[::1] right_tot):
    """:func:`partition` for any split of the codes: a row goes left iff
    ``table[code]`` is 1 (``table`` has ``missing_bin + 1`` entries; categorical
    splits pass their set of left categories, plus the missing-value direction)."""
    return _partition_table(&codes[feat, 0], _iptr(idx), _dptr(ow), _iptr(oc), _dptr(owy),
                            is_reg, start, end, &table[0], _iptr(buf_i), _dptr(buf_w),
                            _iptr(buf_c), _dptr(buf_y), &left_tot[0], &right_tot[0],
                            left_tot.shape[0])


def leaves_of_partition(const int32_t[::1] idx, const int32_t[::1] children_left,
                        const int64_t[::1] starts, const int64_t[::1] ends, int32_t[::1] out):
    """``out[idx[starts[j]:ends[j]]] = j`` for every leaf ``j`` (``children_left[j] < 0``)
    of a grown tree whose node ``j`` holds the rows ``idx[starts[j]:ends[j]]``."""
    cdef Py_ssize_t m = children_left.shape[0]
    cdef Py_ssize_t j, q
    if starts.shape[0] < m or ends.shape[0] < m:
        raise ValueError("leaves_of_partition needs a start and an end for every node")
    with nogil:
        for j in range(m):
            if children_left[j] < 0:
                for q in range(starts[j], ends[j]):
                    out[idx[q]] = <int32_t>j


def regression_values(const double[:, ::1] tot, double ybar, double[::1] out,
                      double lam=0.0):
    """A regression tree's node values from its node totals ``(weight, weighted residual
    sum, count)``: ``tot[j, 1] / (tot[j, 0] + lam) + ybar``, and ``ybar`` for a node of
    no positive weight (one whose weight cancelled in a histogram subtraction)."""
    cdef Py_ssize_t m = tot.shape[0]
    cdef Py_ssize_t j
    if out.shape[0] != m or (m and tot.shape[1] < 2):
        raise ValueError("regression_values needs (weight, sum) totals and an output per node")
    with nogil:
        for j in range(m):
            out[j] = (tot[j, 1] / (tot[j, 0] + lam) if tot[j, 0] > 0.0 else 0.0) + ybar


def node_thresholds(const int32_t[::1] feature, const int32_t[::1] split_bin,
                    const int64_t[::1] thr_off, const double[::1] thr_flat,
                    const int32_t[::1] n_categories, double[::1] out):
    """The raw threshold of each node's split "code <= split_bin[j]" on ``feature[j]``:
    ``thr_flat[thr_off[f] + b]``, ``inf`` for a bin past the feature's last threshold,
    NaN for a leaf (``feature[j] < 0``) and for a categorical feature (set splits)."""
    cdef Py_ssize_t m = feature.shape[0]
    cdef Py_ssize_t j
    cdef int32_t f, b
    if split_bin.shape[0] != m or out.shape[0] != m:
        raise ValueError("node_thresholds needs a split bin and an output for every node")
    with nogil:
        for j in range(m):
            f = feature[j]
            b = split_bin[j]
            if f < 0 or n_categories[f] > 0:
                out[j] = NAN
            elif 0 <= b < thr_off[f + 1] - thr_off[f]:
                out[j] = thr_flat[thr_off[f] + b]
            else:
                out[j] = INFINITY
