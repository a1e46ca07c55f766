"""`/healthz` reports the real parts: the database, the channel layer and the broker."""

import json
import urllib.error
import urllib.request

import pytest


@pytest.mark.django_db
def test_healthz_is_ok_when_database_redis_and_broker_answer(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"] == {"database": "ok", "channel_layer": "ok", "broker": "ok"}
    assert body["failing"] == []


def test_healthz_names_what_does_not_answer(start_asgi_server):
    # A daphne whose Redis is a closed port: the database still answers, the rest does not.
    server = start_asgi_server(REDIS_URL="redis://127.0.0.1:9/0")

    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(f"{server.extra['url']}/healthz", timeout=20)

    assert raised.value.code == 503
    body = json.loads(raised.value.read())
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "ok"
    assert sorted(body["failing"]) == ["broker", "channel_layer"]
