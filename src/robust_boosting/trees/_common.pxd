# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Declarations shared by the compiled kernels of the histogram tree (private).

The kernels follow scikit-learn's ``ensemble/_hist_gradient_boosting`` layout, one
Cython module per job (``_binning``, ``_histogram``, ``_splitting``, ``_partition``,
``_predictor``, ``_growing``, ``_shared_growing``); this file holds what they share: the
constants (enums), the C helpers of ``_kernels.h``, the node kernels' argument block
and small inline helpers. A module's own ``.pxd`` declares the ``cdef`` functions the
others call.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t


cdef enum:
    # split criteria (as the Python constants GINI, ENTROPY, SQUARED_ERROR)
    C_GINI = 0
    C_ENTROPY = 1
    C_SQUARED = 2
    # features histogrammed together in one pass over a node's samples
    C_GROUP = 4
    # survivors of the Gini bound worth an approximate pass (_best_split_binary)
    APPROX_MIN = 8
    # rows per chunk of the binning and prediction loops
    BIN_CHUNK = 1024
    PRED_CHUNK = 16384
    # top 20 mantissa bits of sqrt(2) (_xlogx's reduction)
    SQRT2_MANT = 0x6A09E
    # the table of standard normal values the split noise draws from
    N_NORMALS = 4096
    # a symmetric level's nodes are divided side by side (one per thread, serial
    # kernels) once there are this many per thread; fewer, larger nodes run one after
    # the other with their kernels threaded
    SYM_NODES_PER_THREAD = 2
    # the level before a symmetric tree's last is divided in chunks of this many nodes
    # per thread, each chunk's children histogrammed into scratch slots and scanned
    # before the next chunk (_growing._sym_stream)
    SYM_CHUNK_PER_THREAD = 4
    # the most bytes of histograms a shared tree keeps for subtraction
    MO_SLOT_BYTES = 64 * 1024 * 1024
    # bytes of a categorical node's left set (a bit per bin code, HistTree.categories_left)
    CAT_SET_BYTES = 32
    # doubles of one feature's histogram with its bins in rank order (256 bins of at most
    # 3 statistics; _splitting._ranked_hist)
    SYM_RANKED_HIST = 768


cdef extern from "_kernels.h":
    double RB_LG1
    double RB_LG2
    double RB_LG3
    double RB_LG4
    double RB_LG5
    double RB_LG6
    double RB_LG7
    double RB_LN2_HI
    double RB_LN2_LO
    double RB_TINY
    double RB_SUB_RTOL
    void rb_hist4_reg(const uint8_t* ra, const uint8_t* rb, const uint8_t* rc,
                      const uint8_t* rd, const int32_t* ids, const double* ws,
                      const double* ys, Py_ssize_t n, double* ha, double* hb, double* hc,
                      double* hd, int counted) noexcept nogil
    void rb_subtract_counted(const double* ph, const double* sh, double* lh, Py_ssize_t nb,
                             int ns) noexcept nogil
    double RB_APPROX_LOG_ERR
    void rb_xlogx_approx_block(const double* v, double* out, Py_ssize_t n) noexcept nogil
    int64_t RB_MANT_MASK
    void rb_children(double a0, double a1, double t0, double t1, double* l0, double* l1,
                     double* wl, double* r0, double* r1, double* wr) noexcept nogil
    int rb_entropy_bounds(const double* h, int nb, double t0, double t1, double min_w,
                          int* used, int* n_used, double* c0, double* c1,
                          double* gb) noexcept nogil
    void rb_xlogx_block(const double* v, double* out, double* kf, Py_ssize_t n) noexcept nogil
    void rb_subtract_weights(const double* ph, const double* sh, double* lh, Py_ssize_t n,
                             double rtol) noexcept nogil
    void rb_subtract_pairs(const double* ph, const double* sh, double* lh, Py_ssize_t nb,
                           double rtol) noexcept nogil
    int rb_used_bins(const double* h, int ns, int nb, int n_check, int* used) noexcept nogil
    void rb_sym_node_scan(const double* h, int nb, double tw, double ts, double min_w,
                          double lam, double base, double tol, double* acc, int* used,
                          double* cw, double* cs, double* val) noexcept nogil



cdef struct NodeArgs:
    # the node kernels' arguments (_splitting._node_group): the data, the node, its
    # histograms and totals, the leaf limits and the per-feature result buffers
    const uint8_t* codes
    Py_ssize_t n_rows
    int n_features
    const int32_t* idx
    const double* ow
    const int32_t* oc
    const double* owy
    bint is_reg
    int crit
    bint dense
    Py_ssize_t start
    Py_ssize_t end
    const int32_t* n_bins
    int missing_bin
    int ns
    const double* parent_hist
    double* small_hist
    double* large_hist
    bint do_sub
    const double* small_tot
    const double* large_tot
    int n_val
    bint find_small
    bint find_large
    double min_cnt
    double min_w
    double lam         # the regression criterion's L2 penalty (0: none)
    double* scores     # (2, n_features)
    int32_t* bins      # (2, n_features)
    uint8_t* mls       # (2, n_features)
    double* scratch    # (n_features, >= ns)
    int scratch_stride
    bint use_floor     # a scan may skip a feature below the group's best so far
    double rs          # symmetric trees: the strength of the random split scores (0: none)
    uint64_t rs_seed   # and their seed (see _splitting._sym_noisy_choice)
    # categorical features (split into sets by _categorical_split, in _node_group):
    const uint8_t* is_cat   # a flag per feature (NULL: no categorical feature)
    double min_cat_cnt      # a category of fewer rows at the node takes no part
    double cat_lam          # the L2 penalty of a categorical split's children
    uint8_t* left_sets      # (2, n_features, missing_bin + 1): each feature's left set
    # monotone constraints (LightGBM's "basic" method, _splitting._monotone_split):
    const int8_t* mono      # -1, 0 or +1 per feature (NULL: no constraint)
    double small_lo         # the bounds of the small and large nodes' values
    double small_hi
    double large_lo
    double large_hi


cdef struct SymOrder:
    # a symmetric tree's categorical features, each split as a threshold on its
    # categories ranked once at the root (_growing._sym_orders)
    uint8_t* order       # (n_features, missing_bin + 1): feature f's categories by rank
    int32_t* n_ordered   # per feature: how many are ranked (-1: a numeric feature)


cdef inline void _subtract_bins(const double* ph, const double* sh, double* lh, Py_ssize_t nb,
                                int ns, bint has_cnt, bint is_reg) noexcept nogil:
    """``lh = ph - sh`` for ``nb`` bins of ``ns`` statistics. Without exact counts,
    values that are rounding residue (at most ``RB_SUB_RTOL`` of the parent's) become
    exactly 0, so that bins empty in the larger child stay empty."""
    if has_cnt:
        rb_subtract_counted(ph, sh, lh, nb, ns)
    elif is_reg:
        rb_subtract_pairs(ph, sh, lh, nb, RB_SUB_RTOL)
    else:
        rb_subtract_weights(ph, sh, lh, nb * ns, RB_SUB_RTOL)


cdef inline int32_t* _iptr(int32_t[::1] a) noexcept nogil:
    return &a[0] if a.shape[0] > 0 else NULL


cdef inline double* _dptr(double[::1] a) noexcept nogil:
    return &a[0] if a.shape[0] > 0 else NULL
