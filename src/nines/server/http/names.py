"""A name on every device: one-time codes that take it to another browser, and passkeys that bring it back.

A name belongs to the browsers that hold it (:mod:`.seating`): the first to use it, and any it was taken to.

* **A one-time code** (and a link carrying it): the browser holding the name asks for one
  (``POST /api/people/{name}/codes``); another browser sends it (``POST /api/people/take``) and holds the name
  too, with a secret of its own.  8 characters of 31 (no 0/O, 1/I/L), kept hashed, used once, for
  ``Limits.name_code_s`` seconds; a name has at most ``Limits.name_codes_waiting`` waiting, and an address may
  try ``Limits.name_tries_per_hour`` codes and passkey sign-ins an hour.
* **A passkey** (WebAuthn, checked by py_webauthn): a browser holding the name registers one
  (``.../passkeys/options``, then ``.../passkeys``); a browser that lost the cookie signs in with it
  (``POST /api/passkeys/options``, then ``POST /api/passkeys/sign-in``) and holds the name again.  The relying
  party is ``ServerConfig.passkey_rp_id`` (else the request's host) and the origin is checked against
  ``ServerConfig.passkey_origins`` (else the request's own).  Each challenge is used once, within
  ``Limits.passkey_challenge_s`` seconds.

Every expiry reads the app's clock (``app.state.clock``): tests move it instead of waiting.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import secrets
from typing import Any

from fastapi import APIRouter, Request, Response
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ...games.contract import Reason
from ..config import ServerConfig
from ..guard.limits import check_name, name_key
from ..logs import log
from ..store.database import Store
from ..store.names import CodeTaken, NameKeys, StoredPasskey, TakenCode
from ..tables.table import TableError, hash_token
from ..wire.answers import NameCode, NameHeld, NameTaken, PasskeyChallenge, PasskeyCount
from ..wire.messages import ErrorCode, PasskeyAnswer, PasskeyStart, TakeName
from .deps import AddressDep, ConfigDep, GuardsDep, NowDep, StoreDep, refuse
from .errors import API, BODY, STORE, refusals
from .seating import is_secure, name_secret_hash, set_name_cookie

router = APIRouter()

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""What a code is written with: no 0 and O, no 1, I and L (read aloud or copied by hand, none is mistaken)."""
CODE_LENGTH = 8
RP_NAME = "Nines"
# a credential that the library cannot read (a wrong shape, bad base64, bad CBOR) is refused like a false one
_UNREADABLE = (WebAuthnException, ValueError, KeyError, TypeError, AttributeError, IndexError)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str | None:
    """A code as typed (any case, spaces and dashes anywhere) in its one form, or ``None`` if it cannot be one."""
    code = "".join(c for c in text.upper() if c not in " -\u00a0")
    return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) else None


def _name(name: str) -> str:
    try:
        return check_name(name)
    except ValueError as error:
        reason = error.args[0]
        raise TableError(ErrorCode.MALFORMED, reason) from None


async def _held(store: Store, request: Request, name: str) -> None:
    """Only a browser holding ``name`` may take it elsewhere or add a passkey to it."""
    if not await asyncio.to_thread(store.holds_name, name, name_secret_hash(request, name)):
        raise TableError(ErrorCode.FORBIDDEN, Reason(
            "server.name_not_held", f"this browser does not hold the name {name!r}: only a browser that holds it can take it "
            "to another device or add a passkey", name=name))


def _iso(when: dt.datetime) -> str:
    return when.replace(microsecond=0).isoformat() + "Z"


NAME_LINKS = {
    "nameKeys": {"operationId": "nameKeys", "parameters": {"name": "$response.body#/name"}},
    "personProfile": {"operationId": "personProfile", "parameters": {"name": "$response.body#/name"}},
}
"""Where an answer naming a name leads (OpenAPI links): the name's keys and profile."""

CODE_LINKS = {**NAME_LINKS, "takeName": {"operationId": "takeName", "requestBody": {"code": "$response.body#/code"}}}
"""A one-time code leads to spending it (and to the name's keys and profile)."""

HOLDER = (403, 422)
"""A name's holder's operations: a browser that does not hold the name (403), a name nobody can have (422)."""


