"""The daily challenge at the server, and the rating of finished matches.

* :class:`Challenges` makes a person's challenge table of the day (one a name a day: a later request gets the
  same table, with a fresh token and one-time link), follows its deals into the person's entry, and keeps its
  deals secret: a challenge table of a day not over has no spectators, and its record, replays and reviews go
  only to people who have finished that day's challenge of that game.
* :class:`Ratings` rates every finished match at a web table with a person, unless it is casual, solo
  practice or a challenge (:mod:`nines.ratings`), once (the history's key), in a task of its own.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ...challenge import CHALLENGE_PRESET, CHALLENGES, challenge_over, day_secret, deal_results
from ...games import get_game
from ...games.contract import Reason, options_to_dict
from ...randomness import MatchSecret
from ...ratings import match_ranks, participants_from_record, rate_match
from ..config import ServerConfig
from ..logs import log
from ..store.database import StoredSeat, StoreUnavailable
from ..store.standing import ChallengeEntry, Standing
from ..wire.messages import ErrorCode, Seated
from .claims import claim_url, new_claim
from .manager import new_table
from .standings import DayStandings, WorkedOut
from .table import Table, TableError, hash_token

__all__ = ["Challenges", "Ratings", "stood_in_seats"]

SECRET_UNTIL_PLAYED = Reason(
    "server.challenge_secret",
    "this is a table of the daily challenge: its deals stay secret until you have played the day's challenge yourself",
)


class Challenges:
    def __init__(self, manager: Any, standing: Standing, config: ServerConfig) -> None:
        self.manager = manager
        self.standing = standing
        self.config = config
        self._days: OrderedDict[str, tuple[str, str] | None] = OrderedDict()  # table id -> (day, game) or None
        self._writing: set[asyncio.Task[None]] = set()
        self._counted: dict[str, tuple[int, bool]] = {}  # table id -> (deals finished, challenge over) written
        self.day_standings = DayStandings(standing)
        self._secrets: dict[tuple[str, str], MatchSecret] = {}  # (day, game) -> the day's secret, as stored

    def today(self) -> str:
        return self.config.today().isoformat()

    async def secret(self, day: str, game: str) -> MatchSecret:
        key = self.config.challenge_key

        def make() -> str:
            if key is not None:
                return day_secret(key, dt.date.fromisoformat(day), game).hex()
            return MatchSecret.new().hex()

        known = self._secrets.get((day, game))
        if known is None:  # read once a day (stored once, by the first process to ask: it never changes)
            known = MatchSecret.from_hex(await asyncio.to_thread(self.standing.day_secret, day, game, make))
            if len(self._secrets) >= 16:
                self._secrets.clear()
            self._secrets[(day, game)] = known
        return known

    async def start(self, game: str, name: str, secret_hash: str,
                    new_name: Callable[[], None] | None = None) -> dict[str, Any] | None:
        """The person's challenge table of today: made at the first request, the same one after; ``None`` when
        the name is not the browser's that holds ``secret_hash`` (the first browser to use a name owns it:
        ``new_name`` is called before a name new to the database is stored, and may refuse it by raising).

        A first request is one transaction (:meth:`Standing.start_entry`): the name, the table and its seats,
        the entry, all stored before the table's link is given."""
        if game not in CHALLENGES:
            raise TableError(ErrorCode.NOT_FOUND, f"there is no daily challenge of {game!r}; there are: {', '.join(CHALLENGES)}")
        spec_c = CHALLENGES[game]
        day = self.today()
        entry = await asyncio.to_thread(self.standing.entry, day, game, name)
        if entry is None:
            secret = await self.secret(day, game)
            spec = get_game(game)
            options = spec.options(None, dict(spec_c.options))
            token = secrets.token_urlsafe(24)
            claim = new_claim(self.config.limits.claim_s)  # a one-time link that expires, as every table's
            seats = [StoredSeat(seat, "human", person=name, token_hash=hash_token(token), claim_hash=hash_token(claim))
                     if seat == spec_c.seat else StoredSeat(seat, "bot", bot=self.config.challenge_bot or spec_c.bot)
                     for seat in spec.new_match(options, secret).seats]
            stored = new_table(spec, CHALLENGE_PRESET, options_to_dict(options), seats, secret=secret, seed=None,
                               hints=False, bot_delay_ms=self.config.bot_delay_ms, public=False, clock_s=None,
                               away_s=self.config.away_s, stand_in=self.config.stand_in)
            made = ChallengeEntry(day, game, name, stored.id, spec_c.seat)
            kept = await asyncio.to_thread(self.standing.start_entry, made, stored, secret_hash, new_name)
            if kept is None:
                return None
            if kept.table_id == stored.id:
                table = self.manager.open_new(stored)
                self._remember(table.id, (day, game))
                log.info("challenge.started", table=table.id, game=game, day=day)
                body = Seated(table=table.info(), seat=spec_c.seat, token=token, invite=table.invite,
                              url=claim_url(table, spec_c.seat, claim)).model_dump(mode="json")
                return {**body, "day": day}
            entry = kept  # another request of the same name a moment before: its table (nothing of this one stored)
        if not await asyncio.to_thread(self.manager.store.own_name, name, secret_hash, new_name):
            return None
        table = await self.manager.get(entry.table_id)
        self._remember(table.id, (day, game))
        token, url = await self.manager.claims.renew(table, entry.seat)  # the browser that held it before watches
        body = Seated(table=table.info(), seat=entry.seat, token=token, invite=table.invite, url=url).model_dump(mode="json")
        return {**body, "day": day}

    def _remember(self, table_id: str, day: tuple[str, str] | None) -> None:
        self._days[table_id] = day
        self._days.move_to_end(table_id)
        while len(self._days) > 50_000:
            self._days.popitem(last=False)

    async def day_of(self, table_id: str) -> tuple[str, str] | None:
        """The (day, game) of a challenge table, ``None`` for any other table."""
        if table_id in self._days:
            return self._days[table_id]
        entry = await asyncio.to_thread(self.standing.entry_of_table, table_id)
        day = (entry.day, entry.game) if entry is not None else None
        self._remember(table_id, day)
        return day

    # -- secret until played --------------------------------------------------------

    async def may_see(self, table_id: str, names: list[tuple[str, str]], seat_token: tuple[str | None, str | None] = (None, None)) -> bool:
        """May a requester see a table's deals (record, replays, reviews)?  Any table but a challenge table of a
        day not over; that one, its own person (by their name's cookie secret, or the seat's token: the finished
        deals of their own table), or someone who has finished that day's challenge of that game."""
        day = await self.day_of(table_id)
        if day is None or day[0] < self.today():
            return True
        entry_day, game = day
        candidates = []
        own = await asyncio.to_thread(self.standing.entry_of_table, table_id)
        seat, token = seat_token
        if own is not None and seat == own.seat and token:
            table = await self.manager.get(table_id)
            held = table.seats.get(seat)
            if held is not None and held.token_hash is not None and held.token_hash == hash_token(token):
                candidates.append(own.name)
        for name, secret in names:
            if await asyncio.to_thread(self.standing.owns_name, name, hash_token(secret)):
                candidates.append(name)
        if own is not None and own.name in candidates:
            return True  # the person at their own table: its finished deals (one in play stays closed to everyone)
        for name in candidates:
            entry = await asyncio.to_thread(self.standing.entry, entry_day, game, name)
            if entry is not None and entry.finished:
                return True
        return False

    async def guard(self, table_id: str, names: list[tuple[str, str]], seat_token: tuple[str | None, str | None] = (None, None)) -> None:
        if not await self.may_see(table_id, names, seat_token):
            raise TableError(ErrorCode.FORBIDDEN, SECRET_UNTIL_PLAYED)

    # -- progress ---------------------------------------------------------------------

    def after_action(self, table: Table) -> None:
        """A move at a table (under its lock): a challenge table's finished deals go to the person's entry."""
        if table.preset != CHALLENGE_PRESET:
            return
        game = table.spec.id
        spec_c = CHALLENGES.get(game)
        if spec_c is None:
            return
        finished = sum(1 for deal in table.state.deals if getattr(deal, "result", None) is not None)
        done = challenge_over(game, table.state)
        if self._counted.get(table.id) == (finished, done):
            return  # most moves: no deal ended (the record is built only when one did)
        self._counted[table.id] = (finished, done)
        record = table.record_now() if not table.state.is_over else table.final_record()
        results = deal_results(game, record, spec_c.seat)
        person = table.seats[spec_c.seat].person

        async def write() -> None:
            try:
                day = await self.day_of(table.id)
                if day is not None and person:
                    await asyncio.to_thread(self.standing.set_results, day[0], day[1], person, results, done)
                    if done:
                        self.day_standings.changed(*day)  # a new finished entry: the standings are worked out again
            except StoreUnavailable as error:
                log.warning("challenge.not_written", table=table.id, error=str(error))
                self._counted.pop(table.id, None)

        if done:
            self._counted.pop(table.id, None)  # no move follows the end
        task = asyncio.get_running_loop().create_task(write())
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def written(self) -> None:
        while self._writing:
            await asyncio.wait(list(self._writing))

    async def standings(self, day: str, game: str) -> WorkedOut:
        """The day's standings (:class:`~.standings.DayStandings`): after this process's finished entries are written,
        kept ones, or worked out in a thread once for all the requests asking meanwhile."""
        await self.written()
        return await self.day_standings.get(day, game)


