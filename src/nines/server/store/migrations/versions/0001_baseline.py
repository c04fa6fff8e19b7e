"""Baseline: the schema as ``Base.metadata.create_all`` made it before migrations.

A database made by that older code (no ``alembic_version`` table) is stamped at this
revision, not upgraded through it; see :func:`nines.server.store.migrate.upgrade`.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "nines_tables",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("preset", sa.String(length=40), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("hints", sa.Boolean(), nullable=False),
        sa.Column("bot_delay_ms", sa.Integer(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("invite", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_nines_tables_status", "nines_tables", ["status"])
    op.create_table(
        "nines_seats",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=4), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("bot", sa.String(length=40), nullable=True),
        sa.Column("person", sa.String(length=40), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["nines_tables.id"]),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("ix_nines_seats_person", "nines_seats", ["person"])
    op.create_table(
        "nines_actions",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=4), nullable=False),
        sa.Column("by", sa.String(length=4), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["nines_tables.id"]),
        sa.PrimaryKeyConstraint("table_id", "seq"),
    )
    op.create_table(
        "nines_people",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "nines_deal_stats",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("deal", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=4), nullable=False),
        sa.Column("person", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("tricks", sa.Integer(), nullable=True),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("exchanged", sa.Boolean(), nullable=True),
        sa.Column("declared", sa.Boolean(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "deal", "seat"),
    )
    op.create_index("ix_nines_deal_stats_person", "nines_deal_stats", ["person"])
    op.create_table(
        "nines_match_stats",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=4), nullable=False),
        sa.Column("person", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("ix_nines_match_stats_person", "nines_match_stats", ["person"])


def downgrade() -> None:
    op.drop_index("ix_nines_match_stats_person", table_name="nines_match_stats")
    op.drop_table("nines_match_stats")
    op.drop_index("ix_nines_deal_stats_person", table_name="nines_deal_stats")
    op.drop_table("nines_deal_stats")
    op.drop_table("nines_people")
    op.drop_table("nines_actions")
    op.drop_index("ix_nines_seats_person", table_name="nines_seats")
    op.drop_table("nines_seats")
    op.drop_index("ix_nines_tables_status", table_name="nines_tables")
    op.drop_table("nines_tables")
