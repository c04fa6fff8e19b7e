"""Owned names compared on their normalized form.

* ``nines_people.name_key``: the NFKC case-folded form of the name, hashed
  (:func:`nines.server.guard.limits.name_key`), unique: "Alice" and fullwidth "Alice" cannot both be owned.
  Names stored before this that already normalize alike keep their rows; only the first gets the key.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from nines.server.guard.limits import name_key

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("nines_people", sa.Column("name_key", sa.String(length=64), nullable=True))
    people = sa.table("nines_people", sa.column("name", sa.String), sa.column("name_key", sa.String))
    bind = op.get_bind()
    taken: set[str] = set()
    for (name,) in bind.execute(sa.select(people.c.name).order_by(people.c.name)).all():
        key = name_key(name)
        if key in taken:
            continue
        taken.add(key)
        bind.execute(people.update().where(people.c.name == name).values(name_key=key))
    op.create_index("ix_nines_people_name_key", "nines_people", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_nines_people_name_key", table_name="nines_people")
    with op.batch_alter_table("nines_people") as batch:
        batch.drop_column("name_key")
