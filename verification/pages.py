"""The public verification page (docs/api.md, "The public verification page").

`/verify`: a form to paste a hash, and a file picker that verify.js makes work: the file is
hashed in the browser and never sent. `/verify/0x<hash>`: the verdict rendered on the server,
a shareable URL that needs no JavaScript; `?format=json` gives the API's own answer
(`POST /v1/verify`), which the script reads. No API key; limited per client address
(verification/public_limit.py); PUBLIC_VERIFICATION=false answers 404.

Every answer carries a strict Content-Security-Policy (the page loads its own stylesheet
and script modules, and fetches its own verdicts; nothing inline, nothing from elsewhere)
and a Cache-Control: a verdict may be kept a minute by the browser that asked (private: its
RateLimit-* headers are that client's), the form five minutes by anyone, an error nowhere.

The page shows only what verify_document answers, plus the names of what that answer points
at (the chain's name and explorer); for a `revoked` answer, also which attestation was
revoked, by whom and when (`revocation_of`). Who issued the document is the answer's
`issuer` (an organisation an administrator registered, with the domain that proves it) and
how well that is proven, with a warning when it is not: never an executor's own name, which
is whatever the executor typed.
"""

from functools import wraps

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from core.document_hash import accepted_algorithms
from core.lean import answer
from core.problems import problem_response
from core.validators import InvalidHex, normalize_bytes32
from registry.models import Chain
from verification import public_limit
from verification.metrics import count_verify
from verification.serializers import VerifyResponseSerializer
from verification.services import revocation_of, verify_document

# What each reason of the verify answer (`reason`, when it has one) tells a person.
REASON_TEXT = {
    "not_found": "No attestation of this document is known.",
    "chain_inactive": "It was attested on a chain that is not active here.",
    "untrusted_attester": "It was attested, but not by an attester trusted on that chain.",
    "not_timestamped": "It was attested offchain, but its attestation is not timestamped on "
                       "the chain, which this chain asks for.",
    "undecodable": "It was attested, but the attestation's data is not laid out as its "
                   "schema says, so it binds nothing.",
    "expired": "Its attestation has expired.",
    "revoked": "Its attestation was revoked by the attester.",
    "not_final": "It was attested, but the attestation is not final yet on its chain (not "
                 "enough confirmations, or not yet in the chain's finalized block); try again "
                 "in a few minutes.",
    "unproven_issuer": "It was attested, but this service only accepts documents whose "
                       "issuer has proven its identity, and this one's has not.",
}
METHOD_TEXT = {"dns": "DNS", "did_web": "did:web"}
ISSUER_WARNING = {
    "lapsed": "The identity of this issuer is no longer proven: {domain} stopped naming this "
              "attester. The document may not come from {name}.",
    "unproven": "The identity of this issuer is not proven: {domain} has not confirmed that it "
                "stands behind this attester. Do not rely on the name {name}.",
    None: "No organisation has proven that it issued this document: the attester is trusted "
          "here, but who it is is not proven.",
}
MALFORMED = "A document hash is 0x followed by 64 hexadecimal digits (0-9, a-f)."
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
CACHE_VERDICT = "private, max-age=60"  # a verdict changes as the chain moves: a minute late
CACHE_FORM = "public, max-age=300"
CACHE_ERROR = "no-store"


