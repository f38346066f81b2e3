# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Exact per-row feature contributions of histogram trees (private): path-dependent
TreeSHAP.

Lundberg et al., "From local explanations to global understanding with explainable AI
for trees", Nature Machine Intelligence 2 (2020), Algorithm 2: the Shapley values of
the value function ``v(S) = E[f(x) | x_S]`` that a tree's training covers define
(at a node whose feature is not in ``S`` a row goes to both children, weighted by their
covers). The routing is the predictor's (``_predictor.apply_raw`` and
``apply_raw_cat``): NaN follows ``missing_go_left``, a categorical node sends code ``c``
left iff bit ``c % 8`` of byte ``c // 8`` of its set is set, any other node sends ``x``
left iff ``x <= threshold``.

The trees of an ensemble come concatenated, node arrays end to end (``node_off``), each
with its leaf values (``n_out`` per node, from ``value_off``) and the output (class)
``out_class`` its values add to. ``frac[j]`` is node ``j``'s share of its parent's
cover (``cover_j / (cover_left + cover_right)``; one half each when both are 0; 1 at a
root), so the covers need not add up exactly. A child that neither the row nor the
covers reach (zero share on a path where the row goes the other way) adds nothing
and is skipped.

A few trees (every symmetric tree the library grows, stumps, shallow trees) have so
few distinct split conditions ``C`` that a row's routing in them is one of ``2**C``
patterns: :func:`condition_tables` computes the contributions of every pattern once
(each pattern by the same recursion), and :func:`contributions` then adds a row's
pattern's contributions (CatBoost's per-leaf precomputation for oblivious trees,
generalised). A row whose value is missing where the nodes of one condition send
missing values different ways goes through the recursion in that tree. Rows are
independent and each is summed in the trees' order, so the result does not depend
on the number of threads.
"""

from cython.parallel cimport prange
from libc.math cimport isnan
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc

from robust_boosting.trees._common cimport *


cdef struct PathEl:
    int32_t feature
    double zero
    double one
    double pw


cdef struct Trees:
    # the concatenated trees (see the module's docstring); children are local indices
    const int64_t* node_off
    const int64_t* value_off
    const int32_t* n_out
    const int32_t* out_class
    const int32_t* left
    const int32_t* right
    const int32_t* feature
    const double* threshold
    const uint8_t* missing_left
    const uint8_t* is_cat      # NULL: no categorical node
    const uint8_t* cat_bits    # (nodes, CAT_SET_BYTES)
    const double* frac
    const double* values


cdef inline bint _goes_left(const Trees* t, int64_t j, const double* x) noexcept nogil:
    """Whether the row ``x`` goes left at (global) node ``j``: the predictor's routing."""
    cdef double v = x[t.feature[j]]
    cdef int64_t c
    if isnan(v):
        return t.missing_left[j] != 0
    if t.is_cat != NULL and t.is_cat[j]:
        c = <int64_t>v
        return (t.cat_bits[j * CAT_SET_BYTES + (c >> 3)] >> (c & 7)) & 1 != 0
    return v <= t.threshold[j]


cdef inline void _extend(PathEl* path, int d, double z, double o, int32_t f) noexcept nogil:
    """EXTEND of Algorithm 2: add a feature with zero and one fractions ``z``, ``o``."""
    cdef int i
    path[d].feature = f
    path[d].zero = z
    path[d].one = o
    path[d].pw = 1.0 if d == 0 else 0.0
    for i in range(d - 1, -1, -1):
        path[i + 1].pw += o * path[i].pw * (i + 1) / <double>(d + 1)
        path[i].pw = z * path[i].pw * (d - i) / <double>(d + 1)


cdef inline void _unwind(PathEl* path, int d, int k) noexcept nogil:
    """UNWIND of Algorithm 2: remove element ``k`` of a path of ``d + 1`` elements."""
    cdef int i
    cdef double o = path[k].one
    cdef double z = path[k].zero
    cdef double nxt = path[d].pw
    cdef double tmp
    for i in range(d - 1, -1, -1):
        if o != 0:
            tmp = path[i].pw
            path[i].pw = nxt * (d + 1) / ((i + 1) * o)
            nxt = tmp - path[i].pw * z * (d - i) / <double>(d + 1)
        else:
            path[i].pw = path[i].pw * (d + 1) / (z * (d - i))
    for i in range(k, d):
        path[i].feature = path[i + 1].feature
        path[i].zero = path[i + 1].zero
        path[i].one = path[i + 1].one


