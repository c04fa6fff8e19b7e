"""Storage of ratings and of the daily challenge (SQLAlchemy 2, on the store's engine and schema).

* ``nines_ratings``: each player's skill per game (people and computer players, ``computer`` says which).
* ``nines_rating_history``: each rated match's change per player (the profile's chart, the deal summary's
  change); its key (table, name) makes rating a match twice impossible, on one process or several.
* ``nines_challenge_days``: the secret each day's challenge of each game is dealt from (written once).
* ``nines_challenge_entries``: each person's challenge of a day (table, seat, results per deal, finished).

The methods are synchronous, like :class:`~nines.server.store.Store`'s; the server calls them in threads.
"""

from __future__ import annotations

import datetime as dt
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Text, cast, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...ratings import Skill
from .database import Store, StoredTable
from .schema import (
    CasualTableRow,
    ChallengeDayRow,
    ChallengeEntryRow,
    PersonRow,
    RatingHistoryRow,
    RatingRow,
    _now,
)

__all__ = ["ANCHOR_PREFIX", "ChallengeEntry", "RatingChange", "Standing"]

ANCHOR_PREFIX = "anchor-"
"""The table id of an anchor match in the ratings' history begins with it (no web table's id does)."""


@dataclass(frozen=True)
class RatingChange:
    table_id: str
    name: str
    game: str
    before: Skill
    after: Skill
    rated_at: dt.datetime


@dataclass(frozen=True)
class ChallengeEntry:
    day: str
    game: str
    name: str
    table_id: str
    seat: str
    results: list[float] = field(default_factory=list)
    finished: bool = False