def _page_headers(view):
    """The page's Content-Security-Policy and Cache-Control on every answer of `view` (the
    view may choose its own Cache-Control; an error's is `no-store`)."""
    @wraps(view)
    def with_headers(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        if response.status_code >= 400 or "Cache-Control" not in response:
            response["Cache-Control"] = CACHE_ERROR
        return response
    return with_headers


def _normalise(value: str) -> str:
    """The hash as the API takes it, from what a person pastes (spaces, 0X, capitals)."""
    return normalize_bytes32(value.strip())


def _switched_on():
    if not settings.PUBLIC_VERIFICATION:
        raise Http404("The public verification page is switched off.")


def _form_context(**extra) -> dict:
    return {"algorithms": accepted_algorithms(), **extra}


@require_safe
@_page_headers
def home(request):
    _switched_on()
    return redirect("verify-page")


@require_safe
@_page_headers
def verify_form(request):
    """The form; `?hash=` (its submission without JavaScript) leads to the verdict's URL."""
    _switched_on()
    pasted = request.GET.get("hash")
    if pasted is None:
        response = render(request, "verification/verify.html", _form_context())
        response["Cache-Control"] = CACHE_FORM
        return response
    try:
        document_hash = _normalise(pasted)
    except InvalidHex:
        return render(request, "verification/verify.html",
                      _form_context(error=MALFORMED, pasted=pasted), status=400)
    return redirect("verify-verdict", document_hash=document_hash)


@require_safe
@_page_headers
def verify_verdict(request, document_hash: str):
    """The verdict of one hash, as a page or (`?format=json`) as the API answers it."""
    _switched_on()
    as_json = request.GET.get("format") == "json"
    window = public_limit.count(request)
    wait = window.wait if window is not None else None
    if wait is not None:
        detail = f"Too many verifications from your address; try again in {wait} seconds."
        if as_json:
            response = problem_response(429, detail=detail)
        else:
            response = render(request, "verification/verify.html",
                              _form_context(error=detail), status=429)
        response["Retry-After"] = str(wait)
        return response
    try:
        normalised = _normalise(document_hash)
    except InvalidHex:
        if as_json:
            return problem_response(400, detail=MALFORMED)
        return render(request, "verification/verify.html",
                      _form_context(error=MALFORMED, pasted=document_hash), status=400)
    result = verify_document(normalised)
    count_verify("verified" if result.verified else "not_verified")
    if as_json:
        response = answer(VerifyResponseSerializer, result)
    else:
        reason = getattr(result, "reason", None)  # once the answer says why
        names = {}
        revocation = revocation_of(normalised) if reason == "revoked" else None
        if result.verified:
            names = _names(result.chain_id, result.attester, result.tx_hash)
        elif revocation is not None:
            names = _names(revocation.chain_id, revocation.attester)
        issuer = result.issuer if result.verified else None
        response = render(request, "verification/verdict.html", _form_context(
            document_hash=normalised, result=result, reason=reason,
            reason_text=REASON_TEXT.get(reason, ""), revocation=revocation,
            issuer=issuer and _issuer_view(issuer), issuer_warning=_issuer_warning(issuer),
            **names))
    response["Cache-Control"] = CACHE_VERDICT
    return response


def _names(chain_id: int, attester: str, tx_hash: str | None = None) -> dict:
    """What a chain id is called, and its explorer's links. (The attester is shown by its
    address: an executor's registered name is its own claim, not an identity.)"""
    chain = Chain.objects.filter(pk=chain_id).first()
    explorer = (chain.explorer_url.rstrip("/") if chain and chain.explorer_url else "")
    return {
        "chain_name": chain.name if chain else f"chain {chain_id}",
        "tx_url": f"{explorer}/tx/{tx_hash}" if explorer and tx_hash else "",
    }


def _issuer_view(issuer) -> dict:
    """The answer's issuer as the page says it: by what its identity is proven, how long ago."""
    latest = max((p["checked_at"] for p in issuer.proofs), default=None)
    return {"name": issuer.name, "domain": issuer.domain, "identity": issuer.identity,
            "proven_by": " and ".join(METHOD_TEXT[p["method"]] for p in issuer.proofs),
            "checked_ago": latest and ago(latest)}


def _issuer_warning(issuer) -> str:
    if issuer is not None and issuer.identity == "proven":
        return ""
    text = ISSUER_WARNING[issuer and issuer.identity]
    return text.format(name=issuer.name, domain=issuer.domain) if issuer else text


def ago(at, now=None) -> str:
    """How long ago `at` was, in its largest unit: "just now", "5 min", "2 h", "3 days"."""
    seconds = max(0, int(((now or timezone.now()) - at).total_seconds()))
    for unit, size in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            count = seconds // size
            return f"{count} {'day' if unit == 'days' and count == 1 else unit} ago"
    return "just now"
