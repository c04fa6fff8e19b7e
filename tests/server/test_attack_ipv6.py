"""Attack: one IPv6 client sending from as many addresses as it likes.

Found by reading the bounds: every per-address bound (connections, API requests, tables, names, sockets,
their messages) counted a client by its whole address, and an IPv6 home or phone is given a /64 network,
2^64 addresses it may send from (a privacy address per connection is ordinary).  Each bound was as many times
wider as addresses the client cared to use.  Now an IPv6 client is counted by its /64 network
(``limits.client_key``), and an IPv4 address written as IPv6 as that IPv4 address.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.testclient import TestClient

from nines.server import ServerConfig, create_app
from nines.server.guard.limits import Limits, client_key


def _client_from_header(app: Any) -> Callable[..., Any]:
    """The application, seeing each request come from the address its ``x-client`` header names."""

    async def seen_from(scope: dict[str, Any], receive: Any, send: Any) -> None:
        named = dict(scope.get("headers") or []).get(b"x-client")
        if named is not None:
            scope = {**scope, "client": (named.decode(), 50000)}
        await app(scope, receive, send)

    return seen_from


def test_an_ipv6_client_is_counted_by_its_network_not_by_each_address(database_url: str) -> None:
    config = ServerConfig(database_url=database_url, log_json=False, review_processes=False, thinking_processes=False,
                          limits=Limits(requests_per_minute=3))
    with TestClient(_client_from_header(create_app(config))) as client:
        def games(address: str) -> int:
            return client.get("/api/games", headers={"x-client": address}).status_code

        assert [games(a) for a in ("2001:db8:0:1::1", "2001:db8:0:1::2", "2001:db8:0:1:ffff:ffff:ffff:fffe")] == [200] * 3
        assert games("2001:db8:0:1:1234::77") == 429  # another address of the same /64: the same client
        assert games("2001:db8:0:2::1") == 200  # another network
        assert [games("::ffff:192.0.2.1") for _ in range(3)] == [200] * 3
        assert games("192.0.2.1") == 429  # the same IPv4 address, written either way


def test_what_the_bounds_count_a_client_by() -> None:
    assert client_key("2001:db8:0:1::1") == client_key("2001:db8:0:1:abcd::9") == "2001:db8:0:1::/64"
    assert client_key("2001:db8:0:1::1") != client_key("2001:db8:0:2::1")
    assert client_key("::ffff:192.0.2.1") == client_key("192.0.2.1") == "192.0.2.1"
    assert client_key("192.0.2.1") != client_key("192.0.2.2")
    assert client_key("fe80::1%eth0") == "fe80::/64"
    assert client_key("testclient") == "testclient"  # not an address: counted as it is
