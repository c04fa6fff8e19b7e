"""The page assets served by :mod:`nines.server`: HTML, CSS, JavaScript modules and SVG; no build step."""

from pathlib import Path

STATIC_DIR = Path(__file__).parent / "static"

__all__ = ["STATIC_DIR"]
