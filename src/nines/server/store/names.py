"""Storage of what takes a name to another browser: one-time codes, passkeys and their challenges.

* ``nines_name_codes``: a code the name's browser asked for (its hash), until it expires or is used.
* ``nines_passkeys``: a passkey registered for a name: its credential id, public key (COSE) and sign count.
* ``nines_passkey_challenges``: a challenge handed to a browser for one registration or sign-in, taken once.
* ``nines_name_devices``: each browser a name was taken to (:meth:`~nines.server.store.people.PeopleStore.add_device`).

The rows are :mod:`.schema`'s.

Every time is given by the caller (the server's clock, a test's): nothing here reads the time.  The methods are
synchronous, like :class:`~nines.server.store.Store`'s; the server calls them in threads.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from enum import Enum

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from .database import Store
from .schema import NameCodeRow, PasskeyChallengeRow, PasskeyRow, PersonRow

__all__ = ["CodeTaken", "NameKeys", "StoredPasskey", "TakenCode"]


class CodeTaken(Enum):
    TAKEN = "taken"
    WRONG = "wrong"
    EXPIRED = "expired"
    USED = "used"


@dataclass(frozen=True)
class TakenCode:
    outcome: CodeTaken
    name: str | None = None


@dataclass(frozen=True)
class StoredPasskey:
    credential_id: str
    name: str
    public_key: bytes
    sign_count: int


def id_hash(credential_id: str) -> str:
    return hashlib.sha256(credential_id.encode()).hexdigest()


KEPT_AFTER_EXPIRY = dt.timedelta(days=1)
"""A code is kept this long after it expires (so a late try hears "expired", not "wrong"), then deleted."""


class NameKeys:
    """Codes and passkeys on a :class:`Store`'s database (the store migrates the schema)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._session = store._session

    # -- one-time codes --------------------------------------------------------------

    def add_code(self, name: str, code_hash: str, now: dt.datetime, expires_at: dt.datetime, most: int) -> bool:
        """Store a new code for ``name``; ``False`` (nothing stored) when ``most`` of its codes are waiting
        already.  Codes long expired (everyone's) are deleted here."""
        with self._session.begin() as session:
            session.execute(delete(NameCodeRow).where(NameCodeRow.expires_at < now - KEPT_AFTER_EXPIRY))
            waiting = session.scalar(select(func.count()).select_from(NameCodeRow).where(
                NameCodeRow.name == name, NameCodeRow.used_at.is_(None), NameCodeRow.expires_at > now)) or 0
            if waiting >= most:
                return False
            session.add(NameCodeRow(code_hash=code_hash, name=name, created_at=now, expires_at=expires_at))
        return True

    def take_code(self, code_hash: str, secret_hash: str, now: dt.datetime) -> TakenCode:
        """Spend a code: the browser holding ``secret_hash`` now holds the code's name too.  Once only: of two
        browsers sending the same code at once, one takes it and the other hears it was used."""
        with self._session.begin() as session:
            row = session.get(NameCodeRow, code_hash)
            if row is None:
                return TakenCode(CodeTaken.WRONG)
            if row.used_at is not None:
                return TakenCode(CodeTaken.USED)
            if row.expires_at <= now:
                return TakenCode(CodeTaken.EXPIRED)
            spent = session.execute(update(NameCodeRow).where(NameCodeRow.code_hash == code_hash, NameCodeRow.used_at.is_(None))
                                    .values(used_at=now))
            if spent.rowcount != 1:  # type: ignore[attr-defined]
                return TakenCode(CodeTaken.USED)
            if session.get(PersonRow, row.name) is None:  # the name is gone (never, today): nothing to take
                return TakenCode(CodeTaken.WRONG)
            self.store.add_device(session, row.name, secret_hash, "code", now)
            return TakenCode(CodeTaken.TAKEN, row.name)

    # -- passkeys ----------------------------------------------------------------------

    def add_challenge(self, ticket: str, purpose: str, name: str | None, challenge: str, now: dt.datetime,
                      expires_at: dt.datetime) -> None:
        """Keep a challenge until it is taken or expires (challenges expired, everyone's, are deleted here)."""
        with self._session.begin() as session:
            session.execute(delete(PasskeyChallengeRow).where(PasskeyChallengeRow.expires_at <= now))
            session.add(PasskeyChallengeRow(ticket=ticket, purpose=purpose, name=name, challenge=challenge, expires_at=expires_at))

    def take_challenge(self, ticket: str, purpose: str, now: dt.datetime) -> tuple[str | None, str] | None:
        """The name and challenge of a ticket, once (it is deleted); ``None`` when there is none for this
        purpose, it was taken, or it expired."""
        with self._session.begin() as session:
            row = session.get(PasskeyChallengeRow, ticket)
            if row is None:
                return None
            gone = session.execute(delete(PasskeyChallengeRow).where(PasskeyChallengeRow.ticket == ticket))
            if gone.rowcount != 1:  # type: ignore[attr-defined]
                return None  # another request took it a moment ago
            if row.purpose != purpose or row.expires_at <= now:
                return None
            return row.name, row.challenge

    def passkeys_of(self, name: str) -> list[str]:
        """The credential ids of a name's passkeys, oldest first."""
        with self._session() as session:
            return list(session.scalars(select(PasskeyRow.credential_id).where(PasskeyRow.name == name)
                                        .order_by(PasskeyRow.created_at, PasskeyRow.id_hash)))

    def add_passkey(self, passkey: StoredPasskey, now: dt.datetime, most: int) -> bool:
        """Store a passkey; ``False`` when the name has ``most`` already or the credential is stored (for any name)."""
        try:
            with self._session.begin() as session:
                count = session.scalar(select(func.count()).select_from(PasskeyRow).where(PasskeyRow.name == passkey.name)) or 0
                if count >= most:
                    return False
                session.add(PasskeyRow(id_hash=id_hash(passkey.credential_id), credential_id=passkey.credential_id,
                                       name=passkey.name, public_key=passkey.public_key, sign_count=passkey.sign_count,
                                       created_at=now))
        except IntegrityError:
            return False
        return True

    def passkey(self, credential_id: str) -> StoredPasskey | None:
        with self._session() as session:
            row = session.get(PasskeyRow, id_hash(credential_id))
            if row is None or row.credential_id != credential_id:
                return None
            return StoredPasskey(row.credential_id, row.name, row.public_key, row.sign_count)

    def signed_in(self, passkey: StoredPasskey, sign_count: int, secret_hash: str, now: dt.datetime) -> bool:
        """A passkey was used: its new sign count kept and the browser holding ``secret_hash`` holds the name.
        ``False`` (nothing changed) when the stored count moved on meanwhile (the same assertion sent twice)."""
        with self._session.begin() as session:
            moved = session.execute(update(PasskeyRow).where(PasskeyRow.id_hash == id_hash(passkey.credential_id),
                                                             PasskeyRow.sign_count == passkey.sign_count)
                                    .values(sign_count=sign_count, used_at=now))
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                return False
            self.store.add_device(session, passkey.name, secret_hash, "passkey", now)
        return True
