"""Passkeys for names, through the API, with a software authenticator (an ES256 key made here, answers built as
a browser's ``navigator.credentials`` would send them): a passkey registered by a browser holding the name signs a
browser that lost the cookie back in; each challenge answers once and expires; a wrong origin, a replayed answer,
an unknown passkey and garbage are refused with their keys.  (The browser's own side: tests/web/test_names_in_the_browser.py.)"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from starlette.testclient import TestClient

from .helpers import another_browser
from .test_names import Clock
from .test_refusal_words import sayable

ORIGIN = "http://testserver"  # the test client's requests go to this host
RP_ID = "testserver"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    """One passkey on a pretend security key: P-256, no attestation, a counter that goes up."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.count = 0

    def _cose(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def _client_data(self, kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str = ORIGIN, rp_id: str | None = None) -> dict[str, Any]:
        rp = rp_id or options["rp"]["id"]
        auth_data = (hashlib.sha256(rp.encode()).digest() + bytes([0x45]) + struct.pack(">I", self.count) + bytes(16)
                     + struct.pack(">H", len(self.credential_id)) + self.credential_id + self._cose())
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "attestationObject": b64(attestation)}}

    def get(self, options: dict[str, Any], origin: str = ORIGIN) -> dict[str, Any]:
        self.count += 1
        auth_data = hashlib.sha256(options["rpId"].encode()).digest() + bytes([0x05]) + struct.pack(">I", self.count)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
                             "signature": b64(signature), "userHandle": None}}


@pytest.fixture
def clock(client: TestClient) -> Clock:
    made = Clock()
    client.app.state.clock = made  # type: ignore[attr-defined]
    return made


def register(browser: TestClient, name: str, key: SoftAuthenticator) -> dict[str, Any]:
    started = browser.post(f"/api/people/{name}/passkeys/options")
    assert started.status_code == 200, started.text
    body = started.json()
    answered = browser.post(f"/api/people/{name}/passkeys", json={"ticket": body["ticket"], "credential": key.create(body["options"])})
    assert answered.status_code == 201, answered.text
    result: dict[str, Any] = answered.json()
    return result


def sign_in_options(browser: TestClient, name: str | None = None) -> dict[str, Any]:
    started = browser.post("/api/passkeys/options", json={"name": name} if name else {})
    assert started.status_code == 200, started.text
    body: dict[str, Any] = started.json()
    return body


@pytest.mark.databases
def test_a_passkey_brings_the_name_back_to_a_browser_that_lost_it(client: TestClient, clock: Clock) -> None:
    assert client.post("/api/people", json={"name": "Ann"}).status_code == 200
    key = SoftAuthenticator()
    options = client.post("/api/people/Ann/passkeys/options").json()["options"]
    assert options["rp"] == {"id": RP_ID, "name": "Nines"} and options["user"]["name"] == "Ann"
    assert register(client, "Ann", key) == {"name": "Ann", "passkeys": 1}
    assert client.get("/api/people/Ann/keys").json() == {"name": "Ann", "held": True, "passkeys": 1}

    fresh = another_browser(client)  # the cookie is lost: a new phone, cleared data
    assert fresh.post("/api/people", json={"name": "Ann"}).status_code == 409
    started = sign_in_options(fresh)
    assert started["options"]["rpId"] == RP_ID and started["options"].get("allowCredentials", []) == []
    signed = fresh.post("/api/passkeys/sign-in", json={"ticket": started["ticket"], "credential": key.get(started["options"])})
    assert signed.status_code == 200, signed.text
    assert signed.json() == {"name": "Ann"}
    assert fresh.post("/api/people", json={"name": "Ann"}).status_code == 200
    assert client.post("/api/people", json={"name": "Ann"}).status_code == 200  # the first browser keeps it too

    # asked by name, the options list the name's passkeys
    named = sign_in_options(another_browser(client), "Ann")
    assert [c["id"] for c in named["options"]["allowCredentials"]] == [b64(key.credential_id)]


def test_a_challenge_answers_once_and_expires(client: TestClient, clock: Clock) -> None:
    client.post("/api/people", json={"name": "Ann"})
    key = SoftAuthenticator()
    register(client, "Ann", key)
    fresh = another_browser(client)
    started = sign_in_options(fresh)
    answer = key.get(started["options"])
    assert fresh.post("/api/passkeys/sign-in", json={"ticket": started["ticket"], "credential": answer}).status_code == 200
    replayed = another_browser(client).post("/api/passkeys/sign-in", json={"ticket": started["ticket"], "credential": answer})
    assert replayed.status_code == 403
    sayable(replayed.json(), "server.passkey_expired")

    late = sign_in_options(fresh)
    clock.advance(seconds=300)
    expired = fresh.post("/api/passkeys/sign-in", json={"ticket": late["ticket"], "credential": key.get(late["options"])})
    assert expired.status_code == 403
    sayable(expired.json(), "server.passkey_expired")

    # a registration's ticket does not sign in, nor the other way round
    reg = client.post("/api/people/Ann/passkeys/options").json()
    assert fresh.post("/api/passkeys/sign-in", json={"ticket": reg["ticket"], "credential": key.get({"rpId": RP_ID, "challenge": reg["options"]["challenge"]})}).status_code == 403


