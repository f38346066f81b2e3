# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Growth of the multi-output symmetric trees (private): one tree per multiclass Newton
round, a value per class (:class:`robust_boosting.trees.SharedSymmetricTree`), its
levels' split chosen as the single-output symmetric trees' (``_splitting``).
"""

from cython.parallel cimport prange, threadid
from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

from robust_boosting.trees._common cimport *
from robust_boosting.trees._splitting cimport _sym_noisy_choice


cdef inline double _mo_score(const double* s, int K, const double* lam) noexcept nogil:
    """``sum_k G_k^2 / (H_k + lam_k)`` of a block ``(G_0 .. G_{K-1}, H_0 .. H_{K-1})``
    (a class whose ``H_k + lam_k`` is not positive adds 0)."""
    cdef double total = 0.0
    cdef double d
    cdef int k
    for k in range(K):
        d = s[K + k] + lam[k]
        # a weight of 0 has a sum of 0 (the weights are not negative): 0 / 1
        total += s[k] * s[k] / (d if d > 0.0 else 1.0)
    return total


cdef inline double _mo_split(const double* left, const double* miss, const double* tot,
                             int64_t nl, int64_t nm, int64_t n, int K, const double* lam,
                             double parent, double* buf, int* miss_left) noexcept nogil:
    """A node's score when its non-missing rows at or below the threshold (sums ``left``,
    ``nl`` rows) go left: the better of missing values right and missing values left
    (``miss``: their sums, ``nm`` rows), each the two children's summed
    :func:`_mo_score` when both have rows, else ``parent`` (the node's own score).
    ``miss_left`` is set to 1 when the missing values go left (ties: right)."""
    cdef int j
    cdef int K2 = 2 * K
    cdef double right_score, left_score
    cdef double* rbuf = buf + K2
    if nl > 0 and n - nl > 0:
        for j in range(K2):
            rbuf[j] = tot[j] - left[j]
        right_score = _mo_score(left, K, lam) + _mo_score(rbuf, K, lam)
    else:
        right_score = parent
    miss_left[0] = 0
    if nm == 0:
        return right_score
    if n - nl - nm > 0:
        for j in range(K2):
            buf[j] = left[j] + miss[j]
            rbuf[j] = tot[j] - buf[j]
        left_score = _mo_score(buf, K, lam) + _mo_score(rbuf, K, lam)
    else:
        left_score = parent
    if left_score > right_score:
        miss_left[0] = 1
        return left_score
    return right_score


cdef inline void _mo_build(const uint8_t* col, const int32_t* idx, const double* gh,
                           int64_t s, int64_t e, int K2, double* hist,
                           int64_t* cnt) noexcept nogil:
    """Add rows ``s .. e - 1`` of ``idx``/``gh`` to one feature's histogram (``2K`` sums
    and a count per bin)."""
    cdef int64_t i
    cdef int j, c
    cdef double* h
    cdef const double* row
    for i in range(s, e):
        c = col[idx[i]]
        cnt[c] += 1
        h = hist + c * K2
        row = gh + i * K2
        for j in range(K2):
            h[j] += row[j]


cdef inline void _mo_zero(double* hist, int64_t* cnt, int nb, int K2) noexcept nogil:
    cdef int j
    for j in range(nb * K2):
        hist[j] = 0.0
    for j in range(nb):
        cnt[j] = 0


cdef inline void _mo_subtract(const double* ph, const int64_t* pc, const double* sh,
                              const int64_t* sc, double* out, int64_t* outc, int nb,
                              int K2) noexcept nogil:
    """``out = parent - small`` over every bin (sums and counts): a sibling's histogram."""
    cdef int j
    for j in range(nb * K2):
        out[j] = ph[j] - sh[j]
    for j in range(nb):
        outc[j] = pc[j] - sc[j]


