"""What travels: the typed messages (``messages``), the patches that bring a socket up to date
(``delta``), text frames written straight to uvicorn's connection (``frames``), one socket's queue of
writes and its pump (``sockets``), and the events shared between server processes (``pubsub``).
"""
