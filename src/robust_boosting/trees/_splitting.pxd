# cython: language_level=3
"""The split finding and node kernels other kernel modules call (see _splitting.pyx)."""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

from robust_boosting.trees._common cimport NodeArgs, SymOrder


cdef void _child_bounds(const double* ltot, const double* rtot, bint is_reg, double lam,
                        int c, double lo, double hi, double* out) noexcept nogil
cdef double _node_score(const double* tot, int n_stat, int crit, double lam) noexcept nogil
cdef double _best_split_feature(const double* h, int ns, int nb, int missing_bin,
                                const double* tot, int n_val, bint has_cnt, bint is_reg,
                                int crit, double min_cnt, double min_w, double lam,
                                double floor_sc, double* cum, int* out_bin,
                                bint* out_ml) noexcept nogil
cdef void _sym_features_add(const double** hp, const double** tp, const double* tol,
                            Py_ssize_t m, int nf, const int32_t* n_bins, int missing_bin, int ns,
                            double min_cnt, double min_w, double lam, double* acc, int* used,
                            double* scan, int n_threads, const SymOrder* so) noexcept nogil
cdef void _sym_feature_best(const double* acc, int nb, double* out_score,
                            int32_t* out_bin) noexcept nogil
cdef void _sym_noisy_choice(double* acc, Py_ssize_t stride, int nf, const int32_t* n_bins,
                            double strength, uint64_t seed, int64_t level, double no_split,
                            double* scores, int32_t* bins) noexcept nogil
cdef double _sym_no_split(const double** tp, Py_ssize_t m, bint has_cnt, double min_cnt,
                          double min_w, double lam) noexcept nogil
cdef void _sym_noisy_level(const double** hp, const double** tp, const double* tol,
                           Py_ssize_t m, int nf, const int32_t* n_bins, int missing_bin, int ns,
                           double min_cnt, double min_w, double lam, double strength,
                           uint64_t seed, int64_t level, double* acc, int* used, double* scan,
                           double* scores, int32_t* bins, int n_threads,
                           const SymOrder* so) noexcept nogil
cdef void _sym_level(const double** hp, const double** tp, const double* tol, Py_ssize_t m,
                     int nf, const int32_t* n_bins, int missing_bin, int ns, double min_cnt,
                     double min_w, double lam, double* scores, int32_t* bins,
                     int n_threads, const SymOrder* so) noexcept nogil
cdef void _sym_orders(const NodeArgs* a, const double* root, const double* root_tot,
                      SymOrder* so) noexcept nogil
cdef int _sym_choice(const double* hf, const double* tot, double tol, int b,
                     int missing_bin, int ns, double min_cnt, double min_w, double lam,
                     double* gain, const SymOrder* so, int f) noexcept nogil
cdef void _tree_args(NodeArgs* a, const uint8_t* codes, Py_ssize_t n_rows, int n_features,
                     bint is_reg, int crit, const int32_t* n_bins, int missing_bin, int ns,
                     int n_val, double min_cnt, double min_w, double lam, double* scores,
                     int32_t* bins, uint8_t* mls, double* scratch,
                     int scratch_stride) noexcept nogil
cdef void _run_groups(NodeArgs* a, int n_threads) noexcept nogil
