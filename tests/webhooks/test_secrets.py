"""SECRET_KEY rotated without WEBHOOKS_SECRET_KEY: the stored signing secrets no longer
decrypt. Deliveries stop without an attempt (nothing sent, nothing counted against the
receiver), say so in the log, and /readyz is 503 naming it; back with the old key, they go
out."""

import logging

import pytest

from tests.bindings.conftest import bind
from tests.conftest import assert_problem
from tests.webhooks.conftest import deliver, subscribe
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db


def test_a_changed_secret_key_stops_deliveries_loudly_until_it_is_back(
        api, anon, receiver, document_schema, settings, caplog):
    settings.WEBHOOKS_SECRET_KEY = ""
    subscription_id, _ = subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)
    assert anon.get("/readyz").status_code == 200
    old_key, settings.SECRET_KEY = settings.SECRET_KEY, settings.SECRET_KEY + "-rotated"

    with caplog.at_level(logging.ERROR):
        assert deliver(subscription_id) == 0
    assert not receiver.received
    assert set(Delivery.objects.values_list("attempts", flat=True)) == {0}
    assert "signing secret cannot be decrypted" in caplog.text
    assert "WEBHOOKS_SECRET_KEY" in caplog.text

    body = assert_problem(anon.get("/readyz"), 503, "service_unavailable")
    assert body["checks"]["webhookSecrets"]["status"] == "unavailable"
    assert "WEBHOOKS_SECRET_KEY" in body["checks"]["webhookSecrets"]["detail"]

    settings.WEBHOOKS_SECRET_KEY = old_key  # the key they were sealed under
    assert anon.get("/readyz").status_code == 200
    assert deliver(subscription_id) == 2