cdef void _mo_scan(double* hist, int64_t* cnt, int nbf, int missing_bin, int64_t n,
                   const double* tot, double parent, int K, const double* lam, double* cum,
                   double* buf, double* acc, double* base, bint clear) noexcept nogil:
    """One node's scan of one feature: its :func:`_mo_split` score at each non-empty bin,
    added to ``acc`` as changes (so the level's score at threshold ``b`` is ``base + acc[0]
    + ... + acc[b]``, ``base`` summing the nodes' scores with no non-missing row left);
    with ``clear``, each bin read (and the missing bin) is reset to zero."""
    cdef int b, j, ml
    cdef int K2 = 2 * K
    cdef int64_t nl = 0
    cdef int64_t nm = cnt[missing_bin]
    cdef double s, prev
    cdef double* h
    cdef double* miss = hist + missing_bin * K2
    for j in range(K2):
        cum[j] = 0.0
    prev = _mo_split(cum, miss, tot, 0, nm, n, K, lam, parent, buf, &ml)
    base[0] += prev
    for b in range(nbf):
        if cnt[b] == 0:
            continue
        nl += cnt[b]
        h = hist + b * K2
        for j in range(K2):
            cum[j] += h[j]
        if clear:
            cnt[b] = 0
            for j in range(K2):
                h[j] = 0.0
        s = _mo_split(cum, miss, tot, nl, nm, n, K, lam, parent, buf, &ml)
        acc[b] += s - prev
        prev = s
    if clear:
        cnt[missing_bin] = 0
        for j in range(K2):
            miss[j] = 0.0