def stood_in_seats(table: Table) -> set[str]:
    """The people's seats whose decisions a stand-in made for the most part of the match."""
    decided: dict[str, int] = {}
    for seat, _action in table.state.log:
        controller = table.state.controller_of(seat)
        decided[controller] = decided.get(controller, 0) + 1
    stood: dict[str, int] = {}
    for seat in table.stand_ins.values():
        stood[seat] = stood.get(seat, 0) + 1
    return {seat for seat, count in stood.items() if count * 2 > decided.get(seat, 0)}


class Ratings:
    """Rates finished matches (see the module's docstring)."""

    def __init__(self, standing: Standing, config: ServerConfig) -> None:
        self.standing = standing
        self.config = config
        self._seen: set[str] = set()
        self._writing: set[asyncio.Task[None]] = set()

    def after_action(self, table: Table) -> None:
        if not self.config.rate_matches or not table.state.is_over or table.id in self._seen:
            return
        self._seen.add(table.id)
        if table.practice or table.preset == CHALLENGE_PRESET:
            return
        people = {s.seat: s.person for s in table.seats.values() if s.kind == "human" and s.person}
        if not people:
            return
        computers = {s.seat: s.bot for s in table.seats.values() if s.kind == "bot" and s.bot}
        record = table.final_record()
        stood = stood_in_seats(table)
        game = table.spec.id

        async def rate() -> None:
            try:
                if await asyncio.to_thread(self.standing.is_casual, table.id):
                    return
                participants = participants_from_record(record, people, computers, stood)
                names = sorted({p.name for p in participants})
                before = await asyncio.to_thread(self.standing.skills, game, names)
                after = rate_match(participants, match_ranks(record), before)
                rated = await asyncio.to_thread(self.standing.record_ratings, game, table.id, before, after)
                if rated:
                    log.info("table.rated", table=table.id, game=game, people=len(after))
            except StoreUnavailable as error:
                self._seen.discard(table.id)
                log.warning("ratings.not_written", table=table.id, error=str(error))

        task = asyncio.get_running_loop().create_task(rate())
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)
        task.add_done_callback(lambda _task: self._seen.discard(table.id))  # rated once: the history's key says so

    async def written(self) -> None:
        while self._writing:
            await asyncio.wait(list(self._writing))
