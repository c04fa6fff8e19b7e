"""Nines: the three card games of that name — rules, players, solvers, analysis and a web table."""

__version__ = "0.1.0"
