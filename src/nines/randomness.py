"""Where the deals of a match come from: a seed anyone may repeat, or a secret nobody can guess.

Two sources feed the games' shuffles (``rng.shuffle``, ``rng.choice``, ``rng.randint``),
both as a :class:`random.Random`, so the rules never know which one they have:

* an **int seed** drives CPython's Mersenne Twister exactly as it always has.  Simulations,
  tournaments, analysis, golden records and every published figure use it and stay
  reproducible.  It is *not* fit for a table where people hide cards from each other: a
  31-bit seed can be found by brute force from one seat's hand, and the Mersenne Twister
  can be rebuilt from its outputs, so one hand would tell every other hand and every later
  deal.
* a :class:`MatchSecret` (256 random bits per match) drives :class:`SecretRandom`: BLAKE2b
  keyed with the secret, run in counter mode, a keyed pseudo-random function.  Nothing a
  seat sees narrows the secret; the shuffle stays an unbiased Fisher-Yates because
  :class:`random.Random` draws every index by rejection sampling over ``getrandbits``.
  The secret is revealed in the record of a finished match, and replaying the record
  with it gives the same deals.

This module has no I/O; :meth:`MatchSecret.new` draws from the operating system's
secure source (:mod:`secrets`).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass
from typing import Any

__all__ = ["SECRET_BYTES", "DealSource", "MatchSecret", "SecretRandom", "rng_for"]

SECRET_BYTES = 32
"""A match secret is 256 bits."""

_BLOCK = 64  # bytes of BLAKE2b output per counter value
_PERSON = b"nines-deals/1"  # personalisation: this stream is for dealing cards and nothing else


@dataclass(frozen=True, repr=False)
class MatchSecret:
    """The 256-bit secret every deal of one match is drawn from.

    Written as 64 hexadecimal digits in records (``"secret"``), only once the match is over.
    Its ``repr`` hides the value so that a log line or a traceback cannot reveal it.
    """

    key: bytes

    def __post_init__(self) -> None:
        if len(self.key) != SECRET_BYTES:
            raise ValueError(f"a match secret is {SECRET_BYTES} bytes, not {len(self.key)}")

    @classmethod
    def new(cls) -> MatchSecret:
        """A fresh secret from the operating system's cryptographically secure source."""
        return cls(secrets.token_bytes(SECRET_BYTES))

    @classmethod
    def from_hex(cls, text: str) -> MatchSecret:
        """Read a secret as written in a record (64 hexadecimal digits)."""
        text = str(text).strip()
        if len(text) != 2 * SECRET_BYTES:
            raise ValueError(f"a match secret is {2 * SECRET_BYTES} hexadecimal digits, not {len(text)}")
        try:
            return cls(bytes.fromhex(text))
        except ValueError:
            raise ValueError("a match secret is written in hexadecimal digits 0-9 and a-f") from None

    def hex(self) -> str:
        return self.key.hex()

    def derive(self, purpose: str) -> bytes:
        """32 bytes for another use (a computer player's own randomness), independent of the deals."""
        return hashlib.blake2b(purpose.encode(), key=self.key, digest_size=32, person=b"nines-derive/1").digest()

    def __repr__(self) -> str:
        return "MatchSecret(<hidden>)"


DealSource = int | MatchSecret
"""What a match's deals come from: an int seed (reproducible) or a match secret (unpredictable)."""


class SecretRandom(random.Random):
    """A :class:`random.Random` whose every bit comes from BLAKE2b keyed with a match secret.

    Block ``i`` of the stream is ``BLAKE2b-512(key=secret, person="nines-deals/1", data=i)``;
    bits are consumed in order.  Defining :meth:`getrandbits` makes ``random.Random`` use
    ``_randbelow_with_getrandbits`` (rejection sampling) for ``shuffle``, ``choice``,
    ``randint`` and ``sample``: no modulo bias.  Copies (``copy``, ``deepcopy``,
    ``getstate``/``setstate``) continue the same stream.
    """

    STREAM = "nines-secret-stream/1"
    """Names the stream's layout in :meth:`getstate`."""

    def __init__(self, secret: MatchSecret) -> None:
        super().__init__(secret)  # type: ignore[arg-type]  # random.Random.__init__ hands it to seed()

    def seed(self, a: Any = None, version: int = 2) -> None:
        if not isinstance(a, MatchSecret):
            raise TypeError("a SecretRandom is seeded with a MatchSecret only (an int seed belongs to random.Random)")
        self._secret = a
        self._counter = 0
        self._buffer = b""
        self.gauss_next = None

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            block = hashlib.blake2b(
                self._counter.to_bytes(16, "little"), key=self._secret.key, digest_size=_BLOCK, person=_PERSON
            ).digest()
            self._buffer += block
            self._counter += 1
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        count = (k + 7) // 8
        return int.from_bytes(self._take(count), "little") >> (8 * count - k)

    def random(self) -> float:
        """A float in [0, 1) from 53 bits of the stream."""
        return self.getrandbits(53) * 2.0**-53

    def getstate(self) -> tuple[Any, ...]:
        return (self.STREAM, self._secret, self._counter, self._buffer, self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        if not state or state[0] != self.STREAM:
            raise ValueError(f"not the state of a {type(self).__name__}")
        _, self._secret, self._counter, self._buffer, self.gauss_next = state

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._secret,), self.getstate())


def rng_for(source: DealSource) -> random.Random:
    """The generator a match deals from: Mersenne Twister for an int seed, :class:`SecretRandom` for a secret."""
    if isinstance(source, MatchSecret):
        return SecretRandom(source)
    if isinstance(source, bool) or not isinstance(source, int):
        raise TypeError(f"a match is dealt from an int seed or a MatchSecret, not {type(source).__name__}")
    return random.Random(source)
