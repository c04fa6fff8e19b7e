"""Bounds on what one client may ask: sizes, counts, rates, origins, names (``limits``), and
what one client's HTTP connections may hold (``connections``).
"""
