"""The embedded default (no broker): a commit queues nothing, and `manage.py run_webhooks`
(started by scripts/run.sh beside the server: tests/test_embedded_default.py) fans out and
delivers in its own process, a subscription per thread."""

import pytest
from django.core.management import call_command

from tests.bindings.conftest import bind
from tests.webhooks.conftest import subscribe
from webhooks.models import Delivery, Event

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_commit_leaves_the_events_to_run_webhooks(api, receiver, document_schema, capsys):
    subscribe(api, receiver.url, ["workflow.state_changed"])
    bind(api)  # committed; without a broker nothing ran in this process
    assert Event.objects.filter(fanned_out=False).count() == 2
    assert not receiver.received

    call_command("run_webhooks", "--once", "--threads", "2")

    assert "delivered 2" in capsys.readouterr().out
    assert [p["data"]["to"] for p in receiver.payloads()] == ["received", "queued"]
    assert set(Delivery.objects.values_list("state", flat=True)) == {"delivered"}

