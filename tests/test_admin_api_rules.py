"""The Django admin refuses what the API refuses, with the same message (issue 37 item 2).

One table of invalid values per model the admin edits: each value is sent through the API
(POST, and PATCH of a stored record) and typed into the admin's add and change forms, by a
logged-in superuser; both refuse it, with the same message, and nothing is saved. A valid
record saves through both, as the API would store it."""

import json
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.forms import CheckboxInput, MultiWidget
from django.utils import timezone
from rest_framework.test import APIClient

from executors.models import TrustedAttester
from registry.models import (
    ApiKey,
    Category,
    Chain,
    ContractName,
    ContractVersion,
    Deployment,
    ProviderHealth,
    RpcEndpoint,
)
from tests.admin_site import admin_url
from tests.conftest import make_key
from tests.factories import (
    ERC20_ABI,
    CategoryFactory,
    ChainFactory,
    ContractNameFactory,
    ContractVersionFactory,
    DeploymentFactory,
    RpcEndpointFactory,
    TrustedAttesterFactory,
)
from webhooks.models import Subscription, Watch

pytestmark = pytest.mark.django_db

ADDRESS = "0x" + "ab" * 20
CHECKSUM_BROKEN = "0x52908400098527886E0F7030069857D2E4169EE7".replace("E", "e", 1)
HASH = "0x" + "cd" * 32
ABI_WITH_A_BAD_TYPE = [{"type": "function", "name": "f", "stateMutability": "view",
                        "inputs": [{"name": "x", "type": "uint"}], "outputs": []}]
RANGE_MIN = "Ensure this value is greater than or equal to {}."
RANGE_MAX = "Ensure this value is less than or equal to {}."


@dataclass
class Model:
    """One model as both entry points see it."""

    app: str
    name: str  # the admin's model name
    api: str  # the API's collection
    make: object  # a stored record, to change
    api_body: object  # record -> a valid POST body (camelCase)
    form: object  # record -> valid add-form values beyond the page's defaults
    api_key: str = "admin"  # the scope of the key the API takes here
    api_changes: bool = True  # the API has PATCH
    admin_adds: bool = True
    lookup: str = "pk"  # the API's lookup field


@dataclass
class Case:
    """An invalid value: `attr` on the wire, `field` in the admin's form."""

    model: str
    attr: str
    value: object  # JSON; callable(record) for a value that depends on the stored record
    message: str
    field: str = ""  # the form field with the message (default: `attr` in snake_case)
    typed: object = None  # what is typed in the form (default: `value`)
    on: tuple = ("add", "change")
    error: str = ""  # the API's `attr` of the message (default: `attr`)


def snake(attr: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in attr.split(".")[-1])


