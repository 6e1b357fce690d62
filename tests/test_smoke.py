def test_healthz_answers_without_a_key(anon):
    response = anon.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
