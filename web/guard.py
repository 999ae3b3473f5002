"""Who may ask the server anything: the checks every request passes before its address
is looked at.

- **The Host header** must name the server as it was started: a page of another site
  can make its own name point at 127.0.0.1 (DNS rebinding) and then read and send
  anything as if it were the server's own page; its requests then carry its own name as
  Host, which is refused here (400).  A server on a loopback address answers to
  127.0.0.1, localhost and [::1]; one on another address to that address; one on every
  address (0.0.0.0, ::) to an address written as numbers, localhost and this computer's
  own names, since a rebinding page can only send a name it owns.
- **A request that changes anything** (every method but GET, HEAD and OPTIONS: opening a
  table, a move, an undo, a seat taken, a scenario saved) is refused (403) when it says it
  comes from a page of another origin: its `Origin` header, or without one its `Referer`,
  names another host or port than the request's own Host.  A browser always says where a
  POST comes from; a client that says nothing (curl, a test) is no other site's page.
"""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from starlette.requests import Request

from .tables import Refused

LOOPBACK = ("127.0.0.1", "localhost", "::1")
EVERY_ADDRESS = ("0.0.0.0", "::", "")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


class Addresses:
    """The names a server answers to, and its port (None: any, for a server in a test
    process whose port the application is not told)."""

    def __init__(self, names, port: int | None = None, any_number: bool = False):
        self.names = {name.lower().strip("[]") for name in names}
        self.port = port
        self.any_number = any_number  # an address written as numbers (no name to rebind)

    @classmethod
    def listening(cls, host: str, port: int | None = None) -> "Addresses":
        """What a server bound to `host` (as `meeple serve --host` takes it) answers to."""
        host = host.lower().strip("[]")
        if host in EVERY_ADDRESS:
            own = {socket.gethostname(), socket.getfqdn()}
            return cls(set(LOOPBACK) | own | {f"{name}.local" for name in own}, port, any_number=True)
        if _is_loopback(host):
            return cls(set(LOOPBACK) | {host}, port)
        return cls({host}, port)

    def accepts(self, host_header: str | None) -> bool:
        where = _host_and_port(host_header or "", "http")
        if where is None:
            return False
        name, port = where
        if self.port is not None and port not in (self.port, None):
            return False
        return name in self.names or (self.any_number and _is_number(name))


class Guard:
    """ASGI middleware: every HTTP request passes `Addresses` and the origin check, or is
    answered by `refuse(request, Refused)` without reaching the application."""

    def __init__(self, app, addresses: Addresses, refuse):
        self.app, self.addresses, self.refuse = app, addresses, refuse

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            request = Request(scope)
            problem = self.problem(request)
            if problem is not None:
                response = await self.refuse(request, problem)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def problem(self, request: Request) -> Refused | None:
        host = request.headers.get("host")
        if not self.addresses.accepts(host):
            return Refused(400, "W400", "this server does not answer to the name this request was sent to; "
                           "open it at the address `meeple serve` printed")
        if request.method not in SAFE_METHODS and _from_elsewhere(request, host):
            return Refused(403, "W403", "a request from another site's page is refused")
        return None


def _from_elsewhere(request: Request, host: str) -> bool:
    said = request.headers.get("origin") or request.headers.get("referer")
    if said is None:
        return False
    parts = urlsplit(said)
    try:
        port = parts.port
    except ValueError:
        return True
    if said == "null" or parts.hostname is None:  # a sandboxed frame, a file:// page
        return True
    theirs = (parts.hostname.lower(), port or DEFAULT_PORTS.get(parts.scheme.lower()))
    name, own_port = _host_and_port(host, request.url.scheme)
    return theirs != (name, own_port or DEFAULT_PORTS.get(request.url.scheme))


def _host_and_port(host: str, scheme: str) -> tuple[str, int | None] | None:
    """('name', port or None) of a Host header; None when it is not one."""
    if not host or any(c in host for c in "/?#@ \\"):
        return None
    parts = urlsplit(f"{scheme}://{host}")
    try:
        port = parts.port
    except ValueError:
        return None
    return (parts.hostname or "").lower(), port


def _is_number(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
