"""The Django admin: an administrator can run the registry from it alone."""

import json

import pytest
from rest_framework.test import APIClient

from registry.models import ApiKey, Chain, ContractVersion, ProviderHealth, RpcEndpoint
from registry.models.api_keys import KEY_PATTERN, key_digest
from tests.admin_site import admin_urls_of
from tests.conftest import make_key, shown_messages
from tests.factories import (
    ERC20_ABI,
    ChainFactory,
    ContractNameFactory,
    ContractVersionFactory,
    ProviderHealthFactory,
    RpcEndpointFactory,
)

pytestmark = pytest.mark.django_db

ALCHEMY_KEY = "k3yAbCdEfGhIjKlMnOpQrStUvWxYz012"
ALCHEMY_URL = f"https://eth-mainnet.g.alchemy.com/v2/{ALCHEMY_KEY}"
MASKED_ALCHEMY_URL = "https://eth-mainnet.g.alchemy.com/v2/***"


admin_url = admin_urls_of("registry")


def bearer(raw_key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    return client


def rpc_form(endpoint, **changes) -> dict:
    data = {
        "chain": endpoint.chain_id,
        "url": endpoint.masked_url,
        "provider": endpoint.provider,
        "priority": endpoint.priority,
        "monitoring_enabled": "on",
        "probe_interval_seconds": endpoint.probe_interval_seconds,
        "probe_timeout_ms": endpoint.probe_timeout_ms,
        "_save": "Save",
    }
    data.update(changes)
    return data


# --- Every model has an add page ----------------------------------------------------------


@pytest.mark.parametrize("model", ["chain", "category", "contractname", "contractversion",
                                   "deployment", "rpcendpoint", "providerhealth", "apikey"])
def test_the_add_page_loads(site, model):
    response = site.get(admin_url(model, "add"))

    assert response.status_code == 200
    assert "adminform" in response.context


# --- Chains -------------------------------------------------------------------------------


def test_the_deactivate_action_deactivates_the_selected_chains_only(site):
    picked, also_picked, left = ChainFactory(), ChainFactory(), ChainFactory()

    response = site.post(admin_url("chain", "changelist"), {
        "action": "deactivate", "_selected_action": [picked.pk, also_picked.pk],
    }, follow=True)

    assert response.status_code == 200
    assert "Deactivated 2 chain(s)." in shown_messages(response)
    statuses = dict(Chain.objects.values_list("pk", "status"))
    assert statuses == {picked.pk: "inactive", also_picked.pk: "inactive", left.pk: "active"}


def test_the_activate_action_activates_the_selected_chains(site):
    chain = ChainFactory(status=Chain.Status.INACTIVE)
    before = chain.updated_at

    site.post(admin_url("chain", "changelist"), {"action": "activate", "_selected_action": [chain.pk]})

    chain.refresh_from_db()
    assert chain.status == Chain.Status.ACTIVE
    assert chain.updated_at > before


def test_the_chain_id_is_read_only_once_created(site):
    chain = ChainFactory()

    response = site.get(admin_url("chain", "change", chain.pk))

    assert "chain_id" not in response.context["adminform"].form.fields


def test_an_administrator_sets_the_chains_fee_cap_in_the_admin(site):
    chain = ChainFactory()
    form = site.get(admin_url("chain", "change", chain.pk)).context["adminform"].form
    data = {name: form.initial.get(name) for name in form.fields}
    data = {k: "on" if v is True else "" if v is None else v for k, v in data.items()
            if v is not False}  # a checkbox left out is unchecked

    refused = site.post(admin_url("chain", "change", chain.pk),
                        {**data, "max_fee_per_gas_cap": "0", "_save": "Save"})
    assert "max_fee_per_gas_cap" in refused.context["adminform"].form.errors
    site.post(admin_url("chain", "change", chain.pk),
              {**data, "max_fee_per_gas_cap": "40000000000", "replace_after_blocks": "2",
               "_save": "Save"})

    chain.refresh_from_db()
    assert (chain.max_fee_per_gas_cap, chain.replace_after_blocks) == (40 * 10**9, 2)
    assert chain.is_testnet  # the rest of the form as it was


# --- API keys -----------------------------------------------------------------------------


def test_adding_a_key_shows_it_once_and_stores_only_its_hmac(site):
    response = site.post(admin_url("apikey", "add"), {
        "name": "ops laptop", "scope": "admin", "expires_at_0": "", "expires_at_1": "", "_save": "Save",
    }, follow=True)

    assert response.status_code == 200
    key = ApiKey.objects.get(name="ops laptop")
    [message] = [m for m in shown_messages(response) if "New admin key" in m]
    raw_key = message.split()[3]
    assert KEY_PATTERN.fullmatch(raw_key)
    assert raw_key.startswith(key.display_prefix + ".")
    assert key.digest == key_digest(raw_key)
    assert raw_key not in {key.name, key.prefix, key.digest}
    # Shown once: the next page has no trace of it.
    assert raw_key not in site.get(admin_url("apikey", "change", key.pk)).content.decode()
    assert raw_key not in site.get(admin_url("apikey", "changelist")).content.decode()


def test_a_key_added_in_the_admin_authenticates_against_the_api(site):
    response = site.post(admin_url("apikey", "add"), {
        "name": "ops", "scope": "admin", "expires_at_0": "", "expires_at_1": "", "_save": "Save",
    }, follow=True)
    raw_key = next(m for m in shown_messages(response) if "New admin key" in m).split()[3]

    api_response = bearer(raw_key).get("/v1/admin/chains")

    assert api_response.status_code == 200
    assert ApiKey.objects.get(name="ops").last_used_at is not None


def test_the_scope_of_a_key_cannot_change_after_creation(site):
    key = ApiKey.issue(name="ops", scope="api")[0]

    response = site.get(admin_url("apikey", "change", key.pk))

    assert "scope" not in response.context["adminform"].form.fields


def test_the_revoke_action_revokes_and_the_key_stops_working(site):
    raw_key = make_key("admin")
    other_raw_key = make_key("admin")
    key = ApiKey.objects.get(prefix=KEY_PATTERN.fullmatch(raw_key)["prefix"])
    assert bearer(raw_key).get("/v1/admin/chains").status_code == 200

    response = site.post(admin_url("apikey", "changelist"),
                         {"action": "revoke", "_selected_action": [key.pk]}, follow=True)

    assert "Revoked 1 key(s)." in shown_messages(response)
    key.refresh_from_db()
    assert key.revoked_at is not None
    refused = bearer(raw_key).get("/v1/admin/chains")
    assert refused.status_code == 401
    assert refused.json()["code"] == "revoked_key"
    assert bearer(other_raw_key).get("/v1/admin/chains").status_code == 200


def test_revoking_a_revoked_key_again_keeps_its_first_revocation_time(site):
    key = ApiKey.issue(name="ops", scope="api")[0]
    key.revoke()
    first = key.revoked_at

    response = site.post(admin_url("apikey", "changelist"),
                         {"action": "revoke", "_selected_action": [key.pk]}, follow=True)

    assert "Revoked 0 key(s)." in shown_messages(response)
    key.refresh_from_db()
    assert key.revoked_at == first


# --- RPC endpoints: masked URLs -----------------------------------------------------------


def test_the_rpc_changelist_shows_urls_masked(site):
    RpcEndpointFactory(url=ALCHEMY_URL)

    response = site.get(admin_url("rpcendpoint", "changelist"))

    text = response.content.decode()
    assert MASKED_ALCHEMY_URL in text
    assert ALCHEMY_KEY not in text


def test_the_rpc_change_form_shows_the_url_masked(site):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL)

    response = site.get(admin_url("rpcendpoint", "change", endpoint.pk))

    text = response.content.decode()
    assert f'value="{MASKED_ALCHEMY_URL}"' in text
    assert ALCHEMY_KEY not in text


