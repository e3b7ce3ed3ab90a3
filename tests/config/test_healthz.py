def test_healthz_answers_ok_without_a_login(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"] == "text/plain"


def test_healthz_refuses_a_post(client):
    assert client.post("/healthz").status_code == 405