@router.get("/api/people/{name}/keys", operation_id="nameKeys", summary="Whether this browser holds a name",
            response_model=NameHeld, responses=refusals(*API, *STORE))
async def name_keys(name: str, request: Request, store: StoreDep) -> dict[str, Any]:
    """Whether this browser holds the name (its cookie), and (to the browsers that hold it) how many passkeys it
    has.  A name nobody can have: 422."""
    name = _name(name)
    held = await asyncio.to_thread(store.holds_name, name, name_secret_hash(request, name))
    passkeys = len(await asyncio.to_thread(NameKeys(store).passkeys_of, name)) if held else 0
    return {"name": name, "held": held, "passkeys": passkeys}


# -- one-time codes ------------------------------------------------------------------------


@router.post("/api/people/{name}/codes", status_code=201, operation_id="makeNameCode",
             summary="A one-time code that takes a name to another browser", response_model=NameCode,
             responses={**refusals(*API, *BODY, *STORE, *HOLDER, 429),
                        201: {"description": "The code, its link and its expiry", "links": CODE_LINKS}})
async def make_code(name: str, request: Request, store: StoreDep, guards: GuardsDep, now: NowDep) -> dict[str, Any]:
    """A one-time code (and the link that carries it) that gives the name to the browser that sends it first,
    for ``Limits.name_code_s``; only a browser holding the name asks (else 403), and a name has at most
    ``Limits.name_codes_waiting`` codes waiting (else 429)."""
    name = _name(name)
    await _held(store, request, name)
    limits = guards.limits
    code = new_code()
    expires = now + dt.timedelta(seconds=limits.name_code_s)
    if not await asyncio.to_thread(NameKeys(store).add_code, name, hash_token(code), now, expires, limits.name_codes_waiting):
        raise TableError(ErrorCode.LIMIT, Reason(
            "server.name_codes_waiting", f"the name {name!r} has {limits.name_codes_waiting} codes waiting already; use one of "
            f"them, or wait until they expire ({limits.name_code_s // 60} minutes after they were made)",
            name=name, count=limits.name_codes_waiting, minutes=limits.name_code_s // 60))
    log.info("name.code_made", name=name)
    return {"name": name, "code": code, "url": f"/#take={code}", "expires_at": _iso(expires), "seconds": limits.name_code_s}


@router.post("/api/people/take", operation_id="takeName", summary="Take a name with a one-time code",
             response_model=NameTaken,
             responses={**refusals(*API, *BODY, *STORE, 403, 409), 200: {"description": "The name taken", "links": NAME_LINKS}})
async def take_name(body: TakeName, request: Request, response: Response, store: StoreDep, guards: GuardsDep,
                    config: ConfigDep, address: AddressDep, now: NowDep) -> dict[str, Any]:
    """Spend a one-time code: this browser holds the code's name from now on (a secret of its own in a cookie).
    A code never given, expired, or a page of another site: 403; used already: 409; too many tries from this
    address: 429."""
    same_site(request, config)
    refuse(guards.rates.name_try(address))
    code = read_code(body.code)
    secret = secrets.token_urlsafe(24)
    taken = (await asyncio.to_thread(NameKeys(store).take_code, hash_token(code), hash_token(secret), now)
             if code is not None else TakenCode(CodeTaken.WRONG))
    minutes = guards.limits.name_code_s // 60
    if taken.outcome is CodeTaken.WRONG:
        raise TableError(ErrorCode.FORBIDDEN, Reason(
            "server.name_code_wrong", "this code is not one the server gave: check it, or ask for a new one on the device that "
            "holds the name"))
    if taken.outcome is CodeTaken.EXPIRED:
        raise TableError(ErrorCode.FORBIDDEN, Reason(
            "server.name_code_expired", f"this code has expired (a code lasts {minutes} minutes); ask for a new one on the "
            "device that holds the name", minutes=minutes))
    if taken.outcome is CodeTaken.USED or taken.name is None:
        raise TableError(ErrorCode.CONFLICT, Reason(
            "server.name_code_used", "this code was used already (a code works once); ask for a new one on the device that "
            "holds the name"))
    set_name_cookie(request, response, taken.name, secret)
    log.info("name.taken", name=taken.name, how="code")
    return {"name": taken.name}


# -- passkeys ----------------------------------------------------------------------------------


def relying_party(request: Request, config: ServerConfig) -> tuple[str, list[str]]:
    """The relying party's id and the origins its passkeys may be used from."""
    rp_id = config.passkey_rp_id or (request.url.hostname or "")
    scheme = "https" if is_secure(request) else request.url.scheme
    origins = list(config.passkey_origins) or [f"{scheme}://{request.url.netloc}"]
    return rp_id, origins


def same_site(request: Request, config: ServerConfig) -> None:
    """A browser's request to take a name comes from this site's own pages: another site's page could otherwise
    spend a code of its own and give its visitor the wrong name.  Clients that send no ``Origin`` (not browsers)
    are let in."""
    origin = request.headers.get("origin")
    if origin is not None and origin not in relying_party(request, config)[1]:
        raise TableError(ErrorCode.FORBIDDEN, Reason(
            "server.name_origin", f"names are taken from this site's own pages, not from {origin[:80]}", origin=origin[:80]))


def _expired() -> TableError:
    return TableError(ErrorCode.FORBIDDEN, Reason(
        "server.passkey_expired", "this passkey request has expired or was answered already; try again"))


def _refused(error: Exception) -> TableError:
    return TableError(ErrorCode.FORBIDDEN, Reason(
        "server.passkey_refused", f"the passkey's answer could not be verified ({str(error)[:200]}); try again"))


async def _challenge(store: Store, purpose: str, name: str | None, challenge: bytes, now: dt.datetime, seconds: int) -> str:
    ticket = secrets.token_urlsafe(24)
    await asyncio.to_thread(NameKeys(store).add_challenge, hash_token(ticket), purpose, name, bytes_to_base64url(challenge),
                            now, now + dt.timedelta(seconds=seconds))
    return ticket


@router.post("/api/people/{name}/passkeys/options", operation_id="passkeyOptions", summary="Start making a passkey for a name",
             response_model=PasskeyChallenge, responses=refusals(*API, *BODY, *STORE, *HOLDER, 429))
async def passkey_options(name: str, request: Request, store: StoreDep, config: ConfigDep, guards: GuardsDep,
                          address: AddressDep, now: NowDep) -> dict[str, Any]:
    """What ``navigator.credentials.create`` needs to make a passkey for the name, and the ticket to answer with
    (valid for ``Limits.passkey_challenge_s``).  Only a browser holding the name (else 403); at most
    ``Limits.passkeys_per_name`` passkeys, and the address's tries an hour (else 429)."""
    name = _name(name)
    await _held(store, request, name)
    refuse(guards.rates.name_try(address))
    limits = guards.limits
    existing = await asyncio.to_thread(NameKeys(store).passkeys_of, name)
    if len(existing) >= limits.passkeys_per_name:
        raise _too_many(name, limits.passkeys_per_name)
    rp_id, _ = relying_party(request, config)
    options = generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_name=name, user_display_name=name,
        user_id=bytes.fromhex(name_key(name)),  # one passkey per name on an authenticator: a new one replaces it
        timeout=limits.passkey_challenge_s * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.PREFERRED,
                                                               user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in existing],
    )
    ticket = await _challenge(store, "register", name, options.challenge, now, limits.passkey_challenge_s)
    return {"ticket": ticket, "options": json.loads(options_to_json(options))}


