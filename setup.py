"""Build of the compiled solver core (nines.solver._core); the rest is in pyproject.toml."""

import os
import platform
import sys
from glob import glob

from setuptools import Extension, setup

# the core is split by concern (see the header core.h and docs/solver.md); one extension
CORE = "src/nines/solver/core"

if sys.platform == "win32":
    compile_args = ["/O2"]
    link_args: list[str] = []
else:
    compile_args = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unknown-pragmas"]
    # link-time optimisation, with only the module's init function visible outside the library:
    # the compiler then sees every caller and inlines the other files' helpers into the search,
    # as it did when the core was one file
    compile_args += ["-flto", "-fvisibility=hidden"]
    link_args = ["-O3", "-flto", "-fvisibility=hidden"]
    if platform.machine().lower() in ("x86_64", "amd64"):
        compile_args.append("-mpopcnt")  # every x86-64 processor since 2008 counts bits in one instruction
    # NINES_NATIVE=1 tunes the core for this machine's processor (not for wheels one ships)
    if os.environ.get("NINES_NATIVE") == "1":
        compile_args.append("-march=native")

setup(
    ext_modules=[
        Extension(
            "nines.solver._core",
            sources=sorted(glob(f"{CORE}/*.c")),
            depends=sorted(glob(f"{CORE}/*.h")),
            include_dirs=[CORE],
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    ]
)
