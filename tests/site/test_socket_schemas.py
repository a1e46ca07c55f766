"""The schemas the client's unit tests read (tests/js/contract.test.js) are the server's."""

from __future__ import annotations

import io
import json
from pathlib import Path

from django.core.management import call_command

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "socket-schemas.json"


def test_the_client_tests_read_the_schemas_the_sockets_send():
    out = io.StringIO()
    call_command("socket_schemas", stdout=out)
    assert json.loads(FIXTURE.read_text()) == json.loads(out.getvalue()), (
        "the socket messages changed: python manage.py socket_schemas > "
        "tests/js/fixtures/socket-schemas.json, then make the client read the new fields"
    )
