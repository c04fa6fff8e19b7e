"""The schema as SQLAlchemy models: tables, seats, the action log, people and their statistics.

The database itself is made and changed by the Alembic migrations (:mod:`.migrate`, ``migrations/``);
these models are what the queries (:mod:`.database`, :mod:`.people`) are written against.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, LargeBinary, String, Text, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "nines_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    preset: Mapped[str | None] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # a table is dealt from its secret when it has one (0 is stored here then), else from this seed
    # (solo practice, and tables stored before secrets existed)
    seed: Mapped[int] = mapped_column(Integer)
    secret: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the match secret (hex) of every other table
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    hints: Mapped[bool] = mapped_column(Boolean)
    bot_delay_ms: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean)
    invite: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(10), default="playing", index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    winners: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    clock_s: Mapped[int | None] = mapped_column(Integer, nullable=True)  # seconds a person has per decision
    away_s: Mapped[int | None] = mapped_column(Integer, nullable=True)  # absence before a stand-in plays
    stand_in: Mapped[str | None] = mapped_column(String(40), nullable=True)  # the stand-in's strength
    next_table: Mapped[str | None] = mapped_column(String(32), nullable=True)  # play again: the new table
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # kept once the match is over


class SeatRow(Base):
    __tablename__ = "nines_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("nines_tables.id"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))  # human, bot, open
    bot: Mapped[str | None] = mapped_column(String(40))
    person: Mapped[str | None] = mapped_column(String(40), index=True)
    token_hash: Mapped[str | None] = mapped_column(String(64))
    claim_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # a one-time claim of this seat


class ActionRow(Base):
    __tablename__ = "nines_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("nines_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for the first action
    seat: Mapped[str] = mapped_column(String(4))  # the seat that acted (a dummy, say)
    by: Mapped[str] = mapped_column(String(4))  # the seat whose player decided
    action: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # decided by a stand-in for the person


class PersonRow(Base):
    __tablename__ = "nines_people"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    last_seen: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the browser that owns the name
    # the name's normalized form (limits.name_key): "Alice" and fullwidth "Alice" cannot both be owned
    name_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, index=True)


class DealStatRow(Base):
    """One person's result in one finished deal (derived from the log, kept for the statistics page)."""

    __tablename__ = "nines_deal_stats"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    person: Mapped[str] = mapped_column(String(40), index=True)
    game: Mapped[str] = mapped_column(String(20))
    won: Mapped[bool] = mapped_column(Boolean)
    tricks: Mapped[int | None] = mapped_column(Integer)
    target: Mapped[int | None] = mapped_column(Integer)
    exchanged: Mapped[bool | None] = mapped_column(Boolean)
    declared: Mapped[bool | None] = mapped_column(Boolean)
    points: Mapped[int | None] = mapped_column(Integer)
    stand_in: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # decisions a stand-in made for the person


class ReviewStatRow(Base):
    """One person's cards in one reviewed deal: how many they chose, how many cost tricks, the tricks lost."""

    __tablename__ = "nines_review_stats"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    person: Mapped[str] = mapped_column(String(40), index=True)
    game: Mapped[str] = mapped_column(String(20))
    cards: Mapped[int] = mapped_column(Integer)
    errors: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)
    unscored: Mapped[int] = mapped_column(Integer)
    reviewed_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


class MatchStatRow(Base):
    __tablename__ = "nines_match_stats"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[str] = mapped_column(String(4), primary_key=True)
    person: Mapped[str] = mapped_column(String(40), index=True)
    game: Mapped[str] = mapped_column(String(20))
    won: Mapped[bool] = mapped_column(Boolean)


# -- ratings and the daily challenge (docs/ratings.md) ------------------------------------


class RatingRow(Base):
    __tablename__ = "nines_ratings"

    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    computer: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


class RatingHistoryRow(Base):
    __tablename__ = "nines_rating_history"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), primary_key=True, index=True)
    game: Mapped[str] = mapped_column(String(20))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


class ChallengeDayRow(Base):
    __tablename__ = "nines_challenge_days"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)  # ISO date, UTC
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    secret: Mapped[str] = mapped_column(String(64))


class ChallengeEntryRow(Base):
    __tablename__ = "nines_challenge_entries"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), primary_key=True, index=True)
    table_id: Mapped[str] = mapped_column(String(32), unique=True)
    seat: Mapped[str] = mapped_column(String(4))
    results: Mapped[list[float]] = mapped_column(JSON, default=list)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    started_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class CasualTableRow(Base):
    """A table its creator made casual: its match is not rated."""

    __tablename__ = "nines_casual_tables"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)


# -- a name on more than one browser (docs/names.md) ----------------------------------------------------


class NameDeviceRow(Base):
    """Another browser that holds a name (besides the first, ``PersonRow.secret_hash``): taken there with a
    one-time code, or signed in with a passkey.  Each has its own secret; only its hash is kept."""

    __tablename__ = "nines_name_devices"

    secret_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), index=True)
    how: Mapped[str] = mapped_column(String(10))  # "code" or "passkey"
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=_now)


class NameCodeRow(Base):
    """A one-time code that takes a name to another browser (its hash), until it expires or is used."""

    __tablename__ = "nines_name_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime, index=True)
    used_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class PasskeyRow(Base):
    """A passkey registered for a name."""

    __tablename__ = "nines_passkeys"

    # the credential id can be up to 1023 bytes: kept whole in ``credential_id``, looked up by its hash
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    credential_id: Mapped[str] = mapped_column(Text)  # base64url
    name: Mapped[str] = mapped_column(String(40), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)  # COSE
    sign_count: Mapped[int] = mapped_column(BigInteger)  # an unsigned 32-bit count
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    used_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class PasskeyChallengeRow(Base):
    """A challenge handed to a browser for one passkey registration or sign-in, taken once."""

    __tablename__ = "nines_passkey_challenges"

    ticket: Mapped[str] = mapped_column(String(64), primary_key=True)  # the hash of what the browser holds
    purpose: Mapped[str] = mapped_column(String(10))  # "register" or "sign_in"
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)  # the name a passkey is registered for
    challenge: Mapped[str] = mapped_column(String(128))  # base64url
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime, index=True)