cdef void _mo_level_feature(const uint8_t* col, const int32_t* idx, const double* gh,
                            const int64_t* starts, Py_ssize_t m, const double* ntot,
                            const double* nscore, int K, const double* lam, int nbf,
                            int missing_bin, bint sub, bint store, double* S, int64_t* SC,
                            Py_ssize_t stride, Py_ssize_t cstride, double* X, int64_t* XC,
                            double* Y, int64_t* YC, double* cum, double* buf, double* acc,
                            double* base) noexcept nogil:
    """One feature's scan of a level of ``m`` nodes (rows ``starts[nd]`` to ``starts[nd +
    1]``), the nodes in order. Each node's histogram comes from its rows, or, with ``sub``
    (the parent level's histograms are in the slots ``S``/``SC``, node ``p``'s at ``p *
    stride``), the smaller child's from its rows and the larger's by subtraction from the
    parent's. With ``store`` the level's histograms are left in the slots (for the next
    level), else they go through the scratch ``X`` (kept zeroed) and ``Y``."""
    cdef int nb = missing_bin + 1
    cdef int K2 = 2 * K
    cdef Py_ssize_t nd, p, a, small, large
    cdef double* hs
    cdef int64_t* cs
    cdef double* hl
    cdef int64_t* cl
    base[0] = 0.0
    if not sub:
        if store:
            for nd in range(m):
                hs = S + nd * stride
                cs = SC + nd * cstride
                _mo_zero(hs, cs, nb, K2)
                _mo_build(col, idx, gh, starts[nd], starts[nd + 1], K2, hs, cs)
            for nd in range(m):
                _mo_scan(S + nd * stride, SC + nd * cstride, nbf, missing_bin,
                         starts[nd + 1] - starts[nd], ntot + nd * K2, nscore[nd], K, lam, cum,
                         buf, acc, base, False)
        else:
            for nd in range(m):
                _mo_build(col, idx, gh, starts[nd], starts[nd + 1], K2, X, XC)
                _mo_scan(X, XC, nbf, missing_bin, starts[nd + 1] - starts[nd], ntot + nd * K2,
                         nscore[nd], K, lam, cum, buf, acc, base, True)
        return
    if store:
        # the children's histograms into their slots, the last parent first (a child's
        # slot 2p or 2p + 1 is never a parent still to be read)
        for p in range(m // 2 - 1, -1, -1):
            a = 2 * p
            if starts[a + 1] - starts[a] <= starts[a + 2] - starts[a + 1]:
                small = a
                large = a + 1
            else:
                small = a + 1
                large = a
            if small == p:  # p = 0 and the left child is the smaller: slot 0 is the parent
                _mo_build(col, idx, gh, starts[small], starts[small + 1], K2, X, XC)
                _mo_subtract(S, SC, X, XC, S + large * stride, SC + large * cstride, nb, K2)
                memcpy(S, X, nb * K2 * sizeof(double))
                memcpy(SC, XC, nb * sizeof(int64_t))
                _mo_zero(X, XC, nb, K2)
            else:
                hs = S + small * stride
                cs = SC + small * cstride
                _mo_zero(hs, cs, nb, K2)
                _mo_build(col, idx, gh, starts[small], starts[small + 1], K2, hs, cs)
                _mo_subtract(S + p * stride, SC + p * cstride, hs, cs, S + large * stride,
                             SC + large * cstride, nb, K2)
        for nd in range(m):
            _mo_scan(S + nd * stride, SC + nd * cstride, nbf, missing_bin,
                     starts[nd + 1] - starts[nd], ntot + nd * K2, nscore[nd], K, lam, cum, buf,
                     acc, base, False)
        return
    # streamed: each pair's smaller child into X (from its rows), the larger into Y
    for p in range(m // 2):
        a = 2 * p
        if starts[a + 1] - starts[a] <= starts[a + 2] - starts[a + 1]:
            small = a
        else:
            small = a + 1
        _mo_build(col, idx, gh, starts[small], starts[small + 1], K2, X, XC)
        _mo_subtract(S + p * stride, SC + p * cstride, X, XC, Y, YC, nb, K2)
        for nd in range(a, a + 2):
            hl = X if nd == small else Y
            cl = XC if nd == small else YC
            _mo_scan(hl, cl, nbf, missing_bin, starts[nd + 1] - starts[nd], ntot + nd * K2,
                     nscore[nd], K, lam, cum, buf, acc, base, nd == small)


def grow_shared_symmetric(const uint8_t[:, ::1] codes_t, int32_t[::1] idx, double[:, ::1] gh,
                          const double[::1] lam, const int32_t[::1] n_bins, int missing_bin,
                          int max_depth, double strength, uint64_t seed, int n_threads,
                          int32_t[::1] feature, int32_t[::1] split_bin,
                          uint8_t[:, ::1] missing_left, double[::1] gain, int64_t[::1] starts,
                          double[:, ::1] leaf_sums):
    """Grow a multi-output symmetric (oblivious) tree; return its number of levels.

    The rows ``idx`` (of positive weight) carry ``gh[i] = (G_0 .. G_{K-1}, H_0 ..
    H_{K-1})``, class ``k``'s weighted response and weight (the Newton gradient and
    Hessian of a multiclass round). Each level splits every node at the same ``(feature,
    bin)``: the one maximising the sum over the nodes of their children's
    ``sum_k G_k^2 / (H_k + lam_k)`` (a node the split leaves whole adds its own score),
    among the candidates whose sum exceeds the level's score without a split (they
    divide a node); with ``strength > 0`` each candidate's sum plus ``strength`` standard
    deviations of the level's sums times :func:`_split_noise` ``(seed, level, f, b)``
    (CatBoost's ``random_strength``). Each node sends its missing values to the better
    side (the heavier child when it has none). Growth stops at ``max_depth`` levels or
    at a level without a candidate. Rows and sums are partitioned in place, node by node
    (``starts``: the ``2**levels`` leaves' row ranges, leaf ``j`` the binary number of its
    path, right = 1, first level first); ``leaf_sums[j]`` the leaves' sums. Features
    are scanned in parallel, each by one thread: the tree does not depend on
    ``n_threads``.
    """
    cdef int nf = codes_t.shape[0]
    cdef Py_ssize_t n_act = idx.shape[0]
    cdef int K2 = gh.shape[1]
    cdef int K = K2 // 2
    cdef int nb = missing_bin + 1
    cdef int n_work = max(1, n_threads)
    cdef Py_ssize_t m, nd, i, j, s, e, w
    cdef int d, f, c, ml, best_f, best_b, levels = 0
    cdef int64_t nl, nm
    cdef double no_split, best
    cdef double wl, wr
    if gh.shape[0] != n_act or K2 % 2 or K < 1:
        raise ValueError("gh must have one row of 2K sums per row of idx")
    if (feature.shape[0] < max_depth or split_bin.shape[0] < max_depth
            or gain.shape[0] < max_depth or starts.shape[0] < (1 << max_depth) + 1
            or missing_left.shape[0] < max_depth
            or missing_left.shape[1] < max(1, 1 << max(0, max_depth - 1))
            or leaf_sums.shape[0] < (1 << max_depth) or leaf_sums.shape[1] != K2):
        raise ValueError("output arrays too small for max_depth")
    cdef double* acc = <double*>calloc(nf * nb + nf, sizeof(double))
    cdef double* ntot = <double*>malloc((1 << max_depth) * K2 * sizeof(double))
    cdef double* nscore = <double*>malloc((1 << max(0, max_depth - 1)) * sizeof(double))
    # the levels whose histograms are kept for the next level's subtraction: 0 .. d_store,
    # while the next level has at least 2 nb rows per node (building a larger child from
    # its rows then costs more than subtracting) and the slots fit in MO_SLOT_BYTES
    cdef int d_store = -1
    cdef Py_ssize_t stride = <Py_ssize_t>nf * nb * K2
    cdef Py_ssize_t cstride = <Py_ssize_t>nf * nb
    while (d_store + 2 < max_depth and n_act >= (<int64_t>2 << (d_store + 1)) * 2 * nb
           and (<double>(1 << (d_store + 1))) * (stride * 8 + cstride * 8) <= MO_SLOT_BYTES):
        d_store += 1
    cdef Py_ssize_t n_slots = (1 << d_store) if d_store >= 0 else 0
    cdef double* S = <double*>malloc(max(1, n_slots * stride) * sizeof(double))
    cdef int64_t* SC = <int64_t*>malloc(max(1, n_slots * cstride) * sizeof(int64_t))
    cdef Py_ssize_t wsz = 2 * nb * K2 + 7 * K2
    cdef double* work = <double*>calloc(n_work * wsz, sizeof(double))
    cdef int64_t* cnts = <int64_t*>calloc(n_work * 2 * nb, sizeof(int64_t))
    cdef int32_t* idx2 = <int32_t*>malloc(max(1, n_act) * sizeof(int32_t))
    cdef double* gh2 = <double*>malloc(max(1, n_act) * K2 * sizeof(double))
    cdef double* part = <double*>malloc(5 * K2 * sizeof(double))
    cdef int64_t* mids = <int64_t*>malloc((1 << max(0, max_depth - 1)) * sizeof(int64_t))
    cdef double* base = acc + nf * nb
    cdef double* wk
    cdef int32_t* ci
    cdef int32_t* ni
    cdef double* cg
    cdef double* ng
    cdef const uint8_t* col
    cdef uint8_t* side = <uint8_t*>malloc(max(1, n_act) * sizeof(uint8_t))
    cdef double* ntot2 = <double*>malloc((1 << max_depth) * K2 * sizeof(double))
    cdef double* fscore = <double*>malloc(max(1, nf) * sizeof(double))
    cdef int32_t* fbin = <int32_t*>malloc(max(1, nf) * sizeof(int32_t))
    if (fscore == NULL or fbin == NULL or acc == NULL or ntot == NULL or nscore == NULL or work == NULL or cnts == NULL
            or idx2 == NULL or gh2 == NULL or part == NULL or mids == NULL or S == NULL
            or SC == NULL or side == NULL or ntot2 == NULL):
        free(acc); free(ntot); free(nscore); free(work); free(cnts); free(idx2); free(gh2)
        free(part); free(mids); free(S); free(SC); free(side); free(ntot2); free(fscore)
        free(fbin)
        raise MemoryError()
    with nogil:
        starts[0] = 0
        starts[1] = n_act
        ci = &idx[0]
        cg = &gh[0, 0]
        ni = idx2
        ng = gh2
        for j in range(K2):
            ntot[j] = 0.0
        for i in range(n_act):
            for j in range(K2):
                ntot[j] += cg[i * K2 + j]
        for d in range(max_depth):
            m = 1 << d
            no_split = 0.0
            for nd in range(m):
                nscore[nd] = _mo_score(ntot + nd * K2, K, &lam[0])
                no_split += nscore[nd]
            for i in range(nf * nb):
                acc[i] = 0.0
            if n_work > 1:
                for f in prange(nf, num_threads=n_work, schedule="dynamic"):
                    w = threadid()
                    wk = work + w * wsz
                    _mo_level_feature(&codes_t[f, 0], ci, cg, &starts[0], m, ntot,
                                      nscore, K, &lam[0], n_bins[f], missing_bin,
                                      0 < d <= d_store + 1, d <= d_store, S + f * nb * K2,
                                      SC + f * nb, stride, cstride, wk, cnts + w * 2 * nb,
                                      wk + nb * K2, cnts + w * 2 * nb + nb, wk + 2 * nb * K2,
                                      wk + 2 * nb * K2 + K2, acc + f * nb, base + f)
            else:  # one thread: no parallel region
                for f in range(nf):
                    _mo_level_feature(&codes_t[f, 0], ci, cg, &starts[0], m, ntot,
                                      nscore, K, &lam[0], n_bins[f], missing_bin,
                                      0 < d <= d_store + 1, d <= d_store, S + f * nb * K2,
                                      SC + f * nb, stride, cstride, work, cnts,
                                      work + nb * K2, cnts + nb, work + 2 * nb * K2,
                                      work + 2 * nb * K2 + K2, acc + f * nb, base + f)
            # each threshold's level score (the changes summed from the feature's base),
            # and the level's split: the best candidate that divides a node, with its
            # random split score when strength > 0 (the single-output trees' choice)
            for f in range(nf):
                acc[f * nb] += base[f]
            _sym_noisy_choice(acc, nb, nf, &n_bins[0], strength, seed, d, no_split, fscore,
                              fbin)
            best_f = -1
            best = -INFINITY
            for f in range(nf):
                if fscore[f] > best:
                    best = fscore[f]
                    best_f = f
            if best_f < 0 or fbin[best_f] < 0:
                break
            best_b = fbin[best_f]
            feature[d] = best_f
            split_bin[d] = best_b
            gain[d] = acc[best_f * nb + best_b] - no_split
            levels = d + 1
            col = &codes_t[best_f, 0]
            # each node: its rows' sides (0 left, 1 right, 2 missing) and sums, its missing
            # values' side, its children's totals, then its rows partitioned (stable)
            wk = part
            for nd in range(m):
                s = starts[nd]
                e = starts[nd + 1]
                for j in range(2 * K2):
                    wk[j] = 0.0  # the left rows' sums, the missing rows' sums
                nl = 0
                nm = 0
                for i in range(s, e):
                    c = col[ci[i]]
                    if c == missing_bin:
                        side[i] = 2
                        nm += 1
                        for j in range(K2):
                            wk[K2 + j] += cg[i * K2 + j]
                    elif c <= best_b:
                        side[i] = 0
                        nl += 1
                        for j in range(K2):
                            wk[j] += cg[i * K2 + j]
                    else:
                        side[i] = 1
                if nm > 0:
                    _mo_split(wk, wk + K2, ntot + nd * K2, nl, nm, e - s, K, &lam[0],
                              nscore[nd], wk + 2 * K2, &ml)
                else:
                    wl = 0.0
                    wr = 0.0
                    for j in range(K):
                        wl = wl + wk[K + j]
                        wr = wr + ntot[nd * K2 + K + j] - wk[K + j]
                    ml = 1 if wl >= wr else 0
                missing_left[d, nd] = ml
                if ml:
                    nl += nm
                    for j in range(K2):
                        wk[j] += wk[K2 + j]
                # the children's totals (exact zeros and the parent's for an empty child)
                for j in range(K2):
                    if nl == 0:
                        ntot2[2 * nd * K2 + j] = 0.0
                        ntot2[(2 * nd + 1) * K2 + j] = ntot[nd * K2 + j]
                    elif nl == e - s:
                        ntot2[2 * nd * K2 + j] = ntot[nd * K2 + j]
                        ntot2[(2 * nd + 1) * K2 + j] = 0.0
                    else:
                        ntot2[2 * nd * K2 + j] = wk[j]
                        ntot2[(2 * nd + 1) * K2 + j] = ntot[nd * K2 + j] - wk[j]
                # left rows at s, right rows after them, each in their order
                j = s
                mids[nd] = s + nl
                for i in range(s, e):
                    if side[i] == 0 or (side[i] == 2 and ml):
                        ni[j] = ci[i]
                        memcpy(ng + j * K2, cg + i * K2, K2 * sizeof(double))
                        j += 1
                    else:
                        ni[mids[nd] + (i - s) - (j - s)] = ci[i]
                        memcpy(ng + (mids[nd] + (i - s) - (j - s)) * K2, cg + i * K2,
                               K2 * sizeof(double))
            ci, ni = ni, ci
            cg, ng = ng, cg
            ntot, ntot2 = ntot2, ntot
            # the children's ranges: node nd's left child is slot 2 nd of the next level,
            # its right child 2 nd + 1 (written from the back: slot nd is read first)
            starts[2 * m] = starts[m]
            for nd in range(m - 1, -1, -1):
                starts[2 * nd + 1] = mids[nd]
                starts[2 * nd] = starts[nd]
        if ci != &idx[0]:
            memcpy(&idx[0], ci, n_act * sizeof(int32_t))
            memcpy(&gh[0, 0], cg, n_act * K2 * sizeof(double))
        m = 1 << levels
        for nd in range(m):
            for j in range(K2):
                leaf_sums[nd, j] = 0.0
            for i in range(starts[nd], starts[nd + 1]):
                for j in range(K2):
                    leaf_sums[nd, j] += gh[i, j]
    free(acc); free(ntot); free(nscore); free(work); free(cnts); free(idx2); free(gh2)
    free(part); free(mids); free(S); free(SC); free(side); free(ntot2); free(fscore)
    free(fbin)
    return levels
