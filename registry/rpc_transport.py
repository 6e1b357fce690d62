"""How RPC endpoints are reached: which addresses, how much of an answer, no redirects.

Every RPC URL is a stranger's server as far as this process goes (a provider, or a URL an
administrator pasted): it must not make us call into our own network, nor hold us with an
endless or enormous answer. The rules, for the probes (aiohttp, websockets) and the chain
client (requests, under web3):

- Link-local addresses (169.254.0.0/16, fe80::/10: where cloud metadata services answer),
  the other known metadata addresses, unspecified and multicast ones are always refused.
  An IPv6 address that embeds an IPv4 one (IPv4-mapped, NAT64, 6to4, IPv4-compatible) is
  judged as the IPv4 address it reaches.
  Loopback and private ranges (self-hosted nodes) are allowed unless RPC_ALLOW_PRIVATE is
  false. Checked when a URL is saved (literal addresses and well-known names, no DNS) and at
  every connection on the address actually connected to (a public-looking name may resolve
  to a refused address, or start to later).
- An answer longer than RPC_RESPONSE_MAX_BYTES is refused: read no further than that.
- A redirect is refused, never followed. Environment proxies are not used.

Refusals raise `RpcRefusal` subclasses, whose `category` is the short, fixed text shown as
an endpoint's last error (never the server's own words, which could carry markup or keys).
"""

import asyncio
import ipaddress
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import aiohttp
import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

CHUNK_BYTES = 64 * 1024

# Metadata services outside the link-local ranges: AWS over IPv6, Alibaba Cloud.
_METADATA_NETWORKS = [ipaddress.ip_network("fd00:ec2::254/128"),
                      ipaddress.ip_network("100.100.100.200/32")]
_METADATA_NAMES = {"metadata", "metadata.google.internal", "metadata.goog", "instance-data",
                   "instance-data.ec2.internal"}


class RpcRefusal(Exception):
    """An RPC endpoint, or its answer, that we refuse; `category` is safe to show."""

    category = "refused"

    def __init__(self, detail: str = ""):
        super().__init__(f"{self.category}{f' ({detail})' if detail else ''}")


class AddressRefused(RpcRefusal):
    category = "address refused"


class RedirectRefused(RpcRefusal):
    category = "redirect refused"


class ResponseTooLarge(RpcRefusal):
    category = "response too large"


# The setting that allows loopback and private addresses: RPC_ALLOW_PRIVATE for RPC
# endpoints; webhooks reuse these rules with WEBHOOKS_ALLOW_PRIVATE.
RPC = "RPC_ALLOW_PRIVATE"


# IPv6 prefixes that carry an IPv4 address in their last 32 bits: NAT64's well-known prefix
# (RFC 6052) and the deprecated IPv4-compatible addresses (::a.b.c.d). Local-use NAT64
# (RFC 8215) is private whatever it embeds (Python 3.11 counts it global).
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")


def _judged(ip):
    """The address the rules judge: the IPv4 address an IPv6 one embeds (IPv4-mapped, NAT64,
    6to4, IPv4-compatible) reaches that IPv4 host, so it is judged as that host."""
    if ip.version == 4:
        return ip
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64 or (ip in _IPV4_COMPATIBLE and int(ip) > 1):  # not :: nor ::1
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip


def _ip(address: str):
    return _judged(ipaddress.ip_address(address.partition("%")[0]))  # without an IPv6 zone


def is_public(address: str) -> bool:
    """Whether IP `address` is public: not loopback, private or otherwise reserved."""
    ip = _ip(address)
    return ip.is_global and ip not in _LOCAL_NAT64


def address_refusal(address: str, private_setting: str = RPC) -> str | None:
    """Why connecting to IP `address` is refused, or None when it is allowed."""
    ip = _ip(address)
    if (ip.is_link_local or ip.is_unspecified or ip.is_multicast
            or any(ip in network for network in _METADATA_NETWORKS)):
        return "link-local or metadata address"
    if not getattr(settings, private_setting) and not is_public(address):
        return f"private address, and {private_setting} is false"
    return None


def check_address(address: str, private_setting: str = RPC) -> None:
    reason = address_refusal(address, private_setting)
    if reason is not None:
        raise AddressRefused(reason)


