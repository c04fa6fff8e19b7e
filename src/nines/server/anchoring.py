"""The computer players' ratings kept anchored without anyone asking: anchor matches played in the background.

Computer players are held fixed in matches with people; only matches among themselves rate them
(:mod:`nines.ratings.anchor`).  A server started with ``ServerConfig.anchor_matches`` = N (``nines serve``:
24 unless ``--no-anchor``) counts each game's anchor matches in the ratings' history and, when a game has
fewer than N, plays the missing ones in **one worker process** at the lowest priority (niceness 19: it gets
only the CPU nothing else wants; a process of its own, so its Python never holds the server's interpreter
lock), one match after another, each rated and stored as it ends.  So a new server's computer players get
their anchor at the first start; a computer player added later (one of the game's anchor players with no
rating in it) makes the next start play N more; a server that already has them plays nothing.  It is bounded: at most N matches a game in all (short ones, about
0.2 to 0.5 s of CPU each on an idle core), and stopped with the server (the matches stored stay; the
next start plays the rest).

An anchor match's table id is ``anchor-GAME-NUMBER`` (:func:`anchor_table_id`), numbered from the count
stored: the history's key (table, name) stores each number once, so two processes starting together
cannot anchor a game twice over.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections.abc import Sequence
from multiprocessing.process import BaseProcess

from ..bots import players_for
from ..games import available_games
from ..ratings import rate_match
from ..ratings.anchor import anchor_matches
from .config import ServerConfig
from .logs import log
from .runtime import watch_server
from .store.database import Store
from .store.standing import ANCHOR_PREFIX, Standing

__all__ = ["ANCHOR_NICENESS", "Anchoring", "anchor_game", "anchor_goals", "anchor_table_id", "play_anchors"]

ANCHOR_NICENESS = 19
"""The anchoring process's niceness: the lowest priority Linux has."""


def anchor_table_id(game: str, number: int) -> str:
    return f"{ANCHOR_PREFIX}{game}-{number:05d}"


def anchor_game(standing: Standing, game: str, target: int, players: Sequence[str], seed: int = 0) -> int:
    """Play and rate the anchor matches ``game`` lacks to have ``target`` (none if it has them), one at a time,
    each stored as it ends; how many were stored."""
    done = standing.anchor_count(game)
    stored = 0
    for match in anchor_matches(game, max(0, target - done), seed, players, start=done):
        who = sorted({p.name for p in match.participants})
        before = standing.skills(game, who)
        after = rate_match(match.participants, match.ranks, before, rate_computers=True)
        if standing.record_ratings(game, anchor_table_id(game, match.number), before, after, computers=set(who)):
            stored += 1
    return stored


def play_anchors(database_url: str, goals: dict[str, int], players: Sequence[str], server: int) -> None:
    """The anchoring process: at the lowest priority, ended with the server, each game anchored up to its goal."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed: the usual priority
        os.setpriority(os.PRIO_PROCESS, 0, ANCHOR_NICENESS)
    watch_server(server)
    store = Store(database_url)
    try:
        standing = Standing(store)
        for game, goal in goals.items():
            stored = anchor_game(standing, game, goal, players)
            log.info("ratings.anchored", game=game, matches=stored, goal=goal)
    finally:
        store.close()


def anchor_goals(standing: Standing, target: int, players: Sequence[str]) -> dict[str, int]:
    """The anchor matches each game should have, for the games that lack some: ``target``, or ``target`` more
    when a game has them but one of its computer players has no rating in it yet (added since)."""
    goals = {}
    for game in available_games():
        count = standing.anchor_count(game)
        rated = {name for name, _skill, computer in standing.board(game) if computer}
        newcomers = [p for p in players if p in players_for(game) and p not in rated]
        if count < target:
            goals[game] = target
        elif newcomers:
            goals[game] = count + target
    return goals


class Anchoring:
    """Starts the anchoring process with the server when a game lacks anchor matches (see the module)."""

    def __init__(self, standing: Standing, config: ServerConfig) -> None:
        self.standing = standing
        self.config = config
        self.process: BaseProcess | None = None
        self.lacking: dict[str, int] = {}
        """The anchor matches each game lacked at the start (only the games that lacked some)."""

    async def start(self) -> None:
        target = self.config.anchor_matches
        if target <= 0:
            return
        players = tuple(self.config.anchor_players)
        goals = await asyncio.to_thread(anchor_goals, self.standing, target, players)
        counts = await asyncio.to_thread(lambda: {game: self.standing.anchor_count(game) for game in goals})
        self.lacking = {game: goal - counts[game] for game, goal in goals.items()}
        if not goals:
            return
        # forkserver, as the review workers: never a fork of this process and its threads
        context = multiprocessing.get_context("forkserver")
        self.process = context.Process(target=play_anchors, name="nines-anchoring", daemon=True,
                                       args=(self.config.database_url, goals, players, os.getpid()))
        await asyncio.to_thread(self.process.start)
        log.info("ratings.anchoring", lacking=self.lacking, target=target, pid=self.process.pid)

    def summary(self) -> dict[str, object]:
        """For ``/health``: the target, what each game lacked at the start, whether the process still plays."""
        return {"target": self.config.anchor_matches, "lacking": self.lacking,
                "running": self.process is not None and self.process.is_alive()}

    async def stop(self) -> None:
        """Stop the anchoring process if it still plays (the matches stored stay)."""
        process = self.process
        if process is None:
            return
        if process.is_alive():
            process.terminate()
        await asyncio.to_thread(process.join, 10)
        if process.is_alive():
            process.kill()
            await asyncio.to_thread(process.join, 5)
