"""The database: tables, seats, the action log, people (``database``); the move journal that
stores moves by group commit (``journal``); the schema's Alembic migrations (``migrate``, ``migrations/``).
"""
