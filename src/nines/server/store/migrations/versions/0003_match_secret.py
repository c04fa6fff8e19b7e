"""Fair deals and finished records: a secret per match, solo practice, the record kept at the end.

* ``nines_tables.secret``: the match secret (64 hexadecimal digits) every table but solo practice
  is dealt from (docs/fair-deals.md).
* ``nines_tables.seed`` is left as it is (0 where there is a secret): tables stored before this
  revision keep their seeds and are dealt from them as before.
* ``nines_tables.practice``: solo practice from a chosen seed, left out of statistics.
* ``nines_tables.record``: the record of a finished match, served as is instead of being
  replayed on every request.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("nines_tables", sa.Column("secret", sa.String(length=64), nullable=True))
    op.add_column("nines_tables", sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column("nines_tables", sa.Column("record", sa.JSON(), nullable=True))


def downgrade() -> None:
    # (a table dealt from a secret would then be dealt from seed 0: downgrading loses its deals)
    with op.batch_alter_table("nines_tables") as batch:
        batch.drop_column("record")
        batch.drop_column("practice")
        batch.drop_column("secret")
