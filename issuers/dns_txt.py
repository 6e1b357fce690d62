"""The DNS TXT records of an issuer's domain, read with dnspython.

The resolvers are IDENTITY_DNS_RESOLVERS (the system's when empty); the lookup ends after
IDENTITY_DNS_TIMEOUT_SECONDS. The query asks for DNSSEC (the DO and AD bits): a validating
resolver answers with the AD flag set when it authenticated the answer, which is reported
as is (we do not validate signatures ourselves; a resolver that does not validate never
sets it).
"""

from dataclasses import dataclass

import dns.exception
import dns.flags
import dns.nameserver
import dns.rdatatype
import dns.resolver
from django.conf import settings


@dataclass(frozen=True)
class TxtAnswer:
    records: list[str]
    dnssec: bool | None  # the AD flag of the answer; None when there was no answer
    error: str = ""  # why there are no records, when the lookup failed


def _resolver() -> dns.resolver.Resolver:
    servers = settings.IDENTITY_DNS_RESOLVERS
    resolver = dns.resolver.Resolver(configure=not servers)
    if servers:
        resolver.nameservers = [dns.nameserver.Do53Nameserver(host, port)
                                for host, port in servers]
    resolver.cache = None  # a proof that disappears must be seen at the next check
    resolver.timeout = resolver.lifetime = settings.IDENTITY_DNS_TIMEOUT_SECONDS
    resolver.use_edns(0, dns.flags.DO, 1232)
    resolver.flags = dns.flags.RD | dns.flags.AD  # AD asks for the validation's outcome
    return resolver


def txt_records(domain: str) -> TxtAnswer:
    seconds = settings.IDENTITY_DNS_TIMEOUT_SECONDS
    try:
        answer = _resolver().resolve(domain, dns.rdatatype.TXT, search=False)
    except dns.resolver.NXDOMAIN:
        return TxtAnswer([], None, f"{domain} does not exist (NXDOMAIN)")
    except dns.resolver.NoAnswer as exc:
        return TxtAnswer([], _ad(exc.response()), f"{domain} has no TXT record")
    except dns.resolver.LifetimeTimeout:
        return TxtAnswer([], None, f"the DNS lookup timed out after {seconds:g} s")
    except dns.resolver.NoNameservers:
        return TxtAnswer([], None, "no name server answered (SERVFAIL or REFUSED)")
    except dns.exception.DNSException as exc:
        return TxtAnswer([], None, f"the DNS lookup failed: {type(exc).__name__}")
    records = [b"".join(r.strings).decode("utf-8", "replace") for r in answer]
    return TxtAnswer(records, _ad(answer.response))


def addresses(host: str) -> list[str]:
    """The A and AAAA addresses of `host` from the same resolvers (for the did:web fetch,
    when IDENTITY_DNS_RESOLVERS is set); [] when it has none or the lookup failed."""
    found = []
    resolver = _resolver()
    for rdtype in (dns.rdatatype.A, dns.rdatatype.AAAA):
        try:
            found += [r.address for r in resolver.resolve(host, rdtype, search=False)]
        except dns.exception.DNSException:
            continue
    return found


def _ad(response) -> bool | None:
    return None if response is None else bool(response.flags & dns.flags.AD)