cdef inline double _unwound_sum(const PathEl* path, int d, int k) noexcept nogil:
    """The total weight of the path with element ``k`` unwound (Algorithm 2's
    ``sum(UNWIND(m, i).w)``), without changing it."""
    cdef int i
    cdef double o = path[k].one
    cdef double z = path[k].zero
    cdef double nxt = path[d].pw
    cdef double total = 0.0
    cdef double tmp
    for i in range(d - 1, -1, -1):
        if o != 0:
            tmp = nxt * (d + 1) / ((i + 1) * o)
            total += tmp
            nxt = path[i].pw - tmp * z * (d - i) / <double>(d + 1)
        else:
            total += path[i].pw / z * (d + 1) / <double>(d - i)
    return total


cdef void _recurse(const Trees* t, int64_t base, int64_t vbase, int n_out, const double* x,
                   const uint8_t* hot_left, double* phi, int n_cols, int32_t node,
                   PathEl* parent, int d, double pz, double po, int32_t pf) noexcept nogil:
    """RECURSE of Algorithm 2 at local node ``node`` of the tree at ``base``; ``phi`` is
    the row's first output of the tree (``n_cols`` apart). The hot child is the row's
    (``x``), or ``hot_left[node]`` when ``x`` is NULL (a routing pattern)."""
    cdef PathEl* path = parent + d + 1
    cdef int i, k, o
    cdef int64_t j = base + node
    cdef int32_t f, hot, cold
    cdef double w, scale, iz = 1.0, io = 1.0, hz, cz
    cdef bint go_left
    for i in range(d + 1):
        path[i] = parent[i]
    _extend(path, d, pz, po, pf)
    if t.left[j] < 0:
        for i in range(1, d + 1):
            w = _unwound_sum(path, d, i)
            scale = w * (path[i].one - path[i].zero)
            f = path[i].feature
            for o in range(n_out):
                phi[o * n_cols + f] += scale * t.values[vbase + node * n_out + o]
        return
    f = t.feature[j]
    if x == NULL:
        go_left = hot_left[node] != 0
    else:
        go_left = _goes_left(t, j, x)
    if go_left:
        hot, cold = t.left[j], t.right[j]
    else:
        hot, cold = t.right[j], t.left[j]
    k = 0
    while k <= d:
        if path[k].feature == f:
            break
        k += 1
    if k <= d:
        iz = path[k].zero
        io = path[k].one
        _unwind(path, d, k)
        d -= 1
    hz = t.frac[base + hot] * iz
    cz = t.frac[base + cold] * iz
    if hz != 0 or io != 0:
        _recurse(t, base, vbase, n_out, x, hot_left, phi, n_cols, hot, path, d + 1, hz, io, f)
    if cz != 0:
        _recurse(t, base, vbase, n_out, x, hot_left, phi, n_cols, cold, path, d + 1, cz, 0.0,
                 f)


cdef inline int _path_size(int max_depth) noexcept nogil:
    return (max_depth + 2) * (max_depth + 3) // 2


