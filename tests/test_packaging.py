"""The package as shipped (issue 70): small stripped kernels sharing one module of Cython's
utility code, a wheel configuration for every platform, one version, ``--version``."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import robust_boosting
from robust_boosting import cli

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CIBW = PYPROJECT["tool"].get("cibuildwheel", {})
WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"
MAX_WHEEL_BYTES = 3_000_000
#: a kernel module with Cython's utility code compiled into it, or with debug information,
#: is 1-1.7 MB; the largest kernel without either is under 200 kB
MAX_KERNEL_BYTES = 400_000


@pytest.fixture(scope="module")
def setup_py():
    """``setup.py`` as a module (its build runs only as ``__main__``)."""
    pytest.importorskip("setuptools")
    spec = importlib.util.spec_from_file_location("_robust_boosting_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- one version, and --version ---------------------------------------------------------

def test_version_option_prints_the_version_without_building_the_parser(capsys, monkeypatch):
    def no_parser():
        raise AssertionError("--version built the argument parser")

    monkeypatch.setattr(cli, "build_parser", no_parser)
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"robust-boosting {robust_boosting.__version__}\n"


def test_version_is_read_from_the_package_only():
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "robust_boosting.__version__"
    assert re.fullmatch(r"\d+\.\d+\.\d+\S*", robust_boosting.__version__)
    try:
        installed = importlib.metadata.version("robust-boosting")
    except importlib.metadata.PackageNotFoundError:  # a source tree on PYTHONPATH
        return
    if Path(robust_boosting.__file__).resolve().is_relative_to(ROOT / "src"):
        return  # the source tree shadows whatever is installed
    assert installed == robust_boosting.__version__


# --- the build: stripped kernels, one shared utility module ----------------------------

def test_release_builds_leave_debug_information_out(setup_py):
    assert setup_py.strip_flags("unix", "linux", debug=False) == (["-g0"], ["-s"])
    assert setup_py.strip_flags("mingw32", "win32", debug=False) == (["-g0"], ["-s"])
    assert setup_py.strip_flags("unix", "darwin", debug=False) == (["-g0"], ["-Wl,-S,-x"])
    assert setup_py.strip_flags("msvc", "win32", debug=False) == ([], [])  # none written
    assert setup_py.strip_flags("unix", "linux", debug=True) == ([], [])


class _AppleClang:
    """A compiler without ``-fopenmp`` (Apple's clang) that records what it links with."""

    compiler_type = "unix"

    def compile(self, sources, *, output_dir, extra_postargs):
        if "-fopenmp" in extra_postargs and "-Xpreprocessor" not in extra_postargs:
            raise RuntimeError("clang: error: unsupported option '-fopenmp'")
        return ["omp.o"]

    def link_executable(self, objects, name, *, output_dir, extra_postargs):
        self.linked = extra_postargs


def test_openmp_on_apple_clang_uses_the_preprocessor_and_libomp(setup_py, monkeypatch):
    monkeypatch.delenv("ROBUST_BOOSTING_NO_OPENMP", raising=False)
    monkeypatch.setenv("LDFLAGS", "-L/tmp/libomp/arm64/lib -Wl,-rpath,/tmp/libomp/arm64/lib")
    compiler = _AppleClang()
    flags = setup_py.openmp_flags(compiler, platform="darwin")
    assert flags == (["-Xpreprocessor", "-fopenmp"], ["-lomp"])
    assert compiler.linked == ["-lomp", "-L/tmp/libomp/arm64/lib",
                               "-Wl,-rpath,/tmp/libomp/arm64/lib"]
    assert setup_py.openmp_flags(_AppleClang(), platform="linux") == ([], [])  # serial


def test_every_kernel_is_built_the_same_way(setup_py):
    pyx = {".".join(p.relative_to(ROOT / "src").with_suffix("").parts)
           for p in (ROOT / "src").rglob("*.pyx")}
    assert set(setup_py.KERNELS) == pyx, "every .pyx is a kernel in setup.py's KERNELS"
    assert len(set(setup_py.KERNELS)) == len(setup_py.KERNELS)
    assert setup_py.CYUTILITY == "robust_boosting._cyutility"
    assert setup_py.CYUTILITY not in setup_py.KERNELS
    extensions = {ext.name: ext for ext in setup_py.extensions()}
    assert set(extensions) == {*setup_py.KERNELS, setup_py.CYUTILITY}
    for ext in extensions.values():
        if sys.platform != "win32":  # the same bits on every machine
            assert {"-O3", "-ffp-contract=off"} <= set(ext.extra_compile_args), ext.name
    assert extensions[setup_py.CYUTILITY].sources == [
        str(Path("src", "robust_boosting", "_cyutility.c"))]


def _compiled(name: str) -> Path:
    return Path(importlib.import_module(name).__file__)


def test_kernels_share_the_utility_module_and_are_small(setup_py):
    for name in setup_py.KERNELS:
        importlib.import_module(name)
    assert setup_py.CYUTILITY in sys.modules
    sizes = {name: _compiled(name).stat().st_size for name in setup_py.KERNELS}
    assert max(sizes.values()) <= MAX_KERNEL_BYTES, sizes


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF section names")
def test_compiled_modules_carry_no_debug_information(setup_py):
    for name in [*setup_py.KERNELS, setup_py.CYUTILITY]:
        data = _compiled(name).read_bytes()
        sections = [s for s in (".debug_info", ".symtab") if s.encode() in data]
        assert not sections, f"{name} has {sections}"


def test_sdist_ships_the_kernel_sources_and_no_generated_c():
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    for needed in ("*.pyx", "*.pxd", "_kernels.h"):
        assert needed in manifest
    assert re.search(r"^global-exclude .*\*\.c\b", manifest, re.M)


# --- wheels for every platform ----------------------------------------------------------

def test_cibuildwheel_builds_and_tests_every_platform():
    assert set(CIBW["linux"]["archs"]) >= {"x86_64", "aarch64"}
    for libc in ("manylinux", "musllinux"):
        for arch in ("x86_64", "aarch64"):
            assert f"{libc}-{arch}-image" in CIBW["linux"]
        assert not any(libc in pattern for pattern in CIBW.get("skip", []))
    assert set(CIBW["macos"]["archs"]) >= {"x86_64", "arm64"}
    assert set(CIBW["windows"]["archs"]) >= {"AMD64"}
    assert "delvewheel repair" in CIBW["windows"]["repair-wheel-command"]
    # every wheel is tested from its install: the command, then a fit
    assert CIBW["test-command"] == ["robust-boosting --version", "python tests/wheel_smoke.py"]
    assert all((ROOT / path).is_file() for path in CIBW["test-sources"])


def test_macos_wheels_get_openmp_as_scikit_learn_does():
    assert "llvm-openmp" in " ".join(CIBW["macos"]["before-all"])
    targets = {}
    for override in CIBW["overrides"]:
        arch = override["select"].removeprefix("*-macosx_")
        env = override["environment"]
        assert f"-I/tmp/libomp/{arch}/include" in env["CPPFLAGS"]
        assert f"-L/tmp/libomp/{arch}/lib" in env["LDFLAGS"]
        targets[arch] = env["MACOSX_DEPLOYMENT_TARGET"]
    assert targets == {"x86_64": "10.13", "arm64": "12.0"}


def test_wheel_workflow_runs_cibuildwheel_on_every_platform():
    text = WORKFLOW.read_text(encoding="utf-8")
    assert re.search(r"uses: pypa/cibuildwheel@v\d", text)
    runners = dict(re.findall(r"\{ os: ([\w.-]+), arch: (\w+) \}", text))
    assert sorted(runners.values()) == ["AMD64", "aarch64", "arm64", "x86_64", "x86_64"]
    assert {os.split("-")[0] for os in runners} == {"ubuntu", "macos", "windows"}
    assert "CIBW_ARCHS: ${{ matrix.arch }}" in text


@pytest.mark.slow
def test_wheel_is_at_most_3_mb(tmp_path):
    """``pip wheel . --no-deps`` (about a minute): at most 3 MB, with the shared module and
    without sources or generated C."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q",
                    "-w", str(tmp_path)], check=True)
    [wheel] = tmp_path.glob("robust_boosting-*.whl")
    assert wheel.stat().st_size <= MAX_WHEEL_BYTES, wheel.stat().st_size
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("robust_boosting/_cyutility.") for n in names)
    assert not [n for n in names if n.endswith((".c", ".pyx"))]
