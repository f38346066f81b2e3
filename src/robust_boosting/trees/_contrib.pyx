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

Most trees (every symmetric tree the library grows, stumps, shallow trees) have so
few distinct split conditions ``C`` (at most 8) that a row's routing in them is one of
``2**C`` patterns: :func:`condition_tables` computes the contributions of every
pattern once, and :func:`contributions` then adds a row's pattern's contributions
(CatBoost's per-leaf precomputation for oblivious trees, generalised). The tables are
built leaf by leaf: a leaf's share of the Shapley values depends on a pattern only
through which of its path's ``k`` features the pattern follows, so each leaf computes
its ``2**k`` cases in ``O(2**k k)`` from elementary symmetric polynomials of its
cover shares (:func:`_leaf_into_table`), and a depth-8 symmetric tree costs about
``2**8 x 2**8 x 8`` operations rather than ``2**8`` recursions of ``2**8 x 8**2``.
Other trees whose every path has at most 8 unique features (leaf-wise and deeper
depth-wise trees) keep those ``2**k`` cases per leaf (:func:`leaf_paths`,
:func:`leaf_tables`), and a row costs each leaf its path's length (its directions at
the path's nodes give the case) instead of Algorithm 2's squares. A row whose value is missing where the nodes of one condition send
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


#: the most conditions of a tree with pattern tables, and the most features of a path
#: with a leaf table (the stride of ``leaf_paths``' ``leaf_feat`` and ``leaf_z``)
MAX_CONDITIONS = MAX_COND


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


cdef struct LeafWork:
    # a thread's buffers of _leaf_into_table (MAX_COND unique features at most)
    int32_t* path_node     # (max_depth,) the nodes on the path to the leaf
    uint8_t* path_left     # (max_depth,) whether the path goes left at each
    int32_t* path_u        # (max_depth,) the unique feature of each path node
    int32_t* u_lf          # (MAX_COND,) each unique feature's local feature number
    double* z              # (MAX_COND,) each unique feature's zero fraction
    double* prod           # (2**MAX_COND,) product of z over a subset
    double* esym           # (2**MAX_COND, MAX_COND + 1) elementary symmetric polynomials
    double* h              # (2**MAX_COND,) the weighted sums H(B)
    double* cv             # (2**MAX_COND, MAX_COND) a unit leaf's contributions per mask


cdef enum:
    # the most conditions of a tree with pattern tables (_contributions.MAX_TABLE_CONDITIONS)
    MAX_COND = 8
    # rows of a block of contributions (one thread's unit of work)
    ROW_BLOCK = 128


cdef void _unit_cv(int k, const double* z, LeafWork* w, double* cv,
                   int stride) noexcept nogil:
    """``cv[A * stride + i]``: the contribution of feature ``i`` of a leaf of value 1
    whose path has ``k <= MAX_COND`` unique features of zero fractions ``z``, for every
    mask ``A`` of the features the row follows (see :func:`_leaf_into_table`);
    ``w.prod``, ``w.esym``, ``w.h`` are scratch."""
    cdef int i, mm, size
    cdef int32_t B, A, full = (1 << k) - 1, low, rest
    cdef double zc, fact_k
    cdef double wts[MAX_COND]
    # w(s) = s! (k - s - 1)! / k!
    fact_k = 1.0
    for i in range(2, k + 1):
        fact_k *= i
    for i in range(k):
        wts[i] = 1.0
        for mm in range(2, i + 1):
            wts[i] *= mm
        for mm in range(2, k - i):
            wts[i] *= mm
        wts[i] /= fact_k
    # products, elementary symmetric polynomials and H over the subsets B of the k
    w.prod[0] = 1.0
    w.esym[0] = 1.0
    for mm in range(1, k + 1):
        w.esym[mm] = 0.0
    w.h[0] = wts[0]
    for B in range(1, full + 1):
        low = 0
        while not (B >> low) & 1:
            low += 1
        rest = B & (B - 1)
        w.prod[B] = w.prod[rest] * z[low]
        w.esym[B * (MAX_COND + 1)] = 1.0
        size = 0
        for mm in range(1, k + 1):
            w.esym[B * (MAX_COND + 1) + mm] = (w.esym[rest * (MAX_COND + 1) + mm]
                                               + z[low] * w.esym[rest * (MAX_COND + 1) + mm - 1])
        for mm in range(k):
            if (B >> mm) & 1:
                size += 1
        w.h[B] = 0.0
        if size < k:
            for mm in range(size + 1):
                w.h[B] += wts[size - mm] * w.esym[B * (MAX_COND + 1) + mm]
    # a unit leaf's contributions for every mask A
    for A in range(full + 1):
        zc = w.prod[full ^ A]
        for i in range(k):
            if (A >> i) & 1:
                cv[A * stride + i] = (1.0 - z[i]) * zc * w.h[A ^ (1 << i)]
            else:
                cv[A * stride + i] = -zc * w.h[A]


cdef void _leaf_into_table(const Trees* t, int64_t base, int64_t vbase, int n_out,
                           const int32_t* node_cond, const int32_t* node_lf, int depth,
                           int32_t leaf, int n_cond, int m, LeafWork* w,
                           double* table) noexcept nogil:
    """Add the contributions of one leaf (on the path ``w.path_*`` of ``depth`` nodes) to
    the table of every routing pattern (``n_out * m`` values each).

    The leaf's term of the value function is a product over its path's ``k`` unique
    features ``j``: ``o_j`` if ``j`` is in ``S``, else ``z_j`` (``z_j`` the product of
    the cover shares of its nodes on the path, ``o_j`` 1 iff the row follows the path at
    all of them). The Shapley value of feature ``i`` in such a product game is
    ``v (o_i - z_i) sum_{S} |S|! (k - |S| - 1)! / k! prod_{S} o prod_{rest} z``
    (Lundberg et al. 2020, eq. for Algorithm 2's EXTEND/UNWIND weights). With ``A`` the
    features whose ``o`` is 1, ``Zc = prod_{j not in A} z_j`` and
    ``H(B) = sum_m w(|B| - m) e_m(z_B)`` (``e_m`` the elementary symmetric polynomials,
    ``w(s) = s! (k - s - 1)! / k!``): ``v (1 - z_i) Zc H(A - i)`` for ``i`` in ``A``,
    ``-v Zc H(A)`` otherwise. Each mask ``A`` costs ``O(k)`` once; each pattern then maps
    to its mask."""
    cdef int p, u, k = 0, i, o
    cdef int64_t j, s, n_pat = (<int64_t>1) << n_cond
    cdef int32_t A, full
    cdef double vo
    # the unique features of the path and their zero fractions
    for p in range(depth):
        j = base + w.path_node[p]
        u = 0
        while u < k and w.u_lf[u] != node_lf[j]:
            u += 1
        if u == k:
            w.u_lf[k] = node_lf[j]
            w.z[k] = 1.0
            k += 1
        w.path_u[p] = u
        w.z[u] *= t.frac[base + (t.left[j] if w.path_left[p] else t.right[j])]
    if k == 0:
        return
    full = (1 << k) - 1
    _unit_cv(k, w.z, w, w.cv, MAX_COND)
    # every pattern: its mask, then the leaf's values times the mask's contributions
    for s in range(n_pat):
        A = full
        for p in range(depth):
            if ((s >> node_cond[base + w.path_node[p]]) & 1) != w.path_left[p]:
                A &= ~(1 << w.path_u[p])
        for o in range(n_out):
            vo = t.values[vbase + leaf * n_out + o]
            if vo == 0:
                continue
            for i in range(k):
                table[s * n_out * m + o * m + w.u_lf[i]] += vo * w.cv[A * MAX_COND + i]


cdef void _tree_table(const Trees* t, int64_t base, int64_t vbase, int n_out,
                      const int32_t* node_cond, const int32_t* node_lf, int n_cond, int m,
                      int32_t node, int depth, LeafWork* w, double* table) noexcept nogil:
    """Walk the tree from ``node`` (at ``depth``), adding each leaf to the table."""
    cdef int64_t j = base + node
    if t.left[j] < 0:
        _leaf_into_table(t, base, vbase, n_out, node_cond, node_lf, depth, node, n_cond, m, w,
                         table)
        return
    w.path_node[depth] = node
    w.path_left[depth] = 1
    _tree_table(t, base, vbase, n_out, node_cond, node_lf, n_cond, m, t.left[j], depth + 1,
                w, table)
    w.path_node[depth] = node
    w.path_left[depth] = 0
    _tree_table(t, base, vbase, n_out, node_cond, node_lf, n_cond, m, t.right[j], depth + 1,
                w, table)


cdef void _one_table(const Trees* t, int64_t base, int64_t vbase, int n_out,
                     const int32_t* node_cond, const int32_t* node_lf, int n_cond, int m,
                     int max_depth, double* table, int64_t size) noexcept nogil:
    """The table of one tree (see :func:`condition_tables`), with its own buffers."""
    cdef LeafWork w
    w.path_node = <int32_t*>malloc((max_depth + 1) * sizeof(int32_t))
    w.path_left = <uint8_t*>malloc((max_depth + 1) * sizeof(uint8_t))
    w.path_u = <int32_t*>malloc((max_depth + 1) * sizeof(int32_t))
    w.u_lf = <int32_t*>malloc(MAX_COND * sizeof(int32_t))
    w.z = <double*>malloc(MAX_COND * sizeof(double))
    w.prod = <double*>malloc((1 << MAX_COND) * sizeof(double))
    w.esym = <double*>malloc((1 << MAX_COND) * (MAX_COND + 1) * sizeof(double))
    w.h = <double*>malloc((1 << MAX_COND) * sizeof(double))
    w.cv = <double*>malloc((1 << MAX_COND) * MAX_COND * sizeof(double))
    _zero(table, size)
    _tree_table(t, base, vbase, n_out, node_cond, node_lf, n_cond, m, 0, 0, &w, table)
    free(w.path_node)
    free(w.path_left)
    free(w.path_u)
    free(w.u_lf)
    free(w.z)
    free(w.prod)
    free(w.esym)
    free(w.h)
    free(w.cv)


def condition_tables(const int64_t[::1] node_off, const int64_t[::1] value_off,
                     const int32_t[::1] n_out, const int32_t[::1] left,
                     const int32_t[::1] right, const double[::1] frac,
                     const double[::1] values, const int64_t[::1] tree_ids,
                     const int32_t[::1] n_cond, const int32_t[::1] node_cond,
                     const int32_t[::1] node_lf, const int64_t[::1] tf_off,
                     const int64_t[::1] table_off, int max_depth, double[::1] tables,
                     int n_threads=1):
    """For each tree ``t = tree_ids[q]`` with ``n_cond[q] <= 8`` distinct split conditions
    (``node_cond``: each node's condition, local, -1 at a leaf) and ``m = tf_off[q + 1] -
    tf_off[q]`` split features (``node_lf``: each node's, numbered ``0 .. m - 1``), the
    contributions of every routing pattern ``s`` (a row goes left at a node iff bit
    ``node_cond`` of ``s`` is set): ``n_out[t]`` rows of ``m`` values from
    ``tables[table_off[q] + s * n_out[t] * m]`` (see :func:`_leaf_into_table`)."""
    cdef Py_ssize_t n_q = tree_ids.shape[0]
    cdef Py_ssize_t q
    cdef Trees tr
    tr.left = &left[0]
    tr.right = &right[0]
    tr.frac = &frac[0]
    tr.values = &values[0]
    tr.is_cat = NULL
    if n_q == 0:
        return
    for q in range(n_q):
        if n_cond[q] > MAX_COND:
            raise ValueError(f"condition_tables takes at most {MAX_COND} conditions")
    with nogil:
        for q in prange(n_q, num_threads=max(1, n_threads), schedule="dynamic",
                        use_threads_if=n_threads > 1):
            _one_table(&tr, node_off[tree_ids[q]], value_off[tree_ids[q]], n_out[tree_ids[q]],
                       &node_cond[0], &node_lf[0], n_cond[q], tf_off[q + 1] - tf_off[q],
                       max_depth, &tables[table_off[q]], table_off[q + 1] - table_off[q])


def leaf_paths(const int64_t[::1] node_off, const int32_t[::1] left,
               const int32_t[::1] right, const int32_t[::1] feature, const double[::1] frac,
               const int64_t[::1] leaf_off, int stride, int32_t[::1] leaf_node,
               int32_t[::1] leaf_depth, int32_t[::1] path_node, uint8_t[::1] path_left,
               int32_t[::1] path_u, int32_t[::1] leaf_k, int32_t[::1] leaf_feat,
               double[::1] leaf_z):
    """Every tree's leaves, depth first (left first), numbered from ``leaf_off[t]``: each
    leaf's node and depth, its path (``stride`` entries a leaf: the nodes, whether the
    path goes left, the number of the node's feature among the path's unique features),
    the number ``k`` of those features and the first ``MAX_COND`` of them with their
    zero fractions (the product of the path's cover shares at their nodes)."""
    cdef Py_ssize_t n_trees = node_off.shape[0] - 1
    cdef Py_ssize_t t, top, p, u, k
    cdef int64_t base, j, n_nodes, longest = 1, L
    cdef int32_t node, d
    cdef int32_t* st_node
    cdef int32_t* st_depth
    cdef int32_t* st_parent
    cdef uint8_t* st_left
    cdef int32_t* cur_node
    cdef uint8_t* cur_left
    cdef int32_t* u_feat
    cdef double* u_z
    for t in range(n_trees):
        longest = max(longest, node_off[t + 1] - node_off[t])
    st_node = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
    st_depth = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
    st_parent = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
    st_left = <uint8_t*>malloc((longest + 1) * sizeof(uint8_t))
    cur_node = <int32_t*>malloc((stride + 1) * sizeof(int32_t))
    cur_left = <uint8_t*>malloc((stride + 1) * sizeof(uint8_t))
    u_feat = <int32_t*>malloc((stride + 1) * sizeof(int32_t))
    u_z = <double*>malloc((stride + 1) * sizeof(double))
    with nogil:
        for t in range(n_trees):
            base = node_off[t]
            L = leaf_off[t]
            st_node[0] = 0
            st_depth[0] = 0
            top = 1
            while top > 0:
                top -= 1
                node = st_node[top]
                d = st_depth[top]
                if d > 0:
                    cur_node[d - 1] = st_parent[top]
                    cur_left[d - 1] = st_left[top]
                j = base + node
                if left[j] >= 0:
                    # right pushed first: the left subtree's leaves come first
                    st_node[top] = right[j]
                    st_depth[top] = d + 1
                    st_parent[top] = node
                    st_left[top] = 0
                    st_node[top + 1] = left[j]
                    st_depth[top + 1] = d + 1
                    st_parent[top + 1] = node
                    st_left[top + 1] = 1
                    top += 2
                    continue
                leaf_node[L] = node
                leaf_depth[L] = d
                k = 0
                for p in range(d):
                    path_node[L * stride + p] = cur_node[p]
                    path_left[L * stride + p] = cur_left[p]
                    j = base + cur_node[p]
                    u = 0
                    while u < k and u_feat[u] != feature[j]:
                        u += 1
                    if u == k:
                        u_feat[k] = feature[j]
                        u_z[k] = 1.0
                        k += 1
                    u_z[u] *= frac[base + (left[j] if cur_left[p] else right[j])]
                    path_u[L * stride + p] = u
                leaf_k[L] = k
                for u in range(min(k, MAX_COND)):
                    leaf_feat[L * MAX_COND + u] = u_feat[u]
                    leaf_z[L * MAX_COND + u] = u_z[u]
                L += 1
    free(st_node)
    free(st_depth)
    free(st_parent)
    free(st_left)
    free(cur_node)
    free(cur_left)
    free(u_feat)
    free(u_z)


cdef void _one_leaf_cv(int k, const double* z, double* cv) noexcept nogil:
    cdef LeafWork w
    w.prod = <double*>malloc((1 << MAX_COND) * sizeof(double))
    w.esym = <double*>malloc((1 << MAX_COND) * (MAX_COND + 1) * sizeof(double))
    w.h = <double*>malloc((1 << MAX_COND) * sizeof(double))
    _unit_cv(k, z, &w, cv, k)
    free(w.prod)
    free(w.esym)
    free(w.h)


def leaf_tables(const int64_t[::1] leaves, const int32_t[::1] leaf_k,
                const double[::1] leaf_z, const int64_t[::1] cv_off, double[::1] cv,
                int n_threads=1):
    """For each leaf ``L`` of ``leaves`` (``leaf_k[L] <= MAX_COND``), the contributions of
    a unit leaf for every mask of the path's features a row follows:
    ``cv[cv_off[L] + A * k + i]`` (:func:`_unit_cv`)."""
    cdef Py_ssize_t n_l = leaves.shape[0]
    cdef Py_ssize_t q
    for q in range(n_l):
        if leaf_k[leaves[q]] > MAX_COND:
            raise ValueError(f"leaf_tables takes paths of at most {MAX_COND} features")
    with nogil:
        for q in prange(n_l, num_threads=max(1, n_threads), schedule="dynamic",
                        use_threads_if=n_threads > 1 and n_l > 64):
            if leaf_k[leaves[q]] > 0:
                _one_leaf_cv(leaf_k[leaves[q]], &leaf_z[leaves[q] * MAX_COND],
                             &cv[cv_off[leaves[q]]])


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
                  const int64_t[::1] leaf_of, const int64_t[::1] leaf_off,
                  const int32_t[::1] leaf_node, const int32_t[::1] leaf_depth,
                  const int32_t[::1] path_node, const uint8_t[::1] path_left,
                  const int32_t[::1] path_u, const int32_t[::1] leaf_k,
                  const int32_t[::1] leaf_feat, const int64_t[::1] cv_off,
                  const double[::1] cv, int stride, int max_depth, double[:, :, ::1] out,
                  int n_threads=1):
    """Add every tree's contributions of each row of ``X`` to ``out`` (n, K, F + 1),
    columns ``0 .. F - 1`` (see the module's docstring).

    Trees with ``table_of[t] = q >= 0`` read their pattern tables (:func:`condition_tables`):
    conditions ``cond_off[q] .. cond_off[q + 1] - 1``, each given by one of its nodes
    ``cond_node`` (local) and whether its nodes send missing values different ways
    ``cond_mixed``, and split features ``tf_feat[tf_off[q]:tf_off[q + 1]]``. Trees with
    ``leaf_of[t] >= 0`` read their leaves' mask tables (:func:`leaf_paths`,
    :func:`leaf_tables`): a row's direction at every node, then each leaf's mask of the
    path's features the row follows. The others, and rows missing at a mixed
    condition, recurse (Algorithm 2).
    """
    cdef Py_ssize_t n = X.shape[0]
    cdef Py_ssize_t n_features = X.shape[1]
    cdef Py_ssize_t n_trees = node_off.shape[0] - 1
    cdef Py_ssize_t n_blocks = (n + ROW_BLOCK - 1) // ROW_BLOCK
    cdef Py_ssize_t c, i, lo, hi, t, o
    cdef int64_t q, s, k, base, j, m, nd, L, longest = 1
    cdef int32_t A
    cdef double vo
    cdef const double* cvp
    cdef uint8_t* hot
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
    for t in range(n_trees):
        longest = max(longest, node_off[t + 1] - node_off[t])
    with nogil:
        for c in prange(n_blocks, num_threads=max(1, n_threads), schedule="dynamic",
                        use_threads_if=n_threads > 1):
            lo = c * ROW_BLOCK
            hi = min(n, lo + ROW_BLOCK)
            path = <PathEl*>malloc(_path_size(max_depth) * sizeof(PathEl))
            hot = <uint8_t*>malloc(longest * sizeof(uint8_t))
            # tree by tree over a block of rows (a tree's table stays in cache); each
            # row still adds the trees in their order
            for t in range(n_trees):
                base = node_off[t]
                q = table_of[t]
                for i in range(lo, hi):
                    x = &X[i, 0]
                    phi = &out[i, out_class[t], 0]
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
                    if general and leaf_of[t] >= 0:
                        for nd in range(node_off[t + 1] - base):
                            if left[base + nd] >= 0:
                                hot[nd] = _goes_left(&tr, base + nd, x)
                        for L in range(leaf_off[t], leaf_off[t + 1]):
                            k = leaf_k[L]
                            if k == 0:
                                continue
                            A = (1 << k) - 1
                            for j in range(leaf_depth[L]):
                                if hot[path_node[L * stride + j]] != path_left[L * stride + j]:
                                    A = A & ~(1 << path_u[L * stride + j])
                            cvp = &cv[cv_off[L] + A * k]
                            for o in range(n_out[t]):
                                vo = values[value_off[t] + leaf_node[L] * n_out[t] + o]
                                for m in range(k):
                                    phi[o * n_cols + leaf_feat[L * MAX_COND + m]] += vo * cvp[m]
                    elif general:
                        _recurse(&tr, base, value_off[t], n_out[t], x, NULL, phi, n_cols, 0,
                                 path, 0, 1.0, 1.0, -1)
                    else:
                        m = tf_off[q + 1] - tf_off[q]
                        tab = &tables[table_off[q] + s * n_out[t] * m]
                        for o in range(n_out[t]):
                            for k in range(m):
                                phi[o * n_cols + tf_feat[tf_off[q] + k]] += tab[o * m + k]
            free(hot)
            free(path)