def node_weights(const int64_t[::1] node_off, const int32_t[::1] left,
                 const int32_t[::1] right, const double[::1] frac, double[::1] weight,
                 int32_t[::1] depth):
    """``weight[j]``: the product of the shares ``frac`` on the path to node ``j`` (the
    share of the root's cover that reaches it), and ``depth[j]`` its depth, for every
    tree of ``node_off``. A tree's expected value is its leaves' values times these."""
    cdef Py_ssize_t n_trees = node_off.shape[0] - 1
    cdef Py_ssize_t t, top
    cdef int64_t base, j, longest = 1
    cdef int32_t node
    cdef int32_t* stack
    for t in range(n_trees):
        longest = max(longest, node_off[t + 1] - node_off[t])
    stack = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
    if stack == NULL:
        raise MemoryError()
    with nogil:
        for t in range(n_trees):
            base = node_off[t]
            weight[base] = 1.0
            depth[base] = 0
            stack[0] = 0
            top = 1
            while top > 0:
                top -= 1
                node = stack[top]
                j = base + node
                if left[j] >= 0:
                    weight[base + left[j]] = weight[j] * frac[base + left[j]]
                    weight[base + right[j]] = weight[j] * frac[base + right[j]]
                    depth[base + left[j]] = depth[j] + 1
                    depth[base + right[j]] = depth[j] + 1
                    stack[top] = left[j]
                    stack[top + 1] = right[j]
                    top += 2
    free(stack)


