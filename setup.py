"""Build of the compiled kernels (Cython, with OpenMP where the C compiler has it).

Everything else about the package is in ``pyproject.toml``.
"""

import os
import sys
import tempfile

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: the compiled modules: the histogram tree's kernels, one per job, in scikit-learn's
#: layout (shared declarations in ``trees/_common.pxd``, shared C in ``trees/_kernels.h``),
#: and the boosting loop's
KERNELS = [
    "robust_boosting.trees._binning",
    "robust_boosting.trees._histogram",
    "robust_boosting.trees._splitting",
    "robust_boosting.trees._partition",
    "robust_boosting.trees._predictor",
    "robust_boosting.trees._growing",
    "robust_boosting.trees._shared_growing",
    "robust_boosting._loop_kernels",
]


def _openmp_flags(compiler) -> list[str]:
    """``-fopenmp`` if a test program compiles and links with it, else nothing (serial)."""
    if os.environ.get("ROBUST_BOOSTING_NO_OPENMP"):
        return []
    flag = "/openmp" if compiler.compiler_type == "msvc" else "-fopenmp"
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "omp.c")
        with open(src, "w") as fh:
            fh.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n")
        try:
            objs = compiler.compile([src], output_dir=tmp, extra_postargs=[flag])
            compiler.link_executable(objs, "omp", output_dir=tmp, extra_postargs=[flag])
        except Exception:  # noqa: BLE001 - no OpenMP: the kernels run on one thread
            print("robust-boosting: the C compiler has no OpenMP; kernels are serial",
                  file=sys.stderr)
            return []
    return [flag]


class BuildExt(build_ext):
    def build_extensions(self):
        flags = _openmp_flags(self.compiler)
        for ext in self.extensions:
            ext.extra_compile_args += flags
            ext.extra_link_args += flags
        super().build_extensions()


# IEEE arithmetic in the order written (no contraction into fused multiply-adds),
# so that every machine gives the same trees.
_CFLAGS = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off"]

extensions = [
    Extension(name, [os.path.join("src", *name.split(".")) + ".pyx"],
              extra_compile_args=list(_CFLAGS),
              define_macros=[("CYTHON_USE_MODULE_STATE", "0")])
    for name in KERNELS
]

setup(
    ext_modules=cythonize(extensions, compiler_directives={"language_level": 3},
                          include_path=["src"], quiet=True),
    cmdclass={"build_ext": BuildExt},
)
