# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The grower's histogram pool (private): a workspace's histogram slots, each allocated
at its first use, and the spare slots kept from one :func:`_growing.grow_all` call to
the next.

A fit grows its trees in many calls (a boosting round's batch each). On wide data a
slot (features × bins × statistics doubles) is larger than the C library's threshold for
mapping memory, so a freed slot is unmapped and the next call's is mapped and faulted in
again, page by page. ``grow_all`` therefore gives its slots back to a stack of spares of
one size, of at most :data:`SPARE_BYTES`, and the next call of that size takes them
(``docs/design/0044-histogram-spares.md``). The stack is only used with the GIL held,
before and after a call's growth; a slot's content is never read before it is written,
so the trees do not depend on where a slot came from.
"""

from libc.stdlib cimport free, malloc, realloc

#: the most bytes of spare slots kept between calls (a larger slot is freed)
cdef Py_ssize_t SPARE_BYTES = 32 * 1024 * 1024

cdef double** _spare = NULL    # the spare slots, each of _spare_size doubles
cdef Py_ssize_t _n_spare = 0
cdef Py_ssize_t _spare_cap = 0
cdef Py_ssize_t _spare_size = 0


cdef bint _reserve(Pool* p, Py_ssize_t n) noexcept nogil:
    """Room for ``n`` slots in ``p.ptr`` (their memory still allocated at first use), so
    that :func:`_slot` below ``n`` never moves ``p.ptr``; False when out of memory."""
    cdef Py_ssize_t q
    cdef double** grown
    if n <= p.cap:
        return True
    grown = <double**>realloc(p.ptr, n * sizeof(double*))
    if grown == NULL:
        return False
    for q in range(p.cap, n):
        grown[q] = NULL
    p.ptr = grown
    p.cap = n
    return True


cdef double* _slot(Pool* p, Py_ssize_t s) noexcept nogil:
    """Slot ``s``'s histogram, allocated at its first use; NULL when out of memory."""
    cdef Py_ssize_t c
    if s >= p.cap:
        c = 2 * p.cap if 2 * p.cap > s + 1 else s + 1
        if c < 16:
            c = 16
        if not _reserve(p, c):
            return NULL
    if p.ptr[s] == NULL:
        p.ptr[s] = <double*>malloc(p.hist_size * sizeof(double))
    return p.ptr[s]


cdef void _take_spares(Pool* p) noexcept:
    """Give the empty pool ``p`` the spare slots of its size, as its first slots (GIL held)."""
    global _n_spare
    cdef Py_ssize_t q
    if _n_spare == 0 or _spare_size != p.hist_size or not _reserve(p, _n_spare):
        return
    for q in range(_n_spare):
        p.ptr[q] = _spare[q]
    _n_spare = 0


cdef void _keep_spares(Pool* p) noexcept:
    """Empty ``p``: its slots become spares while they fit in :data:`SPARE_BYTES`, the
    others are freed; spares of another size are freed first (GIL held)."""
    global _spare, _n_spare, _spare_cap, _spare_size
    cdef Py_ssize_t q, most
    cdef double** grown
    if p.hist_size != _spare_size:
        for q in range(_n_spare):
            free(_spare[q])
        _n_spare = 0
        _spare_size = p.hist_size
    most = SPARE_BYTES // max(1, <Py_ssize_t>(p.hist_size * sizeof(double)))
    for q in range(p.cap):
        if p.ptr[q] == NULL:
            continue
        if _n_spare < most and _n_spare == _spare_cap:
            grown = <double**>realloc(_spare, (2 * _spare_cap + 16) * sizeof(double*))
            if grown != NULL:
                _spare = grown
                _spare_cap = 2 * _spare_cap + 16
        if _n_spare < most and _n_spare < _spare_cap:
            _spare[_n_spare] = p.ptr[q]
            _n_spare += 1
        else:
            free(p.ptr[q])
    free(p.ptr)
    p.ptr = NULL
    p.cap = 0
