"""`manage.py setup_demo`, which `scripts/run.sh` runs at each start: the first prints the
demo credentials once; later starts say how to make more, as the README runs commands
(`.venv/bin/python manage.py`, issue 37 item 6), and how to get a Django admin login."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from registry.models import ApiKey

pytestmark = pytest.mark.django_db


def setup_demo() -> str:
    out = StringIO()
    call_command("setup_demo", "--base-url", "http://127.0.0.1:8123", stdout=out)
    return out.getvalue()


def test_the_first_start_prints_a_key_of_each_scope_and_an_admin_login():
    first = setup_demo()
    assert ApiKey.objects.count() == 3
    assert "Django admin http://127.0.0.1:8123/admin/  user: admin  password: " in first
    assert get_user_model().objects.get(username="admin").is_superuser


def test_a_later_start_says_how_to_make_keys_and_logins_with_the_checkouts_python():
    setup_demo()
    later = setup_demo()
    assert ApiKey.objects.count() == 3  # nothing more made
    assert "crk_" not in later
    assert ".venv/bin/python manage.py create_api_key --name NAME --scope admin|api|executor" \
        in later
    assert ".venv/bin/python manage.py createsuperuser" in later
    assert " python manage.py" not in later.replace(".venv/bin/python manage.py", "")
