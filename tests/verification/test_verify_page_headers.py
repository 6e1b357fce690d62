"""The public page's answers (issue 34, Low): a strict Content-Security-Policy, a
Cache-Control on the page and on `?format=json`, the `RateLimit-*` headers the keyed API
sends, and an IPv6 client counted by its /64 (PUBLIC_VERIFICATION_IPV6_PREFIX). The
browser test (test_verify_page_browser.py) checks that the page works under its policy."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from config.env import Env
from tests.verification.test_verify_page import HASH, PAGE, attest, chain  # noqa: F401
from verification.public_limit import client_group

pytestmark = pytest.mark.django_db

STRICT = {"default-src": "'none'", "script-src": "'self'", "style-src": "'self'",
          "connect-src": "'self'", "form-action": "'self'", "base-uri": "'none'",
          "frame-ancestors": "'none'", "img-src": "'self'"}


def policy(response) -> dict:
    directives = [part.strip().split() for part in
                  response["Content-Security-Policy"].split(";") if part.strip()]
    return {name: " ".join(values) for name, *values in directives}


@pytest.mark.parametrize("url, status", [("/verify", 200), (PAGE, 200), (f"{PAGE}?format=json", 200),
                                         ("/verify/0x12", 400), ("/verify?hash=nope", 400),
                                         ("/verify/0x12?format=json", 400), ("/", 302),
                                         (f"/verify?hash={HASH}", 302)])
def test_every_answer_of_the_page_has_a_strict_content_security_policy(chain, url, status):  # noqa: F811
    response = Client().get(url)
    assert response.status_code == status
    assert policy(response) == STRICT


@pytest.mark.parametrize("url, cache_control", [
    ("/verify", "public, max-age=300"),
    (PAGE, "private, max-age=60"),
    (f"{PAGE}?format=json", "private, max-age=60"),
    ("/verify/0x12", "no-store"),
    ("/verify/0x12?format=json", "no-store"),
    (f"/verify?hash={HASH}", "no-store"),
])
def test_each_answer_says_how_long_it_may_be_kept(chain, url, cache_control):  # noqa: F811
    assert Client().get(url)["Cache-Control"] == cache_control


def test_a_429_is_kept_nowhere(chain, settings):  # noqa: F811
    settings.PUBLIC_VERIFICATION_RATE = (1, 60)
    client = Client(REMOTE_ADDR="192.0.2.9")
    client.get(PAGE)
    for url in (PAGE, f"{PAGE}?format=json"):
        response = client.get(url)
        assert response.status_code == 429 and response["Cache-Control"] == "no-store"


def test_a_verdict_carries_the_ratelimit_headers_429s_included(chain, settings):  # noqa: F811
    settings.PUBLIC_VERIFICATION_RATE = (2, 60)
    client = Client(REMOTE_ADDR="192.0.2.10")
    first, second, third = (client.get(url) for url in (PAGE, f"{PAGE}?format=json", PAGE))
    assert [r.status_code for r in (first, second, third)] == [200, 200, 429]
    assert [r["RateLimit-Remaining"] for r in (first, second, third)] == ["1", "0", "0"]
    for response in (first, second, third):
        assert response["RateLimit-Limit"] == "2"
        assert 1 <= int(response["RateLimit-Reset"]) <= 60
    assert int(third["Retry-After"]) == int(third["RateLimit-Reset"])
    assert "RateLimit-Limit" not in client.get("/verify")  # the form counts nothing


def test_without_a_limit_there_are_no_ratelimit_headers(chain, settings):  # noqa: F811
    settings.PUBLIC_VERIFICATION_RATE = None
    assert "RateLimit-Limit" not in Client().get(PAGE)


def test_the_addresses_of_one_ipv6_64_share_one_budget(chain, settings):  # noqa: F811
    settings.PUBLIC_VERIFICATION_RATE = (2, 60)
    statuses = [Client(REMOTE_ADDR=f"2001:db8:1:2::{n:x}").get(PAGE).status_code
                for n in range(1, 4)]
    assert statuses == [200, 200, 429]
    assert Client(REMOTE_ADDR="2001:db8:1:3::1").get(PAGE).status_code == 200  # another /64


def test_behind_a_proxy_the_forwarded_ipv6_address_is_grouped_too(chain, settings):  # noqa: F811
    settings.PUBLIC_VERIFICATION_RATE = (1, 60)
    settings.PUBLIC_VERIFICATION_PROXIES = 1
    proxy = Client(REMOTE_ADDR="10.0.0.5")
    assert proxy.get(PAGE, HTTP_X_FORWARDED_FOR="2001:db8::1").status_code == 200
    assert proxy.get(PAGE, HTTP_X_FORWARDED_FOR="2001:db8::ffff:1").status_code == 429


@pytest.mark.parametrize("prefix, address, group", [
    (64, "2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    (64, "[2001:DB8:1:2::9]", "2001:db8:1:2::/64"),
    (48, "2001:db8:1:2::9", "2001:db8:1::/48"),
    (128, "2001:db8:1:2::9", "2001:db8:1:2::9/128"),
    (64, "::ffff:192.0.2.1", "192.0.2.1"),  # an IPv4 client through an IPv6 socket
    (64, "192.0.2.1", "192.0.2.1"),
    (64, "unknown", "unknown"),
])
def test_what_the_limit_counts_for_an_address(settings, prefix, address, group):
    settings.PUBLIC_VERIFICATION_IPV6_PREFIX = prefix
    assert client_group(address) == group


@pytest.mark.parametrize("value", ["0", "129", "x"])
def test_a_bad_prefix_names_its_variable(monkeypatch, value):
    monkeypatch.setenv("PUBLIC_VERIFICATION_IPV6_PREFIX", value)
    with pytest.raises(ImproperlyConfigured, match="PUBLIC_VERIFICATION_IPV6_PREFIX"):
        Env().int_between("PUBLIC_VERIFICATION_IPV6_PREFIX", 64, 1, 128)


def test_the_prefix_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("PUBLIC_VERIFICATION_IPV6_PREFIX", "56")
    assert Env().int_between("PUBLIC_VERIFICATION_IPV6_PREFIX", 64, 1, 128) == 56