def host_refusal(host: str, private_setting: str = RPC) -> str | None:
    """Why an RPC URL with this host cannot be saved, or None. No DNS lookup (a name may
    not resolve yet, or resolve elsewhere later: connections are checked again); literal
    addresses in every spelling the resolver takes (2852039166 is 169.254.169.254)."""
    host = host.strip("[]").rstrip(".").lower()
    if host in _METADATA_NAMES:
        return "a cloud metadata service"
    if host == "localhost" or host.endswith(".localhost"):
        return (None if getattr(settings, private_setting)
                else address_refusal("127.0.0.1", private_setting))
    try:
        infos = socket.getaddrinfo(host, None, flags=socket.AI_NUMERICHOST)
    except (socket.gaierror, UnicodeError, ValueError):
        return None  # a name: checked when connecting
    return next(filter(None, (address_refusal(info[4][0], private_setting) for info in infos)),
                None)


# --- requests (the chain client, under web3) --------------------------------------------------


class _CheckedPeer:
    """Checks the addresses of the host before connecting, and the address the connection
    reached before a byte is sent on it (the name may resolve elsewhere the second time)."""

    def _new_conn(self):
        for info in socket.getaddrinfo(self.host, self.port, type=socket.SOCK_STREAM):
            check_address(info[4][0])
        sock = super()._new_conn()
        try:
            check_address(sock.getpeername()[0])
        except RpcRefusal:
            sock.close()
            raise
        return sock


class _CheckedHTTPConnection(_CheckedPeer, HTTPConnection):
    pass


class _CheckedHTTPSConnection(_CheckedPeer, HTTPSConnection):
    pass


class _CheckedHTTPConnectionPool(HTTPConnectionPool):
    ConnectionCls = _CheckedHTTPConnection


class _CheckedHTTPSConnectionPool(HTTPSConnectionPool):
    ConnectionCls = _CheckedHTTPSConnection


class RpcAdapter(HTTPAdapter):
    """requests' adapter with the rules above: checked peers, no redirect, a body capped at
    RPC_RESPONSE_MAX_BYTES read within the timeout (a server dripping a byte a second gets
    no longer)."""

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _CheckedHTTPConnectionPool,
                                                   "https": _CheckedHTTPSConnectionPool}

    def send(self, request, stream=False, timeout=None, **kwargs):
        response = super().send(request, stream=True, timeout=timeout, **kwargs)
        try:
            if 300 <= response.status_code < 400:
                raise RedirectRefused()
            read_timeout = timeout[1] if isinstance(timeout, tuple) else timeout
            response._content = _read_capped(response, read_timeout,
                                             settings.RPC_RESPONSE_MAX_BYTES)
        except BaseException:
            response.close()
            raise
        return response


def _read_capped(response: requests.Response, seconds: float | None, limit: int) -> bytes:
    if _declared_length(response.headers.get("Content-Length")) > limit:
        raise ResponseTooLarge()
    deadline = None if seconds is None else time.monotonic() + seconds
    body = bytearray()
    for chunk in response.iter_content(CHUNK_BYTES):
        body += chunk
        if len(body) > limit:
            raise ResponseTooLarge()
        if deadline is not None and time.monotonic() > deadline:
            raise requests.Timeout("the answer took too long")
    return bytes(body)


def _declared_length(value: str | None) -> int:
    try:
        return int(value) if value else 0
    except ValueError:
        return 0


def rpc_session() -> requests.Session:
    """A requests session under the rules above."""
    session = requests.Session()
    session.trust_env = False  # no environment proxy: the peer checked is the server
    session.max_redirects = 0
    adapter = RpcAdapter(max_retries=0)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def checked_socket(host: str, port: int, timeout: float) -> socket.socket:
    """A TCP connection to `host` whose every address, and the peer reached, pass the rules
    (for a client that takes a connected socket: the head follower's websockets)."""
    for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        check_address(info[4][0])
    sock = socket.create_connection((host, port), timeout=timeout)
    try:
        check_address(sock.getpeername()[0])
    except RpcRefusal:
        sock.close()
        raise
    return sock


# --- aiohttp and websockets (the probes) ------------------------------------------------------


