"""Real servers for the identity proofs: a DNS server (dnslib) and an HTTPS server with a
test certificate authority (trustme), each a process of its own started here and stopped by
its pid. `identity` points the service at them and gives the test their controls."""

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme

from tests.anvil import free_port

HERE = Path(__file__).resolve().parent
DID_WEB_DOMAIN = "localhost"  # the HTTPS server's certificate name, and what reaches it


def _start(args: list[str]) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, text=True)
    if process.stdout.readline().strip() != "ready":
        process.kill()
        raise RuntimeError(f"{args[0]} did not start")
    return process


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def dns_server(tmp_path_factory):
    zone = tmp_path_factory.mktemp("dns") / "zone.json"
    zone.write_text("{}")
    port = free_port()
    process = _start([str(HERE / "dns_server.py"), str(port), str(zone)])
    yield port, zone
    _stop(process)


@pytest.fixture(scope="session")
def https_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("https")
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    ca.issue_cert(DID_WEB_DOMAIN, "127.0.0.1").private_key_and_cert_chain_pem.write_to_path(
        str(folder / "server.pem"))
    root = folder / "root"
    root.mkdir()
    port = free_port()
    process = _start([str(HERE / "https_server.py"), str(port), str(folder / "server.pem"),
                      str(root)])
    yield port, folder / "ca.pem", root
    _stop(process)


@dataclass
class Identity:
    zone_path: Path
    root: Path
    zone: dict

    def txt(self, domain: str, *records: str) -> None:
        """Serve these TXT records on `domain` (none: the name exists, without TXT)."""
        self.zone["records"].setdefault(domain, {})["TXT"] = list(records)
        self._write()

    def slow(self, domain: str) -> None:
        self.zone["slow"].append(domain)
        self._write()

    def authenticated(self, ad: bool = True) -> None:
        self.zone["ad"] = ad
        self._write()

    def did_document(self, document: dict | bytes | None) -> None:
        path = self.root / "did.json"
        if document is None:
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(document if isinstance(document, bytes)
                             else json.dumps(document).encode())

    def redirect(self, location: str | None) -> None:
        path = self.root / "redirect"
        path.unlink(missing_ok=True) if location is None else path.write_text(location)

    def _write(self) -> None:
        self.zone_path.write_text(json.dumps(self.zone))


@pytest.fixture
def identity(dns_server, https_server, settings):
    dns_port, zone_path = dns_server
    https_port, ca, root = https_server
    settings.IDENTITY_DNS_RESOLVERS = [("127.0.0.1", dns_port)]
    settings.IDENTITY_DNS_TIMEOUT_SECONDS = 1
    settings.IDENTITY_ALLOW_PRIVATE = True
    settings.IDENTITY_HTTPS_PORT = https_port
    settings.IDENTITY_HTTPS_CA_BUNDLE = str(ca)
    settings.IDENTITY_DID_WEB_TIMEOUT_SECONDS = 3
    # The HTTPS server's name, served by the DNS server too: the service resolves names with
    # IDENTITY_DNS_RESOLVERS, and nothing leaves 127.0.0.1.
    found = Identity(zone_path, root, {"records": {DID_WEB_DOMAIN: {"A": ["127.0.0.1"]}},
                                       "slow": [], "ad": False})
    found._write()
    found.did_document(None)
    found.redirect(None)
    return found


def did_document(domain: str, *accounts: str) -> dict:
    return {
        "@context": ["https://www.w3.org/ns/did/v1"],
        "id": f"did:web:{domain}",
        "verificationMethod": [
            {"id": f"did:web:{domain}#key-{n}", "type": "EcdsaSecp256k1RecoveryMethod2020",
             "controller": f"did:web:{domain}", "blockchainAccountId": account}
            for n, account in enumerate(accounts)],
    }
