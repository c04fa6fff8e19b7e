"""Build of the compiled solver core (nines.solver._core); the rest is in pyproject.toml."""

import os
import platform
import sys
from glob import glob

from setuptools import Extension, setup


def fast_bit_instructions() -> bool:
    """Whether the processor building the core has the bit instructions of BMI1, BMI2 and LZCNT
    with a fast pext (every Intel processor that has them; AMD's from Zen 3, family 25, on: Zen 1
    and 2 run pext in microcode, slower than the table the core uses without it).  The table's key
    is then gathered with pext (table.c) and the compiler uses the shorter shifts and masks:
    about 6% fewer instructions a solve.  The core is built for the machine that installs it;
    NINES_PORTABLE=1 builds without them, for a build that runs elsewhere."""
    if os.environ.get("NINES_PORTABLE") == "1":
        return False
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
            fields = {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in cpuinfo)}
    except OSError:  # not Linux: the portable build
        return False
    flags = set(fields.get("flags", "").split())
    if not {"bmi1", "bmi2", "abm"} <= flags:
        return False
    family = fields.get("cpu family", "0")
    return fields.get("vendor_id") != "AuthenticAMD" or (family.isdigit() and int(family) >= 25)


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
        if fast_bit_instructions():
            compile_args += ["-mbmi", "-mbmi2", "-mlzcnt"]
            link_args += ["-mbmi", "-mbmi2", "-mlzcnt"]  # the code is generated at link time
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
