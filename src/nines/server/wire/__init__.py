"""What travels: the typed messages (``messages``), the patches that bring a socket up to date
(``delta``), text frames written straight to sockets (``frames``), and the events shared
between server processes (``pubsub``).
"""