def test_saving_the_rpc_form_with_the_masked_url_keeps_the_stored_url(site):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL, priority=1)

    response = site.post(admin_url("rpcendpoint", "change", endpoint.pk), rpc_form(endpoint, priority=4))

    assert response.status_code == 302, response.context["adminform"].form.errors
    endpoint.refresh_from_db()
    assert endpoint.url == ALCHEMY_URL
    assert endpoint.priority == 4


def test_entering_a_new_url_in_the_rpc_form_replaces_the_stored_one(site):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL)
    new_url = "https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef"

    response = site.post(admin_url("rpcendpoint", "change", endpoint.pk), rpc_form(endpoint, url=new_url))

    assert response.status_code == 302, response.context["adminform"].form.errors
    endpoint.refresh_from_db()
    assert endpoint.url == new_url


def test_the_rpc_form_refuses_a_url_the_api_would_refuse(site):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL)

    response = site.post(admin_url("rpcendpoint", "change", endpoint.pk),
                         rpc_form(endpoint, url="ftp://files.example.com/"))

    assert response.status_code == 200
    assert "url" in response.context["adminform"].form.errors
    endpoint.refresh_from_db()
    assert endpoint.url == ALCHEMY_URL


def test_an_rpc_endpoint_added_in_the_admin_gets_a_default_lowercase_provider(site):
    chain = ChainFactory()

    response = site.post(admin_url("rpcendpoint", "add"), {
        "chain": chain.pk, "url": ALCHEMY_URL, "provider": "", "priority": 0,
        "monitoring_enabled": "on", "probe_interval_seconds": 30, "probe_timeout_ms": 2000,
        "_save": "Save",
    })

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert RpcEndpoint.objects.get().provider == "alchemy"


