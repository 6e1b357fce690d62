"""The routes a process keeps: read again only when the enabled subscriptions changed (their
count or latest updated_at), which it asks at most every WEBHOOKS_MEMO_SECONDS; a
subscription made or disabled in another process is seen within that time."""

import time

import pytest
from django.utils import timezone

from webhooks import routing
from webhooks.models import Subscription
from webhooks.secrets import new_secret, seal

pytestmark = pytest.mark.django_db
MEMO = 0.05


def make(owner: str) -> Subscription:
    return Subscription.objects.create(owner=owner, url="https://example.org/hook",
                                       event_types=["chain.status_changed"],
                                       secret_encrypted=seal(new_secret()))


def test_the_routes_are_read_again_only_when_the_subscriptions_changed(
        settings, django_assert_num_queries):
    settings.WEBHOOKS_MEMO_SECONDS = MEMO
    first = make("a")
    assert [r.id for r in routing.routes()] == [first.pk]

    time.sleep(MEMO * 2)
    with django_assert_num_queries(1):  # the count and latest updated_at: unchanged
        assert routing.candidates("chain.status_changed")[0].id == first.pk
    with django_assert_num_queries(0):  # within the memo's time: not even that
        routing.routes()

    second = make("b")  # as another process would: this one is not told
    time.sleep(MEMO * 2)
    assert {r.id for r in routing.routes()} == {first.pk, second.pk}

    Subscription.objects.filter(pk=first.pk).update(enabled=False, updated_at=timezone.now())
    time.sleep(MEMO * 2)
    assert [r.id for r in routing.candidates("chain.status_changed")] == [second.pk]
    assert routing.wants("chain.status_changed") and not routing.wants("executor.status_changed")

    # Another change that keeps their count: the latest updated_at tells.
    Subscription.objects.filter(pk=second.pk).update(chain_id=5, updated_at=timezone.now())
    time.sleep(MEMO * 2)
    assert [r.chain_id for r in routing.routes()] == [5]
