"""Builds the tenferro Python package with CMake (see pyproject.toml).

The CMake build lives in $TFE_PIP_BUILD_DIR (default: build-pip/ at the repository root, kept
between runs so that a second install only rebuilds what changed). Only the library and the
Python module are built; `cmake --install --component python` then stages the package, with
libtenferro bundled next to the extension (found through $ORIGIN), into the wheel's tree.

Environment: TFE_PIP_BUILD_DIR (build directory), TFE_PIP_BUILD_TYPE (default Release),
TFE_PIP_JOBS (parallel jobs, default: CMake's choice), CMAKE_ARGS (extra configure arguments).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def _version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(tenferro\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("setup.py: no `project(tenferro VERSION x.y.z)` in CMakeLists.txt")
    return m.group(1)


class CMakeExtension(Extension):
    """The SWIG extension; CMake builds it (no sources for setuptools to compile)."""

    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def run(self):
        cmake = shutil.which("cmake")
        if cmake is None:
            raise RuntimeError("tenferro: building the Python package needs cmake (>= 3.25)")
        build_dir = os.environ.get("TFE_PIP_BUILD_DIR") or os.path.join(ROOT, "build-pip")
        build_dir = os.path.abspath(build_dir)
        build_type = os.environ.get("TFE_PIP_BUILD_TYPE", "Release")
        configure = [
            cmake, "-S", ROOT, "-B", build_dir,
            f"-DCMAKE_BUILD_TYPE={build_type}",
            f"-DPython3_EXECUTABLE={sys.executable}",
            "-DTFE_BUILD_TESTS=OFF", "-DTFE_BUILD_BENCH=OFF", "-DTFE_BUILD_EXAMPLES=OFF",
            "-DTFE_BUILD_FORTRAN=OFF", "-DTFE_BUILD_PYTHON=ON",
            "-DTFE_PYTHON_BUNDLE_LIB=ON", "-DTFE_PYTHON_INSTALL_DIR=.",
        ]
        if shutil.which("ninja") and not os.path.exists(os.path.join(build_dir, "Makefile")):
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        build = [cmake, "--build", build_dir, "--target", "tenferro_python"]
        if os.environ.get("TFE_PIP_JOBS"):
            build += ["-j", os.environ["TFE_PIP_JOBS"]]
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
            if "TFE_PYTHON_INSTALL_DIR:" not in f.read():
                raise RuntimeError(
                    "tenferro: CMake skipped the Python module (it needs SWIG 4, the Python "
                    "development files and NumPy for this interpreter); see the configure log")
        subprocess.run(build, check=True)
        # The package goes to <build_lib>/tenferro (the wheel's tree).
        subprocess.run([cmake, "--install", build_dir, "--component", "python",
                        "--prefix", os.path.abspath(self.build_lib)], check=True)


# setuptools' own scratch space (egg-info, build tree) stays under the ignored build-pip/.
os.makedirs(os.path.join(ROOT, "build-pip"), exist_ok=True)

setup(
    version=_version(),
    packages=[],
    py_modules=[],
    ext_modules=[CMakeExtension("tenferro._tenferro_c")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-pip/setuptools"},
             "egg_info": {"egg_base": "build-pip"}},
    zip_safe=False,
)
