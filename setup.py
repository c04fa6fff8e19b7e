"""Build of the compiled solver core (nines.solver._core); the rest is in pyproject.toml."""

import os
import platform
import sys

from setuptools import Extension, setup

if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    compile_args = ["-O3", "-std=c11", "-Wall", "-Wno-unknown-pragmas"]
    if platform.machine().lower() in ("x86_64", "amd64"):
        compile_args.append("-mpopcnt")  # every x86-64 processor since 2008 counts bits in one instruction
    # NINES_NATIVE=1 tunes the core for this machine's processor (not for wheels one ships)
    if os.environ.get("NINES_NATIVE") == "1":
        compile_args.append("-march=native")

setup(
    ext_modules=[
        Extension(
            "nines.solver._core",
            sources=["src/nines/solver/_core.c"],
            extra_compile_args=compile_args,
        )
    ]
)
