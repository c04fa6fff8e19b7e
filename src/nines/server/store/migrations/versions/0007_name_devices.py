"""A name on more than one browser: one-time codes, passkeys, and the browsers a name was taken to.

* ``nines_name_devices``: each other browser holding a name (the hash of its own secret, how it came).
* ``nines_name_codes``: one-time codes that take a name to another browser (hashed; expiry, use).
* ``nines_passkeys``: passkeys registered for names (credential id, COSE public key, sign count).
* ``nines_passkey_challenges``: challenges handed out for one registration or sign-in, taken once.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "nines_name_devices",
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("how", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("secret_hash"),
    )
    op.create_index("ix_nines_name_devices_name", "nines_name_devices", ["name"])
    op.create_table(
        "nines_name_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    op.create_index("ix_nines_name_codes_name", "nines_name_codes", ["name"])
    op.create_index("ix_nines_name_codes_expires_at", "nines_name_codes", ["expires_at"])
    op.create_table(
        "nines_passkeys",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("credential_id", sa.Text(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id_hash"),
    )
    op.create_index("ix_nines_passkeys_name", "nines_passkeys", ["name"])
    op.create_table(
        "nines_passkey_challenges",
        sa.Column("ticket", sa.String(length=64), nullable=False),
        sa.Column("purpose", sa.String(length=10), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("challenge", sa.String(length=128), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("ticket"),
    )
    op.create_index("ix_nines_passkey_challenges_expires_at", "nines_passkey_challenges", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_nines_passkey_challenges_expires_at", table_name="nines_passkey_challenges")
    op.drop_table("nines_passkey_challenges")
    op.drop_index("ix_nines_passkeys_name", table_name="nines_passkeys")
    op.drop_table("nines_passkeys")
    op.drop_index("ix_nines_name_codes_expires_at", table_name="nines_name_codes")
    op.drop_index("ix_nines_name_codes_name", table_name="nines_name_codes")
    op.drop_table("nines_name_codes")
    op.drop_index("ix_nines_name_devices_name", table_name="nines_name_devices")
    op.drop_table("nines_name_devices")