class CheckedResolver(aiohttp.ThreadedResolver):
    """Resolves as usual, then refuses a name with any refused address: aiohttp connects
    only to the addresses its resolver gave. `private_setting`: as for check_address."""

    def __init__(self, *args, private_setting: str = RPC, lookup=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.private_setting = private_setting
        self.lookup = lookup  # host -> its IP addresses, instead of the system's resolver

    async def resolve(self, host, port=0, family=socket.AF_INET):
        if self.lookup is None:
            found = await super().resolve(host, port, family)
        else:
            found = await self._looked_up(host, port)
        for entry in found:
            check_address(entry["host"], self.private_setting)
        return found

    async def _looked_up(self, host, port) -> list[dict]:
        addresses = await asyncio.get_running_loop().run_in_executor(None, self.lookup, host)
        if not addresses:
            raise OSError(f"{host} does not resolve")
        return [{"hostname": host, "host": address, "port": port,
                 "family": socket.AF_INET6 if ":" in address else socket.AF_INET,
                 "proto": 0, "flags": socket.AI_NUMERICHOST} for address in addresses]


def check_literal_host(host: str | None, private_setting: str = RPC) -> None:
    """aiohttp does not ask its resolver about a literal address: checked here."""
    try:
        address = ipaddress.ip_address((host or "").strip("[]").partition("%")[0])
    except ValueError:
        return
    check_address(str(address), private_setting)


async def resolve_checked(host: str, port: int) -> str:
    """One checked address of `host`, to connect to that address and no other."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    for info in infos:
        check_address(info[4][0])
    return infos[0][4][0]


async def read_capped(response: aiohttp.ClientResponse, limit: int | None = None) -> bytes:
    """The answer's body, refused past `limit` bytes: RPC_RESPONSE_MAX_BYTES by default,
    refused with the category alone (an endpoint's last error is fixed text); a caller's own
    limit is named in the refusal."""
    named = limit is not None
    limit = limit if named else settings.RPC_RESPONSE_MAX_BYTES
    if (response.content_length or 0) > limit:
        raise ResponseTooLarge(f"{response.content_length} bytes declared" if named else "")
    body = bytearray()
    async for chunk in response.content.iter_chunked(CHUNK_BYTES):
        body += chunk
        if len(body) > limit:
            raise ResponseTooLarge(f"more than {limit} bytes" if named else "")
    return bytes(body)


# --- a stranger's document (issuers' did:web) -------------------------------------------------


class FetchFailed(RpcRefusal):
    category = "connection failed"


class FetchTimedOut(RpcRefusal):
    category = "timed out"


class CertificateRefused(RpcRefusal):
    category = "TLS certificate not trusted"


def fetch_document(url: str, *, private_setting: str, max_bytes: int, seconds: float,
                   ssl_context, lookup=None) -> tuple[int, bytes]:
    """GET `url` under the rules above (addresses judged under `private_setting`, no
    redirect, no environment proxy), the whole exchange within `seconds` and the answer cut
    at `max_bytes`: (status, body). Every failure is an RpcRefusal whose text is ours.
    `lookup`: host -> IP addresses, when names are not the system resolver's to answer."""
    def fetch():
        return asyncio.run(asyncio.wait_for(
            _fetch(url, private_setting, max_bytes, ssl_context, lookup), seconds))

    try:
        if not _loop_running():
            return fetch()
        with ThreadPoolExecutor(1) as pool:  # a caller inside an event loop: a thread's own
            return pool.submit(fetch).result()
    except TimeoutError:
        raise FetchTimedOut(f"after {seconds:g} s") from None
    except aiohttp.ClientConnectorCertificateError:
        raise CertificateRefused() from None
    except aiohttp.ClientConnectorDNSError:
        raise FetchFailed("the name does not resolve") from None
    except aiohttp.ClientConnectorError as exc:
        if "does not resolve" in str(exc.os_error):
            raise FetchFailed("the name does not resolve") from None
        raise FetchFailed(type(exc).__name__) from None
    except (aiohttp.ClientError, OSError) as exc:
        raise FetchFailed(type(exc).__name__) from None


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


async def _fetch(url: str, private_setting: str, max_bytes: int, ssl_context, lookup):
    check_literal_host(urlsplit(url).hostname, private_setting)  # names: the resolver
    resolver = CheckedResolver(private_setting=private_setting, lookup=lookup)
    connector = aiohttp.TCPConnector(resolver=resolver, ssl=ssl_context)
    async with aiohttp.ClientSession(connector=connector, trust_env=False) as session:
        async with session.get(url, allow_redirects=False) as response:
            if 300 <= response.status < 400:
                raise RedirectRefused(f"to {response.headers.get('Location', '?')[:200]}")
            return response.status, await read_capped(response, max_bytes)
