"""People and their statistics: names held by the first browser to use them (and the browsers they were taken
to: :mod:`.names`), every finished deal and
match of each person, their reviewed deals, and the statistics read from them.

:class:`PeopleStore` is part of :class:`~nines.server.store.database.Store` (which adds the tables and
moves); the rows are :mod:`.schema`'s.
"""

from __future__ import annotations

import datetime as dt
import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ..guard.limits import name_key, name_looks
from .schema import DealStatRow, MatchStatRow, NameDeviceRow, NameLookRow, PersonRow, ReviewStatRow, _now

DEVICES_PER_NAME = 20
"""Other browsers one name may be held by at once; taking it to one more lets the oldest go."""


@dataclass(frozen=True)
class DealStat:
    table_id: str
    deal: int
    seat: str
    person: str
    game: str
    won: bool
    tricks: int | None = None
    target: int | None = None
    exchanged: bool | None = None
    declared: bool | None = None
    points: int | None = None
    stand_in: int = 0


@dataclass(frozen=True)
class ReviewStat:
    """A person's cards in a reviewed deal (:mod:`nines.review`): chosen, costly, tricks lost, unscored."""

    table_id: str
    deal: int
    seat: str
    person: str
    game: str
    cards: int
    errors: int
    lost: int
    unscored: int = 0


@dataclass(frozen=True)
class MatchStat:
    table_id: str
    seat: str
    person: str
    game: str
    won: bool