class Standing:
    """Ratings and challenges on a :class:`Store`'s database (the store migrates the schema)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._session = store._session

    # -- ratings -----------------------------------------------------------------

    def skills(self, game: str, names: list[str]) -> dict[str, Skill]:
        if not names:
            return {}
        with self._session() as session:
            rows = session.scalars(select(RatingRow).where(RatingRow.game == game, RatingRow.name.in_(names)))
            return {r.name: Skill(r.mu, r.sigma, r.matches) for r in rows}

    def record_ratings(self, game: str, table_id: str, before: Mapping[str, Skill], after: Mapping[str, Skill],
                       computers: set[str] | frozenset[str] = frozenset(), at: dt.datetime | None = None) -> bool:
        """Store a match's new skills and their history in one transaction; ``False`` (nothing changed)
        when the match was rated already (by this process or another)."""
        if not after:
            return False
        when = at or _now()
        try:
            with self._session.begin() as session:
                for name, new in after.items():
                    old = before.get(name) or Skill.new()
                    session.add(RatingHistoryRow(table_id=table_id, name=name, game=game, mu_before=old.mu,
                                                 sigma_before=old.sigma, mu=new.mu, sigma=new.sigma, rated_at=when))
                session.flush()
                for name, new in after.items():
                    row = session.get(RatingRow, (game, name))
                    if row is None:
                        session.add(RatingRow(game=game, name=name, computer=name in computers, mu=new.mu,
                                              sigma=new.sigma, matches=new.matches, updated_at=when))
                    else:
                        row.mu, row.sigma, row.matches, row.updated_at = new.mu, new.sigma, new.matches, when
        except IntegrityError:
            return False
        return True

    def anchor_count(self, game: str) -> int:
        """How many anchor matches (among computer players, their table ``anchor-...``) a game's ratings come from."""
        query = select(func.count(func.distinct(RatingHistoryRow.table_id))).where(
            RatingHistoryRow.game == game, RatingHistoryRow.table_id.like(f"{ANCHOR_PREFIX}%"))
        with self._session() as session:
            return int(session.scalar(query) or 0)

    def mark_casual(self, table_id: str) -> None:
        try:
            with self._session.begin() as session:
                session.add(CasualTableRow(table_id=table_id))
        except IntegrityError:
            pass

    def is_casual(self, table_id: str) -> bool:
        with self._session() as session:
            return session.get(CasualTableRow, table_id) is not None

    def owns_name(self, name: str, secret_hash: str) -> bool:
        """Does this secret's browser own the name (read only: nothing is claimed)?"""
        with self._session() as session:
            row = session.get(PersonRow, name)
            return row is not None and row.secret_hash is not None and hmac.compare_digest(row.secret_hash, secret_hash)

    def board(self, game: str) -> list[tuple[str, Skill, bool]]:
        with self._session() as session:
            rows = session.scalars(select(RatingRow).where(RatingRow.game == game))
            return [(r.name, Skill(r.mu, r.sigma, r.matches), r.computer) for r in rows]

    def person_ratings(self, name: str) -> dict[str, Skill]:
        with self._session() as session:
            rows = session.scalars(select(RatingRow).where(RatingRow.name == name))
            return {r.game: Skill(r.mu, r.sigma, r.matches) for r in rows}

    def history(self, name: str, limit: int = 500) -> list[RatingChange]:
        """A player's rated matches, oldest first (the newest ``limit``)."""
        with self._session() as session:
            rows = session.scalars(select(RatingHistoryRow).where(RatingHistoryRow.name == name)
                                   .order_by(RatingHistoryRow.rated_at.desc(), RatingHistoryRow.table_id).limit(limit))
            return [_change(r) for r in reversed(list(rows))]

    def table_changes(self, table_id: str) -> list[RatingChange]:
        with self._session() as session:
            rows = session.scalars(select(RatingHistoryRow).where(RatingHistoryRow.table_id == table_id)
                                   .order_by(RatingHistoryRow.name))
            return [_change(r) for r in rows]

    # -- the daily challenge -------------------------------------------------------

    def day_secret(self, day: str, game: str, make: Callable[[], str]) -> str:
        """The secret of a day's challenge of a game: the stored one, or ``make()``'s, stored once (the first
        of two processes asking at the same moment wins; the other reads it)."""
        with self._session() as session:
            row = session.get(ChallengeDayRow, (day, game))
            if row is not None:
                return row.secret
        try:
            with self._session.begin() as session:
                session.add(ChallengeDayRow(day=day, game=game, secret=make()))
        except IntegrityError:
            pass
        with self._session() as session:
            row = session.get(ChallengeDayRow, (day, game))
            assert row is not None
            return row.secret

    def entry(self, day: str, game: str, name: str) -> ChallengeEntry | None:
        with self._session() as session:
            row = session.get(ChallengeEntryRow, (day, game, name))
            return None if row is None else _entry(row)

    def entry_of_table(self, table_id: str) -> ChallengeEntry | None:
        with self._session() as session:
            row = session.scalar(select(ChallengeEntryRow).where(ChallengeEntryRow.table_id == table_id))
            return None if row is None else _entry(row)

    def add_entry(self, entry: ChallengeEntry) -> ChallengeEntry:
        """Store a person's entry for the day; if they have one already (another request a moment before),
        that one is returned and this one is not stored."""
        stored = self._first_entry(entry, lambda session: True)
        assert stored is not None  # (nothing to refuse first)
        return stored

    def start_entry(self, entry: ChallengeEntry, table: StoredTable, secret_hash: str,
                    new_name: Callable[[], None] | None = None) -> ChallengeEntry | None:
        """A person's first request of the day's challenge, in one transaction (one commit, one wait for the disk):
        the name claimed for the browser holding ``secret_hash`` (:meth:`~.people.PeopleStore.own_name`; its
        ``last_seen`` now), ``table`` stored with its seats, and ``entry`` (of that table).

        Returns ``entry`` once all of it is stored; ``None`` and nothing stored when the name is someone else's;
        or, with nothing stored, the entry the name already has (another request a moment before: the caller
        checks the name again, for that entry's table was not claimed here)."""

        def name_and_table(session: Session) -> bool:
            if not self.store.claim_name(session, entry.name, secret_hash, new_name, seen=True):
                return False
            self.store.add_table(session, table)
            return True

        return self._first_entry(entry, name_and_table)

    def _first_entry(self, entry: ChallengeEntry, first: Callable[[Session], bool]) -> ChallengeEntry | None:
        """``entry`` stored after ``first`` (in the same transaction; ``False``: nothing stored, ``None``), or the
        entry the name has already, this one not stored."""
        try:
            with self._session.begin() as session:
                if not first(session):
                    return None
                session.add(ChallengeEntryRow(day=entry.day, game=entry.game, name=entry.name, table_id=entry.table_id,
                                              seat=entry.seat, results=list(entry.results), finished=entry.finished))
        except IntegrityError:
            existing = self.entry(entry.day, entry.game, entry.name)
            if existing is None:
                raise
            return existing
        return entry

    def set_results(self, day: str, game: str, name: str, results: list[float], finished: bool,
                    at: dt.datetime | None = None) -> None:
        with self._session.begin() as session:
            row = session.get(ChallengeEntryRow, (day, game, name))
            if row is None:
                return
            row.results = list(results)
            if finished and not row.finished:
                row.finished = True
                row.finished_at = at or _now()

    def day_results(self, day: str, game: str) -> dict[str, list[float]]:
        """The finished entries' results per name (the standings of a busy day), read as one JSON object the
        database puts together (``json_group_object`` on SQLite, ``json_object_agg`` on PostgreSQL) and decoded
        by one ``orjson.loads``: a row object a name, or decoding each row through the ORM's JSON type, took ten
        times as long with 10,000 entries, most of it the garbage collector's."""
        entries = ChallengeEntryRow
        postgres = self.store.engine.dialect.name == "postgresql"
        results = entries.results if postgres else func.json(entries.results)
        return {name: results or [] for name, results in self._day_object(day, game, results).items()}

    def day_tables(self, day: str, game: str) -> dict[str, tuple[str, list[float]]]:
        """The finished entries' tables and results per name (each deal's spread), read as :meth:`day_results` reads."""
        entries = ChallengeEntryRow
        if self.store.engine.dialect.name == "postgresql":
            pair = func.json_build_array(entries.table_id, entries.results)
        else:
            pair = func.json_array(entries.table_id, func.json(entries.results))
        return {name: (table_id, results or []) for name, (table_id, results) in self._day_object(day, game, pair).items()}

    def _day_object(self, day: str, game: str, value: Any) -> dict[str, Any]:
        """One JSON object of the day's finished entries: each name's ``value``."""
        entries = ChallengeEntryRow
        if self.store.engine.dialect.name == "postgresql":
            together = func.json_object_agg(entries.name, value)
        else:
            together = func.json_group_object(entries.name, value)
        query = select(cast(together, Text)).where(entries.day == day, entries.game == game, entries.finished.is_(True))
        with self.store.engine.connect() as connection:
            text = connection.execute(query).scalar()
        found: dict[str, Any] = orjson.loads(text or "{}")
        return found

    def person_entries(self, name: str, limit: int = 60) -> list[ChallengeEntry]:
        with self._session() as session:
            rows = session.scalars(select(ChallengeEntryRow).where(ChallengeEntryRow.name == name)
                                   .order_by(ChallengeEntryRow.day.desc(), ChallengeEntryRow.game).limit(limit))
            return [_entry(r) for r in rows]

    def challenge_tables(self, table_ids: list[str]) -> dict[str, ChallengeEntry]:
        """Which of these tables are challenge tables (the lobby and the records keep them apart)."""
        if not table_ids:
            return {}
        with self._session() as session:
            rows = session.scalars(select(ChallengeEntryRow).where(ChallengeEntryRow.table_id.in_(table_ids)))
            return {r.table_id: _entry(r) for r in rows}


def _change(row: RatingHistoryRow) -> RatingChange:
    return RatingChange(row.table_id, row.name, row.game, Skill(row.mu_before, row.sigma_before),
                        Skill(row.mu, row.sigma), row.rated_at)


def _entry(row: ChallengeEntryRow) -> ChallengeEntry:
    return ChallengeEntry(row.day, row.game, row.name, row.table_id, row.seat, list(row.results or []), bool(row.finished))