def test_a_provider_typed_in_the_admin_is_stored_lowercase(site):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL)

    site.post(admin_url("rpcendpoint", "change", endpoint.pk), rpc_form(endpoint, provider="MyNode"))

    endpoint.refresh_from_db()
    assert endpoint.provider == "mynode"


def test_a_provider_with_other_characters_is_refused_in_the_admin(site):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL, provider="alchemy")

    response = site.post(admin_url("rpcendpoint", "change", endpoint.pk),
                         rpc_form(endpoint, provider="al chemy!"))

    assert "provider" in response.context["adminform"].form.errors
    endpoint.refresh_from_db()
    assert endpoint.provider == "alchemy"


def test_the_rpc_changelist_shows_the_status_in_force_beside_the_probed_one(site):
    RpcEndpointFactory(provider="alchemy", status="healthy")
    ProviderHealthFactory(provider="alchemy", status="maintenance")

    response = site.get(admin_url("rpcendpoint", "changelist"))

    text = response.content.decode()
    assert "Status in force" in text
    assert '<td class="field-current_status">maintenance</td>' in text
    assert '<td class="field-status">Healthy</td>' in text


def test_a_provider_health_report_shows_its_endpoint_masked(site):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL)
    ProviderHealthFactory(provider="", rpc_endpoint=endpoint)

    text = site.get(admin_url("providerhealth", "changelist")).content.decode()

    assert MASKED_ALCHEMY_URL in text
    assert ALCHEMY_KEY not in text


def test_a_provider_health_report_added_in_the_admin_overrides_the_endpoints(site, admin):
    endpoint = RpcEndpointFactory(provider="alchemy", status="healthy")

    response = site.post(admin_url("providerhealth", "add"), {
        "provider": "alchemy", "rpc_endpoint": "", "status": "down", "reason": "Outage",
        "until_0": "", "until_1": "", "_save": "Save",
    })

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert ProviderHealth.objects.get().reported_by == "user:root"
    assert admin.get(f"/v1/admin/rpc/{endpoint.pk}").json()["status"] == "down"


def test_a_provider_typed_in_any_case_in_a_health_report_is_stored_lowercase(site):
    RpcEndpointFactory(provider="alchemy")

    site.post(admin_url("providerhealth", "add"), {
        "provider": "Alchemy", "rpc_endpoint": "", "status": "down", "reason": "",
        "until_0": "", "until_1": "", "_save": "Save",
    })

    assert ProviderHealth.objects.get().provider == "alchemy"