def _too_many(name: str, most: int) -> TableError:
    return TableError(ErrorCode.LIMIT, Reason(
        "server.passkeys_many", f"the name {name!r} has {most} passkeys already", name=name, count=most))


@router.post("/api/people/{name}/passkeys", status_code=201, operation_id="registerPasskey", summary="Keep a new passkey for a name",
             response_model=PasskeyCount,
             responses={**refusals(*API, *BODY, *STORE, *HOLDER, 409, 429),
                        201: {"description": "The name's passkeys now", "links": NAME_LINKS}})
async def passkey_register(name: str, body: PasskeyAnswer, request: Request, store: StoreDep, config: ConfigDep,
                           guards: GuardsDep, now: NowDep) -> dict[str, Any]:
    """Verify the browser's new passkey (its challenge, origin and relying party) and keep it for the name.  Not
    the holder, a ticket expired or used, an answer that cannot be verified: 403; a passkey kept already: 409;
    too many passkeys: 429."""
    name = _name(name)
    await _held(store, request, name)
    keys = NameKeys(store)
    taken = await asyncio.to_thread(keys.take_challenge, hash_token(body.ticket), "register", now)
    if taken is None or taken[0] != name:
        raise _expired()
    rp_id, origins = relying_party(request, config)
    try:
        verified = await asyncio.to_thread(
            verify_registration_response, credential=body.credential, expected_challenge=base64url_to_bytes(taken[1]),
            expected_rp_id=rp_id, expected_origin=origins)
    except _UNREADABLE as error:
        raise _refused(error) from None
    passkey = StoredPasskey(bytes_to_base64url(verified.credential_id), name, verified.credential_public_key, verified.sign_count)
    most = guards.limits.passkeys_per_name
    if not await asyncio.to_thread(keys.add_passkey, passkey, now, most):
        if len(await asyncio.to_thread(keys.passkeys_of, name)) >= most:
            raise _too_many(name, most)
        raise TableError(ErrorCode.CONFLICT, Reason("server.passkey_known", "this passkey is registered already"))
    log.info("name.passkey_added", name=name)
    return {"name": name, "passkeys": len(await asyncio.to_thread(keys.passkeys_of, name))}