cdef inline void _zero(double* a, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        a[i] = 0.0


def condition_tables(const int64_t[::1] node_off, const int64_t[::1] value_off,
                     const int32_t[::1] n_out, const int32_t[::1] left,
                     const int32_t[::1] right, const int32_t[::1] feature,
                     const double[::1] frac, const double[::1] values,
                     const int64_t[::1] tree_ids, const int32_t[::1] n_cond,
                     const int32_t[::1] node_cond, const int64_t[::1] tf_off,
                     const int32_t[::1] tf_feat, const int64_t[::1] table_off,
                     int n_features, int max_depth, double[::1] tables, int n_threads=1):
    """For each tree ``t = tree_ids[q]`` with ``n_cond[q]`` distinct split conditions
    (``node_cond``: each node's condition, local, -1 at a leaf) and split features
    ``tf_feat[tf_off[q]:tf_off[q + 1]]`` (``m`` of them), the contributions of every
    routing pattern ``s`` (a row goes left at a node iff bit ``node_cond`` of ``s`` is
    set): ``n_out[t]`` rows of ``m`` values, the tree's features', from
    ``tables[table_off[q] + s * n_out[t] * m]``."""
    cdef Py_ssize_t n_q = tree_ids.shape[0]
    cdef Py_ssize_t q, node, o, m, k
    cdef int64_t t, base, s, n_pat, n_nodes, width, at
    cdef PathEl* path
    cdef uint8_t* hot
    cdef double* dense
    cdef Trees tr
    tr.left = &left[0]
    tr.right = &right[0]
    tr.feature = &feature[0]
    tr.frac = &frac[0]
    tr.values = &values[0]
    tr.is_cat = NULL
    if n_q == 0:
        return
    with nogil:
        for q in prange(n_q, num_threads=max(1, n_threads), schedule="dynamic",
                        use_threads_if=n_threads > 1):
            t = tree_ids[q]
            base = node_off[t]
            n_nodes = node_off[t + 1] - base
            m = tf_off[q + 1] - tf_off[q]
            width = n_out[t] * m
            n_pat = (<int64_t>1) << n_cond[q]
            path = <PathEl*>malloc(_path_size(max_depth) * sizeof(PathEl))
            hot = <uint8_t*>malloc(n_nodes * sizeof(uint8_t))
            dense = <double*>malloc(n_out[t] * n_features * sizeof(double))
            _zero(dense, n_out[t] * n_features)
            for s in range(n_pat):
                for node in range(n_nodes):
                    if node_cond[base + node] >= 0:
                        hot[node] = (s >> node_cond[base + node]) & 1
                    else:
                        hot[node] = 0
                _recurse(&tr, base, value_off[t], n_out[t], NULL, hot, dense, n_features, 0,
                         path, 0, 1.0, 1.0, -1)
                at = table_off[q] + s * width
                for o in range(n_out[t]):
                    for k in range(m):
                        tables[at + o * m + k] = dense[o * n_features + tf_feat[tf_off[q] + k]]
                        dense[o * n_features + tf_feat[tf_off[q] + k]] = 0.0
            free(dense)
            free(hot)
            free(path)


def contributions(const double[:, ::1] X, const int64_t[::1] node_off,
                  const int64_t[::1] value_off, const int32_t[::1] n_out,
                  const int32_t[::1] out_class, const int32_t[::1] left,
                  const int32_t[::1] right, const int32_t[::1] feature,
                  const double[::1] threshold, const uint8_t[::1] missing_left,
                  const uint8_t[::1] is_cat, const uint8_t[:, ::1] cat_bits,
                  const double[::1] frac, const double[::1] values,
                  const int64_t[::1] table_of, const int64_t[::1] cond_off,
                  const int32_t[::1] cond_node, const uint8_t[::1] cond_mixed,
                  const int64_t[::1] tf_off, const int32_t[::1] tf_feat,
                  const int64_t[::1] table_off, const double[::1] tables,
                  int max_depth, double[:, :, ::1] out, int n_threads=1):
    """Add every tree's contributions of each row of ``X`` to ``out`` (n, K, F + 1),
    columns ``0 .. F - 1`` (see the module's docstring).

    Trees with ``table_of[t] = q >= 0`` read their pattern tables (:func:`condition_tables`):
    conditions ``cond_off[q] .. cond_off[q + 1] - 1``, each given by one of its nodes
    ``cond_node`` (local) and whether its nodes send missing values different ways
    ``cond_mixed``, and split features ``tf_feat[tf_off[q]:tf_off[q + 1]]``; the
    others, and rows missing at a mixed condition, recurse.
    """
    cdef Py_ssize_t n = X.shape[0]
    cdef Py_ssize_t n_features = X.shape[1]
    cdef Py_ssize_t n_trees = node_off.shape[0] - 1
    cdef Py_ssize_t n_chunks = (n + PRED_CHUNK - 1) // PRED_CHUNK
    cdef Py_ssize_t c, i, lo, hi, t, o
    cdef int64_t q, s, k, base, j, width, m
    cdef int n_cols = n_features + 1
    cdef bint general
    cdef double* phi
    cdef const double* x
    cdef const double* tab
    cdef PathEl* path
    cdef Trees tr
    if n == 0 or n_trees == 0:
        return
    if out.shape[0] != n or out.shape[2] != n_cols:
        raise ValueError("contributions: out must have shape (n, K, n_features + 1)")
    tr.node_off = &node_off[0]
    tr.value_off = &value_off[0]
    tr.n_out = &n_out[0]
    tr.out_class = &out_class[0]
    tr.left = &left[0]
    tr.right = &right[0]
    tr.feature = &feature[0]
    tr.threshold = &threshold[0]
    tr.missing_left = &missing_left[0]
    tr.is_cat = &is_cat[0] if is_cat.shape[0] > 0 else NULL
    tr.cat_bits = &cat_bits[0, 0] if cat_bits.shape[0] > 0 else NULL
    tr.frac = &frac[0]
    tr.values = &values[0]
    with nogil:
        for c in prange(n_chunks, num_threads=max(1, n_threads), schedule="dynamic",
                        use_threads_if=n_threads > 1):
            lo = c * PRED_CHUNK
            hi = min(n, lo + PRED_CHUNK)
            path = <PathEl*>malloc(_path_size(max_depth) * sizeof(PathEl))
            for i in range(lo, hi):
                x = &X[i, 0]
                for t in range(n_trees):
                    base = node_off[t]
                    phi = &out[i, out_class[t], 0]
                    q = table_of[t]
                    general = q < 0
                    s = 0
                    if not general:
                        for k in range(cond_off[q + 1] - cond_off[q]):
                            j = base + cond_node[cond_off[q] + k]
                            if isnan(x[feature[j]]) and cond_mixed[cond_off[q] + k]:
                                general = True
                                break
                            if _goes_left(&tr, j, x):
                                s = s | ((<int64_t>1) << k)
                    if general:
                        _recurse(&tr, base, value_off[t], n_out[t], x, NULL, phi, n_cols, 0,
                                 path, 0, 1.0, 1.0, -1)
                    else:
                        m = tf_off[q + 1] - tf_off[q]
                        tab = &tables[table_off[q] + s * n_out[t] * m]
                        for o in range(n_out[t]):
                            for k in range(m):
                                phi[o * n_cols + tf_feat[tf_off[q] + k]] += tab[o * m + k]
            free(path)
