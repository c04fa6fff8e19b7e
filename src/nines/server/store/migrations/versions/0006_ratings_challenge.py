"""Ratings and the daily challenge.

* ``nines_ratings``: each player's skill per game (OpenSkill's mu and sigma), people and computer players.
* ``nines_rating_history``: each rated match's change per player, keyed by (table, name).
* ``nines_challenge_days``: the secret each day's challenge of a game is dealt from.
* ``nines_challenge_entries``: each person's challenge of a day: table, seat, results per deal, finished.
* ``nines_casual_tables``: the tables their creator made casual (not rated).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "nines_ratings",
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("computer", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), server_default="0", nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("game", "name"),
    )
    op.create_table(
        "nines_rating_history",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "name"),
    )
    op.create_index("ix_nines_rating_history_name", "nines_rating_history", ["name"])
    op.create_table(
        "nines_challenge_days",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("day", "game"),
    )
    op.create_table(
        "nines_challenge_entries",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=4), nullable=False),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("finished", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("day", "game", "name"),
        sa.UniqueConstraint("table_id"),
    )
    op.create_index("ix_nines_challenge_entries_name", "nines_challenge_entries", ["name"])
    op.create_table(
        "nines_casual_tables",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    op.drop_table("nines_casual_tables")
    op.drop_index("ix_nines_challenge_entries_name", table_name="nines_challenge_entries")
    op.drop_table("nines_challenge_entries")
    op.drop_table("nines_challenge_days")
    op.drop_index("ix_nines_rating_history_name", table_name="nines_rating_history")
    op.drop_table("nines_rating_history")
    op.drop_table("nines_ratings")
