"""Owned names compared on what they look like.

* ``nines_name_looks``: the confusable skeletons of each owned name (:func:`nines.server.guard.limits.name_looks`,
  Unicode TS #39), one name per look: "\u0421arol" (a Cyrillic Es) cannot be owned beside "Carol".  Names
  owned before this that already look alike keep their rows; the first (by name) gets the looks they share.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from nines.server.guard.limits import name_looks

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    looks = op.create_table(
        "nines_name_looks",
        sa.Column("look", sa.String(length=64), primary_key=True),
        sa.Column("name", sa.String(length=40), nullable=False),
    )
    op.create_index("ix_nines_name_looks_name", "nines_name_looks", ["name"])
    people = sa.table("nines_people", sa.column("name", sa.String), sa.column("secret_hash", sa.String))
    bind = op.get_bind()
    taken: set[str] = set()
    owned = sa.select(people.c.name).where(people.c.secret_hash.is_not(None)).order_by(people.c.name)
    for (name,) in bind.execute(owned).all():
        fresh = name_looks(name) - taken
        taken |= fresh
        if fresh:
            bind.execute(looks.insert(), [{"look": look, "name": name} for look in sorted(fresh)])


def downgrade() -> None:
    op.drop_index("ix_nines_name_looks_name", table_name="nines_name_looks")
    op.drop_table("nines_name_looks")
