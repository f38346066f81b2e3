"""Build of the compiled kernels (Cython, with OpenMP where the C compiler has it).

Everything else about the package is in ``pyproject.toml``.

A release build is small, in two ways:

- no debug information: ``-g0`` when compiling and a stripped link (``-s``; on macOS
  ``-Wl,-S,-x``) with gcc and clang; MSVC's release build writes none (no ``/Zi``, no
  ``/DEBUG``). The code is the same as with debug information (``.text`` is unchanged);
  ``python setup.py build_ext --debug`` keeps it for a debugger;
- Cython's utility code (the memoryview type and its helpers, most of each module's size)
  is compiled once, into the shared module :data:`CYUTILITY` that every kernel imports
  (Cython >= 3.1's shared utility module, as scikit-learn builds it). Its C file is written
  by ``cythonize`` at build time, like the kernels' C files.
"""

import os
import shlex
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: the compiled modules: the histogram tree's kernels, one per job, in scikit-learn's
#: layout (shared declarations in ``trees/_common.pxd``, shared C in ``trees/_kernels.h``),
#: and the boosting loop's. A new kernel is one more entry (its ``.pyx`` at the module's path
#: under ``src/``); it imports :data:`CYUTILITY` like the others.
KERNELS = [
    "robust_boosting.trees._binning",
    "robust_boosting.trees._histogram",
    "robust_boosting.trees._splitting",
    "robust_boosting.trees._partition",
    "robust_boosting.trees._pool",
    "robust_boosting.trees._predictor",
    "robust_boosting.trees._growing",
    "robust_boosting.trees._shared_growing",
    "robust_boosting.trees._contrib",
    "robust_boosting._loop_kernels",
]

#: the shared module of Cython's utility code, imported by every module in :data:`KERNELS`
CYUTILITY = "robust_boosting._cyutility"

# IEEE arithmetic in the order written (no contraction into fused multiply-adds),
# so that every machine gives the same trees.
_CFLAGS = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"]
_MACROS = [("CYTHON_USE_MODULE_STATE", "0")]


def _path(module: str, suffix: str) -> str:
    """The source file of a dotted module name, under ``src/``."""
    return os.path.join("src", *module.split(".")) + suffix


def strip_flags(compiler_type: str, platform: str, *, debug: bool) -> tuple[list[str], list[str]]:
    """Compile and link flags that leave the debug information out of a release build."""
    if debug or compiler_type == "msvc":  # MSVC: release builds have no /Zi, no /DEBUG
        return [], []
    if platform == "darwin":  # ld64: -S no debug information, -x no local symbols
        return ["-g0"], ["-Wl,-S,-x"]
    return ["-g0"], ["-s"]


def _openmp_candidates(compiler_type: str, platform: str) -> list[tuple[list[str], list[str]]]:
    """(compile flags, link flags) that may enable OpenMP, in the order to try them."""
    if compiler_type == "msvc":
        return [(["/openmp"], [])]
    candidates = [(["-fopenmp"], ["-fopenmp"])]
    if platform == "darwin":  # Apple's clang: the preprocessor's OpenMP and LLVM's libomp
        candidates.append((["-Xpreprocessor", "-fopenmp"], ["-lomp"]))
    return candidates


def openmp_flags(compiler, platform: str = sys.platform) -> tuple[list[str], list[str]]:
    """The first OpenMP flags with which a test program compiles and links, else none
    (serial kernels)."""
    if os.environ.get("ROBUST_BOOSTING_NO_OPENMP"):
        return [], []
    # an executable's link does not read LDFLAGS (a module's does): e.g. libomp's -L
    ldflags = [] if compiler.compiler_type == "msvc" else shlex.split(os.environ.get("LDFLAGS", ""))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "omp.c")
        with open(src, "w") as fh:
            fh.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n")
        for cflags, lflags in _openmp_candidates(compiler.compiler_type, platform):
            try:
                objs = compiler.compile([src], output_dir=tmp, extra_postargs=cflags)
                compiler.link_executable(objs, "omp", output_dir=tmp,
                                         extra_postargs=lflags + ldflags)
            except Exception:  # noqa: BLE001, S112 - try the next flags
                continue
            return cflags, lflags
    print("robust-boosting: the C compiler has no OpenMP; kernels are serial", file=sys.stderr)
    return [], []


class BuildExt(build_ext):
    def build_extensions(self):
        omp_c, omp_l = openmp_flags(self.compiler)
        strip_c, strip_l = strip_flags(self.compiler.compiler_type, sys.platform,
                                       debug=bool(self.debug))
        for ext in self.extensions:
            ext.extra_compile_args += strip_c
            ext.extra_link_args += strip_l
            if ext.name != CYUTILITY:  # Cython's utility code has no parallel loop
                ext.extra_compile_args += omp_c
                ext.extra_link_args += omp_l
        super().build_extensions()


def _drop_stale_c(module: str) -> None:
    """Remove a kernel's C file written without the shared module, so that ``cythonize``
    writes it again (it compares only times, not options)."""
    c_file = _path(module, ".c")
    if os.path.exists(c_file):
        with open(c_file, encoding="utf-8", errors="replace") as fh:
            if CYUTILITY not in fh.read():
                os.remove(c_file)


def extensions() -> list[Extension]:
    """The compiled modules: every kernel, and the shared module of Cython's utility code."""
    return [Extension(name, [_path(name, ".c" if name == CYUTILITY else ".pyx")],
                      extra_compile_args=list(_CFLAGS), define_macros=list(_MACROS))
            for name in [*KERNELS, CYUTILITY]]


def main() -> None:
    from Cython.Build import cythonize

    for module in KERNELS:
        _drop_stale_c(module)
    setup(
        ext_modules=cythonize(extensions(), compiler_directives={"language_level": 3},
                              include_path=["src"], quiet=True,
                              shared_utility_qualified_name=CYUTILITY),
        cmdclass={"build_ext": BuildExt},
    )


if __name__ == "__main__":  # as pip's build backend and ``python setup.py`` run it
    main()