class PeopleStore:
    """People and their statistics: the part of :class:`~nines.server.store.database.Store` about names,
    each person's finished deals and matches, and their reviewed deals."""

    _session: sessionmaker[Session]

    def touch_person(self, name: str) -> None:
        """Remember a name (or that it was seen again); two requests at once for a new name are fine."""
        with self._session.begin() as session:
            updated = session.execute(update(PersonRow).where(PersonRow.name == name).values(last_seen=_now()))
            if updated.rowcount:  # type: ignore[attr-defined]
                return
        try:
            with self._session.begin() as session:
                session.add(PersonRow(name=name, name_key=name_key(name)))
        except IntegrityError:
            pass  # someone else stored it (or a name that normalizes the same) a moment ago

    def own_name(self, name: str, secret_hash: str | None, new_name: Callable[[], None] | None = None) -> bool:
        """May the browser holding this secret use the name?  The first browser to use a name owns it
        (its secret is stored); after that only that browser may.  Returns False for anyone else.
        ``new_name`` is called just before a name new to the database is added, and may refuse it by raising
        (nothing is stored then): the server counts new names per address."""
        with self._session.begin() as session:
            return self.claim_name(session, name, secret_hash, new_name)

    def claim_name(self, session: Session, name: str, secret_hash: str | None, new_name: Callable[[], None] | None = None,
                   *, seen: bool = False) -> bool:
        """:meth:`own_name` in the caller's transaction (``seen``: the name's ``last_seen`` is now, as
        :meth:`touch_person`'s).  False: the name is someone else's, and if it was taken by another browser at the
        same moment, the transaction is over (rolled back: the caller stores nothing more in it)."""
        row = session.get(PersonRow, name)
        if row is None:
            if secret_hash is None:
                return False
            key = name_key(name)
            if session.scalar(select(PersonRow.name).where(PersonRow.name_key == key)) is not None:
                return False  # a name that normalizes the same ("alice" for "Alice") is someone else's
            looks = name_looks(name)
            if session.scalar(select(NameLookRow.name).where(NameLookRow.look.in_(looks)).limit(1)) is not None:
                return False  # a name that looks the same ("\u0421arol", a Cyrillic Es, for "Carol") is someone else's
            if new_name is not None:
                new_name()
            session.add(PersonRow(name=name, secret_hash=secret_hash, name_key=key))
            session.add_all(NameLookRow(look=look, name=name) for look in looks)
            try:
                session.flush()
            except IntegrityError:
                return False  # another browser took it at the same moment
            return True
        if row.secret_hash is None:  # a name from before names were owned: the first to come back owns it
            if secret_hash is None:
                return False
            row.secret_hash = secret_hash
        elif not _holds(session, row, secret_hash):
            return False
        if seen:
            row.last_seen = _now()
        return True

    def holds_name(self, name: str, secret_hash: str | None) -> bool:
        """Does the browser holding this secret hold the name (the first browser, or one it was taken to)?"""
        if secret_hash is None:
            return False
        with self._session() as session:
            row = session.get(PersonRow, name)
            return row is not None and _holds(session, row, secret_hash)

    def add_device(self, session: Session, name: str, secret_hash: str, how: str, now: dt.datetime) -> None:
        """One more browser holds ``name`` (in the caller's transaction); past :data:`DEVICES_PER_NAME`, the
        oldest other browser lets it go (the first browser never does)."""
        session.add(NameDeviceRow(secret_hash=secret_hash, name=name, how=how, created_at=now))
        session.flush()
        newest_first = session.scalars(select(NameDeviceRow.secret_hash).where(NameDeviceRow.name == name).order_by(
            NameDeviceRow.created_at.desc(), NameDeviceRow.secret_hash)).all()
        old = list(newest_first[DEVICES_PER_NAME:])
        if old:
            session.execute(delete(NameDeviceRow).where(NameDeviceRow.secret_hash.in_(old)))

    def person_exists(self, name: str) -> bool:
        with self._session() as session:
            return session.get(PersonRow, name) is not None

    def add_deal_stats(self, stats: Iterable[DealStat]) -> int:
        """Store deal results not stored yet (derived data: storing twice is harmless)."""
        added = 0
        with self._session.begin() as session:
            for s in stats:
                if session.get(DealStatRow, (s.table_id, s.deal, s.seat)) is not None:
                    continue
                session.add(DealStatRow(**s.__dict__))
                added += 1
        return added

    def add_match_stats(self, stats: Iterable[MatchStat]) -> int:
        added = 0
        with self._session.begin() as session:
            for s in stats:
                if session.get(MatchStatRow, (s.table_id, s.seat)) is not None:
                    continue
                session.add(MatchStatRow(**s.__dict__))
                added += 1
        return added

    def person_stats(self, name: str) -> dict[str, dict[str, Any]]:
        """Per game: matches and deals played and won, tricks against target, exchange and declare rates."""
        out: dict[str, dict[str, Any]] = {}
        with self._session() as session:
            deal_rows = session.execute(
                select(
                    DealStatRow.game,
                    func.count(),
                    func.sum(_as_int(DealStatRow.won)),
                    func.avg(DealStatRow.tricks),
                    func.avg(DealStatRow.target),
                    func.avg(DealStatRow.tricks - DealStatRow.target),
                    func.count(DealStatRow.exchanged),
                    func.sum(_as_int(DealStatRow.exchanged)),
                    func.count(DealStatRow.declared),
                    func.sum(_as_int(DealStatRow.declared)),
                    func.avg(DealStatRow.points),
                )
                # a deal in which a stand-in decided for the person is not their play: counted apart below
                .where(DealStatRow.person == name, DealStatRow.stand_in == 0)
                .group_by(DealStatRow.game)
            ).all()
            for game, n, won, tricks, target, margin, n_ex, ex, n_decl, decl, points in deal_rows:
                out[game] = {
                    "deals": int(n),
                    "deals_won": int(won or 0),
                    "average_tricks": _round(tricks),
                    "average_target": _round(target),
                    "average_margin": _round(margin),
                    "exchange_rate": _rate(ex, n_ex),
                    "declare_rate": _rate(decl, n_decl),
                    "average_points": _round(points),
                    "matches": 0,
                    "matches_won": 0,
                    "deals_stood_in": 0,
                    "stand_in_decisions": 0,
                }
            stood_in = session.execute(
                select(DealStatRow.game, func.count(), func.sum(DealStatRow.stand_in))
                .where(DealStatRow.person == name, DealStatRow.stand_in > 0)
                .group_by(DealStatRow.game)
            ).all()
            for game, n, decisions in stood_in:
                entry = out.setdefault(game, _empty_stats())
                entry["deals_stood_in"] = int(n)
                entry["stand_in_decisions"] = int(decisions or 0)
            match_rows = session.execute(
                select(MatchStatRow.game, func.count(), func.sum(_as_int(MatchStatRow.won)))
                .where(MatchStatRow.person == name)
                .group_by(MatchStatRow.game)
            ).all()
            for game, n, won in match_rows:
                entry = out.setdefault(game, _empty_stats())
                entry["matches"] = int(n)
                entry["matches_won"] = int(won or 0)
        # the review (nines.review): tricks lost per deal to costly cards, over time
        reviewed = self.person_review_stats(name)
        for game, entry in out.items():
            entry["review"] = reviewed.get(game)
        return out

    def add_review_stats(self, stats: Iterable[ReviewStat]) -> int:
        """Store reviewed deals not stored yet (derived data: storing twice is harmless)."""
        added = 0
        with self._session.begin() as session:
            for stat in stats:
                if session.get(ReviewStatRow, (stat.table_id, stat.deal, stat.seat)) is None:
                    session.add(ReviewStatRow(**stat.__dict__))
                    added += 1
        return added

    def person_review_stats(self, name: str, days: int = 30) -> dict[str, dict[str, Any]]:
        """Per game: reviewed deals, average tricks lost per deal to costly cards, and the same day by day
        (the last ``days`` days with a reviewed deal, oldest first)."""
        out: dict[str, dict[str, Any]] = {}
        with self._session() as session:
            rows = session.execute(
                select(ReviewStatRow.game, ReviewStatRow.reviewed_at, ReviewStatRow.lost, ReviewStatRow.errors, ReviewStatRow.cards)
                .where(ReviewStatRow.person == name)
                .order_by(ReviewStatRow.reviewed_at)
            ).all()
        for game, when, lost, errors, cards in rows:
            entry = out.setdefault(game, {"deals": 0, "lost": 0, "errors": 0, "cards": 0, "days": {}})
            entry["deals"] += 1
            entry["lost"] += lost
            entry["errors"] += errors
            entry["cards"] += cards
            day = entry["days"].setdefault(when.date().isoformat(), [0, 0])
            day[0] += 1
            day[1] += lost
        return {
            game: {
                "deals": e["deals"],
                "average_lost": _round(e["lost"] / e["deals"]),
                "costly_cards_per_deal": _round(e["errors"] / e["deals"]),
                "by_day": [
                    {"day": day, "deals": n, "average_lost": _round(lost / n)} for day, (n, lost) in list(e["days"].items())[-days:]
                ],
            }
            for game, e in out.items()
        }

    def people(self, limit: int = 100) -> list[str]:
        with self._session() as session:
            return list(session.scalars(select(PersonRow.name).order_by(PersonRow.last_seen.desc()).limit(limit)))


def _empty_stats() -> dict[str, Any]:
    return {"deals": 0, "deals_won": 0, "average_tricks": None, "average_target": None,
            "average_margin": None, "exchange_rate": None, "declare_rate": None, "average_points": None,
            "matches": 0, "matches_won": 0, "deals_stood_in": 0, "stand_in_decisions": 0}


def _as_int(column: Any) -> Any:
    return case((column.is_(True), 1), else_=0)


def _round(value: Any) -> float | None:
    return None if value is None else round(float(value), 2)


def _rate(count: Any, total: Any) -> float | None:
    return None if not total else round(float(count or 0) / float(total), 3)


def _holds(session: Session, row: PersonRow, secret_hash: str | None) -> bool:
    """The secret is the name's first browser's, or another browser's it was taken to."""
    if secret_hash is None or row.secret_hash is None:
        return False
    if hmac.compare_digest(row.secret_hash, secret_hash):
        return True
    # looked up by its hash (the key): a secret that is not a device's finds nothing
    device = session.get(NameDeviceRow, secret_hash)
    return device is not None and device.name == row.name
