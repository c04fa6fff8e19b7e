"""How the server answers HTTP and the table socket: one FastAPI router per area.

``lobby`` (games, public tables), ``tables`` (make, join, claim, play again, state, moves), ``records``
(a match's record, replays, reviews), ``people`` (names, statistics), ``sockets`` (the table socket),
``pages`` and ``health``.  Routes reach the manager, store, config and bounds through ``deps``
(FastAPI dependencies over ``app.state``); ``errors`` maps refusals to statuses, ``middleware`` bounds and
logs every request; ``seating`` is what a browser keeps (seat and name cookies); ``describe`` tells the page
about the games.  :func:`nines.server.create_app` only assembles them.
"""
