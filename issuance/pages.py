"""The issuer pages (docs/api.md, "The issuer pages"): bind files from a browser, follow
each run to confirmed, take away receipts, QR codes and printable slips.

Behind a Django login (`/issue/login`) and the permission `bindings.add_workflow`; a user
binds for the tenant of its Membership's key and sees only that tenant's runs (another's
run is a 404). Server-rendered like `/verify`; issue.js hashes the files in Web Workers
and submits them through the JSON endpoints of issuance/api/, run.js follows a run live.
"""

from functools import wraps

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_POST, require_safe

from attestations.models import Schema
from bindings.workflows import chain_document_schema
from core.errors import PermissionDenied
from core.validators import InvalidHex, normalize_bytes32
from issuance import progress
from issuance.models import Run
from issuance.receipts import receipt_csv, receipt_json, run_documents, verify_url
from issuance.services import run_retry, tenant_holder
from issuance.slips import qr_svg, slip_html, slips_zip, zip_parts
from registry.models import Chain

LOGIN_URL = reverse_lazy("issue-login")
PAGE_SIZE = 100  # documents per page of a run


class IssuerLoginView(auth_views.LoginView):
    template_name = "issuance/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self):
        return str(reverse_lazy("issue-page"))


class IssuerLogoutView(auth_views.LogoutView):
    next_page = LOGIN_URL


def _error_page(request, status: int, title: str, detail: str) -> HttpResponse:
    return render(request, "issuance/error.html", {"title": title, "detail": detail},
                  status=status)


def issuer_page(view):
    """A page for a logged-in user who may bind (else the 403 page, saying why); the view
    gets the tenant's KeyHolder."""

    @login_required(login_url=LOGIN_URL)
    @wraps(view)
    def page(request, *args, **kwargs):
        try:
            holder = tenant_holder(request.user)
        except PermissionDenied as exc:
            return _error_page(request, 403, "Not allowed", str(exc.detail))
        return view(request, holder, *args, **kwargs)

    return page


def _run_of(request, holder, run_id):
    """The tenant's run, else None (the caller answers 404: another tenant's run is as
    unknown as one that does not exist)."""
    return Run.objects.of_tenant(holder.prefix).select_related("chain").filter(pk=run_id).first()


def _not_found(request):
    return _error_page(request, 404, "Not found", "No run of your issuer has this address.")


def _fitting_schemas(chain: Chain) -> list[Schema]:
    """The chain's schemas a page can bind a file under: a document hash and nothing else
    (other fields need values the page does not ask for); its document schema first."""
    default = chain_document_schema(chain)
    others = [s for s in Schema.objects.filter(chain=chain).exclude(document_hash_field="")
              if len(s.fields) == 1 and (default is None or s.pk != default.pk)]
    return [default, *others] if default else others


@require_safe
@issuer_page
def issue_page(request, holder):
    chains = [(chain, _fitting_schemas(chain))
              for chain in Chain.objects.filter(status=Chain.Status.ACTIVE).order_by("name")]
    return render(request, "issuance/issue.html", {
        "holder": holder, "chains": [(c, s) for c, s in chains if s],
        "runs": Run.objects.of_tenant(holder.prefix).select_related("chain")[:20],
    })


@require_safe
@issuer_page
def run_page(request, holder, run_id):
    run = _run_of(request, holder, run_id)
    if run is None:
        return _not_found(request)
    state = request.GET.get("state", "")
    documents = progress.with_state(run_documents(run), state)
    page = Paginator(documents, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "issuance/run.html", {
        "holder": holder, "run": run, "page": page, "state": state,
        "state_label": progress.label(state),
        "progress": progress.run_progress(run),
        "zip_parts": zip_parts(run.documents.count()),
        "states": progress.STATE_NAMES,
    })


@require_POST
@issuer_page
def run_retry_view(request, holder, run_id):
    run = _run_of(request, holder, run_id)
    if run is None:
        return _not_found(request)
    count = run_retry(run=run, holder=holder)
    run.refresh_from_db()
    if count:
        messages.success(request, f"{count} documents submitted again.")
    else:
        messages.warning(request, "Nothing was submitted again: see each document's reason.")
    return redirect("issue-run", run_id=run.pk)


def _download(content, content_type: str, file_name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return response


@require_safe
@issuer_page
def receipt_view(request, holder, run_id, kind):
    run = _run_of(request, holder, run_id)
    if run is None:
        return _not_found(request)
    if kind == "json":
        response = JsonResponse(receipt_json(request, run), json_dumps_params={"indent": 1})
        response["Content-Disposition"] = f'attachment; filename="receipt-{run.pk}.json"'
        return response
    return _download(receipt_csv(request, run), "text/csv; charset=utf-8",
                     f"receipt-{run.pk}.csv")


def _document_of(request, holder, run_id, document_hash):
    run = _run_of(request, holder, run_id)
    try:
        document_hash = normalize_bytes32(document_hash)
    except InvalidHex:
        return run, None
    if run is None:
        return None, None
    return run, run_documents(run).filter(document_hash=document_hash).first()


@require_safe
@issuer_page
def qr_view(request, holder, run_id, document_hash):
    run, document = _document_of(request, holder, run_id, document_hash)
    if document is None:
        return _not_found(request)
    return _download(qr_svg(verify_url(request, document.document_hash)), "image/svg+xml",
                     f"qr-{document.document_hash}.svg")


@require_safe
@issuer_page
def slip_view(request, holder, run_id, document_hash):
    run, document = _document_of(request, holder, run_id, document_hash)
    if document is None:
        return _not_found(request)
    return HttpResponse(slip_html(request, run, document))


@require_safe
@issuer_page
def slips_zip_view(request, holder, run_id):
    run = _run_of(request, holder, run_id)
    if run is None:
        return _not_found(request)
    parts = zip_parts(run.documents.count())
    try:
        part = int(request.GET.get("part", "1"))
    except ValueError:
        part = 0
    if not 1 <= part <= max(len(parts), 1):
        return _error_page(request, 404, "Not found", f"This run's slips come in {len(parts)} "
                           "ZIP files.")
    response = StreamingHttpResponse(slips_zip(request, run, part),
                                     content_type="application/zip")
    name = f"slips-{run.pk}" + (f"-part-{part}" if len(parts) > 1 else "")
    response["Content-Disposition"] = f'attachment; filename="{name}.zip"'
    return response