@pytest.mark.parametrize(
    ("fields", "bad"),
    [
        ({"provider": "nobody"}, "provider"),
        ({"provider": "alchemy", "until_0": "2000-01-01", "until_1": "00:00:00"}, "until"),
    ],
)
def test_a_health_report_the_api_would_refuse_is_refused_in_the_admin(site, fields, bad):
    RpcEndpointFactory(provider="alchemy")

    response = site.post(admin_url("providerhealth", "add"), {
        "rpc_endpoint": "", "status": "down", "reason": "", "until_0": "", "until_1": "",
        "_save": "Save", **fields,
    })

    assert response.status_code == 200
    assert bad in response.context["adminform"].form.errors
    assert not ProviderHealth.objects.exists()


def test_a_provider_health_report_naming_neither_target_is_refused_in_the_admin(site):
    response = site.post(admin_url("providerhealth", "add"), {
        "provider": "", "rpc_endpoint": "", "status": "down", "reason": "",
        "until_0": "", "until_1": "", "_save": "Save",
    })

    assert response.status_code == 200
    assert response.context["adminform"].form.errors
    assert not ProviderHealth.objects.exists()


# --- Contract versions --------------------------------------------------------------------


def test_a_contract_version_with_a_valid_abi_can_be_added(site):
    name = ContractNameFactory()

    response = site.post(admin_url("contractversion", "add"), {
        "contract_name": name.pk, "version": "2.0.0", "abi": json.dumps(ERC20_ABI),
        "compiler_version": "0.8.26", "_save": "Save",
    })

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert ContractVersion.objects.get(contract_name=name).abi == ERC20_ABI


def test_an_invalid_abi_is_refused_with_the_path_of_the_bad_entry(site):
    name = ContractNameFactory()
    abi = [ERC20_ABI[0], {"type": "function", "name": "f", "inputs": [{"name": "a", "type": "uint257"}],
                          "outputs": []}]

    response = site.post(admin_url("contractversion", "add"), {
        "contract_name": name.pk, "version": "2.0.0", "abi": json.dumps(abi), "_save": "Save",
    })

    assert response.status_code == 200
    [error] = response.context["adminform"].form.errors["abi"]
    assert error.startswith("1.inputs.0.type: ")
    assert "uint257" in error
    assert not ContractVersion.objects.exists()


def test_an_abi_that_is_not_a_list_is_refused(site):
    response = site.post(admin_url("contractversion", "add"), {
        "contract_name": ContractNameFactory().pk, "version": "2.0.0", "abi": '{"type": "function"}',
        "_save": "Save",
    })

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["abi"] == ["An ABI is a JSON array of entries."]


def test_abi_version_and_contract_name_are_read_only_on_change(site):
    version = ContractVersionFactory(version="1.0.0", compiler_version="0.8.0")
    other_name = ContractNameFactory()

    page = site.get(admin_url("contractversion", "change", version.pk))
    response = site.post(admin_url("contractversion", "change", version.pk), {
        "contract_name": other_name.pk, "version": "9.9.9", "abi": "[]", "compiler_version": "0.8.26",
        "_save": "Save",
    })

    assert not {"abi", "version", "contract_name"} & set(page.context["adminform"].form.fields)
    assert response.status_code == 302
    version.refresh_from_db()
    assert (version.contract_name_id, version.version, version.abi) != (other_name.pk, "9.9.9", [])
    assert version.version == "1.0.0"
    assert version.abi == ERC20_ABI
    assert version.compiler_version == "0.8.26"


def test_the_change_page_of_a_version_describes_its_interface(site):
    version = ContractVersionFactory()

    text = site.get(admin_url("contractversion", "change", version.pk)).content.decode()

    assert "0xa9059cbb" in text  # transfer(address,uint256)
    assert "Transfer(address,address,uint256)" in text


def test_the_admin_is_branded_and_links_the_api_docs(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("brand", password="x"))
    page = client.get("/admin/").content.decode()
    assert "Chain registry administration" in page
    assert 'href="/v1/docs"' in page