def chain_api(record) -> dict:
    return {"chainId": 424242, "name": "Fresh", "shortName": "fresh",
            "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18}}


def chain_form(record) -> dict:
    return {"chain_id": 424242, "name": "Fresh", "short_name": "fresh"}


def subscription(record=None) -> Subscription:
    response = key_client("api").post("/v1/webhooks", {
        "url": "https://hooks.example.com/in", "eventTypes": ["document.verified"]},
        format="json")
    assert response.status_code == 201, response.content
    return Subscription.objects.get(pk=response.json()["id"])


def watch(record=None) -> Watch:
    return Watch.objects.create(owner=KEYS["api"].split(".")[0], document_hash=HASH)


MODELS = {
    "chain": Model(
        "registry", "chain", "/v1/admin/chains", ChainFactory, chain_api, chain_form),
    "category": Model(
        "registry", "category", "/v1/admin/categories", CategoryFactory,
        lambda r: {"slug": "fresh", "name": "Fresh"},
        lambda r: {"slug": "fresh", "name": "Fresh"}, lookup="slug"),
    "contractname": Model(
        "registry", "contractname", "/v1/admin/contract-names", ContractNameFactory,
        lambda r: {"name": "fresh"}, lambda r: {"name": "fresh"}, lookup="name"),
    "contractversion": Model(
        "registry", "contractversion", "/v1/admin/contract-versions", ContractVersionFactory,
        lambda r: {"contractName": r.contract_name.name, "version": "9.9.9", "abi": ERC20_ABI},
        lambda r: {"contract_name": r.contract_name_id, "version": "9.9.9",
                   "abi": json.dumps(ERC20_ABI)}),
    "deployment": Model(
        "registry", "deployment", "/v1/admin/deployments", DeploymentFactory,
        lambda r: {"chainId": r.chain_id, "contractVersion": r.contract_version_id,
                   "address": ADDRESS},
        lambda r: {"chain": r.chain_id, "contract_version": r.contract_version_id,
                   "address": ADDRESS}),
    "rpcendpoint": Model(
        "registry", "rpcendpoint", "/v1/admin/rpc", RpcEndpointFactory,
        lambda r: {"chainId": r.chain_id, "url": "https://fresh.example.com/rpc"},
        lambda r: {"chain": r.chain_id, "url": "https://fresh.example.com/rpc"}),
    "providerhealth": Model(
        "registry", "providerhealth", "/v1/admin/rpc/health",
        lambda: RpcEndpointFactory(provider="acme"),
        lambda r: {"provider": "acme", "status": "down", "reason": "outage"},
        lambda r: {"provider": "acme", "status": "down", "reason": "outage"},
        api_changes=False),
    "trustedattester": Model(
        "executors", "trustedattester", "/v1/admin/trusted-attesters", TrustedAttesterFactory,
        lambda r: {"chainId": r.chain_id, "address": ADDRESS},
        lambda r: {"chain": r.chain_id, "address": ADDRESS}),
    "subscription": Model(
        "webhooks", "subscription", "/v1/webhooks", subscription,
        lambda r: {"url": "https://hooks.example.com/new", "eventTypes": ["document.verified"]},
        lambda r: {}, api_key="api", admin_adds=False),
    "watch": Model(
        "webhooks", "watch", "/v1/watches", watch,
        lambda r: {"documentHash": "0x" + "ef" * 32},
        lambda r: {"owner": r.owner, "document_hash": "0x" + "ef" * 32},
        api_key="api", api_changes=False),
}

CASES = [
    # Chains: the report's two values first.
    Case("chain", "shortName", "12345", "All digits would read as a chain id; use a name."),
    Case("chain", "explorerUrl", "ftp://x.example",
         "Enter a URL with scheme http, https and a host."),
    Case("chain", "infoUrl", "x.example", "Enter a URL with scheme http, https and a host."),
    Case("chain", "name", "   ", "This field may not be blank."),
    Case("chain", "shortName", "not a slug",
         'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'),
    Case("chain", "shortName", lambda r: ChainFactory().short_name,
         "A chain with this short name exists."),
    Case("chain", "nativeCurrency.decimals", 300, RANGE_MAX.format(255),
         field="currency_decimals"),
    Case("chain", "confirmations", 20_000, RANGE_MAX.format(10_000)),
    Case("chain", "chainId", 0, RANGE_MIN.format(1), on=("add",)),
    # Categories and contract names.
    Case("category", "slug", "a b",
         'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'),
    Case("category", "slug", lambda r: CategoryFactory().slug,
         "category with this slug already exists."),
    Case("category", "name", "x" * 201, "Ensure this field has no more than 200 characters."),
    Case("contractname", "name", "no spaces",
         'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'),
    Case("contractname", "displayName", "x" * 201,
         "Ensure this field has no more than 200 characters."),
    # Contract versions: the version and ABI never change (read-only on the change page).
    Case("contractversion", "version", "1.0",
         "Enter a semantic version such as 1.4.0 or 2.0.0-rc.1.", on=("add",)),
    Case("contractversion", "abi", ABI_WITH_A_BAD_TYPE, "", on=("add",),
         typed=json.dumps(ABI_WITH_A_BAD_TYPE)),
    Case("contractversion", "version", lambda r: r.version,
         "This contract already has this version; a new ABI needs a new version.",
         on=("add",)),
    Case("contractversion", "compilerVersion", "x" * 101,
         "Ensure this field has no more than 100 characters."),
    # Deployments.
    Case("deployment", "address", "0x123", "Enter an address: 0x followed by 40 hex digits.",
         on=("add",)),
    Case("deployment", "address", CHECKSUM_BROKEN,
         "This mixed-case address fails its EIP-55 checksum.", on=("add",)),
    Case("deployment", "address", ADDRESS, "This field cannot change once created.",
         on=("change",)),
    Case("deployment", "address", lambda r: r.address,
         "This address is already registered on this chain.", on=("add",)),
    Case("deployment", "txHash", "0x12",
         "Enter a 32-byte hex value: 0x followed by 64 hex digits."),
    Case("deployment", "startBlock", -1, RANGE_MIN.format(0)),
    # RPC endpoints.
    Case("rpcendpoint", "url", "ftp://node.example.com",
         "Enter a URL with scheme http, https, ws, wss, a host, and no whitespace."),
    Case("rpcendpoint", "url", "http://169.254.169.254/latest",
         "This host is not allowed: link-local or metadata address."),
    Case("rpcendpoint", "url", lambda r: r.url, "This URL is already registered on this chain.",
         on=("add",)),
    Case("rpcendpoint", "provider", "bad provider!", "Use letters, digits, '.', '-' and '_' only."),
    Case("rpcendpoint", "priority", 2_000_000, RANGE_MAX.format(1_000_000)),
    Case("rpcendpoint", "monitoring.intervalSeconds", 1, RANGE_MIN.format(5),
         field="probe_interval_seconds"),
    Case("rpcendpoint", "monitoring.timeoutMs", 100_000, RANGE_MAX.format(60_000),
         field="probe_timeout_ms"),
    # Provider health reports (added, never changed).
    Case("providerhealth", "provider", "nobody", "No RPC endpoint has provider 'nobody'.",
         on=("add",)),
    Case("providerhealth", "until", "2001-01-01T00:00:00Z", "`until` must be in the future.",
         typed={"until_0": "2001-01-01", "until_1": "00:00:00"}, on=("add",)),
    Case("providerhealth", "provider", "", "Name either a provider or an rpcId, not both or "
         "neither.", field="__all__", error="nonFieldErrors", on=("add",)),
    # Trusted attesters: chain and address are set once.
    Case("trustedattester", "address", "0x12", "Enter an address: 0x followed by 40 hex digits.",
         on=("add",)),
    Case("trustedattester", "address", lambda r: r.address,
         "This address is already a trusted attester of this chain.", on=("add",)),
    Case("trustedattester", "note", "x" * 201, "Ensure this field has no more than 200 characters."),
    # Webhook subscriptions (created through the API only) and watches.
    Case("subscription", "url", "ftp://hooks.example.com/in", "", on=("change",)),
    Case("subscription", "eventTypes", [], "Ensure this field has at least 1 elements.",
         typed="[]", on=("change",)),
    Case("subscription", "eventTypes", ["executor.status_changed"],
         "executor.status_changed: for admin keys only.", typed='["executor.status_changed"]',
         on=("change",)),
    Case("subscription", "documentHash", "0x12",
         "Enter a 32-byte hex value: 0x followed by 64 hex digits.", on=("change",)),
    Case("subscription", "chainId", 0, RANGE_MIN.format(1), on=("change",)),
    Case("subscription", "description", "x" * 201,
         "Ensure this field has no more than 200 characters.", on=("change",)),
    Case("watch", "documentHash", "0x12", "Enter a 32-byte hex value: 0x followed by 64 hex "
         "digits."),
    Case("watch", "documentHash", HASH.upper().replace("0X", "0x"),
         "This key watches this document hash.", on=("add",)),
]

KEYS: dict[str, str] = {}


@pytest.fixture(autouse=True)
def keys(db):
    KEYS.update({scope: make_key(scope) for scope in ("admin", "api")})
    yield
    KEYS.clear()


def key_client(scope: str) -> APIClient:
    client = APIClient()
    if scope == "admin":
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {KEYS['admin']}")
    else:
        client.credentials(HTTP_X_API_KEY=KEYS[scope])
    return client


def case_id(case: Case) -> str:
    return f"{case.model}-{case.attr}-{str(case.value)[:20] if not callable(case.value) else 'taken'}"


def value_of(case: Case, record):
    return case.value(record) if callable(case.value) else case.value


def nested(attr: str, value) -> dict:
    head, _, rest = attr.partition(".")
    return {head: nested(rest, value) if rest else value}


def merge(body: dict, extra: dict) -> dict:
    for key, value in extra.items():
        body[key] = merge(dict(body.get(key, {})), value) if isinstance(value, dict) else value
    return body


def api_messages(response, attr: str) -> list[str]:
    """The problem document's messages about `attr` (an ABI's own paths named in them)."""
    assert response.status_code in (400, 409), response.content
    body = response.json()
    found = []
    for error in body["errors"]:
        if error["attr"] == attr:
            found.append(error["detail"])
        elif error["attr"].startswith(attr + "."):
            found.append(f"{error['attr'][len(attr) + 1:]}: {error['detail']}")
    return found


def page_values(form) -> dict:
    """What a browser would send back from a form as the page shows it."""
    data = {}
    for name in form.fields:
        bound = form[name]
        value, widget = bound.value(), bound.field.widget
        if isinstance(widget, CheckboxInput):
            if value:
                data[name] = "on"
        elif isinstance(widget, MultiWidget):
            for index, part in enumerate(widget.decompress(value)):
                data[f"{name}_{index}"] = "" if part is None else widget.widgets[index].format_value(part)
        elif isinstance(value, list):
            data[name] = value
        else:
            data[name] = "" if value is None else value
    return data


def admin_post(site, url: str, changes: dict):
    page = site.get(url)
    assert page.status_code == 200
    data = {**page_values(page.context["adminform"].form), **changes, "_save": "Save"}
    return site.post(url, {k: v for k, v in data.items() if v is not None})


def form_errors(response, field_name: str) -> list[str]:
    assert response.status_code == 200, "the form was saved"
    errors = response.context["adminform"].form.errors.get(field_name)
    return [error["message"] for error in errors.get_json_data()] if errors else []


def typed(case: Case, value) -> dict:
    name = case.field or snake(case.attr)
    if isinstance(case.typed, dict):
        return case.typed
    if name == "__all__":
        return {snake(case.attr): value}
    return {name: case.typed if case.typed is not None else value}


def rows(model: Model) -> int:
    return model_class(model).objects.count()


def model_class(model: Model):
    return {"chain": Chain, "category": Category, "contractname": ContractName,
            "contractversion": ContractVersion, "deployment": Deployment,
            "rpcendpoint": RpcEndpoint, "providerhealth": ProviderHealth,
            "trustedattester": TrustedAttester, "subscription": Subscription,
            "watch": Watch}[model.name]


def expected(case: Case, api: list[str]) -> list[str]:
    """The message both give: the table's, or (an ABI's path, a refused scheme) the API's."""
    if case.message:
        assert api == [case.message]
    assert api, "the API took it"
    return api


ADD_CASES = [c for c in CASES if "add" in c.on and MODELS[c.model].admin_adds]
CHANGE_CASES = [c for c in CASES if "change" in c.on]


@pytest.mark.parametrize("case", ADD_CASES, ids=case_id)
def test_an_invalid_value_is_refused_by_the_api_and_the_admin_add_form_alike(site, case):
    model = MODELS[case.model]
    record = model.make()
    value = value_of(case, record)
    before = rows(model)

    body = merge(model.api_body(record), nested(case.attr, value))
    api = api_messages(key_client(model.api_key).post(model.api, body, format="json"),
                       case.error or case.attr)
    response = admin_post(site, admin_url(model.app, model.name, "add"),
                          {**model.form(record), **typed(case, value)})

    assert form_errors(response, case.field or snake(case.attr)) == expected(case, api)
    assert rows(model) == before


@pytest.mark.parametrize("case", CHANGE_CASES, ids=case_id)
def test_an_invalid_value_is_refused_by_the_api_and_the_admin_change_form_alike(site, case):
    model = MODELS[case.model]
    record = model.make()
    value = value_of(case, record)
    stored = model_class(model).objects.filter(pk=record.pk).values().get()

    client = key_client(model.api_key)
    if model.api_changes:
        response = client.patch(f"{model.api}/{getattr(record, model.lookup)}",
                                nested(case.attr, value),
                                format="json")
    else:  # no PATCH in the API: what a POST says about the value
        response = client.post(model.api, merge(model.api_body(record), nested(case.attr, value)),
                               format="json")
    api = api_messages(response, case.error or case.attr)
    response = admin_post(site, admin_url(model.app, model.name, "change", record.pk),
                          typed(case, value))

    assert form_errors(response, case.field or snake(case.attr)) == expected(case, api)
    assert model_class(model).objects.filter(pk=record.pk).values().get() == stored


@pytest.mark.parametrize("name", [n for n, m in MODELS.items() if m.admin_adds])
def test_a_valid_record_is_saved_by_the_admin_add_form(site, name):
    model = MODELS[name]
    record = model.make()
    before = rows(model)

    response = admin_post(site, admin_url(model.app, model.name, "add"), model.form(record))

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert rows(model) == before + 1


def test_the_admin_stores_values_as_the_api_does(site):
    deployment = DeploymentFactory()
    checksummed = "0x52908400098527886E0F7030069857D2E4169EE7"

    admin_post(site, admin_url("registry", "deployment", "add"), {
        "chain": deployment.chain_id, "contract_version": deployment.contract_version_id,
        "address": checksummed})
    admin_post(site, admin_url("registry", "rpcendpoint", "add"), {
        "chain": deployment.chain_id, "url": "https://eth-mainnet.g.alchemy.com/v2/k",
        "provider": ""})

    assert Deployment.objects.filter(address=checksummed.lower()).exists()  # lowercased
    assert RpcEndpoint.objects.get(chain=deployment.chain).provider == "alchemy"  # derived


def test_a_chain_saved_by_the_admin_is_taken_back_by_the_api_as_read(site, admin):
    # The report: what the admin saved, the API refused when it was sent back as read.
    response = admin_post(site, admin_url("registry", "chain", "add"), {
        **chain_form(None), "explorer_url": "https://x.example", "info_url": "https://x.example"})
    assert response.status_code == 302

    read = admin.get("/v1/admin/chains/424242").json()
    response = admin.patch("/v1/admin/chains/424242", read, format="json")

    assert response.status_code == 200, response.content


def test_an_api_key_expiring_in_the_past_is_refused_by_the_admin(site):
    past = timezone.now() - timedelta(days=1)

    response = admin_post(site, admin_url("registry", "apikey", "add"), {
        "name": "late", "scope": "api", "expires_at_0": past.strftime("%Y-%m-%d"),
        "expires_at_1": past.strftime("%H:%M:%S")})

    assert form_errors(response, "expires_at") == [
        "An expiry in the past makes a key that never works."]
    assert not ApiKey.objects.filter(name="late").exists()
