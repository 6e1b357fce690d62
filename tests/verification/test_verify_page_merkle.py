"""The public page of a Merkle-bound document: the verdict, and in its evidence the root and
the proof a person can check with any node (the browser's view: test_verify_page_browser.py)."""

import html

import pytest
from django.test import Client

from tests.verification.conftest import bind_in_merkle_batch, indexed_chain

pytestmark = pytest.mark.django_db


def test_the_page_shows_the_root_and_the_proof():
    chain = indexed_chain(chain_id=31337, short_name="anvil", confirmations=12)
    documents = [f"0x{n:064x}" for n in range(1, 6)]
    root, tree = bind_in_merkle_batch(chain, documents)
    response = Client().get(f"/verify/{documents[2]}")
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert "<h2 id=\"verdict-title\">Verified</h2>" in text
    assert "bound by one Merkle root" in text
    assert tree.root in text and root.uid in text
    for sibling in tree.proof(documents[2]):
        assert f"<li><code>{sibling}</code></li>" in text
    single = Client().get(f"/verify/0x{99:064x}")
    assert "Merkle" not in single.content.decode()
