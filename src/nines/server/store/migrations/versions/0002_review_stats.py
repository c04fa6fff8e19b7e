"""Review statistics: each person's cards in each reviewed deal (tricks lost to costly cards).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "nines_review_stats",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=4), nullable=False),
        sa.Column("person", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.Column("errors", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("unscored", sa.Integer(), nullable=False),
        sa.Column("reviewed_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "deal", "seat"),
    )
    op.create_index("ix_nines_review_stats_person", "nines_review_stats", ["person"])


def downgrade() -> None:
    op.drop_index("ix_nines_review_stats_person", table_name="nines_review_stats")
    op.drop_table("nines_review_stats")