@router.post("/api/passkeys/options", operation_id="signInOptions", summary="Start signing in with a passkey",
             response_model=PasskeyChallenge, responses=refusals(*API, *BODY, *STORE, 429))
async def sign_in_options(body: PasskeyStart, request: Request, store: StoreDep, config: ConfigDep, guards: GuardsDep,
                          address: AddressDep, now: NowDep) -> dict[str, Any]:
    """What ``navigator.credentials.get`` needs to sign in with a passkey (the name's, or any this site knows),
    and the ticket to answer with.  Too many tries from this address: 429."""
    refuse(guards.rates.name_try(address))
    allowed = await asyncio.to_thread(NameKeys(store).passkeys_of, body.name) if body.name else []
    rp_id, _ = relying_party(request, config)
    seconds = guards.limits.passkey_challenge_s
    options = generate_authentication_options(
        rp_id=rp_id, timeout=seconds * 1000, user_verification=UserVerificationRequirement.PREFERRED,
        allow_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in allowed] or None)
    ticket = await _challenge(store, "sign_in", None, options.challenge, now, seconds)
    return {"ticket": ticket, "options": json.loads(options_to_json(options))}


@router.post("/api/passkeys/sign-in", operation_id="signInPasskey", summary="Sign in with a passkey",
             response_model=NameTaken,
             responses={**refusals(*API, *BODY, *STORE, 403), 200: {"description": "The name signed in", "links": NAME_LINKS}})
async def sign_in(body: PasskeyAnswer, request: Request, response: Response, store: StoreDep, config: ConfigDep,
                  now: NowDep) -> dict[str, Any]:
    """Verify a passkey's answer: this browser holds the passkey's name from now on (a secret of its own).  A
    ticket expired or used, a passkey unknown, an answer that cannot be verified, a page of another site: 403."""
    same_site(request, config)
    keys = NameKeys(store)
    taken = await asyncio.to_thread(keys.take_challenge, hash_token(body.ticket), "sign_in", now)
    if taken is None:
        raise _expired()
    credential_id = body.credential.get("id")
    passkey = await asyncio.to_thread(keys.passkey, credential_id) if isinstance(credential_id, str) else None
    if passkey is None:
        raise TableError(ErrorCode.FORBIDDEN, Reason(
            "server.passkey_unknown", "this passkey is not one of this site's names (it may have been removed, or made "
            "for another site)"))
    rp_id, origins = relying_party(request, config)
    try:
        verified = await asyncio.to_thread(
            verify_authentication_response, credential=body.credential, expected_challenge=base64url_to_bytes(taken[1]),
            expected_rp_id=rp_id, expected_origin=origins, credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count)
    except _UNREADABLE as error:
        raise _refused(error) from None
    secret = secrets.token_urlsafe(24)
    if not await asyncio.to_thread(keys.signed_in, passkey, verified.new_sign_count, hash_token(secret), now):
        raise _refused(ValueError("the passkey was used again meanwhile"))
    set_name_cookie(request, response, passkey.name, secret)
    log.info("name.taken", name=passkey.name, how="passkey")
    return {"name": passkey.name}
