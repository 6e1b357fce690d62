"""The public verification page (verification/pages.py) on indexed data, with Django's test
client: no JavaScript here (the browser tests are in test_verify_page_browser.py)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from executors.models import Executor
from tests.verification.conftest import EXECUTOR, attest_by_the_executor, indexed_chain
from verification.services import Verification

pytestmark = pytest.mark.django_db

HASH = "0x" + "d0" * 32
PAGE = f"/verify/{HASH}"


@pytest.fixture
def chain():
    """An active chain needing 12 confirmations, indexed up to block 1000, with an explorer."""
    return indexed_chain(chain_id=31337, short_name="anvil", name="Anvil Local",
                         confirmations=12, explorer_url="https://explorer.example/")


def attest(chain, **fields):
    return attest_by_the_executor(chain, **{"document_hash": HASH, "block_number": 950, **fields})


def page(client: Client, url: str, status: int = 200, **extra) -> str:
    response = client.get(url, **extra)
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


# --- The form ---------------------------------------------------------------------------------


def test_the_root_leads_to_the_page():
    response = Client().get("/")
    assert response.status_code == 302 and response["Location"] == "/verify"


def test_the_form_is_accessible_and_says_the_file_stays_on_the_machine():
    html = page(Client(), "/verify")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert '<html lang="en">' in html and '<main id="main">' in html
    assert '<label for="hash">' in html and 'id="hash" name="hash"' in html
    assert '<label for="file">' in html and 'aria-live="polite"' in html
    assert "never leaves your machine" in html
    assert "sha256, keccak256" in html  # the accepted algorithms, the default first
    assert 'src="/static/verification/verify.js"' in html


def test_a_pasted_hash_leads_to_its_verdict_normalised():
    response = Client().get("/verify", {"hash": "  0X" + "D0" * 32 + " "})
    assert response.status_code == 302 and response["Location"] == PAGE


@pytest.mark.parametrize("pasted", ["0x" + "d0" * 31, "d0" * 32, "0x" + "g0" * 32, ""])
def test_a_malformed_pasted_hash_is_a_400_page_saying_what_a_hash_is(pasted):
    html = page(Client(), f"/verify?hash={pasted}", 400)
    assert "0x followed by 64 hexadecimal digits" in html
    assert 'role="alert"' in html and 'aria-invalid="true"' in html


def test_a_malformed_hash_in_the_url_is_a_400_page():
    html = page(Client(), "/verify/0x1234", 400)
    assert "0x followed by 64 hexadecimal digits" in html


def test_only_get_and_head_are_allowed(chain):
    assert Client().post("/verify", {"hash": HASH}).status_code == 405
    assert Client().post(PAGE).status_code == 405
    assert Client().head(PAGE).status_code == 200


# --- The verdict ------------------------------------------------------------------------------


def test_a_verified_hash_shows_the_attester_time_chain_confirmations_and_links(chain):
    attestation = attest(chain)
    Executor.objects.filter(address=EXECUTOR).update(name="Registrar of Examples")
    html = page(Client(), PAGE)  # no API key
    assert '<h2 id="verdict-title">Verified</h2>' in html and 'aria-live="polite"' in html
    # The attester by its address: the executor's name is its own claim (issue 36).
    assert f'<dd id="attester"><code>{EXECUTOR}</code></dd>' in html
    assert "Registrar of Examples" not in html
    assert attestation.time.strftime("%Y-%m-%d %H:%M:%S") + " UTC" in html
    assert "Anvil Local (id 31337)" in html
    assert "<dt>Confirmations</dt><dd>51</dd>" in html
    tx_url = f"https://explorer.example/tx/{attestation.tx_hash}"
    assert f'id="tx-link" href="{tx_url}"' in html
    assert f'id="attestation-link" href="{tx_url}"' in html and attestation.uid in html


def test_a_verified_hash_shows_the_evidence_to_check_it_on_the_chain(chain):
    attestation = attest(chain)
    html = page(Client(), PAGE)
    evidence = html[html.index('<details id="evidence">'):html.index("</details>")]
    eas = attestation.deployment.address
    for shown in (f"<code>{eas}</code>", f"<code>{attestation.schema_uid}</code>",
                  f"<code>950</code>, hash <code>{attestation.block_hash}</code>",
                  f"<dt>Log index</dt><dd><code>{attestation.log_index}</code></dd>",
                  f'{{"to": "{eas}", "data": "0xa3112a64{attestation.uid[2:]}"}}'):
        assert shown in evidence


def test_an_attester_without_a_name_shows_its_address_and_no_explorer_no_link(chain):
    attestation = attest(chain)
    Executor.objects.filter(address=EXECUTOR).update(name="")
    chain.explorer_url = ""
    chain.save()
    html = page(Client(), PAGE)
    assert f'<dd id="attester"><code>{EXECUTOR}</code></dd>' in html
    assert "<a id=\"tx-link\"" not in html and f"<code>{attestation.tx_hash}</code>" in html


def test_an_unknown_hash_is_not_verified_and_shows_nothing_else(chain):
    html = page(Client(), PAGE)
    assert '<h2 id="verdict-title">Not verified</h2>' in html
    assert "Attester" not in html and "tx-link" not in html and "evidence" not in html


@pytest.mark.parametrize("fields", [
    {"expiration_time": timezone.now() - timedelta(seconds=1)},
    {"block_number": 995},  # not final yet
    {"attester": "0x" + "0b" * 20},  # not trusted
])
def test_the_page_answers_nothing_the_api_would_not(chain, fields, api):
    attestation = attest(chain, **fields)
    assert api.post("/v1/verify", {"documentHash": HASH}, format="json").json()["verified"] is False
    html = page(Client(), PAGE)
    assert "Not verified" in html
    for held in (attestation.uid, attestation.tx_hash, attestation.attester, "Anvil Local"):
        assert held not in html


def test_a_revoked_verdict_names_the_attestation_its_attester_and_when(chain, api):
    # Issue 37 item 7: not only the reason. The revocation is the chain's, public there.
    revoked_at = (timezone.now() - timedelta(hours=2)).replace(microsecond=0)
    attestation = attest(chain, revocation_time=revoked_at)
    Executor.objects.filter(address=EXECUTOR).update(name="Registrar of Examples")
    answer = api.post("/v1/verify", {"documentHash": HASH}, format="json").json()
    assert (answer["verified"], answer["reason"]) == (False, "revoked")

    html = page(Client(), PAGE)

    assert f'<dd id="revoked-attestation"><code>{attestation.uid}</code></dd>' in html
    assert f'<dd id="attester"><code>{EXECUTOR}</code></dd>' in html
    assert '<dd id="chain">Anvil Local (id 31337)</dd>' in html
    assert (f'<dd id="revoked-at"><time datetime="{revoked_at.isoformat(timespec="seconds")}'
            f'">{revoked_at:%Y-%m-%d %H:%M:%S} UTC</time></dd>') in html


def test_a_revoked_merkle_root_is_the_revoked_attestation_named(chain):
    from attestations.models import MerkleBatch, MerkleLeaf
    from verification.services import revocation_of

    root = attest(chain, document_hash="0x" + "0e" * 32,
                  revocation_time=timezone.now() - timedelta(minutes=5))
    batch = MerkleBatch.objects.create(chain=chain, root="0x" + "0e" * 32, attester=EXECUTOR,
                                       tx_hash=root.tx_hash, attestation_uid=root.uid,
                                       leaf_count=2)
    MerkleLeaf.objects.create(batch=batch, document_hash=HASH, proof=["0x" + "11" * 32])

    revocation = revocation_of(HASH)

    assert (revocation.attestation_id, revocation.attester) == (root.uid, EXECUTOR)
    assert revocation.revoked_at == root.revocation_time and not revocation.offchain
    assert revocation_of("0x" + "99" * 32) is None


def test_the_reason_shows_when_the_answer_has_one(chain, monkeypatch):
    monkeypatch.setattr("verification.pages.verify_document",
                        lambda document_hash: Verification(verified=False, reason="revoked"))
    assert ('<dd id="reason">Its attestation was revoked by the attester. (<code>revoked</code>)'
            in page(Client(), PAGE))


def test_the_json_rendering_is_the_apis_answer(chain, api):
    attest(chain)
    response = Client().get(PAGE, {"format": "json"})
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() == api.post("/v1/verify", {"documentHash": HASH}, format="json").json()
    malformed = Client().get("/verify/0x12", {"format": "json"})
    assert malformed.status_code == 400 and "json" in malformed["Content-Type"]


# --- The rate limit and the switch --------------------------------------------------------------


def test_each_address_is_limited_with_a_429_page_and_retry_after(chain, settings):
    settings.PUBLIC_VERIFICATION_RATE = (2, 60)
    client = Client(REMOTE_ADDR="192.0.2.1")
    page(client, PAGE)
    page(client, PAGE, format="json")  # the JSON rendering counts too
    response = client.get(PAGE)
    assert response.status_code == 429 and 1 <= int(response["Retry-After"]) <= 60
    assert "Too many verifications" in response.content.decode()
    limited = client.get(PAGE, {"format": "json"})
    assert limited.status_code == 429 and "Retry-After" in limited
    assert limited.json()["status"] == 429
    page(Client(REMOTE_ADDR="192.0.2.2"), PAGE)  # another address is not
    page(client, "/verify")  # nor is the form, which looks nothing up


def test_behind_a_proxy_the_address_it_saw_is_counted(chain, settings):
    settings.PUBLIC_VERIFICATION_RATE = (1, 60)
    settings.PUBLIC_VERIFICATION_PROXIES = 1
    proxy = Client(REMOTE_ADDR="10.0.0.5")
    page(proxy, PAGE, HTTP_X_FORWARDED_FOR="198.51.100.7")
    # The client's own X-Forwarded-For entries do not change what the proxy saw.
    assert proxy.get(PAGE, HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7").status_code == 429
    page(proxy, PAGE, HTTP_X_FORWARDED_FOR="198.51.100.8")


def test_no_limit_with_rate_none(chain, settings):
    settings.PUBLIC_VERIFICATION_RATE = None
    for _ in range(5):
        page(Client(), PAGE)


def test_switched_off_everything_is_a_404(chain, settings):
    settings.PUBLIC_VERIFICATION = False
    for url in ("/", "/verify", PAGE, f"{PAGE}?format=json"):
        assert Client().get(url).status_code == 404
