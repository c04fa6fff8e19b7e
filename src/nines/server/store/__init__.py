"""The database: what is kept, and how it is written.

``schema`` (the SQLAlchemy models), ``database`` (the :class:`Store`: tables, seats, the action log),
``people`` (names and each person's statistics, part of the Store), ``journal`` (moves stored by group
commit, many tables per transaction), ``migrate`` and ``migrations/`` (the schema's Alembic migrations,
run by every process on start-up).
"""
