"""Tables with a life: clock, stand-ins, one-time seat claims, owned names, play again.

* ``nines_tables``: ``clock_s`` (seconds a person has per decision), ``away_s`` (absence
  before a stand-in plays), ``stand_in`` (the stand-in's strength), ``next_table`` (play again).
* ``nines_actions.stand_in``: the action was decided by a stand-in for the person.
* ``nines_seats.claim_hash``: the hash of a one-time claim of the seat (creator's link, another device).
* ``nines_people.secret_hash``: the hash of the secret of the browser that owns the name.
* ``nines_deal_stats.stand_in``: decisions a stand-in made for the person in that deal.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("nines_tables", sa.Column("clock_s", sa.Integer(), nullable=True))
    op.add_column("nines_tables", sa.Column("away_s", sa.Integer(), nullable=True))
    op.add_column("nines_tables", sa.Column("stand_in", sa.String(length=40), nullable=True))
    op.add_column("nines_tables", sa.Column("next_table", sa.String(length=32), nullable=True))
    op.add_column("nines_actions", sa.Column("stand_in", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column("nines_seats", sa.Column("claim_hash", sa.String(length=64), nullable=True))
    op.add_column("nines_people", sa.Column("secret_hash", sa.String(length=64), nullable=True))
    op.add_column("nines_deal_stats", sa.Column("stand_in", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("nines_deal_stats") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("nines_people") as batch:
        batch.drop_column("secret_hash")
    with op.batch_alter_table("nines_seats") as batch:
        batch.drop_column("claim_hash")
    with op.batch_alter_table("nines_actions") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("nines_tables") as batch:
        batch.drop_column("next_table")
        batch.drop_column("stand_in")
        batch.drop_column("away_s")
        batch.drop_column("clock_s")