def test_wrong_origins_unknown_passkeys_and_garbage_are_refused(client: TestClient, clock: Clock) -> None:
    client.post("/api/people", json={"name": "Ann"})
    key = SoftAuthenticator()
    started = client.post("/api/people/Ann/passkeys/options").json()
    phished = client.post("/api/people/Ann/passkeys", json={"ticket": started["ticket"],
                                                             "credential": key.create(started["options"], origin="http://evil.example")})
    assert phished.status_code == 403
    sayable(phished.json(), "server.passkey_refused")
    assert "origin" in phished.json()["message"].lower()
    started = client.post("/api/people/Ann/passkeys/options").json()
    other_site = client.post("/api/people/Ann/passkeys", json={"ticket": started["ticket"],
                                                                "credential": key.create(started["options"], rp_id="evil.example")})
    assert other_site.status_code == 403
    register(client, "Ann", key)

    fresh = another_browser(client)
    stranger = SoftAuthenticator()
    started = sign_in_options(fresh)
    unknown = fresh.post("/api/passkeys/sign-in", json={"ticket": started["ticket"], "credential": stranger.get(started["options"])})
    assert unknown.status_code == 403
    sayable(unknown.json(), "server.passkey_unknown")
    started = sign_in_options(fresh)
    forged = key.get(started["options"], origin="http://evil.example")
    assert fresh.post("/api/passkeys/sign-in", json={"ticket": started["ticket"], "credential": forged}).json()["key"] == "server.passkey_refused"
    for garbage in ({}, {"id": b64(key.credential_id)}, {"id": b64(key.credential_id), "response": {"clientDataJSON": "!!"}}):
        started = sign_in_options(fresh)
        refused = fresh.post("/api/passkeys/sign-in", json={"ticket": started["ticket"], "credential": garbage})
        assert refused.status_code == 403, refused.text
    assert fresh.post("/api/people", json={"name": "Ann"}).status_code == 409

    # only a browser holding the name registers a passkey for it
    not_held = fresh.post("/api/people/Ann/passkeys/options")
    assert not_held.status_code == 403
    sayable(not_held.json(), "server.name_not_held")


def test_a_signature_count_that_goes_back_is_refused(client: TestClient, clock: Clock) -> None:
    client.post("/api/people", json={"name": "Ann"})
    key = SoftAuthenticator()
    register(client, "Ann", key)
    fresh = another_browser(client)
    started = sign_in_options(fresh)
    assert fresh.post("/api/passkeys/sign-in", json={"ticket": started["ticket"], "credential": key.get(started["options"])}).status_code == 200
    key.count = 0  # a cloned authenticator answers with a count already seen
    started = sign_in_options(fresh)
    cloned = fresh.post("/api/passkeys/sign-in", json={"ticket": started["ticket"], "credential": key.get(started["options"])})
    assert cloned.status_code == 403
    sayable(cloned.json(), "server.passkey_refused")


def test_a_name_has_a_bounded_number_of_passkeys(make_client: Any) -> None:
    from nines.server.guard.limits import Limits

    with make_client(limits=Limits(requests_per_minute=0, passkeys_per_name=2)) as client:
        client.app.state.clock = Clock()
        client.post("/api/people", json={"name": "Ann"})
        register(client, "Ann", SoftAuthenticator())
        register(client, "Ann", SoftAuthenticator())
        refused = client.post("/api/people/Ann/passkeys/options")
        assert refused.status_code == 429
        sayable(refused.json(), "server.passkeys_many")


def test_the_relying_party_may_be_set(make_client: Any) -> None:
    with make_client(passkey_rp_id="cards.example", passkey_origins=("https://cards.example",)) as client:
        client.app.state.clock = Clock()
        client.post("/api/people", json={"name": "Ann"})
        started = client.post("/api/people/Ann/passkeys/options").json()
        assert started["options"]["rp"]["id"] == "cards.example"
        key = SoftAuthenticator()
        # the request came to testserver, but the page was cards.example's: that origin is the one allowed
        answered = client.post("/api/people/Ann/passkeys", json={"ticket": started["ticket"],
                                                                  "credential": key.create(started["options"], origin="https://cards.example")})
        assert answered.status_code == 201, answered.text
