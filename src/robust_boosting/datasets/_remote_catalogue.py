"""The catalogue of the papers' non-bundled data sets (:data:`REMOTE_DATASETS`).

Each entry says where :func:`robust_boosting.datasets.fetch_dataset` downloads a set
(OpenML id or UCI path) and how it becomes a binary task. The loader itself is in
:mod:`robust_boosting.datasets._remote`, which re-exports these names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = ["RemoteDataset", "REMOTE_DATASETS", "list_remote_datasets"]


@dataclass(frozen=True)
class RemoteDataset:
    """Where and how to fetch one of the papers' non-bundled data sets.

    Attributes
    ----------
    name : str
        Name used by :func:`fetch_dataset` (the papers' spelling where possible).
    source : {"openml", "uci"} or None
        ``None`` marks a set the papers use but that no known public file provides.
    ref : int or str or None
        OpenML data id, or the file's path below the UCI base URL.
    openml_name : str or None
        Name OpenML must report for ``ref``; a different name is refused, so a wrong
        id cannot load the wrong data silently.
    target : str or int or None
        Target column: ARFF attribute name (default: OpenML's default target) or, for
        UCI text files, a column index (negative counts from the end).
    positive : tuple of str, "minority" or None
        Labels mapped to +1. ``"minority"``: the smallest class (ties: the class that
        sorts last). ``None``: everything not in ``negative``.
    negative : tuple of str or None
        Labels mapped to -1 when ``positive`` is None.
    drop_columns : tuple
        Columns (names or indices) that are not features.
    categorical : tuple of int
        UCI text files: indices of categorical columns (ARFF files declare them).
    delimiter : str or None
        UCI text files: field separator (None: any whitespace).
    sha256 : str or None
        Pinned SHA-256 of the downloaded file, when known.
    papers : tuple of str
    note : str
    citation : str
    """

    name: str
    source: Literal["openml", "uci"] | None
    ref: int | str | None
    openml_name: str | None = None
    target: str | int | None = None
    positive: tuple[str, ...] | Literal["minority"] | None = "minority"
    negative: tuple[str, ...] | None = None
    drop_columns: tuple = ()
    categorical: tuple[int, ...] = ()
    delimiter: str | None = ","
    sha256: str | None = None
    papers: tuple[str, ...] = ()
    note: str = ""
    citation: str = ""
    paper_size: tuple[int, int] | None = field(default=None)


def _om(name, data_id, openml_name, papers, note, citation, size=None, **kw) -> RemoteDataset:
    return RemoteDataset(
        name=name,
        source="openml",
        ref=data_id,
        openml_name=openml_name,
        papers=papers,
        note=note,
        citation=citation,
        paper_size=size,
        **kw,
    )


_SPL = ("SPLBoost",)
_RIL = ("RILBoost",)

#: The papers' data sets that are not shipped with the package.
REMOTE_DATASETS: dict[str, RemoteDataset] = {
    d.name: d
    for d in [
        _om(
            "adult",
            1590,
            "adult",
            _SPL,
            "Adult census income; positive = income >50K (24.1 %).",
            "R. Kohavi, B. Becker (1996). Adult [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5XW20",
            (48842, 14),
            positive=(">50K",),
        ),
        _om(
            "bank",
            1461,
            "bank-marketing",
            _SPL,
            "Bank marketing; positive = the minority class (client subscribed, 11.5 %).",
            "S. Moro, P. Rita, P. Cortez (2014). Bank Marketing [Dataset]. UCI ML "
            "Repository. https://doi.org/10.24432/C5K306",
            (45211, 17),
        ),
        _om(
            "blood",
            1464,
            "blood-transfusion-service-center",
            _SPL + _RIL,
            "Blood transfusion service center; positive = the minority class (donated).",
            "I-C. Yeh (2008). Blood Transfusion Service Center [Dataset]. UCI ML "
            "Repository. https://doi.org/10.24432/C5GS39",
            (748, 4),
        ),
        _om(
            "connect-4",
            40668,
            "connect-4",
            _SPL,
            "Connect-4 opening positions, 3 classes; SPLBoost's 75.4 % majority matches "
            "'loss' (24.6 %) against win + draw, so positive = loss.",
            "J. Tromp. Connect-4 [Dataset]. UCI ML Repository. https://doi.org/10.24432/C59P43",
            (67557, 42),
            positive=("loss",),
        ),
        _om(
            "miniboone",
            41150,
            "MiniBooNE",
            _SPL,
            "MiniBooNE particle identification; positive = the minority class (signal).",
            "B. Roe (2005). MiniBooNE particle identification [Dataset]. UCI ML "
            "Repository. https://doi.org/10.24432/C5QC87",
            (130064, 50),
        ),
        RemoteDataset(
            name="ozone",
            source="uci",
            ref="ozone/onehr.data",
            target=-1,
            drop_columns=(0,),
            papers=_SPL,
            paper_size=(2536, 72),
            note="Ozone level detection, one-hour peak (2536 x 72, 2.9 % ozone days); the "
            "date column is dropped; '?' entries are missing values (NaN).",
            citation="K. Zhang, W. Fan (2008). Ozone Level Detection [Dataset]. UCI ML "
            "Repository. https://doi.org/10.24432/C5NG6W",
        ),
        _om(
            "parkinsons",
            1488,
            "parkinsons",
            _SPL + _RIL,
            "Parkinsons (voice measurements); positive = the minority class (healthy).",
            "M. Little (2007). Parkinsons [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C59C74",
            (195, 22),
        ),
        _om(
            "vc-2classes",
            1523,
            "vertebra-column",
            _SPL + _RIL,
            "Vertebral column; hernia and spondylolisthesis merged (abnormal = +1) against "
            "Normal (-1), the 2-class version.",
            "G. Barreto, A. Neto (2005). Vertebral Column [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5K89B",
            (310, 6),
            positive=None,
            negative=("Normal",),
        ),
        RemoteDataset(
            name="pb-T-OR-D",
            source=None,
            ref=None,
            papers=_SPL,
            paper_size=(102, 4),
            note="Pittsburgh bridges, T-OR-D target, as preprocessed by Fernandez-Delgado "
            "et al. (JMLR 2014); no public file reproduces that preprocessing.",
        ),
        RemoteDataset(
            name="oocMerl4D",
            source=None,
            ref=None,
            papers=_SPL,
            paper_size=(1022, 41),
            note="Oocytes merluccius 4D (Fernandez-Delgado et al., JMLR 2014); not "
            "available from OpenML or UCI as a plain file.",
        ),
        _om(
            "breast-tissue",
            1465,
            "breast-tissue",
            _RIL,
            "Breast tissue; carcinoma + fibro-adenoma (car, fad) = -1, the rest +1, as "
            "in RILBoost.",
            "J. Jossinet (1996). Breast Tissue [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5P31H",
            (106, 9),
            positive=None,
            negative=("car", "fad"),
        ),
        _om(
            "ilpd",
            1480,
            "ilpd",
            _RIL,
            "Indian liver patient; positive = the minority class.",
            "B. Ramana, N. Venkateswarlu (2012). ILPD (Indian Liver Patient Dataset) "
            "[Dataset]. UCI ML Repository. https://doi.org/10.24432/C5D02C",
            (583, 10),
        ),
        _om(
            "lung-cancer",
            163,
            "lung-cancer",
            _RIL,
            "Lung cancer (32 x 56); class 1 = -1, classes 2 + 3 = +1, as in RILBoost.",
            "Z. Hong, J. Yang (1991). Lung Cancer [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C57596",
            (32, 56),
            positive=None,
            negative=("1",),
        ),
        RemoteDataset(
            name="seeds",
            source="uci",
            ref="00236/seeds_dataset.txt",
            target=-1,
            delimiter=None,
            positive=None,
            negative=("1",),
            papers=_RIL,
            paper_size=(210, 7),
            note="Seeds (wheat kernels); Kama (class 1) = -1, Rosa + Canadian = +1, as in "
            "RILBoost.",
            citation="M. Charytanowicz, J. Niewczas, P. Kulczycki, P. Kowalski, "
            "S. Lukasik (2010). Seeds [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5H30K",
        ),
        _om(
            "steel-plates-fault",
            1504,
            "steel-plates-fault",
            _RIL,
            "Steel plates faults, OpenML's binary version; positive = the minority class. "
            "RILBoost's counts (1783 / 158) may come from another binarisation.",
            "M. Buscema, S. Terzi, W. Tastle (2010). Steel Plates Faults [Dataset]. UCI ML "
            "Repository. https://doi.org/10.24432/C5J88N",
            (1941, 27),
        ),
        _om(
            "planning-relax",
            1490,
            "planning-relax",
            _RIL,
            "Planning relax (EEG); positive = the minority class.",
            "R. Bhatt (2012). Planning Relax [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5T023",
            (182, 12),
        ),
        _om(
            "fertility",
            1473,
            "fertility",
            _RIL,
            "Fertility diagnosis; positive = the minority class (altered).",
            "D. Gil, J. Girela (2012). Fertility [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5Z01Z",
            (100, 9),
        ),
        _om(
            "madelon",
            1485,
            "madelon",
            _RIL,
            "Madelon (NIPS 2003 feature selection challenge); balanced, positive = the "
            "class that sorts last.",
            "I. Guyon (2004). Madelon [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5602H",
            (2600, 500),
        ),
        _om(
            "qsar-biodeg",
            1494,
            "qsar-biodeg",
            _RIL,
            "QSAR biodegradation; positive = the minority class (readily biodegradable).",
            "K. Mansouri, T. Ringsted, D. Ballabio, R. Todeschini, V. Consonni (2013). "
            "QSAR Biodegradation [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5H60M",
            (1055, 41),
        ),
        _om(
            "seismic-bumps",
            1500,
            "seismic-bumps",
            _RIL,
            "Seismic bumps; positive = the minority class (hazardous state).",
            "M. Sikora, L. Wrobel (2010). seismic-bumps [Dataset]. UCI ML Repository. "
            "https://doi.org/10.24432/C5W902",
            (2584, 15),
        ),
    ]
}


def list_remote_datasets(*, available_only: bool = False) -> list[str]:
    """Names known to :func:`fetch_dataset` (sorted).

    Parameters
    ----------
    available_only : bool, default=False
        Leave out the sets the papers use but no public file provides.

    Returns
    -------
    names : list of str
    """
    return sorted(
        n for n, d in REMOTE_DATASETS.items() if not available_only or d.source is not None
    )
